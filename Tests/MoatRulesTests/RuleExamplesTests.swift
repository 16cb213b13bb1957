import Foundation
import Testing
import MoatCore
import MoatRules
import MoatScan

/// Runs every registered rule's examples through the real pipeline.
struct RuleExamplesTests {
    static let ruleIds = RuleRegistry.all.map { $0.description.id }

    @Test("Triggering examples report exactly at the markers", arguments: ruleIds)
    func triggeringExamples(ruleId: String) throws {
        let rule = try #require(RuleRegistry.rule(named: ruleId)).description
        for (index, example) in rule.triggering.enumerated() {
            let (files, markers) = RuleExampleHarness.prepare(example)
            #expect(!markers.isEmpty, "\(ruleId) triggering example \(index) has no ↓ marker")
            let result = try RuleExampleHarness.scan(files: files)
            #expect(result.errors.isEmpty, "\(ruleId) example \(index) produced errors: \(result.errors)")
            let reported = RuleExampleHarness.reported(result, rule: ruleId)
            let expected = RuleExampleHarness.comparable(markers, against: reported)
            #expect(Set(reported) == Set(expected) && reported.count == expected.count,
                    "\(ruleId) triggering example \(index): expected \(expected.sorted { $0.description < $1.description }), got \(reported.sorted { $0.description < $1.description })")
            for finding in result.findings where finding.ruleId == ruleId {
                #expect(!finding.message.isEmpty && finding.message != rule.title, "\(ruleId): messages must be specific to the occurrence")
                let violation = rule.evidence.policyViolation(severity: finding.severity, confidence: finding.confidence)
                #expect(violation == nil, "\(ruleId) example \(index) reports \(finding.severity.rawValue)/\(finding.confidence.rawValue) at \(finding.location.path):\(finding.location.line): \(violation ?? "")")
                // Inventory rules say what they list as data (the attack surface reads that, not the message).
                #expect(rule.isInventory == (finding.inventory != nil), "\(ruleId): inventory rules, and only they, attach a typed entry")
            }
            // The rule alone gives the same findings as the whole pipeline (not for the unused-suppression
            // rule, which by design only judges suppressions of rules that ran).
            guard ruleId != UnusedSuppressionRule.description.id else { continue }
            let alone = try RuleExampleHarness.scan(files: files, onlyRule: ruleId)
            #expect(RuleExampleHarness.reported(alone, rule: ruleId).sorted { $0.description < $1.description }
                    == reported.sorted { $0.description < $1.description }, "\(ruleId) example \(index) differs when run alone")
        }
    }

    @Test("Non-triggering examples stay quiet", arguments: ruleIds)
    func nonTriggeringExamples(ruleId: String) throws {
        let rule = try #require(RuleRegistry.rule(named: ruleId)).description
        for (index, example) in rule.nonTriggering.enumerated() {
            let (files, markers) = RuleExampleHarness.prepare(example)
            #expect(markers.isEmpty, "\(ruleId) non-triggering example \(index) has a marker")
            let result = try RuleExampleHarness.scan(files: files)
            #expect(result.errors.isEmpty, "\(ruleId) example \(index) produced errors: \(result.errors)")
            let reported = RuleExampleHarness.reported(result, rule: ruleId)
            #expect(reported.isEmpty, "\(ruleId) non-triggering example \(index) reported \(reported)")
        }
    }

    @Test("Triggering code stays quiet inside comments and string literals", arguments: ruleIds)
    func wrappedExamples(ruleId: String) throws {
        let rule = try #require(RuleRegistry.rule(named: ruleId)).description
        // Suppression rules are about comments themselves.
        guard rule.kind == .source, !rule.id.hasPrefix("MOAT-META-") else { return }
        for (index, example) in rule.triggering.enumerated() {
            let (files, _) = RuleExampleHarness.prepare(example)
            // Examples of built apps (Mach-O sketches) have no code to wrap.
            guard files.contains(where: { RuleExampleHarness.isSource($0.name) }) else { continue }
            var wrappings: [[(name: String, content: String)]] = []
            let commented = files.map { file in
                (file.name, RuleExampleHarness.isSource(file.name) ? (RuleExampleHarness.wrappedInComment(file.content) ?? file.content) : file.content)
            }
            wrappings.append(commented)
            if files.allSatisfy({ !RuleExampleHarness.isSource($0.name) || $0.name.hasSuffix(".swift") }) {
                wrappings.append(files.map { file in
                    (file.name, file.name.hasSuffix(".swift") ? (RuleExampleHarness.wrappedInSwiftString(file.content) ?? file.content) : file.content)
                })
            }
            for (kind, wrapped) in wrappings.enumerated() {
                let result = try RuleExampleHarness.scan(files: wrapped)
                let reported = RuleExampleHarness.reported(result, rule: ruleId)
                #expect(reported.isEmpty, "\(ruleId) example \(index) fired when wrapped in a \(kind == 0 ? "comment" : "string literal"): \(reported)")
            }
        }
    }
}

