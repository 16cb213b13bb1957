import Foundation
import MoatCore
import Testing
@testable import MoatScan

@Suite struct BaselineTests {
    static let web = """
    import UIKit

    final class Help {
        let webView = UIWebView()
    }

    """

    static let store = """
    import Foundation
    func load(_ data: Data) -> Any? {
        return NSKeyedUnarchiver.unarchiveObject(with: data)
    }

    """

    func write(_ tree: TemporaryTree, _ name: String, _ content: String) throws {
        try Data(content.utf8).write(to: tree.root.appendingPathComponent(name))
    }

    @Test func recordsActiveFindingsWithRuleIdPathAndMessage() throws {
        let tree = try TemporaryTree(["Help.swift": Self.web, "Store.swift": Self.store])
        defer { tree.remove() }
        let result = try tree.scan { $0.cacheDirectory = nil }
        let baseline = Baseline(findings: result.findings)
        #expect(baseline.entries.count == result.activeFindings.count)
        let entry = try #require(baseline.entries.first { $0.ruleId == "MOAT-PLAT-001" })
        #expect(entry.path == "Help.swift")
        #expect(entry.message.contains("UIWebView"))
        #expect(entry.fingerprint == result.findings.first { $0.ruleId == "MOAT-PLAT-001" }?.fingerprint)

        // The file round-trips and is stable (sorted, pretty-printed).
        let text = String(decoding: baseline.encoded(), as: UTF8.self)
        #expect(text.contains("\"findings\""))
        #expect(text.contains("\"version\" : 1") || text.contains("\"version\": 1"))
        let parsed = try Baseline.parse(baseline.encoded(), path: "baseline.json")
        #expect(parsed == baseline)
    }

    @Test func movingUnrelatedLinesKeepsFindingsMatched() throws {
        let tree = try TemporaryTree(["Help.swift": Self.web, "Store.swift": Self.store])
        defer { tree.remove() }
        let baseline = Baseline(findings: try tree.scan { $0.cacheDirectory = nil }.findings)
        #expect(baseline.entries.count == 2)

        // Unrelated lines added above both findings: every finding moves down, none is new.
        try write(tree, "Help.swift", "// Help screen.\n// Shows the FAQ.\n\n" + Self.web)
        try write(tree, "Store.swift", Self.store.replacingOccurrences(of: "import Foundation\n", with: "import Foundation\nimport os\n\nlet log = Logger()\n"))
        let result = try tree.scan {
            $0.cacheDirectory = nil
            $0.baseline = baseline
        }
        let comparison = try #require(result.baseline)
        #expect(result.findings.isEmpty)
        #expect(comparison.unchanged.count == 2)
        #expect(comparison.absent.isEmpty)
        #expect(comparison.unchanged.first { $0.ruleId == "MOAT-PLAT-001" }?.location.line == 7)
    }

    @Test func editingTheFlaggedLineMakesTheFindingNew() throws {
        let tree = try TemporaryTree(["Help.swift": Self.web, "Store.swift": Self.store])
        defer { tree.remove() }
        let baseline = Baseline(findings: try tree.scan { $0.cacheDirectory = nil }.findings)

        try write(tree, "Help.swift", Self.web.replacingOccurrences(of: "let webView = UIWebView()", with: "let helpView = UIWebView()"))
        let result = try tree.scan {
            $0.cacheDirectory = nil
            $0.baseline = baseline
        }
        let comparison = try #require(result.baseline)
        // The edited line's finding is reported as new; the untouched one stays matched.
        #expect(result.findings.map(\.ruleId) == ["MOAT-PLAT-001"])
        #expect(result.findings.first?.location.line == 4)
        #expect(result.findings.first?.evidence == "let helpView = UIWebView()")
        #expect(comparison.unchanged.map(\.ruleId) == ["MOAT-CODE-001"])
        // The old entry no longer matches anything and is listed as absent.
        #expect(comparison.absent.map(\.ruleId) == ["MOAT-PLAT-001"])
        #expect(comparison.absent.first?.path == "Help.swift")
    }

    @Test func fixedFindingsAreListedAsAbsent() throws {
        let tree = try TemporaryTree(["Help.swift": Self.web, "Store.swift": Self.store])
        defer { tree.remove() }
        let baseline = Baseline(findings: try tree.scan { $0.cacheDirectory = nil }.findings)
        try write(tree, "Store.swift", Self.store.replacingOccurrences(
            of: "NSKeyedUnarchiver.unarchiveObject(with: data)",
            with: "try? NSKeyedUnarchiver.unarchivedObject(ofClass: NSString.self, from: data)"))
        let result = try tree.scan {
            $0.cacheDirectory = nil
            $0.baseline = baseline
        }
        #expect(result.findings.isEmpty)
        #expect(result.baseline?.absent.map(\.ruleId) == ["MOAT-CODE-001"])
        #expect(result.baseline?.absent.first?.path == "Store.swift")
    }

    @Test func eachEntryMatchesOneFindingOnly() {
        func finding(_ fingerprint: String, line: Int) -> Finding {
            Finding(ruleId: "MOAT-X-001", slug: "x", title: "X", severity: .high, confidence: .high, message: "m",
                    location: Location(path: "a.swift", line: line), cwe: [], masvs: [], mastg: [], fix: "",
                    fingerprint: fingerprint)
        }
        let baseline = Baseline(entries: [Baseline.Entry(fingerprint: "f1", ruleId: "MOAT-X-001", path: "a.swift", message: "m")])
        let comparison = baseline.compare([finding("f1", line: 1), finding("f1", line: 2), finding("f2", line: 3)])
        #expect(comparison.unchanged.map(\.location.line) == [1])
        #expect(comparison.new.map(\.location.line) == [2, 3])
        #expect(comparison.absent.isEmpty)
    }

    @Test func rejectsFilesThatAreNotBaselines() {
        #expect(throws: ScanError.self) { try Baseline.parse(Data("[]".utf8), path: "b.json") }
        #expect(throws: ScanError.self) { try Baseline.parse(Data("{\"version\": 9, \"tool\": \"moat\", \"findings\": []}".utf8), path: "b.json") }
        #expect(throws: ScanError.self) { try Baseline.load(from: URL(fileURLWithPath: "/nonexistent/moat-baseline.json")) }
    }
}
