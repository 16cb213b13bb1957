import CommonCrypto
import Foundation
import Security

/// Encrypts downloaded statements. The unsafe cipher uses the constants of VaultConstants.swift; the safe
/// one a key from the Keychain and a fresh IV for every statement.
struct VaultCipher {
    func encryptUnsafe(_ statement: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: statement.count + kCCBlockSizeAES128)
        var moved = 0
        let key = VaultConstants.statementKey
        CCCrypt(CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), CCOptions(kCCOptionPKCS7Padding),
                key, key.count, VaultConstants.statementIV, statement, statement.count, &output, output.count, &moved)
        return Array(output.prefix(moved))
    }

    func derivePINKeyUnsafe(_ pin: String) -> [UInt8] {
        var derived = [UInt8](repeating: 0, count: 32)
        let salt = Array(VaultConstants.pinSalt.utf8)
        CCKeyDerivationPBKDF(CCPBKDFAlgorithm(kCCPBKDF2), pin, pin.utf8.count, salt, salt.count,
                             CCPseudoRandomAlgorithm(kCCPRFHmacAlgSHA256), 100_000, &derived, derived.count)
        return derived
    }

    func encryptSafe(_ statement: [UInt8], key: [UInt8]) -> (iv: [UInt8], ciphertext: [UInt8]) {
        var iv = [UInt8](repeating: 0, count: kCCBlockSizeAES128)
        _ = SecRandomCopyBytes(kSecRandomDefault, iv.count, &iv)
        var output = [UInt8](repeating: 0, count: statement.count + kCCBlockSizeAES128)
        var moved = 0
        CCCrypt(CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), CCOptions(kCCOptionPKCS7Padding),
                key, key.count, iv, statement, statement.count, &output, output.count, &moved)
        return (iv, Array(output.prefix(moved)))
    }

    func derivePINKeySafe(_ pin: String, salt: [UInt8]) -> [UInt8] {
        var derived = [UInt8](repeating: 0, count: 32)
        CCKeyDerivationPBKDF(CCPBKDFAlgorithm(kCCPBKDF2), pin, pin.utf8.count, salt, salt.count,
                             CCPseudoRandomAlgorithm(kCCPRFHmacAlgSHA256), 100_000, &derived, derived.count)
        return derived
    }
}
