import Testing
import MoatCore
import MoatSyntax
@testable import MoatRules

/// Common, safe code that the dataflow rules must leave alone.
struct DataflowPrecisionTests {
    static let rules: [any SourceRule.Type] = [
        PathTraversalRule.self, RemoteMessageStateRule.self, DeserializationAllowlistRule.self, BufferLengthRule.self,
        IntegerOverflowRule.self, PredicateFormatInjectionRule.self, SQLInjectionRule.self, JavaScriptInjectionDataflowRule.self,
        WebViewUntrustedURLRule.self, URLSchemeSensitiveActionRule.self, UntrustedURLOpenRule.self,
    ]

    static func findings(_ source: String, name: String = "Safe.swift") -> [String] {
        rules.flatMap { rule in
            DataflowTestSupport.findings(rule, source, name: name).map { "\($0.ruleId) \($0.location.line): \($0.message)" }
        }
    }

    @Test func downloadsWrittenToFixedPaths() {
        #expect(Self.findings("""
        func refresh(from url: URL, cache: URL) {
            URLSession.shared.dataTask(with: url) { data, response, error in
                guard let data else { return }
                try? data.write(to: cache.appendingPathComponent("rates.json"))
                let name = UUID().uuidString
                try? data.write(to: cache.appendingPathComponent(name))
            }.resume()
        }
        """).isEmpty)
    }

    @Test func deepLinkRoutingAndOAuthCallbacks() {
        #expect(Self.findings("""
        func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
            if GIDSignIn.sharedInstance.handle(url) { return true }
            guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return false }
            switch components.host {
            case "settings": router.showSettings()
            case "transfer": router.showTransferForm(prefilledAmount: components.queryItems?.first?.value)
            default: return false
            }
            analytics.send(event: "deeplink", value: url.absoluteString)
            return true
        }
        """).isEmpty)
    }

    @Test func scriptMessagesUsedAsData() {
        #expect(Self.findings("""
        import WebKit
        final class Bridge: NSObject, WKScriptMessageHandler {
            func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
                guard let body = message.body as? [String: Any], let action = body["action"] as? String else { return }
                switch action {
                case "close": dismiss()
                case "height": height = body["value"] as? Double ?? 0
                default: break
                }
                let predicate = NSPredicate(format: "title == %@", action)
                webView.callAsyncJavaScript("ack(a)", arguments: ["a": action], in: nil, in: .page)
                webView.evaluateJavaScript("document.title")
            }
        }
        """).isEmpty)
    }

    @Test func boundedCopiesAndAllocations() {
        #expect(Self.findings("""
        void parse(int fd) {
            char buffer[64];
            uint32_t length = 0;
            recv(fd, &length, sizeof(length), 0);
            if (length > sizeof(buffer)) {
                return;
            }
            recv(fd, buffer, length, 0);
            char copy[64];
            memcpy(copy, buffer, length);
            void *items = calloc(length, 16);
            free(items);
        }
        """, name: "parse.c").isEmpty)
        #expect(Self.findings("""
        func session(_ session: MCSession, didReceive data: Data, fromPeer peerID: MCPeerID) {
            var bytes = [UInt8](repeating: 0, count: data.count)
            data.copyBytes(to: &bytes, count: data.count)
            var header: UInt32 = 0
            guard data.count >= MemoryLayout<UInt32>.size else { return }
            _ = withUnsafeMutableBytes(of: &header) { data.copyBytes(to: $0, from: 0..<4) }
        }
        """).isEmpty)
    }

    @Test func sharedAndPastedURLsAreTheUsersChoice() {
        #expect(Self.findings("""
        func openPasted() {
            if let url = UIPasteboard.general.url { UIApplication.shared.open(url) }
        }
        func didSelectPost() {
            let provider = (extensionContext?.inputItems.first as? NSExtensionItem)?.attachments?.first
            provider?.loadItem(forTypeIdentifier: "public.url", options: nil) { item, _ in
                if let url = item as? URL { self.webView.load(URLRequest(url: url)) }
            }
        }
        """).isEmpty)
    }

    @Test func chatHandlersThatOnlyUpdateStatusText() {
        #expect(Self.findings("""
        func handleIncomingMessage(_ message: ChatMessage, from peerID: MCPeerID) {
            messages.append(message)
            status = "Received a message from \\(peerID.displayName)"
        }
        """).isEmpty)
    }
}
