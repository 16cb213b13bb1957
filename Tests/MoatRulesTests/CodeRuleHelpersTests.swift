import Foundation
import Testing
import MoatCore
import MoatRules
import MoatScan
import MoatSyntax

/// The shared heuristics behind the code rules (secret names, credential formats, redaction, local values,
/// guard facts, file locations).
struct SecretHeuristicsTests {
    @Test(arguments: [
        ("apiKey", SecretNaming.Kind.apiKey), ("kAPIKey", .apiKey), ("API_KEY", .apiKey), ("x-api-key", .apiKey),
        ("password", .password), ("userPassword", .password), ("AUTH_TOKEN", .token), ("accessToken", .token),
        ("refresh_token", .token), ("authTokenString", .token), ("clientSecret", .clientSecret),
        ("client_secret", .clientSecret), ("sessionID", .sessionId), ("session_id", .sessionId),
        ("privateKey", .privateKey), ("encryptionKey", .encryptionKey), ("credentials", .credential),
        ("apikey", .apiKey), ("secretKey", .secret),
    ])
    func secretNames(name: String, kind: SecretNaming.Kind) {
        #expect(SecretNaming.kind(ofName: name) == kind, "\(name)")
    }

    @Test(arguments: [
        "passwordKey", "tokenKey", "passwordHash", "tokenExpiry", "tokenURL", "passwordField", "isTokenValid",
        "hasPassword", "rememberPassword", "deviceToken", "pushToken", "nextPageToken", "publicKey",
        "stripePublishableKey", "passwordPlaceholder", "sessionTokenHeader", "userName", "key", "monkey", "tokenizer",
        "passwordLength", "csrfTokenName", "sessionKey", "accessKeyId",
    ])
    func notSecretNames(name: String) {
        #expect(SecretNaming.kind(ofName: name) == nil, "\(name)")
    }

    @Test func secretValuesAndPlaceholders() {
        for value in ["Winter2024!", "q8Zr2LmN4pXv7TbW", "9f8e7d6c5b4a39281716f5e4d3c2b1a0", "hunter22",
                      "eyJhbGciOiJIUzI1NiJ9.e30.ZRrHA1JJJW8opsbCGfG_HACGpVUMN_a9IV7pAx_Zmeo", "QmTzRwKvLxNbYcHdJf"] {
            #expect(SecretNaming.looksLikeSecretValue(value), "\(value)")
        }
        for value in ["", "YOUR_API_KEY", "<token>", "xxx", "xxxxxxxx", "password", "Enter your password", "auth_token",
                      "login.password.title", "https://auth.example.com/token", "/var/mobile/token", "%@", "abc",
                      "{{secret}}", "changeme", "refresh", "accesstoken", "Bearer", "com.Example.Reader.BackgroundSession",
                      "com.example.app2.uploads", "mockPassword1", "preview-token-0001", "fakeToken123", "yes-it-is"] {
            #expect(!SecretNaming.looksLikeSecretValue(value), "\(value)")
        }
    }

    @Test func knownCredentialFormats() throws {
        let pem = "-----BEGIN RSA " + "PRIVATE KEY-----\nMIIEowIBAAKCAQEA1x2y3z4ABCDEFGHIJ\n-----END RSA PRIVATE KEY-----"
        #expect(KnownCredential.match(pem)?.severity == .critical)
        #expect(KnownCredential.match("-----BEGIN … PRIVATE KEY-----[redacted]") == nil, "a header without a key body")
        #expect(KnownCredential.match("-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----") == nil)
        #expect(KnownCredential.match("AKIA" + "2E0A8F3B244C9986")?.description == "an AWS access key id")
        #expect(KnownCredential.match("AKIA" + "2E0A8F3B244C998") == nil, "too short")
        #expect(KnownCredential.match("ghp_" + "1A2b3C4d5E6f7G8h9I0jK1lM2nO3pQ4rS5tU")?.confidence == .high)
        #expect(KnownCredential.match("xoxb-" + "2410938523-1390238504-AbCdEfGhIjKl") != nil)
        #expect(KnownCredential.match("sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc")?.severity == .critical)
        #expect(KnownCredential.match("sk_live_") == nil)
        let google = try #require(KnownCredential.match("AIza" + "SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q"))
        #expect(google.severity == .low && google.confidence == .low)
        // Publishable client keys: reported at low, as keys to restrict, not as leaked secrets.
        let publishable = try #require(KnownCredential.match("pk_live_51H8xQ2ExampleKeyValue00"))
        #expect(publishable.isPublishable && publishable.severity == .low && publishable.confidence == .low)
        #expect(KnownCredential.match("appl_" + "Qm4Tz8RwK2vLx9NbYc3Hd7JfPsA")?.isPublishable == true)
        #expect(KnownCredential.match("phc_" + "7Hq2Lx9VmR4tNb8WcZk3Ys6Pd1Jf5Ga0Ue2Ko9Mw")?.isPublishable == true)
        #expect(KnownCredential.match("sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc")?.isPublishable == false)
        #expect(KnownCredential.match("appl_") == nil, "a bare prefix")
    }

