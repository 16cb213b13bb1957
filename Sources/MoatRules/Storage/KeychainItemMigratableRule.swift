import MoatCore
import MoatSyntax

/// A keychain item added (`SecItemAdd`) or updated (`SecItemUpdate`) with a secret (`kSecValueData`) and
/// an accessibility class that is not `…ThisDeviceOnly`, or none (the default `kSecAttrAccessibleWhenUnlocked`
/// migrates). Items with `kSecAttrAccessControl` are left alone (their class is inside the access control
/// object), and so are the `Always` classes (MOAT-STOR-207). Dictionaries that cannot be followed stay quiet.
public struct KeychainItemMigratableRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-STOR-208", slug: "keychain-item-migratable",
        title: "Keychain secret can migrate to other devices",
        severity: .low, confidence: .low, evidence: .configuration, cwe: [522],
        masvs: ["MASVS-STORAGE-1", "MASVS-STORAGE-2"], mastg: ["MASTG-TEST-0052", "MASTG-TEST-0058"],
        rationale: "Keychain items without a `ThisDeviceOnly` class are included in encrypted backups and restored onto other devices (and sync through iCloud Keychain when marked synchronizable). Device-bound secrets such as session tokens, refresh tokens and private keys should not follow a backup to another phone.",
        fix: "Store device-bound secrets with `kSecAttrAccessibleWhenUnlockedThisDeviceOnly` (or `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly` for background access). Keep migratable classes only for items the user expects on a new device.",
        references: ["https://developer.apple.com/documentation/security/keychain_services/keychain_items/restricting_keychain_item_accessibility"],
        examples: [
            .triggering("TokenStore.swift", """
            func store(_ token: String) {
                let query: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword,
                    kSecAttrAccount as String: "session",
                    kSecValueData as String: Data(token.utf8),
                    kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock,
                ]
                ↓SecItemAdd(query as CFDictionary, nil)
            }
            func storeRefresh(_ token: Data) {
                var query = [String: Any]()
                query[kSecClass as String] = kSecClassGenericPassword
                query[kSecValueData as String] = token
                ↓SecItemAdd(query as CFDictionary, nil)
            }
            """, note: "Without kSecAttrAccessible the item gets kSecAttrAccessibleWhenUnlocked, which migrates."),
            .triggering("TokenStore.m", """
            - (void)store:(NSData *)data {
                NSDictionary *query = @{(__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword, (__bridge id)kSecValueData: data};
                ↓SecItemAdd((__bridge CFDictionaryRef)query, NULL);
            }
            """),
            .triggering("TokenStore.swift", """
            enum KeychainPolicy {
                static let accessibility = kSecAttrAccessibleAfterFirstUnlock
            }
            func store(_ token: String) {
                let query: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword,
                    kSecValueData as String: Data(token.utf8),
                    kSecAttrAccessible as String: KeychainPolicy.accessibility,
                ]
                ↓SecItemAdd(query as CFDictionary, nil)
            }
            """, note: "The class kept in a constant."),
            .nonTriggering("TokenStore.swift", """
            enum KeychainPolicy {
                static let accessibility = kSecAttrAccessibleWhenUnlockedThisDeviceOnly
            }
            func store(_ token: String) {
                let query: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword,
                    kSecValueData as String: Data(token.utf8),
                    kSecAttrAccessible as String: KeychainPolicy.accessibility,
                ]
                SecItemAdd(query as CFDictionary, nil)
            }
            """, note: "A ThisDeviceOnly class kept in a constant."),
            .nonTriggering("TokenStore.swift", """
            func store(_ token: String) {
                let query: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword,
                    kSecValueData as String: Data(token.utf8),
                    kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
                ]
                SecItemAdd(query as CFDictionary, nil)
            }
            func store(_ token: Data, access: SecAccessControl) {
                let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecValueData as String: token,
                                            kSecAttrAccessControl as String: access]
                SecItemAdd(query as CFDictionary, nil)
            }
            func add(_ query: [String: Any]) {
                SecItemAdd(query as CFDictionary, nil)
            }
            """),
        ])

    public init() {}

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        let (add, update) = (APIs.keychainItemWrite.cFunctions[0], APIs.keychainItemWrite.cFunctions[1]) // SecItemAdd, SecItemUpdate
        guard unit.names.containsAny([add, update]) else { return }
        let cache = LocalValuesCache(file: file)
        for (call, context) in file.calls(where: { call in
            guard case .call(let callee, _, false) = call.kind, case .identifier(let name) = callee.unwrapped.kind else { return false }
            return name == add || name == update
        }) {
            let arguments = call.arguments
            let isAdd = call.name == add
            guard let dictionary = (isAdd ? arguments.first : (arguments.count > 1 ? arguments[1] : nil))?.value else { continue }
            let values = cache.values(for: context)
            guard let entries = DictionaryEntries.of(dictionary, values, in: file.statements(of: context)),
                  entries.contains("kSecValueData"), !entries.contains("kSecAttrAccessControl") else { continue }
            if let accessible = entries.value(forKey: "kSecAttrAccessible") {
                // The class, written here or kept in a constant (`static let accessibility = kSecAttrAccessible…`).
                var classes: [(name: String, related: [RelatedLocation])] = []
                for origin in unit.constants.origins(of: accessible, in: context) {
                    guard let value = origin.value, let name = DictionaryEntries.keyName(value), name.hasPrefix("kSecAttrAccessible") else { continue }
                    classes.append((name, origin.steps.map { RelatedLocation(location: $0.location, message: $0.message) }))
                }
                if classes.isEmpty, let name = DictionaryEntries.keyName(accessible) { classes = [(name, [])] }
                guard let (name, related) = classes.first(where: { !$0.name.hasSuffix("ThisDeviceOnly") && !KeychainAccessibleAlwaysRule.constants.contains($0.name) })
                else { continue }
                sink.report("Keychain secret stored with `\(name)`, which migrates to other devices through backups. Use `kSecAttrAccessibleWhenUnlockedThisDeviceOnly` for device-bound secrets.",
                            in: file, at: call.range, related: related)
            } else {
                sink.report("Keychain secret stored without `kSecAttrAccessible`: the default `kSecAttrAccessibleWhenUnlocked` migrates to other devices through backups. Use `kSecAttrAccessibleWhenUnlockedThisDeviceOnly` for device-bound secrets.",
                            in: file, at: call.range)
            }
        }
    }
}
