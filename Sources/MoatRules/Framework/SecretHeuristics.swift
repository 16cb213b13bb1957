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

    /// True for values that are obviously not real secrets: empty, templates, `YOUR_API_KEY`, `<token>`,
    /// `xxx`, repeated characters, format strings.
    public static func isPlaceholder(_ value: String) -> Bool {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return true }
        let lower = trimmed.lowercased()
        let markers = ["your", "placeholder", "example", "changeme", "change_me", "insert", "replace", "dummy", "sample",
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
        if body(after: "AIza", minimum: 35, maximum: 35, allowed: alnumDash) {
            return Match(description: "a Google API key (often public by design; restrict it to your bundle id in the console)",
                         severity: .low, confidence: .low)
        }
        return nil
    }
}
