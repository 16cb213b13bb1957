import MoatCore
import MoatSyntax

// Sources of the `sensitive` kind of flow (issue 14 item 2): values named as secrets or personal data,
// values read from the Keychain, the text of secure text fields, values of types that hold a secret when
// they are encoded. Registered in `TaintSources.all` by one line; the sinks are in `Sinks+Sensitive.swift`.

/// What a sensitive name denotes, for messages ("a password", "a card number").
public enum SensitiveDataKind: String, Sendable, Hashable {
    case password, pin = "PIN", token, apiKey = "API key", privateKey = "private key", secret, credential
    case sessionId = "session id", encryptionKey = "encryption key", cardNumber = "card number"
    case cardCode = "card security code", nationalId = "national identity number", oneTimeCode = "one-time code"
    case recoveryPhrase = "recovery phrase"

    /// "a password", "an API key".
    public var phrase: String {
        let first = rawValue.first.map { "aeiouAEIO".contains($0) } ?? false
        return (first && self != .oneTimeCode ? "an " : "a ") + rawValue
    }
}

/// Which names denote a secret or personal datum. A name is split into words (`SecretNaming.words`:
/// camelCase, snake_case, `kConstant`) and judged by its **head word**, the last one, after dropping
/// words that only say how the value is held (`…String`, `…Value`, `…Data`, `…Text`):
///
/// | Head word | Sensitive when | Quiet |
/// |---|---|---|
/// | password, passwd, passphrase, passcode, secret, token, credential(s), creds, bearer, jwt, otp, cvv, cvc, csc, ssn, mnemonic, pincode, and the written-together compounds of `SecretNaming.headWords` (`apikey`, `accesstoken`...) | always | token after a qualifier that makes it bookkeeping: device, push, fcm, apns, voip, page, next, continuation, cancellation, notification, registration, sync, change, observer, subscription, cancellable, lock, request, resume, cursor, idempotency... (`deviceToken`, `nextPageToken`, `notificationToken`); StoreKit's `appAccountToken`; a value taken from a token (`siteIDFromToken`) |
/// | pin | always | after map, location, annotation, drop, marker, certificate, cert, ssl, tls, public, key, spki, hash, sha256, host, domain, message, post, chat, top (`mapPin`, `certificatePin`) |
/// | key(s) | after api, private, secret, encryption, signing, master, aes, hmac, crypto, cipher, shared, symmetric, license, consumer (`SecretNaming.keyCompounds`) | any other key: `keyPath`, `cacheKey`, `passwordKey` (the name a password is stored under) |
/// | number, num, no | after card, cc, credit, passport, ssn, iban, or social security | `phoneNumber`, `pageNumber`, `buildNumber` |
/// | code | after pin, security, verification, otp, totp, passcode, auth, authorization, recovery, backup, cvv | `countryCode`, `statusCode`, `errorCode` |
/// | phrase | after pass, seed, recovery, secret | |
/// | id | never: a session id in an app names an analytics or encryption session | `sessionId`, `userId`, `tokenId` |
///
/// Anything else as head word is metadata about a secret, not the secret: `passwordHint`, `tokenCount`,
/// `secretLabel`, `passwordField`, `tokenExpiry`, `passwordHash`, `pinnedKeys`, `tokenizer`, `keyPath`,
/// `spinner` (whole words only). A flag-like first word (is, has, should, show, enable, remember,
/// require, validate...) makes a Boolean (`isPasswordSet`, `showPassword`). Hashed or encrypted values are
/// not secrets in clear (`hashedPassword`, `encryptedToken`): a word hash, hashed, encrypted, sealed,
/// digest, obfuscated, masked or redacted anywhere in the name quiets it.
///
/// **Where a token comes from decides when its name cannot.** A cursor word before `token` (sync, change,
/// continuation, resume, cursor, page, next, paging, pagination: `cursorTokenQualifiers`) reads as
/// bookkeeping — CalDAV's and Google's `syncToken`, a change feed's `changeToken` are positions in a
/// stream, not credentials. But a service may call its session credential that: Simperium's `syncToken` is
/// what a sign-in returns and what every later request authenticates with. So a token so named is a
/// credential when it is a member of what a **sign-in call** returned (`kind(ofName:type:issuedByLogin:)`):
/// a call whose name says login, logon, sign-in, authenticate/authentication, auth, oauth or
/// authorize/authorization (`remote.requestLoginConfirmation(email:authCode:)`, `api.signIn(…)`, `login()`;
/// `SensitiveSources.loginCallName`), read directly or through the local bound to it, or a value whose
/// declared type is named for authentication (`AuthResponse`, `LoginResult`, `OAuthCredentials`,
/// `UserSession`: `SensitiveSources.isAuthenticationType`). A change feed is never what a sign-in returns;
/// a device or push token (device, push, apns, fcm, voip, notification, registration) is the app's own
/// address, sent to the server, never issued by a login, and stays quiet there too.
///
/// **A token named only `token` takes its meaning from the function it is in.** An APNs device token is
/// the address the app sends to its push provider, not a credential (`deviceToken` is quiet). The value
/// `application(_:didRegisterForRemoteNotificationsWithDeviceToken:)` receives keeps that meaning in what it
/// flows into, under names that no longer say it: `registerDeviceToken(with tokenData: Data)`,
/// `let newToken = tokenData.hexString`. So a name whose words before `token` are none or only say which one
/// (`token`, `tokenData`, `newToken`, `currentToken`: `SensitiveNaming.whichOneWords`) is quiet inside a
/// function whose name or argument labels name a device or push token (`registerDeviceToken(with:)`,
/// `didRegisterForRemoteNotificationsWithDeviceToken`, `updatePushToken(_:)`: a device, push, apns, fcm or
/// voip qualifier before `token`; `SensitiveSources.handlesDeviceToken`). A name that says another token
/// (`authToken`, `accessToken`) stays sensitive there.
///
/// A declared type decides too: a value whose type cannot hold a secret string (`Bool`, `Date`, `URL`,
/// `UITextField`, `NotificationToken`, `NSObjectProtocol`...) is quiet; strings, data, numbers (a PIN),
/// collections, `Any`, and types whose own name is sensitive (`AuthToken`, `Credentials`) keep it.
public enum SensitiveNaming {
    static let extraHeadWords: [String: SensitiveDataKind] = [
        "otp": .oneTimeCode, "totp": .oneTimeCode, "cvv": .cardCode, "cvc": .cardCode, "cvv2": .cardCode, "csc": .cardCode,
        "ssn": .nationalId, "mnemonic": .recoveryPhrase, "pincode": .pin, "pin": .pin, "seedphrase": .recoveryPhrase,
        "passphrase": .password, "passcode": .password, "cvc2": .cardCode, "cardnumber": .cardNumber, "creditcard": .cardNumber,
        "iban": .cardNumber,
    ]
    static let notPinQualifiers: Set<String> = [
        "map", "location", "annotation", "drop", "marker", "certificate", "cert", "ssl", "tls", "public", "key", "spki", "hash",
        "sha256", "host", "domain", "message", "post", "chat", "top", "pinned", "keys",
    ]
    static let moreNonCredentialTokenQualifiers: Set<String> = [
        "observer", "observation", "subscription", "cancellable", "lock", "request", "resume", "cursor", "idempotency", "paging",
        "invalidation", "task", "realm", "reuse", "completion", "image", "font", "color", "design", "theme", "code", "region",
        "placeholder", "replacement", "template", "format", "search", "filter", "tag", "word", "string", "parser", "lexer", "input",
        // A value taken from a token, not the token (`siteIDFromToken`).
        "from",
    ]
    static let numberQualifiers: Set<String> = ["card", "cc", "credit", "passport", "ssn", "iban"]
    static let codeQualifiers: [String: SensitiveDataKind] = [
        "pin": .pin, "security": .cardCode, "verification": .oneTimeCode, "otp": .oneTimeCode, "totp": .oneTimeCode, "passcode": .password,
        "auth": .oneTimeCode, "authorization": .oneTimeCode, "recovery": .oneTimeCode, "backup": .oneTimeCode, "cvv": .cardCode,
    ]
    static let phraseQualifiers: Set<String> = ["pass", "seed", "recovery", "secret"]
    /// First words of a Boolean (`isPasswordSet`, `showPassword`, `requiresPasscode`).
    static let flagWords: Set<String> = [
        "is", "has", "have", "should", "did", "will", "can", "was", "show", "shows", "needs", "need", "enable", "enabled", "use",
        "uses", "remember", "allow", "allows", "require", "requires", "validate", "check", "min", "max", "num", "toggle", "hide",
        "hidden", "forgot", "forgotten", "supports", "wants", "must",
        // Error conditions and enum cases (`wrongCredentials`, `invalidPassword`, `missingToken`).
        "wrong", "invalid", "missing", "expired", "bad", "incorrect", "empty", "unknown", "no", "without", "on",
    ]
    /// Words anywhere in a name that say the value is no longer the secret in clear.
    static let protectedWords: Set<String> = [
        "hash", "hashed", "hashes", "encrypted", "encrypt", "sealed", "seal", "digest", "obfuscated", "masked", "redacted", "cipher",
        "ciphertext", "salted", "hmac", "sha256", "sha512", "last4", "lastfour", "wrapped",
    ]
    /// Words that only say how a value is held.
    static let transparentWords: Set<String> = ["string", "str", "value", "data", "raw", "plain", "text", "bytes"]
    /// Types that can hold a secret whatever their name.
    static let carrierTypes: Set<String> = [
        "String", "NSString", "Substring", "Data", "NSData", "NSMutableData", "NSMutableString", "Character", "Any", "AnyObject", "id",
        "NSObject", "Int", "Int32", "Int64", "UInt", "UInt64", "NSNumber", "NSInteger", "NSDictionary", "NSMutableDictionary",
        "Dictionary", "NSArray", "Array", "SymmetricKey", "SecKey", "CFData", "CFString", "char", "NSSecureCoding", "Codable",
    ]

