import Foundation
import MoatCore

/// Documented heuristics for "this name holds a secret" and "this literal is a real value, not a
/// placeholder or a key name". Rules about secrets (hard-coded credentials, secrets in UserDefaults or
/// files) share them so they agree on what a secret is.
///
/// A name is split into words (`kAPIKey` → api key, `AUTH_TOKEN` → auth token, `sessionID` → session id)
/// and judged by its last word, the head noun:
/// - password, passwd, passphrase, passcode, secret, token, credential(s), bearer, jwt → a secret;
/// - `…Key` only after api, private, secret, encryption, signing, master, aes, hmac, crypto, cipher,
///   shared, symmetric, license, consumer (`apiKey` is a secret, `passwordKey` names where one is stored);
/// - `…Id` only as session id;
/// - trailing string, value, data, str, raw, plain are skipped (`authTokenString` → token);
/// - a head noun that describes the secret instead of being it (name, field, label, hash, expiry, url,
///   type, count, key, header...) makes the name not secret (`passwordHash`, `tokenExpiry`, `tokenURL`);
/// - flag-like names (is, has, should, did, show, remember, enable...) are not secrets;
/// - token after device, push, fcm, apns, voip, page, next, continuation, cancellation, notification,
///   registration, sync is not a credential (`deviceToken`, `nextPageToken`).
public enum SecretNaming {
    public enum Kind: String, Sendable {
        case password, token, apiKey = "API key", privateKey = "private key", clientSecret = "client secret"
        case secret, sessionId = "session id", encryptionKey = "encryption key", credential
    }

    static let flagPrefixes: Set<String> = [
        "is", "has", "have", "should", "did", "will", "can", "was", "show", "shows", "needs", "need", "enable", "enabled",
        "use", "uses", "remember", "allow", "allows", "require", "requires", "validate", "check", "min", "max", "num",
        "number", "last", "forgot", "forgotten", "reset", "change", "confirm", "new", "old", "toggle", "hide", "hidden",
    ]

    static let transparentSuffixes: Set<String> = ["string", "str", "value", "data", "raw", "plain", "text"]

    static let metadataSuffixes: Set<String> = [
        "name", "names", "field", "fields", "label", "title", "placeholder", "prompt", "hint", "message", "url", "uri",
        "endpoint", "path", "file", "type", "kind", "length", "count", "size", "expiry", "expiration", "expires",
        "expired", "date", "time", "timestamp", "required", "regex", "pattern", "format", "header", "policy", "rule",
        "rules", "strength", "error", "valid", "validator", "view", "controller", "button", "cell", "identifier",
        "service", "attribute", "attr", "tag", "manager", "provider", "store", "storage", "handler", "request",
        "response", "completion", "callback", "mode", "state", "status", "visible", "hash", "hashed", "digest",
        "checksum", "fingerprint", "salt", "version", "prefix", "suffix", "delegate", "observer", "notification",
        "segue", "delay", "timeout", "interval", "key", "keys", "id", "ids", "index", "param", "parameter",
        "column", "query", "router", "route", "client", "listener", "publisher", "subject", "changed", "updated",
        "sha", "sha1", "sha256", "md5", "pin", "pins", "public", "location", "range", "policy", "icon", "image",
        "color", "font", "style", "section", "row", "type", "reuse", "keychain", "account", "scope", "scopes",
    ]

    static let keyCompounds: [String: Kind] = [
        "api": .apiKey, "private": .privateKey, "secret": .secret, "encryption": .encryptionKey,
        "signing": .encryptionKey, "master": .encryptionKey, "aes": .encryptionKey, "hmac": .encryptionKey,
        "crypto": .encryptionKey, "cipher": .encryptionKey, "shared": .encryptionKey, "symmetric": .encryptionKey,
        "license": .apiKey, "consumer": .apiKey,
    ]

    static let headWords: [String: Kind] = [
        "password": .password, "passwd": .password, "passphrase": .password, "passcode": .password,
        "secret": .secret, "secrets": .secret, "token": .token, "tokens": .token, "credential": .credential,
        "credentials": .credential, "creds": .credential, "bearer": .token, "jwt": .token,
        // Words written together.
        "apikey": .apiKey, "apitoken": .token, "authtoken": .token, "accesstoken": .token, "refreshtoken": .token,
        "privatekey": .privateKey, "secretkey": .secret, "clientsecret": .clientSecret, "sessionid": .sessionId,
        "sessiontoken": .token, "encryptionkey": .encryptionKey,
    ]

    static let nonCredentialTokenQualifiers: Set<String> = [
        "device", "push", "fcm", "apns", "voip", "page", "next", "continuation", "cancellation", "cancel",
        "notification", "registration", "sync", "change", "pagination", "lexer", "parser", "syntax", "csrf",
    ]

