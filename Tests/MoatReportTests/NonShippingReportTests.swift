import Foundation
import Testing
import MoatCore
@testable import MoatReport
@testable import MoatScan

/// Findings in non-shipping code: counted in one line of the text report (listed with
/// `--show-non-shipping`), marked in JSON and SARIF, never failing the scan.
struct NonShippingReportTests {
    static func result() throws -> (SampleScan, ScanResult) {
        let sample = try SampleScan.make()
        var result = sample.result
        let reasons: [NonShippingReason] = [.test, .test, .preview, .debugOnly]
        // Copies of the unarchiving finding: two in tests, one in a preview, one in a debug-only branch.
        let base = try #require(result.findings.first { $0.ruleId == "MOAT-CODE-001" })
        for (offset, reason) in reasons.enumerated() {
            var copy = base
            copy.location = Location(path: "Tests/StoreTests.swift", line: 10 + offset, column: 3)
            copy.markNonShipping(reason)
            result.findings.append(copy)
        }
        result.findings.sort(by: Finding.reportOrder)
        return (sample, result)
    }

    @Test func textCountsNonShippingFindingsInOneLineUnlessAsked() throws {
        let (sample, result) = try Self.result()
        defer { sample.remove() }
        let text = TextReporter().render(result, options: ReportOptions())
        #expect(text.hasSuffix("\n4 in non-shipping code (tests 2, previews 1, debug-only 1), 1 inventory entry and 1 suppressed not shown (--show-non-shipping, --show-inventory, --show-suppressed to list them).\n"))
        #expect(!text.contains("Tests/StoreTests.swift"))
        let shown = TextReporter().render(result, options: ReportOptions(showNonShipping: true))
        #expect(shown.contains("Tests/StoreTests.swift"))
        #expect(shown.contains("  12:3  [HIGH · MOAT-CODE-001 · preview code]"))
        #expect(shown.contains("  13:3  [HIGH · MOAT-CODE-001 · debug-only code]"))
        #expect(!shown.contains("in non-shipping code"))
        // Only the shipping high finding fails the scan.
        #expect(result.findings(atOrAbove: .high).map(\.location.path) == ["App/Info.plist", "Sources/Store.swift"])
    }

    @Test func jsonAndSarifCarryTheReason() throws {
        let (sample, result) = try Self.result()
        defer { sample.remove() }
        let json = try JSONTools.object(JSONReporter().render(result, options: ReportOptions()))
        let findings = try #require(json["findings"] as? [[String: Any]])
        let debug = try #require(findings.first { ($0["location"] as? [String: Any])?["path"] as? String == "Tests/StoreTests.swift" && ($0["location"] as? [String: Any])?["line"] as? Int == 13 })
        #expect(debug["nonShippingReason"] as? String == "debug-only")
        #expect(debug["isTestCode"] as? Bool == false)
        let test = try #require(findings.first { ($0["location"] as? [String: Any])?["path"] as? String == "Tests/StoreTests.swift" && ($0["location"] as? [String: Any])?["line"] as? Int == 10 })
        #expect(test["nonShippingReason"] as? String == "test")
        #expect(test["isTestCode"] as? Bool == true)
        let sarif = try JSONTools.object(SARIFReporter().render(result, options: ReportOptions()))
        let results = try #require(((sarif["runs"] as? [[String: Any]])?.first?["results"]) as? [[String: Any]])
        let reasons = results.compactMap { ($0["properties"] as? [String: Any])?["nonShippingReason"] as? String }
        #expect(reasons == ["test", "test", "preview", "debug-only"])
    }
}