    /// Qualifiers that make a token a position in a stream (a cursor) rather than a credential, unless a
    /// sign-in issued it (see the table above).
    static let cursorTokenQualifiers: Set<String> = ["sync", "change", "continuation", "resume", "cursor", "page", "next", "paging",
                                                     "pagination"]

    /// Words before `token` that only say which value it is, not which kind of token (`newToken`).
    static let whichOneWords: Set<String> = ["new", "old", "current", "latest", "last", "previous", "received", "updated", "hex",
                                             "formatted", "my", "the"]

    /// Whether a token name says nothing of which token it is (`token`, `tokenData`, `newToken`): such a
    /// name takes its meaning from the function it is in (`SensitiveSources.handlesDeviceToken`).
    static func isUnqualifiedToken(_ name: String) -> Bool {
        var words = SecretNaming.words(name)
        while words.count > 1, let last = words.last, transparentWords.contains(last) { words.removeLast() }
        guard let last = words.last, last == "token" || last == "tokens" else { return false }
        return words.dropLast().allSatisfy(whichOneWords.contains)
    }
    /// Names that end with a secret's head word but are known not to be secrets (the last words of the name,
    /// after the words that only say how it is held): StoreKit's `appAccountToken`, a UUID the app chooses to
    /// tie purchases to its account.
    static let notSecrets: [[String]] = [["app", "account", "token"]]