struct RuleCatalogueTests {
    @Test func idsAndSlugsAreUniqueAndWellFormed() {
        let descriptions = RuleRegistry.descriptions
        #expect(Set(descriptions.map(\.id)).count == descriptions.count, "duplicate rule ids")
        #expect(Set(descriptions.map(\.slug)).count == descriptions.count, "duplicate rule slugs")
        for rule in descriptions {
            let parts = rule.id.split(separator: "-")
            #expect(parts.count == 3 && parts[0] == "MOAT" && parts[2].count == 3 && Int(parts[2]) != nil, "bad id \(rule.id)")
            #expect(rule.slug.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" }, "bad slug \(rule.slug)")
        }
    }

    @Test func everyRuleHasBothKindsOfExamples() {
        for rule in RuleRegistry.descriptions {
            #expect(!rule.triggering.isEmpty, "\(rule.id) has no triggering example")
            #expect(!rule.nonTriggering.isEmpty, "\(rule.id) has no non-triggering example")
        }
    }

    @Test func metadataIsCompleteAndUsesMASVSv2() {
        for rule in RuleRegistry.descriptions {
            #expect(!rule.title.isEmpty && !rule.rationale.isEmpty && !rule.fix.isEmpty, "\(rule.id) lacks text")
            for control in rule.masvs { #expect(Taxonomy.masvs[control] != nil, "\(rule.id): unknown MASVS v2 control \(control)") }
            for test in rule.mastg { #expect(Taxonomy.mastg[test] != nil, "\(rule.id): unknown MASTG test \(test)") }
            if !rule.id.hasPrefix("MOAT-META-") {
                #expect(!rule.masvs.isEmpty, "\(rule.id) has no MASVS control")
                #expect(!rule.cwe.isEmpty, "\(rule.id) has no CWE")
            }
        }
    }

    @Test func everyRuleIsSortedIntoEachKindItIs() {
        var kinds: [String: Int] = [:]
        for type in RuleRegistry.all {
            let rule = type.init()
            let id = type.description.id
            #expect((rule.asSourceRule != nil) == (rule is any SourceRule), "\(id) source")
            #expect((rule.asPropertyListRule != nil) == (rule is any PropertyListRule), "\(id) plist")
            #expect((rule.asAppRule != nil) == (rule is any AppRule), "\(id) app")
            #expect((rule.asBinaryRule != nil) == (rule is any BinaryRule), "\(id) binary")
            #expect((rule.asInterfaceBuilderRule != nil) == (rule is any InterfaceBuilderRule), "\(id) interface builder")
            if rule.asSourceRule != nil { kinds["source", default: 0] += 1 }
            if rule.asBinaryRule != nil { kinds["binary", default: 0] += 1 }
        }
        #expect(kinds["source", default: 0] > 40 && kinds["binary", default: 0] > 10, "\(kinds)")
    }

    @Test func lookupByIdAndSlug() throws {
        let rule = try #require(RuleRegistry.rule(named: "ats-arbitrary-loads"))
        #expect(rule.description.id == "MOAT-NET-001")
        #expect(RuleRegistry.rule(named: "moat-net-001")?.description.slug == "ats-arbitrary-loads")
        #expect(RuleRegistry.rule(named: "no-such-rule") == nil)
    }
}
