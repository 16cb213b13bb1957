import Foundation
#if canImport(Glibc)
import Glibc
#endif
import MoatCore
import MoatRules
import MoatSyntax

/// Per-file analysis results of source files, keyed by content hash, tool version, the rules that ran
/// and the file's path. A second scan of an unchanged tree only reads and hashes files.
///
/// Layout: `<cache dir>/v1/<first two hex digits>/<key>.json`: the entry's JSON, then (for source files
/// analyzed by the dataflow rules) a newline and the file's dataflow facts (`FactsCoding`). Entries are written
/// atomically; an unreadable or corrupt entry is a miss, never an error (corrupt facts count as none).
public struct ResultCache: Sendable {
    public struct Entry: Codable, Sendable {
        public var findings: [Finding]
        public var summary: SourceSummary
        public var suppressions: [SuppressionDirective]
        public var errors: [ScanError]
        /// The dataflow facts for other files in `FactsCoding`'s form (nil when no dataflow rule ran).
        /// Stored after the entry's JSON, on a line of its own.
        public var facts: [UInt8]?

        enum CodingKeys: String, CodingKey {
            case findings, summary, suppressions, errors
        }
    }

    public static let defaultFolderName = ".moat-cache"
    public let directory: URL
    let salt: String

    /// `ruleIds` are the rules that ran: a different selection gives different results. The running
    /// executable's identity (path, size, modification time) is part of the key too, so a rebuilt Moat
    /// never reuses results of an older analyzer with the same version number.
    public init(directory: URL, ruleIds: [String]) {
        self.directory = directory
        self.salt = MoatVersion.current + "|" + Self.executableIdentity + "|" + ruleIds.sorted().joined(separator: ",")
    }

    static let executableIdentity: String = {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let path = executable == "/proc/self/exe" ? CommandLine.arguments.first ?? "" : executable
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return path }
        let size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return "\(path)|\(size)|\(modified)"
    }()

    /// The key of a file's results; `context` is what other files told its dataflow analysis.
    public func key(path: String, content: Data, context: DataflowContext? = nil) -> String {
        var hasher = SHA256()
        hasher.update(salt.utf8)
        hasher.update([0])
        hasher.update(path.utf8)
        hasher.update([0])
        hasher.update(content)
        if let context {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            hasher.update([0])
            hasher.update((try? encoder.encode(context)) ?? Data())
        }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }

    private func url(for key: String) -> URL {
        directory.appendingPathComponent("v1").appendingPathComponent(String(key.prefix(2)))
            .appendingPathComponent(key + ".json")
    }

    public func load(_ key: String) -> Entry? {
        guard let data = try? Data(contentsOf: url(for: key)) else { return nil }
        // The entry's JSON has no raw newline; the facts follow the first one.
        let newline: Int? = data.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress, let found = memchr(base, 0x0A, bytes.count) else { return nil }
            return base.distance(to: UnsafeRawPointer(found))
        }
        let json = newline.map { data.prefix($0) } ?? data
        guard var entry = try? JSONDecoder().decode(Entry.self, from: json) else { return nil }
        if let newline { entry.facts = [UInt8](data.suffix(from: data.startIndex + newline + 1)) }
        return entry
    }

    public func store(_ entry: Entry, for key: String) {
        let destination = url(for: key)
        do {
            try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            var data = try JSONEncoder().encode(entry)
            if let facts = entry.facts {
                data.append(0x0A)
                data.append(contentsOf: facts)
            }
            try data.write(to: destination, options: .atomic)
        } catch {
            // A cache that cannot be written only costs time.
        }
    }
}