    /// The sensitive datum a name denotes, or nil. `type`, when known, is the value's declared type.
    /// `issuedByLogin`: the value is a member of what a sign-in returned, where a cursor word before
    /// `token` does not make it bookkeeping (`cursorTokenQualifiers`).
    public static func kind(ofName name: String, type: String? = nil, issuedByLogin: Bool = false) -> SensitiveDataKind? {
        guard mayBeSensitive(name) else { return nil }
        var words = SecretNaming.words(name)
        guard !words.isEmpty else { return nil }
        if words.count > 1, flagWords.contains(words[0]) { return nil }
        if words.contains(where: protectedWords.contains) { return nil }
        while words.count > 1, let last = words.last, transparentWords.contains(last) { words.removeLast() }
        guard let last = words.last else { return nil }
        let previous = words.count >= 2 ? words[words.count - 2] : nil
        var kind: SensitiveDataKind?
        switch last {
        case "key", "keys":
            kind = previous.flatMap { SecretNaming.keyCompounds[$0] }.map(convert)
        case "id", "identifier":
            // A session id is an identifier in apps (analytics, encryption sessions), not a credential.
            kind = nil
        case "number", "num", "no", "nr":
            if let previous, numberQualifiers.contains(previous) { kind = previous == "passport" || previous == "ssn" ? .nationalId : .cardNumber }
            if previous == "security", words.count >= 3, words[words.count - 3] == "social" { kind = .nationalId }
        case "code", "codes":
            kind = previous.flatMap { codeQualifiers[$0] }
        case "phrase":
            kind = previous.flatMap { phraseQualifiers.contains($0) ? .recoveryPhrase : nil }
        case "pin", "pins":
            if last == "pin", previous.map({ !notPinQualifiers.contains($0) }) ?? true { kind = .pin }
        default:
            if let extra = extraHeadWords[last] {
                kind = extra
            } else if let secret = SecretNaming.headWords[last] {
                kind = convert(secret)
                if secret == .token, let previous,
                   SecretNaming.nonCredentialTokenQualifiers.contains(previous) || moreNonCredentialTokenQualifiers.contains(previous),
                   !(issuedByLogin && cursorTokenQualifiers.contains(previous)) {
                    kind = nil
                }
                if notSecrets.contains(where: { words.count >= $0.count && Array(words.suffix($0.count)) == $0 }) { kind = nil }
            }
        }
        guard let kind else { return nil }
        if let type, !typeCanHold(type, kind: kind) { return nil }
        // `updateCredentials`, `saveToken`, `fetchPassword`: a value named for an action on a secret is an
        // endpoint, a closure or a case, not the secret.
        if words.count > 1, actionFirstWords.contains(words[0]) { return nil }
        return kind
    }

