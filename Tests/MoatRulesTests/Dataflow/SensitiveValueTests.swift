import Testing
import MoatCore
import MoatScan
import MoatSyntax
@testable import MoatRules

private typealias Support = DataflowTestSupport

/// Issue 23 item 2: a value is sensitive by evidence, or by its name **and** a type that can carry a
/// secret. Types, fields, call results, log privacy and sanitizers decide, not words.
struct SensitiveValueTests {
    static let sensitiveRules: Set<String> = ["MOAT-STOR-203", "MOAT-STOR-204", "MOAT-STOR-301", "MOAT-STOR-302", "MOAT-STOR-303", "MOAT-NET-301"]

    static func lines(_ files: [(name: String, content: String)]) throws -> [String] {
        try RuleExampleHarness.scan(files: files).findings.filter { sensitiveRules.contains($0.ruleId) }
            .map { "\($0.ruleId) \($0.location.path):\($0.location.line)" }.sorted()
    }

    // MARK: (a) the type of a value

    @Test func namesNumbersAndEnumsAreJudgedByTheirType() {
        #expect(SensitiveNaming.kind(ofName: "accessToken", type: "Int") == nil)
        #expect(SensitiveNaming.kind(ofName: "password", type: "Int64") == nil)
        #expect(SensitiveNaming.kind(ofName: "pin", type: "Int") == .pin)
        #expect(SensitiveNaming.kind(ofName: "cvv", type: "NSNumber") == .cardCode)
        #expect(SensitiveNaming.kind(ofName: "updateCredentials") == nil)
        #expect(SensitiveNaming.kind(ofName: "savePassword") == nil)
        #expect(SensitiveNaming.kind(ofName: "refreshToken") == .token)
        #expect(SensitiveNaming.kind(ofName: "resetToken") == .token)
        #expect(SensitiveNaming.kind(ofName: "updatedToken") == .token)
        #expect(SensitiveNaming.isScalarResult("OSStatus"))
        #expect(SensitiveNaming.isScalarResult("Bool"))
        #expect(SensitiveNaming.isScalarResult("Error?"))
        #expect(!SensitiveNaming.isScalarResult("String"))
        #expect(!SensitiveNaming.isScalarResult("Data?"))
    }

    @Test func enumsDatesBooleansAndLiteralsAreNoSecrets() throws {
        let found = try Self.lines([("App/SecretKinds.swift", """
        import Foundation
        enum AvailableSecrets: String { case password, pin }
        final class Settings {
            var availableSecrets: AvailableSecrets = .password
            var tokenValidTill: Date = Date()
            func persist(secret: String) {
                UserDefaults.standard.set(availableSecrets.rawValue, forKey: "kind")
                UserDefaults.standard.set(tokenValidTill, forKey: "till")
                let secretEnabled = true
                UserDefaults.standard.set(secretEnabled, forKey: "enabled")
                let passwordAttempts = 3
                UserDefaults.standard.set(passwordAttempts, forKey: "attempts")
                let secretKind: AvailableSecrets = .pin
                print(secretKind)
                UserDefaults.standard.set(secret, forKey: "secret")
            }
        }
        """)])
        #expect(found == ["MOAT-STOR-203 App/SecretKinds.swift:15"])
    }

    // MARK: (b) field sensitivity

    @Test func otherFieldsOfAStructThatHoldsASecretAreClean() throws {
        let found = try Self.lines([
            ("App/AccountStore.swift", """
            import Foundation
            struct Session {
                let owner: String
                let apiKey: String
            }
            final class AccountStore {
                var session: Session?
                func remember(_ session: Session, passcode: String) {
                    UserDefaults.standard.set(session.owner, forKey: "owner")
                    print("session for \\(session.owner)")
                    UserDefaults.standard.set(session.apiKey, forKey: "key")
                }
                func restore(token: String) {
                    let current = Session(owner: "me", apiKey: token)
                    UserDefaults.standard.set(current.owner, forKey: "owner")
                    UserDefaults.standard.set(current.apiKey, forKey: "key")
                }
            }
            """),
        ])
        #expect(found == ["MOAT-STOR-203 App/AccountStore.swift:11", "MOAT-STOR-203 App/AccountStore.swift:16"])
    }

    @Test func fieldsOfAValueNamedAsASecretAreNotItsText() throws {
        let findings = Support.findings(SecretInLogRule.self, """
        func describe(token: Token, password: String, apiKey: APIKey) {
            print("fee in \\(token.coin.code), \\(token.decimals) decimals")
            print("expires \\(apiKey.expiresAt)")
            print("bytes \\(password.utf8)")
            print("key \\(apiKey.rawValue)")
        }
        """)
        #expect(findings.map(\.location.line) == [4, 5])
    }

    // MARK: (c) what a call returns after consuming a secret

