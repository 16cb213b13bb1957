import Foundation
import Testing
import MoatCore
import MoatRules
@testable import MoatScan

/// The scan's phases on their own: each file's outcome carries one payload for its kind of input, and the
/// cross-file rounds give a file the context other files' facts imply.
struct ScanPhasesTests {
    static let plist = """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0"><dict><key>CFBundleIdentifier</key><string>com.example.app</string></dict></plist>
    """

    static func analyze(_ tree: TemporaryTree) -> [String: FileOutcome] {
        let files = Discovery(includeVendored: false, excludes: []).discover(root: tree.root).files
        let analysis = FileAnalysis(analyzer: Analyzer(rules: RuleRegistry.all), cache: nil, budget: FileBudget())
        var outcomes = analysis.run(files, jobs: 2, progress: nil)
        var rounds = CrossFileRounds(files: files, analysis: analysis, jobs: 2)
        rounds.run(&outcomes)
        return Dictionary(uniqueKeysWithValues: zip(files.map(\.path), outcomes))
    }

    @Test func eachKindOfInputHasItsOwnPayload() throws {
        let tree = try TemporaryTree([
            "App/Handler.swift": CrossFileDataflowTests.handler,
            "App/FileImporter.swift": CrossFileDataflowTests.importer,
            "App/Info.plist": Self.plist,
            "App/Broken.plist": "<plist><dict><key>unterminated",
        ])
        defer { tree.remove() }
        let outcomes = Self.analyze(tree)

        let handler = try #require(outcomes["App/Handler.swift"]?.source)
        #expect(handler.summary.path == "App/Handler.swift")
        #expect(handler.facts != nil, "dataflow rules ran, so the file has facts for the others")
        guard case .propertyList(let plist) = outcomes["App/Info.plist"]?.payload else {
            Issue.record("Info.plist: \(String(describing: outcomes["App/Info.plist"]?.payload))")
            return
        }
        #expect(plist.root["CFBundleIdentifier"]?.string == "com.example.app")
        let broken = try #require(outcomes["App/Broken.plist"])
        guard case .nothing = broken.payload else {
            Issue.record("a file that cannot be read gives nothing to the rest of the scan: \(broken.payload)")
            return
        }
        #expect(broken.errors.count == 1 && broken.errors.first?.path == "App/Broken.plist")
    }

    @Test func crossFileRoundsGiveTheCalledFileItsContextAndItsFinding() throws {
        let tree = try TemporaryTree(["App/Handler.swift": CrossFileDataflowTests.handler,
                                      "App/FileImporter.swift": CrossFileDataflowTests.importer,
                                      "App/NameCleaner.swift": CrossFileDataflowTests.weakCleaner])
        defer { tree.remove() }
        let outcomes = Self.analyze(tree)
        let importer = try #require(outcomes["App/FileImporter.swift"])
        #expect(importer.source?.context?.seeds.isEmpty == false)
        #expect(importer.findings.filter { $0.ruleId == PathTraversalRule.description.id }.map(\.location.line) == [5])
        #expect(outcomes["App/NameCleaner.swift"]?.findings.isEmpty == true)
    }
}
