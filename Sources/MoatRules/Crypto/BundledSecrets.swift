import MoatCore
import MoatFormats

/// Secrets in the property lists and JSON files an app bundles as resources (a `Config.plist`, a
/// `secrets.json`): the same weakness as a secret in the code, so the same rules report them — a value in a
/// known credential format (a PEM private key, an AWS, GitHub, Slack or Stripe secret key) is MOAT-CRYP-201,
/// a plausible literal under a secret-named key (`client_secret`, `aws_secret_access_key`, `password`) is
/// MOAT-CRYP-203. One value, one finding: the format rule takes what it recognizes, the name rule the rest.
///
/// Only files a shipping target copies into its bundle count (or, without an Xcode project referencing
/// them, files of a loose app's folder), never files in test, mock, fixture or preview folders
/// (`ShippingScope`). Quiet: publishable client keys (`KnownCredential.publishable`: the `AIza…` `API_KEY` of
/// `GoogleService-Info.plist` is meant to ship, restricted in the Firebase console), client identifiers
/// vendors document for Info.plist (`FacebookClientToken`, `AppLovinSdkKey`), placeholders and build-setting
/// references (`$(API_KEY)`), URLs, sentences and key names (`SecretNaming.looksLikeSecretValue`).
public enum BundledSecrets {
    public struct Candidate {
        public var document: PropertyListDocument
        public var node: PlistNode
        public var key: String
        public var value: String
        /// The known credential format of the value, when it has one (never a publishable one).
        public var credential: KnownCredential.Match?
        /// The kind of secret the key names, for values without a known format.
        public var kind: SecretNaming.Kind?
    }

    /// Keys vendors document as identifiers to put in Info.plist: client tokens and SDK keys that identify
    /// the app, not secrets.
    static let documentedClientKeys: Set<String> = ["FacebookClientToken", "FacebookAppID", "AppLovinSdkKey",
                                                    "GADApplicationIdentifier", "CLIENT_ID", "REVERSED_CLIENT_ID"]

    public static func candidates(in app: AppModel) -> [Candidate] {
        var result: [Candidate] = []
        for document in app.plists where [.infoPlist, .other].contains(document.kind) && !document.isFromBuiltApp
            && ShippingScope.reason(forPath: document.path) == nil {
            guard app.context(of: app.bundling(of: document.path)) != nil else { continue }
            visit(document.root, key: nil, in: document, into: &result)
        }
        return result.sorted { ($0.document.path, $0.node.line ?? 0) < ($1.document.path, $1.node.line ?? 0) }
    }

    static func visit(_ node: PlistNode, key: String?, in document: PropertyListDocument, into result: inout [Candidate]) {
        switch node.value {
        case .dictionary(let entries):
            for entry in entries { visit(entry.value, key: entry.key, in: document, into: &result) }
        case .array(let elements):
            for element in elements { visit(element, key: key, in: document, into: &result) }
        case .string(let value):
            if let key, documentedClientKeys.contains(key) { return }
            if KnownCredential.publishable(value) != nil { return }
            if let match = KnownCredential.match(value), !match.isPublishable {
                guard !HardcodedCredentialFormatRule.isDocumentedExample(value) else { return }
                result.append(Candidate(document: document, node: node, key: key ?? "", value: value, credential: match, kind: nil))
                return
            }
            guard let key, let kind = secretKind(ofKey: key), SecretNaming.looksLikeSecretValue(value), !value.hasPrefix("pk_") else { return }
            result.append(Candidate(document: document, node: node, key: key, value: value, credential: nil, kind: kind))
        default:
            return
        }
    }

    /// The secret a configuration key names: `SecretNaming`'s judgement, plus `…secret…key` names
    /// (`aws_secret_access_key`, `SecretAccessKey`).
    static func secretKind(ofKey key: String) -> SecretNaming.Kind? {
        if let kind = SecretNaming.kind(ofName: key) { return kind }
        let words = SecretNaming.words(key)
        if words.last == "key", words.dropLast().contains("secret") { return .secret }
        return nil
    }
}

