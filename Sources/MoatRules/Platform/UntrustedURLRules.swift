import MoatCore
import MoatSyntax

/// Checks that make a URL trustworthy for loading or opening: an allowlist, a validation, its host, or its
/// scheme found equal to a fixed one (`url.scheme == "https"`: a web page, not a local file, a
/// `javascript:` URL or another app's scheme).
private let urlValidations: Set<TaintCheck> = [.allowlisted, .validated, .hostChecked, .schemeChecked]

/// Universal links only reach the app for its own associated domains: the URL itself is not untrusted,
/// only the parts the sender chose (query, fragment) are. A URL built on a fixed `https://host/` prefix
/// or appended to a URL the app chose keeps its host (`hostChecked`).
private func isUntrustedURL(_ taint: Taint) -> Bool {
    guard let source = taint.source, !taint.isInertString, taint.checks.isDisjoint(with: urlValidations) else { return false }
    if source.kind == .universalLink && !taint.checks.contains(.urlPart) { return false }
    // What the user pasted, picked or shared is what the user asked to open; push payloads are written by
    // the app's own server.
    if source.kind.isUserChosen || source.kind == .pushNotification { return false }
    return true
}

/// A web view loads a URL or HTML that comes from outside the app.
public struct WebViewUntrustedURLRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-PLAT-302", slug: "untrusted-url-in-webview", title: "Web view loads an untrusted URL",
        severity: .high, confidence: .high, evidence: .dataflow, cwe: [601, 829, 79],
        masvs: ["MASVS-PLATFORM-2"], mastg: ["MASTG-TEST-0076", "MASTG-TEST-0077"],
        rationale: "A web view that loads whatever URL a link, a page message or a peer provides shows attacker content inside the app's own UI (phishing with the app's chrome), gives that content the native bridges and cookies of the web view, and with `loadFileURL` or a `file:` base URL can read local files. HTML built from such input is script injection.",
        fix: "Load only URLs whose scheme and host are on an allowlist (`guard url.scheme == \"https\", allowedHosts.contains(url.host ?? \"\") else { return }`); open anything else in Safari. Never build HTML from input without escaping it.",
        references: ["https://mas.owasp.org/MASTG/tests/ios/MASVS-PLATFORM/MASTG-TEST-0077/"],
        examples: [
            .triggering("Links.swift", """
            func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
                guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
                      let target = components.queryItems?.first(where: { $0.name == "page" })?.value,
                      let pageURL = URL(string: target) else { return false }
                ↓webView.load(URLRequest(url: pageURL))
                return true
            }
            """),
            .triggering("Links.m", """
            - (void)userContentController:(WKUserContentController *)controller didReceiveScriptMessage:(WKScriptMessage *)message {
                NSURL *url = [NSURL URLWithString:message.body];
                ↓[self.webView loadRequest:[NSURLRequest requestWithURL:url]];
            }
            """),
            .nonTriggering("Links.swift", """
            let allowedHosts: Set<String> = ["help.example.com", "www.example.com"]
            func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
                guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
                      let target = components.queryItems?.first(where: { $0.name == "page" })?.value,
                      let pageURL = URL(string: target), pageURL.scheme == "https",
                      let host = pageURL.host, allowedHosts.contains(host) else { return false }
                webView.load(URLRequest(url: pageURL))
                return true
            }
            """, note: "Only allowlisted hosts are loaded."),
            .triggering("Help.swift", """
            func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
                guard let page = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first?.value else { return false }
                let folder = Bundle.main.bundleURL.appendingPathComponent("Help")
                ↓webView.loadFileURL(folder.appendingPathComponent(page), allowingReadAccessTo: folder)
                return true
            }
            """, note: "Local file inclusion: \"../\" in the page name reads other files."),
            .nonTriggering("Product.swift", """
            func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
                guard let id = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first?.value,
                      let page = URL(string: "https://shop.example.com/product/\\(id)") else { return false }
                webView.load(URLRequest(url: page))
                return true
            }
            """, note: "The input only fills the path of a fixed host."),
            .nonTriggering("Article.swift", """
            func scene(_ scene: UIScene, continue userActivity: NSUserActivity) {
                guard let url = userActivity.webpageURL else { return }
                webView.load(URLRequest(url: url))
            }
            """, note: "A universal link is a URL of the app's own associated domain."),
            .nonTriggering("Links.m", """
            - (void)userContentController:(WKUserContentController *)controller didReceiveScriptMessage:(WKScriptMessage *)message {
                NSURL *url = [NSURL URLWithString:message.body];
                if (![url.host isEqualToString:@"help.example.com"]) {
                    return;
                }
                [self.webView loadRequest:[NSURLRequest requestWithURL:url]];
            }
            """),
            .triggering("Notice.swift", """
            func showNotice(in webView: WKWebView) throws {
                let html = try String(contentsOf: URL(string: "http://news.example.com/notice.html")!, encoding: .utf8)
                ↓webView.loadHTMLString(html, baseURL: nil)
            }
            """, note: "Remote content rendered as HTML in the app's web view."),
            .triggering("Notice.swift", """
            func showNotice(in webView: WKWebView) throws {
                let page = try Data(contentsOf: URL(string: "https://news.example.com/notice.html")!)
                ↓webView.load(page, mimeType: "text/html", characterEncodingName: "utf-8", baseURL: URL(string: "https://news.example.com/")!)
            }
            """),
            .triggering("Notice.m", """
            - (void)showNotice {
                NSURL *endpoint = [NSURL URLWithString:@"https://news.example.com/notice.html"];
                NSString *html = [NSString stringWithContentsOfURL:endpoint encoding:NSUTF8StringEncoding error:nil];
                ↓[self.webView loadHTMLString:html baseURL:nil];
            }
            """),
            .nonTriggering("Notice.swift", """
            func showNotice(in webView: WKWebView) throws {
                guard let noticeURL = Bundle.main.url(forResource: "notice", withExtension: "html") else { return }
                let html = try String(contentsOf: noticeURL, encoding: .utf8)
                webView.loadHTMLString(html, baseURL: nil)
            }
            """, note: "HTML shipped in the app's bundle."),
            .nonTriggering("Notice.swift", """
            func showNotice(in webView: WKWebView) throws {
                let text = try String(contentsOf: URL(string: "https://news.example.com/notice.txt")!, encoding: .utf8)
                webView.loadHTMLString("<p>" + escapeHTML(text) + "</p>", baseURL: nil)
            }
            """, note: "The downloaded text is escaped before it becomes HTML."),
            .nonTriggering("Notice.m", """
            - (void)showNotice {
                NSURL *noticeURL = [[NSBundle mainBundle] URLForResource:@"notice" withExtension:@"html"];
                NSString *html = [NSString stringWithContentsOfURL:noticeURL encoding:NSUTF8StringEncoding error:nil];
                [self.webView loadHTMLString:html baseURL:nil];
            }
            """),
            .nonTriggering("Help.swift", """
            func openHelp(in webView: WKWebView) throws {
                let link = try String(contentsOf: URL(string: "https://api.example.com/help-link")!, encoding: .utf8)
                guard let url = URL(string: link) else { return }
                webView.load(URLRequest(url: url))
            }
            """, note: "A link the app's server sends is navigation the app asked for: URL loads report input from entry points only."),
            RuleExample(files: [
                ExampleFile(name: "LinkHandler.swift", content: """
                final class LinkHandler {
                    let webView = WKWebView()
                    func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
                        guard let target = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first?.value,
                              let page = URL(string: target) else { return false }
                        WebLoader.shared.show(page, in: webView)
                        return true
                    }
                }
                """),
                ExampleFile(name: "WebLoader.swift", content: """
                final class WebLoader {
                    static let shared = WebLoader()
                    func show(_ page: URL, in webView: WKWebView) {
                        guard let scheme = page.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return }
                        webView.load(URLRequest(url: page))
                    }
                }
                """),
            ], triggers: false, note: "Across files: the loader of another file loads only web pages (`http`/`https`), never a local file or a `javascript:` URL."),
            RuleExample(files: [
                ExampleFile(name: "LinkHandler.swift", content: """
                final class LinkHandler {
                    let webView = WKWebView()
                    func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
                        guard let target = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first?.value,
                              let page = URL(string: target) else { return false }
                        WebLoader.shared.show(page, from: url, in: webView)
                        return true
                    }
                }
                """),
                ExampleFile(name: "WebLoader.swift", content: """
                final class WebLoader {
                    static let shared = WebLoader()
                    func show(_ page: URL, from link: URL, in webView: WKWebView) {
                        guard link.scheme == "myapp" else { return }
                        ↓webView.load(URLRequest(url: page))
                    }
                }
                """),
            ], triggers: true, note: "The check is on the wrong value: the link's own scheme, not the page loaded."),
        ])

    public init() {}

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        var reported = Set<Int>()
        for flow in unit.flows(rule: Self.description.id) {
            if let taint = flow.taints(.html).first(where: { $0.source != nil && !$0.isInertString && $0.checks.isDisjoint(with: urlValidations) }),
               let source = taint.source, reported.insert(flow.range.start.offset).inserted {
                let html = CodeText.of(flow.arguments[.html], in: file)
                DataflowReporting.report("\(flow.calledName) renders HTML built from \(source.description) (`\(html)`): its markup and scripts run in the web view.",
                                         flow: flow, taint: taint, in: file, confidence: Self.description.confidence, &sink)
                continue
            }
            if flow.calledName.hasPrefix("loadFileURL") {
                // Local file inclusion: the host does not matter, the path does.
                for taint in flow.taints(.url) {
                    guard let source = taint.source, !source.kind.isUserChosen, let (missing, _) = PathTraversalRule.missingChecks(taint),
                          reported.insert(flow.range.start.offset).inserted else { continue }
                    let url = CodeText.of(flow.arguments[.url], in: file)
                    DataflowReporting.report("\(flow.calledName) loads the local file `\(url)`, whose path comes from \(source.description): \(missing), so other files of the app can be read into the web view.",
                                             flow: flow, taint: taint, in: file, confidence: Self.description.confidence, &sink)
                    break
                }
                continue
            }
            guard let taint = flow.taints(.url).first(where: isUntrustedURL), let source = taint.source,
                  reported.insert(flow.range.start.offset).inserted else { continue }
            let url = CodeText.of(flow.arguments[.url], in: file)
            DataflowReporting.report("\(flow.calledName) loads `\(url)`, a URL from \(source.description), without checking its scheme and host against an allowlist: any page, or a local file, opens inside the app's web view.",
                                     flow: flow, taint: taint, in: file, confidence: Self.description.confidence, &sink)
        }
    }
}

