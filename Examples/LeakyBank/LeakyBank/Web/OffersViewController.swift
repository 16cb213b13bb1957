import UIKit
import WebKit
import JavaScriptCore

/// Partner offers: a web view with a native bridge. Every insecure line has a safe twin below it.
final class OffersViewController: UIViewController, WKScriptMessageHandler {
    private var webView: WKWebView!

    override func viewDidLoad() {
        super.viewDidLoad()
        let configuration = WKWebViewConfiguration()
        configuration.preferences.setValue(true, forKey: "allowFileAccessFromFileURLs")      // MOAT-PLAT-201
        configuration.preferences.javaScriptCanOpenWindowsAutomatically = true                // MOAT-PLAT-204
        configuration.preferences.javaScriptCanOpenWindowsAutomatically = false               // safe
        configuration.dataDetectorTypes = [.phoneNumber, .link]                               // MOAT-PLAT-207
        configuration.dataDetectorTypes = [.link]                                             // safe
        configuration.userContentController.add(self, name: "offers")                          // MOAT-PLAT-209 (inventory)
        webView = WKWebView(frame: view.bounds, configuration: configuration)
        if #available(iOS 16.4, *) {
            webView.isInspectable = true                                                       // MOAT-PLAT-206
            #if DEBUG
            webView.isInspectable = true                                                       // safe: debug builds only
            #endif
        }
        view.addSubview(webView)
    }

    func showCachedOffer() {
        let docs = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
        let page = docs.appendingPathComponent("offers/index.html")
        webView.loadFileURL(page, allowingReadAccessTo: docs)                                  // MOAT-PLAT-202
        webView.loadFileURL(page, allowingReadAccessTo: page.deletingLastPathComponent())      // safe: the offers folder only
    }

    func showOffer(html: String) {
        webView.loadHTMLString(html, baseURL: Bundle.main.bundleURL)                           // MOAT-PLAT-203
        webView.loadHTMLString(html, baseURL: nil)                                             // safe
    }

    func showPartnerSite() {
        webView.load(URLRequest(url: URL(string: "http://partners.leakybank.example/offers")!)) // MOAT-PLAT-208
        webView.load(URLRequest(url: URL(string: "https://partners.leakybank.example/offers")!)) // safe
    }

    func greet(customerName: String) async throws {
        webView.evaluateJavaScript("greet('\(customerName)')")                                  // MOAT-PLAT-211
        _ = try await webView.callAsyncJavaScript("greet(name)", arguments: ["name": customerName], contentWorld: .page) // safe
    }

    func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage) {
        guard let body = message.body as? [String: Any], let account = body["account"] as? String else { return }
        transferAll(to: account)                                                                // MOAT-PLAT-210
    }

    private func transferAll(to account: String) {}
}

/// The same handler, checking where the message comes from first (safe).
final class CheckedOffersHandler: NSObject, WKScriptMessageHandler {
    func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage) {
        guard message.frameInfo.isMainFrame, message.frameInfo.securityOrigin.protocol == "https",
              message.frameInfo.securityOrigin.host == "partners.leakybank.example",
              let body = message.body as? [String: Any], let offer = body["offer"] as? String else { return }
        accept(offer)
    }

    private func accept(_ offer: String) {}
}

@objc protocol RatesBridgeExports: JSExport {                                                   // MOAT-PLAT-209 (inventory)
    func latestRate(_ currency: String) -> Double
}
