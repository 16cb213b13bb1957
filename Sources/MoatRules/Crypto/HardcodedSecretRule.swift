import MoatCore
import MoatSyntax

/// A string literal given to a place named for a secret (`SecretNaming`): a variable, constant or property
/// (`let apiKey = "…"`, `static NSString *const kAPIKey = @"…"`), an assignment (`config.password = "…"`),
/// a call argument labelled as one (`login(user:password:)`, `URLCredential(user:password:persistence:)`),
/// or a dictionary entry whose key names one (`"client_secret": "…"`). The value must look real
/// (`SecretNaming.looksLikeSecretValue`): placeholders, sentences, URLs, paths, localization keys and
/// storage-key names, words and identifiers (`refresh`, `accesstoken`, reverse-DNS names), mock and
/// preview values stay quiet; so do publishable client keys (`KnownCredential.publishable`). Literals in a known credential format
/// (MOAT-CRYP-201) or used as a crypto key (MOAT-CRYP-202) are left to those rules. Enum case raw values
/// (`CodingKeys`) are not values the app uses as secrets.
public struct HardcodedSecretRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-CRYP-203", slug: "hardcoded-secret",
        title: "Hard-coded password, token or API secret",
        severity: .medium, confidence: .low, cwe: [798, 259],
        masvs: ["MASVS-STORAGE-1", "MASVS-CRYPTO-2"], mastg: ["MASTG-TEST-0062", "MASTG-TEST-0052"],
        rationale: "Secrets in the source end up in the binary, where `strings` or a disassembler reveal them, and in every copy of the app. A shared password or client secret cannot be rotated without an update and cannot tell one user from another.",
        fix: "Remove the secret from the app: authenticate users and fetch short-lived tokens from your server, keep per-user secrets in the Keychain, and rotate the leaked value.",
        references: ["https://mas.owasp.org/MASTG/tests/ios/MASVS-CRYPTO/MASTG-TEST-0062/",
                     "https://cwe.mitre.org/data/definitions/798.html"],
        examples: [
            .triggering("Config.swift", """
            enum Config {
                static let apiKey = ↓"9f8e7d6c5b4a39281716f5e4d3c2b1a0"
                static let clientSecret = ↓"q8Zr2LmN4pXv7TbW"
            }
            func login(client: APIClient) {
                let password = ↓"Winter2024!"
                client.login(user: "admin", password: ↓"Adm1nPa55")
                let body = ["grant_type": "password", "client_secret": ↓"s3cr3tValue99"]
                client.session.authToken = ↓"eyJhbGciOiJIUzI1NiJ9.e30.ZRrHA1JJJW8opsbCGfG_HACGpVUMN_a9IV7pAx_Zmeo"
            }
            """),
            .triggering("Config.m", """
            static NSString *const kAPIKey = ↓@"9f8e7d6c5b4a39281716f5e4d3c2b1a0";
            - (void)login {
                [self.client loginWithUser:@"admin" password:↓@"Adm1nPa55"];
            }
            """),
            .nonTriggering("Keys.swift", """
            struct Token: Codable {
                let accessToken: String
                enum CodingKeys: String, CodingKey {
                    case accessToken = "access_token"
                    case refreshToken = "refresh_token"
                }
            }
            enum Keys {
                static let password = "password"
                static let authToken = "auth_token"
                static let passwordTitle = "login.password.title"
                static let tokenKey = "com.example.token"
            }
            let stripePublishableKey = "pk_live_51H8xQ2ExampleKeyValue00"
            let passwordHash = "5f4dcc3b5aa765d61d8327deb882cf99"
            let apiKey = "YOUR_API_KEY"
            let token = ""
            let passwordPlaceholder = "Enter your password"
            let sessionTokenHeader = "X-Session-Token"
            let tokenURL = "https://auth.example.com/oauth/token"
            let deviceToken = "a1b2c3d4e5f60718293a4b5c6d7e8f90"
            let isPasswordSet = "yes-it-is"
            """, note: "CodingKeys, storage and localization keys, publishable keys, hashes, placeholders, prompts, headers, URLs, APNs device tokens and flags."),
            .nonTriggering("Session.swift", """
            final class Session: NSObject, NSCoding {
                static let accessToken = "accesstoken"
                static let refreshToken = "refresh"
                static let backgroundSessionID = "com.Example.Reader.BackgroundSession"
                static let uploadSessionID = "com.example.app2.uploads"
                let revenueCatAPIKey = "appl_Qm4Tz8RwK2vLx9NbYc3Hd7JfPsA"
                let posthogApiKey = "phc_7Hq2Lx9VmR4tNb8WcZk3Ys6Pd1Jf5Ga0Ue2Ko9Mw"
                let previewToken = "preview-token-0001"
                let password = "mockPassword1"
                let bearer = "Bearer"
                static let jwtToken = "payments-ai-query/jwt"
                static let Password = "password="
                let startToken = "\\u{001A}"
                let pinPassword = "12345678"
            }
            """, note: "Key names and identifiers (words, reverse-DNS names), publishable client keys (MOAT-CRYP-201 reports them at low), mock and preview values: a secret needs a plausible value."),
            .triggering("Obfuscation.swift", """
            enum Obfuscator {
                static func xorCipher(_ data: Data, key: String) -> Data {
                    let keyBytes = Array(key.utf8)
                    return Data(data.enumerated().map { $0.element ^ keyBytes[$0.offset % keyBytes.count] })
                }
            }
            let stored = Obfuscator.xorCipher(Data(card.utf8), key: ↓"Lb!7xQ2#rT9v")
            """, note: "A literal key given to a cipher of the app's own (a function named encrypt, cipher, xor, obfuscate… with a key argument)."),
            .triggering("LBScrambler.m", """
            - (NSString *)storedPin:(NSString *)pin {
                return [self encryptString:pin withKey:↓@"kq8Zr2mW5tYh"];
            }
            """),
            .nonTriggering("Obfuscation.swift", """
            let sealed = Obfuscator.xorCipher(Data(card.utf8), key: keychain.deviceKey())
            let sorted = Sorter.sort(items, key: "createdAt")
            let decoded = Cipher.decrypt(blob, key: "")
            """, note: "A key read at run time, a sort key (no cipher), an empty key."),
        ] + HardcodedSecretRule.resourceExamples)

    public init() {}

    /// Words that make a function a cipher (its name split by `SecretNaming.words`): a key argument of one
    /// is an encryption key, whatever its label says.
    static let cipherWords: Set<String> = ["encrypt", "decrypt", "encipher", "decipher", "cipher", "crypt", "xor",
                                           "obfuscate", "deobfuscate", "scramble", "unscramble"]
    /// Labels of a cipher's key argument (lowercased).
    static let cipherKeyLabels: Set<String> = ["key", "withkey", "usingkey", "keystring", "bykey"]
    /// The name a cipher's key is judged under (`SecretNaming.kind(ofName:)`).
    static let cipherKeyName = "encryptionKey"

    static func isHomeMadeCipher(_ name: String) -> Bool {
        let head = name.split(separator: ":").first.map(String.init) ?? name
        return SecretNaming.words(head).contains { word in cipherWords.contains(word) || word.hasPrefix("encrypt") || word.hasPrefix("decrypt") }
    }

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        let handledElsewhere = HardcodedCryptoKeyRule.literals(in: unit)
        var reported = Set<ObjectIdentifier>()
        func consider(_ literal: Expression, named name: String, how: String, shown: String? = nil) {
            let bare = literal.strippedOfCasts
            guard let value = bare.stringValue, !handledElsewhere.contains(ObjectIdentifier(bare)),
                  let kind = SecretNaming.kind(ofName: name), SecretNaming.looksLikeSecretValue(value),
                  KnownCredential.match(value) == nil, !value.hasPrefix("pk_"),
                  reported.insert(ObjectIdentifier(bare)).inserted else { return }
            sink.report("A hard-coded \(kind.rawValue) is \(how) `\(shown ?? name)`: it ships in every copy of the app and can be read from the binary. Fetch it from your server or the Keychain instead.",
                        in: file, at: bare.range,
                        evidence: Redaction.redact(file.line(bare.range.start.line).trimmed(of: " \t"), masking: [value]))
        }
        file.walk { node, _ in
            switch node {
            case .declaration(.variable(let variable)):
                if let initializer = variable.initializer { consider(initializer, named: variable.name, how: "assigned to") }
            case .statement(let statement):
                switch statement.kind {
                case .variable(let names, _, let initializer?, _) where names.count == 1:
                    consider(initializer, named: names[0], how: "assigned to")
                case .assignment(let target, "=", let value):
                    if let name = target.nameChain.last { consider(value, named: name, how: "assigned to") }
                default:
                    break
                }
            case .expression(let expression):
                switch expression.kind {
                case .call(let callee, let arguments, _):
                    // The key of a cipher of the app's own (`xorCipher(data, key: "…")`, `[s encrypt:d withKey:@"…"]`).
                    let cipher = callee.name.flatMap { Self.isHomeMadeCipher($0) ? $0 : nil }
                    for argument in arguments {
                        guard let label = argument.label else { continue }
                        if let cipher, Self.cipherKeyLabels.contains(label.lowercased()) {
                            consider(argument.value, named: Self.cipherKeyName, how: "passed as", shown: "\(label)` of `\(cipher)")
                        }
                        consider(argument.value, named: label, how: "passed as")
                    }
                case .dictionaryLiteral(let pairs):
                    for pair in pairs {
                        if let key = pair.key.strippedOfCasts.stringValue { consider(pair.value, named: key, how: "stored under") }
                    }
                default:
                    break
                }
            case .declaration:
                break
            }
        }
    }
}
