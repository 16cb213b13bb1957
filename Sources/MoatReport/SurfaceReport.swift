import Foundation
import MoatCore
import MoatRules
import MoatScan

/// `moat surface`: the attack-surface inventory of a scan, as text, JSON or Markdown. The same pieces
/// render the attack-surface section of the scan reports (text summary, Markdown, HTML, SARIF).
public enum SurfaceFormat: String, CaseIterable, Sendable {
    case text, json, markdown
}

public enum SurfaceReport {
    public static func render(_ result: ScanResult, format: SurfaceFormat, options: ReportOptions = ReportOptions()) -> String {
        let surface = result.surface ?? AttackSurface()
        switch format {
        case .text: return text(result, surface, paint: Paint(enabled: options.color))
        case .json: return json(result, surface)
        case .markdown: return markdown(result, surface, options: options)
        }
    }

    // MARK: JSON

    struct Document: Encodable {
        struct Tool: Encodable {
            var name: String
            var version: String
        }
        struct App: Encodable {
            var name: String?
            var bundleIdentifier: String?

            func encode(to encoder: Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(name, forKey: .name)
                try container.encode(bundleIdentifier, forKey: .bundleIdentifier)
            }
            enum CodingKeys: String, CodingKey { case name, bundleIdentifier }
        }
        var tool: Tool
        var app: App
        var roots: [String]
        var filesScanned: Int
        /// Entries per section, every section present.
        var summary: [String: Int]
        var surface: AttackSurface
        var errors: [ScanError]
    }

    static func json(_ result: ScanResult, _ surface: AttackSurface) -> String {
        var summary: [String: Int] = [:]
        for section in surface.sections { summary[section.key] = section.entries.count }
        let document = Document(tool: .init(name: result.toolName, version: result.toolVersion),
                                app: .init(name: result.appName, bundleIdentifier: result.bundleIdentifier),
                                roots: result.roots, filesScanned: result.filesScanned, summary: summary,
                                surface: surface, errors: result.errors)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(document) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// The surface as a hand-built JSON value (SARIF's property bag).
    static func jsonValue(_ surface: AttackSurface) -> JSONValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(surface), let object = try? JSONSerialization.jsonObject(with: data) else { return .null }
        return JSONValue.from(object)
    }

    // MARK: Text

    static func title(_ result: ScanResult) -> String {
        var title = "Attack surface"
        if let name = result.appName { title += " — " + name }
        if let bundle = result.bundleIdentifier { title += " (\(bundle))" }
        return title
    }

    /// Whether to name the unit of each entry (only when the app has several).
    static func showsUnits(_ surface: AttackSurface) -> Bool {
        Set(surface.sections.flatMap { $0.entries.map(\.unit) }.filter { !$0.isEmpty }).count > 1
    }

    static func text(_ result: ScanResult, _ surface: AttackSurface, paint: Paint) -> String {
        var out = paint.bold(title(result)) + "\n"
        out += "Scanned \(result.roots.joined(separator: ", ")): \(result.filesScanned) file\(result.filesScanned == 1 ? "" : "s").\n"
        let units = showsUnits(surface)
        var empty: [String] = []
        for section in surface.sections {
            guard !section.entries.isEmpty else {
                empty.append(section.title)
                continue
            }
            out += "\n" + paint.bold("\(section.title) (\(section.entries.count))") + "\n"
            for entry in section.entries {
                var head = "  " + entry.value
                if let kind = entry.kind, !kind.isEmpty { head += "  [\(kind)]" }
                if units, !entry.unit.isEmpty { head += "  (\(entry.unit))" }
                out += head + "  " + paint.dim(ReportSupport.place(entry.location)) + "\n"
                if let detail = entry.detail, !detail.isEmpty { out += "      \(detail)\n" }
                for handler in entry.handlers {
                    out += "      handler: \(handler.name) at \(ReportSupport.place(handler.location))\n"
                }
                if let validation = entry.attributes["validation"] { out += "      validation: \(validation)\n" }
                if let risk = entry.risk { out += "      risk: \(risk)\n" }
                if !entry.alsoAt.isEmpty {
                    let shown = entry.alsoAt.prefix(5).map(ReportSupport.place).joined(separator: ", ")
                    out += "      also at: \(shown)\(entry.alsoAt.count > 5 ? " (+\(entry.alsoAt.count - 5) more)" : "")\n"
                }
                for note in entry.notes {
                    out += "      " + paint.severity(note.severity, "[\(note.severity.rawValue.uppercased()) · \(note.ruleId)]")
                        + " \(note.message) (\(ReportSupport.place(note.location)))\n"
                }
            }
        }
        if !empty.isEmpty { out += "\nNothing found for: " + empty.joined(separator: ", ") + ".\n" }
        if !result.errors.isEmpty {
            out += "\n" + paint.bold("Could not analyze:") + "\n"
            for error in result.errors { out += "  \(error.path): \(error.message)\n" }
        }
        out += "\n" + paint.bold("Moat \(result.toolVersion)") + ": " + summaryLine(surface) + "\n"
        return out
    }

