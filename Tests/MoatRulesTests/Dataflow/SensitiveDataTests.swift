import Testing
import MoatCore
import MoatSyntax
@testable import MoatRules

private typealias Support = DataflowTestSupport

/// Sensitive data as a kind of flow (issue 14 item 2): the word-aware name table, the sources it starts
/// (names, the Keychain, secure fields, encoded types), and that it reaches only its own sinks.
struct SensitiveNamingTests {
    /// The pre-check's in-place byte search gives the answer of the plain search on the lowercased name.
    @Test func quickPreCheckMatchesLowercasedSearch() {
        let names = ["view", "data", "completion", "PASSWORD", "userPass", "PiN", "xKEy", "bearerToken", "JWT", "tokens",
                     "notification", "NR", "nR", "n", "", "o", "cvC", "SessionID", "mnemonics", "phrasebook", "uSSN",
                     "numberOfRows", "décodé", "clé", "Kelvin\u{212A}ey", "straße", "ToKe", "secre", "cre", "codex", "abc"]
        for name in names {
            let lower = name.lowercased()
            let expected = SensitiveNaming.sensitiveLetterSequences.contains { lower.contains($0) }
            #expect(SensitiveNaming.mayBeSensitive(name) == expected, "\(name)")
        }
        #expect(SensitiveNaming.mayBeSensitive("userPass"))
        #expect(!SensitiveNaming.mayBeSensitive("view"))
    }

