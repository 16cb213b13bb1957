import Foundation
import Testing
import MoatCore
import MoatRules
@testable import MoatScan

/// Which rules run, by suite (issue 35, item 4): the experimental suite is off unless asked for, a named
/// rule runs whatever its suite, and an experimental finding never fails a gate.
struct RuleSuiteSelectionTests {
    /// Options as the command line builds them: no suite beside the default one unless `--include`.
    static var cli: ScanOptions {
        var options = ScanOptions(paths: ["."])
        options.includedSuites = []
        return options
    }

    static func selected(_ options: ScanOptions = cli, _ configuration: Configuration = Configuration()) throws -> Set<String> {
        Set(try Scanner.selectRules(options: options, configuration: configuration).map { $0.description.id })
    }

    @Test func experimentalRulesAreOffByDefault() throws {
        let experimental = RulePrecision.experimentalRuleIds
        #expect(experimental.contains("MOAT-STOR-302"))
        let ids = try Self.selected()
        #expect(ids.isDisjoint(with: experimental))
        #expect(ids.contains("MOAT-NET-001"))
        #expect(ids.count == RuleRegistry.all.count - experimental.count)
    }

    @Test func theOptionAndTheConfigurationIncludeThem() throws {
        var options = Self.cli
        options.includedSuites = [.experimental]
        #expect(try Self.selected(options).count == RuleRegistry.all.count)
        let configuration = try Configuration.parse(Data(#"{"include": ["experimental"]}"#.utf8), path: ".moat.json")
        #expect(configuration.include == [.experimental])
        #expect(try Self.selected(Self.cli, configuration).count == RuleRegistry.all.count)
    }

    @Test func aNamedRuleRunsWhateverItsSuite() throws {
        var options = Self.cli
        options.onlyRules = ["secret-in-log"]
        #expect(try Self.selected(options) == ["MOAT-STOR-302"])
        var configuration = Configuration()
        configuration.enabledRules = ["MOAT-STOR-302", "MOAT-NET-001"]
        #expect(try Self.selected(Self.cli, configuration) == ["MOAT-STOR-302", "MOAT-NET-001"])
        // Excluding still wins over including the suite.
        options = Self.cli
        options.includedSuites = [.experimental]
        options.excludedRules = ["MOAT-STOR-302"]
        #expect(try !Self.selected(options).contains("MOAT-STOR-302"))
    }

    @Test func anUnknownSuiteInTheConfigurationIsAnError() {
        #expect {
            try Configuration.parse(Data(#"{"include": ["nightly"]}"#.utf8), path: "c/.moat.json")
        } throws: { error in
            (error as? ScanError)?.path == "c/.moat.json" && (error as? ScanError)?.message.contains("include") == true
        }
    }

    @Test func experimentalFindingsAreMarkedAndNeverGate() {
        func finding(_ rule: String, _ severity: Severity) -> Finding {
            Finding(ruleId: rule, slug: rule.lowercased(), title: "t", severity: severity, confidence: .high, message: "m",
                    location: Location(path: "A.swift", line: 1, column: 1), cwe: [], masvs: [], mastg: [], fix: "f")
        }
        let processor = PostProcessor(severityOverrides: [:], enabledRuleIds: [], testPaths: [])
        let processed = processor.process([finding("MOAT-NET-201", .critical), finding("MOAT-NET-207", .critical)], suppressions: [])
        #expect(processed.map(\.ruleId) == ["MOAT-NET-201", "MOAT-NET-207"])
        #expect(processed.map(\.suite) == [.experimental, nil])
        #expect(processed.map(\.gates) == [false, true])
        let result = ScanResult(roots: [], findings: processed, errors: [], rules: [], filesScanned: 1)
        #expect(result.findings(atOrAbove: .critical).map(\.ruleId) == ["MOAT-NET-207"])
    }
}
