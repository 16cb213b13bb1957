import MoatCore
import MoatSyntax

/// A secret written to UserDefaults or iCloud's key-value store: the `sensitive` flow (a value named as a
/// secret, read from the Keychain or typed into a secure field, through variables, parameters, properties,
/// helper functions and other files) reaching `set(_:forKey:)`, `setValue(_:forKey:)`, `setObject:forKey:`
/// on `UserDefaults.standard`, a suite (`UserDefaults(suiteName:)`), a variable named `…defaults` or
/// `NSUbiquitousKeyValueStore`; or, without a flow, a storage key that names a secret (`forKey: "authToken"`,
/// `forKey: Keys.password`) and an `@AppStorage` property (or one of a wrapper that stores into UserDefaults:
/// named for it, `@UserDefault("password")`, or a `@propertyWrapper` of the file whose setter calls
/// `UserDefaults…set(_:forKey:)`) named or keyed as one. Booleans, numbers, nil and
/// dates are never secrets, and a push or device token key is not made a credential by a value called
/// `token`. A pattern (a name decides what is secret): medium, low confidence.
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
            .triggering("SyncSettings.swift", """
            struct SettingsView: View {
                @AppStorage("authToken") var ↓authToken = ""
            }
            func sync(keychain: Keychain) {
                let refresh = keychain["refresh"]
                ↓NSUbiquitousKeyValueStore.default.set(refresh, forKey: "r")
            }
            """, note: "An @AppStorage secret, and a Keychain value synced through the iCloud key-value store."),
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
            .nonTriggering("Vault.swift", """
            import Security
            enum AvailableSecrets: String { case password, pin }
            struct Account {
                let userID: String
                let secret: String
            }
            final class Vault {
                var availableSecrets: AvailableSecrets = .password
                func store(password: String, userID: String) {
                    let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecValueData as String: Data(password.utf8)]
                    let status = SecItemAdd(query as CFDictionary, nil)
                    UserDefaults.standard.set(Int(status), forKey: "lastKeychainStatus")
                    UserDefaults.standard.set(availableSecrets.rawValue, forKey: "secretKind")
                    let account = Account(userID: userID, secret: password)
                    UserDefaults.standard.set(account.userID, forKey: "lastUser")
                    UserDefaults.standard.set(meetsPolicy(password), forKey: "policyMet")
                }
                func meetsPolicy(_ password: String) -> Bool { password.count >= 12 }
            }
            """, note: "What SecItemAdd answers, an enum case, the other field of a struct that holds a secret, and a Boolean computed from a password are not the secret."),
            .triggering("AccountStore.swift", """
            struct Account {
                let userID: String
                let secret: String
            }
            func remember(userID: String, password: String) {
                let account = Account(userID: userID, secret: password)
                ↓UserDefaults.standard.set(account.secret, forKey: "secret")
            }
            """, note: "The field that holds the secret is still the secret."),
            .triggering("GroupStore.swift", """
            final class GroupStore {
                let shared = UserDefaults(suiteName: "group.com.example.app")!
                private let store = UserDefaults.standard
                func didSignIn(sessionToken: String, theme: String) {
                    ↓shared.set(sessionToken, forKey: "session")
                    ↓self.store.set(sessionToken, forKey: "s")
                    shared.set(theme, forKey: "theme")
                }
            }
            """, note: "Stored-property receivers: the suite and the standard defaults kept as members of the type."),
            .triggering("LBGroupStore.m", """
            @interface LBGroupStore : NSObject
            @property (nonatomic, strong) NSUserDefaults *groupStore;
            @end
            @implementation LBGroupStore
            - (void)rememberPassword:(NSString *)password theme:(NSString *)theme {
                ↓[self.groupStore setObject:password forKey:@"pw"];
                ↓[_groupStore setObject:password forKey:@"pw2"];
                [self.groupStore setObject:theme forKey:@"theme"];
            }
            @end
            """, note: "An Objective-C property declared as NSUserDefaults, through the accessor and the instance variable."),
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
        guard unit.names.contains("forKey") || unit.names.containsAny(APIs.defaultsWrite.selectors.prefix(3) + ["AppStorage"])
                || unit.names.containsName(where: { $0.hasText("Default") })
        else { return }
        let cache = LocalValuesCache(file: file)
        var reported = Set<Int>()
        var contexts: [Int: WalkContext] = [:]
        for (call, context) in file.calls(where: Self.isDefaultsWrite) { contexts[call.range.start.offset] = context }
        for (flow, taint) in SensitiveFlows.flows(unit, .defaultsWrite) {
            let values = contexts[flow.range.start.offset].map { cache.values(for: $0) }
            let keyName = SensitiveFlows.keyName(flow.arguments[.key], values)
            if let keyName, SecretNaming.isNonCredentialTokenName(keyName) { continue }
            if let value = flow.arguments[.value], let values, SensitiveFlows.isNonSecretValue(value, values) { continue }
            reported.insert(flow.range.start.offset)
            let key = Self.keyLabel(flow.arguments[.key], keyName, file)
            SensitiveFlows.report("\(DataflowReporting.capitalized(SensitiveFlows.describe(taint))) is stored in \(Self.store(flow.arguments, file)) under \(key) with \(flow.calledName): an unencrypted plist that is copied into backups. Store it in the Keychain.",
                                  flow: flow, taint: taint, in: file, confidence: Self.description.confidence, &sink)
        }
        // Without a flow: the key says a secret is stored.
        for (call, context) in file.calls(where: Self.isDefaultsWrite) where !reported.contains(call.range.start.offset) {
            for site in SinkTable.sinks(of: call, in: file, kinds: [.defaultsWrite]) {
                let values = cache.values(for: context)
                guard let value = site.argument(.value), !SensitiveFlows.isNonSecretValue(value, values),
                      let keyName = SensitiveFlows.keyName(site.argument(.key), values),
                      !SecretNaming.isNonCredentialTokenName(keyName), let kind = SensitiveNaming.kind(ofName: keyName) else { continue }
                reported.insert(call.range.start.offset)
                let key = Self.keyLabel(site.argument(.key), keyName, file)
                sink.report("\(DataflowReporting.capitalized(kind.phrase)) (`\(file.text(value.range))`) is stored in \(Self.store(site.arguments, file)) under \(key): an unencrypted plist that is copied into backups. Store it in the Keychain.",
                            in: file, at: call.range)
                break
            }
        }
        // `@AppStorage("authToken") var token = ""`, `@UserDefault("password") var password: String`: a UserDefaults
        // value by declaration, through SwiftUI's wrapper or one that stores into UserDefaults.
        let wrappers = Self.defaultsWrappers(file)
        for variable in file.allVariables {
            guard let wrapper = variable.attributes.map({ $0.hasPrefix("@") ? String($0.dropFirst()) : $0 }).first(where: wrappers.contains)
            else { continue }
            let text = file.text(variable.range)
            let key = text.range(of: wrapper + "(").flatMap { start -> String? in
                let rest = text[start.upperBound...]
                guard let open = rest.firstIndex(of: "\""), !rest[..<open].contains(")") else { return nil }
                return rest[rest.index(after: open)...].split(separator: "\"", maxSplits: 1).first.map(String.init)
            }
            let type = variable.type ?? variable.initializer.flatMap(Self.literalType)
            // An app's own wrapper is taken at its word only with a type that says the value is text or data
            // (`@UserDefault(key: "settingsScreenShowChangePassword", defaultValue: BuildSettings.flag) var …` is a Bool).
            if wrapper != "AppStorage", type == nil { continue }
            guard let kind = key.flatMap({ SensitiveNaming.kind(ofName: $0, type: type) }) ?? SensitiveNaming.kind(ofName: variable.name, type: type),
                  !SecretNaming.isNonCredentialTokenName(key ?? variable.name) else { continue }
            sink.report("`\(variable.name)` holds \(kind.phrase) in UserDefaults through @\(wrapper)\(key.map { " under \"\($0)\"" } ?? ""): an unencrypted plist that is copied into backups. Store it in the Keychain.",
                        in: file, at: variable.nameRange)
        }
    }

    /// SwiftUI's `AppStorage`, a wrapper named for UserDefaults (`UserDefault`, `UserDefaultsBacked`,
    /// `Defaults`, `DefaultsStorage`), and a `@propertyWrapper` of the file whose body writes to UserDefaults
    /// (`UserDefaults.standard.set(newValue, forKey: key)`, whatever it is called).
    static func defaultsWrappers(_ file: CodeFile) -> Set<String> {
        var names: Set<String> = ["AppStorage"]
        for attribute in file.allVariables.flatMap(\.attributes) {
            let name = attribute.hasPrefix("@") ? String(attribute.dropFirst()) : attribute
            if name.first?.isUppercase == true, SecretNaming.words(name).contains(where: { $0 == "defaults" || $0 == "default" }),
               SecretNaming.words(name).contains(where: { $0 == "user" || $0 == "defaults" }) {
                names.insert(name)
            }
        }
        for type in file.allTypes where type.attributes.contains(where: { $0 == "propertyWrapper" || $0 == "@propertyWrapper" }) {
            var writes = false
            for case .variable(let variable) in type.members where variable.name == "wrappedValue" {
                for accessor in variable.accessors {
                    accessor.walk { node, _ in
                        if case .expression(let expression) = node, Self.isDefaultsWrite(expression),
                           case .call(let callee, _, _) = expression.kind, callee.receiver?.chainMentions(TaintSinks.defaultsReceivers) ?? false {
                            writes = true
                        }
                    }
                }
            }
            if writes { names.insert(type.name) }
        }
        return names
    }

    /// The type of a literal initializer (`= false`, `= 0`), for a property declared without one.
    static func literalType(_ initializer: Expression) -> String? {
        switch initializer.unwrapped.kind {
        case .booleanLiteral: "Bool"
        case .integerLiteral: "Int"
        case .floatLiteral: "Double"
        case .stringLiteral: "String"
        default: nil
        }
    }

    static func keyLabel(_ key: Expression?, _ name: String?, _ file: CodeFile) -> String {
        if let key, let text = key.strippedOfCasts.stringValue { return "\"\(text)\"" }
        if let key { return "`\(file.text(key.range))`" }
        return name.map { "\"\($0)\"" } ?? "a key"
    }

    /// "UserDefaults" or "the iCloud key-value store".
    static func store(_ arguments: [SinkRole: Expression], _ file: CodeFile) -> String {
        guard let receiver = arguments[.destination] else { return "UserDefaults" }
        if receiver.chainMentions(["NSUbiquitousKeyValueStore", "ubiquitousStore", "keyValueStore", "kvStore", "cloudStore"]) {
            return "the iCloud key-value store (synced to every device of the account)"
        }
        return "UserDefaults"
    }

    static func isDefaultsWrite(_ call: Expression) -> Bool {
        guard case .call(let callee, let arguments, _) = call.kind, let name = callee.name, arguments.count == 2 else { return false }
        return TaintSinks.byName[name]?.contains { $0.sink.kind == .defaultsWrite } ?? false
    }
}