    /// `12 entries: URL schemes (1), Web views (2), …` (non-empty sections only).
    public static func summaryLine(_ surface: AttackSurface) -> String {
        let parts = surface.sections.filter { !$0.entries.isEmpty }.map { "\($0.title) (\($0.entries.count))" }
        guard !parts.isEmpty else { return "no entry points found." }
        return "\(surface.count) entr\(surface.count == 1 ? "y" : "ies"): " + parts.joined(separator: ", ") + "."
    }

    // MARK: Markdown

    static func markdown(_ result: ScanResult, _ surface: AttackSurface, options: ReportOptions) -> String {
        var out = "## " + Markdown.escape(title(result)) + "\n\n"
        out += "Scanned \(result.filesScanned) file\(result.filesScanned == 1 ? "" : "s") with \(Markdown.escape(result.toolName)) \(Markdown.escape(result.toolVersion)). "
        out += "Where data enters the app: each entry with where it is declared or used, the code that handles it, its risk, and the findings about it.\n\n"
        out += "| Section | Entries |\n|---|---:|\n"
        for section in surface.sections { out += "| \(Markdown.escape(section.title)) | \(section.entries.count) |\n" }
        out += "\n"
        out += markdownSections(surface, options: options, heading: "###")
        if !result.errors.isEmpty {
            out += "<details><summary>Could not analyze (\(result.errors.count))</summary>\n\n"
            for error in result.errors.prefix(200) { out += "- \(Markdown.escape(error.path)): \(Markdown.escape(error.message))\n" }
            out += "\n</details>\n\n"
        }
        return out
    }

    /// The non-empty sections, each a heading and a list.
    static func markdownSections(_ surface: AttackSurface, options: ReportOptions, heading: String, budget: Int = .max) -> String {
        var out = ""
        let units = showsUnits(surface)
        var omitted = 0
        for section in surface.sections where !section.entries.isEmpty {
            out += "\(heading) \(Markdown.escape(section.title)) (\(section.entries.count))\n\n"
            for entry in section.entries {
                guard out.count < budget else {
                    omitted += 1
                    continue
                }
                var line = "- " + Markdown.codeSpan(entry.value)
                if let kind = entry.kind, !kind.isEmpty { line += " (\(Markdown.escape(kind)))" }
                if units, !entry.unit.isEmpty { line += " · target \(Markdown.escape(entry.unit))" }
                line += " · " + markdownLocation(entry.location, options: options)
                if let detail = entry.detail, !detail.isEmpty { line += " — \(Markdown.escape(detail))" }
                out += line + "\n"
                for handler in entry.handlers {
                    out += "  - Handler: \(Markdown.codeSpan(handler.name)) at \(markdownLocation(handler.location, options: options))\n"
                }
                if let validation = entry.attributes["validation"] { out += "  - Validation: \(Markdown.escape(validation))\n" }
                if let risk = entry.risk { out += "  - Risk: \(Markdown.escape(risk))\n" }
                if !entry.alsoAt.isEmpty {
                    let shown = entry.alsoAt.prefix(5).map { markdownLocation($0, options: options) }.joined(separator: ", ")
                    out += "  - Also at: \(shown)\(entry.alsoAt.count > 5 ? " (+\(entry.alsoAt.count - 5) more)" : "")\n"
                }
                for note in entry.notes {
                    out += "  - **\(Markdown.escape(note.ruleId))** (\(note.severity.rawValue)) \(markdownLocation(note.location, options: options)): \(Markdown.escape(note.message))\n"
                }
            }
            out += "\n"
        }
        if omitted > 0 { out += "_\(omitted) more entr\(omitted == 1 ? "y is" : "ies are") not shown to keep this short: see `moat surface`._\n\n" }
        return out
    }

