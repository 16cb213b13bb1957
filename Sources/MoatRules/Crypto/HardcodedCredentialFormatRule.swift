import MoatCore
import MoatSyntax

/// String literals in a well-known credential format (`KnownCredential`): PEM private keys, AWS access key
/// ids, GitHub, Slack and Stripe secret tokens (high); publishable client keys (`KnownCredential.publishable`:
/// RevenueCat, PostHog, Stripe publishable, Mapbox public, Google API keys) at low, with a note to restrict them.
/// Placeholders and documented examples (`…EXAMPLE`) are skipped. Evidence is redacted.
public struct HardcodedCredentialFormatRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-CRYP-201", slug: "hardcoded-credential",
        title: "Hard-coded private key or service credential",
        severity: .high, confidence: .high, evidence: .configuration, cwe: [798, 321],
        masvs: ["MASVS-CRYPTO-2", "MASVS-STORAGE-1"], mastg: ["MASTG-TEST-0062"],
        rationale: "Anything compiled into the app can be extracted from the IPA with `strings`. A private key or a service token in the binary is public: attackers sign as you, call your cloud APIs on your bill, or read your repositories and chat workspaces.",
        fix: "Revoke the credential now and remove it from the code and history. Keep server credentials on a server; give the app short-lived, user-scoped tokens; generate device keys on the device (Secure Enclave / Keychain). Restrict keys that must ship (Google API keys) to your bundle id and APIs.",
        references: ["https://mas.owasp.org/MASTG/tests/ios/MASVS-CRYPTO/MASTG-TEST-0062/",
                     "https://cwe.mitre.org/data/definitions/798.html"],
        examples: [
            .triggering("Secrets.swift", """
            let signingKey = ↓\"\"\"
            -----BEGIN RSA PRIVATE KEY-----
            MIIEowIBAAKCAQEA1x2y3z4ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrs
            -----END RSA PRIVATE KEY-----
            \"\"\"
            let awsAccessKeyId = ↓"AKIA2E0A8F3B244C9986"
            let github = ↓"ghp_1A2b3C4d5E6f7G8h9I0jK1lM2nO3pQ4rS5tU"
            let slackBot = ↓"xoxb-2410938523-1390238504-AbCdEfGhIjKl"
            let stripe = ↓"sk_live_4eC39HqLyjWDarjtT1zdp7dc"
            let maps = ↓"AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q"
            """, note: "The Google key is reported at low severity and confidence."),
            .triggering("Purchases.swift", """
            func configureSDKs() {
                Purchases.configure(withAPIKey: ↓"appl_Qm4Tz8RwK2vLx9NbYc3Hd7JfPsA")
                PostHogSDK.shared.setup(PostHogConfig(apiKey: ↓"phc_7Hq2Lx9VmR4tNb8WcZk3Ys6Pd1Jf5Ga0Ue2Ko9Mw"))
                StripeAPI.defaultPublishableKey = ↓"pk_live_51Mq8Tz2RwK4vLx9NbYc3Hd7Jf"
            }
            """, note: "Publishable client keys (RevenueCat, PostHog, Stripe publishable, Mapbox `pk.`, Google `AIza`): reported at low severity and confidence, as keys to restrict in the vendor's dashboard, not as leaked secrets."),
            .triggering("Secrets.m", """
            static NSString *const kStripeKey = ↓@"sk_live_4eC39HqLyjWDarjtT1zdp7dc";
            """),
            .nonTriggering("Secrets.swift", """
            let publicKey = \"\"\"
            -----BEGIN PUBLIC KEY-----
            MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE
            -----END PUBLIC KEY-----
            \"\"\"
            let documented = "AKIAIOSFODNN7EXAMPLE"
            let stripePublishable = "pk_live_51H8xQ2ExampleKeyValue00"
            let prefix = "sk_live_"
            // let old = "ghp_1A2b3C4d5E6f7G8h9I0jK1lM2nO3pQ4rS5tU"
            """, note: "Public keys, AWS's documented example id, publishable keys, bare prefixes and comments."),
            .triggering("Demo.app/Demo", """
            Mach-O executable arm64
            string: ↓AKIA2E0A8F3B244C9986
            string: https://api.example.com/v1
            """, note: "A built app: the finding names the key by its first characters only."),
            .nonTriggering("Demo.app/Demo", """
            Mach-O executable arm64
            string: AKIAIOSFODNN7EXAMPLE
            string: https://api.example.com/v1
            """, note: "AWS's documented example key."),
        ] + HardcodedCredentialFormatRule.resourceExamples)

    public init() {}

    /// How the literals `KnownCredential` recognizes start (a PEM block at its `-----BEGIN` line), as words of
    /// string literals.
    static let literalPrefixes = ["BEGIN", "AKIA", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "xox", "sk_live_", "rk_live_",
                                  "sk_test_", "AIza", "appl_", "goog_", "amzn_", "phc_", "pk_", "pk"]

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        guard unit.names.literalsContainAny(prefixes: Self.literalPrefixes) else { return }
        file.forEachExpression { expression, _ in
            guard let value = Self.literalText(expression), let match = KnownCredential.match(value),
                  !Self.isDocumentedExample(value) else { return }
            let message = match.isPublishable
                ? "String literal is \(match.description), a client key the vendor documents as safe to ship in an app: it identifies the app, it does not authorize privileged calls. Restrict it server-side in the vendor's dashboard (bundle id, allowed APIs) and keep secret keys off the device."
                : "String literal is \(match.description): anything in the app binary is public. Revoke it and keep it off the device."
            sink.report(message, in: file, at: expression.range, severity: match.severity, confidence: match.confidence,
                        evidence: Redaction.redact(file.line(expression.range.start.line).trimmed(of: " \t"), masking: [value]))
        }
    }

    /// The text of a string literal, interpolations left out (a PEM block may interpolate nothing).
    static func literalText(_ expression: Expression) -> String? {
        guard case .stringLiteral(let segments) = expression.kind else { return nil }
        return segments.map { segment -> String in
            if case .text(let text) = segment { return text }
            return ""
        }.joined()
    }

    static func isDocumentedExample(_ value: String) -> Bool {
        let upper = value.uppercased()
        return upper.contains("EXAMPLE") || upper.contains("XXXX") || upper.contains("YOUR")
    }
}

extension String {
    /// Trims the given characters from both ends (no Foundation needed).
    func trimmed(of set: String) -> String {
        var scalars = Substring(self)
        while let first = scalars.first, set.contains(first) { scalars.removeFirst() }
        while let last = scalars.last, set.contains(last) { scalars.removeLast() }
        return String(scalars)
    }
}