    /// Whether a name is written as an Objective-C or C constant: `k` then a capital (`kSecClassGenericPassword`,
    /// `kAuthTokenKey`).
    public static func isConstantStyle(_ name: String) -> Bool {
        guard name.hasPrefix("k"), name.count > 1 else { return false }
        return name[name.index(after: name.startIndex)].isUppercase
    }

    /// The words of an identifier or key string, lowercased.
    public static func words(_ name: String) -> [String] {
        var words: [String] = []
        var current = ""
        let characters = Array(name)
        for (index, character) in characters.enumerated() {
            guard character.isLetter || character.isNumber else {
                if !current.isEmpty { words.append(current) }
                current = ""
                continue
            }
            if !current.isEmpty, character.isUppercase {
                let previous = characters[index - 1]
                let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && nextIsLower) {
                    words.append(current)
                    current = ""
                }
            }
            current.append(character)
        }
        if !current.isEmpty { words.append(current) }
        var lowered = words.map { $0.lowercased() }
        // Objective-C constant prefix: kAPIKey, kAuthToken.
        if lowered.count > 1, lowered[0] == "k" { lowered.removeFirst() }
        return lowered
    }

    /// The kind of secret a variable, property, label or storage key names, or nil.
    public static func kind(ofName name: String) -> Kind? {
        var words = words(name)
        guard !words.isEmpty else { return nil }
        if words.count > 1, flagPrefixes.contains(words[0]) { return nil }
        while words.count > 1, let last = words.last, transparentSuffixes.contains(last) { words.removeLast() }
        guard let last = words.last else { return nil }
        let previous = words.count >= 2 ? words[words.count - 2] : nil
        if last == "key" || last == "keys" {
            return previous.flatMap { keyCompounds[$0] }
        }
        if last == "id" || last == "identifier" {
            return previous == "session" ? .sessionId : nil
        }
        if metadataSuffixes.contains(last) { return nil }
        guard let kind = headWords[last] else { return nil }
        if kind == .token, let previous, nonCredentialTokenQualifiers.contains(previous) { return nil }
        if kind == .secret, previous == "client" { return .clientSecret }
        return kind
    }

    public static func isSecretName(_ name: String) -> Bool { kind(ofName: name) != nil }

    /// A name for a token that is not a credential: an APNs device token, a push or registration token, a
    /// pagination token (`pushToken`, `ServerConstants.deviceToken`, `nextPageToken`).
    public static func isNonCredentialTokenName(_ name: String) -> Bool {
        let parts = words(name)
        guard let last = parts.last, ["token", "tokens", "id", "identifier"].contains(last) else { return false }
        return parts.dropLast().contains { nonCredentialTokenQualifiers.contains($0) }
    }

    /// True for values that are obviously not real secrets: empty, templates, `YOUR_API_KEY`, `<token>`,
    /// `xxx`, repeated characters, format strings.
    public static func isPlaceholder(_ value: String) -> Bool {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return true }
        let lower = trimmed.lowercased()
        let markers = ["your", "placeholder", "example", "changeme", "change_me", "insert", "replace", "dummy", "sample",
                       "mock", "fake", "stub", "preview",
                       "todo", "fixme", "<", ">", "{{", "}}", "${", "$(", "%@", "%s", "%d", "xxx", "***", "...", "…",
                       "redacted", "secret_here", "token_here", "key_here"]
        if markers.contains(where: { lower.contains($0) }) { return true }
        if ["null", "nil", "none", "undefined", "test", "password", "secret", "token", "apikey", "api_key", "key"].contains(lower) {
            return true
        }
        if Set(lower).count <= 2 { return true }
        return false
    }

    /// Whether a literal assigned to a secret-named place looks like a real secret value rather than a
    /// placeholder, a sentence, a URL or path, a localization key or the storage key name itself.
    public static func looksLikeSecretValue(_ value: String) -> Bool {
        if isPlaceholder(value) { return false }
        if value.count < 6 || value.count > 4096 { return false }
        if value.contains(where: { $0 == " " || $0 == "\n" || $0 == "\t" }) { return false }
        if value.contains("://") || value.hasPrefix("/") || value.hasPrefix("~") { return false }
        if looksLikeKeyName(value) { return false }
        return isPlausibleSecret(value)
    }

    /// Whether a value has the shape of a secret rather than of a word or a name. A value made only of
    /// letters and separators (`refresh`, `accesstoken`, `Bearer`, `com.Example.BackgroundSession`,
    /// `yes-it-is`) is a word, a key name or an identifier unless it is long and random-looking (at least
    /// 16 letters, both cases, short runs between case changes: `q8ZrLmNpXvTbWkQd` without its digits). A
    /// reverse-DNS identifier (`com.example.app2.session`: a short lowercase first label) is a name. Anything else (digits or symbols
    /// among letters: `Winter2024!`, hex, base64, a JWT) is plausible.
    public static func isPlausibleSecret(_ value: String) -> Bool {
        // Escapes (`\u{001A}`, a delimiter) are written by people, not pasted from a key generator.
        if value.contains("\\u{") || value.contains(where: { $0.unicodeScalars.contains { $0.properties.generalCategory == .control } }) {
            return false
        }
        // A query parameter or field name (`password=`, `token:`): the name of a value, not a value.
        var value = Substring(value)
        while let last = value.last, "=:&?".contains(last), value.count > 1, !value.dropLast().hasSuffix("=") { value = value.dropLast() }
        let separators: Set<Character> = ["_", "-", "."]
        // An API path (`payments/connection_tokens`, `jetpack-openai-query/jwt`): lowercase words between slashes.
        if value.contains("/"), value.split(separator: "/").allSatisfy({ part in
            !part.isEmpty && part.allSatisfy { ($0.isLowercase && $0.isLetter) || separators.contains($0) }
        }) {
            return false
        }
        // Counting digits (`1234`, `12345678`): a placeholder.
        if value.count >= 4, value.allSatisfy(\.isNumber) {
            let digits = value.compactMap(\.wholeNumberValue)
            if zip(digits, digits.dropFirst()).allSatisfy({ ($1 - $0 + 10) % 10 == 1 }) { return false }
        }
        let core = value.filter { !separators.contains($0) }
        guard !core.isEmpty else { return false }
        if value.contains("."), !value.hasPrefix("."), !value.hasSuffix("."), !value.contains(".."),
           let top = value.split(separator: ".").first, (2...10).contains(top.count), top.allSatisfy({ $0.isLowercase && $0.isASCII }),
           value.split(separator: ".").allSatisfy({ part in
               part.first?.isLetter == true && part.allSatisfy { ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") && $0.isASCII }
           }), value.split(separator: ".").count >= 3 {
            return false
        }
        if core.allSatisfy(\.isLetter) {
            guard core.count >= 16, core.contains(where: \.isUppercase), core.contains(where: \.isLowercase) else { return false }
            let runs = words(core)
            return Double(core.count) / Double(max(runs.count, 1)) < 3.5
        }
        return true
    }

    /// `auth_token`, `user.password`, `access-token`, `kPasswordKey`, `login.password.title`: a name for where
    /// a secret goes, not the secret. A lowercase (or camelCase) identifier-like value whose words include a
    /// secret word, or a dotted lowercase localization key.
    public static func looksLikeKeyName(_ value: String) -> Bool {
        let identifierLike = value.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == "-" }
        guard identifierLike else { return false }
        let parts = words(value)
        let secretWords: Set<String> = ["password", "passwd", "passphrase", "passcode", "secret", "token", "key", "credential",
                                        "credentials", "session", "auth", "apikey", "jwt", "bearer", "pin"]
        if parts.contains(where: { secretWords.contains($0) }) && parts.count >= 1
            && value.contains(where: { $0.isLetter }) && !value.contains(where: \.isNumber) { return true }
        // Dotted lowercase keys: login.password.title, settings.api_key
        if value.contains("."), value.allSatisfy({ $0.isLowercase || $0 == "." || $0 == "_" || $0.isNumber }),
           value.split(separator: ".").count >= 2, !value.contains("..") { return true }
        return false
    }
}

