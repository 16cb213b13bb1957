import Foundation
import MoatCore

/// The rule catalogue, generated from the rules' own descriptions (`moat rules`, `moat explain`, README).
public enum RuleCatalogue {
    public static func text(_ rules: [RuleDescription]) -> String {
        var out = ""
        for rule in rules {
            let severity = rule.severity.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
            let suite = rule.suite == .experimental ? "  [experimental]" : ""
            out += "\(rule.id.padding(toLength: 15, withPad: " ", startingAt: 0)) \(severity) \(rule.slug)  \(rule.title)\(suite)\n"
        }
        let experimental = rules.filter { $0.suite == .experimental }.count
        out += "\n\(rules.count) rules"
        if experimental > 0 {
            out += ", \(experimental) of them experimental (run only with `--include experimental`, never failing a gate)"
        }
        out += ". `moat explain RULE` shows one in full.\n"
        return out
    }

    public static func json(_ rules: [RuleDescription]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(rules) else { return "[]\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// A Markdown table for the README.
    public static func markdown(_ rules: [RuleDescription]) -> String {
        var out = "| ID | Slug | Title | Input | Severity | Confidence | Evidence | Measured precision | Suite | MASVS | MASTG | CWE |\n"
        out += "|---|---|---|---|---|---|---|---|---|---|---|---|\n"
        for rule in rules {
            let cwe = rule.cwe.map { "CWE-\($0)" }.joined(separator: ", ")
            out += "| \(rule.id) | `\(rule.slug)` | \(escape(rule.title)) | \(rule.kind?.rawValue ?? "") | \(rule.severity.rawValue) | \(rule.confidence.rawValue) | \(rule.evidence.rawValue) | \(rule.measured?.summary ?? "") | \(rule.suite.rawValue) | \(rule.masvs.joined(separator: ", ")) | \(rule.mastg.joined(separator: ", ")) | \(cwe) |\n"
        }
        return out
    }

    public static func explain(_ rule: RuleDescription) -> String {
        var out = "\(rule.id) \(rule.slug): \(rule.title)\n"
        out += "Severity \(rule.severity.rawValue), confidence \(rule.confidence.rawValue), evidence \(rule.evidence.rawValue), input \(rule.kind?.rawValue ?? "unknown")"
        out += rule.isInventory ? " (inventory)\n" : "\n"
        if let measured = rule.measured {
            out += "Measured precision on the corpus: \(measured.summary): \(measured.truePositives) TP, \(measured.falsePositives) FP, \(measured.debatable) debatable\n"
        }
        if rule.suite == .experimental {
            out += "Suite: experimental (below \(Int(MeasuredPrecision.defaultSuiteFloor * 100)) % over \(MeasuredPrecision.minimumJudged) or more judged findings): runs only with `--include experimental` and never fails a gate\n"
        }
        if !rule.masvs.isEmpty { out += "MASVS v2: \(rule.masvs.joined(separator: ", "))\n" }
        if !rule.mastg.isEmpty { out += "MASTG: \(rule.mastg.joined(separator: ", "))\n" }
        if !rule.cwe.isEmpty { out += "CWE: \(rule.cwe.map { "CWE-\($0)" }.joined(separator: ", "))\n" }
        out += "\nWhy it matters:\n  \(rule.rationale)\n\nHow to fix:\n  \(rule.fix)\n"
        var seen = Set<String>()
        let references = (rule.references + rule.masvs.map(Taxonomy.masvsURL) + rule.mastg.map(Taxonomy.mastgURL)
            + rule.cwe.map(Taxonomy.cweURL)).filter { seen.insert($0).inserted }
        if !references.isEmpty {
            out += "\nReferences:\n" + references.map { "  - \($0)\n" }.joined()
        }
        for (title, examples) in [("Flagged", rule.triggering), ("Not flagged", rule.nonTriggering)] where !examples.isEmpty {
            out += "\n\(title):\n"
            for example in examples {
                if let note = example.note { out += "  (\(note))\n" }
                for file in example.files {
                    out += "  --- \(file.name)\n"
                    for line in file.cleaned.content.split(separator: "\n", omittingEmptySubsequences: false) {
                        out += "  \(line)\n"
                    }
                }
            }
        }
        return out
    }

    static func escape(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }
}
