import MoatCore
import MoatSyntax

/// An IV, nonce or salt made of a literal (a byte array, a string's bytes, `Data(base64Encoded:)` of a
/// literal, a buffer of one repeated byte such as the all-zero `[UInt8](repeating: 0, count: 16)` that
/// nothing fills) given to a cipher or key derivation: CommonCrypto `CCCrypt` / `CCCryptorCreate` (iv),
/// `CCCryptorCreateWithMode` (iv), `CCKeyDerivationPBKDF` (salt), CryptoKit `AES.GCM.Nonce(data:)` and
/// `ChaChaPoly.Nonce(data:)`, CryptoSwift `AES(key:iv:)`, block modes (`CBC(iv:)`, `GCM(iv:)`...) and
/// `PBKDF2`/`Scrypt(password:salt:)`. Followed like MOAT-CRYP-202's keys, through locals, globals, `let`
/// properties, returns, parameters and constants of other files.
///
/// Medium, not high: a fixed IV or salt weakens the protection (equal plaintexts give equal ciphertexts
/// under CBC; a GCM nonce reused under one key loses confidentiality and integrity; a fixed salt allows
/// precomputed dictionaries) without handing the attacker the key, as MOAT-CRYP-202's literal key does.
public struct ConstantIVRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-CRYP-204", slug: "constant-iv-or-salt",
        title: "Constant IV, nonce or salt",
        severity: .medium, confidence: .high, evidence: .configuration, cwe: [329, 760, 1204],
        masvs: ["MASVS-CRYPTO-1"], mastg: ["MASTG-TEST-0061"],
        rationale: "An IV or nonce must differ for every message encrypted under one key, and a salt for every password. A value written in the source is the same every time: under CBC equal plaintexts give equal ciphertexts, a reused GCM or ChaChaPoly nonce reveals the XOR of the plaintexts and lets an attacker forge messages, and a fixed salt lets one precomputed dictionary attack every user's password.",
        fix: "Generate a fresh IV or nonce for each encryption (`AES.GCM.Nonce()`, `SecRandomCopyBytes`) and send it with the ciphertext; generate a random salt per password and store it beside the derived key.",
        references: ["https://developer.apple.com/documentation/cryptokit/aes/gcm/nonce",
                     "https://mas.owasp.org/MASTG/tests/ios/MASVS-CRYPTO/MASTG-TEST-0061/"],
        examples: [
            .triggering("Cipher.swift", """
            import CommonCrypto
            enum CipherConstants {
                static let iv: [UInt8] = ↓[0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f]
                static let salt = Array(↓"pepper-and-salt!".utf8)
            }
            func nonce() -> Data { Data(base64Encoded: ↓"AAECAwQFBgcICQoL")! }
            func encrypt(_ data: Data, key: Data) throws -> Data? {
                let box = try AES.GCM.seal(data, using: SymmetricKey(data: key), nonce: AES.GCM.Nonce(data: nonce()))
                return box.combined
            }
            func encrypt(_ input: [UInt8], key: [UInt8], output: inout [UInt8]) {
                var moved = 0
                CCCrypt(CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), CCOptions(kCCOptionPKCS7Padding), key, key.count,
                        CipherConstants.iv, input, input.count, &output, output.count, &moved)
            }
            func derive(_ password: String, into derived: inout [UInt8]) {
                let salt = CipherConstants.salt
                CCKeyDerivationPBKDF(CCPBKDFAlgorithm(kCCPBKDF2), password, password.utf8.count, salt, salt.count,
                                     CCPseudoRandomAlgorithm(kCCPRFHmacAlgSHA256), 100_000, &derived, derived.count)
            }
            let cipher = try AES(key: key, blockMode: CBC(iv: ↓"0102030405060708".bytes), padding: .pkcs7)
            func encryptWithZeroIV(_ input: [UInt8], key: [UInt8], output: inout [UInt8]) {
                let iv = ↓[UInt8](repeating: 0, count: kCCBlockSizeAES128)
                var moved = 0
                CCCrypt(CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), CCOptions(kCCOptionPKCS7Padding), key, key.count,
                        iv, input, input.count, &output, output.count, &moved)
            }
            """),
            .nonTriggering("Cipher.swift", """
            import CommonCrypto
            func encrypt(_ data: Data, key: SymmetricKey) throws -> Data? {
                try AES.GCM.seal(data, using: key, nonce: AES.GCM.Nonce()).combined
            }
            func encrypt(_ input: [UInt8], key: [UInt8], output: inout [UInt8]) {
                var iv = [UInt8](repeating: 0, count: kCCBlockSizeAES128)
                _ = SecRandomCopyBytes(kSecRandomDefault, iv.count, &iv)
                var moved = 0
                CCCrypt(CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), CCOptions(kCCOptionPKCS7Padding), key, key.count,
                        iv, input, input.count, &output, output.count, &moved)
            }
            func encryptWithFilledIV(_ input: [UInt8], key: [UInt8], output: inout [UInt8]) {
                var iv = [UInt8](repeating: 0, count: 16)
                for index in 0..<iv.count { iv[index] = UInt8.random(in: 0...255) }
                var moved = 0
                CCCrypt(CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), CCOptions(kCCOptionPKCS7Padding), key, key.count,
                        iv, input, input.count, &output, output.count, &moved)
            }
            func derive(_ password: String, salt: [UInt8], into derived: inout [UInt8]) {
                CCKeyDerivationPBKDF(CCPBKDFAlgorithm(kCCPBKDF2), password, password.utf8.count, salt, salt.count,
                                     CCPseudoRandomAlgorithm(kCCPRFHmacAlgSHA256), 100_000, &derived, derived.count)
            }
            """, note: "A nonce CryptoKit generates, IVs filled by SecRandomCopyBytes or element by element, a salt passed in."),
            .triggering("Cipher.c", """
            #define AES_IV ↓"fedcba9876543210"
            int encrypt(const uint8_t *key, const uint8_t *input, size_t length, uint8_t *output, size_t capacity, size_t *moved) {
                return CCCrypt(kCCEncrypt, kCCAlgorithmAES, kCCOptionPKCS7Padding, key, kCCKeySizeAES128, AES_IV,
                               input, length, output, capacity, moved);
            }
            int encryptWithZeroIV(const uint8_t *key, const uint8_t *input, size_t length, uint8_t *output, size_t capacity, size_t *moved) {
                uint8_t iv[kCCBlockSizeAES128] = ↓{0};
                return CCCrypt(kCCEncrypt, kCCAlgorithmAES, kCCOptionPKCS7Padding, key, kCCKeySizeAES128, iv,
                               input, length, output, capacity, moved);
            }
            int derive(const char *password, uint8_t *derived, size_t length) {
                char salt[] = ↓"pepper-and-salt!";
                return CCKeyDerivationPBKDF(kCCPBKDF2, password, strlen(password), (const uint8_t *)salt, sizeof(salt) - 1,
                                            kCCPRFHmacAlgSHA256, 100000, derived, length);
            }
            """, note: "An IV in a `#define`, a C array of zeroes, a salt in a C string array."),
            .nonTriggering("Cipher.c", """
            #define IV_LENGTH 16
            int encrypt(const uint8_t *key, const uint8_t *input, size_t length, uint8_t *output, size_t capacity, size_t *moved) {
                uint8_t iv[IV_LENGTH] = {0};
                if (SecRandomCopyBytes(kSecRandomDefault, sizeof(iv), iv) != 0) { return -1; }
                return CCCrypt(kCCEncrypt, kCCAlgorithmAES, kCCOptionPKCS7Padding, key, kCCKeySizeAES128, iv,
                               input, length, output, capacity, moved);
            }
            int derive(const char *password, uint8_t *derived, size_t length) {
                uint8_t salt[16] = {0};
                CCRandomGenerateBytes(salt, sizeof(salt));
                return CCKeyDerivationPBKDF(kCCPBKDF2, password, strlen(password), salt, sizeof(salt),
                                            kCCPRFHmacAlgSHA256, 100000, derived, length);
            }
            """, note: "C arrays filled by `SecRandomCopyBytes` and `CCRandomGenerateBytes` before use."),
            RuleExample(files: [
                ExampleFile(name: "FileSealer.swift", content: """
                import CommonCrypto
                enum FileSealer {
                    static func seal(_ input: [UInt8], key: [UInt8], iv: [UInt8], output: inout [UInt8]) {
                        var moved = 0
                        CCCrypt(CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), CCOptions(kCCOptionPKCS7Padding), key, key.count,
                                iv, input, input.count, &output, output.count, &moved)
                    }
                }
                """),
                ExampleFile(name: "Exporter.swift", content: """
                let exportIV = Array(↓"0011223344556677".utf8)
                func export(_ input: [UInt8], key: [UInt8], into output: inout [UInt8]) {
                    FileSealer.seal(input, key: key, iv: exportIV, output: &output)
                }
                """),
            ], triggers: true, note: "A constant IV passed to a helper of another file."),
            RuleExample(files: [
                ExampleFile(name: "FileSealer.swift", content: """
                import CommonCrypto
                enum FileSealer {
                    static func seal(_ input: [UInt8], key: [UInt8], iv: [UInt8], output: inout [UInt8]) {
                        var moved = 0
                        CCCrypt(CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), CCOptions(kCCOptionPKCS7Padding), key, key.count,
                                iv, input, input.count, &output, output.count, &moved)
                    }
                }
                """),
                ExampleFile(name: "Exporter.swift", content: """
                func export(_ input: [UInt8], key: [UInt8], into output: inout [UInt8]) {
                    var iv = [UInt8](repeating: 0, count: 16)
                    _ = SecRandomCopyBytes(kSecRandomDefault, iv.count, &iv)
                    FileSealer.seal(input, key: key, iv: iv, output: &output)
                }
                """),
            ], triggers: false, note: "The caller passes a random IV."),
            .triggering("Cipher.m", """
            static NSString *const kSalt = ↓@"0123456789abcdef";
            - (NSData *)deriveFrom:(NSString *)password {
                NSData *salt = [kSalt dataUsingEncoding:NSUTF8StringEncoding];
                NSMutableData *derived = [NSMutableData dataWithLength:32];
                CCKeyDerivationPBKDF(kCCPBKDF2, password.UTF8String, password.length, salt.bytes, salt.length,
                                     kCCPRFHmacAlgSHA256, 100000, derived.mutableBytes, derived.length);
                return derived;
            }
            """),
        ])

    public init() {}

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        guard CryptoConstantSites.isRelevant(unit) else { return }
        for site in CryptoConstantSites.sites(in: unit) where !site.role.isSecret {
            let why = site.role == .salt
                ? "the same salt for every password lets one precomputed dictionary attack them all. Generate a random salt per password and store it with the result."
                : "\(site.role == .iv ? "an IV" : "a nonce") must differ for every message under one key. Generate a fresh one for each encryption (`SecRandomCopyBytes`, `AES.GCM.Nonce()`)."
            let message = "\(site.subject): \(why)"
            CryptoConstantSites.report(site, message: message, in: unit.code, &sink)
        }
    }
}
