import Foundation
import MoatCore
import MoatScan
import Testing
@testable import MoatReport

/// The text report leads with what fails the gate and ends with what it did not show.
@Suite struct TextReporterTests {
    /// The sample scan with the unarchiving finding raised to critical and the web view finding in test code.
    static func result(_ sample: SampleScan) -> ScanResult {
        var result = sample.result
        for index in result.findings.indices {
            if result.findings[index].ruleId == "MOAT-CODE-001" { result.findings[index].severity = .critical }
        }
        return result
    }

    @Test func findingsThatFailTheGateComeFirstMostSevereFirst() throws {
        let sample = try SampleScan.make()
        defer { sample.remove() }
        let text = TextReporter().render(Self.result(sample), options: ReportOptions())
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(Array(lines.prefix(3)) == [
            "",
            "Fails the gate (2 at or above high):",
            "  Sources/Store.swift:5:12  [CRITICAL · MOAT-CODE-001] NSKeyedUnarchiver.unarchiveObject(with:) decodes data that comes from the parameter data.",
        ])
        let gate = try #require(lines.firstIndex(of: "Fails the gate (2 at or above high):"))
        let ats = try #require(lines.firstIndex { $0.hasPrefix("  App/Info.plist:7 (NSAppTransportSecurity.NSAllowsArbitraryLoads)  [HIGH · MOAT-NET-001]") })
        let others = try #require(lines.firstIndex(of: "Other findings, by file:"))
        let web = try #require(lines.firstIndex { $0.hasPrefix("  3:\(SampleScan.webByteColumn)  [MEDIUM · MOAT-PLAT-001]") })
        #expect(gate < ats && ats < others && others < web)
        #expect(lines[web - 1] == "Sources/Web.swift", "the rest stays grouped by file")
        // Each finding once: the gate's findings are not repeated below.
        #expect(text.components(separatedBy: "MOAT-CODE-001]").count == 2)
        // Inventory and suppressed findings are counted, not listed.
        #expect(!text.contains("MOAT-PLAT-900]"))
        #expect(!text.contains("Sources/Legacy.swift"))
        #expect(lines.suffix(2) == [
            "1 inventory entry and 1 suppressed not shown (--show-inventory, --show-suppressed to list them).", "",
        ])
        #expect(text.contains("\nMoat \(MoatVersion.current) (rules \(sample.result.rulesFingerprint)): 6 files, 1 critical, 1 high, 1 medium, 1 info, 1 could not be analyzed; 2 at or above high.\n"))
    }

    @Test func minimumSeverityTestCodeAndInventoryAreCountedInOneLine() throws {
        let sample = try SampleScan.make()
        defer { sample.remove() }
        var result = Self.result(sample)
        for index in result.findings.indices where result.findings[index].ruleId == "MOAT-NET-001" {
            result.findings[index].isTestCode = true
        }
        result.hideFindings(below: .medium)
        #expect(result.belowMinimum.map(\.ruleId) == ["MOAT-PLAT-900"])
        let text = TextReporter().render(result, options: ReportOptions())
        #expect(text.hasSuffix("\n1 info, 1 in non-shipping code (tests 1) and 1 suppressed not shown (below --min-severity medium; --show-non-shipping, --show-suppressed to list them).\n"))
        #expect(text.contains("Fails the gate (1 at or above high):"), "test code never fails the gate")
        #expect(!text.contains("MOAT-NET-001]"))
        // The summary still counts every active finding, shown or not.
        #expect(text.contains("6 files, 1 critical, 1 high, 1 medium, 1 info, 1 could not be analyzed; 1 at or above high."))

        let everything = TextReporter().render(result, options: ReportOptions(showSuppressed: true, showTestCode: true, showInventory: true))
        #expect(everything.contains("[HIGH · MOAT-NET-001 · test code]"))
        #expect(everything.contains("Sources/Legacy.swift"))
        #expect(everything.hasSuffix("\n1 info not shown (below --min-severity medium).\n"))
    }

    @Test func theGateCountsFindingsHiddenByTheMinimum() throws {
        let sample = try SampleScan.make()
        defer { sample.remove() }
        var result = Self.result(sample)
        result.hideFindings(below: .critical)
        #expect(result.findings.map(\.ruleId) == ["MOAT-CODE-001"])
        #expect(result.findings(atOrAbove: .high).map(\.ruleId) == ["MOAT-NET-001", "MOAT-CODE-001"])
        let json = try JSONTools.object(JSONReporter().render(result, options: ReportOptions()))
        let summary = try #require(json["summary"] as? [String: Any])
        #expect(summary["failing"] as? Int == 2)
        #expect(summary["minSeverity"] as? String == "critical")
        #expect(summary["notShownBelowMinSeverity"] as? Int == 4)
        #expect((json["findings"] as? [Any])?.count == 1)
        #expect((json["tool"] as? [String: Any])?["rulesFingerprint"] as? String == result.rulesFingerprint)
        let sarif = try JSONTools.object(SARIFReporter().render(result, options: ReportOptions()))
        let run = try #require((sarif["runs"] as? [[String: Any]])?.first)
        #expect((run["results"] as? [Any])?.count == 1)
        #expect((run["properties"] as? [String: Any])?["minSeverity"] as? String == "critical")
        let driver = (run["tool"] as? [String: Any])?["driver"] as? [String: Any]
        #expect((driver?["properties"] as? [String: Any])?["rulesFingerprint"] as? String == result.rulesFingerprint)
    }
}
