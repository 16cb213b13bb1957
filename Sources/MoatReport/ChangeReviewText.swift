import MoatCore
import MoatScan

/// The threat-model answers of `moat diff`, as plain text and as Markdown.
enum ChangeReviewText {
    static func summary(_ review: ChangeReview) -> String {
        let files = review.changes.files.count
        return "Compared with \(review.base): \(files) changed file\(files == 1 ? "" : "s"), \(review.hunkCount) hunk\(review.hunkCount == 1 ? "" : "s")"
    }

    static func text(_ review: ChangeReview, paint: Paint) -> String {
        var out = "\n" + paint.bold("Threat model of the change") + "\n"
        out += "  " + summary(review) + "; findings are shown for changed lines only"
        out += review.findingsOutsideChange > 0 ? " (\(review.findingsOutsideChange) elsewhere not shown).\n" : ".\n"
        for answer in review.answers {
            out += "\n  " + paint.bold(answer.question.question) + " " + (answer.isYes ? paint.severity(.medium, "Yes") : "No") + "\n"
            guard answer.isYes else { continue }
            for evidence in answer.evidence {
                out += "    \(evidence.hunkDescription)" + (evidence.ruleIds.isEmpty ? "" : " [\(evidence.ruleIds.joined(separator: ", "))]") + "\n"
                for site in evidence.sites {
                    out += "      line \(site.line): \(site.reason)\n"
                    if !site.code.isEmpty { out += "      " + paint.dim("│ " + site.code) + "\n" }
                }
                for check in evidence.checks { out += "      checked before: \(check)\n" }
            }
            out += "    verify: \(answer.question.verify)\n"
        }
        return out
    }

    static func markdown(_ review: ChangeReview) -> String {
        var out = "### Threat model of the change\n\n"
        out += Markdown.escape(summary(review)) + ". Findings below are on changed lines only"
        out += review.findingsOutsideChange > 0 ? " (\(review.findingsOutsideChange) elsewhere not shown).\n\n" : ".\n\n"
        out += "| Question | Answer |\n|---|---|\n"
        for answer in review.answers {
            let places = answer.evidence.map { Markdown.escape($0.hunkDescription) }
            let shown = places.prefix(5).joined(separator: ", ") + (places.count > 5 ? ", …" : "")
            out += "| \(Markdown.escape(answer.question.question)) | " + (answer.isYes ? "**Yes**: \(shown)" : "No") + " |\n"
        }
        out += "\n"
        for answer in review.answers where answer.isYes {
            out += "<details><summary>\(Markdown.inHTML(answer.question.question)) Yes, \(answer.evidence.count) hunk\(answer.evidence.count == 1 ? "" : "s")</summary>\n\n"
            out += "**Verify:** \(Markdown.richText(answer.question.verify))\n\n"
            for evidence in answer.evidence.prefix(50) {
                out += "- **\(Markdown.escape(evidence.hunkDescription))**"
                if !evidence.ruleIds.isEmpty { out += " (\(Markdown.escape(evidence.ruleIds.joined(separator: ", "))))" }
                out += "\n"
                for site in evidence.sites.prefix(10) {
                    out += "  - line \(site.line): \(Markdown.richText(site.reason))"
                    if !site.code.isEmpty { out += " " + Markdown.codeSpan(site.code) }
                    out += "\n"
                }
                if !evidence.checks.isEmpty {
                    out += "  - checked before: " + evidence.checks.map(Markdown.codeSpan).joined(separator: "; ") + "\n"
                }
            }
            out += "\n</details>\n\n"
        }
        return out
    }
}
