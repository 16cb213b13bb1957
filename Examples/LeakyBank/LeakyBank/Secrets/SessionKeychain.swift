import Foundation
import Security

/// Reads the session token LeakyBank keeps in the Keychain (where it belongs). What callers in other files
/// do with it is the sensitive data flow of `SecretLeaks.swift`.
enum SessionKeychain {
    static func readSessionToken() -> String? {
        let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                    kSecAttrService as String: "com.leakybank.session",
                                    kSecReturnData as String: true]
        var item: CFTypeRef?
        guard SecItemCopyMatching(query as CFDictionary, &item) == errSecSuccess, let data = item as? Data else { return nil }
        return String(data: data, encoding: .utf8)
    }
}