/// Well-known credential formats, recognisable by their shape whatever the variable is called.
public enum KnownCredential {
    /// A PEM private key block: the literal starts with `-----BEGIN … PRIVATE KEY-----`, ends the block with
    /// `-----END`, and has a base64 body of some length between them (a message that merely names the header
    /// is not a key).
    public static func isPEMPrivateKey(_ literal: String) -> Bool {
        let text = literal.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("-----BEGIN"), let header = text.range(of: "PRIVATE KEY-----"),
              let footer = text.range(of: "-----END", range: header.upperBound..<text.endIndex) else { return false }
        let body = text[header.upperBound..<footer.lowerBound].replacingOccurrences(of: "\\n", with: "")
        let base64 = body.filter { ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "/" || $0 == "=") && $0.isASCII }
        return base64.count >= 16
    }

    public struct Match: Sendable {
        public var description: String
        public var severity: Severity
        public var confidence: Confidence
        /// A client key the vendor documents as safe to ship in an app (`publishableFormats`).
        public var isPublishable = false
    }

    /// Client keys that vendors document as publishable: they identify the app to the vendor's SDK and are
    /// meant to ship in it; what they can do is limited by the vendor (and should be restricted further
    /// in its dashboard). Reported at low severity and confidence, with that note, never as a leaked secret.
    /// Values in these formats are not secrets for the name-based rule either.
    /// - RevenueCat public SDK keys `appl_` (App Store), `goog_` (Google Play), `amzn_` (Amazon); its secret
    ///   keys start with `sk_`.
    /// - PostHog project API keys `phc_` (its personal API keys, `phx_`, are secret).
    /// - Stripe publishable keys `pk_live_` and `pk_test_` (the secret ones are `sk_…`/`rk_…`).
    /// - Mapbox public access tokens `pk.` (secret tokens are `sk.`).
    /// - Google API keys `AIza` (Maps, Firebase client keys), 39 characters; restrict them to the bundle id.
    /// Sentry DSNs carry a public key too, but they are URLs, which no secret rule takes for a secret.
    /// Algolia search-only keys, Mixpanel and Amplitude project tokens cannot be told from secret keys by
    /// their format, so they are judged by the name-based rule like any other value.
    static let publishableFormats: [(prefix: String, vendor: String, minimum: Int, maximum: Int, extra: Set<Character>)] = [
        ("appl_", "a RevenueCat public SDK key", 16, 64, []),
        ("goog_", "a RevenueCat public SDK key", 16, 64, []),
        ("amzn_", "a RevenueCat public SDK key", 16, 64, []),
        ("phc_", "a PostHog project API key", 20, 64, []),
        ("pk_live_", "a Stripe publishable key", 16, 255, []),
        ("pk_test_", "a Stripe test publishable key", 16, 255, []),
        ("pk.", "a Mapbox public access token", 40, 512, [".", "-", "_"]),
        ("AIza", "a Google API key", 35, 35, ["-", "_"]),
    ]

    /// The publishable client key format a literal is in, if any.
    public static func publishable(_ literal: String) -> Match? {
        let token = literal.trimmingCharacters(in: .whitespaces)
        for format in publishableFormats where token.hasPrefix(format.prefix) {
            let rest = token.dropFirst(format.prefix.count)
            guard rest.count >= format.minimum, rest.count <= format.maximum,
                  rest.allSatisfy({ (($0.isLetter || $0.isNumber) && $0.isASCII) || format.extra.contains($0) }) else { continue }
            return Match(description: format.vendor, severity: .low, confidence: .low, isPublishable: true)
        }
        return nil
    }

    public static func match(_ literal: String) -> Match? {
        if isPEMPrivateKey(literal) {
            return Match(description: "a PEM private key", severity: .critical, confidence: .high)
        }
        var value = Substring(literal.trimmingCharacters(in: .whitespaces))
        if value.hasPrefix("Bearer ") { value = value.dropFirst(7) }
        let token = String(value)
        func body(after prefix: String, minimum: Int, maximum: Int = 255, allowed: (Character) -> Bool) -> Bool {
            guard token.hasPrefix(prefix) else { return false }
            let rest = token.dropFirst(prefix.count)
            return rest.count >= minimum && rest.count <= maximum && rest.allSatisfy(allowed)
        }
        let upperAlnum: (Character) -> Bool = { ($0.isUppercase || $0.isNumber) && $0.isASCII }
        let alnum: (Character) -> Bool = { ($0.isLetter || $0.isNumber) && $0.isASCII }
        let alnumDash: (Character) -> Bool = { (($0.isLetter || $0.isNumber) && $0.isASCII) || $0 == "-" || $0 == "_" }
        if body(after: "AKIA", minimum: 16, maximum: 16, allowed: upperAlnum) {
            return Match(description: "an AWS access key id", severity: .high, confidence: .medium)
        }
        for prefix in ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"] where body(after: prefix, minimum: 36, maximum: 36, allowed: alnum) {
            return Match(description: "a GitHub token", severity: .high, confidence: .high)
        }
        if body(after: "github_pat_", minimum: 22, allowed: alnumDash) {
            return Match(description: "a GitHub fine-grained token", severity: .high, confidence: .high)
        }
        for prefix in ["xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-"] where body(after: prefix, minimum: 10, allowed: alnumDash) {
            return Match(description: "a Slack token", severity: .high, confidence: .high)
        }
        for prefix in ["sk_live_", "rk_live_"] where body(after: prefix, minimum: 16, allowed: alnum) {
            return Match(description: "a Stripe live secret key", severity: .critical, confidence: .high)
        }
        if body(after: "sk_test_", minimum: 16, allowed: alnum) {
            return Match(description: "a Stripe test secret key", severity: .low, confidence: .medium)
        }
        return publishable(token)
    }
}
