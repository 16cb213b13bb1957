import CryptoKit
import Foundation
import Security

/// Seals statements with CryptoKit: the unsafe vault with a key made of a literal and a fixed nonce, the
/// safe one with a key kept in the Keychain and a nonce CryptoKit generates.
struct StatementVault {
    static let vaultKey = "leaky-bank-vault-key-32-bytes!!!"
    static let keychainAccessibility = kSecAttrAccessibleAlways
    static let safeKeychainAccessibility = kSecAttrAccessibleWhenUnlockedThisDeviceOnly

    func fixedNonce() -> Data { Data(base64Encoded: "TGVha3lOb25jZTEy")! }

    func sealUnsafe(_ statement: Data) throws -> Data? {
        let key = SymmetricKey(data: Data(Self.vaultKey.utf8))
        return try AES.GCM.seal(statement, using: key, nonce: AES.GCM.Nonce(data: fixedNonce())).combined
    }

    func sealSafe(_ statement: Data, keyData: Data) throws -> Data? {
        try AES.GCM.seal(statement, using: SymmetricKey(data: keyData)).combined
    }

    func storeKey(_ keyData: Data, safely: Bool) {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrAccount as String: "vault",
            kSecValueData as String: keyData,
            kSecAttrAccessible as String: safely ? Self.safeKeychainAccessibility : Self.keychainAccessibility,
        ]
        SecItemAdd(query as CFDictionary, nil)
    }
}
