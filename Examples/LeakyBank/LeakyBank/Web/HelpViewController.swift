import UIKit
import WebKit

/// Old help screen, still shipped for iOS 12 users.
final class LegacyHelpViewController: UIViewController {
    let webView = UIWebView(frame: .zero)

    override func viewDidLoad() {
        super.viewDidLoad()
        view.addSubview(webView)
    }
}

/// The current help screen: WKWebView with bundled pages only.
final class HelpViewController: UIViewController {
    private let webView = WKWebView(frame: .zero, configuration: WKWebViewConfiguration())

    override func viewDidLoad() {
        super.viewDidLoad()
        view.addSubview(webView)
        if let page = Bundle.main.url(forResource: "help", withExtension: "html", subdirectory: "HelpPages") {
            webView.loadFileURL(page, allowingReadAccessTo: page.deletingLastPathComponent())
        }
    }
}
