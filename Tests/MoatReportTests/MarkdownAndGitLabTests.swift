import Foundation
import MoatCore
import MoatScan
import Testing
@testable import MoatReport

@Suite struct MarkdownReporterTests {
    @Test func summarizesAndGroupsBySeverityWithLinks() throws {
        let sample = try SampleScan.make()
        defer { sample.remove() }
        let options = ReportOptions(failOn: .high, sourceLinkBase: "https://github.com/acme/app/blob/abc123/")
        let markdown = MarkdownReporter().render(sample.result, options: options)
        #expect(markdown.hasPrefix("## Moat security report — Sample &lt;App&gt; (com.example.sample)\n"))
        #expect(markdown.contains("**2 findings at or above high**"))
        #expect(markdown.contains("| Severity | Findings |\n|---|---:|\n| Critical | 0 |\n| High | 2 |\n| Medium | 1 |\n| Low | 0 |\n| Info | 0 |\n| Attack-surface inventory | 1 |\n"))
        // Severity sections in order, with the findings under them.
        let high = try #require(markdown.range(of: "### High (2)"))
        let medium = try #require(markdown.range(of: "### Medium (1)"))
        #expect(high.lowerBound < medium.lowerBound)
        let highSection = String(markdown[high.upperBound..<medium.lowerBound])
        #expect(highSection.contains("MOAT-NET-001"))
        #expect(highSection.contains("MOAT-CODE-001"))
        #expect(!highSection.contains("MOAT-PLAT-001"))
        // file:line links to the forge, collapsible details with the evidence, dataflow, why and fix.
        #expect(markdown.contains("[Sources/Store.swift:5:12](https://github.com/acme/app/blob/abc123/Sources/Store.swift#L5)"))
        #expect(markdown.contains("[App/Info.plist:7 (NSAppTransportSecurity.NSAllowsArbitraryLoads)](https://github.com/acme/app/blob/abc123/App/Info.plist#L7)"))
        #expect(markdown.contains("<details><summary><code>MOAT-CODE-001</code> Sources/Store.swift:5:12 — NSKeyedUnarchiver.unarchiveObject(with:) decodes data that comes from the parameter data.</summary>\n\n"))
        #expect(markdown.contains("```\nreturn NSKeyedUnarchiver.unarchiveObject(with: copy)\n```\n"))
        #expect(markdown.contains("1. [Sources/Store.swift:2:14](https://github.com/acme/app/blob/abc123/Sources/Store.swift#L2): data enters here\n"))
        #expect(markdown.contains("4. [Sources/Store.swift:5:12]"))
        #expect(markdown.contains("**Why it matters.** Decoding any class named by the data allows object substitution."))
        #expect(markdown.contains("**How to fix.** Use unarchivedObject(ofClasses:from:) with the classes you expect."))
        #expect(markdown.contains("[CWE-502](https://cwe.mitre.org/data/definitions/502.html)"))
        // Inventory collapsed, suppressed counted, errors listed.
        #expect(markdown.contains("<details><summary>Attack-surface inventory (1)</summary>"))
        #expect(markdown.contains("_1 finding is suppressed with `moat:ignore`._"))
        #expect(markdown.contains("- App/Broken.plist: property list is not valid XML (line 3)"))
        #expect(!markdown.contains("Sources/Legacy.swift:2:14]"))
    }

    @Test func withoutALinkBaseLocationsArePlainText() throws {
        let sample = try SampleScan.make()
        defer { sample.remove() }
        let markdown = MarkdownReporter().render(sample.result, options: ReportOptions())
        #expect(markdown.contains("Sources/Store.swift:5:12 · **NSKeyedUnarchiver without secure coding**"))
        #expect(!markdown.contains("[Sources/Store.swift"))
        #expect(!markdown.contains("#L5)"))
    }

