import Foundation
import MoatCore
import MoatScan

/// Markdown for a pull-request or merge-request comment: a summary table, findings grouped by severity
/// (each a collapsible block with its `file:line` link, evidence, dataflow path, why, fix and links), the
/// attack-surface inventory collapsed, and — for `moat diff` — the threat-model answers first.
///
/// Text from the scanned app is escaped (Markdown punctuation and HTML), evidence goes into fenced blocks
/// whose fence outgrows any backtick run, and the comment stays under GitHub's 65,536-character limit.
public struct MarkdownReporter: Reporter {
    public init() {}

    /// GitHub refuses comments longer than 65,536 characters; stop adding findings well before.
    static let characterBudget = 60_000

    public func render(_ result: ScanResult, options: ReportOptions) -> String {
        var out = ""
        let title = result.changeReview == nil ? "Moat security report" : "Moat security review of this change"
        out += "## \(title)" + (result.appName.map { " — " + Markdown.escape($0) } ?? "")
        if let bundle = result.bundleIdentifier { out += " (\(Markdown.escape(bundle)))" }
        out += "\n\n"
        let failing = result.findings(atOrAbove: options.failOn).count
        out += "Scanned \(result.filesScanned) file\(result.filesScanned == 1 ? "" : "s") with \(Markdown.escape(result.toolName)) \(Markdown.escape(result.toolVersion)) (rules \(Markdown.escape(result.rulesFingerprint))). "
        out += failing == 0
            ? "No finding at or above **\(options.failOn.rawValue)**.\n\n"
            : "**\(failing) finding\(failing == 1 ? "" : "s") at or above \(options.failOn.rawValue)**.\n\n"

        let inventory = ReportSupport.inventory(result)
        let defects = result.activeFindings.filter { !ReportSupport.isInventory($0, in: result) }
        var counts: [Severity: Int] = [:]
        for finding in defects { counts[finding.severity, default: 0] += 1 }
        out += "| Severity | Findings |\n|---|---:|\n"
        for severity in Severity.allCases.reversed() {
            out += "| \(ReportSupport.severityName(severity)) | \(counts[severity] ?? 0) |\n"
        }
        if !inventory.isEmpty { out += "| Attack-surface inventory | \(inventory.count) |\n" }
        out += "\n"

        if let review = result.changeReview { out += ChangeReviewText.markdown(review) }
        if let baseline = result.baseline {
            out += "Compared with the baseline: \(result.findings.count) new, \(baseline.unchanged.count) unchanged (not shown), \(baseline.absent.count) no longer found.\n\n"
        }

        var omitted = 0
        for severity in Severity.allCases.reversed() {
            let findings = defects.filter { $0.severity == severity }
            guard !findings.isEmpty else { continue }
            out += "### \(ReportSupport.severityName(severity)) (\(findings.count))\n\n"
            for finding in findings {
                if out.count > Self.characterBudget {
                    omitted += 1
                    continue
                }
                out += block(finding, result: result, options: options)
            }
        }
        if defects.isEmpty { out += result.changeReview == nil ? "No findings.\n\n" : "No findings on changed lines.\n\n" }

        // A change review is about the change: the whole app's surface stays out of it.
        if let surface = result.surface, !surface.isEmpty, result.changeReview == nil, out.count <= Self.characterBudget {
            out += "<details><summary>Attack surface (\(surface.count) entr\(surface.count == 1 ? "y" : "ies"))</summary>\n\n"
            out += SurfaceReport.markdownSections(surface, options: options, heading: "####", budget: Self.characterBudget)
            out += "</details>\n\n"
        }
        if !inventory.isEmpty && out.count <= Self.characterBudget {
            out += "<details><summary>Attack-surface inventory (\(inventory.count))</summary>\n\n"
            for group in ReportSupport.byRule(inventory) {
                guard let first = group.findings.first else { continue }
                out += "**\(Markdown.escape(ReportSupport.rule(for: first, in: result).title))**\n\n"
                for finding in group.findings {
                    out += "- \(location(finding.location, options: options)): \(Markdown.escape(finding.message))\n"
                }
                out += "\n"
            }
            out += "</details>\n\n"
        } else if !inventory.isEmpty {
            omitted += inventory.count
        }
        if let absent = result.baseline?.absent, !absent.isEmpty, out.count <= Self.characterBudget {
            out += "<details><summary>Baseline entries no longer found (\(absent.count))</summary>\n\n"
            for entry in absent.prefix(200) {
                out += "- \(Markdown.escape(entry.path)) · \(Markdown.escape(entry.ruleId)): \(Markdown.escape(entry.message))\n"
            }
            out += "\n</details>\n\n"
        }
        if !result.errors.isEmpty && out.count <= Self.characterBudget {
            out += "<details><summary>Could not analyze (\(result.errors.count))</summary>\n\n"
            for error in result.errors.prefix(200) {
                out += "- \(Markdown.escape(error.path)): \(Markdown.escape(error.message))\n"
            }
            out += "\n</details>\n\n"
        }
        let suppressed = result.findings.count - result.activeFindings.count
        if suppressed > 0 { out += "_\(suppressed) finding\(suppressed == 1 ? " is" : "s are") suppressed with `moat:ignore`._\n\n" }
        if omitted > 0 {
            out += "_\(omitted) more finding\(omitted == 1 ? " is" : "s are") not shown to keep this comment short: see the SARIF or HTML report._\n"
        }
        return out
    }

