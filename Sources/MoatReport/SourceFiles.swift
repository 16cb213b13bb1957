import Foundation
import MoatCore
import MoatRules

/// Reads the scanned files back for reporters (source excerpts, UTF-16 columns), from the scan's roots.
///
/// A finding's path is relative to its root (prefixed by the root's name when several roots were scanned),
/// as `Scanner` builds it. Reading is bounded and never leaves a root: `..` parts, absolute paths and
/// symbolic links resolving outside the root are refused, only regular files are read (never a FIFO or a
/// device), and large files are skipped.
final class SourceFiles {
    static let maximumFileSize = 8 * 1024 * 1024
    /// Total bytes read for one report; past it excerpts are simply left out.
    static let maximumTotalBytes = 128 * 1024 * 1024

    private struct Root {
        var url: URL
        var realPath: String
        var isDirectory: Bool
        /// What finding paths start with for this root ("" for a single root).
        var prefix: String
    }

    private let roots: [Root]
    private var cache: [String: [Substring]?] = [:]
    private var bytesRead = 0

    init(roots arguments: [String]) {
        var roots: [Root] = []
        for argument in arguments {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) else { continue }
            let url = URL(fileURLWithPath: argument)
            let real = url.resolvingSymlinksInPath().standardizedFileURL.path
            roots.append(Root(url: url, realPath: real, isDirectory: isDirectory.boolValue,
                              prefix: arguments.count > 1 ? Self.displayPrefix(argument) : ""))
        }
        self.roots = roots
    }

    /// The same prefix `Scanner` gives a root when several are scanned.
    static func displayPrefix(_ argument: String) -> String {
        var trimmed = argument
        while trimmed.hasSuffix("/") && trimmed.count > 1 { trimmed.removeLast() }
        if trimmed.hasPrefix("./") { trimmed.removeFirst(2) }
        return trimmed
    }

    /// The file on disk for a finding path, or nil when it cannot be found safely.
    func url(for path: String) -> URL? {
        guard !path.isEmpty, !path.contains("\0") else { return nil }
        for root in roots {
            var relative = path
            if !root.prefix.isEmpty {
                // Several roots: paths start with the root as given (which may be absolute).
                guard path.hasPrefix(root.prefix + "/") else { continue }
                relative = String(path.dropFirst(root.prefix.count + 1))
            }
            let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
            guard !relative.isEmpty, !relative.hasPrefix("/"), !parts.contains(where: { $0 == ".." }) else { continue }
            let candidate: URL
            if root.isDirectory {
                candidate = root.url.appendingPathComponent(relative)
            } else {
                guard relative == root.url.lastPathComponent else { continue }
                candidate = root.url
            }
            let resolved = candidate.resolvingSymlinksInPath().standardizedFileURL
            if root.isDirectory {
                guard resolved.path.hasPrefix(root.realPath.hasSuffix("/") ? root.realPath : root.realPath + "/") else { continue }
            } else {
                guard resolved.path == root.realPath else { continue }
            }
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: resolved.path),
                  attributes[.type] as? FileAttributeType == .typeRegular else { continue }
            if let size = (attributes[.size] as? NSNumber)?.intValue, size > Self.maximumFileSize { continue }
            return resolved
        }
        return nil
    }

    /// The lines of a scanned file (split on `\n` as the scanner does, BOM removed), or nil.
    func lines(of path: String) -> [Substring]? {
        if let cached = cache[path] { return cached }
        var lines: [Substring]?
        if bytesRead < Self.maximumTotalBytes, let url = url(for: path),
           let data = try? Data(contentsOf: url, options: .mappedIfSafe), data.count <= Self.maximumFileSize {
            bytesRead += data.count
            var bytes = data[...]
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
            let text = String(decoding: bytes, as: UTF8.self)
            lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        }
        cache[path] = lines
        return lines
    }

    /// One line's text without its line ending, or nil.
    func line(_ number: Int, of path: String) -> String? {
        guard let lines = lines(of: path), number >= 1, number <= lines.count else { return nil }
        var line = lines[number - 1]
        if line.hasSuffix("\r") { line = line.dropLast() }
        return String(line)
    }

    /// Converts the scanner's 1-based UTF-8 byte column to a 1-based UTF-16 column (SARIF's default
    /// `columnKind`). Without the file, the byte column is kept (exact for ASCII lines).
    func utf16Column(path: String, line: Int, byteColumn: Int) -> Int {
        guard byteColumn > 1, let text = self.line(line, of: path) else { return max(1, byteColumn) }
        var bytes = 0
        var units = 0
        for scalar in text.unicodeScalars {
            let width = UTF8.width(scalar)
            if bytes + width > byteColumn - 1 { break }
            bytes += width
            units += UTF16.width(scalar)
        }
        if bytes < byteColumn - 1 && bytes == text.utf8.count {
            // Past the end of the line (the file changed since the scan): keep the remaining bytes as units.
            units += byteColumn - 1 - bytes
        }
        return units + 1
    }

    /// Up to `context` lines either side of `line`, each redacted like evidence and cut to a sane width.
    func excerpt(path: String, line: Int, context: Int = 3) -> [(number: Int, text: String)]? {
        guard let lines = lines(of: path), line >= 1, line <= lines.count else { return nil }
        let first = max(1, line - context)
        let last = min(lines.count, line + context)
        return (first...last).map { number in
            var text = String(lines[number - 1])
            if text.hasSuffix("\r") { text.removeLast() }
            text = text.replacingOccurrences(of: "\t", with: "    ")
            if text.count > 400 { text = String(text.prefix(400)) + "…" }
            return (number, Redaction.redact(text))
        }
    }
}