    @Test func redactionMasksGivenValuesAndKnownFormats() {
        // Test vectors are built by concatenation so that Moat's scan of its own tests does not report them.
        let aws = "AKIA" + "2E0A8F3B244C9986"
        let line = #"let password = "Winter2024!" // and "# + "\"" + aws + "\""
        let redacted = Redaction.redact(line, masking: ["Winter2024!"])
        #expect(!redacted.contains("Winter2024!"))
        #expect(!redacted.contains(aws))
        #expect(redacted.contains("Wint…[redacted]"))
        #expect(Redaction.redact("no secrets here", masking: [""]) == "no secrets here")
    }

    @Test func redactionLeavesIdentifiersAndOrdinaryStrings() {
        // A value that an identifier starts with: the identifier stays, the literal is masked.
        #expect(Redaction.redact(#"refreshToken: "refresh9Q""#, masking: ["refresh9Q"]) == #"refreshToken: "refr…[redacted]""#)
        #expect(Redaction.redact(#"let refresh9Qx = "refresh9Q""#, masking: ["refresh9Q"]) == #"let refresh9Qx = "refr…[redacted]""#)
        // A value standing alone outside quotes (a plist value, an unquoted argument) is masked.
        #expect(Redaction.redact("password = Adm1nPa55;", masking: ["Adm1nPa55"]) == "password = Adm1…[redacted];")
        // Ordinary strings: identifiers, notification names, reverse-DNS names, sentences, URLs.
        for text in [#"NotificationCenter.default.post(name: .init("com.example.reader.sessionDidRefresh2"), object: nil)"#,
                     #"tableView.register(Cell.self, forCellReuseIdentifier: "ArticleListTableViewCell2")"#,
                     #"let key = "UIApplicationLaunchOptionsRemoteNotification""#,
                     #"label.text = "Your session expired, please sign in again""#,
                     #"let base = "https://api.example.com/v2/articles?page=20""#] {
            #expect(Redaction.redact(text) == text, "\(text)")
        }
        // Secrets still are masked without being named: long random tokens, hex keys, known formats.
        let hex = "9f8e7d6c5b4a3928" + "1716f5e4d3c2b1a0"
        #expect(Redaction.redact("let k = \"" + hex + "\"") == "let k = \"9f8e…[redacted]\"")
        let random = "q8Zr2LmN4pXv" + "7TbWk3Yd9Hs1"
        #expect(Redaction.redact("x(\"" + random + "\")") == "x(\"q8Zr…[redacted]\")")
    }
}