    @Test func escapesTextFromTheScannedApp() throws {
        let result = try SampleScan.make()
        defer { result.remove() }
        var scan = result.result
        scan.findings[0].message = "Click [here](https://evil.example) <img src=x onerror=alert(1)> @team *bold* | cell `code`"
        scan.findings[0].evidence = "let s = \"```\" // <script>"
        scan.findings[0].location.keyPath = nil
        let markdown = MarkdownReporter().render(scan, options: ReportOptions())
        #expect(!markdown.contains("[here](https://evil.example)"))
        #expect(markdown.contains("Click \\[here\\](https://evil.example) &lt;img src=x onerror=alert(1)&gt; \\@team \\*bold\\* \\| cell \\`code\\`"))
        #expect(!markdown.contains("<img"))
        // In the summary (an HTML block) the text is HTML-escaped.
        #expect(markdown.contains("— Click &#91;here&#93;(https://evil.example) &lt;img src=x onerror=alert(1)&gt; &#64;team &#42;bold&#42; &#124; cell &#96;code&#96;</summary>"))
        // Evidence with a backtick fence inside gets a longer fence.
        #expect(markdown.contains("````\nlet s = \"```\" // <script>\n````\n"))
    }

    @Test func staysUnderTheCommentLimit() throws {
        let sample = try SampleScan.make()
        defer { sample.remove() }
        var scan = sample.result
        let template = try #require(scan.findings.first { $0.ruleId == "MOAT-CODE-001" })
        scan.findings = (1...2000).map { index in
            var finding = template
            finding.location.line = index
            finding.fingerprint = String(index)
            return finding
        }
        let markdown = MarkdownReporter().render(scan, options: ReportOptions())
        #expect(markdown.count < 65_536)
        #expect(markdown.contains("more findings are not shown to keep this comment short"))
    }
}

@Suite struct GitLabReporterTests {
    @Test func producesTheSASTReportShape() throws {
        let sample = try SampleScan.make()
        defer { sample.remove() }
        let document = try JSONTools.object(GitLabReporter().render(sample.result, options: ReportOptions()))
        #expect(document["version"] as? String == "15.0.7")
        let scan = try #require(document["scan"] as? [String: Any])
        #expect(scan["type"] as? String == "sast")
        #expect(scan["status"] as? String == "success")
        #expect(scan["start_time"] as? String == "2023-11-14T22:13:20")
        #expect(scan["end_time"] as? String == "2023-11-14T22:13:23")
        for key in ["analyzer", "scanner"] {
            let tool = try #require(scan[key] as? [String: Any])
            #expect(tool["id"] as? String == "moat")
            #expect(tool["name"] as? String == "Moat")
            // The version with the rules fingerprint as semantic-versioning build metadata.
            #expect(tool["version"] as? String == MoatVersion.current + "+rules." + sample.result.rulesFingerprint)
            #expect((tool["vendor"] as? [String: Any])?["name"] as? String == "Moat")
        }
        let messages = try #require(scan["messages"] as? [[String: String]])
        #expect(messages == [["level": "warn", "value": "Could not analyze App/Broken.plist: property list is not valid XML (line 3)"]])

        let vulnerabilities = try #require(document["vulnerabilities"] as? [[String: Any]])
        // Active findings only: the suppressed one is left out.
        #expect(vulnerabilities.count == sample.result.activeFindings.count)
        #expect(!vulnerabilities.contains { (($0["location"] as? [String: Any])?["file"] as? String) == "Sources/Legacy.swift" })
        let unarchive = try #require(vulnerabilities.first { ($0["message"] as? String)?.hasPrefix("NSKeyedUnarchiver") == true })
        #expect(unarchive["category"] as? String == "sast")
        #expect(unarchive["name"] as? String == "NSKeyedUnarchiver without secure coding")
        #expect(unarchive["severity"] as? String == "High")
        #expect(unarchive["confidence"] as? String == "High")
        #expect(unarchive["solution"] as? String == "Use unarchivedObject(ofClasses:from:) with the classes you expect.")
        #expect((unarchive["description"] as? String)?.hasPrefix("Decoding any class named by the data allows object substitution.") == true)
        let location = try #require(unarchive["location"] as? [String: Any])
        #expect(location["file"] as? String == "Sources/Store.swift")
        #expect(location["start_line"] as? Int == 5)
        let identifiers = try #require(unarchive["identifiers"] as? [[String: String]])
        #expect(identifiers.map { $0["type"] } == ["moat_rule_id", "cwe"])
        #expect(identifiers.map { $0["value"] } == ["MOAT-CODE-001", "502"])
        #expect(identifiers[1]["name"] == "CWE-502")
        let id = try #require(unarchive["id"] as? String)
        #expect(id.range(of: "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", options: .regularExpression) != nil)
        // Stable across renders, distinct across findings.
        let again = try JSONTools.object(GitLabReporter().render(sample.result, options: ReportOptions()))
        let ids = vulnerabilities.compactMap { $0["id"] as? String }
        #expect((again["vulnerabilities"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ids)
        #expect(Set(ids).count == ids.count)
        let severities = vulnerabilities.compactMap { $0["severity"] as? String }
        #expect(Set(severities).isSubset(of: ["Critical", "High", "Medium", "Low", "Info"]))
        #expect(severities.contains("Info"))
    }
}