    @Test func headWordsDenoteSecretsAndModifiersDoNot() {
        let secret = ["password", "userPassword", "newPassword", "confirm_password", "passcode", "pin", "userPIN", "pinCode", "apiKey",
                      "API_KEY", "kPrivateKey", "accessToken", "refresh_token", "authTokenString", "clientSecret", "credentials",
                      "cardNumber", "credit_card_number", "cvv", "ssn", "socialSecurityNumber", "otp", "verificationCode", "backupCode",
                      "seedPhrase", "mnemonic", "jwt", "txtPassword", "encryptionKey"]
        for name in secret { #expect(SensitiveNaming.kind(ofName: name) != nil, "\(name) should be sensitive") }
        let quiet = ["pinned", "spinner", "tokenizer", "keyPath", "passwordHint", "tokenCount", "secretLabel", "passwordField",
                     "passwordKey", "tokenExpiry", "passwordHash", "hashedPassword", "encryptedToken", "isPasswordSet", "showPassword",
                     "deviceToken", "nextPageToken", "notificationToken", "certificatePin", "mapPin", "phoneNumber", "countryCode",
                     "statusCode", "userId", "appAccountToken", "siteIDFromToken", "cacheKey", "secretsManager", "passwordPolicy", "passwordRequired", "tokenType",
                     "wrongCredentials", "invalidPassword", "syncToken", "observerToken", "sessionId"]
        for name in quiet { #expect(SensitiveNaming.kind(ofName: name) == nil, "\(name) should stay quiet") }
        #expect(SensitiveNaming.kind(ofName: "cardNumber") == .cardNumber)
        #expect(SensitiveNaming.kind(ofName: "pinCode") == .pin)
        #expect(SensitiveNaming.kind(ofName: "apiKey")?.phrase == "an API key")
    }

    @Test func aDeclaredTypeThatCannotHoldASecretQuietsTheName() {
        #expect(SensitiveNaming.kind(ofName: "token", type: "String?") == .token)
        #expect(SensitiveNaming.kind(ofName: "token", type: "AuthToken") == .token)
        #expect(SensitiveNaming.kind(ofName: "pin", type: "Int") == .pin)
        #expect(SensitiveNaming.kind(ofName: "token", type: "NSObjectProtocol?") == nil)
        #expect(SensitiveNaming.kind(ofName: "password", type: "UITextField") == nil)
        #expect(SensitiveNaming.kind(ofName: "token", type: "NotificationToken") == nil)
        #expect(SensitiveNaming.kind(ofName: "hasPassword", type: "Bool") == nil)
    }

    @Test func fieldsNamedForASecretAndGetterCalls() {
        #expect(SensitiveNaming.isSecretInputField("passwordTextField"))
        #expect(SensitiveNaming.isSecretInputField("pinField"))
        #expect(!SensitiveNaming.isSecretInputField("userNameField"))
        #expect(SensitiveSources.callReturnsSecret(baseName: "storedPassword", argumentCount: 0) == .password)
        #expect(SensitiveSources.callReturnsSecret(baseName: "getAccessToken", argumentCount: 0) == .token)
        #expect(SensitiveSources.callReturnsSecret(baseName: "savePassword", argumentCount: 1) == nil)
        #expect(SensitiveSources.callReturnsSecret(baseName: "pin", argumentCount: 1) == nil)
        #expect(SensitiveSources.callReturnsSecret(baseName: "hashPassword", argumentCount: 1) == nil)
    }
}

struct SensitiveFlowTests {
    @Test func aSecretReachesOnlyTheSensitiveSinks() {
        let flows = Support.flows("""
        func save(password: String, folder: URL) throws {
            try Data().write(to: folder.appendingPathComponent(password))
            UserDefaults.standard.set(password, forKey: "pw")
        }
        """)
        // A secret in a file name is no path traversal (nor a secret written: the file's content is not the
        // secret); stored in UserDefaults it is a defaults write.
        #expect(!flows.contains { $0.kind == .filePath })
        let written = flows.filter { !$0.taints(.value).isEmpty }
        #expect(written.map(\.kind) == [.defaultsWrite])
        #expect(written.first?.taints(.value).first?.source?.kind == .sensitiveName)
    }

    @Test func aSecretPassedToAHelperIsReportedAtTheHelpersSinkOnlyForItsOwnKind() {
        let flows = Support.flows("""
        func remove(_ name: String, in folder: URL) throws {
            try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
            print(name)
        }
        func logout(token: String, folder: URL) throws {
            try remove(token, in: folder)
        }
        """)
        #expect(flows.map(\.kind) == [.logWrite])
        #expect(flows.first.map { $0.range.start.line } == 3)
    }

    /// A method of the file is not the method of a framework-typed receiver of the same selector: the
    /// in-memory dictionary's `setObject:forKey:` is not the store's own `setObject:forKey:` (which writes
    /// UserDefaults), while a message to `self` or to an object of the file's class still is.
    @Test func aFrameworkTypedReceiverIsNotTheFilesNamesake() {
        let source = """
        @interface LBStore : NSObject
        @property NSUserDefaults *storage;
        @property NSMutableDictionary *identities;
        @end
        @implementation LBStore
        - (void)setObject:(id)value forKey:(NSString *)name {
            [_storage setObject:value forKey:name];
        }
        - (void)remember:(NSString *)password {
            [_identities setObject:password forKey:@"a"];
            NSMutableDictionary *local = [NSMutableDictionary new];
            [local setObject:password forKey:@"b"];
        }
        - (void)persist:(NSString *)password {
            [self setObject:password forKey:@"c"];
        }
        @end
        """
        let flows = Support.flows(source, name: "LBStore.m").filter { $0.kind == .defaultsWrite && !$0.taints(.value).isEmpty }
        // One write, reached from `persist:` through `self`; `remember:` writes only dictionaries.
        #expect(flows.count == 1)
        #expect(flows.first?.taints(.value).first?.steps.contains { $0.range.start.line == 15 } == true)
        #expect(!(flows.first?.taints(.value).contains { taint in taint.steps.contains { [10, 12].contains($0.range.start.line) } } ?? true))
    }

    @Test func keychainReadsAndSecureFieldsAreSources() throws {
        let flows = Support.flows("""
        final class LoginViewController {
            let passwordInput = UITextField()
            func viewDidLoad() {
                passwordInput.isSecureTextEntry = true
            }
            func submit(keychain: Keychain) {
                let stored = keychain["refresh"]
                UserDefaults.standard.set(stored, forKey: "r")
                var item: CFTypeRef?
                SecItemCopyMatching(query as CFDictionary, &item)
                print(item)
                NSLog("%@", passwordInput.text ?? "")
            }
        }
        """)
        let kinds = flows.compactMap { $0.taints(.value).first?.source?.kind }
        #expect(kinds == [.keychain, .keychain, .secureTextEntry])
        #expect(flows.allSatisfy { $0.taints(.value).first?.source?.confidence == .high })
    }

    @Test func aCodableTypeWithASecretPropertyIsSensitiveWhenEncoded() throws {
        let flows = Support.flows("""
        struct Session: Codable { var user: String; var refreshToken: String }
        struct Point: Codable { var x: Double }
        func persist(_ session: Session, _ point: Point, to url: URL) throws {
            try JSONEncoder().encode(session).write(to: url)
            try JSONEncoder().encode(point).write(to: url)
        }
        """, kind: .fileWrite)
        #expect(flows.map(\.range.start.line) == [4])
        let taint = try #require(flows.first?.taints(.value).first)
        #expect(taint.source?.description == "a `Session` value encoded by encode (its property `refreshToken` is a token)")
    }

    @Test func anObjectHoldsTheSecretStoredIntoItButNotItsOtherMembers() {
        let flows = Support.flows("""
        func store(pin: String, realm: Realm) throws {
            let user = User()
            user.pin = pin
            realm.add(user)
            print(user.name)
        }
        """)
        #expect(flows.map(\.kind) == [.databaseWrite])
    }

    @Test func aMemberOfACredentialsRecordAtAnyDepthIsNotTheSecret() {
        // `credentials.wpcom?.siteURL` is an address kept beside the credentials; `credentials.wpcom?.authToken`
        // is named as a secret itself.
        let flows = Support.flows("""
        func show(credentials: AuthenticatorCredentials) {
            guard let siteURL = credentials.wpcom?.siteURL else { return }
            print("site \\(siteURL)")
            print("token \\(credentials.wpcom?.authToken ?? "")")
        }
        """)
        #expect(flows.map { "\($0.kind) \($0.range.start.line)" } == ["logWrite 4"])
        // The same when the record was named so by a caller that passed it.
        let passed = Support.findings(SecretInLogRule.self, """
        func present(for credentials: AuthenticatorCredentials) {
            guard let siteURL = credentials.wpcom?.siteURL ?? credentials.wporg?.siteURL else { return }
            check(siteURL)
        }
        func check(_ siteURL: String) {
            print("site \\(siteURL)")
        }
        func start(wpcomCredentials: AuthenticatorCredentials) {
            present(for: wpcomCredentials)
        }
        """)
        #expect(passed.isEmpty, "\(passed.map(\.message))")
    }

    @Test func anHTTPClientRequestKeepsItsParametersButOtherCallsDoNot() {
        // Alamofire's request prints its parameters in its description (a cURL command); a call of the same
        // name on the app's own client is an unknown call, whose answer is not the secret it was given.
        let findings = Support.findings(SecretInLogRule.self, """
        func submit(password: String, client: APIClient) {
            let params = ["password": password]
            let request = Alamofire.request("https://example.org/login", method: .post, parameters: params)
            print(request.debugDescription)
            let answer = client.request(password)
            print(answer)
        }
        """)
        #expect(findings.map { "\($0.location.line):\($0.location.column)" } == ["4:5"], "\(findings.map(\.message))")
    }

    @Test func hashesAreNotTheSecret() {
        let findings = Support.findings(SecretInUserDefaultsRule.self, """
        import CryptoKit
        func remember(pin: String) {
            UserDefaults.standard.set(Data(SHA256.hash(data: Data(pin.utf8))), forKey: "pinDigest")
            UserDefaults.standard.set(hashPin(pin), forKey: "pinDigest")
            UserDefaults.standard.set(pin, forKey: "pin")
        }
        """)
        #expect(findings.map(\.location.line) == [5])
    }

    @Test func pasteboardAssignmentsAreSinks() {
        let findings = Support.findings(SecretOnPasteboardRule.self, """
        func copy(password: String, userName: String) {
            UIPasteboard.general.string = password
            UIPasteboard.general.string = userName
        }
        """)
        #expect(findings.map(\.location.line) == [2])
        #expect(findings.first?.message.hasPrefix("`password` (named as a password) is copied to the general pasteboard") == true)
    }
}