    /// First words of a value's name that make it an action on a secret, not the secret (an endpoint
    /// `updateCredentials`, a handler `savePassword`). Not refresh or reset: a `refreshToken` or a
    /// `resetToken` is a credential.
    /// The same verbs make a call no source (`SensitiveSources.actionVerbs`); `get`, `fetch` and `load` are not
    /// here: `fetchPassword()` returns one.
    static let actionFirstWords: Set<String> = ["update", "save", "store", "delete", "remove", "clear", "send", "submit", "change",
                                                "set", "handle", "verify", "revoke", "persist", "cache", "post"]

    /// Kinds of secret that are numbers (a PIN, a card number or code, a one-time code): only they can be
    /// held by a number type; a password, a token or a key cannot.
    static let numericKinds: Set<SensitiveDataKind> = [.pin, .cardNumber, .cardCode, .oneTimeCode, .nationalId]
    /// Number types (`carrierTypes` that hold a secret only of `numericKinds`).
    static let numberTypes: Set<String> = ["Int", "Int32", "Int64", "UInt", "UInt64", "NSNumber", "NSInteger"]

    /// Result types no secret is in: Booleans, numbers, dates, status codes, errors (`Transfers.inertTypes`
    /// and these). A function declared to return one returns no secret it consumed.
    static let scalarResultTypes: Set<String> = ["OSStatus", "CCCryptorStatus", "CCStatus", "Error", "NSError", "NSDate",
                                                 "NSNumber", "errSecSuccess", "Never"]

    /// Whether a declared result type is a scalar (`Bool`, `Int`, `OSStatus`, `Date`, `Error?`).
    public static func isScalarResult(_ type: String) -> Bool {
        let core = type.filter { !"?! ".contains($0) }
        return Transfers.isInertType(core) || scalarResultTypes.contains(core)
    }

    /// Members that are a value's text or bytes in another form, not a field beside it: `password.utf8`,
    /// `apiKey.rawValue`, `token.description`, `key.rawRepresentation`, `secret.stringValue`.
    static let representationMembers: Set<String> = ["utf8", "utf16", "utf8CString", "unicodeScalars", "description", "debugDescription",
                                                     "characters", "wrappedValue", "base64EncodedString", "hexString", "hex",
                                                     "absoluteString", "self", "some", "unsafelyUnwrapped", "first", "last"]

    /// Whether a member is a representation of the value (`representationMembers`, a name made only of the
    /// words that say how a value is held, `…Representation`).
    static func isRepresentation(_ name: String) -> Bool {
        if representationMembers.contains(name) { return true }
        let words = SecretNaming.words(name)
        if words.last == "representation" { return true }
        return !words.isEmpty && words.allSatisfy(transparentWords.contains)
    }

    /// Types whose members are their text (`String`, `Data`, `NSString`...).
    static func isTextType(_ type: String) -> Bool {
        let core = type.filter { !"?!* ".contains($0) }
        return ["String", "NSString", "Substring", "Data", "NSData", "NSMutableData", "NSMutableString", "CFString", "CFData",
                "SymmetricKey", "SecKey"].contains(core.split(separator: ".").last.map(String.init) ?? core)
    }