extension HardcodedSecretRule: AppRule {
    /// Examples of bundled resources (see `BundledSecrets`).
    static let resourceExamples: [RuleExample] = [
        RuleExample(files: [
            ExampleFile(name: "App/Config.plist", content: ExampleProject.plist("""
                    <key>ServerURL</key>
                    <string>https://api.example.com</string>
                    ↓<key>ClientSecret</key>
                    <string>q8Zr2LmN4pXv7TbW</string>
                    <key>Analytics</key>
                    <dict>
                        ↓<key>aws_secret_access_key</key>
                        <string>wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq3s9Lk2Vb</string>
                    </dict>
                """)),
            ExampleFile(name: "App/Resources/backend.json", content: """
                {
                  "endpoint": "https://api.example.com/v2",
                  ↓"client_secret": "9f8e7d6c5b4a39281716f5e4d3c2b1a0",
                  "retries": 3
                }
                """),
        ], triggers: true, note: "Property lists and JSON files the app bundles: a plausible literal under a secret-named key. Known credential formats are MOAT-CRYP-201."),
        RuleExample(files: [
            ExampleFile(name: "App/GoogleService-Info.plist", content: ExampleProject.plist("""
                    <key>API_KEY</key>
                    <string>AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q</string>
                    <key>CLIENT_ID</key>
                    <string>123456789012-abcdefghijklmnopqrstuvwxyz012345.apps.googleusercontent.com</string>
                    <key>GOOGLE_APP_ID</key>
                    <string>1:123456789012:ios:0a1b2c3d4e5f6a7b</string>
                """)),
            ExampleFile(name: "App/Config.plist", content: ExampleProject.plist("""
                    <key>APIKey</key>
                    <string>$(API_KEY)</string>
                    <key>PasswordPolicy</key>
                    <string>min8-upper-digit</string>
                    <key>token</key>
                    <string>YOUR_TOKEN_HERE</string>
                    <key>FacebookClientToken</key>
                    <string>0a1b2c3d4e5f60718293a4b5c6d7e8f9</string>
                """)),
            ExampleFile(name: "AppTests/Fixtures/secrets.json", content: """
                {"password": "Winter2024!"}
                """),
            ExampleFile(name: "App.xcodeproj/project.pbxproj", content: ExampleProject.pbxproj()),
        ], triggers: false, note: "Firebase's publishable API key, build-setting references, placeholders, documented client tokens, and a JSON file outside every shipping target."),
    ]

    public func check(_ app: AppModel, _ sink: inout FindingSink) {
        for candidate in BundledSecrets.candidates(in: app) {
            guard candidate.credential == nil, let kind = candidate.kind else { continue }
            let what = candidate.document.format == .json ? "JSON file" : "property list"
            sink.report("A hard-coded \(kind.rawValue) is stored under `\(candidate.key)` in a bundled \(what): every copy of the app carries it, readable with `unzip`. Fetch it from your server or keep it in the Keychain instead.",
                        in: candidate.document, at: candidate.node)
        }
    }
}

extension HardcodedCredentialFormatRule: AppRule {
    /// Examples of bundled resources (see `BundledSecrets`).
    static let resourceExamples: [RuleExample] = [
        RuleExample(files: [
            ExampleFile(name: "App/service-account.json", content: """
                {
                  "type": "service_account",
                  "private_key_id": "0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d",
                  ↓"private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\\n-----END PRIVATE KEY-----\\n",
                  "client_email": "uploader@example-project.iam.gserviceaccount.com"
                }
                """),
            ExampleFile(name: "App/Keys.plist", content: ExampleProject.plist("""
                    ↓<key>StripeSecret</key>
                    <string>sk_live_4eC39HqLyjWDarjtT1zdp7dc</string>
                """)),
        ], triggers: true, note: "A private key or a service's secret key in a bundled JSON or property list: reported once, by this rule (MOAT-CRYP-203 leaves known formats to it)."),
        RuleExample(files: [
            ExampleFile(name: "App/GoogleService-Info.plist", content: ExampleProject.plist("""
                    <key>API_KEY</key>
                    <string>AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q</string>
                """)),
            ExampleFile(name: "App/Keys.plist", content: ExampleProject.plist("""
                    <key>StripePublishableKey</key>
                    <string>pk_live_51Mq8Tz2RwK4vLx9NbYc3Hd7Jf</string>
                    <key>AWSAccessKeyId</key>
                    <string>AKIAIOSFODNN7EXAMPLE</string>
                """)),
        ], triggers: false, note: "Publishable client keys in bundled configuration files are meant to ship; AWS's documented example key."),
    ]

    public func check(_ app: AppModel, _ sink: inout FindingSink) {
        for candidate in BundledSecrets.candidates(in: app) {
            guard let match = candidate.credential else { continue }
            let what = candidate.document.format == .json ? "JSON file" : "property list"
            sink.report("The value of `\(candidate.key)` in a bundled \(what) is \(match.description): every copy of the app carries it, readable with `unzip`. Revoke it and keep it off the device.",
                        in: candidate.document, at: candidate.node, severity: match.severity, confidence: match.confidence)
        }
    }
}
