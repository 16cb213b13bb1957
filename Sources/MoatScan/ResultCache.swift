import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MoatCore
import MoatFormats
import MoatRules
import MoatSyntax

/// Per-file analysis results of source files, keyed by content hash, tool version, rules fingerprint, the
/// rules that ran and the file's path. A second scan of an unchanged tree only reads and hashes files.
///
/// Layout: `<cache dir>/v2/<first two hex digits>/<key>.entry`: the entry in `BinaryWriter`'s compact form
/// (`Entry.encoded`: a magic and version, the findings, the file's summary, its suppressions and errors, and
/// for source files analyzed by the dataflow rules the file's dataflow facts in `FactsCoding`'s form).
/// Entries are written atomically; an unreadable, corrupt or truncated entry is a miss, never an error.
/// Older Moat versions wrote JSON entries under `v1/` (`<key>.json`): they are never read, and `trim`
/// counts and evicts them like the others.
///
/// Where: by default in the user's cache folder (`userCacheBase`), one folder per scanned root
/// (`folder(forRoots:in:)`), never in the scanned tree. Size: `trim` evicts the least recently used
/// entries (a hit refreshes an entry's modification time) once the cache holds more than its limit.
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

        public init(findings: [Finding], summary: SourceSummary, suppressions: [SuppressionDirective], errors: [ScanError],
                    facts: [UInt8]? = nil) {
            self.findings = findings
            self.summary = summary
            self.suppressions = suppressions
            self.errors = errors
            self.facts = facts
        }

        /// "MCE" and the layout's version: an entry of another layout is a miss.
        static let magic: [UInt8] = Array("MCE2".utf8)

        /// The entry in the cache's compact form (the generic JSON encoder cost more than the rest of storing
        /// an entry: about 5 % of a cold scan).
        public var encoded: [UInt8] {
            var writer = BinaryWriter()
            writer.bytes.reserveCapacity(4096)
            writer.bytes.append(contentsOf: Self.magic)
            writer.list(findings) { $0.finding($1) }
            writer.summary(summary)
            writer.list(suppressions) { writer, directive in
                writer.string(directive.path)
                writer.int(directive.line)
                writer.int(directive.column)
                writer.strings(directive.ruleIds)
                writer.optionalString(directive.reason)
            }
            writer.list(errors) { $0.scanError($1) }
            writer.optional(facts) { $0.raw($1) }
            return writer.bytes
        }

        /// The entry `encoded` wrote, or nil when the bytes are of another layout, truncated or corrupt.
        public init?(encoded bytes: [UInt8]) {
            var reader = BinaryReader(bytes: bytes)
            guard reader.expect(Self.magic) else { return nil }
            do {
                findings = try reader.list { try $0.finding() }
                summary = try reader.summary()
                suppressions = try reader.list { reader in
                    SuppressionDirective(path: try reader.string(), line: try reader.int(), column: try reader.int(),
                                         ruleIds: try reader.strings(), reason: try reader.optionalString())
                }
                errors = try reader.list { try $0.scanError() }
                facts = try reader.optional { try $0.raw() }
            } catch {
                return nil
            }
            guard reader.atEnd else { return nil }
        }
    }

    /// The folder older Moat versions wrote into the scanned tree; discovery still skips it.
    public static let defaultFolderName = ".moat-cache"
    /// The default size limit of the whole cache (all scanned roots together): 200 MB.
    public static let defaultLimitBytes: Int64 = 200 * 1024 * 1024
    public let directory: URL
    let salt: String

    /// `ruleIds` are the rules that ran: a different selection gives different results. The tool version,
    /// the rules fingerprint and the running executable's identity (path, size, modification time) are part
    /// of the key too, so a rebuilt Moat never reuses results of an older analyzer with the same version.
    public init(directory: URL, ruleIds: [String]) {
        self.directory = directory
        self.salt = MoatVersion.current + "|" + RulesFingerprint.current + "|" + Self.executableIdentity + "|"
            + ruleIds.sorted().joined(separator: ",")
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
    public func key(path: String, content: Data, context: DataflowContext? = nil, dependencies: [DependencyLock] = []) -> String {
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
        // The locked versions the file's rules read (none for most files: the key stays as it was).
        for lock in dependencies {
            hasher.update([1])
            hasher.update(lock.path.utf8)
            for entry in lock.entries {
                hasher.update([0])
                hasher.update("\(entry.name)\u{0}\(entry.version ?? "")\u{0}\(entry.line)".utf8)
            }
        }
        return SHA256.lowercaseHex(hasher.finalize())
    }

    /// The folder of the current layout, and its entries' file extension.
    static let layout = "v2"
    static let entryExtension = "entry"

    func url(for key: String) -> URL {
        directory.appendingPathComponent(Self.layout).appendingPathComponent(String(key.prefix(2)))
            .appendingPathComponent(key + "." + Self.entryExtension)
    }

    public func load(_ key: String) -> Entry? {
        let location = url(for: key)
        guard let data = try? Data(contentsOf: location) else { return nil }
        // A hit is a use: the entry becomes the most recently used one for `trim`.
        _ = location.withUnsafeFileSystemRepresentation { path in path.map { utimes($0, nil) } }
        return Entry(encoded: [UInt8](data))
    }

    public func store(_ entry: Entry, for key: String) {
        let destination = url(for: key)
        do {
            try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(entry.encoded).write(to: destination, options: .atomic)
        } catch {
            // A cache that cannot be written only costs time.
        }
    }

    // MARK: Where the cache lives, and how big it may grow

    /// Moat's folder in the user's cache folder: `$XDG_CACHE_HOME/moat` (an absolute `XDG_CACHE_HOME`, on
    /// any system), else `~/Library/Caches/moat` on macOS and `~/.cache/moat` elsewhere. Nil without a home.
    public static func userCacheBase(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("moat", isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? FileManager.default.homeDirectoryForCurrentUser.path
        guard home.hasPrefix("/"), home != "/" else { return nil }
        #if os(macOS)
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent("Library/Caches/moat", isDirectory: true)
        #else
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".cache/moat", isDirectory: true)
        #endif
    }

    /// The cache folder of a scan of these roots inside `base`: named by a hash of their absolute paths,
    /// so scans of different trees never share (or evict each other's) entries by accident.
    public static func folder(forRoots roots: [String], in base: URL) -> URL {
        let absolute = roots.map { URL(fileURLWithPath: $0).standardizedFileURL.resolvingSymlinksInPath().path }
        let digest = SHA256.hex(absolute.joined(separator: "\u{0}"))
        return base.appendingPathComponent(String(digest.prefix(16)), isDirectory: true)
    }

    /// Creates the cache folder (and checks that a file can be written in it). Returns nil when the cache
    /// can be used, else why not, for a warning: a cache that cannot be written only costs time.
    /// `roots`, when given, are written to `roots.txt` so that a person can tell the folders apart.
    public static func prepare(_ directory: URL, roots: [String] = []) -> String? {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let probe = directory.appendingPathComponent(".probe-\(getpid())")
            try Data().write(to: probe)
            try FileManager.default.removeItem(at: probe)
            if !roots.isEmpty {
                let note = directory.appendingPathComponent("roots.txt")
                if !FileManager.default.fileExists(atPath: note.path) {
                    let absolute = roots.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
                    try? Data((absolute.joined(separator: "\n") + "\n").utf8).write(to: note, options: .atomic)
                }
            }
            return nil
        } catch {
            return (error as NSError).localizedDescription
        }
    }

    /// Evicts the least recently used entries below `base` (every entry of every scanned root in it) until
    /// they take at most nine tenths of `limit` bytes, when they take more than `limit`. Only Moat's own
    /// entry files (`isEntry`) are counted or removed, whatever else the folder holds.
    /// Returns the number of entries removed and the bytes the remaining ones take.
    @discardableResult
    public static func trim(_ base: URL, limit: Int64) -> (removed: Int, remainingBytes: Int64) {
        let keys: [URLResourceKey] = [.isRegularFileKey, .fileSizeKey, .contentModificationDateKey]
        guard let enumerator = FileManager.default.enumerator(at: base, includingPropertiesForKeys: keys,
                                                              options: [], errorHandler: { _, _ in true }) else { return (0, 0) }
        var entries: [(url: URL, size: Int64, used: Date)] = []
        var total: Int64 = 0
        for case let url as URL in enumerator {
            guard isEntry(url), let values = try? url.resourceValues(forKeys: Set(keys)), values.isRegularFile == true else { continue }
            let size = Int64(values.fileSize ?? 0)
            entries.append((url, size, values.contentModificationDate ?? .distantPast))
            total += size
        }
        guard total > limit else { return (0, total) }
        entries.sort { $0.used != $1.used ? $0.used < $1.used : $0.url.path < $1.url.path }
        let target = limit / 10 * 9
        var removed = 0
        for entry in entries where total > target {
            if (try? FileManager.default.removeItem(at: entry.url)) != nil {
                total -= entry.size
                removed += 1
            }
        }
        return (removed, total)
    }

    /// `…/v2/<2 hex>/<64 hex>.entry`: a file this cache wrote; or `…/v1/<2 hex>/<64 hex>.json`, one an older
    /// Moat wrote (never read again, so the first to go).
    static func isEntry(_ url: URL) -> Bool {
        let name = url.lastPathComponent
        let shard = url.deletingLastPathComponent()
        let layout = shard.deletingLastPathComponent().lastPathComponent
        let suffix: String
        switch layout {
        case Self.layout: suffix = "." + Self.entryExtension
        case "v1": suffix = ".json"
        default: return false
        }
        guard name.count == 64 + suffix.count, name.hasSuffix(suffix) else { return false }
        let hexDigits = Set("0123456789abcdef")
        guard name.dropLast(suffix.count).allSatisfy(hexDigits.contains) else { return false }
        return shard.lastPathComponent.count == 2 && shard.lastPathComponent.allSatisfy(hexDigits.contains)
            && name.hasPrefix(shard.lastPathComponent)
    }
}
