import MoatCore
import MoatSyntax

/// A secret written to UserDefaults: `set(_:forKey:)`, `setValue(_:forKey:)`, `setObject:forKey:` on
/// `UserDefaults.standard`, a suite, or a name/declared type that is UserDefaults, where the storage key
/// (its literal text, or the name of the constant used as key) or the stored value's name is a secret by
/// `SecretNaming` (token, password, apiKey, clientSecret, sessionId...). Booleans, numbers and nil are
/// never secrets (`set(true, forKey: "hasSeenPasswordTip")`).
public struct SecretInUserDefaultsRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-STOR-203", slug: "secret-in-user-defaults",
        title: "Secret stored in UserDefaults",
        severity: .medium, confidence: .low, cwe: [312, 922],
        masvs: ["MASVS-STORAGE-1"], mastg: ["MASTG-TEST-0052", "MASTG-TEST-0058"],
        rationale: "UserDefaults is an unencrypted property list in Library/Preferences. It is copied into backups, readable by anyone with file access to the container (a jailbroken device, a forensic image, a backup), and shared with extensions for suite defaults. Tokens, passwords and keys stored there outlive logout and leave the device.",
        fix: "Store secrets in the Keychain (`SecItemAdd` with a `…ThisDeviceOnly` accessibility class); keep only non-sensitive preferences in UserDefaults and remove the old value on upgrade.",
        references: ["https://developer.apple.com/documentation/security/keychain_services",
                     "https://mas.owasp.org/MASTG/tests/ios/MASVS-STORAGE/MASTG-TEST-0052/"],
        examples: [
            .triggering("Session.swift", """
            func didLogin(_ response: LoginResponse, password: String) {
                ↓UserDefaults.standard.set(response.accessToken, forKey: "accessToken")
                let defaults = UserDefaults(suiteName: "group.com.example.app")
                ↓defaults?.set(password, forKey: Keys.password)
                ↓UserDefaults.standard.setValue(response.token, forKey: "auth_token")
            }
            """),
            .triggering("Session.m", """
            - (void)didLogin:(NSString *)token {
                ↓[[NSUserDefaults standardUserDefaults] setObject:token forKey:@"auth_token"];
            }
            """),
            .nonTriggering("Preferences.swift", """
            struct CustomPointStruct: Codable {
                var x: Double
                var name: String
            }
            func save(points: [CustomPointStruct], customPoint: CustomPoint) {
                UserDefaults.standard.set(try? PropertyListEncoder().encode(points), forKey:"points")
                let data = NSKeyedArchiver.archivedData(withRootObject: customPoint)
                UserDefaults.standard.set(data, forKey: "customPoint")
                UserDefaults.standard.set(true, forKey: "hasSeenPasswordTip")
                UserDefaults.standard.set(Date(), forKey: "tokenExpiry")
                UserDefaults.standard.set(deviceToken, forKey: "pushToken")
                UserDefaults.standard.set(token, forKey: Constants.Defaults.pushToken)
                cache.set(token, forKey: "token")
            }
            """, note: "The MASTG property-list examples, flags and metadata about secrets, and a non-UserDefaults cache."),
            .nonTriggering("Session.m", """
            - (void)didLogin:(NSString *)userName {
                [[NSUserDefaults standardUserDefaults] setObject:userName forKey:@"lastUserName"];
                [[NSUserDefaults standardUserDefaults] setBool:YES forKey:@"rememberPassword"];
            }
            """),
        ])

    public init() {}

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        guard unit.names.contains("forKey") else { return }
        let cache = LocalValuesCache(file: file)
        for (call, context) in file.calls(where: Self.isDefaultsWrite) {
            let arguments = call.arguments
            guard arguments.count == 2, let receiver = call.receiver else { continue }
            let values = cache.values(for: context)
            guard Self.isUserDefaults(receiver, values) else { continue }
            let value = arguments[0].value
            if Self.isNonSecretValue(value, values) { continue }
            let keyExpression = arguments[1].value
            let keyText = values.resolve(keyExpression).stringValue
            let keyName = keyText ?? keyExpression.strippedOfCasts.nameChain.last
            let valueName = value.strippedOfCasts.nameChain.last
            // The key says what is stored: a push or device token key is not made a credential by a
            // value called `token`.
            if let keyName, SecretNaming.isNonCredentialTokenName(keyName) { continue }
            let kind = keyName.flatMap(SecretNaming.kind(ofName:)) ?? valueName.flatMap(SecretNaming.kind(ofName:))
            guard let kind else { continue }
            let keyLabel = keyText.map { "\"\($0)\"" } ?? "`\(file.text(keyExpression.range))`"
            sink.report("A \(kind.rawValue) (`\(file.text(value.range))`) is stored in UserDefaults under \(keyLabel): an unencrypted plist that is copied into backups. Store it in the Keychain.",
                        in: file, at: call.range)
        }
    }

    static func isDefaultsWrite(_ call: Expression) -> Bool {
        guard case .call(let callee, let arguments, let isMessageSend) = call.kind, let name = callee.name, arguments.count == 2 else { return false }
        if isMessageSend { return name == "setObject:forKey:" || name == "setValue:forKey:" }
        return (name == "set" || name == "setValue" || name == "setObject") && arguments[1].label == "forKey"
    }

    static func isUserDefaults(_ receiver: Expression, _ values: LocalValues) -> Bool {
        let chain = receiver.nameChain
        if chain.contains(where: { $0 == "UserDefaults" || $0 == "NSUserDefaults" || $0 == "standardUserDefaults" }) { return true }
        if let last = chain.last {
            if let type = values.declaredType(of: last), type.contains("UserDefaults") { return true }
            if last.lowercased().hasSuffix("defaults") { return true }
        }
        let resolved = values.resolve(receiver)
        return resolved.nameChain.contains { $0 == "UserDefaults" || $0 == "NSUserDefaults" || $0 == "standardUserDefaults" }
    }

    /// Booleans, numbers, nil and dates are not secrets.
    static func isNonSecretValue(_ value: Expression, _ values: LocalValues) -> Bool {
        let resolved = values.resolve(value).strippedOfCasts
        switch resolved.kind {
        case .booleanLiteral, .integerLiteral, .floatLiteral, .nilLiteral: return true
        case .identifier(let name): return ["YES", "NO", "true", "false", "nil"].contains(name)
        case .call(let callee, _, _): return ["Date", "NSDate", "NSNumber", "date"].contains(callee.name ?? "")
        default: return false
        }
    }
}
