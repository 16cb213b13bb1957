import MoatCore
import MoatScan

/// Human-readable output. It opens with the findings that fail the gate (at or above `--fail-on`, outside
/// non-shipping code), most severe first; then lists the other findings grouped by file, with the source line, the
/// fix and the dataflow steps; then baseline, change review, errors and the attack surface; and ends with
/// the summary (tool version and rules fingerprint) and one line saying what was not shown and why. Colour
/// only when asked (the CLI asks on a TTY).
public struct TextReporter: Reporter {
    public init() {}

    /// Why a finding is not listed, in the order the reasons are checked (a finding counts under its first).
    enum HiddenReason: CaseIterable {
        case suppressed, belowMinimum, nonShipping, inventory
    }

    /// The reason a finding in `result.findings` is left out of the listing, or nil when it is listed.
    static func hiddenReason(_ finding: Finding, _ result: ScanResult, _ options: ReportOptions) -> HiddenReason? {
        if finding.suppression != nil && !options.showSuppressed { return .suppressed }
        if finding.isNonShipping && !options.showNonShipping { return .nonShipping }
        if !options.showInventory && ReportSupport.isInventory(finding, in: result) { return .inventory }
        return nil
    }

    /// The findings and the scan's inventory entries that are not among them (inventory is a finding only
    /// with `--include-inventory`; the text format counts it, and lists it with `--show-inventory`).
    static func candidates(_ result: ScanResult) -> [Finding] {
        guard !result.inventory.isEmpty else { return result.findings }
        let findings = Set(result.findings)
        return (result.findings + result.inventory.filter { !findings.contains($0) }).sorted(by: Finding.reportOrder)
    }

    public func render(_ result: ScanResult, options: ReportOptions) -> String {
        let paint = Paint(enabled: options.color)
        var out = ""
        let listed = Self.candidates(result).filter { Self.hiddenReason($0, result, options) == nil }
        let gate = Set(result.findings(atOrAbove: options.failOn).map(Self.identity))
        let failing = listed.filter { gate.contains(Self.identity($0)) }
            .sorted { $0.severity != $1.severity ? $0.severity > $1.severity : Finding.reportOrder($0, $1) }
        let rest = listed.filter { !gate.contains(Self.identity($0)) }

        if !failing.isEmpty {
            out += "\n" + paint.bold("Fails the gate (\(failing.count) at or above \(options.failOn.rawValue)):") + "\n"
            for finding in failing { out += Self.entry(finding, place: ReportSupport.place(finding.location) + "  ", paint: paint) }
            if !rest.isEmpty { out += "\n" + paint.bold("Other findings, by file:") + "\n" }
        }
        var currentPath: String?
        for finding in rest {
            if finding.location.path != currentPath {
                currentPath = finding.location.path
                out += "\n" + paint.bold(finding.location.path) + "\n"
            }
            let location = finding.location
            let where_ = location.keyPath.map { "\(location.line) (\($0))" } ?? location.symbol.map { "(\($0))" }
                ?? "\(location.line):\(location.column)"
            out += Self.entry(finding, place: where_ + "  ", paint: paint)
        }
        if let baseline = result.baseline {
            out += "\n" + paint.bold("Baseline:") + " \(baseline.unchanged.count) known finding\(baseline.unchanged.count == 1 ? "" : "s") not shown, \(result.findings.count + result.belowMinimum.count) new"
            if baseline.absent.isEmpty {
                out += ".\n"
            } else {
                out += "; \(baseline.absent.count) baseline entr\(baseline.absent.count == 1 ? "y" : "ies") no longer found (fixed, or the line changed):\n"
                for entry in baseline.absent { out += "  \(entry.path)  [\(entry.ruleId)] \(entry.message)\n" }
            }
        }
        if let review = result.changeReview { out += ChangeReviewText.text(review, paint: paint) }
        if !result.errors.isEmpty {
            out += "\n" + paint.bold("Could not analyze:") + "\n"
            for error in result.errors { out += "  \(error.path): \(error.message)\n" }
        }
        if let surface = result.surface, !surface.isEmpty, result.changeReview == nil {
            out += "\n" + paint.bold("Attack surface:") + " " + SurfaceReport.summaryLine(surface) + " See `moat surface` for each entry.\n"
        }
        // Counts cover every active finding, shown or not.
        var counts: [Severity: Int] = [:]
        for finding in result.findings + result.belowMinimum where finding.suppression == nil { counts[finding.severity, default: 0] += 1 }
        let parts = Severity.allCases.reversed().compactMap { severity -> String? in
            guard let count = counts[severity], count > 0 else { return nil }
            return "\(count) \(severity.rawValue)"
        }
        let failingCount = result.findings(atOrAbove: options.failOn).count
        out += "\n" + paint.bold("Moat \(result.toolVersion)") + " (rules \(result.rulesFingerprint)): \(result.filesScanned) files, "
            + (parts.isEmpty ? "no findings" : parts.joined(separator: ", "))
            + (result.errors.isEmpty ? "" : ", \(result.errors.count) could not be analyzed")
            + "; \(failingCount) at or above \(options.failOn.rawValue).\n"
        if let hidden = Self.notShownLine(result, options) { out += paint.dim(hidden) + "\n" }
        return out
    }

