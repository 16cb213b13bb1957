import MoatCore
import MoatSyntax

/// A string or byte-array literal that becomes a key, password or stored secret in a crypto or keychain
/// API (`CryptoConstantSites`): CryptoKit `SymmetricKey(data:)`, CommonCrypto `CCCrypt` / `CCCryptorCreate`
/// / `CCCryptorCreateWithMode` (key), `CCHmac` / `CCHmacInit` (key), `CCKeyDerivationPBKDF` (password), CryptoSwift
/// `AES`/`ChaCha20`/`Blowfish`/`HMAC` (`key:`) and `PBKDF2` (`password:`), RNCryptor (`withPassword:` /
/// `password:`), Realm's `encryptionKey`, `SecKeyCreateWithData` for private or symmetric keys, and
/// keychain dictionaries whose `kSecValueData` is a literal. The literal is followed through byte
/// conversions (`.data(using:)`, `Data(s.utf8)`, `Array(s.utf8)`, `Data(base64Encoded:)`, `[s UTF8String]`)
/// and names (locals, globals, `let`/`static let` properties, returns, parameters, constants of other
/// files: `ConstantResolver`). Placeholders and empty strings are skipped. Reported at the literal (with
/// the use as related location), or at the use when the literal is in another file; the value redacted.
public struct HardcodedCryptoKeyRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-CRYP-202", slug: "hardcoded-crypto-key",
        title: "Hard-coded encryption key or secret given to a crypto API",
        severity: .high, confidence: .high, evidence: .configuration, cwe: [321, 798],
        masvs: ["MASVS-CRYPTO-2"], mastg: ["MASTG-TEST-0062", "MASTG-TEST-0061"],
        rationale: "A key written in the source is the same in every copy of the app and can be read from the binary. Whatever it encrypts or authenticates (files, tokens, requests) is protected by a value every attacker already has.",
        fix: "Generate keys at run time (`SymmetricKey(size: .bits256)`, `SecKeyCreateRandomKey`, the Secure Enclave), store them in the Keychain with a `…ThisDeviceOnly` class, and derive user keys from the user's secret with a per-user random salt.",
        references: ["https://mas.owasp.org/MASTG/tests/ios/MASVS-CRYPTO/MASTG-TEST-0062/",
                     "https://developer.apple.com/documentation/cryptokit/symmetrickey"],
        examples: [
            .triggering("Crypto.swift", """
            import CryptoKit
            let key = SymmetricKey(data: ↓"0123456789abcdef0123456789abcdef".data(using: .utf8)!)
            func seal(_ data: Data) throws -> Data? {
                let keyData = Data(↓"s3cr3t-k3y-f0r-aes-gcm-256-bits!".utf8)
                return try AES.GCM.seal(data, using: SymmetricKey(data: keyData)).combined
            }
            func storeDefaultPassword() {
                let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                            kSecValueData as String: ↓"Adm1nPa55word".data(using: .utf8)!]
                SecItemAdd(query as CFDictionary, nil)
            }
            let aes = try AES(key: ↓"passwordpassword", iv: "drowssapdrowssap")
            let hmac = HMAC(key: ↓[0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b], variant: .sha2(.sha256))
            let encrypted = RNCryptor.encrypt(data: payload, withPassword: ↓"correct horse battery")
            """),
            .triggering("Crypto.m", """
            - (NSData *)encrypt:(NSData *)data {
                NSString *key = ↓@"0123456789abcdef";
                size_t moved = 0;
                NSMutableData *output = [NSMutableData dataWithLength:data.length + kCCBlockSizeAES128];
                CCCrypt(kCCEncrypt, kCCAlgorithmAES, kCCOptionPKCS7Padding, [key UTF8String], kCCKeySizeAES128, NULL,
                        data.bytes, data.length, output.mutableBytes, output.length, &moved);
                return output;
            }
            """),
            .triggering("Store.swift", """
            import RealmSwift
            import CommonCrypto
            enum StoreKeys {
                static let realm = Data(base64Encoded: ↓"c2VjcmV0LXJlYWxtLWtleS1zZWNyZXQtcmVhbG0ta2V5")!
            }
            func hmacKey() -> [UInt8] { Array(↓"hmac-signing-key-2024".utf8) }
            func openStore() throws -> Realm {
                let config = Realm.Configuration(encryptionKey: StoreKeys.realm)
                return try Realm(configuration: config)
            }
            func sign(_ message: [UInt8], into mac: inout [UInt8]) {
                let key = hmacKey()
                CCHmac(CCHmacAlgorithm(kCCHmacAlgSHA256), key, key.count, message, message.count, &mac)
            }
            func seal(_ data: Data, with keyData: Data) throws -> Data? {
                try AES.GCM.seal(data, using: SymmetricKey(data: keyData)).combined
            }
            let sealed = try seal(payload, with: ↓"0123456789abcdef0123456789abcdef".data(using: .utf8)!)
            """, note: "Keys kept in a static let, returned by a function, passed as an argument."),
            RuleExample(files: [
                ExampleFile(name: "Keys.swift", content: """
                enum Keys {
                    static let database: [UInt8] = [0x3a, 0x91, 0x0c, 0x55, 0xe2, 0x17, 0x6b, 0xd4, 0x08, 0x9f, 0x41, 0xc3, 0x7e, 0x22, 0xb5, 0x60]
                }
                """),
                ExampleFile(name: "Database.swift", content: """
                func openDatabase() throws -> Realm {
                    var config = Realm.Configuration()
                    config.encryptionKey = ↓Data(Keys.database)
                    return try Realm(configuration: config)
                }
                func privateKey() -> SecKey? {
                    let attributes: [String: Any] = [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                                                     kSecAttrKeyClass as String: kSecAttrKeyClassPrivate]
                    return SecKeyCreateWithData(↓Data(Keys.database) as CFData, attributes as CFDictionary, nil)
                }
                """),
            ], triggers: true, note: "A key written in another file: reported where it is used, with the constant as related location."),
            RuleExample(files: [
                ExampleFile(name: "Keys.swift", content: """
                enum Keys {
                    static let serverPublicKey: [UInt8] = [0x04, 0x91, 0x0c, 0x55, 0xe2, 0x17, 0x6b, 0xd4, 0x08, 0x9f, 0x41, 0xc3, 0x7e, 0x22]
                }
                """),
                ExampleFile(name: "Database.swift", content: """
                func openDatabase() throws -> Realm {
                    var key = Data(count: 64)
                    _ = key.withUnsafeMutableBytes { SecRandomCopyBytes(kSecRandomDefault, 64, $0.baseAddress!) }
                    var config = Realm.Configuration()
                    config.encryptionKey = key
                    return try Realm(configuration: config)
                }
                func serverKey() -> SecKey? {
                    let attributes: [String: Any] = [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                                                     kSecAttrKeyClass as String: kSecAttrKeyClassPublic]
                    return SecKeyCreateWithData(Data(Keys.serverPublicKey) as CFData, attributes as CFDictionary, nil)
                }
                """),
            ], triggers: false, note: "A random Realm key; a public key written in the source (normal for verifying signatures)."),
            RuleExample(files: [
                ExampleFile(name: "CryptoHelper.swift", content: """
                import CryptoKit
                enum CryptoHelper {
                    static func encrypt(_ data: Data, key: String) throws -> Data? {
                        let keyData = key.data(using: .utf8)!
                        return try AES.GCM.seal(data, using: SymmetricKey(data: keyData)).combined
                    }
                }
                """),
                ExampleFile(name: "Uploader.swift", content: """
                func upload(_ report: Data) throws {
                    let sealed = try CryptoHelper.encrypt(report, key: ↓"0123456789abcdef0123456789abcdef")
                    send(sealed)
                }
                """),
            ], triggers: true, note: "A literal passed to a helper of another file that makes it a key: reported in the caller, with the helper's use as related location."),
            RuleExample(files: [
                ExampleFile(name: "CryptoHelper.swift", content: """
                import CryptoKit
                enum CryptoHelper {
                    static func encrypt(_ data: Data, key: String) throws -> Data? {
                        let keyData = key.data(using: .utf8)!
                        return try AES.GCM.seal(data, using: SymmetricKey(data: keyData)).combined
                    }
                }
                """),
                ExampleFile(name: "Uploader.swift", content: """
                func upload(_ report: Data, keychain: Keychain) throws {
                    guard let stored = keychain.string(forKey: "report-key") else { return }
                    let sealed = try CryptoHelper.encrypt(report, key: stored)
                    send(sealed)
                }
                """),
            ], triggers: false, note: "The helper's callers pass a key read from the Keychain."),
            .triggering("Cipher.m", """
            #define kEncryptionKey ↓@"0123456789abcdef"
            static const unsigned char kMacKey[] = ↓{ 0x3a, 0x91, 0x0c, 0x55, 0xe2, 0x17, 0x6b, 0xd4, 0x08, 0x9f };
            - (NSData *)encrypt:(NSData *)data {
                NSMutableData *output = [NSMutableData dataWithLength:data.length + kCCBlockSizeAES128];
                size_t moved = 0;
                CCCrypt(kCCEncrypt, kCCAlgorithmAES, kCCOptionPKCS7Padding, [kEncryptionKey UTF8String], kCCKeySizeAES128, NULL,
                        data.bytes, data.length, output.mutableBytes, output.length, &moved);
                return output;
            }
            - (void)sign:(NSData *)message into:(unsigned char *)mac {
                CCHmac(kCCHmacAlgSHA256, kMacKey, sizeof(kMacKey), message.bytes, message.length, mac);
            }
            """, note: "A key in a `#define` and in a C array."),
            .triggering("Signer.m", """
            static const unsigned char kSigningKey[] = ↓{ 0x5c, 0x21, 0x9e, 0x03, 0xb7, 0x44, 0xd8, 0x6a, 0x10, 0xfe };
            - (void)sign:(NSData *)message into:(unsigned char *)mac {
                CCHmacContext context;
                CCHmacInit(&context, kCCHmacAlgSHA256, kSigningKey, sizeof(kSigningKey));
                CCHmacUpdate(&context, message.bytes, message.length);
                CCHmacFinal(&context, mac);
            }
            """, note: "`CCHmacInit` takes its key as third argument, after the context and the algorithm."),
            RuleExample(files: [
                ExampleFile(name: "Keys.h", content: """
                #define kStoreKey @"s3cr3t-st0re-k3y-0123456789abcdef"
                """),
                ExampleFile(name: "Store.m", content: """
                #import "Keys.h"
                - (RLMRealm *)openStore {
                    RLMRealmConfiguration *config = [RLMRealmConfiguration defaultConfiguration];
                    [config setEncryptionKey:↓[kStoreKey dataUsingEncoding:NSUTF8StringEncoding]];
                    return [RLMRealm realmWithConfiguration:config error:nil];
                }
                """),
            ], triggers: true, note: "A `#define` of a header the file includes: reported where it is used, with the macro as related location."),
            .nonTriggering("Cipher.m", """
            #define kRuntimeKey [KeyStore currentKey]
            - (NSData *)encrypt:(NSData *)data {
                unsigned char key[32] = {0};
                SecRandomCopyBytes(kSecRandomDefault, sizeof(key), key);
                NSMutableData *output = [NSMutableData dataWithLength:data.length + kCCBlockSizeAES128];
                size_t moved = 0;
                CCCrypt(kCCEncrypt, kCCAlgorithmAES, kCCOptionPKCS7Padding, key, kCCKeySizeAES256, NULL,
                        data.bytes, data.length, output.mutableBytes, output.length, &moved);
                CCCrypt(kCCEncrypt, kCCAlgorithmAES, kCCOptionPKCS7Padding, [kRuntimeKey bytes], kCCKeySizeAES256, NULL,
                        data.bytes, data.length, output.mutableBytes, output.length, &moved);
                return output;
            }
            """, note: "A key array filled by `SecRandomCopyBytes`, a `#define` of a call."),
            .triggering("Vault.swift", """
            import CryptoKit
            final class Vault {
                private var keyData: Data
                init() {
                    keyData = Data(↓"vault-master-key-0123456789abcdef".utf8)
                }
                func seal(_ data: Data) throws -> Data? {
                    try AES.GCM.seal(data, using: SymmetricKey(data: keyData)).combined
                }
            }
            """, note: "A `var` property the file sets exactly once, with a literal."),
            .nonTriggering("Vault.swift", """
            import CryptoKit
            final class Vault {
                private var keyData = Data("placeholder-key-0123456789abcdef".utf8)
                func unlock(with keychain: Keychain) {
                    keyData = keychain.data(forKey: "vault") ?? Data()
                }
                func seal(_ data: Data) throws -> Data? {
                    try AES.GCM.seal(data, using: SymmetricKey(data: keyData)).combined
                }
            }
            """, note: "A `var` property set again from the Keychain: not a constant."),
            .nonTriggering("Crypto.swift", """
            import CryptoKit
            let key = SymmetricKey(size: .bits256)
            func seal(_ data: Data, keyData: Data) throws -> Data? {
                try AES.GCM.seal(data, using: SymmetricKey(data: keyData)).combined
            }
            func store(_ password: String) {
                let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                            kSecValueData as String: password.data(using: .utf8)!]
                SecItemAdd(query as CFDictionary, nil)
            }
            let placeholder = SymmetricKey(data: "YOUR_KEY_HERE".data(using: .utf8)!)
            func addBiometricMarker(_ access: SecAccessControl) {
                let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccessControl as String: access,
                                            kSecValueData as String: Data(repeating: 1, count: 1)]
                SecItemAdd(query as CFDictionary, nil)
            }
            """, note: "Generated keys, keys passed in, user input stored in the keychain, placeholders, a marker item's dummy byte."),
        ])

    public init() {}

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        guard CryptoConstantSites.isRelevant(unit) else { return }
        for site in CryptoConstantSites.sites(in: unit) where site.role.isSecret {
            let message = "\(site.subject): it is the same in every copy of the app and readable from the binary. Generate the key at run time and keep it in the Keychain."
            CryptoConstantSites.report(site, message: message, in: unit.code, &sink)
        }
    }

    /// The literals of this file that MOAT-CRYP-202 and MOAT-CRYP-204 report (MOAT-CRYP-203 leaves them).
    static func literals(in unit: SourceUnit) -> Set<ObjectIdentifier> {
        guard CryptoConstantSites.isRelevant(unit) else { return [] }
        return Set(CryptoConstantSites.sites(in: unit).compactMap { $0.literal.map(ObjectIdentifier.init) })
    }
}
