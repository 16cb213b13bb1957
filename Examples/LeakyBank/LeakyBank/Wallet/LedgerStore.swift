import CoreData

/// Safe: the ledger (Ledger.xcdatamodeld, which holds a PIN) is opened with Complete file protection.
final class LedgerStore {
    let container = NSPersistentContainer(name: "Ledger")

    func load() {
        container.persistentStoreDescriptions.first?.setOption(FileProtectionType.complete as NSObject,
                                                              forKey: NSPersistentStoreFileProtectionKey)
        container.loadPersistentStores { _, _ in }                                      // safe
    }
}
