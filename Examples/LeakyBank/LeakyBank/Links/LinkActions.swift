import CallKit
import UIKit

/// What leakybank:// links do besides receipts and transfers (AppDelegate hands them the URL's parts).
/// Unsafe and safe handling side by side.
final class LinkActions {
    static let shared = LinkActions()
    let callController = CXCallController()

    func handle(_ components: URLComponents, from app: UIApplication) {
        let value = components.queryItems?.first(where: { $0.name == "value" })?.value
        switch components.host {
        case "closeAccount":
            // UNSAFE: the route alone deletes the account (MOAT-PLAT-303).
            AccountService.shared.deleteAccount()
        case "closeAccountSafely":
            // SAFE: the user confirms first.
            let alert = UIAlertController(title: "Close your account?", message: nil, preferredStyle: .alert)
            alert.addAction(UIAlertAction(title: "Close", style: .destructive) { _ in AccountService.shared.deleteAccount() })
            app.windows.first?.rootViewController?.present(alert, animated: true)
        case "callAdvisor":
            // UNSAFE: the link chooses the number CallKit dials (MOAT-PLAT-303).
            guard let number = value else { return }
            let action = CXStartCallAction(call: UUID(), handle: CXHandle(type: .phoneNumber, value: number))
            callController.request(CXTransaction(action: action)) { _ in }
        case "server":
            // UNSAFE: the link chooses the API server the app uses from now on (MOAT-PLAT-305).
            guard let server = value else { return }
            UserDefaults.standard.set(server, forKey: "apiServer")
        case "region":
            // SAFE: only servers the app knows (the check is in LinkPolicy.swift).
            guard let server = value, LinkPolicy.isAllowedServer(server) else { return }
            UserDefaults.standard.set(server, forKey: "apiServer")
        default:
            break
        }
    }
}

final class AccountService {
    static let shared = AccountService()
    func deleteAccount() {}
}
