import Foundation
import MoatCore
import MoatScan

/// `{ "tool": {name, version}, "findings": [...], "errors": [{path, message}], "summary": {...} }`.
public struct JSONReporter: Reporter {
    public init() {}

    struct Document: Encodable {
        struct Tool: Encodable {
            var name: String
            var version: String
        }
        struct Summary: Encodable {
            var filesScanned: Int
            var findings: Int
            var suppressed: Int
            var errors: Int
            var bySeverity: [String: Int]
            var failOn: String
            var failing: Int
        }
        var tool: Tool
        var findings: [Finding]
        var errors: [ScanError]
        var summary: Summary
    }

    public func render(_ result: ScanResult, options: ReportOptions) -> String {
        var bySeverity: [String: Int] = [:]
        for severity in Severity.allCases { bySeverity[severity.rawValue] = 0 }
        for (severity, count) in result.countsBySeverity() { bySeverity[severity.rawValue] = count }
        let document = Document(
            tool: .init(name: result.toolName, version: result.toolVersion),
            findings: result.findings, errors: result.errors,
            summary: .init(filesScanned: result.filesScanned, findings: result.activeFindings.count,
                           suppressed: result.findings.count - result.activeFindings.count, errors: result.errors.count,
                           bySeverity: bySeverity, failOn: options.failOn.rawValue,
                           failing: result.findings(atOrAbove: options.failOn).count))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(document) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
