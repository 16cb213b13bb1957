import Foundation
import MoatCore
import MoatScan
import Testing
@testable import MoatReport

@Suite struct HTMLReporterTests {
    static let hostile = #"<script>alert(1)</script>"#
    static let breakout = #""><img src=x onerror=alert(2)>"#

    /// A finding whose path, message, evidence and key path all carry markup, in an app whose name does too.
    func hostileResult() throws -> (ScanResult, URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("moat-html-\(UUID().uuidString)")
        let name = "Evil\(Self.breakout).swift"
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try Data("let a = 1\nlet web = UIWebView() // \(Self.hostile)\nlet b = 2\n".utf8).write(to: root.appendingPathComponent(name))
        let rule = SampleScan.rule("MOAT-PLAT-001")
        let finding = Finding(ruleId: rule.id, slug: rule.slug, title: rule.title, severity: .high, confidence: .high,
                              message: "UIWebView named \(Self.hostile) and \(Self.breakout)",
                              location: Location(path: name, line: 2, column: 11, keyPath: "Key\(Self.hostile)"),
                              related: [RelatedLocation(location: Location(path: name, line: 1, column: 1), message: "step \(Self.breakout)")],
                              cwe: rule.cwe, masvs: rule.masvs, mastg: rule.mastg, fix: rule.fix, fingerprint: "1",
                              evidence: "evidence \(Self.hostile)")
        let inventory = SampleScan.rule("MOAT-PLAT-900")
        let surface = Finding(ruleId: inventory.id, slug: inventory.slug, title: inventory.title, severity: .info,
                              confidence: .high, message: "Scheme \(Self.breakout)://", location: Location(path: "Info.plist", line: 3),
                              cwe: inventory.cwe, masvs: inventory.masvs, mastg: inventory.mastg, fix: inventory.fix, fingerprint: "2")
        var result = ScanResult(roots: [root.path], findings: [finding, surface],
                                errors: [ScanError(path: "Bad\(Self.hostile).plist", message: "broken \(Self.breakout)")],
                                rules: SampleScan.rules, filesScanned: 2, appName: "App\(Self.hostile)",
                                bundleIdentifier: "com.\(Self.breakout)")
        result.endTime = Date(timeIntervalSince1970: 0)
        return (result, root)
    }

    @Test func escapesEverythingFromTheScannedApp() throws {
        let (result, root) = try hostileResult()
        defer { try? FileManager.default.removeItem(at: root) }
        let html = HTMLReporter().render(result, options: ReportOptions())
        // The only script element is Moat's own, and no attribute or tag was injected.
        #expect(html.components(separatedBy: "<script").count == 2)
        #expect(!html.contains("<script>alert"))
        #expect(!html.contains("<img"))
        #expect(!html.contains("onerror=alert(2)>"))
        #expect(!html.lowercased().contains("\"><img"))
        // The hostile text is there, escaped: in the app name, message, path, key path, evidence and excerpt.
        #expect(html.contains("App&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains("UIWebView named &lt;script&gt;alert(1)&lt;/script&gt; and &quot;&gt;&lt;img src=x onerror=alert(2)&gt;"))
        #expect(html.contains("Evil&quot;&gt;&lt;img src=x onerror=alert(2)&gt;.swift:2 (Key&lt;script&gt;alert(1)&lt;/script&gt;)"))
        #expect(html.contains("let web = UIWebView() // &lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains("step &quot;&gt;&lt;img src=x onerror=alert(2)&gt;"))
        #expect(html.contains("Scheme &quot;&gt;&lt;img src=x onerror=alert(2)&gt;://"))
        #expect(html.contains("Bad&lt;script&gt;alert(1)&lt;/script&gt;.plist"))
        #expect(html.contains("com.&quot;&gt;&lt;img src=x onerror=alert(2)&gt;"))
        // Attribute values (the search text) are escaped too.
        #expect(html.contains("data-search=\"mo"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; and &quot;&gt;&lt;img"))
    }

