import Foundation
import Testing
@testable import MoatTestSupport

/// Runs the built `moat` executable on the example app, as a user would.
struct ExampleAppTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let exampleApp = packageRoot.appendingPathComponent("Examples/LeakyBank")

    static func run(_ arguments: [String], in directory: URL? = nil) throws -> (status: Int32, stdout: Data, stderr: String) {
        try MoatProcess.run(arguments, packageRoot: packageRoot, in: directory)
    }

    static func expectedFindings(_ file: String = "Examples/LeakyBank.expected") throws -> [String] {
        let text = try String(contentsOf: packageRoot.appendingPathComponent(file), encoding: .utf8)
        return text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty }
    }

    static func findingLines(_ stdout: Data) throws -> [String] {
        let document = try #require(try JSONSerialization.jsonObject(with: stdout) as? [String: Any])
        let findings = try #require(document["findings"] as? [[String: Any]])
        return findings.filter { $0["suppression"] == nil }.map { finding in
            let location = finding["location"] as? [String: Any] ?? [:]
            return "\(finding["ruleId"] as? String ?? "?") \(location["path"] as? String ?? "?"):\(location["line"] as? Int ?? 0)"
        }
    }

    @Test func inventoryIsListedAsFindingsOnlyWhenAskedFor() throws {
        // Without the option, no inventory entry is a finding; with it (or the configuration key), exactly
        // the entries of LeakyBank.inventory.expected are added, at info severity.
        let inventory = try Self.expectedFindings("Examples/LeakyBank.inventory.expected")
        #expect(inventory.count > 20)
        let plain = try Self.findingLines(try Self.run(["scan", Self.exampleApp.path, "--no-cache", "--format", "json"]).stdout)
        #expect(Set(plain).isDisjoint(with: inventory))
        let (status, stdout, stderr) = try Self.run(["scan", Self.exampleApp.path, "--no-cache", "--include-inventory", "--format", "json"])
        #expect(status == 1, "stderr: \(stderr)")
        let with = try Self.findingLines(stdout)
        #expect(with.sorted() == (try Self.expectedFindings() + inventory).sorted(),
                "unexpected: \(Set(with).subtracting(plain).subtracting(inventory).sorted()); missing: \(Set(inventory).subtracting(with).sorted())")
        let document = try #require(try JSONSerialization.jsonObject(with: stdout) as? [String: Any])
        let added = ((document["findings"] as? [[String: Any]]) ?? []).filter { finding in
            let location = finding["location"] as? [String: Any] ?? [:]
            return inventory.contains("\(finding["ruleId"] as? String ?? "?") \(location["path"] as? String ?? "?"):\(location["line"] as? Int ?? 0)")
        }
        #expect(added.allSatisfy { $0["severity"] as? String == "info" })
        // The typed entry travels with the finding: the bridge inventory says what it lists.
        let bridge = added.first { $0["ruleId"] as? String == "MOAT-PLAT-209" }
        #expect((bridge?["inventory"] as? [String: Any])?["kind"] as? String == "jsContextValue")
        #expect((bridge?["inventory"] as? [String: Any])?["name"] as? String == "log")
        // The text format counts the inventory it does not list, and lists it with --show-inventory.
        let text = String(decoding: try Self.run(["scan", Self.exampleApp.path, "--no-cache"]).stdout, as: UTF8.self)
        #expect(text.contains("\(inventory.count) inventory entries not shown (") && text.contains("--show-inventory"))
        #expect(!text.contains("[INFO · MOAT-PLAT-209]"))
        let shown = String(decoding: try Self.run(["scan", Self.exampleApp.path, "--no-cache", "--show-inventory"]).stdout, as: UTF8.self)
        #expect(shown.contains("[INFO · MOAT-PLAT-209] Native block `log` is put into a JSContext"))
    }

    @Test func jsonFindingsMatchTheExpectedListExactly() throws {
        let (status, stdout, stderr) = try Self.run(["scan", Self.exampleApp.path, "--format", "json"])
        #expect(status == 1, "findings at or above high must exit 1; stderr: \(stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: stdout) as? [String: Any])
        #expect(Set(document.keys) == ["tool", "findings", "errors", "summary"])
        let tool = try #require(document["tool"] as? [String: Any])
        #expect(tool["name"] as? String == "moat")
        let findings = try #require(document["findings"] as? [[String: Any]])
        var actual: [String] = []
        for finding in findings where finding["suppression"] == nil {
            let location = try #require(finding["location"] as? [String: Any])
            let rule = try #require(finding["ruleId"] as? String)
            actual.append("\(rule) \(location["path"] as? String ?? "?"):\(location["line"] as? Int ?? 0)")
            for field in ["slug", "title", "severity", "confidence", "message", "cwe", "masvs", "mastg", "fix", "fingerprint", "isTestCode"] {
                #expect(finding[field] != nil, "\(rule) lacks \(field)")
            }
        }
        let expected = try Self.expectedFindings()
        #expect(actual.sorted() == expected.sorted(),
                "missing: \(Set(expected).subtracting(actual).sorted()); unexpected: \(Set(actual).subtracting(expected).sorted())")
        let errors = try #require(document["errors"] as? [[String: Any]])
        #expect(errors.isEmpty, "example app must load cleanly: \(errors)")
    }

    @Test func findingsAreSortedAndTestCodeIsMarked() throws {
        let (_, stdout, _) = try Self.run(["scan", Self.exampleApp.path, "--format", "json"])
        let document = try #require(try JSONSerialization.jsonObject(with: stdout) as? [String: Any])
        let findings = try #require(document["findings"] as? [[String: Any]])
        let keys = findings.compactMap { finding -> (String, Int, String)? in
            guard let location = finding["location"] as? [String: Any], let path = location["path"] as? String,
                  let line = location["line"] as? Int, let rule = finding["ruleId"] as? String else { return nil }
            return (path, line, rule)
        }
        #expect(keys.count == findings.count)
        #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 <= $1 }, "findings must be sorted by path, line, rule")
        let testFinding = findings.first { ($0["location"] as? [String: Any])?["path"] as? String == "LeakyBankTests/SessionStoreTests.swift" }
        #expect(testFinding?["isTestCode"] as? Bool == true)
        let appFinding = findings.first { ($0["location"] as? [String: Any])?["path"] as? String == "LeakyBank/Storage/SessionStore.swift" }
        #expect(appFinding?["isTestCode"] as? Bool == false)
    }

    @Test func xcodeFormatIsOneLinePerFinding() throws {
        let (status, stdout, _) = try Self.run(["scan", Self.exampleApp.path, "--format", "xcode", "--fail-on", "critical"])
        #expect(status == 1, "the example app has critical findings (an Objective-C trust manager that accepts any chain)")
        let lines = String(decoding: stdout, as: UTF8.self).split(separator: "\n").map(String.init)
        // Medium is below the critical threshold: a warning. Test code never fails the build: a warning too.
        #expect(lines.contains("LeakyBank/Storage/SessionStore.swift:24:16: warning: NSKeyedUnarchiver.unarchiveObject(with:) decodes any class named in the data: whoever can write that data chooses what is instantiated. No untrusted source was followed to this call (data the app wrote itself is the usual case); use unarchivedObject(ofClass:from:) with the classes you expect. [MOAT-CODE-001]"))
        #expect(lines.contains { $0.hasPrefix("LeakyBankTests/SessionStoreTests.swift:8:25: warning: ") })
        #expect(lines.contains { $0.hasPrefix("LeakyBank/Legacy/SSLTrustManager.m:40:") && $0.contains(": error: ") && $0.hasSuffix("[MOAT-NET-207]") })
        #expect(lines.count == (try Self.expectedFindings()).count)
        // An experimental rule's critical finding is shown, as a warning: it never fails the build.
        let experimental = try Self.run(["scan", Self.exampleApp.path, "--format", "xcode", "--fail-on", "critical",
                                         "--include", "experimental"])
        let withExperimental = String(decoding: experimental.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(withExperimental.contains { $0.hasPrefix("LeakyBank/Network/PinnedSessionDelegate.swift:36:") && $0.contains(": warning: ") && $0.hasSuffix("[MOAT-NET-201]") })
        #expect(withExperimental.count == (try Self.expectedFindings("Examples/LeakyBank.experimental.expected")).count)
    }

    @Test func experimentalRulesRunOnlyWhenAskedForAndNeverGate() throws {
        // Default: no experimental rule runs (LeakyBank.expected has none of them).
        let experimentalIds = ["MOAT-CODE-201", "MOAT-CODE-301", "MOAT-CRYP-203", "MOAT-NET-002", "MOAT-NET-201",
                               "MOAT-NET-209", "MOAT-NET-301", "MOAT-PLAT-210", "MOAT-PLAT-211", "MOAT-PRIV-102",
                               "MOAT-PRIV-103", "MOAT-STOR-203", "MOAT-STOR-301", "MOAT-STOR-302"]
        let plain = try Self.findingLines(try Self.run(["scan", Self.exampleApp.path, "--no-cache", "--format", "json"]).stdout)
        #expect(plain.sorted() == (try Self.expectedFindings()).sorted())
        #expect(!plain.contains { line in experimentalIds.contains { line.hasPrefix($0 + " ") } })
        // --include experimental: exactly LeakyBank.experimental.expected, every finding of those rules marked.
        let (status, stdout, stderr) = try Self.run(["scan", Self.exampleApp.path, "--no-cache", "--format", "json",
                                                     "--include", "experimental"])
        #expect(status == 1, "stderr: \(stderr)")
        let with = try Self.findingLines(stdout)
        let expected = try Self.expectedFindings("Examples/LeakyBank.experimental.expected")
        #expect(with.sorted() == expected.sorted(),
                "missing: \(Set(expected).subtracting(with).sorted()); unexpected: \(Set(with).subtracting(expected).sorted())")
        let document = try #require(try JSONSerialization.jsonObject(with: stdout) as? [String: Any])
        let findings = try #require(document["findings"] as? [[String: Any]])
        for finding in findings {
            let rule = finding["ruleId"] as? String ?? "?"
            #expect((finding["suite"] as? String == "experimental") == experimentalIds.contains(rule), "\(rule)")
        }
        #expect(Set(findings.compactMap { $0["ruleId"] as? String }).isSuperset(of: ["MOAT-STOR-302", "MOAT-NET-201"]))
        // A named experimental rule runs without --include; its critical finding does not fail the gate.
        let named = try Self.run(["scan", Self.exampleApp.path, "--no-cache", "--format", "json", "--rule", "MOAT-NET-201",
                                  "--fail-on", "critical"])
        #expect(named.status == 0, "an experimental finding never fails the scan; stderr: \(named.stderr)")
        #expect(try Self.findingLines(named.stdout) == ["MOAT-NET-201 LeakyBank/Network/PinnedSessionDelegate.swift:36"])
        // A default rule's critical finding does fail it.
        let gating = try Self.run(["scan", Self.exampleApp.path, "--no-cache", "--format", "json", "--rule", "MOAT-NET-207",
                                   "--fail-on", "critical"])
        #expect(gating.status == 1)
        // An unknown suite is a usage error that names it.
        let bad = try Self.run(["scan", Self.exampleApp.path, "--include", "nightly"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("unknown suite 'nightly' for --include (known: experimental)"))
    }

    @Test func usageErrorsExitTwoAndNameTheArgument() throws {
        let badFormat = try Self.run(["scan", Self.exampleApp.path, "--format", "yaml"])
        #expect(badFormat.status == 2)
        #expect(badFormat.stderr.contains("unknown format 'yaml'"))
        #expect(badFormat.stderr.contains("Usage: moat scan"))
        let badRule = try Self.run(["scan", Self.exampleApp.path, "--rule", "MOAT-NOPE-999"])
        #expect(badRule.status == 2)
        #expect(badRule.stderr.contains("unknown rule 'MOAT-NOPE-999'"))
        let badCommand = try Self.run(["scann"])
        #expect(badCommand.status == 2)
        #expect(badCommand.stderr.contains("unknown command 'scann'"))
        let missing = try Self.run(["scan", "/nonexistent/moat-path"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("/nonexistent/moat-path"))
    }

    @Test func ruleFilterAndVersionAndExplain() throws {
        let (status, stdout, _) = try Self.run(["scan", Self.exampleApp.path, "--format", "json", "--rule", "ats-weak-tls-version"])
        #expect(status == 0, "a medium finding does not reach the default high threshold")
        let document = try #require(try JSONSerialization.jsonObject(with: stdout) as? [String: Any])
        let findings = try #require(document["findings"] as? [[String: Any]])
        #expect(findings.map { $0["ruleId"] as? String } == ["MOAT-NET-003"])
        let version = try Self.run(["--version"])
        #expect(String(decoding: version.stdout, as: UTF8.self).hasPrefix("moat "))
        let explain = try Self.run(["explain", "MOAT-CODE-001"])
        let text = String(decoding: explain.stdout, as: UTF8.self)
        #expect(text.contains("MOAT-CODE-001 insecure-unarchiving"))
        #expect(text.contains("Not flagged:"))
        #expect(text.contains("CWE-502"))
    }
}

struct ReadmeTests {
    @Test func readmeCatalogueIsGeneratedFromTheRules() throws {
        let (status, stdout, _) = try ExampleAppTests.run(["rules", "--format", "markdown"])
        #expect(status == 0)
        let catalogue = String(decoding: stdout, as: UTF8.self)
        let readme = try String(contentsOf: ExampleAppTests.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(catalogue.contains("| MOAT-CODE-001 | `insecure-unarchiving` |"))
        #expect(readme.contains("<!-- rules:begin -->\n" + catalogue + "<!-- rules:end -->"),
                "README rules catalogue is stale: run Scripts/update-readme-rules.sh")
    }
}