/// The app opens (hands to the system) a URL that comes from outside: an open redirect through the app.
/// The call must open through the system: `open`/`openURL:` on a `UIApplication` (`UIApplication.shared`,
/// `[UIApplication sharedApplication]`, a value declared as one), `NSWorkspace` or an extension context,
/// or SwiftUI's `openURL` action from the environment; functions of the app that happen to be named
/// `openURL` (routers, state-machine events) are not. The URL an app was opened with, handed back
/// unchanged, only reopens the app and stays quiet.
public struct UntrustedURLOpenRule: SourceRule {
    static let openNames: Set<String> = APIs.systemURLOpens.callNames
    static let systemReceivers: Set<String> = ["UIApplication", "sharedApplication", "NSWorkspace", "extensionContext", "NSExtensionContext"]

    static func opensThroughSystem(_ call: Expression, _ values: LocalValues, _ file: CodeFile) -> Bool {
        guard case .call(let callee, _, let isMessageSend) = call.kind else { return true }
        guard let receiver = callee.receiver else {
            // `openURL(url)`: SwiftUI's OpenURLAction read from the environment.
            guard !isMessageSend, let name = callee.name, APIs.openURLAction.swiftBaseNames.contains(name) else { return false }
            return file.containsText("\\.openURL") || (values.declaredType(of: "openURL") ?? "").contains("OpenURLAction")
        }
        func isSystem(_ expression: Expression) -> Bool {
            if expression.nameChain.contains(where: systemReceivers.contains) { return true }
            if let name = LocalValues.assignableName(expression.strippedOfCasts), let type = values.declaredType(of: name) {
                return systemReceivers.contains { type.contains($0) }
            }
            return false
        }
        return isSystem(receiver) || isSystem(values.resolve(receiver))
    }

