import UIKit
import WebKit

/// Dashboard widgets chosen by the promotions page (page JavaScript names the widget classes) and the
/// last screen, restored at launch.
@objc protocol DashboardWidget {}

final class DashboardWidgets: NSObject, WKScriptMessageHandler {
    let container = UIStackView()

    func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
        guard message.frameInfo.securityOrigin.host == "promotions.leakybank.example",
              let names = message.body as? [String] else { return }
        let widgets = names.compactMap { NSClassFromString($0) as? UIView.Type }    // MOAT-CODE-303: the page picks the classes
        widgets.forEach { container.addArrangedSubview($0.init()) }
    }

    func restoreLastScreen() -> UIViewController? {
        guard let name = UserDefaults.standard.string(forKey: "lastScreen"),
              let screen = NSClassFromString(name) as? UIViewController.Type else { return nil }    // MOAT-CODE-303 (medium): a stored class name
        return screen.init()
    }
}

final class SafeDashboardWidgets: NSObject, WKScriptMessageHandler {
    let container = UIStackView()
    let allowed: [String: UIView.Type] = ["balance": UILabel.self, "chart": UIImageView.self]

    func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
        guard message.frameInfo.securityOrigin.host == "promotions.leakybank.example",
              let names = message.body as? [String] else { return }
        let widgets = names.compactMap { allowed[$0] }    // safe: an allowlist, no class lookup by name
        widgets.forEach { container.addArrangedSubview($0.init()) }
    }

    func restoreLastScreen() -> UIViewController? {
        guard let name = UserDefaults.standard.string(forKey: "lastScreen"),
              let screen = NSClassFromString(name) as? UIViewController.Type,
              screen.conforms(to: DashboardWidget.self) else { return nil }    // safe: checked against a marker protocol
        return screen.init()
    }
}
