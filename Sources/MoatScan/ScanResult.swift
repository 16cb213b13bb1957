import Foundation
import MoatCore
import MoatRules

/// Everything a scan produced, handed whole to every reporter.
public struct ScanResult: Sendable {
    public var toolName = MoatVersion.name
    public var toolVersion = MoatVersion.current
    /// The fingerprint of this build's rule set (`RulesFingerprint`): with the version, what a report was made with.
    public var rulesFingerprint = RulesFingerprint.current
    /// The roots as given on the command line.
    public var roots: [String]
    /// All findings, sorted; suppressed ones carry `suppression` and are not counted against the threshold.
    public var findings: [Finding]
    public var errors: [ScanError]
    /// Descriptions of the rules that ran, in id order.
    public var rules: [RuleDescription]
    public var filesScanned: Int
    /// App identity when a configuration was found (`CFBundleDisplayName`/`CFBundleName`, bundle id).
    public var appName: String?
    public var bundleIdentifier: String?
    /// When the scan started and ended (set by `Scanner.scan`; reporters that need times fall back to now).
    public var startTime: Date?
    public var endTime: Date?
    /// Set when the scan was compared with a baseline: `findings` then holds only what the baseline does
    /// not know, and this says what matched and which baseline entries are gone.
    public var baseline: BaselineComparison?
    /// Set by `moat diff`: the change that was reviewed and the threat-model answers for it. `findings`
    /// then holds only findings on changed lines.
    public var changeReview: ChangeReview?
    /// Where data enters the app (set by `Scanner.scan`): the declared and coded entry points, annotated
    /// with the scan's findings. Reporters show it as the attack-surface section; `moat surface` prints it.
    public var surface: AttackSurface?
    /// Inventory entries — findings of inventory rules (entitlements, usage descriptions, URL schemes,
    /// bridges, pinning, binaries, profiles...), each with its typed `Finding.inventory` where the rule
    /// gives one. Shown by the attack surface, the HTML and Markdown reports and SARIF's run properties;
    /// in `findings` too only with `--include-inventory` (or `"includeInventory": true`).
    public var inventory: [Finding] = []
    /// Findings left out of the report by `--min-severity` (`hideFindings(below:)`): not listed by any
    /// format, but still counted by the gate (`findings(atOrAbove:)`) and in the "not shown" summaries.
    public var belowMinimum: [Finding] = []
    /// The `--min-severity` that was applied, if any.
    public var minimumSeverity: Severity?

    public init(roots: [String], findings: [Finding], errors: [ScanError], rules: [RuleDescription],
                filesScanned: Int, appName: String? = nil, bundleIdentifier: String? = nil) {
        self.roots = roots
        self.findings = findings
        self.errors = errors
        self.rules = rules
        self.filesScanned = filesScanned
        self.appName = appName
        self.bundleIdentifier = bundleIdentifier
    }

    /// Findings not covered by an inline suppression.
    public var activeFindings: [Finding] { findings.filter { $0.suppression == nil } }

    public func countsBySeverity() -> [Severity: Int] {
        var counts: [Severity: Int] = [:]
        for finding in activeFindings { counts[finding.severity, default: 0] += 1 }
        return counts
    }

    /// Active findings at or above the threshold that count for the exit code (those `--min-severity` hid
    /// included: it changes what is shown, not the gate). Findings in non-shipping code (tests, mocks,
    /// fixtures, previews, debug- and simulator-only branches) are reported, marked with their reason, and
    /// do not fail the scan; nor do the findings of experimental rules (`Finding.gates`).
    public func findings(atOrAbove threshold: Severity) -> [Finding] {
        let pool = belowMinimum.isEmpty ? activeFindings
            : (activeFindings + belowMinimum.filter { $0.suppression == nil }).sorted(by: Finding.reportOrder)
        return pool.filter { $0.severity >= threshold && $0.gates }
    }

    /// Active findings in non-shipping code (those `--min-severity` hid included), counted by reason.
    public func nonShippingCounts() -> [(reason: NonShippingReason, count: Int)] {
        var counts: [NonShippingReason: Int] = [:]
        for finding in activeFindings + belowMinimum where finding.suppression == nil {
            if let reason = finding.nonShippingReason { counts[reason, default: 0] += 1 }
        }
        return counts.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// `--min-severity`: moves the findings below `minimum` out of `findings` into `belowMinimum`.
    public mutating func hideFindings(below minimum: Severity) {
        minimumSeverity = minimum
        let (kept, hidden) = findings.reduce(into: ([Finding](), [Finding]())) { parts, finding in
            if finding.severity >= minimum { parts.0.append(finding) } else { parts.1.append(finding) }
        }
        findings = kept
        belowMinimum += hidden
    }

    public func rule(_ id: String) -> RuleDescription? { rules.first { $0.id == id } }
}
