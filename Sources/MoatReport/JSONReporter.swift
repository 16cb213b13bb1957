import Foundation
import MoatCore
import MoatScan

/// `{ "tool": {name, version, rulesFingerprint}, "findings": [...], "errors": [{path, message}], "summary": {...} }`.
public struct JSONReporter: Reporter {
    public init() {}

    struct Document: Encodable {
        struct Tool: Encodable {
            var name: String
            var version: String
            var rulesFingerprint: String
        }
        struct Summary: Encodable {
            var filesScanned: Int
            var findings: Int
            var suppressed: Int
            var errors: Int
            var bySeverity: [String: Int]
            var failOn: String
            var failing: Int
            /// With `--min-severity`: that level, and how many findings below it are left out of `findings`
            /// (they still count in `failing`).
            var minSeverity: String?
            var notShownBelowMinSeverity: Int?
        }
        struct BaselineSummary: Encodable {
            /// Findings the baseline knows, left out of `findings`.
            var unchanged: Int
            /// Baseline entries no finding matches any more.
            var absent: [Baseline.Entry]
        }
        var tool: Tool
        var findings: [Finding]
        var errors: [ScanError]
        var summary: Summary
        var baseline: BaselineSummary?
        var changeReview: ChangeReview?
    }

    public func render(_ result: ScanResult, options: ReportOptions) -> String {
        var bySeverity: [String: Int] = [:]
        for severity in Severity.allCases { bySeverity[severity.rawValue] = 0 }
        for (severity, count) in result.countsBySeverity() { bySeverity[severity.rawValue] = count }
        let document = Document(
            tool: .init(name: result.toolName, version: result.toolVersion, rulesFingerprint: result.rulesFingerprint),
            findings: result.findings, errors: result.errors,
            summary: .init(filesScanned: result.filesScanned, findings: result.activeFindings.count,
                           suppressed: result.findings.count - result.activeFindings.count, errors: result.errors.count,
                           bySeverity: bySeverity, failOn: options.failOn.rawValue,
                           failing: result.findings(atOrAbove: options.failOn).count,
                           minSeverity: result.minimumSeverity?.rawValue,
                           notShownBelowMinSeverity: result.minimumSeverity.map { _ in result.belowMinimum.count }),
            baseline: result.baseline.map { Document.BaselineSummary(unchanged: $0.unchanged.count, absent: $0.absent) },
            changeReview: result.changeReview)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(document) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
