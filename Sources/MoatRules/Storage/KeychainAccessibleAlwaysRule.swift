import MoatCore
import MoatSyntax

public struct KeychainAccessibleAlwaysRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-STOR-207", slug: "keychain-accessible-always",
        title: "Keychain item readable while the device is locked",
        severity: .medium, confidence: .high, evidence: .configuration, cwe: [311, 522],
        masvs: ["MASVS-STORAGE-1"], mastg: ["MASTG-TEST-0052"],
        rationale: "`kSecAttrAccessibleAlways` and `kSecAttrAccessibleAlwaysThisDeviceOnly` (deprecated since iOS 12) keep the item decryptable at all times, even before the first unlock after a reboot, so the Keychain's main protection, the passcode, does not apply to it.",
        fix: "Use `kSecAttrAccessibleWhenUnlockedThisDeviceOnly` (or `…AfterFirstUnlockThisDeviceOnly` for items background tasks need), and migrate existing items with `SecItemUpdate`.",
        references: ["https://developer.apple.com/documentation/security/ksecattraccessiblealways",
                     "https://developer.apple.com/documentation/security/keychain_services/keychain_items/restricting_keychain_item_accessibility"],
        examples: [
            .triggering("TokenStore.swift", """
            func store(_ tokenData: Data) {
                let query: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword,
                    kSecValueData as String: tokenData,
                    kSecAttrAccessible as String: ↓kSecAttrAccessibleAlways,
                ]
                SecItemAdd(query as CFDictionary, nil)
                keychain.accessibility(↓.alwaysThisDeviceOnly).set(token, key: "token")
            }
            """),
            RuleExample(files: [
                ExampleFile(name: "KeychainPolicy.swift", content: """
                enum KeychainPolicy {
                    static let accessibility = ↓kSecAttrAccessibleAlways
                }
                """),
                ExampleFile(name: "TokenStore.swift", content: """
                func store(_ tokenData: Data) {
                    let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecValueData as String: tokenData,
                                                kSecAttrAccessible as String: KeychainPolicy.accessibility]
                    SecItemAdd(query as CFDictionary, nil)
                }
                """),
            ], triggers: true, note: "A class kept in a constant is reported once, where the constant is written."),
            .triggering("TokenStore.m", """
            - (void)store:(NSData *)tokenData {
                NSDictionary *query = @{(__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword,
                                        (__bridge id)kSecValueData: tokenData,
                                        (__bridge id)kSecAttrAccessible: (__bridge id)↓kSecAttrAccessibleAlwaysThisDeviceOnly};
                SecItemAdd((__bridge CFDictionaryRef)query, NULL);
            }
            """),
            .nonTriggering("TokenStore.swift", """
            func store(_ tokenData: Data) {
                let query: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword,
                    kSecValueData as String: tokenData,
                    kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
                ]
                SecItemAdd(query as CFDictionary, nil)
            }
            func migrate(_ attributes: [String: Any]) {
                if attributes[kSecAttrAccessible as String] as? String == kSecAttrAccessibleAlways as String {
                    update(attributes)
                }
            }
            """, note: "Comparing with the old class, to migrate items away from it, is not setting it."),
        ])

    public init() {}

    static let constants: Set<String> = ["kSecAttrAccessibleAlways", "kSecAttrAccessibleAlwaysThisDeviceOnly",
                                         "accessibleAlways", "accessibleAlwaysThisDeviceOnly"]

    /// The constants, and KeychainAccess's `.always` cases.
    static let requiredNames = constants.union(["always", "alwaysThisDeviceOnly"])

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        guard unit.names.containsAny(Self.requiredNames) else { return }
        var compared = Set<ObjectIdentifier>()
        var hits: [Expression] = []
        file.walk { node, _ in
            switch node {
            case .expression(let expression):
                switch expression.kind {
                case .binary(let op, let lhs, let rhs) where op == "==" || op == "!=":
                    for inner in lhs.descendants() + rhs.descendants() { compared.insert(ObjectIdentifier(inner)) }
                case .identifier(let name) where Self.constants.contains(name):
                    hits.append(expression)
                case .member(_, let name) where Self.constants.contains(name):
                    hits.append(expression)
                case .call(let callee, let arguments, _) where callee.name == "accessibility" && arguments.count >= 1:
                    // KeychainAccess: keychain.accessibility(.always)
                    if case .member(nil, let value) = arguments[0].value.kind, value == "always" || value == "alwaysThisDeviceOnly" {
                        hits.append(arguments[0].value)
                    }
                default:
                    break
                }
            case .statement(let statement):
                if case .switchStatement(_, let cases) = statement.kind {
                    for pattern in cases.flatMap(\.patterns) {
                        for inner in pattern.descendants() { compared.insert(ObjectIdentifier(inner)) }
                    }
                }
            case .declaration:
                break
            }
        }
        for hit in hits where !compared.contains(ObjectIdentifier(hit)) {
            sink.report("Keychain item accessibility `\(file.text(hit.range))` keeps the item readable while the device is locked, even before the first unlock (deprecated). Use `kSecAttrAccessibleWhenUnlockedThisDeviceOnly`.",
                        in: file, at: hit.range)
        }
    }
}
