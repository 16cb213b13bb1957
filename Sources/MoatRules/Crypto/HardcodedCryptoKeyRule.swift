import MoatCore
import MoatSyntax

/// A string or byte-array literal that becomes a key, password or stored secret in a crypto or keychain
/// API, followed through locals and conversions (`.data(using:)`, `Data(s.utf8)`, `Array(s.utf8)`,
/// `Data(base64Encoded:)`, `[s UTF8String]`, `[s dataUsingEncoding:]`): CryptoKit `SymmetricKey(data:)`,
/// CommonCrypto `CCCrypt` / `CCCryptorCreate` (key), `CCHmac` (key), `CCKeyDerivationPBKDF` (password),
/// CryptoSwift `AES`/`ChaCha20`/`Blowfish`/`HMAC` (`key:`) and `PBKDF2` (`password:`), RNCryptor
/// (`withPassword:` / `password:`), and keychain dictionaries whose `kSecValueData` is a literal.
/// Placeholders and empty strings are skipped. Reported at the literal, with the value redacted.
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
            """, note: "Generated keys, keys passed in, user input stored in the keychain, placeholders."),
        ])

    public init() {}

    /// The calls `sites(in:)` reads (Objective-C RNCryptor selectors by their first part; RNCryptor's Swift
    /// `encrypt`/`decrypt` by the class); the keychain's `kSecValueData` key is checked apart.
    static let requiredNames: Set<String> = [
        "encryptData", "decryptData", "SymmetricKey", "CCCrypt", "CCCryptorCreate", "CCCryptorCreateWithMode", "CCHmac", "CCHmacInit",
        "CCKeyDerivationPBKDF", "AES", "ChaCha20", "Blowfish", "HMAC", "CBCMAC", "CMAC", "Poly1305", "Rabbit", "PBKDF2", "PBKDF1",
        "Scrypt", "HKDF", "RNCryptor", "Encryptor", "Decryptor",
    ]

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        guard unit.names.containsAny(Self.requiredNames) || unit.names.containsAnywhere(["kSecValueData"]) else { return }
        for site in Self.sites(in: file) {
            guard let value = site.value else { continue }
            sink.report("A literal is used as the \(site.role) of `\(site.api)`: it is the same in every copy of the app and readable from the binary. Generate the key at run time and keep it in the Keychain.",
                        in: file, at: site.literal.range,
                        evidence: Redaction.redact(file.line(site.literal.range.start.line).trimmed(of: " \t"), masking: [value]))
        }
    }

    struct Site {
        var literal: Expression
        var api: String
        var role: String
        /// The literal's text (nil for byte arrays).
        var value: String?
    }

    /// Every literal used as a key or secret in a crypto or keychain API.
    static func sites(in file: CodeFile) -> [Site] {
        let cache = LocalValuesCache(file: file)
        var result: [Site] = []
        var seen = Set<ObjectIdentifier>()
        func add(_ argument: Expression, _ api: String, _ role: String, _ context: WalkContext) {
            guard let literal = literalSource(argument, cache.values(for: context)),
                  seen.insert(ObjectIdentifier(literal)).inserted else { return }
            if let text = literal.stringValue {
                if SecretNaming.isPlaceholder(text) { return }
                result.append(Site(literal: literal, api: api, role: role, value: text))
            } else {
                result.append(Site(literal: literal, api: api, role: role, value: "…"))
            }
        }
        file.forEachExpression { expression, context in
            switch expression.kind {
            case .call(let callee, let arguments, let isMessageSend):
                guard let name = callee.name else { return }
                func labeled(_ label: String) -> Expression? { arguments.first { $0.label == label }?.value }
                func positional(_ index: Int) -> Expression? { index < arguments.count ? arguments[index].value : nil }
                if isMessageSend {
                    if name.hasPrefix("encryptData:") || name.hasPrefix("decryptData:"), let password = labeled("password") {
                        add(password, name, "password", context)
                    }
                    return
                }
                switch name {
                case "SymmetricKey": if let data = labeled("data") { add(data, "SymmetricKey(data:)", "key", context) }
                case "CCCrypt", "CCCryptorCreate", "CCCryptorCreateWithMode":
                    if let key = positional(name == "CCCryptorCreateWithMode" ? 6 : 3) { add(key, name, "key", context) }
                case "CCHmac", "CCHmacInit":
                    if let key = positional(1) { add(key, name, "key", context) }
                case "CCKeyDerivationPBKDF":
                    if let password = positional(1) { add(password, name, "password", context) }
                case "AES", "ChaCha20", "Blowfish", "HMAC", "CBCMAC", "CMAC", "Poly1305", "Rabbit":
                    if let key = labeled("key") { add(key, "\(name)(key:)", "key", context) }
                case "PBKDF2", "PBKDF1", "Scrypt", "HKDF":
                    if let password = labeled("password") { add(password, "\(name)(password:)", "password", context) }
                case "encrypt", "decrypt", "Encryptor", "Decryptor":
                    let password = labeled("withPassword") ?? labeled("password")
                    if let password, callee.nameChain.contains("RNCryptor") || name == "Encryptor" || name == "Decryptor" {
                        add(password, "RNCryptor", "password", context)
                    }
                default:
                    break
                }
            case .dictionaryLiteral(let pairs):
                for pair in pairs where DictionaryEntries.keyName(pair.key) == "kSecValueData" {
                    add(pair.value, "the keychain (kSecValueData)", "stored secret", context)
                }
            default:
                break
            }
        }
        return result
    }

    /// The literal a key expression is made from, through locals and byte/data conversions.
    static func literalSource(_ expression: Expression, _ values: LocalValues, depth: Int = 0) -> Expression? {
        guard depth < 8 else { return nil }
        let resolved = values.resolve(expression).strippedOfCasts
        switch resolved.kind {
        case .stringLiteral:
            return resolved.stringValue == nil ? nil : resolved
        case .arrayLiteral(let elements):
            return elements.count >= 8 && elements.allSatisfy({ if case .integerLiteral = $0.unwrapped.kind { true } else { false } }) ? resolved : nil
        case .member(let base?, let name) where ["utf8", "bytes", "UTF8String", "utf8CString"].contains(name):
            return literalSource(base, values, depth: depth + 1)
        case .call(let callee, let arguments, _):
            // `[UInt8]("...".utf8)`: the array type parses as an array literal callee.
            if case .arrayLiteral = callee.unwrapped.kind, let first = arguments.first {
                return literalSource(first.value, values, depth: depth + 1)
            }
            guard let name = callee.name else { return nil }
            switch name {
            case "data", "dataUsingEncoding:", "UTF8String", "cString", "cStringUsingEncoding:", "bytes":
                return callee.receiver.flatMap { literalSource($0, values, depth: depth + 1) }
            case "Data", "NSData", "Array", "init", "SymmetricKey", "dataWithBytes:length:", "initWithBase64EncodedString:options:":
                guard let first = arguments.first else { return nil }
                return literalSource(first.value, values, depth: depth + 1)
            default:
                return nil
            }
        default:
            return nil
        }
    }
}
