import Foundation

/// The library versions a project's dependency manager resolved, read from its lock file: CocoaPods
/// `Podfile.lock`, SwiftPM `Package.resolved` (format versions 1, 2 and 3) and Carthage
/// `Cartfile.resolved`. Each library is named as its pod, its package (`ZIPFoundation`) or its repository
/// (`weichsel/ZIPFoundation` gives `ZIPFoundation`), with the line it is locked on.
///
/// A lock file that is not in its format is an error naming the line (`DependencyLockError`); the scan
/// reports it for the file and goes on.
public struct DependencyLock: Sendable, Hashable {
    public enum Manager: String, Sendable, Hashable, Codable {
        case cocoaPods = "CocoaPods", swiftPM = "SwiftPM", carthage = "Carthage"
    }

    public struct Entry: Sendable, Hashable, Codable {
        /// The pod, package or repository name (`SSZipArchive`, `ZIPFoundation`, `ZipArchive`).
        public var name: String
        /// Other names the same library goes by in this file: a package's identity and the last component
        /// of its repository URL (`zipfoundation`, `ZIPFoundation`).
        public var aliases: [String]
        /// The version as written (`0.9.17`, `v2.1.1`); nil when the lock pins a branch or a revision.
        public var version: String?
        public var line: Int
    }

    public var path: String
    public var manager: Manager
    public var entries: [Entry]

    /// The file names a lock file has, whatever folder it is in.
    public static let fileNames: Set<String> = ["Podfile.lock", "Package.resolved", "Cartfile.resolved"]
    /// Lock files larger than this are not read (a real one is a few kilobytes).
    public static let maximumSize = 4 * 1024 * 1024

    public static func isLockFile(path: String) -> Bool {
        fileNames.contains((path as NSString).lastPathComponent)
    }

    /// Reads a lock file by its name. Throws `DependencyLockError` for a file that is not in its format.
    public static func read(data: Data, path: String) throws -> DependencyLock {
        guard data.count <= maximumSize else {
            throw DependencyLockError("lock file is \(data.count) bytes, larger than the \(maximumSize)-byte limit")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw DependencyLockError("lock file is not valid UTF-8") }
        switch (path as NSString).lastPathComponent {
        case "Podfile.lock": return DependencyLock(path: path, manager: .cocoaPods, entries: try podfileLock(text))
        case "Cartfile.resolved": return DependencyLock(path: path, manager: .carthage, entries: try cartfileResolved(text))
        default: return DependencyLock(path: path, manager: .swiftPM, entries: try packageResolved(data, path: path))
        }
    }

    /// The entry for a library, by its name or an alias, compared without case.
    public func entry(named name: String) -> Entry? {
        let wanted = name.lowercased()
        return entries.first { $0.name.lowercased() == wanted || $0.aliases.contains { $0.lowercased() == wanted } }
    }

    // MARK: CocoaPods

