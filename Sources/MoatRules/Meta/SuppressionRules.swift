import MoatCore
import MoatSyntax

/// `// moat:ignore RULE` with no `-- reason`: a suppression nobody can review later.
public struct SuppressionWithoutReasonRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-META-001", slug: "suppression-without-reason", title: "Inline suppression without a reason",
        severity: .low, confidence: .high, cwe: [], masvs: [], mastg: [],
        rationale: "A suppression hides a security finding from every later scan. Without a written reason, a reviewer cannot tell a checked false positive from a silenced real issue.",
        fix: "Add the reason after two dashes: `// moat:ignore MOAT-NET-001 -- pinned test server, not shipped`.",
        examples: [
            .triggering("App.swift", """
            ↓// moat:ignore MOAT-PLAT-001
            let web = UIWebView()
            """),
            .triggering("Legacy.m", """
            ↓/* moat:ignore MOAT-PLAT-001 -- */
            UIWebView *web = [[UIWebView alloc] init];
            """),
            .nonTriggering("App.swift", """
            // moat:ignore MOAT-PLAT-001 -- legacy screen removed in 3.0, tracked in SEC-42
            let web = UIWebView()
            """),
        ])

    public init() {}

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        for comment in file.comments {
            guard let directive = SuppressionDirective.parse(comment, path: file.path), directive.reason == nil else { continue }
            sink.report("Suppression of \(directive.ruleIds.isEmpty ? "no rule" : directive.ruleIds.joined(separator: ", ")) has no reason; write why after `--`.",
                        in: file, at: comment.range)
        }
    }
}

/// A suppression that matched nothing. Reported by the post-processor, which alone knows what was suppressed.
public struct UnusedSuppressionRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-META-002", slug: "unused-suppression", title: "Inline suppression that matches no finding",
        severity: .low, confidence: .high, cwe: [], masvs: [], mastg: [],
        rationale: "A stale suppression will silently hide the next real finding that lands on its line.",
        fix: "Remove the `moat:ignore` comment, or move it next to the finding it was meant for.",
        examples: [
            .triggering("App.swift", """
            ↓// moat:ignore MOAT-PLAT-001 -- the web view was replaced by WKWebView
            let web = WKWebView()
            """),
            .nonTriggering("App.swift", """
            // moat:ignore MOAT-PLAT-001 -- legacy screen, tracked in SEC-42
            let web = UIWebView()
            """),
        ])

    public init() {}

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {}
}