    /// Whether a value of this declared type can hold a secret of this kind: a number only a numeric one.
    public static func typeCanHold(_ type: String, kind: SensitiveDataKind) -> Bool {
        guard typeCanHold(type) else { return false }
        if numericKinds.contains(kind) { return true }
        let core = type.filter { !"?!* ".contains($0) }
        return !numberTypes.contains(core.split(separator: ".").last.map(String.init) ?? core)
    }

    /// A quick test before splitting a name into words: it contains one of the letters sequences every
    /// sensitive head word has.
    static func mayBeSensitive(_ name: String) -> Bool {
        // Asked of every name the engine and its gate read: an ASCII name is searched in place, lowercased
        // byte by byte, for the sequences starting with each byte (the same answer as the search below).
        if let answer = name.utf8.withContiguousStorageIfAvailable(asciiMayBeSensitive), let answer { return answer }
        let lower = name.lowercased()
        guard lower.utf8.allSatisfy({ $0 < 0x80 }) else { return sensitiveLetterSequences.contains { lower.contains($0) } }
        return sensitiveLetterSequences.contains { lower.hasText($0) }
    }

    /// `mayBeSensitive` of an ASCII name's bytes; nil when a byte is not ASCII.
    private static func asciiMayBeSensitive(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        for byte in bytes where byte >= 0x80 { return nil }
        let table = sensitiveSequencesByFirstByte
        @inline(__always) func lowered(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
        for start in 0..<bytes.count {
            for sequence in table[Int(lowered(bytes[start]))] where start + sequence.count <= bytes.count {
                var offset = 1
                while offset < sequence.count, lowered(bytes[start + offset]) == sequence[offset] { offset += 1 }
                if offset == sequence.count { return true }
            }
        }
        return false
    }

    /// The letter sequences of `mayBeSensitive`, built once (it is asked of every name the engine reads).
    static let sensitiveLetterSequences = ["pass", "pin", "secret", "token", "cred", "key", "jwt", "bearer", "otp", "cvv", "cvc", "csc",
                                           "ssn", "mnemonic", "number", "num", "no", "nr", "code", "phrase", "session"]

    /// `sensitiveLetterSequences` as bytes, indexed by their first byte (ASCII).
    static let sensitiveSequencesByFirstByte: [[[UInt8]]] = {
        var table = [[[UInt8]]](repeating: [], count: 128)
        for sequence in sensitiveLetterSequences {
            let bytes = Array(sequence.utf8)
            table[Int(bytes[0])].append(bytes)
        }
        return table
    }()

    static func convert(_ kind: SecretNaming.Kind) -> SensitiveDataKind {
        switch kind {
        case .password: .password
        case .token: .token
        case .apiKey: .apiKey
        case .privateKey: .privateKey
        case .clientSecret, .secret: .secret
        case .sessionId: .sessionId
        case .encryptionKey: .encryptionKey
        case .credential: .credential
        }
    }

    /// Whether a value of this declared type can hold a secret.
    public static func typeCanHold(_ type: String) -> Bool {
        var core = Substring(type)
        for marker in ["__nullable", "_Nullable", "_Nonnull", "nullable", "const "] { core = Substring(core.replacingOccurrences(of: marker, with: "")) }
        core = Substring(core.filter { !"?!* ".contains($0) })
        if core.isEmpty || core.hasPrefix("[") || core.hasPrefix("(") { return true }
        if let generic = core.firstIndex(of: "<") { core = core[..<generic] }
        let name = core.split(separator: ".").last.map(String.init) ?? String(core)
        if carrierTypes.contains(name) { return true }
        return kind(ofName: name) != nil
    }

    /// The text of a field named for a secret (`passwordField.text`, `pinTextField.text`): the receiver's
    /// words are a sensitive name followed by one of these.
    static let inputFieldWords: Set<String> = ["field", "textfield", "tf", "input", "entry", "box", "textbox", "view", "textview"]

    /// Whether `name` names an input field for a secret (`passwordField`, `pinTextField`, `tokenInput`).
    static func isSecretInputField(_ name: String) -> Bool {
        guard mayBeSensitive(name) else { return false }
        var words = SecretNaming.words(name)
        guard words.count >= 2, let last = words.last else { return false }
        if last == "field", words.count >= 3, words[words.count - 2] == "text" {
            words.removeLast(2)
        } else if inputFieldWords.contains(last) {
            words.removeLast()
        } else {
            return false
        }
        return kind(ofName: words.joined(separator: "_")) != nil
    }
}

/// The source entries and per-file facts of the `sensitive` kind.
enum SensitiveSources {
    /// Receivers that are a Keychain wrapper (KeychainAccess, KeychainSwift, SwiftKeychainWrapper, SAMKeychain,
    /// SSKeychain, UICKeyChainStore, Valet, SimpleKeychain, Locksmith) or a variable named like one.
    static let keychainReceivers = ["keychain", "Keychain", "keyChain", "KeyChain", "KeychainWrapper", "KeychainSwift", "SAMKeychain",
                                    "SSKeychain", "UICKeyChainStore", "Valet", "valet", "A0SimpleKeychain", "SimpleKeychain", "Locksmith"]