    static func reopensOwnURL(_ argument: Expression?, source: SourceHit, _ values: LocalValues) -> Bool {
        guard let argument, source.kind == .urlScheme || source.kind == .universalLink else { return false }
        let resolved = values.resolve(argument).strippedOfCasts
        switch resolved.kind {
        case .identifier(let name): return values.isParameter(name)
        case .member(let base, let name):
            if name == "webpageURL" { return true }
            // `URLContexts.first?.url`, `context.url`: the URL the scene was opened with.
            return name == "url" && (base?.nameChain ?? []).contains { $0.lowercased().contains("context") }
        default: return false
        }
    }

    public static let description = RuleDescription(
        id: "MOAT-PLAT-304", slug: "untrusted-url-opened", title: "App opens an untrusted URL",
        severity: .medium, confidence: .high, evidence: .dataflow, cwe: [601, 939],
        masvs: ["MASVS-PLATFORM-1"], mastg: ["MASTG-TEST-0075"],
        rationale: "Passing a URL from a link, a web page or a peer to `UIApplication.open` lets whoever wrote it launch other apps' URL schemes through yours (`tel:`, `sms:`, payment or settings schemes, other apps' deep links), with the trust users place in your app, or open phishing pages that seem to come from it.",
        fix: "Open only URLs whose scheme (and host, for web links) is on an allowlist, and confirm with the user before opening anything that leaves the app.",
        references: ["https://mas.owasp.org/MASTG/tests/ios/MASVS-PLATFORM/MASTG-TEST-0075/"],
        examples: [
            .triggering("Redirect.swift", """
            func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
                guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
                      let next = components.queryItems?.first(where: { $0.name == "next" })?.value,
                      let nextURL = URL(string: next) else { return false }
                ↓app.open(nextURL)
                return true
            }
            """),
            .triggering("Bridge.m", """
            - (void)userContentController:(WKUserContentController *)controller didReceiveScriptMessage:(WKScriptMessage *)message {
                NSURL *url = [NSURL URLWithString:message.body[@"href"]];
                ↓[[UIApplication sharedApplication] openURL:url options:@{} completionHandler:nil];
            }
            """),
            .nonTriggering("Redirect.swift", """
            func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
                guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
                      let next = components.queryItems?.first(where: { $0.name == "next" })?.value,
                      let nextURL = URL(string: next), nextURL.host == "www.example.com" else { return false }
                app.open(nextURL)
                return true
            }
            """),
            .nonTriggering("Router.swift", """
            import WebKit
            final class Coordinator: NSObject, WKScriptMessageHandler {
                let router: AppRouter
                let machine: ReaderStateMachine
                init(router: AppRouter, machine: ReaderStateMachine) { self.router = router; self.machine = machine }
                func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
                    guard let link = message.body as? String, let url = URL(string: link) else { return }
                    router.openURL(url)
                    machine.send(.openURL(url))
                }
            }
            final class SceneDelegate: UIResponder, UIWindowSceneDelegate {
                func scene(_ scene: UIScene, continue userActivity: NSUserActivity) {
                    guard let url = userActivity.webpageURL else { return }
                    if !Router.canHandle(url) { UIApplication.shared.open(url) }
                }
            }
            """, note: "App functions named `openURL` (a router, a state-machine event) are not the system's; a universal link handed back unchanged only reopens the app or its page."),
            .nonTriggering("Bridge.m", """
            - (void)userContentController:(WKUserContentController *)controller didReceiveScriptMessage:(WKScriptMessage *)message {
                NSURL *url = [NSURL URLWithString:message.body[@"href"]];
                if (![self.trustedHosts containsObject:url.host]) {
                    return;
                }
                [[UIApplication sharedApplication] openURL:url options:@{} completionHandler:nil];
            }
            """),
            .nonTriggering("Redirect.swift", """
            func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
                guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
                      let next = components.queryItems?.first(where: { $0.name == "next" })?.value,
                      let nextURL = URL(string: next), ["http", "https"].contains(nextURL.scheme?.lowercased() ?? "") else { return false }
                app.open(nextURL)
                return true
            }
            """, note: "Only web links (the scheme is checked): Safari opens them, no other app's scheme is launched."),
        ])

