import Foundation

/// A property list value with where it came from: its key path from the root and, for XML and OpenStep
/// sources, the 1-based line of its `<key>` (or of the value itself for array elements and the root).
public final class PlistNode: @unchecked Sendable {
    public enum Value {
        case string(String)
        case integer(Int64)
        case real(Double)
        case bool(Bool)
        case date(Date)
        case data(Data)
        case array([PlistNode])
        case dictionary([PlistEntry])
    }

    public let value: Value
    /// `NSAppTransportSecurity.NSExceptionDomains.example.com.NSExceptionAllowsInsecureHTTPLoads`; array
    /// elements are `[0]`, `[1]`. Keys that contain dots are kept as they are.
    public let keyPath: String
    public let line: Int?

    public init(value: Value, keyPath: String, line: Int?) {
        self.value = value
        self.keyPath = keyPath
        self.line = line
    }

    /// Longest key path kept, in UTF-8 bytes: a longer one is cut there and ends in "…". Readers build a
    /// child's path from its parent's, so without a cap deep nesting of long keys is quadratic, and a
    /// binary plist's shared objects (up to `BinaryPlistReader.maximumNodes` of them) each got a path
    /// hundreds of kilobytes long (about 3 KB of file asked for gigabytes).
    public static let maximumKeyPathLength = 1_024

    /// The key path of a dictionary value: `parent.key`, or `key` at the root.
    public static func keyPath(_ parent: String, key: String) -> String {
        if isCapped(parent) { return parent }
        return parent.isEmpty ? joined([key]) : joined([parent, ".", key])
    }

    /// The key path of an array element: `parent[index]`.
    public static func keyPath(_ parent: String, index: Int) -> String {
        if isCapped(parent) { return parent }
        return joined([parent, "[\(index)]"])
    }

    private static let ellipsis = "…"

    /// A cut path is shared (not copied) by everything below it.
    private static func isCapped(_ path: String) -> Bool {
        path.utf8.count > maximumKeyPathLength - 8 && path.hasSuffix(ellipsis)
    }

    /// The parts joined, or cut at a whole character (`Unicode.Scalar`) when longer than the cap; a long
    /// key is not copied whole first.
    private static func joined(_ parts: [String]) -> String {
        guard parts.reduce(0, { $0 + $1.utf8.count }) > maximumKeyPathLength else { return parts.joined() }
        let room = maximumKeyPathLength - ellipsis.utf8.count
        var kept = String.UnicodeScalarView()
        var length = 0
        cut: for part in parts {
            for scalar in part.unicodeScalars {
                let width = UTF8.width(scalar)
                if length + width > room { break cut }
                kept.append(scalar)
                length += width
            }
        }
        return String(kept) + ellipsis
    }

    public var string: String? {
        if case .string(let text) = value { return text }
        return nil
    }

    /// Booleans, and the integers/strings some tools write instead (`1`, `YES`, `true`).
    public var bool: Bool? {
        switch value {
        case .bool(let flag): return flag
        case .integer(let number): return number != 0
        case .string(let text):
            switch text.lowercased() {
            case "yes", "true", "1": return true
            case "no", "false", "0": return false
            default: return nil
            }
        default: return nil
        }
    }

    public var array: [PlistNode]? {
        if case .array(let elements) = value { return elements }
        return nil
    }

    public var entries: [PlistEntry]? {
        if case .dictionary(let entries) = value { return entries }
        return nil
    }

    /// The entry for a key of a dictionary.
    public func entry(_ key: String) -> PlistEntry? {
        entries?.first { $0.key == key }
    }

    public subscript(key: String) -> PlistNode? { entry(key)?.value }

    /// Strings of an array value (non-strings skipped), or the string itself.
    public var strings: [String] {
        if let text = string { return [text] }
        return array?.compactMap(\.string) ?? []
    }

    /// A Foundation value (`[String: Any]`, `[Any]`, ...), for code that wants plain values.
    public var foundationValue: Any {
        switch value {
        case .string(let text): return text
        case .integer(let number): return number
        case .real(let number): return number
        case .bool(let flag): return flag
        case .date(let date): return date
        case .data(let data): return data
        case .array(let elements): return elements.map(\.foundationValue)
        case .dictionary(let entries):
            var result: [String: Any] = [:]
            for entry in entries { result[entry.key] = entry.value.foundationValue }
            return result
        }
    }
}

public struct PlistEntry {
    public let key: String
    /// Line of the `<key>` element (XML) or of the key (OpenStep); nil for binary plists.
    public let keyLine: Int?
    public let value: PlistNode

    public init(key: String, keyLine: Int?, value: PlistNode) {
        self.key = key
        self.keyLine = keyLine
        self.value = value
    }
}

public enum PlistFormat: String, Sendable, Codable {
    case xml, binary, openStep
    /// A JSON resource read into the same tree (`JSONDocumentReader`).
    case json
}

/// What a property list is for, judged from its name and content.
public enum PlistKind: String, Sendable, Codable {
    case infoPlist, entitlements, privacyManifest, other

    public static func of(path: String) -> PlistKind {
        let name = (path as NSString).lastPathComponent
        let lower = name.lowercased()
        if lower.hasSuffix(".entitlements") { return .entitlements }
        if lower.hasSuffix(".xcprivacy") { return .privacyManifest }
        if lower == "info.plist" || lower.hasSuffix("-info.plist") || lower.hasSuffix("_info.plist") { return .infoPlist }
        return .other
    }
}

/// One parsed property list file.
public final class PropertyListDocument: @unchecked Sendable {
    public let path: String
    public let format: PlistFormat
    public let kind: PlistKind
    public let root: PlistNode

    public init(path: String, format: PlistFormat, kind: PlistKind, root: PlistNode) {
        self.path = path
        self.format = format
        self.kind = kind
        self.root = root
    }

    /// The line to report for a node: its key's line, else the nearest known line, else 1.
    public func line(of node: PlistNode) -> Int { node.line ?? 1 }
}
