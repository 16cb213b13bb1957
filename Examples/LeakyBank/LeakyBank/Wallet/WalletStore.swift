import CoreData

/// Unsafe: the wallet keeps card numbers, CVVs and passwords (Wallet.xcdatamodeld) in a store loaded with
/// the container's default description, so it gets the default Data Protection class.
final class WalletStore {
    let container = NSPersistentContainer(name: "Wallet")

    func load() {
        container.loadPersistentStores { _, error in          // MOAT-STOR-209 at the model (supersedes MOAT-STOR-202 here)
            if let error { print("wallet store failed: \(error)") }
        }
    }
}