    public init() {}

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        var reported = Set<Int>()
        let flows = unit.flows(rule: Self.description.id)
        guard !flows.isEmpty else { return }
        let cache = LocalValuesCache(file: file)
        var calls: [Int: (call: Expression, context: WalkContext)] = [:]
        for (call, context) in file.calls(where: { Self.openNames.contains($0.name ?? "") }) {
            calls[call.range.start.offset] = (call, context)
        }
        for flow in flows {
            guard let taint = flow.taints(.url).first(where: isUntrustedURL), let source = taint.source else { continue }
            if let site = calls[flow.range.start.offset] {
                let values = cache.values(for: site.context)
                // Resolved by the receiver's type: a router's or a state machine's `openURL` is not the system's.
                guard Self.opensThroughSystem(site.call, values, file) else { continue }
                // The URL the app was opened with, handed back unchanged: it names the app's own scheme or
                // universal link, so opening it only reopens the app.
                if Self.reopensOwnURL(flow.arguments[.url], source: source, values) { continue }
            }
            guard reported.insert(flow.range.start.offset).inserted else { continue }
            let url = CodeText.of(flow.arguments[.url], in: file)
            DataflowReporting.report("\(flow.calledName) opens `\(url)`, a URL from \(source.description), without checking its scheme or host: any app's URL scheme can be launched through this app.",
                                     flow: flow, taint: taint, in: file, confidence: Self.description.confidence, &sink)
        }
    }
}
