import Foundation
import MoatCore

/// The lines a change touched, per file, in the new version of each file: what `moat diff` reviews.
public struct ChangeSet: Sendable, Codable, Equatable {
    /// A run of changed lines in the new version of a file (`@@ -a,b +c,d @@`: lines c ..< c+d). A hunk
    /// that only deletes lines covers the lines on both sides of the deletion (removing a check changes
    /// the meaning of the code around it), and `isDeletion` is set.
    public struct Hunk: Sendable, Codable, Hashable, Comparable {
        public var startLine: Int
        public var endLine: Int
        public var isDeletion: Bool

        public init(startLine: Int, endLine: Int, isDeletion: Bool = false) {
            self.startLine = max(1, startLine)
            self.endLine = max(self.startLine, endLine)
            self.isDeletion = isDeletion
        }

        public func contains(_ line: Int) -> Bool { startLine <= line && line <= endLine }

        /// `12` or `12-18`.
        public var lines: String { startLine == endLine ? "\(startLine)" : "\(startLine)-\(endLine)" }

        public static func < (lhs: Hunk, rhs: Hunk) -> Bool { (lhs.startLine, lhs.endLine) < (rhs.startLine, rhs.endLine) }
    }

    /// Hunks by path (relative to the scanned root, `/`-separated), sorted.
    public var files: [String: [Hunk]]

    public init(files: [String: [Hunk]] = [:]) {
        self.files = files.mapValues { $0.sorted() }
    }

    public var paths: [String] { files.keys.sorted() }

    public func hunks(in path: String) -> [Hunk] { files[path] ?? [] }

    public func hunk(containing line: Int, in path: String) -> Hunk? {
        files[path]?.first { $0.contains(line) }
    }

    public func contains(path: String, line: Int) -> Bool { hunk(containing: line, in: path) != nil }

