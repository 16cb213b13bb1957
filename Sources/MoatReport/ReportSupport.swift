import Foundation
import MoatCore
import MoatScan

/// Grouping and naming shared by the human formats (HTML, Markdown).
enum ReportSupport {
    /// MASVS v2 areas in the standard's order, with display names.
    static let areas: [(id: String, name: String)] = [
        ("STORAGE", "Storage"), ("CRYPTO", "Cryptography"), ("AUTH", "Authentication"), ("NETWORK", "Network"),
        ("PLATFORM", "Platform interaction"), ("CODE", "Code quality"), ("RESILIENCE", "Resilience"), ("PRIVACY", "Privacy"),
    ]

    static func areaName(_ id: String) -> String {
        areas.first { $0.id == id }?.name ?? (id.isEmpty ? "Other" : id.capitalized)
    }

    static func areaOrder(_ id: String) -> Int {
        areas.firstIndex { $0.id == id } ?? areas.count
    }

    /// The MASVS area a finding is filed under: its first control's area.
    static func area(of masvs: [String]) -> String {
        masvs.first.map(Taxonomy.area(of:)) ?? ""
    }

    static func severityName(_ severity: Severity) -> String {
        severity.rawValue.prefix(1).uppercased() + severity.rawValue.dropFirst()
    }

    /// The rule of a finding, from the result's catalogue, or built from the finding itself.
    static func rule(for finding: Finding, in result: ScanResult) -> RuleDescription {
        result.rule(finding.ruleId) ?? RuleDescription(
            id: finding.ruleId, slug: finding.slug, title: finding.title, severity: finding.severity,
            confidence: finding.confidence, cwe: finding.cwe, masvs: finding.masvs, mastg: finding.mastg,
            rationale: "", fix: finding.fix, examples: [])
    }

    static func isInventory(_ finding: Finding, in result: ScanResult) -> Bool {
        // Any info-level finding belongs to the surface too (as `InventoryEntries` decides for the scan).
        finding.inventory != nil || (result.rule(finding.ruleId)?.isInventory ?? false) || finding.severity == .info
    }

    /// The active inventory entries of a scan: `ScanResult.inventory`, or — for a result built without
    /// the scanner — the inventory findings among `findings`.
    static func inventory(_ result: ScanResult) -> [Finding] {
        let entries = result.inventory.isEmpty ? result.findings.filter { isInventory($0, in: result) } : result.inventory
        return entries.filter { $0.suppression == nil }
    }

    /// `path:line:column`, or `path:line (key.path)` for property lists.
    static func place(_ location: Location) -> String {
        if let keyPath = location.keyPath { return "\(location.path):\(location.line) (\(keyPath))" }
        if let symbol = location.symbol { return "\(location.path) (\(symbol))" }
        return "\(location.path):\(location.line):\(location.column)"
    }

    /// Findings grouped by rule, rules ordered by their most severe finding then id.
    static func byRule(_ findings: [Finding]) -> [(ruleId: String, findings: [Finding])] {
        var groups: [String: [Finding]] = [:]
        for finding in findings { groups[finding.ruleId, default: []].append(finding) }
        return groups.map { ($0.key, $0.value) }.sorted { lhs, rhs in
            let left = lhs.1.map(\.severity).max() ?? .info
            let right = rhs.1.map(\.severity).max() ?? .info
            return left != right ? left > right : lhs.0 < rhs.0
        }
    }

    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}

/// Escaping for HTML text and attribute values. Everything taken from the scanned app goes through it.
enum HTML {
    static func escape(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&#39;"
            case "\u{0}": output += "\u{FFFD}"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    /// Moat's own rule texts mark code with backticks: escaped, with those spans as `<code>`.
    static func richText(_ text: String) -> String {
        let parts = text.split(separator: "`", omittingEmptySubsequences: false)
        guard parts.count >= 3, parts.count % 2 == 1 else { return escape(text) }
        return parts.enumerated().map { index, part in
            index % 2 == 1 ? "<code>\(escape(String(part)))</code>" : escape(String(part))
        }.joined()
    }

    /// An `href` for a link Moat itself builds (MASVS, MASTG, CWE, rule references): only http(s).
    static func link(_ url: String, _ label: String) -> String {
        guard url.hasPrefix("https://") || url.hasPrefix("http://") else { return escape(label) }
        return "<a href=\"\(escape(url))\" rel=\"noreferrer noopener\">\(escape(label))</a>"
    }
}

/// Escaping for Markdown (GitHub/GitLab flavoured) text: punctuation that would start markup is
/// backslash-escaped, HTML-significant characters become entities, line breaks become spaces.
enum Markdown {
    /// Characters that can start emphasis, code, links, headings, tables, strikethrough, images, mentions
    /// or math anywhere in a line.
    static let punctuation: Set<Character> = ["\\", "`", "*", "_", "[", "]", "#", "|", "~", "!", "@", "$"]

    static func escape(_ text: String) -> String {
        var output = ""
        for character in ReportSupport.oneLine(text) {
            switch character {
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "&": output += "&amp;"
            default:
                if punctuation.contains(character) { output.append("\\") }
                output.append(character)
            }
        }
        return output
    }

    /// Text with `code` spans marked by backticks (Moat's explanations, which quote the scanned code):
    /// plain parts escaped, quoted parts as code spans. A backtick inside quoted code only shifts the
    /// spans; every part is still escaped or literal.
    static func richText(_ text: String) -> String {
        let parts = text.split(separator: "`", omittingEmptySubsequences: false)
        guard parts.count >= 3 else { return escape(text) }
        return parts.enumerated().map { index, part in
            index % 2 == 1 && index < parts.count - 1 ? codeSpan(String(part)) : escape(String(part))
        }.joined()
    }

    /// Text inside raw HTML in a Markdown document (`<summary>`): HTML-escaped, and Markdown punctuation as
    /// numeric entities, so neither an HTML nor a Markdown parser finds markup in it.
    static func inHTML(_ text: String) -> String {
        var output = ""
        for character in HTML.escape(ReportSupport.oneLine(text)) {
            if punctuation.contains(character), let ascii = character.asciiValue {
                output += "&#\(ascii);"
            } else {
                output.append(character)
            }
        }
        return output
    }

    /// A fenced code block whose fence is longer than any backtick run in the content.
    static func codeBlock(_ text: String, language: String = "") -> String {
        var longest = 0
        var run = 0
        for character in text {
            if character == "`" { run += 1; longest = max(longest, run) } else { run = 0 }
        }
        let fence = String(repeating: "`", count: max(3, longest + 1))
        return "\(fence)\(language)\n\(text)\n\(fence)\n"
    }

    /// An inline code span: its content is literal (no Markdown, no HTML), whatever it holds.
    static func codeSpan(_ text: String) -> String {
        let line = ReportSupport.oneLine(text)
        var longest = 0
        var run = 0
        for character in line {
            if character == "`" { run += 1; longest = max(longest, run) } else { run = 0 }
        }
        let fence = String(repeating: "`", count: longest + 1)
        let pad = line.hasPrefix("`") || line.hasSuffix("`") || line.isEmpty ? " " : ""
        return fence + pad + line + pad + fence
    }

    /// A link target: percent-encoded so spaces and parentheses cannot end it early.
    static func url(_ text: String) -> String {
        var allowed = CharacterSet.urlFragmentAllowed
        allowed.remove(charactersIn: "()<> ")
        allowed.insert("#")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
