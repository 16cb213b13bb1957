import MoatCore
import MoatSyntax

/// A Realm opened with no encryption key: `try Realm()` / `[RLMRealm defaultRealm]` (the default
/// configuration) when the file never sets an encryption key, or a configuration built without
/// `encryptionKey:` and never given one (`config.encryptionKey = key`) before the open. In-memory
/// configurations are fine.
public struct RealmWithoutEncryptionRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-STOR-201", slug: "realm-without-encryption",
        title: "Realm database opened without an encryption key",
        severity: .medium, confidence: .medium, evidence: .configuration, cwe: [311, 312],
        masvs: ["MASVS-STORAGE-1"], mastg: ["MASTG-TEST-0052", "MASTG-TEST-0079"],
        rationale: "Realm encryption is off by default: the .realm file is plain data protected only by iOS Data Protection, readable from backups, from a jailbroken or forensically imaged device, and by anything that gets file access to the container.",
        fix: "Generate a random 64-byte key once, keep it in the Keychain (ThisDeviceOnly), and open the Realm with `Realm.Configuration(encryptionKey: key)` (Objective-C: `configuration.encryptionKey = key`).",
        references: ["https://www.mongodb.com/docs/atlas/device-sdks/sdk/swift/realm-files/encrypt-a-realm/",
                     "https://mas.owasp.org/MASTG/tests/ios/MASVS-STORAGE/MASTG-TEST-0052/"],
        groupsRepeatedFindings: true,
        examples: [
            .triggering("Store.swift", """
            import RealmSwift
            func openStore() throws -> Realm {
                return try ↓Realm()
            }
            func openCache(at url: URL) throws -> Realm {
                let config = Realm.Configuration(fileURL: url, schemaVersion: 3)
                return try ↓Realm(configuration: config)
            }
            """),
            .triggering("Vault.swift", """
            import RealmSwift
            func openVault(key: Data) throws -> Realm {
                try Realm(configuration: Realm.Configuration(encryptionKey: key))
            }
            func openSettings() throws -> Realm {
                try ↓Realm()
            }
            """, note: "An encrypted configuration elsewhere in the file does not make the default one encrypted."),
            .triggering("Store.m", """
            - (RLMRealm *)openStore {
                return ↓[RLMRealm defaultRealm];
            }
            - (RLMRealm *)openCache:(NSURL *)url {
                RLMRealmConfiguration *config = [RLMRealmConfiguration defaultConfiguration];
                config.fileURL = url;
                return ↓[RLMRealm realmWithConfiguration:config error:nil];
            }
            """),
            .nonTriggering("Store.swift", """
            import RealmSwift
            func openStore(key: Data) throws -> Realm {
                let config = Realm.Configuration(encryptionKey: key)
                return try Realm(configuration: config)
            }
            func openCache(at url: URL, key: Data) throws -> Realm {
                var config = Realm.Configuration(fileURL: url)
                config.encryptionKey = key
                return try Realm(configuration: config)
            }
            func preview() throws -> Realm {
                try Realm(configuration: Realm.Configuration(inMemoryIdentifier: "preview"))
            }
            """),
            .nonTriggering("AppDelegate.swift", """
            import RealmSwift
            func configureStorage(key: Data) {
                Realm.Configuration.defaultConfiguration = Realm.Configuration(encryptionKey: key)
            }
            func openStore() throws -> Realm {
                try Realm()
            }
            """, note: "The default configuration is given a key in this file, so `Realm()` uses it."),
            .nonTriggering("Store.m", """
            - (RLMRealm *)openStore:(NSData *)key {
                RLMRealmConfiguration *config = [RLMRealmConfiguration defaultConfiguration];
                config.encryptionKey = key;
                return [RLMRealm realmWithConfiguration:config error:nil];
            }
            """),
        ])

    public init() {}

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        guard unit.names.containsAny(["Realm", "RLMRealm"]) else { return }
        // `Realm()` / `defaultRealm` use the default configuration: quiet when this file replaces the default
        // (`Realm.Configuration.defaultConfiguration = …`, `[RLMRealmConfiguration setDefaultConfiguration:]`)
        // and gives some configuration an encryption key.
        let keyWrites = file.propertyWrites(named: ["encryptionKey"])
        var mentionsKey = !keyWrites.isEmpty
        let defaultWrites = file.propertyWrites(named: ["defaultConfiguration"])
        var replacesDefault = !defaultWrites.isEmpty
        file.forEachExpression { expression, _ in
            if expression.arguments.contains(where: { $0.label == "encryptionKey" }) { mentionsKey = true }
            if expression.name == APIs.realmDefaultConfigurationSet.selectors[0] { replacesDefault = true }
        }
        let fileSetsKey = mentionsKey && replacesDefault
        let cache = LocalValuesCache(file: file)
        file.forEachExpression { expression, context in
            guard case .call(let callee, let arguments, let isMessageSend) = expression.kind, let name = callee.name else { return }
            let configuration: Expression?
            if isMessageSend {
                guard callee.receiver?.nameChain == ["RLMRealm"] else { return }
                switch name {
                case "defaultRealm":
                    if !fileSetsKey { report(expression, Self.defaultConfigurationMessage, file, &sink) }
                    return
                case APIs.realmOpenObjC.selectors[0]: configuration = arguments.first?.value
                case APIs.realmOpenObjC.selectors[1]:
                    report(expression, "`realmWithURL:` opens an unencrypted Realm", file, &sink)
                    return
                default: return
                }
            } else {
                let isRealm: Bool
                if case .identifier("Realm") = callee.unwrapped.kind { isRealm = true } else {
                    isRealm = name == "asyncOpen" && callee.receiver?.nameChain == ["Realm"]
                }
                guard isRealm else { return }
                if arguments.isEmpty || (name == "asyncOpen" && !arguments.contains { $0.label == "configuration" }) {
                    if !fileSetsKey { report(expression, Self.defaultConfigurationMessage, file, &sink) }
                    return
                }
                configuration = arguments.first { $0.label == "configuration" }?.value
            }
            guard let configuration else { return }
            let built = cache.values(for: context).resolve(configuration)
            guard case .call(let configCallee, let configArguments, _) = built.strippedOfCasts.kind,
                  let configName = configCallee.name,
                  ["Configuration", "defaultConfiguration", "RLMRealmConfiguration", "init"].contains(configName)
                    || configCallee.nameChain.contains("RLMRealmConfiguration") else { return }
            if configArguments.contains(where: { $0.label == "encryptionKey" || $0.label == "inMemoryIdentifier" }) { return }
            if let variable = LocalValues.assignableName(configuration.strippedOfCasts),
               keyWrites.contains(where: { $0.object.flatMap(LocalValues.assignableName) == variable || $0.object?.nameChain.last == variable }) {
                return
            }
            let variable = LocalValues.assignableName(configuration.strippedOfCasts)
            // The configuration made the default one (`Realm.Configuration.defaultConfiguration = config`): the
            // same database as every `Realm()`, reported as one (the scan groups equal messages).
            if let variable, defaultWrites.contains(where: { LocalValues.assignableName($0.value.strippedOfCasts) == variable }) {
                report(expression, Self.defaultConfigurationMessage, file, &sink)
                return
            }
            let named = variable.map { " `\($0)`" } ?? ""
            report(expression, "Realm is opened with a configuration\(named) that has no `encryptionKey`", file, &sink)
        }
    }

    static let defaultConfigurationMessage = "Realm is opened with the default configuration, which has no encryption key in this file"

    private func report(_ call: Expression, _ what: String, _ file: CodeFile, _ sink: inout FindingSink) {
        sink.report("\(what): the database file is stored unencrypted, protected only by iOS Data Protection. Open it with an encryption key kept in the Keychain.",
                    in: file, at: call.range)
    }
}
