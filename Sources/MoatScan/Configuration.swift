import Foundation
import MoatCore

/// `.moat.json`: typed, with unknown keys rejected by name.
///
/// ```json
/// {
///   "disabledRules": ["MOAT-NET-004"],
///   "enabledRules": [],
///   "severityOverrides": { "MOAT-PLAT-001": "medium" },
///   "exclude": ["Generated/**", "**/*.generated.swift"],
///   "includeVendored": false,
///   "includeInventory": false,
///   "failOn": "high",
///   "include": ["experimental"],
///   "fileTimeout": 30,
///   "timeout": 600
/// }
/// ```
public struct Configuration: Codable, Sendable, Equatable {
    /// Rules (ids or slugs) that never run.
    public var disabledRules: [String] = []
    /// When not empty, only these rules run.
    public var enabledRules: [String] = []
    public var severityOverrides: [String: Severity] = [:]
    /// Glob patterns, relative to the scanned root (`*` within a name, `**` across folders).
    public var exclude: [String] = []
    public var includeVendored: Bool?
    /// Also list inventory entries (entitlements, URL schemes, bridges...) among the findings.
    public var includeInventory: Bool?
    public var failOn: Severity?
    /// Suites run beside the default one (`--include`): `["experimental"]`.
    public var include: Set<RuleSuite> = []
    /// Seconds one file may parse, and its rules run (`--file-timeout`); 0 turns the budget off.
    public var fileTimeout: Double?
    /// Seconds the whole scan may take (`--timeout`); past it, the command stops with exit code 2.
    public var timeout: Double?

    public init() {}

    public static let fileName = ".moat.json"
    static let knownKeys: Set<String> = ["disabledRules", "enabledRules", "severityOverrides", "exclude",
                                         "includeVendored", "includeInventory", "failOn", "include", "fileTimeout", "timeout"]

    public static func load(from url: URL) throws -> Configuration {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ScanError(path: url.path, message: "cannot read configuration: \(error.localizedDescription)")
        }
        return try parse(data, path: url.path)
    }

    public static func parse(_ data: Data, path: String) throws -> Configuration {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw ScanError(path: path, message: "configuration is not valid JSON")
        }
        guard let dictionary = object as? [String: Any] else {
            throw ScanError(path: path, message: "configuration must be a JSON object")
        }
        for key in dictionary.keys.sorted() where !knownKeys.contains(key) {
            throw ScanError(path: path, message: "unknown configuration key '\(key)' (known keys: \(knownKeys.sorted().joined(separator: ", ")))")
        }
        do {
            return try JSONDecoder().decode(Configuration.self, from: data)
        } catch let DecodingError.dataCorrupted(context) {
            throw ScanError(path: path, message: "invalid value at '\(context.codingPath.map(\.stringValue).joined(separator: "."))': \(context.debugDescription)")
        } catch let DecodingError.typeMismatch(_, context) {
            throw ScanError(path: path, message: "wrong type at '\(context.codingPath.map(\.stringValue).joined(separator: "."))': \(context.debugDescription)")
        } catch {
            throw ScanError(path: path, message: "invalid configuration: \(error)")
        }
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        disabledRules = try container.decodeIfPresent([String].self, forKey: .disabledRules) ?? []
        enabledRules = try container.decodeIfPresent([String].self, forKey: .enabledRules) ?? []
        severityOverrides = try container.decodeIfPresent([String: Severity].self, forKey: .severityOverrides) ?? [:]
        exclude = try container.decodeIfPresent([String].self, forKey: .exclude) ?? []
        includeVendored = try container.decodeIfPresent(Bool.self, forKey: .includeVendored)
        includeInventory = try container.decodeIfPresent(Bool.self, forKey: .includeInventory)
        failOn = try container.decodeIfPresent(Severity.self, forKey: .failOn)
        include = Set(try container.decodeIfPresent([RuleSuite].self, forKey: .include) ?? [])
        fileTimeout = try Self.seconds(container, .fileTimeout, allowsZero: true)
        timeout = try Self.seconds(container, .timeout, allowsZero: false)
    }

    private static func seconds<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key, allowsZero: Bool) throws -> Double? {
        guard let value = try container.decodeIfPresent(Double.self, forKey: key) else { return nil }
        guard value.isFinite, allowsZero ? value >= 0 : value > 0 else {
            throw DecodingError.dataCorruptedError(forKey: key, in: container,
                                                   debugDescription: "expected a number of seconds\(allowsZero ? ", 0 or more" : " above 0")")
        }
        return value
    }
}

/// Minimal glob matching for exclude patterns: `*` and `?` within one path component, `**` across any
/// number of components. Patterns without a `/` match a file name anywhere.
public enum Glob {
    public static func matches(_ pattern: String, path: String) -> Bool {
        let patternParts = pattern.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        let pathParts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        if !pattern.contains("/") {
            return pathParts.contains { component(pattern, $0) }
        }
        return match(patternParts[...], pathParts[...])
    }

    private static func match(_ pattern: ArraySlice<String>, _ path: ArraySlice<String>) -> Bool {
        guard let first = pattern.first else { return path.isEmpty }
        if first == "**" {
            let rest = pattern.dropFirst()
            if rest.isEmpty { return true }
            var remaining = path
            while true {
                if match(rest, remaining) { return true }
                guard !remaining.isEmpty else { return false }
                remaining = remaining.dropFirst()
            }
        }
        guard let head = path.first, component(first, head) else {
            // A pattern naming a folder also excludes everything below it.
            return false
        }
        if pattern.count == 1 && path.count > 1 { return true }
        return match(pattern.dropFirst(), path.dropFirst())
    }

    /// `*` and `?` within one component.
    static func component(_ pattern: String, _ name: String) -> Bool {
        let p = Array(pattern.unicodeScalars)
        let n = Array(name.unicodeScalars)
        var pi = 0, ni = 0, star = -1, mark = 0
        while ni < n.count {
            if pi < p.count && (p[pi] == "?" || p[pi] == n[ni]) {
                pi += 1
                ni += 1
            } else if pi < p.count && p[pi] == "*" {
                star = pi
                mark = ni
                pi += 1
            } else if star >= 0 {
                pi = star + 1
                mark += 1
                ni = mark
            } else {
                return false
            }
        }
        while pi < p.count && p[pi] == "*" { pi += 1 }
        return pi == p.count
    }
}