struct CodeRuleEvidenceTests {
    /// No finding of the secret rules may carry the secret itself, in any output field.
    @Test func secretsNeverReachFindings() throws {
        let secrets = ["Winter2024!", "Adm1nPa55", "9f8e7d6c5b4a39281716f5e4d3c2b1a0", "s3cr3t-k3y-f0r-aes-gcm-256-bits!",
                       "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc", "MIIEowIBAAKCAQEA1x2y3z4ABCDEFGHIJ"]
        let source = """
        let password = "Winter2024!"
        func login(client: Client) { client.login(user: "admin", password: "Adm1nPa55") }
        enum Config { static let apiKey = "9f8e7d6c5b4a39281716f5e4d3c2b1a0" }
        let keyData = Data("s3cr3t-k3y-f0r-aes-gcm-256-bits!".utf8)
        let key = SymmetricKey(data: keyData)
        let stripe = "sk_live_4eC39HqLyjWDarjtT1zdp7dc"
        let pem = "-----BEGIN PRIVATE KEY-----\\nMIIEowIBAAKCAQEA1x2y3z4ABCDEFGHIJ\\n-----END PRIVATE KEY-----"
        """
        let result = try RuleExampleHarness.scan(files: [("Secrets.swift", source)])
        let rules = Set(result.findings.map(\.ruleId))
        #expect(rules.isSuperset(of: ["MOAT-CRYP-201", "MOAT-CRYP-202", "MOAT-CRYP-203"]))
        #expect(result.findings.filter { $0.ruleId.hasPrefix("MOAT-CRYP-2") }.count == 6)
        let encoded = String(decoding: try JSONEncoder().encode(result.findings), as: UTF8.self)
        for secret in secrets { #expect(!encoded.contains(secret), "\(secret) leaked into a finding") }
    }

    /// The evidence masks the secret value, never the identifier that holds it.
    @Test func evidenceKeepsIdentifiers() throws {
        let source = """
        struct Session {
            func store(_ keychain: Keychain) { keychain.password = "Pa55w0rd9"; keychain.lastPa55w0rd9Check = 0 }
            func login(client: Client) { client.login(user: "admin", password: "Adm1nPa55") }
        }
        """
        let result = try RuleExampleHarness.scan(files: [("Session.swift", source)])
        let findings = result.findings.filter { $0.ruleId == "MOAT-CRYP-203" }.sorted { $0.location.line < $1.location.line }
        #expect(findings.map(\.evidence) == [#"func store(_ keychain: Keychain) { keychain.password = "Pa55…[redacted]"; keychain.lastPa55w0rd9Check = 0 }"#,
                                            #"func login(client: Client) { client.login(user: "admin", password: "Adm1…[redacted]") }"#])
        let encoded = String(decoding: try JSONEncoder().encode(result.findings), as: UTF8.self)
        #expect(!encoded.contains("\"Pa55w0rd9") && !encoded.contains("Adm1nPa55"))
    }
}

/// The snippets of the Italian reference (ios-tls-pinning-and-backups.it.txt), as written and fixed.
struct ItalianReferenceTests {
    static let delegate = """
    func urlSession(_ session: URLSession, didReceive challenge: URLAuthenticationChallenge, completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {

        if challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust {
            let serverTrust:SecTrust = challenge.protectionSpace.serverTrust!

            func acceptServerTrust() {
                let credential:URLCredential = URLCredential(trust: serverTrust)
                challenge.sender?.use(credential, for: challenge)
                completionHandler(.useCredential, URLCredential(trust: challenge.protectionSpace.serverTrust!))
            }

            let success = SSLTrustManager.shouldTrustServerTrust(serverTrust, forCert: "Server_Public_SSL_Cert")
            if success {
                acceptServerTrust()
                return
            }
        }
        else if challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodClientCertificate {
            completionHandler(.rejectProtectionSpace, nil);
            return
        }
        completionHandler(.cancelAuthenticationChallenge, nil)
    }
    """

    static let trustManager = """
    @implementation SSLTrustManager
    + (BOOL)shouldTrustServerTrust:(SecTrustRef)serverTrust forCert:(NSString*)certName {
    // Load up the bundled certificate.
    NSString *certPath = [[NSBundle mainBundle] pathForResource:certName ofType:@"der"];
    NSData *certData = [[NSData alloc] initWithContentsOfFile:certPath];
    CFDataRef certDataRef = (__bridge_retained CFDataRef)certData;
    SecCertificateRef cert = SecCertificateCreateWithData(NULL, certDataRef);

    // Establish a chain of trust anchored on our bundled certificate.
    CFArrayRef certArrayRef = CFArrayCreate(NULL, (void *)&cert, 1, NULL);
    SecTrustSetAnchorCertificates(serverTrust, certArrayRef);

    // Verify that trust.
    SecTrustResultType trustResult;
    SecTrustEvaluate(serverTrust, &trustResult);

    // Clean up.
    CFRelease(certArrayRef);
    CFRelease(cert);
    CFRelease(certDataRef);

    // Did our custom trust chain evaluate successfully?
    return trustResult == kSecTrustResultUnspecified;
    }
    @end
    """