    /// `PODS:` then `  - Name (1.2.3)` or `  - Name (1.2.3):` followed by its dependencies (deeper), until
    /// the next top-level key. A subspec (`Firebase/Core`) is locked with its pod's version.
    static func podfileLock(_ text: String) throws -> [Entry] {
        var entries: [Entry] = []
        var inPods = false
        var sawPods = false
        for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw[...]
            let number = offset + 1
            if line.trimmingCharacters(in: .whitespaces).isEmpty || line.hasPrefix("#") { continue }
            if !line.hasPrefix(" ") && !line.hasPrefix("-") {
                guard line.hasSuffix(":") || line.contains(": ") else {
                    throw DependencyLockError("malformed Podfile.lock at line \(number): expected a key such as `PODS:`")
                }
                inPods = line == "PODS:"
                sawPods = sawPods || inPods
                continue
            }
            guard inPods else { continue }
            // Only the pods themselves: two spaces, a dash; their dependencies are indented further.
            guard line.hasPrefix("  - ") else {
                guard line.hasPrefix("    ") else {
                    throw DependencyLockError("malformed Podfile.lock at line \(number): expected `  - Pod (version)` under PODS")
                }
                continue
            }
            var item = line.dropFirst(4)
            if item.hasSuffix(":") { item = item.dropLast() }
            item = item.drop { $0 == "\"" }
            if item.hasSuffix("\"") { item = item.dropLast() }
            guard let open = item.firstIndex(of: "("), item.hasSuffix(")") else {
                throw DependencyLockError("malformed Podfile.lock at line \(number): a pod without a version in parentheses")
            }
            let name = item[..<open].trimmingCharacters(in: .whitespaces)
            let version = item[item.index(after: open)..<item.index(before: item.endIndex)].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, !version.isEmpty else {
                throw DependencyLockError("malformed Podfile.lock at line \(number): a pod without a name or a version")
            }
            let pod = name.split(separator: "/").first.map(String.init) ?? name
            guard !entries.contains(where: { $0.name == pod }) else { continue }
            entries.append(Entry(name: pod, aliases: [], version: version, line: number))
        }
        guard sawPods else { throw DependencyLockError("malformed Podfile.lock: no `PODS:` section") }
        return entries
    }

    // MARK: Carthage

    /// `github "owner/Name" "1.2.3"`, `git "url" "v1.0"`, `binary "url" "1.0"`; comments start with `#`.
    static func cartfileResolved(_ text: String) throws -> [Entry] {
        var entries: [Entry] = []
        for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let parts = line.split(separator: "\"", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            // origin, "", location, "", version, "" → `github "a/b" "1.0"` splits into 5 parts.
            guard parts.count == 5, ["github", "git", "binary"].contains(parts[0]), !parts[1].isEmpty, !parts[3].isEmpty,
                  parts[2].isEmpty, parts[4].isEmpty else {
                throw DependencyLockError("malformed Cartfile.resolved at line \(offset + 1): expected `github \"owner/Name\" \"version\"`")
            }
            let location = parts[1]
            var name = location.split(separator: "/").last.map(String.init) ?? location
            if name.hasSuffix(".git") { name.removeLast(4) }
            if name.hasSuffix(".json") { name.removeLast(5) }
            entries.append(Entry(name: name, aliases: [location], version: versionOrNil(parts[3]), line: offset + 1))
        }
        return entries
    }

    // MARK: SwiftPM

    /// Version 1: `{"object": {"pins": [{"package", "repositoryURL", "state": {"version"}}]}, "version": 1}`;
    /// versions 2 and 3: `{"pins": [{"identity", "location", "state": {"version"}}], "version": 2}`.
    static func packageResolved(_ data: Data, path: String) throws -> [Entry] {
        let document: PropertyListDocument
        do {
            document = try JSONDocumentReader.parse(data: data, path: path)
        } catch let error as PropertyListError {
            throw DependencyLockError("malformed Package.resolved: \(error.message)")
        }
        let root = document.root
        guard root.entries != nil else { throw DependencyLockError("malformed Package.resolved: the top level is not an object") }
        let pins: [PlistNode]
        if let list = root["pins"]?.array {
            pins = list
        } else if let list = root["object"]?["pins"]?.array {
            pins = list
        } else {
            throw DependencyLockError("malformed Package.resolved: no `pins` list (format version 1, 2 or 3)")
        }
        var entries: [Entry] = []
        for pin in pins {
            var line = pin.line ?? 1
            guard pin.entries != nil else {
                throw DependencyLockError("malformed Package.resolved at line \(line): a pin that is not an object")
            }
            let location = pin["location"]?.string ?? pin["repositoryURL"]?.string
            var repository = location.flatMap { $0.split(separator: "/").last.map(String.init) }
            if let name = repository, name.hasSuffix(".git") { repository = String(name.dropLast(4)) }
            guard let name = pin["package"]?.string ?? repository ?? pin["identity"]?.string else {
                throw DependencyLockError("malformed Package.resolved at line \(line): a pin without `identity`, `package` or `location`")
            }
            line = (pin.entry("identity") ?? pin.entry("package"))?.keyLine ?? line
            let aliases = [pin["identity"]?.string, repository].compactMap { $0 }.filter { $0 != name }
            let version = pin["state"]?["version"]?.string.flatMap(versionOrNil)
            entries.append(Entry(name: name, aliases: aliases, version: version, line: line))
        }
        return entries
    }

    private static func versionOrNil(_ text: String) -> String? {
        DependencyVersion(text) == nil ? nil : text
    }
}

