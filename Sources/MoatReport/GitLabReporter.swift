import Foundation
import MoatCore
import MoatScan

/// GitLab's SAST report (security report schema 15.0.x), for `artifacts:reports:sast`.
///
/// `scan` names Moat as analyzer and scanner; each active finding is a vulnerability with a stable id
/// (derived from its fingerprint, so GitLab tracks it across pipelines), its rule id and CWE as
/// identifiers, the file and line, severity and confidence in GitLab's vocabulary, and the fix as the
/// solution. Suppressed findings are left out; files that could not be analyzed become scan messages.
public struct GitLabReporter: Reporter {
    public init() {}

    static let schemaVersion = "15.0.7"

    public func render(_ result: ScanResult, options: ReportOptions) -> String {
        document(result).rendered()
    }

    func document(_ result: ScanResult) -> JSONValue {
        let now = Date()
        let tool: JSONValue = [
            "id": "moat",
            "name": "Moat",
            "version": .string(result.toolVersion + "+rules." + result.rulesFingerprint),
            "url": .string(MoatVersion.informationURI),
            "vendor": ["name": "Moat"],
        ]
        var messages: [JSONValue] = result.errors.map { error in
            ["level": "warn", "value": .string("Could not analyze \(error.path): \(error.message)")]
        }
        if let baseline = result.baseline {
            messages.append(["level": "info", "value": .string("Compared with a baseline: \(baseline.unchanged.count) known findings left out, \(baseline.absent.count) baseline entries no longer found.")])
        }
        var scan: JSONValue = [
            "analyzer": tool,
            "scanner": tool,
            "type": "sast",
            "start_time": .string(Timestamps.gitlab(result.startTime ?? now)),
            "end_time": .string(Timestamps.gitlab(result.endTime ?? now)),
            "status": "success",
        ]
        if !messages.isEmpty { scan["messages"] = .array(messages) }
        return [
            "version": .string(Self.schemaVersion),
            "scan": scan,
            "vulnerabilities": .array(result.activeFindings.map { vulnerability($0, result: result) }),
        ]
    }

    static func severity(_ severity: Severity) -> String {
        switch severity {
        case .critical: "Critical"
        case .high: "High"
        case .medium: "Medium"
        case .low: "Low"
        case .info: "Info"
        }
    }

    static func confidence(_ confidence: Confidence) -> String {
        switch confidence {
        case .high: "High"
        case .medium: "Medium"
        case .low: "Low"
        }
    }

    /// A UUID-shaped id derived from the finding's rule, path and fingerprint: the same finding keeps its id.
    static func identifier(_ finding: Finding) -> String {
        let seed = "\(finding.ruleId)|\(finding.location.path)|\(finding.fingerprint)"
        let hex = Array(Fingerprint.hex("a|" + seed) + Fingerprint.hex("b|" + seed))
        func part(_ range: Range<Int>) -> String { String(hex[range]) }
        return "\(part(0..<8))-\(part(8..<12))-\(part(12..<16))-\(part(16..<20))-\(part(20..<32))"
    }

    func vulnerability(_ finding: Finding, result: ScanResult) -> JSONValue {
        let rule = ReportSupport.rule(for: finding, in: result)
        var identifiers: [JSONValue] = [[
            "type": "moat_rule_id",
            "name": .string("Moat \(finding.ruleId) (\(finding.slug))"),
            "value": .string(finding.ruleId),
            "url": .string(SARIFReporter.helpURI(rule)),
        ]]
        for cwe in finding.cwe {
            identifiers.append(["type": "cwe", "name": .string("CWE-\(cwe)"), "value": .string(String(cwe)),
                                "url": .string(Taxonomy.cweURL(cwe))])
        }
        var description = rule.rationale.isEmpty ? finding.title : rule.rationale
        if let evidence = finding.evidence, !evidence.isEmpty, finding.location.keyPath == nil {
            description += "\n\nEvidence: " + evidence
        }
        if let keyPath = finding.location.keyPath { description += "\n\nKey: " + keyPath }
        if !finding.related.isEmpty {
            description += "\n\nDataflow: " + finding.related.map { "\($0.location.path):\($0.location.line) \($0.message)" }
                .joined(separator: " → ") + " → \(finding.location.path):\(finding.location.line)"
        }
        if !finding.masvs.isEmpty || !finding.mastg.isEmpty {
            description += "\n\nMASVS: " + finding.masvs.joined(separator: ", ")
            if !finding.mastg.isEmpty { description += "; MASTG: " + finding.mastg.joined(separator: ", ") }
        }
        var location: JSONValue = ["file": .string(finding.location.path), "start_line": .int(finding.location.line)]
        if let symbol = finding.location.symbol { location["method"] = .string(symbol) }
        let links = SARIFReporter.links(rule).map { link -> JSONValue in
            link.label == link.url ? ["url": .string(link.url)] : ["name": .string(link.label), "url": .string(link.url)]
        }
        var value: JSONValue = [
            "id": .string(Self.identifier(finding)),
            "category": "sast",
            "name": .string(finding.title),
            "message": .string(finding.message),
            "description": .string(description),
            "severity": .string(Self.severity(finding.severity)),
            "confidence": .string(Self.confidence(finding.confidence)),
            "solution": .string(finding.fix),
            "location": location,
            "identifiers": .array(identifiers),
        ]
        if !links.isEmpty { value["links"] = .array(links) }
        return value
    }
}
