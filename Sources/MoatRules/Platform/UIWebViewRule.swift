import MoatCore
import MoatSyntax

public struct UIWebViewRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-PLAT-001", slug: "uiwebview", title: "UIWebView is used",
        severity: .high, confidence: .high, evidence: .configuration, cwe: [477, 749],
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
            .nonTriggering("ArticleView.swift", """
            import UIKit
            final class ArticleView: UIView, UIWebViewDelegate {
                @IBOutlet weak var webView: UIWebView!
                func webViewDidFinishLoad(_ webView: UIWebView) {
                    setNeedsLayout()
                }
                func webView(_ webView: UIWebView, didFailLoadWithError error: Error) {}
            }
            """, note: "An outlet (its web view is reported in the storyboard or xib, MOAT-PLAT-110) and delegate callbacks (the web view is reported where it is created)."),
            .nonTriggering("Web.swift", """
            import WebKit
            final class HelpViewController: UIViewController {
                let webView = WKWebView(frame: .zero, configuration: WKWebViewConfiguration())
                // Migrated from UIWebView in 2.3.
                let note = "UIWebView was removed"
            }
            """),
            .triggering("Demo.app/Demo", """
            Mach-O executable arm64
            imports: _objc_msgSend ↓_OBJC_CLASS_$_UIWebView
            """, note: "A built app: the class symbol is enough, as App Store Connect's own check."),
            .nonTriggering("Demo.app/Demo", """
            Mach-O executable arm64
            imports: _objc_msgSend _OBJC_CLASS_$_WKWebView
            """),
        ])

    public init() {}

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        let className = APIs.uiWebView.classes[0]
        var positions: [SourceRange] = file.typeReferences.filter { $0.name == className }.map(\.range)
        file.forEachExpression { expression, _ in
            if case .identifier(className) = expression.kind { positions.append(expression.range) }
        }
        for type in file.allTypes where type.inherits.contains(className) && file.language.isCFamily {
            // Objective-C superclass lists come from the declaration, not a type reference node.
            positions.append(type.nameRange)
        }
        // One weakness, one finding: an outlet's web view is reported in its storyboard or xib
        // (MOAT-PLAT-110), and a web view a function receives (a delegate callback's parameter) where it is
        // created; references in outlet declarations and function signatures are not uses of their own.
        var secondary: [SourceRange] = []
        for (function, _) in file.allFunctions {
            let end = function.body?.range.start ?? function.range.end
            secondary.append(SourceRange(start: function.range.start, end: end))
        }
        let variables = file.declarations.flatMap(\.flattenedVariables) + file.allTypes.flatMap(\.variables)
        for variable in variables where variable.attributes.contains(where: { $0.contains("IBOutlet") }) {
            secondary.append(variable.range)
        }
        positions.removeAll { position in secondary.contains { $0.contains(position) } }
        var reportedLines = Set<Int>()
        for range in positions.sorted(by: { $0.start.offset < $1.start.offset }) where reportedLines.insert(range.start.line).inserted {
            sink.report("UIWebView is deprecated and rejected by App Store Connect; it cannot disable JavaScript or file access. Use WKWebView.",
                        in: file, at: range)
        }
    }
}
