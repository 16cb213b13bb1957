import Foundation
import MoatCore
import MoatRules
import MoatScan

/// Writes an example's files into a fresh folder and scans it with the real pipeline.
enum RuleExampleHarness {
    struct Marker: Hashable, CustomStringConvertible {
        var path: String
        var line: Int
        /// nil when only the line is compared (property-list findings are located by key line).
        var column: Int?

        var description: String { "\(path):\(line)" + (column.map { ":\($0)" } ?? "") }
    }

    static func scan(files: [(name: String, content: String)], onlyRule: String? = nil) throws -> ScanResult {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("moat-example-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        for file in files {
            let url = root.appendingPathComponent(file.name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.content.utf8).write(to: url)
        }
        var options = ScanOptions(paths: [root.path])
        if let onlyRule { options.onlyRules = [onlyRule] }
        return try Scanner.scan(options).result
    }

    /// The cleaned files and the expected markers of an example.
    static func prepare(_ example: RuleExample) -> (files: [(name: String, content: String)], markers: [Marker]) {
        var files: [(String, String)] = []
        var markers: [Marker] = []
        for file in example.files {
            let (content, positions) = file.cleaned
            files.append((file.name, content))
            for position in positions { markers.append(Marker(path: file.name, line: position.line, column: position.column)) }
        }
        return (files, markers)
    }

    /// Where findings of a rule were reported, in the comparable form.
    static func reported(_ result: ScanResult, rule: String) -> [Marker] {
        result.findings.filter { $0.ruleId == rule }.map { finding in
            Marker(path: finding.location.path, line: finding.location.line,
                   column: finding.location.keyPath == nil ? finding.location.column : nil)
        }
    }

    /// Expected markers reduced to the precision of what was reported (line only for plist findings).
    static func comparable(_ expected: [Marker], against reported: [Marker]) -> [Marker] {
        expected.map { marker in
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
