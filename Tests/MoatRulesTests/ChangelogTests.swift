import Foundation
import MoatCore
import Testing
@testable import MoatRules

/// CHANGELOG.md records every change to the rule set: replaying its lines gives exactly this build's rules.
struct ChangelogTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    struct Rule: Equatable, CustomStringConvertible {
        var slug: String
        var severity: String
        var description: String { "`\(slug)` (\(severity))" }
    }

    /// Replays a changelog: the first release's table, then each section's rule lines, oldest section first.
    /// Returns the rules it describes and every line that breaks the log's own rules (unknown or retired
    /// ids, reused ids, a severity or slug change that does not start from the current value).
    static func replay(_ text: String) -> (rules: [String: Rule], problems: [String]) {
        // Sections start with "## "; the file lists the newest first.
        var sections: [[String]] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("## ") { sections.append([line]) } else if !sections.isEmpty { sections[sections.count - 1].append(line) }
        }
        var rules: [String: Rule] = [:]
        var retired: Set<String> = []
        var problems: [String] = []
        let id = #"(MOAT-[A-Z]+-[0-9]+)"#
        let slug = #"`([a-z0-9-]+)`"#
        let severity = #"(critical|high|medium|low|info)"#
        func match(_ pattern: String, _ line: String) -> [String]? {
            guard let expression = try? NSRegularExpression(pattern: "^" + pattern),
                  let found = expression.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) else { return nil }
            return (1..<found.numberOfRanges).map { index in
                Range(found.range(at: index), in: line).map { String(line[$0]) } ?? ""
            }
        }
        func add(_ ruleId: String, _ rule: Rule, _ line: String) {
            if retired.contains(ruleId) { problems.append("\(line): \(ruleId) is retired and cannot be reused") }
            else if rules[ruleId] != nil { problems.append("\(line): \(ruleId) already exists") }
            else { rules[ruleId] = rule }
        }
        for section in sections.reversed() {
            var inCodeBlock = false
            for line in section {
                if line.hasPrefix("```") { inCodeBlock.toggle() }
                if inCodeBlock || line.hasPrefix("```") { continue }
                if let row = match(#"\| "# + id + #" \| "# + slug + #" \| "# + severity + #" \|"#, line) {
                    add(row[0], Rule(slug: row[1], severity: row[2]), line)
                } else if let added = match("- added " + id + " " + slug + #" \("# + severity + #"\)"#, line) {
                    add(added[0], Rule(slug: added[1], severity: added[2]), line)
                } else if let removed = match("- removed " + id, line) {
                    if rules.removeValue(forKey: removed[0]) == nil { problems.append("\(line): no rule \(removed[0]) to remove") }
                    retired.insert(removed[0])
                } else if let renamed = match("- renamed " + id + " → " + id, line) {
                    if let rule = rules.removeValue(forKey: renamed[0]) {
                        retired.insert(renamed[0])
                        add(renamed[1], rule, line)
                    } else {
                        problems.append("\(line): no rule \(renamed[0]) to rename")
                    }
                } else if let change = match("- slug " + id + " " + slug + " → " + slug, line) {
                    if rules[change[0]]?.slug != change[1] { problems.append("\(line): \(change[0]) does not have the slug \(change[1])") }
                    rules[change[0]]?.slug = change[2]
                } else if let change = match("- severity " + id + " " + severity + " → " + severity, line) {
                    if rules[change[0]]?.severity != change[1] { problems.append("\(line): \(change[0]) is not \(change[1]) at this point") }
                    rules[change[0]]?.severity = change[2]
                } else if line.contains("MOAT-"),
                          ["- added ", "- removed ", "- renamed ", "- slug ", "- severity "].contains(where: line.hasPrefix) {
                    problems.append("\(line): not in one of the forms the changelog's header gives")
                }
            }
        }
        return (rules, problems)
    }

    @Test func theChangelogDescribesExactlyTheRulesOfThisBuild() throws {
        let text = try String(contentsOf: Self.packageRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        #expect(text.contains("\n## Unreleased\n"), "CHANGELOG.md needs an Unreleased section")
        let (logged, problems) = Self.replay(text)
        #expect(problems.isEmpty, "CHANGELOG.md breaks its own rules:\n\(problems.joined(separator: "\n"))")
        var missing: [String] = []
        for rule in RuleRegistry.descriptions {
            let current = Rule(slug: rule.slug, severity: rule.severity.rawValue)
            guard let recorded = logged[rule.id] else {
                missing.append("- added \(rule.id) `\(rule.slug)` (\(rule.severity.rawValue)): \(rule.title)")
                continue
            }
            if recorded.slug != current.slug {
                missing.append("- slug \(rule.id) `\(recorded.slug)` → `\(current.slug)`: WHY")
            }
            if recorded.severity != current.severity {
                missing.append("- severity \(rule.id) \(recorded.severity) → \(current.severity): WHY")
            }
        }
        let known = Set(RuleRegistry.descriptions.map(\.id))
        for id in logged.keys.sorted() where !known.contains(id) {
            missing.append("- removed \(id): WHY (or `- renamed \(id) → NEW-ID: WHY`)")
        }
        #expect(missing.isEmpty, "CHANGELOG.md does not record these rule changes; add under Unreleased → Rules:\n\(missing.joined(separator: "\n"))")
    }

    @Test func replayRefusesReusedIdsAndChangesFromTheWrongValue() {
        let log = """
        ## Unreleased
        ### Rules
        - removed MOAT-NET-002: superseded
        - added MOAT-NET-002 `again` (low): reuses a retired id
        - severity MOAT-NET-001 medium → low: starts from the wrong value
        - renamed MOAT-NET-003 → MOAT-NET-004: keeps its slug
        - slug MOAT-NET-004 `c` → `d`: clearer
        ## 0.1.0
        | MOAT-NET-001 | `a` | high |
        | MOAT-NET-002 | `b` | medium |
        | MOAT-NET-003 | `c` | low |
        """
        let (rules, problems) = Self.replay(log)
        #expect(problems == [
            "- added MOAT-NET-002 `again` (low): reuses a retired id: MOAT-NET-002 is retired and cannot be reused",
            "- severity MOAT-NET-001 medium → low: starts from the wrong value: MOAT-NET-001 is not medium at this point",
        ])
        #expect(rules == ["MOAT-NET-001": Rule(slug: "a", severity: "low"), "MOAT-NET-004": Rule(slug: "d", severity: "low")])
    }

    @Test func theFingerprintFollowsSeveritiesAndIds() throws {
        let rules = RuleRegistry.descriptions
        #expect(RulesFingerprint.of(rules) == RulesFingerprint.current)
        #expect(RulesFingerprint.current.count == 12)
        #expect(RulesFingerprint.of(rules.reversed()) == RulesFingerprint.current, "order does not matter")
        var changed = rules
        changed[0].severity = changed[0].severity == .low ? .medium : .low
        #expect(RulesFingerprint.of(changed) != RulesFingerprint.current)
        #expect(RulesFingerprint.of(Array(rules.dropLast())) != RulesFingerprint.current)
        #expect(RulesFingerprint.versionLine == "moat \(MoatVersion.current) (rules \(RulesFingerprint.current), \(rules.count) rules)")
    }
}