    static func markdownLocation(_ location: Location, options: ReportOptions) -> String {
        let text = Markdown.escape(ReportSupport.place(location))
        guard var base = options.sourceLinkBase, !base.isEmpty else { return text }
        while base.hasSuffix("/") { base.removeLast() }
        return "[\(text)](\(Markdown.url(base + "/" + location.path))#L\(location.line))"
    }

    // MARK: HTML

    /// The attack-surface sections as HTML (every value escaped).
    /// The surface as HTML tables; with a plan (`moat plan`), each row names its hooks and URL cases.
    static func html(_ surface: AttackSurface, plan: TestPlan? = nil) -> String {
        func e(_ text: String) -> String { HTML.escape(text) }
        var out = ""
        let units = showsUnits(surface)
        for section in surface.sections where !section.entries.isEmpty {
            out += "<details class=\"surface\" open id=\"surface-\(e(section.key))\"><summary><strong>\(e(section.title))</strong> <span class=\"count\">\(section.entries.count)</span></summary>\n"
            out += "<table class=\"surface-table\"><thead><tr><th>Entry</th><th>Where</th><th>Handled by</th><th>Risk and findings</th></tr></thead><tbody>\n"
            for (index, entry) in section.entries.enumerated() {
                out += "<tr id=\"entry-\(e(section.key))-\(index + 1)\"><td><code>\(e(entry.value))</code>"
                if let kind = entry.kind, !kind.isEmpty { out += " <span class=\"tag\">\(e(kind))</span>" }
                if units, !entry.unit.isEmpty { out += "<br><span class=\"rule-id\">target \(e(entry.unit))</span>" }
                if let detail = entry.detail, !detail.isEmpty { out += "<br><span class=\"detail\">\(e(detail))</span>" }
                out += "</td><td><code class=\"where\">\(e(ReportSupport.place(entry.location)))</code>"
                if !entry.alsoAt.isEmpty { out += "<br><span class=\"rule-id\">and \(entry.alsoAt.count) more</span>" }
                out += "</td><td>"
                out += entry.handlers.map { "<code>\(e($0.name))</code><br><code class=\"where\">\(e(ReportSupport.place($0.location)))</code>" }.joined(separator: "<br>")
                out += "</td><td>"
                if let validation = entry.attributes["validation"] { out += "<strong>Validation:</strong> \(e(validation))<br>" }
                if let risk = entry.risk { out += e(risk) }
                if !entry.notes.isEmpty {
                    out += "<ul class=\"notes\">"
                    for note in entry.notes {
                        out += "<li><span class=\"badge sev-\(note.severity.rawValue)\">\(ReportSupport.severityName(note.severity))</span> <span class=\"rule-id\">\(e(note.ruleId))</span> \(e(note.message)) <code class=\"where\">\(e(ReportSupport.place(note.location)))</code></li>"
                    }
                    out += "</ul>"
                }
                if let plan { out += planLinks(plan, section: section.key, entry: entry) }
                out += "</td></tr>\n"
            }
            out += "</tbody></table>\n</details>\n"
        }
        return out
    }
}

extension SurfaceReport {
    /// `hook: Class -selector` and `cases: scheme:// (N in url-cases.txt)` for an entry the plan covers.
    static func planLinks(_ plan: TestPlan, section: String, entry: AttackSurface.Entry) -> String {
        guard let links = plan.entryLinks[TestPlan.entryKey(section, entry)], !links.hooks.isEmpty || !links.targets.isEmpty else { return "" }
        var parts: [String] = links.hooks.map { "hook: <code>\(HTML.escape($0))</code>" }
        for label in links.targets {
            let count = plan.targets.first { $0.label == label }?.cases.count ?? 0
            parts.append("cases: <code>\(HTML.escape(label))</code> (\(count) in url-cases.txt)")
        }
        return "<div class=\"plan-links\"><span class=\"rule-id\">moat plan</span> " + parts.joined(separator: " · ") + "</div>"
    }
}

extension JSONValue {
    /// A value from `JSONSerialization` output.
    static func from(_ object: Any) -> JSONValue {
        switch object {
        case let text as String: return .string(text)
        case let number as NSNumber:
            let double = number.doubleValue
            if double.rounded() == double, abs(double) < 1e15 { return .int(number.intValue) }
            return .double(double)
        case let array as [Any]: return .array(array.map(from))
        case let dictionary as [String: Any]: return .object(dictionary.mapValues(from))
        default: return .null
        }
    }
}
