import Foundation
import CoreData
import RealmSwift

/// Where LeakyBank keeps the customer's secrets. Each insecure line has a safe twin.
final class CredentialVault {
    struct Credentials: Codable { var user: String; var password: String }

    func remember(accessToken: String) {
        UserDefaults.standard.set(accessToken, forKey: "accessToken")                 // MOAT-STOR-203
        UserDefaults.standard.set(true, forKey: "hasLoggedInBefore")                  // safe: a flag
    }

    func saveCredentials(_ credentials: Credentials) throws {
        let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
        let data = try JSONEncoder().encode(credentials)
        try data.write(to: support.appendingPathComponent("credentials.json"))        // MOAT-STOR-204
    }

    func saveCredentialsProtected(_ credentials: Credentials, to url: URL) throws {
        let data = try JSONEncoder().encode(credentials)
        try data.write(to: url, options: [.atomic, .completeFileProtection])          // safe
    }

    func exportStatement(_ data: Data) throws {
        let docs = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
        try data.write(to: docs.appendingPathComponent("statement.pdf"), options: .noFileProtection) // MOAT-STOR-205
    }

    func openVault() throws -> Realm {
        try Realm()                                                                    // MOAT-STOR-201
    }

    func openVault(key: Data) throws -> Realm {
        try Realm(configuration: Realm.Configuration(encryptionKey: key))             // safe
    }

    func storePin(_ pin: Data) {
        let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                    kSecValueData as String: pin,
                                    kSecAttrAccessible as String: kSecAttrAccessibleAlways]   // MOAT-STOR-207
        SecItemAdd(query as CFDictionary, nil)
    }

    func storeRefreshToken(_ token: Data) {
        let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                    kSecValueData as String: token]
        SecItemAdd(query as CFDictionary, nil)                                        // MOAT-STOR-208 (low)
        let bound: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecValueData as String: token,
                                    kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly]
        SecItemAdd(bound as CFDictionary, nil)                                        // safe
    }
}

/// The Core Data stack of the vault, in Application Support and not excluded from backup.
final class VaultStack {
    func addStore(to coordinator: NSPersistentStoreCoordinator) throws {
        let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil,
                                           at: support.appendingPathComponent("Vault.sqlite"), options: nil) // MOAT-STOR-202, MOAT-STOR-206
    }
}