    static let entries: [TaintSource] = [
        TaintSource(kind: .keychain, description: "an item read from the Keychain",
                    pattern: .outArgument(functions: APISpelling(APIs.keychainCopyMatching), index: 1)),
        TaintSource(kind: .keychain, description: "a value read from the Keychain",
                    pattern: .call(names: APISpelling(APIs.keychainWrapperRead),
                                   receivers: keychainReceivers, labels: nil)),
        TaintSource(kind: .keychain, description: "a value read from the Keychain",
                    pattern: .subscriptRead(receivers: keychainReceivers)),
        TaintSource(kind: .secureTextEntry, description: "the text of a secure text field",
                    pattern: .secureText(flags: APISpelling(APIs.secureTextEntry),
                                         members: APISpelling(swift: ["text"], objc: ["stringValue"]),
                                         bindings: APISpelling(swift: ["SecureField"]))),
        TaintSource(kind: .sensitiveName, description: "a value named as sensitive data", pattern: .sensitiveName, confidence: .medium),
        TaintSource(kind: .sensitiveName, description: "a value whose type holds sensitive data, encoded",
                    pattern: .encodedSecretType(encoders: APISpelling(swift: ["encode"]),
                                                receivers: ["JSONEncoder", "PropertyListEncoder", "encoder", "Encoder"]),
                    confidence: .medium),
    ]

    /// The label of a secure field's text binding (`SecureField("PIN", text: $pin)`).
    static let secureFieldTextLabel = "text"
    /// How code spells true (`isSecureTextEntry = true`, `secureTextEntry = YES`).
    static let trueNames: Set<String> = ["true", "YES"]
    /// Members that give a type's shared instance: `Session.shared.token` is a value, `Keys.token` a constant.
    static let singletonNames: Set<String> = ["shared", "sharedInstance", "default", "standard", "current", "instance", "main"]
    /// The receiver that is the object itself.
    static let selfName = "self"

    static let nameSource = entries.first { if case .sensitiveName = $0.pattern { true } else { false } }!
    static let secureTextSource = entries.first { if case .secureText = $0.pattern { true } else { false } }!
    static let encodedSource = entries.first { if case .encodedSecretType = $0.pattern { true } else { false } }!
    static let subscriptSources: [TaintSource] = entries.filter { if case .subscriptRead = $0.pattern { true } else { false } }

    /// `secureText` spellings.
    static let secureFlags: Set<String> = {
        guard case .secureText(let flags, _, _) = secureTextSource.pattern else { return [] }
        return Set(flags.names)
    }()
    static let secureTextMembers: Set<String> = {
        guard case .secureText(_, let members, _) = secureTextSource.pattern else { return [] }
        return Set(members.names)
    }()
    static let secureFieldBindings: Set<String> = {
        guard case .secureText(_, _, let bindings) = secureTextSource.pattern else { return [] }
        return Set(bindings.names)
    }()
    static let encoderNames: Set<String> = {
        guard case .encodedSecretType(let encoders, _) = encodedSource.pattern else { return [] }
        return Set(encoders.names)
    }()
    static let encoderReceivers: [String] = {
        guard case .encodedSecretType(_, let receivers) = encodedSource.pattern else { return [] }
        return receivers
    }()

    /// First words of a call that acts on a secret rather than returning one (`savePassword`, `resetToken`).
    static let actionVerbs: Set<String> = [
        "save", "set", "store", "write", "update", "delete", "remove", "clear", "reset", "change", "send", "post", "submit", "validate",
        "verify", "check", "log", "print", "show", "present", "hide", "display", "handle", "on", "did", "will", "should", "refresh",
        "revoke", "invalidate", "request", "add", "insert", "persist", "cache", "register", "unregister", "enter", "type", "prompt",
        "ask", "configure", "setup", "use", "apply", "process", "parse", "encode", "decode", "hash", "encrypt", "compare", "test", "mock",
        "make", "build", "create", "generate", "is", "has", "can", "login", "logout", "sign", "authenticate", "authorize", "exchange",
    ]

