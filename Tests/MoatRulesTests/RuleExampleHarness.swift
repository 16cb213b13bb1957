import Foundation
import MoatCore
import MoatFormats
import MoatRules
import MoatScan

/// Writes an example's files into a fresh folder and scans it with the real pipeline.
enum RuleExampleHarness {
    struct Marker: Hashable, CustomStringConvertible {
        var path: String
        var line: Int
        /// nil when only the line is compared (property-list findings are located by key line).
        var column: Int?
        /// In built apps and binaries, what locates a finding instead of lines: the symbol, string or key
        /// path (nil for the binary or the document itself).
        var detail: String?
        var isBinary = false

        init(path: String, line: Int, column: Int?) {
            self.path = path
            self.line = line
            self.column = column
        }

        init(binaryPath path: String, detail: String?) {
            self.path = path
            self.line = 1
            self.column = nil
            self.detail = detail
            self.isBinary = true
        }

        var description: String {
            isBinary ? "\(path) [\(detail ?? "-")]" : "\(path):\(line)" + (column.map { ":\($0)" } ?? "")
        }
    }

    /// Files of built apps (under a `.app/` folder) and Mach-O sketches are located by symbol or key
    /// path: their findings have no meaningful lines.
    static func isBinaryLocated(_ path: String) -> Bool {
        path.contains(".app/") || path.contains(".app!/")
    }

    static func scan(files: [(name: String, content: String)], onlyRule: String? = nil) throws -> ScanResult {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("moat-example-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        for file in files {
            let url = root.appendingPathComponent(file.name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            if MachOSketch.isSketch(file.content) {
                try MachOSketch(file.content, name: url.lastPathComponent).build().write(to: url)
            } else {
                try Data(file.content.utf8).write(to: url)
            }
        }
        // A sketched bundle executable gets a minimal Info.plist naming it, unless the example has one.
        for file in files where MachOSketch.isSketch(file.content) {
            let folder = (file.name as NSString).deletingLastPathComponent
            let lower = folder.lowercased()
            guard lower.hasSuffix(".app") || lower.hasSuffix(".appex") || lower.hasSuffix(".framework"),
                  !files.contains(where: { $0.name == folder + "/Info.plist" }) else { continue }
            let executable = (file.name as NSString).lastPathComponent
            try Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>CFBundleExecutable</key><string>\(executable)</string></dict></plist>
            """.utf8).write(to: root.appendingPathComponent(folder + "/Info.plist"))
        }
        var options = ScanOptions(paths: [root.path])
        // Inventory rules are checked like any other: their entries are listed as findings here.
        options.includeInventory = true
        if let onlyRule { options.onlyRules = [onlyRule] }
        return try Scanner.scan(options).result
    }

    /// The cleaned files and the expected markers of an example.
    static func prepare(_ example: RuleExample) -> (files: [(name: String, content: String)], markers: [Marker]) {
        var files: [(String, String)] = []
        var markers: [Marker] = []
        for file in example.files {
            let (content, positions) = file.cleaned
            if MachOSketch.isSketch(file.content) {
                // The sketch keeps its markers: they say which symbol each finding must carry.
                files.append((file.name, file.content))
                let expected = (try? MachOSketch(file.content).expected) ?? []
                markers += expected.map { Marker(binaryPath: file.name, detail: $0) }
                continue
            }
            files.append((file.name, content))
            if isBinaryLocated(file.name) {
                // A property list of a built app: each marker names the key on its line.
                let document = try? PropertyListParser.parse(data: Data(content.utf8), path: file.name)
                for position in positions {
                    markers.append(Marker(binaryPath: file.name, detail: document.flatMap { keyPath(onLine: position.line, in: $0.root) }))
                }
                continue
            }
            for position in positions { markers.append(Marker(path: file.name, line: position.line, column: position.column)) }
        }
        return (files, markers)
    }

    /// Where findings of a rule were reported, in the comparable form.
    static func reported(_ result: ScanResult, rule: String) -> [Marker] {
        result.findings.filter { $0.ruleId == rule }.map { finding in
            if isBinaryLocated(finding.location.path) || finding.location.symbol != nil || finding.location.path.hasSuffix(".dylib") || finding.location.path.hasSuffix(".so") {
                return Marker(binaryPath: finding.location.path, detail: finding.location.keyPath ?? finding.location.symbol)
            }
            return Marker(path: finding.location.path, line: finding.location.line,
                          column: finding.location.keyPath == nil ? finding.location.column : nil)
        }
    }

    /// The key path of the dictionary entry whose key is on this line.
    static func keyPath(onLine line: Int, in node: PlistNode) -> String? {
        for entry in node.entries ?? [] {
            if entry.keyLine == line { return entry.value.keyPath }
            if let found = keyPath(onLine: line, in: entry.value) { return found }
        }
        for element in node.array ?? [] {
            if let found = keyPath(onLine: line, in: element) { return found }
        }
        return nil
    }

    /// Expected markers reduced to the precision of what was reported (line only for plist findings).
    static func comparable(_ expected: [Marker], against reported: [Marker]) -> [Marker] {
        expected.map { marker in
            // A secret in a binary's strings is reported by its redacted form only.
            if marker.isBinary, let detail = marker.detail, !reported.contains(marker) {
                let masked = Marker(binaryPath: marker.path, detail: Redaction.mask(detail))
                if reported.contains(masked) { return masked }
            }
            if reported.contains(Marker(path: marker.path, line: marker.line, column: nil)),
               !reported.contains(marker) {
                return Marker(path: marker.path, line: marker.line, column: nil)
            }
            return marker
        }
    }

    static func isSource(_ name: String) -> Bool {
        ["swift", "m", "mm", "h", "c", "cc", "cpp"].contains((name as NSString).pathExtension)
    }

    /// The file wrapped so that its code becomes a comment.
    static func wrappedInComment(_ content: String) -> String? {
        content.contains("*/") || content.contains("/*") ? nil : "/*\n" + content + "\n*/\n"
    }

    /// A Swift file whose code becomes a raw multi-line string literal.
    static func wrappedInSwiftString(_ content: String) -> String? {
        content.contains("\"\"\"#") ? nil : "let wrapped = #\"\"\"\n" + content + "\n\"\"\"#\n"
    }
}
