import MoatCore
import MoatRules

/// Turns raw rule output into the reported list: severity overrides, inline suppressions (and the unused
/// ones), test-code marks, duplicates removed, fingerprints, report order.
public struct PostProcessor {
    public var severityOverrides: [String: Severity]
    public var enabledRuleIds: Set<String>
    public var testPaths: Set<String>

    public init(severityOverrides: [String: Severity], enabledRuleIds: Set<String>, testPaths: Set<String>) {
        self.severityOverrides = severityOverrides
        self.enabledRuleIds = enabledRuleIds
        self.testPaths = testPaths
    }

    public func process(_ raw: [Finding], suppressions: [SuppressionDirective]) -> [Finding] {
        var findings = raw
        // Severity overrides.
        for index in findings.indices {
            if let override = severityOverrides[findings[index].ruleId] ?? severityOverrides[findings[index].slug] {
                findings[index].severity = override
            }
        }
        // Inline suppressions. A directive without a reason still suppresses; MetaRules reports it.
        var used = Set<SuppressionDirective>()
        for index in findings.indices where findings[index].ruleId != UnusedSuppressionRule.description.id {
            if let directive = suppressions.first(where: { $0.covers(findings[index]) }) {
                findings[index].suppression = Suppression(
                    reason: directive.reason ?? "",
                    location: Location(path: directive.path, line: directive.line, column: directive.column))
                used.insert(directive)
            }
        }
        let unusedRule = UnusedSuppressionRule.description
        if enabledRuleIds.contains(unusedRule.id) {
            for directive in suppressions where !used.contains(directive) {
                // Only a suppression whose rules all ran can be called unused.
                let named = directive.ruleIds.compactMap { RuleRegistry.rule(named: $0)?.description.id }
                guard !named.isEmpty, named.count == directive.ruleIds.count, named.allSatisfy(enabledRuleIds.contains) else { continue }
                var sink = FindingSink(rule: unusedRule)
                sink.report("Suppression of \(directive.ruleIds.joined(separator: ", ")) matches no finding on this line or the next; remove it so it cannot hide a future finding.",
                            at: Location(path: directive.path, line: directive.line, column: directive.column))
                findings.append(contentsOf: sink.findings)
            }
        }
        // Test code.
        for index in findings.indices where testPaths.contains(findings[index].location.path) {
            findings[index].isTestCode = true
        }
        // Duplicates: same rule, place and message.
        var seen = Set<String>()
        findings = findings.filter { finding in
            let key = "\(finding.ruleId)|\(finding.location.path)|\(finding.location.line)|\(finding.location.column)|\(finding.location.keyPath ?? "")|\(finding.message)"
            return seen.insert(key).inserted
        }
        findings.sort(by: Finding.reportOrder)
        // Fingerprints: rule, file, normalized evidence (or key path / symbol), and the occurrence number of
        // that same content in the file, so unrelated lines moving does not change them.
        var occurrences: [String: Int] = [:]
        for index in findings.indices {
            let finding = findings[index]
            let content = finding.location.keyPath ?? finding.location.symbol
                ?? Fingerprint.normalize(finding.evidence ?? finding.message)
            let base = "\(finding.ruleId)|\(finding.location.path)|\(content)"
            let occurrence = occurrences[base, default: 0]
            occurrences[base] = occurrence + 1
            findings[index].fingerprint = Fingerprint.hex(base + "|\(occurrence)")
        }
        return findings
    }
}
