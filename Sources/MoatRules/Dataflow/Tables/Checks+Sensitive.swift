import MoatCore
import MoatSyntax

// Checks of the `sensitive` kind of flow: what makes a secret no longer the secret in clear. Registered in
// `Transfers.resultIndex` by one line.

extension Checks {
    /// Whether a function's name is one the word rule of `sensitiveResults` takes for a hash or a cipher.
    static func namesSecretSanitizer(_ name: String) -> Bool {
        let words = CamelCase.words(name).map { $0.lowercased() }
        return sensitiveResults.contains { rule in rule.match.words?.matches(name: name, words: words) ?? false }
    }

    static let sensitiveResults: [CallResultRule] = [
        CallResultRule(
            name: "hash or cipher",
            // CommonCrypto's one-shot digests, HMAC and cipher, Security's public-key encryption, crypt(3).
            match: CallMatch(names: APISpelling(swift: ["hash", "seal", "encrypt", "authenticationCode"],
                                                c: APIs.commonCryptoSHA2.cFunctions
                                                    + [APIs.commonCryptoSHA1.cFunctions[0], APIs.commonCryptoMD5.cFunctions[0],
                                                       APIs.commonCryptoHMAC.cFunctions[0], APIs.commonCryptoCipher.cFunctions[0]]
                                                    + APIs.secKeyCreateEncryptedData.cFunctions + ["crypt", "bcrypt"]),
                             receivers: ["SHA256", "SHA384", "SHA512", "SHA1", "MD5", "Insecure", "HMAC", "AES", "GCM", "ChaChaPoly",
                                         "SealedBox", "cipher", "Cipher", "crypto", "Crypto"]),
            effect: .adds([.encrypted]), kinds: [.sensitive], precedence: 25,
            rationale: "A digest or a ciphertext of a secret (CryptoKit SHA256.hash(data:), HMAC, AES.GCM.seal, CommonCrypto "
                + "CC_SHA256/CCCrypt, SecKeyCreateEncryptedData) is not the secret in clear: storing or logging it does not "
                + "leak the secret. Storing an unsalted fast hash of a short secret (a PIN) is a weak password store, a "
                + "different weakness that these rules do not judge."),
        CallResultRule(
            name: "status, Boolean or public half of a secret",
            match: CallMatch(names: APISpelling(c: APIs.keychainItemWrite.cFunctions + APIs.secretConsumingCalls.cFunctions)),
            effect: .dropsTaint, kinds: [.sensitive], precedence: 24,
            rationale: "What a Keychain write or a key operation returns after consuming a secret is not the secret: "
                + "SecItemAdd, SecItemUpdate and SecItemDelete answer an OSStatus, SecKeyVerifySignature a Boolean, "
                + "SecKeyCreateSignature a signature, SecKeyCopyPublicKey the public half of the key."),
        CallResultRule(
            name: "hash-named or cipher-named callee",
            match: CallMatch(words: .anyWord(["hash", "hashed", "encrypt", "encrypted", "encrypting", "seal", "sealed", "cipher",
                                              "digest", "hmac", "sha256", "sha512", "obfuscate", "obfuscated", "redact", "redacted",
                                              "mask", "masked", "scrambled"])),
            effect: .adds([.encrypted]), kinds: [.sensitive], precedence: 26,
            rationale: "A function the app wrote (or a library's) whose name has the word hash, hashed, encrypt, encrypted, seal, "
                + "sealed, cipher, digest, hmac, sha256, obfuscate, redact or mask (hashPassword(_:), encryptedToken(for:), "
                + "redacted(_:)) is taken to return something other than the secret in clear. A function of the scanned file "
                + "is judged by its summary instead."),
    ]
}
