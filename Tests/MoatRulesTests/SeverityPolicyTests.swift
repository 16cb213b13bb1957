import Testing
import MoatCore
import MoatRules

/// The severity policy of the README ("Severity policy"), checked over every rule's metadata. The
/// findings of the triggering examples are checked against it too (RuleExamplesTests), which covers the
/// severities a rule sets per finding.
struct SeverityPolicyTests {
    @Test func policyRejectsWhatItForbids() {
        // The policy itself, so that the checks below cannot pass vacuously.
        #expect(RuleEvidence.pattern.policyViolation(severity: .high, confidence: .low) != nil)
        #expect(RuleEvidence.pattern.policyViolation(severity: .medium, confidence: .medium) != nil)
        #expect(RuleEvidence.pattern.policyViolation(severity: .medium, confidence: .low) == nil)
        #expect(RuleEvidence.pattern.policyViolation(severity: .low, confidence: .high) == nil)
        #expect(RuleEvidence.compliance.policyViolation(severity: .high, confidence: .high) != nil)
        #expect(RuleEvidence.compliance.policyViolation(severity: .medium, confidence: .high) != nil)
        #expect(RuleEvidence.compliance.policyViolation(severity: .low, confidence: .high) == nil)
        #expect(RuleEvidence.inventory.policyViolation(severity: .low, confidence: .high) != nil)
        #expect(RuleEvidence.dataflow.policyViolation(severity: .critical, confidence: .high) == nil)
        #expect(RuleEvidence.configuration.policyViolation(severity: .critical, confidence: .high) == nil)
    }

    @Test("Every rule's severity and confidence fit its evidence", arguments: RuleRegistry.descriptions.map(\.id))
    func ruleFitsPolicy(ruleId: String) throws {
        let rule = try #require(RuleRegistry.rule(named: ruleId)).description
        let violation = rule.evidence.policyViolation(severity: rule.severity, confidence: rule.confidence)
        #expect(violation == nil, "\(ruleId) (\(rule.evidence.rawValue)): \(violation ?? "")")
        if rule.severity >= .high {
            #expect([.dataflow, .configuration].contains(rule.evidence), "\(ruleId) is \(rule.severity.rawValue) without evidence")
        }
    }

    @Test func evidenceMatchesWhatTheRuleIs() {
        for rule in RuleRegistry.descriptions {
            // Inventory rules and only they are inventory evidence.
            #expect((rule.evidence == .inventory) == rule.isInventory, "\(rule.id): inventory flag and evidence disagree")
            // The 300 range of source rules is the dataflow range.
            let number = Int(rule.id.split(separator: "-").last ?? "") ?? 0
            let inDataflowRange = rule.kind == .source && (300..<400).contains(number)
            #expect((rule.evidence == .dataflow) == inDataflowRange, "\(rule.id): dataflow evidence outside the 300 range, or the reverse")
            // Privacy-manifest and App Review matters are compliance, not security weaknesses.
            if rule.id.hasPrefix("MOAT-PRIV-"), !rule.isInventory {
                #expect(rule.evidence == .compliance, "\(rule.id) is a privacy compliance rule")
            }
        }
    }

    @Test func severitiesTheIssueNamed() throws {
        // Rules that only match a suspicious pattern, named in issue 15: at most medium with low confidence.
        for id in ["MOAT-PLAT-211", "MOAT-CRYP-203", "MOAT-STOR-203", "MOAT-STOR-204", "MOAT-PLAT-210"] {
            let rule = try #require(RuleRegistry.rule(named: id)).description
            #expect(rule.evidence == .pattern && rule.severity <= .medium && rule.confidence == .low, "\(id)")
        }
    }
}