    static let backup = """
    func excludeStore() {
        let urls = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)
        let baseURL = urls[urls.count-1];

        let bundleIdentifier = Bundle.main.object(forInfoDictionaryKey: "CFBundleIdentifier") as! String
        let pathURL = baseURL.appendingPathComponent(bundleIdentifier)
        let persistentStoreDirectoryPath = pathURL.path
        if !FileManager.default.fileExists(atPath: persistentStoreDirectoryPath) {
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: nil)
            }catch {
                //handle error
            }
        }
        let dirURL = URL.init(fileURLWithPath: persistentStoreDirectoryPath, isDirectory: true)
        do {
            try (dirURL as NSURL).setResourceValue((true), forKey: .isExcludedFromBackupKey)
        } catch {
            //handle error
        }
    }
    """

    @Test func pinningDelegateAsWrittenAnswersTwiceButOnlyAfterItsPinCheck() throws {
        let result = try RuleExampleHarness.scan(files: [("Delegate.swift", Self.delegate)])
        let twice = result.findings.filter { $0.ruleId == "MOAT-NET-204" }
        #expect(twice.map { [$0.location.line, $0.location.column] } == [[8, 13]])
        #expect(twice.first?.message.contains("completionHandler") == true)
        #expect(!result.findings.contains { $0.ruleId == "MOAT-NET-201" }, "acceptance is guarded by the pin check")
        #expect(result.findings.contains { $0.ruleId == "MOAT-NET-206" && $0.location.line == 1 }, "listed as custom trust handling")
    }

    @Test func pinningDelegateWithoutItsCheckAcceptsEverything() throws {
        let unguarded = Self.delegate.replacingOccurrences(of: "if success {", with: "if true {")
        let result = try RuleExampleHarness.scan(files: [("Delegate.swift", unguarded)])
        let accepted = result.findings.filter { $0.ruleId == "MOAT-NET-201" }.map(\.location.line).sorted()
        #expect(accepted == [8, 9], "both answers inside acceptServerTrust() are now unguarded")
    }

    @Test func trustManagerAsWrittenIsDeprecatedAndChecksOnlyUnspecified() throws {
        let result = try RuleExampleHarness.scan(files: [("SSLTrustManager.m", Self.trustManager)])
        let deprecated = try #require(result.findings.first { $0.ruleId == "MOAT-NET-202" })
        #expect(deprecated.location.line == 15 && deprecated.location.column == 1)
        #expect(deprecated.message.contains("OSStatus is ignored"))
        let unspecified = try #require(result.findings.first { $0.ruleId == "MOAT-NET-203" })
        #expect(unspecified.location.line == 23 && unspecified.location.column == 8)
        #expect(unspecified.severity == .medium && unspecified.message.contains("uninitialized"))
        #expect(!result.findings.contains { $0.ruleId == "MOAT-NET-205" },
                "SecTrustSetAnchorCertificates alone already restricts evaluation to the given anchors")
    }

    @Test func backupSnippetExcludesItsFolderEvenAsWritten() throws {
        // The snippet as written (it creates the folder at an undefined `path`) and a vault store next to it.
        let store = Self.backup + """

        func addStore(_ coordinator: NSPersistentStoreCoordinator) throws {
            let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
            try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil,
                                               at: support.appendingPathComponent("Vault.sqlite"), options: nil)
        }
        """
        let excluded = try RuleExampleHarness.scan(files: [("Store.swift", store)])
        #expect(!excluded.findings.contains { $0.ruleId == "MOAT-STOR-206" })
        #expect(excluded.findings.contains { $0.ruleId == "MOAT-STOR-202" }, "the store still lacks file protection")
        // Without the exclusion the vault store is reported, with the advisory wording.
        let withoutExclusion = store.replacingOccurrences(of: "try (dirURL as NSURL).setResourceValue((true), forKey: .isExcludedFromBackupKey)", with: "")
        let included = try RuleExampleHarness.scan(files: [("Store.swift", withoutExclusion)])
        let finding = try #require(included.findings.first { $0.ruleId == "MOAT-STOR-206" })
        #expect(finding.message.contains("Vault.sqlite") && finding.message.contains("advisory"))
    }
}