    /// Reads `git diff --unified=0` output (with `a/` and `b/` prefixes). Deleted files, binary files and
    /// pure mode changes contribute no lines. Malformed lines are skipped, never trusted.
    public static func parse(unifiedDiff: String) -> ChangeSet {
        var files: [String: [Hunk]] = [:]
        var current: String?
        for rawLine in unifiedDiff.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            if line.hasPrefix("diff --git ") {
                current = nil
            } else if line.hasPrefix("+++ ") {
                var name = String(line.dropFirst(4))
                if name.hasSuffix("\t") { name.removeLast() }
                if name.hasPrefix("\"") { name = unquote(name) ?? "" }
                if name == "/dev/null" || !name.hasPrefix("b/") {
                    current = nil
                } else {
                    let path = String(name.dropFirst(2))
                    current = isSafeRelativePath(path) ? path : nil
                }
            } else if line.hasPrefix("@@ "), let path = current, let hunk = parseHunkHeader(line) {
                files[path, default: []].append(hunk)
            }
        }
        return ChangeSet(files: files)
    }

    /// `@@ -a[,b] +c[,d] @@ context` → the new-side lines.
    static func parseHunkHeader(_ line: Substring) -> Hunk? {
        let parts = line.split(separator: " ")
        guard parts.count >= 3, parts[0] == "@@", let plus = parts.first(where: { $0.hasPrefix("+") }) else { return nil }
        let numbers = plus.dropFirst().split(separator: ",", omittingEmptySubsequences: false)
        guard let first = numbers.first, let start = Int(first), start >= 0, start < 100_000_000 else { return nil }
        var count = 1
        if numbers.count > 1 {
            guard let parsed = Int(numbers[1]), parsed >= 0, parsed < 100_000_000 else { return nil }
            count = parsed
        }
        if count == 0 {
            // Only deletions: `start` is the line before the removed ones.
            return Hunk(startLine: start, endLine: start + 1, isDeletion: true)
        }
        return Hunk(startLine: start, endLine: start + count - 1)
    }

    /// Git's C-style quoting of unusual file names: `"b/caf\303\251.swift"`.
    static func unquote(_ quoted: String) -> String? {
        var bytes: [UInt8] = []
        var scalars = Array(quoted.utf8)
        guard scalars.count >= 2, scalars.first == UInt8(ascii: "\""), scalars.last == UInt8(ascii: "\"") else { return nil }
        scalars = Array(scalars.dropFirst().dropLast())
        var index = 0
        while index < scalars.count {
            let byte = scalars[index]
            guard byte == UInt8(ascii: "\\") else {
                bytes.append(byte)
                index += 1
                continue
            }
            guard index + 1 < scalars.count else { return nil }
            let next = scalars[index + 1]
            switch next {
            case UInt8(ascii: "n"): bytes.append(0x0A); index += 2
            case UInt8(ascii: "t"): bytes.append(0x09); index += 2
            case UInt8(ascii: "\""): bytes.append(next); index += 2
            case UInt8(ascii: "\\"): bytes.append(next); index += 2
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                guard index + 3 < scalars.count else { return nil }
                var value = 0
                for offset in 1...3 {
                    let digit = scalars[index + offset]
                    guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "7") else { return nil }
                    value = value * 8 + Int(digit - UInt8(ascii: "0"))
                }
                guard value <= 255 else { return nil }
                bytes.append(UInt8(value))
                index += 4
            default:
                bytes.append(next)
                index += 2
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// A path inside the scanned root: relative, no `..`, no empty or NUL parts.
    static func isSafeRelativePath(_ path: String) -> Bool {
        guard !path.isEmpty, !path.hasPrefix("/"), !path.contains("\0") else { return false }
        return !path.split(separator: "/", omittingEmptySubsequences: false).contains { $0 == ".." || $0.isEmpty }
    }
}

/// Runs `git` without a shell: a fixed executable and an argument array.
public enum Git {
    /// `/usr/bin/git`, or the first `git` on PATH when that does not exist.
    public static func executable() -> URL? {
        let preferred = "/usr/bin/git"
        if FileManager.default.isExecutableFile(atPath: preferred) { return URL(fileURLWithPath: preferred) }
        for entry in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") where entry.hasPrefix("/") {
            let candidate = URL(fileURLWithPath: String(entry)).appendingPathComponent("git")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// Output larger than this is refused (a diff that big is not a pull request).
    public static let maximumOutput = 256 * 1024 * 1024

    /// Runs git in `directory` and returns its standard output; a non-zero exit becomes a `ScanError`
    /// carrying git's own message.
    public static func run(_ arguments: [String], in directory: URL) throws -> String {
        guard let git = executable() else {
            throw ScanError(path: "git", message: "git is not installed (looked for /usr/bin/git and git on PATH)")
        }
        let temporary = FileManager.default.temporaryDirectory
        let outURL = temporary.appendingPathComponent("moat-git-\(UUID().uuidString).out")
        let errURL = temporary.appendingPathComponent("moat-git-\(UUID().uuidString).err")
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        guard FileManager.default.createFile(atPath: outURL.path, contents: nil),
              FileManager.default.createFile(atPath: errURL.path, contents: nil),
              let out = try? FileHandle(forWritingTo: outURL), let err = try? FileHandle(forWritingTo: errURL) else {
            throw ScanError(path: temporary.path, message: "cannot create temporary files for git output")
        }
        let process = Process()
        process.executableURL = git
        // Configuration that could run programs from an untrusted repository is switched off.
        process.arguments = ["-c", "core.quotePath=false", "-c", "core.fsmonitor=false"] + arguments
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["GIT_TERMINAL_PROMPT"] = "0"
        environment["GIT_PAGER"] = "cat"
        environment["LC_ALL"] = "C"
        environment.removeValue(forKey: "GIT_EXTERNAL_DIFF")
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        do {
            try process.run()
        } catch {
            throw ScanError(path: git.path, message: "cannot run git: \(error.localizedDescription)")
        }
        process.waitUntilExit()
        try? out.close()
        try? err.close()
        let outSize = ((try? FileManager.default.attributesOfItem(atPath: outURL.path))?[.size] as? NSNumber)?.intValue ?? 0
        guard outSize <= maximumOutput else {
            throw ScanError(path: "git", message: "git output is larger than \(maximumOutput) bytes")
        }
        let output = String(decoding: FileManager.default.contents(atPath: outURL.path) ?? Data(), as: UTF8.self)
        guard process.terminationStatus == 0 else {
            let message = String(decoding: (FileManager.default.contents(atPath: errURL.path) ?? Data()).prefix(4000), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            throw ScanError(path: "git " + (arguments.first ?? ""),
                            message: message.isEmpty ? "git exited with status \(process.terminationStatus)" : message)
        }
        return output
    }

    /// The lines changed since `base` (a commit, branch, tag or `A...B`) under `path` (a folder or a
    /// file), with paths relative to `path` itself (or to its folder, for a file) — the same paths a scan
    /// of `path` reports. Compares `base` with the working tree, so uncommitted edits count too.
    public static func changes(since base: String, path: String) throws -> ChangeSet {
        guard !base.isEmpty, !base.hasPrefix("-"), !base.contains("\0"), !base.contains("\n") else {
            throw ScanError(path: "--base", message: "'\(base)' is not a revision")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ScanError(path: path, message: "no such file or folder")
        }
        let url = URL(fileURLWithPath: path)
        let directory = isDirectory.boolValue ? url : url.deletingLastPathComponent()
        let pathspec = isDirectory.boolValue ? "." : url.lastPathComponent
        // Outside a repository `git diff` would silently compare files instead (no-index mode).
        let inside = (try? run(["rev-parse", "--is-inside-work-tree"], in: directory))?.trimmingCharacters(in: .whitespacesAndNewlines)
        guard inside == "true" else {
            throw ScanError(path: path, message: "not inside a git working tree (moat diff compares the working tree with --base)")
        }
        let diff = try run(["diff", "--no-color", "--no-ext-diff", "--no-textconv", "--relative", "--unified=0",
                            "--src-prefix=a/", "--dst-prefix=b/", base, "--", pathspec], in: directory)
        return ChangeSet.parse(unifiedDiff: diff)
    }
}
