import Foundation
import MoatCore
import MoatScan
import Testing
@testable import MoatReport
@testable import MoatTestSupport

/// Runs the built `moat` executable for the commands and formats this module serves.
@Suite struct CommandLineTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func run(_ arguments: [String], in directory: URL? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
        let (status, stdout, stderr) = try MoatProcess.run(arguments, packageRoot: packageRoot, in: directory)
        return (status, String(decoding: stdout, as: UTF8.self), stderr)
    }

    static let web = "import UIKit\nfinal class Help {\n    let webView = UIWebView()\n}\n"
    static let store = "import Foundation\nfunc load(_ data: Data) -> Any? {\n    return NSKeyedUnarchiver.unarchiveObject(with: data)\n}\n"

    func tree(_ files: [String: String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("moat-cli-tree-\(UUID().uuidString)")
        for (name, content) in files {
            let url = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(content.utf8).write(to: url)
        }
        return root
    }

    @Test func everyFormatIsAcceptedAndListedInHelp() throws {
        let root = try tree(["Help.swift": Self.web])
        defer { try? FileManager.default.removeItem(at: root) }
        let help = try Self.run(["help", "scan"])
        for format in ReportFormat.allCases {
            #expect(help.stdout.contains(format.rawValue + " "), "\(format) missing from help")
            let run = try Self.run(["scan", root.path, "--no-cache", "--format", format.rawValue])
            #expect(run.status == 1, "\(format): \(run.stderr)")
            #expect(run.stdout.contains("Help.swift"), "\(format) output lacks the finding")
            // Machine formats and pipes never get progress or colour.
            #expect(run.stderr.isEmpty, "\(format) wrote to stderr: \(run.stderr)")
            #expect(!run.stdout.contains("\u{1B}["))
        }
        let bad = try Self.run(["scan", root.path, "--format", "pdf"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("expected text, json, sarif, xcode, html, markdown, gitlab"))
    }

    @Test func baselineThenScanReportsOnlyNewFindings() throws {
        let root = try tree(["Help.swift": Self.web, "Store.swift": Self.store])
        defer { try? FileManager.default.removeItem(at: root) }
        let baselineFile = root.appendingPathComponent("moat-baseline.json").path
        let recorded = try Self.run(["baseline", root.path, "--no-cache", "-o", baselineFile])
        #expect(recorded.status == 0)
        #expect(recorded.stderr.contains("recorded 2 findings in"))
        let baseline = try Baseline.load(from: URL(fileURLWithPath: baselineFile))
        #expect(baseline.entries.map(\.ruleId).sorted() == ["MOAT-CODE-001", "MOAT-PLAT-001"])

        // Nothing new: exit 0 even though high findings exist.
        let clean = try Self.run(["scan", root.path, "--no-cache", "--baseline", baselineFile, "--format", "json"])
        #expect(clean.status == 0, "\(clean.stderr)")
        let document = try JSONTools.object(clean.stdout)
        #expect((document["findings"] as? [Any])?.isEmpty == true)
        #expect((document["baseline"] as? [String: Any])?["unchanged"] as? Int == 2)

        // A new finding, and a fixed one listed as absent.
        try Data((Self.web + "let other = UIWebView()\n").utf8).write(to: root.appendingPathComponent("Help.swift"))
        try Data("import Foundation\n".utf8).write(to: root.appendingPathComponent("Store.swift"))
        let text = try Self.run(["scan", root.path, "--no-cache", "--baseline", baselineFile])
        #expect(text.status == 1)
        // The new finding fails the gate: it opens the report, with its place in full.
        #expect(text.stdout.hasPrefix("\nFails the gate (1 at or above high):\n  Help.swift:5:13  [HIGH · MOAT-PLAT-001]"))
        #expect(!text.stdout.contains("  3:19  "))
        #expect(text.stdout.contains("Baseline: 1 known finding not shown, 1 new; 1 baseline entry no longer found"))
        #expect(text.stdout.contains("Store.swift  [MOAT-CODE-001]"))
        let sarif = try JSONTools.object(try Self.run(["scan", root.path, "--no-cache", "--baseline", baselineFile, "--format", "sarif"]).stdout)
        let results = ((sarif["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]]) ?? []
        #expect(results.compactMap { $0["baselineState"] as? String }.sorted() == ["absent", "new"])

        let missing = try Self.run(["scan", root.path, "--baseline", root.appendingPathComponent("nope.json").path])
        #expect(missing.status == 2)
    }

    @Test func diffReviewsTheChangeAndFailsOnNewFindingsOnly() throws {
        let root = try tree(["Sources/Old.swift": Self.web])
        defer { try? FileManager.default.removeItem(at: root) }
        func git(_ arguments: String...) throws {
            _ = try Git.run(["-c", "user.name=T", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"] + arguments, in: root)
        }
        func commit(_ name: String, _ content: String) throws {
            try Data(content.utf8).write(to: root.appendingPathComponent(name))
            try git("add", "-A")
            try git("commit", "-q", "-m", name)
        }
        try git("init", "-q")
        try git("add", "-A")
        try git("commit", "-q", "-m", "first")
        try commit("Sources/Note.swift", "let note = \"hello\"\n")

        // The old finding (insecure unarchiving, medium) is not on changed lines: the change passes the gate.
        let clean = try Self.run(["diff", "--base", "HEAD~1", "--no-cache", "--fail-on", "medium"], in: root)
        #expect(clean.status == 0, "\(clean.stderr)")
        #expect(clean.stdout.hasPrefix("## Moat security review of this change"))
        #expect(clean.stdout.contains("| Does it decode objects? | No |"))
        #expect(clean.stdout.contains("No findings on changed lines."))
        #expect(clean.stdout.contains("(1 elsewhere not shown)"))

        // A change that adds a finding at the threshold fails, and only that finding is reported.
        try commit("Sources/Store.swift", Self.store)
        let failing = try Self.run(["diff", "--base", "HEAD~1", "--no-cache", "--fail-on", "medium"], in: root)
        #expect(failing.status == 1)
        #expect(failing.stdout.contains("| Does it decode objects? | **Yes**: Sources/Store.swift:1-4 |"))
        #expect(failing.stdout.contains("<code>MOAT-CODE-001</code> Sources/Store.swift:3:12"))
        #expect(!failing.stdout.contains("Sources/Old.swift:3"))
        let json = try Self.run(["diff", "--base", "HEAD~1", "--no-cache", "--format", "json", "--fail-on", "medium"], in: root)
        #expect(json.status == 1)
        let document = try JSONTools.object(json.stdout)
        let review = try #require(document["changeReview"] as? [String: Any])
        #expect(review["base"] as? String == "HEAD~1")
        #expect((review["answers"] as? [[String: Any]])?.count == 4)
        #expect((document["findings"] as? [[String: Any]])?.count == 1)
        #expect(try Self.run(["diff", "--base", "HEAD~1", "--no-cache", "--fail-on", "critical"], in: root).status == 0)

        let noBase = try Self.run(["diff", root.path])
        #expect(noBase.status == 2)
        #expect(noBase.stderr.contains("diff needs --base REV"))
        let optionBase = try Self.run(["diff", "--base", "--upload-pack=touch /tmp/x", root.path])
        #expect(optionBase.status == 2)
    }
}