    @Test func isSelfContained() throws {
        let sample = try SampleScan.make()
        defer { sample.remove() }
        let html = HTMLReporter().render(sample.result, options: ReportOptions())
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("Content-Security-Policy\" content=\"default-src 'none'"))
        // No external resource: no src=, no stylesheet link, no http(s) fetch other than plain links.
        #expect(!html.contains(" src="))
        #expect(!html.contains("<link"))
        #expect(!html.contains("@import"))
        #expect(!html.contains("url("))
        let hrefs = html.components(separatedBy: "href=\"").dropFirst().compactMap { $0.split(separator: "\"").first }
        #expect(hrefs.allSatisfy { $0.hasPrefix("https://") || $0.hasPrefix("http://") })
        #expect(html.contains("<svg id=\"chart-severity\""))
        #expect(html.contains("<svg id=\"chart-masvs\""))
        #expect(html.contains("document.body.dataset.ready = \"1\""))
    }

    @Test func showsOverviewSurfaceAndFindingsWithExcerpts() throws {
        let sample = try SampleScan.make()
        defer { sample.remove() }
        let html = HTMLReporter().render(sample.result, options: ReportOptions())
        #expect(html.contains("<strong class=\"app-name\">Sample &lt;App&gt;</strong>"))
        #expect(html.contains("<code class=\"bundle-id\">com.example.sample</code>"))
        #expect(html.contains("— 6 files"))
        // Severity cards count active findings only (the suppressed UIWebView is not counted).
        #expect(html.contains("<div class=\"card sev-high\"><span class=\"num\">2</span>"))
        #expect(html.contains("<div class=\"card sev-medium\"><span class=\"num\">1</span>"))
        // MASVS chart: one bar per area with its count.
        #expect(html.contains(">Network</text><rect x=\"150\" y=\"79\" width=\"220\""))
        #expect(html.contains(">Storage</text><rect x=\"150\" y=\"7\" width=\"0\""))
        // Attack surface: the inventory rule and its entry.
        let surface = try #require(html.components(separatedBy: "<section id=\"attack-surface\">").last?.components(separatedBy: "</section>").first)
        #expect(surface.contains("Custom URL scheme registered"))
        #expect(surface.contains("The app registers the URL scheme sampleapp://."))
        // Findings grouped by MASVS area, then rule; the inventory entry is not among them.
        let findings = try #require(html.components(separatedBy: "<section id=\"findings\">").last)
        #expect(!findings.contains("The app registers the URL scheme"))
        let areaPositions = ["id=\"area-network\"", "id=\"area-platform\"", "id=\"area-code\""].compactMap { findings.range(of: $0)?.lowerBound }
        #expect(areaPositions.count == 3)
        #expect(areaPositions == areaPositions.sorted())
        // The excerpt: three lines either side, the finding's line highlighted, secrets redacted.
        #expect(html.contains("<span class=\"line hit\"><span class=\"ln\">3</span>" + HTML.escape(SampleScan.webLine) + "\n</span>"))
        #expect(html.contains("<span class=\"ln\">4</span>let token = &quot;ghp_…[redacted]&quot;"))
        #expect(!html.contains(SampleScan.fakeToken))
        // Property-list excerpt around the key.
        #expect(html.contains("<span class=\"line hit\"><span class=\"ln\">7</span>        &lt;key&gt;NSAllowsArbitraryLoads&lt;/key&gt;"))
        // The dataflow path, in order, ending at the finding.
        #expect(html.contains("<ol>\n<li><code>Sources/Store.swift:2:14</code> data enters here</li>\n<li><code>Sources/Store.swift:3:9</code> payload = data</li>\n<li><code>Sources/Store.swift:4:9</code> copy = payload</li>\n<li><code>Sources/Store.swift:5:12</code>"))
        // Why, fix and links.
        #expect(html.contains("<strong>Why it matters.</strong> Decoding any class named by the data allows object substitution."))
        #expect(html.contains("<strong>How to fix.</strong> Use WKWebView."))
        #expect(html.contains("<a href=\"https://mas.owasp.org/MASTG/tests/ios/MASTG-TEST-0076/\" rel=\"noreferrer noopener\">MASTG-TEST-0076</a>"))
        #expect(html.contains("<a href=\"https://cwe.mitre.org/data/definitions/502.html\" rel=\"noreferrer noopener\">CWE-502</a>"))
        // Filters, the suppressed count and errors.
        #expect(html.contains("<input type=\"checkbox\" value=\"critical\" checked>"))
        #expect(html.contains("<input id=\"search\" type=\"search\""))
        #expect(html.contains("1 finding is silenced by <code>moat:ignore</code>"))
        #expect(html.contains("<li><code>App/Broken.plist</code>: property list is not valid XML (line 3)</li>"))
    }

    @Test func neverReadsOutsideTheScannedRoot() throws {
        let sample = try SampleScan.make()
        defer { sample.remove() }
        let outside = sample.root.deletingLastPathComponent().appendingPathComponent("moat-secret-\(UUID().uuidString).swift")
        try Data("let secret = \"OUTSIDE-THE-ROOT\"\n".utf8).write(to: outside)
        defer { try? FileManager.default.removeItem(at: outside) }
        try FileManager.default.createSymbolicLink(at: sample.root.appendingPathComponent("Link.swift"), withDestinationURL: outside)
        let sources = SourceFiles(roots: [sample.root.path])
        #expect(sources.lines(of: "../" + outside.lastPathComponent) == nil)
        #expect(sources.lines(of: outside.path) == nil)
        #expect(sources.lines(of: "Link.swift") == nil)
        #expect(sources.line(4, of: "Sources/Web.swift") == "let token = \"\(SampleScan.fakeToken)\"")
        // A FIFO is never opened (reading it would block).
        let fifo = sample.root.appendingPathComponent("pipe.swift")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        #expect(sources.lines(of: "pipe.swift") == nil)
    }

    @Test func resolvesPathsOfMultiRootScans() throws {
        let first = try SampleScan.make()
        let second = try SampleScan.make()
        defer { first.remove(); second.remove() }
        let sources = SourceFiles(roots: [first.root.path, second.root.path + "/"])
        let prefix = SourceFiles.displayPrefix(second.root.path + "/")
        #expect(prefix == second.root.path)
        #expect(sources.line(3, of: prefix + "/Sources/Web.swift") == SampleScan.webLine)
        #expect(sources.line(3, of: "Sources/Web.swift") == nil)
        // A single file root answers to its own name.
        let single = SourceFiles(roots: [first.root.appendingPathComponent("Sources/Store.swift").path])
        #expect(single.line(2, of: "Store.swift") == "func restore(_ data: Data) -> Any? {")
    }
}
