import Foundation
import Testing
@testable import MoatTestSupport

/// The command-line budgets, as a CI job meets them: a file that would hold the scan is named in `errors`
/// and every other file's findings are reported; `--timeout` stops the command with exit code 2 and says how
/// far it got. The stuck parse is the test stand-in `MOAT_TEST_STALL` (a file whose worker never returns and
/// which the budget takes as overrun at once), so nothing here waits for a budget to pass.
struct BudgetTests {
    static func exampleCopy() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("moat-budget-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: ExampleAppTests.exampleApp, to: root)
        return root
    }

    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, stdout: Data, stderr: String) {
        try MoatProcess.run(arguments, packageRoot: ExampleAppTests.packageRoot, environment: environment)
    }

    @Test func aStallingFileIsNamedAndEveryExampleFindingIsReported() throws {
        let root = try Self.exampleCopy()
        defer { try? FileManager.default.removeItem(at: root) }
        // The fuzzer's shape at N = 40 (refused before parsing) and a file whose parse never ends.
        try Data(("\"\n" + String(repeating: "[", count: 40) + "F").utf8).write(to: root.appendingPathComponent("LeakyBank/Stall.swift"))
        try Data("let ready = true\n".utf8).write(to: root.appendingPathComponent("LeakyBank/Stuck.swift"))
        let (status, stdout, stderr) = try Self.run(["scan", root.path, "--format", "json", "--no-cache", "--timeout", "300"],
                                                    environment: ["MOAT_TEST_STALL": "LeakyBank/Stuck.swift"])
        #expect(status == 1, "the example's findings still fail the gate; stderr: \(stderr)")
        #expect(stderr.contains("moat: LeakyBank/Stuck.swift: not analysed: parsing took longer than 30 s, see --file-timeout; starting the scan again without it"))
        let lines = try ExampleAppTests.findingLines(stdout)
        let expected = try ExampleAppTests.expectedFindings()
        #expect(lines.sorted() == expected.sorted(), "missing: \(Set(expected).subtracting(lines).sorted()); unexpected: \(Set(lines).subtracting(expected).sorted())")
        let document = try #require(try JSONSerialization.jsonObject(with: stdout) as? [String: Any])
        let errors = try #require(document["errors"] as? [[String: String]])
        #expect(errors == [
            ["path": "LeakyBank/Stall.swift", "message": "not analysed: square brackets nested 40 deep (limit 10); the Swift parser takes time exponential in that depth"],
            ["path": "LeakyBank/Stuck.swift", "message": "not analysed: parsing took longer than 30 s, see --file-timeout"],
        ])
    }

    @Test func theFileBudgetIsConfigurableAndItsMessageSaysSo() throws {
        let root = try Self.exampleCopy()
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("let ready = true\n".utf8).write(to: root.appendingPathComponent("LeakyBank/Stuck.swift"))
        let stall = ["MOAT_TEST_STALL": "LeakyBank/Stuck.swift"]
        let flag = try Self.run(["scan", root.path, "--format", "json", "--no-cache", "--file-timeout", "2.5", "--timeout", "300"], environment: stall)
        #expect(String(decoding: flag.stdout, as: UTF8.self).contains("not analysed: parsing took longer than 2.5 s, see --file-timeout"))
        try Data(#"{"fileTimeout": 4}"#.utf8).write(to: root.appendingPathComponent(".moat.json"))
        let configured = try Self.run(["scan", root.path, "--format", "json", "--no-cache", "--timeout", "300"], environment: stall)
        #expect(String(decoding: configured.stdout, as: UTF8.self).contains("not analysed: parsing took longer than 4 s, see --file-timeout"))
    }

    @Test func theWholeScanTimeoutSaysHowFarItGotAndExitsTwo() throws {
        let root = try Self.exampleCopy()
        defer { try? FileManager.default.removeItem(at: root) }
        // The command started long ago (as after restarts): the time is up at once.
        let past = ["MOAT_STARTED_AT": String(Date().timeIntervalSince1970 - 3600)]
        let flag = try Self.run(["scan", root.path, "--format", "json", "--no-cache", "--timeout", "60"], environment: past)
        #expect(flag.status == 2)
        #expect(flag.stdout.isEmpty)
        #expect(flag.stderr.hasPrefix("moat: the scan took longer than --timeout 60 s and was stopped: "), "\(flag.stderr)")
        #expect(flag.stderr.contains("; no report was written"))
        // A stuck file under no file budget: only the whole-scan timeout ends the command.
        try Data("let ready = true\n".utf8).write(to: root.appendingPathComponent("LeakyBank/Stuck.swift"))
        try Data(#"{"timeout": 30, "fileTimeout": 0}"#.utf8).write(to: root.appendingPathComponent(".moat.json"))
        let configured = try Self.run(["scan", root.path, "--no-cache"],
                                      environment: past.merging(["MOAT_TEST_STALL": "LeakyBank/Stuck.swift"]) { $1 })
        #expect(configured.status == 2)
        #expect(configured.stderr.contains("took longer than --timeout 30 s"), "\(configured.stderr)")
    }

    @Test func badBudgetsAreUsageErrors() throws {
        for (option, value) in [("--file-timeout", "-1"), ("--file-timeout", "soon"), ("--timeout", "0"), ("--timeout", "inf")] {
            let result = try Self.run(["scan", ExampleAppTests.exampleApp.path, option, value])
            #expect(result.status == 2)
            #expect(result.stderr.contains("invalid value '\(value)' for \(option) (expected seconds"), "\(result.stderr)")
        }
    }
}
