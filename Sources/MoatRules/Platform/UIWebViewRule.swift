import MoatCore
import MoatSyntax

public struct UIWebViewRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-PLAT-001", slug: "uiwebview", title: "UIWebView is used",
        kind: .source, severity: .high, confidence: .high, evidence: .configuration, cwe: [477, 749],
        masvs: ["MASVS-PLATFORM-2"], mastg: ["MASTG-TEST-0076"],
        rationale: "UIWebView is deprecated and App Store Connect rejects apps that still reference it. It cannot disable JavaScript, always allows file:// pages to read other local files, and exposes its JSContext to native bridges, so any script that reaches the page can reach the app.",
        fix: "Replace UIWebView with WKWebView (content in a separate process, JavaScript and file access under your control) or SFSafariViewController for plain browsing.",
        references: ["https://developer.apple.com/documentation/uikit/uiwebview"],
        examples: [
            .triggering("Web.swift", """
            import UIKit
            final class HelpViewController: UIViewController {
                let webView: ↓UIWebView = UIWebView(frame: .zero)
            }
            """, note: "Several uses on one line are reported once, at the first."),
            .triggering("LegacyWeb.swift", """
            class LegacyWebView: ↓UIWebView {}
            let page = ↓UIWebView()
            """),
            .nonTriggering("Web.swift", """
            import WebKit
            final class HelpViewController: UIViewController {
                let webView = WKWebView(frame: .zero, configuration: WKWebViewConfiguration())
                // Migrated from UIWebView in 2.3.
                let note = "UIWebView was removed"
            }
            """),
        ])

    public init() {}

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        var positions: [SourceRange] = file.typeReferences.filter { $0.name == "UIWebView" }.map(\.range)
        file.forEachExpression { expression, _ in
            if case .identifier("UIWebView") = expression.kind { positions.append(expression.range) }
        }
        for type in file.allTypes where type.inherits.contains("UIWebView") && file.language.isCFamily {
            // Objective-C superclass lists come from the declaration, not a type reference node.
            positions.append(type.nameRange)
        }
        var reportedLines = Set<Int>()
        for range in positions.sorted(by: { $0.start.offset < $1.start.offset }) where reportedLines.insert(range.start.line).inserted {
            sink.report("UIWebView is deprecated and rejected by App Store Connect; it cannot disable JavaScript or file access. Use WKWebView.",
                        in: file, at: range)
        }
    }
}
