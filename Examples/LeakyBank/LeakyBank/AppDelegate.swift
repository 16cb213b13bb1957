import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        return true
    }

    /// Custom URL scheme entry point: leakybank://transfer?to=...&amount=...
    func application(_ app: UIApplication, open url: URL,
                     options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return false }
        // leakybank://receipt?file=NAME saves a receipt: the store is in another file (Storage/ReceiptStore.swift).
        if components.host == "receipt", let name = components.queryItems?.first(where: { $0.name == "file" })?.value {
            ReceiptStore.shared.saveReceipt(named: name, data: Data())              // MOAT-CODE-301, reported in ReceiptStore.swift
            if let safeName = ReceiptNames.singleComponent(name) {
                ReceiptStore.shared.archiveReceipt(named: safeName, data: Data())   // safe: ReceiptNames applies the WWDC idiom
            }
            return true
        }
        LinkActions.shared.handle(components, from: app)                             // Links/: MOAT-PLAT-303, MOAT-PLAT-305
        return TransferRouter.shared.handle(components)
    }
}

final class TransferRouter {
    static let shared = TransferRouter()

    func handle(_ components: URLComponents) -> Bool {
        // Routing only; the transfer screen asks the user to confirm.
        return components.host == "transfer"
    }
}
