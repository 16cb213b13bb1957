import Foundation
import CoreData
import CryptoKit
import UIKit
import os

/// Where LeakyBank lets secrets leak once they are out of the Keychain: each unsafe line next to its safe twin.
final class SecretLeaks {
    private let logger = Logger(subsystem: "com.leakybank", category: "session")

    struct SessionRecord: Codable {
        var userName: String
        var refreshToken: String
    }

    func shareSession() {
        guard let session = SessionKeychain.readSessionToken() else { return }
        let shared = UserDefaults(suiteName: "group.com.leakybank")
        shared?.set(session, forKey: "session")                                     // MOAT-STOR-203 (read from the Keychain in another file)
        logger.info("Session \(session, privacy: .public)")                        // MOAT-STOR-302
        logger.info("Session \(session, privacy: .private)")                       // safe: redacted
    }

    func logLogin(user: String, password: String) {
        print("Login \(user) with \(password)")                                     // MOAT-STOR-302
        print("Login \(user) with a password of \(password.count) characters")      // safe: a length
    }

    func copyCardNumber(_ cardNumber: String) {
        UIPasteboard.general.string = cardNumber                                    // MOAT-STOR-303
        UIPasteboard.general.setItems([["public.utf8-plain-text": cardNumber]],
                                      options: [.localOnly: true, .expirationDate: Date().addingTimeInterval(60)]) // safe
    }

    func statementURL(apiKey: String) -> URL? {
        URL(string: "https://api.leakybank.example/statement?key=\(apiKey)")        // MOAT-NET-301
    }

    func statementRequest(apiKey: String) -> URLRequest {
        var request = URLRequest(url: URL(string: "https://api.leakybank.example/statement")!)
        request.setValue(apiKey, forHTTPHeaderField: "X-Api-Key")                   // safe: a header
        return request
    }

    func rememberLogin(_ account: NSManagedObject, password: String) {
        account.setValue(password, forKey: "password")                              // MOAT-STOR-301
        let digest = SHA256.hash(data: Data(password.utf8))
        account.setValue(Data(digest), forKey: "passwordDigest")                    // safe: a digest
    }

    func archive(_ record: SessionRecord) throws {
        let docs = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
        let data = try JSONEncoder().encode(record)
        try data.write(to: docs.appendingPathComponent("session.json"))             // MOAT-STOR-204 (a Codable value with a token)
        let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
        try data.write(to: caches.appendingPathComponent("session.json"), options: .completeFileProtection) // safe
    }
}
