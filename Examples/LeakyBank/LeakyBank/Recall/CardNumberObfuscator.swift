import Foundation

/// Masks card numbers kept in the offline cache with a cipher of the app's own.
enum CardNumberObfuscator {
    static func xorCipher(_ data: Data, key: String) -> Data {
        let keyBytes = Array(key.utf8)
        return Data(data.enumerated().map { $0.element ^ keyBytes[$0.offset % keyBytes.count] })
    }

    static func cached(_ cardNumber: String) -> Data {
        xorCipher(Data(cardNumber.utf8), key: "Lb!7xQ2#rT9vKm4$")
    }

    static func sorted(_ cards: [[String: String]]) -> [[String: String]] {
        cards.sorted { ($0["createdAt"] ?? "") < ($1["createdAt"] ?? "") }
    }
}
