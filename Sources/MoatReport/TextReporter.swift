import MoatCore
import MoatScan

/// Human-readable output grouped by file, with the source line and the fix. Colour only when asked
/// (the CLI asks on a TTY).
public struct TextReporter: Reporter {
    public init() {}

    public func render(_ result: ScanResult, options: ReportOptions) -> String {
        let paint = Paint(enabled: options.color)
        var out = ""
        var findings = options.showSuppressed ? result.findings : result.activeFindings
        if !options.showNonShipping { findings = findings.filter { !$0.isNonShipping } }
        var currentPath: String?
        for finding in findings {
            if finding.location.path != currentPath {
                currentPath = finding.location.path
                out += "\n" + paint.bold(finding.location.path) + "\n"
            }
            let location = finding.location
            let where_ = location.keyPath.map { "\(location.line) (\($0))" } ?? location.symbol.map { "(\($0))" }
                ?? "\(location.line):\(location.column)"
            var tags = [finding.severity.rawValue.uppercased(), finding.ruleId]
            if finding.confidence != .high { tags.append("\(finding.confidence.rawValue) confidence") }
            if let reason = finding.nonShippingReason { tags.append(reason.tag) } else if finding.isTestCode { tags.append("test code") }
            if finding.suppression != nil { tags.append("suppressed") }
            out += "  \(where_)  " + paint.severity(finding.severity, "[" + tags.joined(separator: " · ") + "]") + " " + finding.message + "\n"
            if let evidence = finding.evidence, !evidence.isEmpty, location.keyPath == nil, evidence != location.symbol {
                out += "      " + paint.dim("│ " + evidence) + "\n"
            }
            for step in finding.related {
                out += "      " + paint.dim("↳ \(step.location.path):\(step.location.line): \(step.message)") + "\n"
            }
            out += "      fix: " + finding.fix + "\n"
        }
        if let baseline = result.baseline {
            out += "\n" + paint.bold("Baseline:") + " \(baseline.unchanged.count) known finding\(baseline.unchanged.count == 1 ? "" : "s") not shown, \(result.findings.count) new"
            if baseline.absent.isEmpty {
                out += ".\n"
            } else {
                out += "; \(baseline.absent.count) baseline entr\(baseline.absent.count == 1 ? "y" : "ies") no longer found (fixed, or the line changed):\n"
                for entry in baseline.absent { out += "  \(entry.path)  [\(entry.ruleId)] \(entry.message)\n" }
            }
        }
        if !options.showNonShipping, let line = Self.nonShippingLine(result) { out += "\n" + line + "\n" }
        if let review = result.changeReview { out += ChangeReviewText.text(review, paint: paint) }
        if !result.errors.isEmpty {
            out += "\n" + paint.bold("Could not analyze:") + "\n"
            for error in result.errors { out += "  \(error.path): \(error.message)\n" }
        }
        if let surface = result.surface, !surface.isEmpty, result.changeReview == nil {
            out += "\n" + paint.bold("Attack surface:") + " " + SurfaceReport.summaryLine(surface) + " See `moat surface` for each entry.\n"
        }
        let counts = result.countsBySeverity()
        let parts = Severity.allCases.reversed().compactMap { severity -> String? in
            guard let count = counts[severity], count > 0 else { return nil }
            return "\(count) \(severity.rawValue)"
        }
        let failing = result.findings(atOrAbove: options.failOn).count
        out += "\n" + paint.bold("Moat \(result.toolVersion)") + ": \(result.filesScanned) files, "
            + (parts.isEmpty ? "no findings" : parts.joined(separator: ", "))
            + (result.errors.isEmpty ? "" : ", \(result.errors.count) could not be analyzed")
            + "; \(failing) at or above \(options.failOn.rawValue).\n"
        return out
    }
}

extension TextReporter {
    /// "5 findings in non-shipping code not shown (tests 3, previews 1, debug-only 1); --show-non-shipping
    /// lists them", or nil when there are none.
    static func nonShippingLine(_ result: ScanResult) -> String? {
        let counts = result.nonShippingCounts()
        let total = counts.reduce(0) { $0 + $1.count }
        guard total > 0 else { return nil }
        let parts = counts.map { "\($0.reason.countLabel) \($0.count)" }.joined(separator: ", ")
        return "\(total) finding\(total == 1 ? "" : "s") in non-shipping code not shown (\(parts)); --show-non-shipping lists them."
    }
}

struct Paint {
    let enabled: Bool

    private func wrap(_ code: String, _ text: String) -> String { enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
    func bold(_ text: String) -> String { wrap("1", text) }
    func dim(_ text: String) -> String { wrap("2", text) }
    func severity(_ severity: Severity, _ text: String) -> String {
        switch severity {
        case .critical: wrap("1;35", text)
        case .high: wrap("1;31", text)
        case .medium: wrap("33", text)
        case .low: wrap("36", text)
        case .info: wrap("2", text)
        }
    }
}
