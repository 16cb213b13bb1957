import Testing
import MoatCore
import MoatSyntax
@testable import MoatRules

private typealias Support = DataflowTestSupport

/// Guards, encodings and the meaning of a call, read once in the engine for every rule (issue 23 item 4):
/// scheme checks (also through a local and `||`), casts to numbers, implicit members that are no C
/// function, scripts run in the sender's own frame, and server trusts the user chose.
struct GuardRootTests {
    @Test func aSchemeFoundEqualToAFixedOneChecksTheURLThroughLocalsAndEitherSide() {
        let findings = Support.findings(WebViewUntrustedURLRule.self, """
        func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
            guard let target = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first?.value,
                  let page = URL(string: target) else { return false }
            if page.scheme == "https" { webView.load(URLRequest(url: page)) }
            if let scheme = page.scheme?.lowercased(), scheme == "http" || scheme == "https" { webView.load(URLRequest(url: page)) }
            if ["http", "https"].contains(page.scheme ?? "") { webView.load(URLRequest(url: page)) }
            if page.scheme != "file" { webView.load(URLRequest(url: page)) }
            if page.scheme == "https" || target.isEmpty { webView.load(URLRequest(url: page)) }
            if homePage.scheme == "https" { webView.load(URLRequest(url: page)) }
            return true
        }
        """)
        // Not an allowlist (`!= "file"`), one side only (`|| target.isEmpty`), the wrong URL (`homePage`, not `page`).
        #expect(findings.map(\.location.line).sorted() == [7, 8, 9])
    }

    @Test func aValueCastToANumberCannotBreakOutOfAScript() {
        let findings = Support.findings(JavaScriptInjectionDataflowRule.self, """
        final class Counter: NSObject, WKScriptMessageHandler {
            let webView = WKWebView()
            func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
                guard let body = message.body as? [String: Any], let count = body["count"] as? Int,
                      let label = body["label"] as? String else { return }
                webView.evaluateJavaScript("setCount(\\(count))")
                webView.evaluateJavaScript(String(format: "setCount(%d)", count))
                let total = body["total"] as! Double
                webView.evaluateJavaScript("setTotal(\\(total))")
                webView.evaluateJavaScript("setLabel('\\(label)')")
            }
        }
        """)
        #expect(findings.map(\.location.line) == [10])
    }

    @Test func anImplicitMemberCallIsNoCFunction() {
        let source = """
        enum Route { case open(URL), remove(String) }
        func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
            router.handle(.open(url))
            router.handle(.remove(url.path))
            let descriptor = open(url.path, O_RDONLY)
            return descriptor >= 0
        }
        """
        let flows = Support.flows(source, kind: .filePath)
        #expect(flows.map(\.range.start.line) == [5], "only the bare C call `open(2)` is a file open")
    }

    @Test func aScriptRunInTheSendersFrameIsNoInjectionIntoAnotherOrigin() {
        let findings = Support.findings(JavaScriptInjectionDataflowRule.self, """
        final class Bridge: NSObject, WKScriptMessageHandler {
            let webView = WKWebView()
            func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
                guard let id = message.body as? String else { return }
                webView.evaluateJavaScript("done('\\(id)')", in: message.frameInfo, in: .page) { _ in }
                webView.evaluateJavaScript("done('\\(id)')", in: nil, in: .page) { _ in }
                message.webView?.evaluateJavaScript("done('\\(id)')")
            }
        }
        """)
        // The main frame (`in: nil`, the message's web view) is not the frame that sent it.
        #expect(findings.map(\.location.line) == [6, 7])
    }

    @Test func aTrustTheUserChoseIsNotTrustAllButAListFilledElsewhereIs() {
        func lines(_ source: String, name: String = "Trust.swift") -> [Int] {
            Support.findings(ServerTrustAcceptedRule.self, source, name: name).map(\.location.line).sorted()
        }
        let consented = """
        final class Session: NSObject, URLSessionDelegate {
            var exceptions: [String: Bool] = [:]
            func urlSession(_ session: URLSession, didReceive challenge: URLAuthenticationChallenge, completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
                guard let trust = challenge.protectionSpace.serverTrust else { return completionHandler(.performDefaultHandling, nil) }
                let host = challenge.protectionSpace.host
                if exceptions[host] != nil { return completionHandler(.useCredential, URLCredential(trust: trust)) }
                let alert = UIAlertController(title: "Untrusted certificate", message: host, preferredStyle: .alert)
                alert.addAction(UIAlertAction(title: "Trust", style: .destructive) { _ in
                    self.exceptions[host] = true
                    completionHandler(.useCredential, URLCredential(trust: trust))
                })
                presenter.present(alert, animated: true)
            }
        }
        """
        #expect(lines(consented) == [])
        // The same list also filled by a setting any code can call: not the user's choice per host.
        #expect(lines(consented.replacingOccurrences(of: "    var exceptions: [String: Bool] = [:]\n",
                                                     with: "    var exceptions: [String: Bool] = [:]\n    func allow(_ host: String) { exceptions[host] = true }\n"))
                == [7])
        let objc = """
        @implementation Session
        - (void)URLSession:(NSURLSession *)session didReceiveChallenge:(NSURLAuthenticationChallenge *)challenge completionHandler:(void (^)(NSURLSessionAuthChallengeDisposition, NSURLCredential *))completionHandler {
            NSURLCredential *credential = [NSURLCredential credentialForTrust:challenge.protectionSpace.serverTrust];
            UIAlertController *alert = [UIAlertController alertControllerWithTitle:@"Untrusted" message:nil preferredStyle:UIAlertControllerStyleAlert];
            [alert addAction:[UIAlertAction actionWithTitle:@"Trust" style:UIAlertActionStyleDestructive handler:^(UIAlertAction *action) {
                completionHandler(NSURLSessionAuthChallengeUseCredential, credential);
            }]];
            completionHandler(NSURLSessionAuthChallengeUseCredential, credential);
        }
        @end
        """
        #expect(lines(objc, name: "Trust.m") == [8], "only the acceptance outside the alert's action")
    }
}
