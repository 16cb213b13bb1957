import Foundation
import Testing

/// Exit codes and the `errors` list for each class of failure, and what Moat writes to disk.
struct FailureBehaviourTests {
    static func tree(_ files: [String: String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("moat-e2e-\(UUID().uuidString)")
        for (name, content) in files {
            let url = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(content.utf8).write(to: url)
        }
        return root
    }

    static func json(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func listing(_ root: URL) -> [String] {
        (FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String] ?? []).sorted()
    }

    @Test func cleanTreeExitsZero() throws {
        let root = try Self.tree(["App/A.swift": "let a = 1\n"])
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try ExampleAppTests.run(["scan", root.path, "--no-cache"])
        #expect(result.status == 0)
        #expect(String(decoding: result.stdout, as: UTF8.self).contains("no findings"))
    }

    @Test func brokenFilesAreListedAndTheScanGoesOn() throws {
        let root = try Self.tree([
            "App/Info.plist": "<?xml version=\"1.0\"?><plist><dict><key>A</key></dict>",
            "App/Bad.entitlements": "not a plist at all {",
            "App/A.swift": "let x = NSKeyedUnarchiver.unarchiveObject(with: d)\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        try Data([0x6C, 0x65, 0x74, 0xFF, 0xFE]).write(to: root.appendingPathComponent("App/Latin.swift"))
        let result = try ExampleAppTests.run(["scan", root.path, "--format", "json", "--no-cache", "--fail-on", "medium"])
        #expect(result.status == 1, "the finding in A.swift still counts")
        let document = try Self.json(result.stdout)
        let errors = try #require(document["errors"] as? [[String: String]])
        #expect(errors.map { $0["path"] ?? "" } == ["App/Bad.entitlements", "App/Info.plist", "App/Latin.swift"])
        #expect(errors.allSatisfy { !($0["message"] ?? "").isEmpty })
        let findings = try #require(document["findings"] as? [[String: Any]])
        #expect(findings.compactMap { ($0["location"] as? [String: Any])?["path"] as? String } == ["App/A.swift"])
        // The text format lists them too.
        let text = try ExampleAppTests.run(["scan", root.path, "--no-cache"])
        #expect(String(decoding: text.stdout, as: UTF8.self).contains("App/Latin.swift: skipped: not UTF-8 text"))
    }

    @Test func configurationErrorsExitTwo() throws {
        let root = try Self.tree([".moat.json": #"{"failOn": "high", "colour": true}"#, "A.swift": "let a = 1\n"])
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try ExampleAppTests.run(["scan", root.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("unknown configuration key 'colour'"))
        let missing = try ExampleAppTests.run(["scan", root.path, "--config", root.appendingPathComponent("nope.json").path])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("nope.json"))
    }

    @Test func unwritableOutputExitsTwo() throws {
        let root = try Self.tree(["A.swift": "let a = 1\n"])
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try ExampleAppTests.run(["scan", root.path, "--no-cache", "--output", "/nonexistent-dir/report.json"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("/nonexistent-dir/report.json"))
    }

    @Test func writesOnlyTheReportAndTheCache() throws {
        let root = try Self.tree(["App/A.swift": "let x = NSKeyedUnarchiver.unarchiveObject(with: d)\n", "App/Info.plist": "<?xml version=\"1.0\"?><plist><dict/></plist>"])
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("moat-out-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root); try? FileManager.default.removeItem(at: out) }
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let before = Self.listing(root)
        let report = out.appendingPathComponent("report.sarif")
        _ = try ExampleAppTests.run(["scan", root.path, "--no-cache", "--format", "sarif", "--output", report.path])
        #expect(Self.listing(root) == before, "--no-cache writes nothing into the scanned folder")
        #expect(Self.listing(out) == ["report.sarif"])
        _ = try ExampleAppTests.run(["scan", root.path, "--format", "json", "--output", out.appendingPathComponent("r.json").path])
        #expect(Self.listing(root) == before, "the cache goes to the user's cache folder, never into the scanned folder")
        #expect(Self.listing(out) == ["r.json", "report.sarif"])
    }
}

/// Secrets found in the scanned code never reach any output format in clear.
struct RedactionInEveryFormatTests {
    @Test(arguments: ["text", "json", "sarif", "xcode", "html", "markdown", "gitlab"])
    func secretsAreRedacted(format: String) throws {
        // Assembled at run time so that this test file holds no credential literal itself.
        let secret = "AKIA" + "QWERTYUIOPASDFGH"
        let token = "ghp" + "_0123456789abcdefghijklmnopqrstuvwxyzAB"
        let root = try FailureBehaviourTests.tree([
            "App/Keys.swift": """
            import Foundation
            struct Keys {
                static let awsAccessKey = "\(secret)"
                static let githubToken = "\(token)"
            }
            """,
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try ExampleAppTests.run(["scan", root.path, "--no-cache", "--format", format, "--show-suppressed"])
        let output = String(decoding: result.stdout, as: UTF8.self)
        #expect(result.status == 1, "the hard-coded credentials are findings (\(format))")
        #expect(output.contains("Keys.swift"), "the report names the file (\(format))")
        #expect(!output.contains(secret), "the AWS key appears in clear in the \(format) report")
        #expect(!output.contains(token), "the GitHub token appears in clear in the \(format) report")
    }
}
