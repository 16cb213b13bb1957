import Foundation
import MoatCore

/// Findings accepted as they are today, so that a scan reports only what is new.
///
/// Entries are keyed by the finding's content-based fingerprint (rule, file, normalized line text or key
/// path, occurrence; see `PostProcessor`): a finding keeps matching when unrelated lines move, and becomes
/// new when the flagged line itself is edited. Rule id, path and message are kept for people reading the
/// file and for listing entries that no longer match.
///
/// ```json
/// { "version": 1, "tool": "moat 0.1.0",
///   "findings": [ { "fingerprint": "9f0c…", "ruleId": "MOAT-NET-001", "path": "App/Info.plist",
///                   "message": "NSAllowsArbitraryLoads disables …" } ] }
/// ```
public struct Baseline: Codable, Sendable, Equatable {
    public static let formatVersion = 1
    /// Baseline files larger than this are refused rather than read.
    public static let maximumSize = 64 * 1024 * 1024

    public struct Entry: Codable, Sendable, Hashable {
        public var fingerprint: String
        public var ruleId: String
        public var path: String
        public var message: String

        public init(fingerprint: String, ruleId: String, path: String, message: String) {
            self.fingerprint = fingerprint
            self.ruleId = ruleId
            self.path = path
            self.message = message
        }

        public init(_ finding: Finding) {
            self.init(fingerprint: finding.fingerprint, ruleId: finding.ruleId, path: finding.location.path,
                      message: finding.message)
        }
    }

    public var version: Int
    public var tool: String
    public var entries: [Entry]

    enum CodingKeys: String, CodingKey {
        case version, tool
        case entries = "findings"
    }

    public init(entries: [Entry], tool: String = "\(MoatVersion.name) \(MoatVersion.current)") {
        self.version = Self.formatVersion
        self.tool = tool
        self.entries = entries.sorted { ($0.path, $0.ruleId, $0.fingerprint) < ($1.path, $1.ruleId, $1.fingerprint) }
    }

    /// A baseline of the active findings of a scan (suppressed ones are already silenced in the source).
    public init(findings: [Finding]) {
        self.init(entries: findings.filter { $0.suppression == nil }.map(Entry.init))
    }

    /// The file's content: pretty-printed, keys sorted, entries sorted, so baselines diff well in review.
    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
        return data + Data("\n".utf8)
    }

    public static func load(from url: URL) throws -> Baseline {
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        if let size = (attributes?[.size] as? NSNumber)?.intValue, size > maximumSize {
            throw ScanError(path: url.path, message: "baseline is larger than \(maximumSize) bytes")
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ScanError(path: url.path, message: "cannot read baseline")
        }
        return try parse(data, path: url.path)
    }

    public static func parse(_ data: Data, path: String) throws -> Baseline {
        let baseline: Baseline
        do {
            baseline = try JSONDecoder().decode(Baseline.self, from: data)
        } catch {
            throw ScanError(path: path, message: "not a Moat baseline (expected {\"version\": 1, \"findings\": [...]}, written by `moat baseline`)")
        }
        guard baseline.version == formatVersion else {
            throw ScanError(path: path, message: "baseline format version \(baseline.version) is not supported (this Moat reads version \(formatVersion))")
        }
        return baseline
    }

    /// Splits a scan's findings into those the baseline knows (unchanged) and the rest (new), and lists the
    /// entries nothing matched any more (absent: fixed, or the flagged line was edited).
    public func compare(_ findings: [Finding]) -> BaselineComparison {
        // A fingerprint may legitimately repeat in a hand-merged baseline: match each entry at most once.
        var remaining: [String: Int] = [:]
        for entry in entries { remaining[entry.fingerprint, default: 0] += 1 }
        var new: [Finding] = []
        var unchanged: [Finding] = []
        var matched: [String: Int] = [:]
        for finding in findings {
            if let count = remaining[finding.fingerprint], count > 0 {
                remaining[finding.fingerprint] = count - 1
                matched[finding.fingerprint, default: 0] += 1
                unchanged.append(finding)
            } else {
                new.append(finding)
            }
        }
        var absent: [Entry] = []
        for entry in entries {
            if let count = matched[entry.fingerprint], count > 0 {
                matched[entry.fingerprint] = count - 1
            } else {
                absent.append(entry)
            }
        }
        return BaselineComparison(new: new, unchanged: unchanged, absent: absent)
    }
}

/// The outcome of comparing a scan with a baseline.
public struct BaselineComparison: Sendable, Codable {
    /// Findings the baseline does not record: these are reported.
    public var new: [Finding]
    /// Findings the baseline records: left out of the report.
    public var unchanged: [Finding]
    /// Baseline entries no current finding matches.
    public var absent: [Baseline.Entry]

    public init(new: [Finding], unchanged: [Finding], absent: [Baseline.Entry]) {
        self.new = new
        self.unchanged = unchanged
        self.absent = absent
    }
}
