import Foundation
import Testing
import MoatCore
@testable import MoatRules

/// Measured precision per rule (issue 35, item 4): the generated table is the corpus verdicts' count, the
/// suite follows it by the stated thresholds, and a promotion needs a new check half at 80 % or more.
struct RulePrecisionTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The verdicts counted per rule, as Scripts/update-rule-precision.py counts them.
    static func countedVerdicts() throws -> [String: MeasuredPrecision] {
        let folder = packageRoot.appendingPathComponent("Corpus/verdicts")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".tsv") }
        #expect(files.count >= 20)
        var table: [String: MeasuredPrecision] = [:]
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") where !line.hasPrefix("#") && !line.hasPrefix("fingerprint\t") {
                let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
                guard columns.count >= 5 else { continue }
                var measured = table[columns[1]] ?? MeasuredPrecision(truePositives: 0, falsePositives: 0, debatable: 0)
                switch columns[3] {
                case "TP": measured.truePositives += 1
                case "FP": measured.falsePositives += 1
                case "debatable": measured.debatable += 1
                default: continue
                }
                table[columns[1]] = measured
            }
        }
        return table
    }

    @Test func theTableIsTheVerdictsCount() throws {
        let counted = try Self.countedVerdicts()
        for (rule, measured) in counted.sorted(by: { $0.key < $1.key }) {
            #expect(RulePrecision.table[rule] == measured, "\(rule): run python3 Scripts/update-rule-precision.py")
        }
        #expect(Set(RulePrecision.table.keys) == Set(counted.keys), "run python3 Scripts/update-rule-precision.py")
        // Every rule the verdicts name is a rule of this build.
        let known = Set(RuleRegistry.all.map { $0.description.id })
        #expect(Set(counted.keys).subtracting(known).isEmpty)
    }

    @Test func theSuiteFollowsThePrecisionOverEnoughFindings() {
        typealias M = MeasuredPrecision
        let cases: [(M, RuleSuite)] = [
            (M(truePositives: 0, falsePositives: 9, debatable: 0), .default),        // 9 judged: too few
            (M(truePositives: 4, falsePositives: 6, debatable: 0), .experimental),   // 40 % of 10
            (M(truePositives: 5, falsePositives: 5, debatable: 0), .default),        // 50 % is not below
            (M(truePositives: 1, falsePositives: 1, debatable: 8), .default),        // debatable: judged, not decided
            (M(truePositives: 1, falsePositives: 2, debatable: 7), .experimental),   // 33 % of 3 decided, 10 judged
            (M(truePositives: 0, falsePositives: 0, debatable: 12), .default),       // nothing decided
            (M(truePositives: 7, falsePositives: 51, debatable: 0), .experimental),
        ]
        for (measured, suite) in cases {
            #expect(measured.suite == suite, "\(measured)")
        }
        #expect(M(truePositives: 7, falsePositives: 51, debatable: 0).summary == "12 % (58 judged)")
        #expect(M(truePositives: 0, falsePositives: 0, debatable: 3).summary == "— (3 judged)")
    }

    @Test func aPromotionNeedsANewCheckHalfAtEightyPercent() {
        let table = ["MOAT-X-1": MeasuredPrecision(truePositives: 1, falsePositives: 9, debatable: 0)]
        func suite(_ tp: Int, _ fp: Int, _ debatable: Int) -> RuleSuite {
            RulePrecision.suite(of: "MOAT-X-1", table: table, promoted: [
                .init(ruleId: "MOAT-X-1", checkHalf: "check half 3",
                      measured: MeasuredPrecision(truePositives: tp, falsePositives: fp, debatable: debatable)),
            ])
        }
        #expect(RulePrecision.suite(of: "MOAT-X-1", table: table, promoted: []) == .experimental)
        #expect(suite(8, 2, 0) == .default)
        #expect(suite(7, 3, 0) == .experimental)
        #expect(suite(8, 1, 0) == .experimental)   // 9 judged: too few to promote
        #expect(suite(8, 2, 5) == .default)
        #expect(RulePrecision.suite(of: "MOAT-UNJUDGED", table: table, promoted: []) == .default)
    }

    @Test func descriptionsCarryTheMeasurementAndTheSuite() throws {
        let descriptions = Dictionary(uniqueKeysWithValues: RuleRegistry.descriptions.map { ($0.id, $0) })
        let log = try #require(descriptions["MOAT-STOR-302"])
        #expect(log.suite == .experimental)
        #expect(log.measured == RulePrecision.table["MOAT-STOR-302"])
        let ats = try #require(descriptions["MOAT-NET-001"])
        #expect(ats.suite == .default)
        // Rules nobody judged keep the default suite and no measurement.
        let unjudged = RuleRegistry.descriptions.filter { RulePrecision.table[$0.id] == nil }
        #expect(!unjudged.isEmpty)
        #expect(unjudged.allSatisfy { $0.measured == nil && $0.suite == .default })
        // The experimental suite is exactly the rules the measurement puts there (no promotion yet).
        #expect(Set(descriptions.values.filter { $0.suite == .experimental }.map(\.id)) == RulePrecision.experimentalRuleIds)
        #expect(RulePrecision.promoted.isEmpty)
    }
}