/// A lock file that is not in its format.
public struct DependencyLockError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// A release version (`0.9.17`, `v2.1.3`, `2.1.3-beta`), compared number by number. A pre-release
/// comes before its release (`2.1.3-beta` < `2.1.3`).
public struct DependencyVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var numbers: [Int]
    public var isPrerelease: Bool

    public init?(_ text: String) {
        var core = Substring(text.trimmingCharacters(in: .whitespaces))
        if core.first == "v" || core.first == "V" { core = core.dropFirst() }
        let prerelease = core.firstIndex { $0 == "-" || $0 == "+" }
        isPrerelease = prerelease.map { core[$0] == "-" } ?? false
        if let prerelease { core = core[..<prerelease] }
        let parts = core.split(separator: ".", omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.count <= 6 else { return nil }
        var numbers: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 9, part.allSatisfy(\.isASCII), let number = Int(part), number >= 0 else { return nil }
            numbers.append(number)
        }
        self.numbers = numbers
    }

    public static func < (lhs: DependencyVersion, rhs: DependencyVersion) -> Bool {
        let count = max(lhs.numbers.count, rhs.numbers.count)
        for index in 0..<count {
            let left = index < lhs.numbers.count ? lhs.numbers[index] : 0
            let right = index < rhs.numbers.count ? rhs.numbers[index] : 0
            if left != right { return left < right }
        }
        return lhs.isPrerelease && !rhs.isPrerelease
    }

    public var description: String { numbers.map(String.init).joined(separator: ".") }
}

/// The lock files of a scan, and which of them a source file is built with: a lock file covers the folder
/// it is in (a `Package.resolved` inside `App.xcodeproj/` or `App.xcworkspace/` covers the folder of the
/// project), so in a repository of several apps each app's files get their own app's locks.
public struct DependencyLocks: Sendable, Hashable {
    public var locks: [DependencyLock]

    public init(_ locks: [DependencyLock] = []) {
        self.locks = locks.sorted { $0.path < $1.path }
    }

    public var isEmpty: Bool { locks.isEmpty }

    /// The folder a lock file covers (`""` for the root).
    public static func scope(of path: String) -> String {
        var components = path.split(separator: "/").map(String.init).dropLast()
        if let project = components.firstIndex(where: { $0.hasSuffix(".xcodeproj") || $0.hasSuffix(".xcworkspace") }) {
            components = components[..<project]
        }
        return components.joined(separator: "/")
    }

    /// The locks that cover a file, the nearest first, with only the entries of the given libraries (by
    /// name or alias, without case); locks with none of them are left out.
    public func locks(covering path: String, libraries: Set<String>) -> [DependencyLock] {
        let wanted = Set(libraries.map { $0.lowercased() })
        var found: [(depth: Int, lock: DependencyLock)] = []
        for lock in locks {
            let scope = Self.scope(of: lock.path)
            guard scope.isEmpty || path.hasPrefix(scope + "/") else { continue }
            var kept = lock
            kept.entries = lock.entries.filter { entry in
                wanted.contains(entry.name.lowercased()) || entry.aliases.contains { wanted.contains($0.lowercased()) }
            }
            guard !kept.entries.isEmpty else { continue }
            found.append((scope.isEmpty ? 0 : scope.split(separator: "/").count, kept))
        }
        return found.sorted { ($0.depth, $1.lock.path) > ($1.depth, $0.lock.path) }.map(\.lock)
    }
}