    /// Words of a call's name that say it signs the user in (see `SensitiveNaming`: where a token comes from).
    static let loginWords: Set<String> = ["login", "logon", "signin", "authenticate", "authentication", "auth", "oauth", "authorize",
                                          "authorization"]
    /// Two-word spellings of the same (`signIn`, `logIn`).
    static let loginWordPairs: Set<String> = ["sign in", "log in", "log on", "sign on"]
    /// Words of a type's name that say it holds what a sign-in returns (`AuthResponse`, `LoginResult`,
    /// `OAuthCredentials`, `UserSession`).
    static let authenticationTypeWords: Set<String> = ["login", "logon", "signin", "auth", "oauth", "authentication", "authorization",
                                                       "credential", "credentials", "session"]

    /// The name of the sign-in call `expression` is (`try await remote.requestLoginConfirmation(…)` →
    /// `requestLoginConfirmation`), or nil.
    static func loginCallName(_ expression: Expression) -> String? {
        guard case .call(let callee, _, _) = expression.unwrapped.kind, let name = callee.name else { return nil }
        // Asked of every declaration's initializer: a letters test before splitting into words.
        let lower = name.lowercased()
        guard lower.hasText("log") || lower.hasText("sign") || lower.hasText("auth") else { return nil }
        let baseName = name.split(separator: ":", maxSplits: 1).first.map(String.init) ?? name
        guard mentionsLogin(SecretNaming.words(baseName)) else { return nil }
        return baseName
    }

    static func mentionsLogin(_ words: [String]) -> Bool {
        if words.contains(where: loginWords.contains) { return true }
        return zip(words, words.dropFirst()).contains { loginWordPairs.contains("\($0) \($1)") }
    }

    /// Whether a declared type is named for what a sign-in returns. System session types (`URLSession`,
    /// `AVAudioSession`, `WCSession`...) are not.
    static func isAuthenticationType(_ type: String) -> Bool {
        let core = type.filter { !"?![] ".contains($0) }
        guard let name = core.split(separator: ".").last.map(String.init), !name.isEmpty else { return false }
        if ["URLSession", "NSURLSession", "AVAudioSession", "AVCaptureSession", "WCSession", "ARSession", "MCSession", "NISession",
            "ASWebAuthenticationSession", "SFAuthenticationSession", "GKSession", "NWConnection"].contains(name) { return false }
        let words = SecretNaming.words(name)
        return words.contains(where: authenticationTypeWords.contains) || mentionsLogin(words)
    }

    /// Qualifiers of a token that is the device's push address (`registerDeviceToken`, `updatePushToken`).
    static let deviceTokenQualifiers: Set<String> = ["device", "push", "apns", "fcm", "voip"]

    /// Whether a function's name or one of its argument labels names a device or push token
    /// (`registerDeviceToken(with:)`, `application(_:didRegisterForRemoteNotificationsWithDeviceToken:)`).
    static func handlesDeviceToken(_ function: FunctionDeclaration) -> Bool {
        let names = [function.name] + function.parameters.compactMap(\.label)
        return names.contains { name in
            guard name.lowercased().hasText("token") else { return false }
            let words = SecretNaming.words(name)
            return zip(words, words.dropFirst()).contains { deviceTokenQualifiers.contains($0) && ($1 == "token" || $1 == "tokens") }
        }
    }

    /// "a" or "an" before a type name.
    static func article(_ name: String) -> String {
        name.first.map { "AEIOUaeiou".contains($0) } == true ? "an" : "a"
    }

    /// Whether a call of this name returns a secret (`storedPassword()`, `getAccessToken()`, `apiKey()`):
    /// its head word is sensitive, its first word is no action verb, a one-word name takes no argument.
    static func callReturnsSecret(baseName: String, argumentCount: Int) -> SensitiveDataKind? {
        guard let first = baseName.first, first.isLowercase || first == "_" else { return nil }
        guard let kind = SensitiveNaming.kind(ofName: baseName) else { return nil }
        let words = SecretNaming.words(baseName)
        if words.count == 1 { return argumentCount == 0 ? kind : nil }
        if let verb = words.first, actionVerbs.contains(verb) { return nil }
        return kind
    }
}
