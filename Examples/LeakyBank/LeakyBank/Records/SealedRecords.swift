import CoreData
import CryptoKit

/// Safe: SealedRecords.xcdatamodeld's store is opened with complete file protection, so a password written
/// to it is not readable while the device is locked; the hashed value below is no secret in clear either.
final class SealedRecords {
    let container = NSPersistentContainer(name: "SealedRecords")

    func load() {
        container.persistentStoreDescriptions.first?.setOption(FileProtectionType.complete as NSObject,
                                                              forKey: NSPersistentStoreFileProtectionKey)
        container.loadPersistentStores { _, _ in }
    }

    func remember(username: String, password: String) {
        let login = SealedLogin(context: container.viewContext)
        login.username = username
        login.password = password                      // quiet: complete file protection
    }
}

/// Safe: a member's PIN is kept only as a salted hash in the unprotected Records store.
extension MemberRecords {
    func rememberPinCheck(username: String, pin: String, salt: Data) {
        let login = MemberLogin(context: container.viewContext)
        login.username = username
        login.password = SHA256.hash(data: salt + Data(pin.utf8)).description   // quiet: hashed
    }
}
