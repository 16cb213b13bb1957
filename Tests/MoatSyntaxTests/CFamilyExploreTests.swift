import Foundation
import Testing
import MoatSyntax

@Suite struct CFamilyExploreTests {
    @Test func explore() throws {
        guard let path = ProcessInfo.processInfo.environment["CF_EXPLORE"] else { return }
        let source = try String(contentsOfFile: path, encoding: .utf8)
        let language = SourceLanguage.of(fileName: path) ?? .objectiveC
        let start = Date()
        let file = CFamilyTestSupport.parse(source, language, path: path)
        let elapsed = Date().timeIntervalSince(start)
        if ProcessInfo.processInfo.environment["CF_QUIET"] == nil {
            print(CFamilyTestSupport.outline(file))
            print("imports:", file.imports)
            print("types:", file.typeReferences.map { "\($0.name)@\($0.range.start.line):\($0.range.start.column)" }.joined(separator: " "))
            print("comments:", file.comments.map { "\($0.text)@\($0.range.start.line):\($0.range.start.column)" })
        }
        print("diagnostics:", file.diagnostics.prefix(30))
        print("elapsed:", elapsed)
    }
}