struct LocalValuesTests {
    func parse(_ source: String) -> CodeFile { SwiftFrontEnd.parse(source: source, path: "T.swift") }

    @Test func followsLocalsPropertiesAndShadowing() throws {
        let file = parse("""
        final class Screen {
            let base = FileManager.default.temporaryDirectory
            func show(_ url: URL) {
                let docs = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
                let url = url.appendingPathComponent("page.html")
                use(docs, url, base)
            }
        }
        """)
        let (function, owner) = try #require(file.allFunctions.first)
        let values = LocalValues(function: function, type: owner, file: file)
        let call = try #require(function.body?.allExpressions.first { $0.name == "use" })
        let arguments = call.arguments.map(\.value)
        #expect(FileLocations.locate(arguments[0], values) == FileLocation(base: .documents, depth: 0, isBuiltFromData: false))
        // `url` in its own initializer is the parameter, so the shadowing binding does not loop.
        #expect(values.resolve(arguments[1]).name == "appendingPathComponent")
        #expect(FileLocations.locate(arguments[1], values) == nil, "a parameter has no known location")
        #expect(FileLocations.locate(arguments[2], values)?.base == .temporary)
        #expect(values.isParameter("url") == false && values.declaredType(of: "url") == "URL")
    }

    @Test func fileLocationsCountComponents() throws {
        let file = parse("""
        func f(name: String) {
            let page = Bundle.main.url(forResource: "index", withExtension: "html")!
            let nested = Bundle.main.url(forResource: "index", withExtension: "html", subdirectory: "help/v2")!
            let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first!
            use(page.deletingLastPathComponent(), nested.deletingLastPathComponent(), support.appendingPathComponent(name),
                URL(fileURLWithPath: "/"), support.appendingPathComponent("a/../.."))
        }
        """)
        let (function, owner) = try #require(file.allFunctions.first)
        let values = LocalValues(function: function, type: owner, file: file)
        let call = try #require(function.body?.allExpressions.first { $0.name == "use" })
        let locations = call.arguments.map { FileLocations.locate($0.value, values) }
        #expect(locations[0]?.base == .bundle && locations[0]?.isWholeDirectory == true)
        #expect(locations[1]?.depth == 2 && locations[1]?.isWholeDirectory == false)
        #expect(locations[2]?.isBuiltFromData == true && locations[2]?.base == .applicationSupport)
        #expect(locations[3]?.base == .root && locations[3]?.isWholeDirectory == true)
        #expect(locations[4]?.depth == -1 && locations[4]?.isWholeDirectory == true, "`..` climbs out of the folder")
    }
}

struct GuardFactsTests {
    func facts(of target: String, in source: String) throws -> [(String, Bool)] {
        let file = SwiftFrontEnd.parse(source: source, path: "T.swift")
        let function = try #require(file.allFunctions.first?.function)
        var result: [(String, Bool)]?
        GuardedWalk.walk(function.body?.statements ?? []) { expression, facts in
            if result == nil, expression.name == target {
                result = facts.map { (file.text($0.condition.range), $0.holds) }
            }
        }
        return try #require(result, "\(target) not visited")
    }

    @Test func guardsIfsAndEarlyExits() throws {
        let source = """
        func f(a: Bool, b: Bool, c: Bool) {
            guard a else { return }
            if !b { return }
            if c { inside() } else { outside() }
            after()
            let x = c ? yes() : no()
        }
        """
        let names: (String) throws -> [String] = { try self.facts(of: $0, in: source).map { "\($0.0)=\($0.1)" } }
        #expect(try names("inside") == ["a=true", "b=true", "c=true"])
        #expect(try names("outside") == ["a=true", "b=true", "c=false"])
        #expect(try names("after") == ["a=true", "b=true"])
        #expect(try names("no") == ["a=true", "b=true", "c=false"])
    }

    @Test func closuresInheritTheirFacts() throws {
        let source = """
        func f(ok: Bool) {
            if ok { DispatchQueue.main.async { run() } }
        }
        """
        #expect(try facts(of: "run", in: source).map(\.0) == ["ok"])
    }
}