    @Test func statusesBooleansAndPublicKeysReturnedAfterASecretAreClean() throws {
        let found = try Self.lines([
            ("App/Vault.swift", """
            import Foundation
            import Security
            import CryptoKit
            final class Vault {
                func store(password: String) {
                    let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                                kSecValueData as String: Data(password.utf8)]
                    let status = SecItemAdd(query as CFDictionary, nil)
                    print("SecItemAdd \\(status)")
                    UserDefaults.standard.set(Int(status), forKey: "lastStatus")
                    let accepted = Checker.accepts(password: password)
                    UserDefaults.standard.set(accepted, forKey: "accepted")
                    let strength = Checker.strength(of: password)
                    print("strength \\(strength)")
                    print("password \\(password)")
                }
                func share(privateKey: SecKey, signingKey: P256.Signing.PrivateKey) {
                    let publicKey = SecKeyCopyPublicKey(privateKey)
                    print("public key \\(String(describing: publicKey))")
                    let signingPublic = signingKey.publicKey
                    print("verify with \\(signingPublic)")
                }
            }
            """),
            ("App/Checker.swift", """
            enum Strength { case weak, strong }
            enum Checker {
                static func accepts(password: String) -> Bool { password.count >= 12 && password != "password" }
                static func strength(of secret: String) -> Strength { secret.count > 16 ? .strong : .weak }
            }
            """),
        ])
        #expect(found == ["MOAT-STOR-302 App/Vault.swift:15"])
    }

    // MARK: (d) logging follows the platform's privacy rules

    @Test func osLogConversionsArePrivateUnlessMarkedPublic() throws {
        let findings = Support.findings(SecretInLogRule.self, """
        import os
        func report(user: String, token: String) {
            os_log("%s", token)
            os_log("%{public}@ signed in with %@", user, token)
            os_log("%{public}@ signed in with %{private}@", log: .default, type: .info, user, token)
            os_log("%d attempts, %{public}@", 3, token)
            os_log(.info, log: .default, "%{ public }s %{public}s", user, token)
        }
        """)
        #expect(findings.map(\.location.line) == [6, 7])
        #expect(SecretInLogRule.conversions("%d%%%{public}@ %*.*s %lld %{private,public}s") == [false, true, false, false, false, false, true])
    }

    @Test func aLoggerDeclaredAsApplesIsPrivateByDefaultWhateverItsName() throws {
        let findings = Support.findings(SecretInLogRule.self, """
        import os
        final class AuthService {
            private let log = Logger(subsystem: "com.example.bank", category: "auth")
            static let Log: Logger = Logger(subsystem: "com.example.bank", category: "session")
            func signedIn(token: String) {
                log.info("token \\(token)")
                AuthService.Log.debug("token \\(token)")
                log.info("token \\(token, privacy: .public)")
            }
        }
        """)
        #expect(findings.map(\.location.line) == [8])
    }

    @Test func otherLoggersAndPrintsLeak() throws {
        let findings = Support.findings(SecretInLogRule.self, """
        import CocoaLumberjack
        final class AuthService {
            let log = SwiftyBeaver.self
            func signedIn(token: String) {
                log.info("token \\(token)")
                DDLogInfo("token \\(token)")
                NSLog("token %@", token)
                debugPrint(token)
            }
        }
        """)
        #expect(findings.map(\.location.line) == [5, 6, 7, 8])
    }
}

/// Sanitizers by meaning and recall through property wrappers (issue 23 item 2 (e), issue 24 item 1).
struct SensitiveSanitizerAndWrapperTests {
    @Test func aHomeMadeCipherInAnotherFileIsJudgedByItsBody() throws {
        let found = try SensitiveValueTests.lines([
            ("App/Obfuscator.swift", """
            import Foundation
            enum Obfuscator {
                static func encrypt(_ text: String) -> String {
                    String(text.reversed())
                }
            }
            func obfuscate(_ text: String) -> String { text }
            """),
            ("App/TokenStore.swift", """
            import Foundation
            import CryptoKit
            final class TokenStore {
                func save(token: String, key: SymmetricKey) throws {
                    UserDefaults.standard.set(Obfuscator.encrypt(token), forKey: "t1")
                    UserDefaults.standard.set(obfuscate(token), forKey: "t2")
                    let sealed = try AES.GCM.seal(Data(token.utf8), using: key)
                    UserDefaults.standard.set(sealed.combined, forKey: "t3")
                    UserDefaults.standard.set(Data(SHA256.hash(data: Data(token.utf8))), forKey: "t4")
                }
            }
            """),
        ])
        #expect(found == ["MOAT-STOR-203 App/TokenStore.swift:5", "MOAT-STOR-203 App/TokenStore.swift:6"])
    }

    @Test func secretsStoredThroughUserDefaultsWrappers() throws {
        let found = try SensitiveValueTests.lines([
            ("App/Wrappers/Stored.swift", """
            import Foundation
            @propertyWrapper
            struct Stored<Value> {
                let key: String
                let fallback: Value
                init(_ key: String, fallback: Value) { self.key = key; self.fallback = fallback }
                var wrappedValue: Value {
                    get { UserDefaults.standard.object(forKey: key) as? Value ?? fallback }
                    set { UserDefaults.standard.set(newValue, forKey: key) }
                }
            }
            final class Preferences {
                @Stored("sessionToken", fallback: "") var sessionToken: String
                @Stored("theme", fallback: "dark") var theme: String
                @Stored("hasPasscode", fallback: false) var hasPasscode: Bool
            }
            """),
            ("App/Settings.swift", """
            import Foundation
            final class Settings {
                @UserDefault("password", defaultValue: "") var password: String
                @UserDefault("passwordLength", defaultValue: 0) var passwordLength: Int
                @UserDefault("token", defaultValue: Date()) var tokenDate: Date
                @Published var token: String = ""
                @UserDefault(key: "settingsScreenShowChangePassword", defaultValue: BuildSettings.showChangePassword)
                var settingsScreenShowChangePassword
            }
            """),
        ])
        #expect(found == ["MOAT-STOR-203 App/Settings.swift:3", "MOAT-STOR-203 App/Wrappers/Stored.swift:13"])
    }
}