    /// `[App/Info.plist:7](base/App/Info.plist#L7)`, or the escaped text without a link base.
    func location(_ location: Location, options: ReportOptions) -> String {
        let text = Markdown.escape(ReportSupport.place(location))
        guard var base = options.sourceLinkBase, !base.isEmpty else { return text }
        while base.hasSuffix("/") { base.removeLast() }
        return "[\(text)](\(Markdown.url(base + "/" + location.path))#L\(location.line))"
    }

    func block(_ finding: Finding, result: ScanResult, options: ReportOptions) -> String {
        let rule = ReportSupport.rule(for: finding, in: result)
        var out = "<details><summary><code>\(Markdown.inHTML(finding.ruleId))</code> \(Markdown.inHTML(ReportSupport.place(finding.location))) — \(Markdown.inHTML(finding.message))</summary>\n\n"
        out += "\(location(finding.location, options: options)) · **\(Markdown.escape(rule.title))** (`\(finding.slug.filter { $0.isLetter || $0.isNumber || $0 == "-" })`, \(finding.confidence.rawValue) confidence\(finding.nonShippingReason.map { ", " + $0.tag } ?? (finding.isTestCode ? ", test code" : ""))\(finding.suite == .experimental ? ", experimental rule" : ""))\n\n"
        out += Markdown.escape(finding.message) + "\n\n"
        if let evidence = finding.evidence, !evidence.isEmpty, finding.location.keyPath == nil {
            out += Markdown.codeBlock(evidence)
            out += "\n"
        }
        if !finding.related.isEmpty {
            out += "Dataflow path:\n\n"
            for (index, step) in finding.related.enumerated() {
                out += "\(index + 1). \(location(step.location, options: options)): \(Markdown.escape(step.message))\n"
            }
            out += "\(finding.related.count + 1). \(location(finding.location, options: options)): \(Markdown.escape(finding.message))\n\n"
        }
        // Rule texts are Moat's own Markdown (backticks for code), not text from the scanned app.
        if !rule.rationale.isEmpty { out += "**Why it matters.** \(ReportSupport.oneLine(rule.rationale))\n\n" }
        out += "**How to fix.** \(ReportSupport.oneLine(finding.fix))\n\n"
        let links = SARIFReporter.links(rule)
        if !links.isEmpty {
            out += links.map { "[\(Markdown.escape($0.label))](\(Markdown.url($0.url)))" }.joined(separator: " · ") + "\n\n"
        }
        out += "</details>\n\n"
        return out
    }
}