    /// "12 low, 40 in non-shipping code (tests 38, debug-only 2) and 30 inventory entries not shown (…how to
    /// show them)", or nil when everything was listed. Built from what the result holds: the findings
    /// `--min-severity` left out, and those of `result.findings` this format does not list (suppressed, in
    /// non-shipping code, inventory).
    static func notShownLine(_ result: ScanResult, _ options: ReportOptions) -> String? {
        var parts: [String] = []
        var flags: [String] = []
        var below: [Severity: Int] = [:]
        var suppressed = 0
        for finding in result.belowMinimum {
            if finding.suppression != nil && !options.showSuppressed { suppressed += 1 } else { below[finding.severity, default: 0] += 1 }
        }
        var byReason: [HiddenReason: Int] = [:]
        for finding in candidates(result) {
            if let reason = hiddenReason(finding, result, options) { byReason[reason, default: 0] += 1 }
        }
        suppressed += byReason[.suppressed] ?? 0
        for severity in Severity.allCases.reversed() {
            if let count = below[severity], count > 0 { parts.append("\(count) \(severity.rawValue)") }
        }
        if byReason[.nonShipping] != nil {
            // By reason: "17 in non-shipping code (tests 12, previews 3, debug-only 2)".
            var reasons: [NonShippingReason: Int] = [:]
            for finding in result.findings where hiddenReason(finding, result, options) == .nonShipping {
                reasons[finding.nonShippingReason ?? .test, default: 0] += 1
            }
            let total = reasons.values.reduce(0, +)
            let detail = reasons.sorted { $0.key < $1.key }.map { "\($0.key.countLabel) \($0.value)" }.joined(separator: ", ")
            parts.append("\(total) in non-shipping code (\(detail))")
            flags.append("--show-non-shipping")
        }
        if let count = byReason[.inventory] {
            parts.append("\(count) inventory entr\(count == 1 ? "y" : "ies")")
            flags.append("--show-inventory")
        }
        if suppressed > 0 {
            parts.append("\(suppressed) suppressed")
            flags.append("--show-suppressed")
        }
        guard !parts.isEmpty else { return nil }
        var hints: [String] = []
        if !below.isEmpty, let minimum = result.minimumSeverity { hints.append("below --min-severity \(minimum.rawValue)") }
        if !flags.isEmpty { hints.append(flags.joined(separator: ", ") + " to list them") }
        let list = parts.count == 1 ? parts[0] : parts.dropLast().joined(separator: ", ") + " and " + parts[parts.count - 1]
        return list + " not shown (" + hints.joined(separator: "; ") + ")."
    }

    static func identity(_ finding: Finding) -> String {
        finding.fingerprint + "|" + finding.ruleId + "|" + finding.location.path + "|\(finding.location.line):\(finding.location.column)"
    }

    static func entry(_ finding: Finding, place: String, paint: Paint) -> String {
        var tags = [finding.severity.rawValue.uppercased(), finding.ruleId]
        if finding.confidence != .high { tags.append("\(finding.confidence.rawValue) confidence") }
        if let reason = finding.nonShippingReason { tags.append(reason.tag) } else if finding.isTestCode { tags.append("test code") }
        if finding.suite == .experimental { tags.append("experimental rule, never fails the scan") }
        if finding.suppression != nil { tags.append("suppressed") }
        var out = "  \(place)" + paint.severity(finding.severity, "[" + tags.joined(separator: " · ") + "]") + " " + finding.message + "\n"
        let location = finding.location
        if let evidence = finding.evidence, !evidence.isEmpty, location.keyPath == nil, evidence != location.symbol {
            out += "      " + paint.dim("│ " + evidence) + "\n"
        }
        for step in finding.related {
            out += "      " + paint.dim("↳ \(step.location.path):\(step.location.line): \(step.message)") + "\n"
        }
        out += "      fix: " + finding.fix + "\n"
        return out
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