@Suite struct ChangeReviewRenderingTests {
    func reviewed() throws -> (SampleScan, ScanResult) {
        let sample = try SampleScan.make()
        var result = sample.result
        let hunk = ChangeSet.Hunk(startLine: 2, endLine: 6)
        let hostile = ThreatSite(line: 5, column: 5, code: "session.state = \"<img src=x onerror=alert(1)>`x`\"",
                                 reason: "sets `session.state` to `\"<img src=x onerror=alert(1)>`x`\"` in `handle(message:)`, which handles a remote message (`message`: `RemoteMessage`).")
        let evidence = ThreatEvidence(question: .stateMachine, path: "Sources/Session.swift", hunk: hunk, sites: [hostile],
                                      checks: ["line 3: session.state == .inviting"])
        result.changeReview = ChangeReview(
            base: "origin/main", changes: ChangeSet(files: ["Sources/Session.swift": [hunk]]),
            answers: ThreatQuestion.allCases.map { ThreatAnswer(question: $0, evidence: $0 == .stateMachine ? [evidence] : []) },
            findingsOutsideChange: 3)
        return (sample, result)
    }

    @Test func markdownAnswersEachQuestionWithItsHunks() throws {
        let (sample, result) = try reviewed()
        defer { sample.remove() }
        let markdown = MarkdownReporter().render(result, options: ReportOptions())
        #expect(markdown.hasPrefix("## Moat security review of this change"))
        #expect(markdown.contains("Compared with origin/main: 1 changed file, 1 hunk. Findings below are on changed lines only (3 elsewhere not shown)."))
        #expect(markdown.contains("| Does it write a file path built from outside data? | No |"))
        #expect(markdown.contains("| Does it advance a state machine on a remote message? | **Yes**: Sources/Session.swift:2-6 |"))
        #expect(markdown.contains("**Verify:** Advance the state only when the message names a session that exists"))
        #expect(markdown.contains("  - checked before: `line 3: session.state == .inviting`"))
        // Code quoted from the app is literal (in code spans), never markup: outside code spans no tag remains.
        #expect(markdown.contains("``session.state = \"<img src=x onerror=alert(1)>`x`\"``"))
        let outsideCode = markdown.replacingOccurrences(of: "(`+)[^`](.*?[^`])?\\1(?!`)", with: "", options: .regularExpression)
        #expect(!outsideCode.contains("<img"))
        #expect(outsideCode.contains("sets"))
    }

    @Test func textAndHTMLShowTheAnswers() throws {
        let (sample, result) = try reviewed()
        defer { sample.remove() }
        let text = TextReporter().render(result, options: ReportOptions())
        #expect(text.contains("Threat model of the change\n  Compared with origin/main: 1 changed file, 1 hunk; findings are shown for changed lines only (3 elsewhere not shown).\n"))
        #expect(text.contains("  Does it advance a state machine on a remote message? Yes\n    Sources/Session.swift:2-6\n      line 5: sets `session.state`"))
        #expect(text.contains("      checked before: line 3: session.state == .inviting\n"))
        #expect(text.contains("  Does it copy memory by a length? No\n"))
        let html = HTMLReporter().render(result, options: ReportOptions())
        #expect(html.contains("<section id=\"change-review\">"))
        #expect(html.contains("<h3>Does it advance a state machine on a remote message? <span class=\"answer\">Yes</span></h3>"))
        #expect(html.contains("<li><code>Sources/Session.swift:2-6</code>"))
        #expect(!html.contains("<img"))
        #expect(html.contains("&lt;img src=x onerror=alert(1)&gt;"))
    }
}
