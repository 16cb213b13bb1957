import MoatCore
import MoatSyntax

/// Untrusted data, followed through the code, ends up inside JavaScript the app evaluates in a web view.
/// (The syntactic rule for string-built scripts lives in the 200 range; this one follows the data.)
public struct JavaScriptInjectionDataflowRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-PLAT-301", slug: "untrusted-data-in-javascript", title: "Untrusted data reaches evaluated JavaScript",
        severity: .high, confidence: .high, evidence: .dataflow, cwe: [94, 79],
        masvs: ["MASVS-PLATFORM-2", "MASVS-CODE-4"], mastg: ["MASTG-TEST-0076", "MASTG-TEST-0078"],
        rationale: "A value from a URL, a web page message, a peer or the network that is pasted into a script string runs as code: a quote in it ends the string literal and the rest executes in the page, with access to the page's data, its cookies and every native bridge the web view exposes.",
        fix: "Pass data as data: `callAsyncJavaScript(\"show(value)\", arguments: [\"value\": value], in: nil, in: .page)`, or encode it with JSONSerialization/JSONEncoder and embed the JSON, never the raw string. Validate it against an allowlist when it selects behaviour.",
        references: ["https://developer.apple.com/documentation/webkit/wkwebview/3656441-callasyncjavascript",
                     "https://cwe.mitre.org/data/definitions/94.html"],
        // Where the data is followed to the script, the string-building pattern on the same line says less.
        supersedes: ["MOAT-PLAT-211"],
        examples: [
            .triggering("Greeting.swift", """
            func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
                guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
                      let greeting = components.queryItems?.first(where: { $0.name == "greeting" })?.value else { return false }
                ↓webView.evaluateJavaScript("showGreeting('\\(greeting)')")
                return true
            }
            """),
            .triggering("Search.swift", """
            import WebKit
            final class SearchBridge: NSObject, WKScriptMessageHandler {
                let webView: WKWebView
                init(webView: WKWebView) { self.webView = webView }
                func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
                    guard let query = message.body as? String else { return }
                    let script = "window.results = search(\\"" + query + "\\")"
                    ↓webView.evaluateJavaScript(script, completionHandler: nil)
                }
            }
            """),
            .triggering("Render.m", """
            - (void)userContentController:(WKUserContentController *)controller didReceiveScriptMessage:(WKScriptMessage *)message {
                NSString *script = [NSString stringWithFormat:@"render('%@')", message.body];
                ↓[self.webView evaluateJavaScript:script completionHandler:nil];
            }
            """),
            .nonTriggering("Greeting.swift", """
            func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
                guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
                      let greeting = components.queryItems?.first(where: { $0.name == "greeting" })?.value,
                      let payload = try? JSONSerialization.data(withJSONObject: ["greeting": greeting]),
                      let json = String(data: payload, encoding: .utf8) else { return false }
                webView.evaluateJavaScript("showGreeting(\\(json).greeting)")
                webView.callAsyncJavaScript("showGreeting(greeting)", arguments: ["greeting": greeting], in: nil, in: .page)
                return true
            }
            """, note: "JSON-encoded, or passed as an argument."),
            .nonTriggering("Render.m", """
            - (void)userContentController:(WKUserContentController *)controller didReceiveScriptMessage:(WKScriptMessage *)message {
                NSInteger page = [message.body integerValue];
                NSString *script = [NSString stringWithFormat:@"render(%ld)", (long)page];
                [self.webView evaluateJavaScript:script completionHandler:nil];
            }
            """, note: "A number cannot break out of the script."),
            .nonTriggering("Bridges.swift", """
            import WebKit
            final class TitleBridge: NSObject, WKScriptMessageHandler {
                let webView = WKWebView()
                func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
                    guard message.frameInfo.isMainFrame, message.frameInfo.securityOrigin.host == "app.example.com" else { return }
                    guard let title = message.body as? String else { return }
                    webView.evaluateJavaScript("setTitle('\\(title)')")
                }
            }
            final class CheckingHandler: NSObject, WKScriptMessageHandler {
                weak var target: WKScriptMessageHandler?
                init(target: WKScriptMessageHandler) { self.target = target }
                func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
                    guard message.frameInfo.isMainFrame, message.frameInfo.securityOrigin.host == "app.example.com" else { return }
                    target?.userContentController(controller, didReceive: message)
                }
            }
            final class SearchBridge: NSObject, WKScriptMessageHandler {
                let webView = WKWebView()
                func install(_ controller: WKUserContentController) { controller.add(CheckingHandler(target: self), name: "search") }
                func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
                    guard let query = message.body as? String else { return }
                    webView.evaluateJavaScript("search('\\(query)')")
                }
            }
            """, note: "Messages accepted only after the frame and origin were checked, by the handler or by a wrapper handler that forwards them: they come from the app's own page."),
            .triggering("Banner.swift", """
            func showBanner(in webView: WKWebView, from server: URL) async throws {
                let (data, _) = try await URLSession.shared.data(from: server.appendingPathComponent("banner"))
                let banner = try JSONDecoder().decode(Banner.self, from: data)
                ↓webView.evaluateJavaScript("showBanner('\\(banner.title)')")
            }
            """, note: "Remote content: a decoded field of the server's response becomes script."),
            .triggering("Banner.m", """
            - (void)connection:(NSURLConnection *)connection didReceiveData:(NSData *)data {
                NSString *title = [[NSString alloc] initWithData:data encoding:NSUTF8StringEncoding];
                NSString *script = [NSString stringWithFormat:@"showBanner('%@')", title];
                ↓[self.webView evaluateJavaScript:script completionHandler:nil];
            }
            """),
            .nonTriggering("Banner.swift", """
            func showBanner(in webView: WKWebView, from server: URL) async throws {
                let (data, _) = try await URLSession.shared.data(from: server.appendingPathComponent("banner"))
                let banner = try JSONDecoder().decode(Banner.self, from: data)
                try await webView.callAsyncJavaScript("showBanner(title)", arguments: ["title": banner.title], contentWorld: .page)
            }
            """, note: "Passed as an argument, not spliced into the script."),
            .nonTriggering("Banner.m", """
            - (void)showBanner {
                NSURL *scriptURL = [[NSBundle mainBundle] URLForResource:@"banner" withExtension:@"js"];
                NSString *script = [NSString stringWithContentsOfURL:scriptURL encoding:NSUTF8StringEncoding error:nil];
                [self.webView evaluateJavaScript:script completionHandler:nil];
            }
            """, note: "A script shipped in the app's bundle."),
            .nonTriggering("Echo.swift", """
            import WebKit
            final class EchoBridge: NSObject, WKScriptMessageHandlerWithReply {
                let webView: WKWebView
                init(webView: WKWebView) { self.webView = webView }
                func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage, replyHandler: @escaping (Any?, String?) -> Void) {
                    guard let request = message.body as? [String: Any], let id = request["id"] as? String else { return replyHandler(nil, "bad request") }
                    replyHandler(["id": id], nil)
                    webView.evaluateJavaScript("window.done('\\(id)')", in: message.frameInfo, in: .page) { _ in }
                }
            }
            final class CountBridge: NSObject, WKScriptMessageHandler {
                let webView = WKWebView()
                func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
                    guard let request = message.body as? [String: Any], let count = request["count"] as? Int else { return }
                    webView.evaluateJavaScript("setCount(\\(count))")
                    webView.evaluateJavaScript(String(format: "setTotal(%d)", count))
                }
            }
            """, note: "Echoed back to the frame that sent it (the reply, a script run in `message.frameInfo`): no other origin's code runs. And a value cast to a number (`as? Int`) cannot break out of the script."),
            .triggering("Echo.swift", """
            import WebKit
            final class EchoBridge: NSObject, WKScriptMessageHandler {
                let webView = WKWebView()
                func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
                    guard let request = message.body as? [String: Any], let id = request["id"] as? String,
                          let count = request["count"] as? String else { return }
                    ↓webView.evaluateJavaScript("window.done('\\(id)')", in: nil, in: .page) { _ in }
                    ↓webView.evaluateJavaScript("setCount(\\(count))")
                }
            }
            """, note: "Run in the main frame (`in: nil`), whichever frame sent it; and a count the page sent as a string is still a string."),
        ])

    public init() {}

    /// The flows this rule reports, with the untrusted taint of each (one per call).
    static func reportedFlows(in unit: SourceUnit) -> [(flow: TaintFlow, taint: Taint)] {
        var reported = Set<Int>()
        var result: [(flow: TaintFlow, taint: Taint)] = []
        let file = unit.code
        for flow in unit.flows(rule: description.id) {
            guard let taint = flow.taints(.script).first(where: {
                !$0.isInertString && $0.checks.isDisjoint(with: [.allowlisted, .validated])
            }), let source = taint.source else { continue }
            // A script message accepted only after its frame or origin was checked comes from the app's own page.
            if source.kind == .scriptMessage,
               ScriptMessageOriginRule.isOriginChecked(source: source.range, targets: [flow.range] + taint.steps.filter { $0.external == nil }.map(\.range), in: file) {
                continue
            }
            // Run in the frame that sent the message (`in: message.frameInfo`): the page gets back what it sent,
            // in its own frame; no other origin's code runs.
            if source.kind == .scriptMessage, Self.runsInSenderFrame(flow, in: file) { continue }
            guard reported.insert(flow.range.start.offset).inserted else { continue }
            result.append((flow, taint))
        }
        return result
    }

    /// The frame argument of `evaluateJavaScript(_:in:in:)` (`callAsyncJavaScript(_:arguments:in:in:)`)
    /// is a script message's own frame (`message.frameInfo`).
    static func runsInSenderFrame(_ flow: TaintFlow, in file: CodeFile) -> Bool {
        guard file.containsText(frameMember) else { return false }
        var inSender = false
        file.forEachExpression { expression, _ in
            guard !inSender, expression.range == flow.range, case .call(_, let arguments, _) = expression.kind else { return }
            inSender = arguments.contains { $0.label == frameLabel && $0.value.nameChain.last == frameMember }
        }
        return inSender
    }
    static let frameLabel = "in"
    static let frameMember = "frameInfo"

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        for (flow, taint) in Self.reportedFlows(in: unit) {
            guard let source = taint.source else { continue }
            let script = CodeText.of(flow.arguments[.script], in: file)
            let message = "Dataflow: \(source.description) becomes part of the script that \(flow.calledName) runs (`\(script)`), unencoded: a quote in it ends the string and the rest executes in the page."
            DataflowReporting.report(message, flow: flow, taint: taint, in: file, confidence: Self.description.confidence, &sink)
        }
    }
}
