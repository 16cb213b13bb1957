import MoatCore
import MoatSyntax

/// Sensitive data written to a local database: the `sensitive` flow reaching a Core Data attribute set
/// (`setValue(_:forKey:)` on a managed object), an SQLite bind or statement (`sqlite3_bind_text`,
/// `sqlite3_exec`), FMDB's `executeUpdate`, GRDB's `execute(sql:arguments:)`, a Realm write (`add`,
/// `create`) in a file that configures no `encryptionKey`, or the put/set APIs of the key-value and document
/// databases apps embed (MMKV, PINCache, YYCache, YapDatabase, Objective-LevelDB, hyperoslo Cache, Disk,
/// Couchbase Lite documents: see `TaintSinks.sensitive`); or, without a flow, a Core Data or key-value
/// store key that names a secret (`setValue(field.text, forKey: "password")`).
public struct SecretInDatabaseRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-STOR-301", slug: "secret-in-local-database",
        title: "Secret stored in a local database",
        severity: .medium, confidence: .high, evidence: .dataflow, cwe: [312, 922],
        masvs: ["MASVS-STORAGE-1"], mastg: ["MASTG-TEST-0052"],
        rationale: "Core Data and SQLite stores, Realm files and key-value stores (MMKV, PINCache, YapDatabase, LevelDB) are plain files in the app's container: they get the default Data Protection class (readable after the first unlock), are copied into backups and can be read from a jailbroken device or a forensic image. A password, token, key or card number written there is stored in clear.",
        fix: "Keep secrets in the Keychain and store only a reference to them. If a database must hold sensitive records, encrypt it (SQLCipher, a Realm `encryptionKey` kept in the Keychain) and give its files complete file protection.",
        references: ["https://developer.apple.com/documentation/security/keychain_services",
                     "https://mas.owasp.org/MASTG/tests/ios/MASVS-STORAGE/MASTG-TEST-0052/"],
        examples: [
            .triggering("AccountStore.swift", """
            import CoreData
            import SQLite3
            func saveAccount(name: String, password: String, context: NSManagedObjectContext) {
                let account = NSManagedObject(entity: entityDescription, insertInto: context)
                account.setValue(name, forKey: "name")
                ↓account.setValue(password, forKey: "password")
            }
            func cache(_ session: Session, statement: OpaquePointer?) {
                ↓sqlite3_bind_text(statement, 1, session.accessToken, -1, nil)
                sqlite3_step(statement)
            }
            func remember(apiKey: String) {
                let mmkv = MMKV.default()
                ↓mmkv?.set(apiKey, forKey: "api")
            }
            func store(pin: String) throws {
                let user = User()
                user.pin = pin
                let realm = try Realm()
                try realm.write {
                    ↓realm.add(user)
                }
            }
            """),
            .triggering("TokenStore.m", """
            - (void)saveToken:(NSString *)token inDatabase:(FMDatabase *)db {
                ↓[db executeUpdate:@"INSERT INTO auth (token) VALUES (?)" withArgumentsInArray:@[token]];
            }
            """),
            .nonTriggering("AccountStore.swift", """
            import CoreData
            import CryptoKit
            func saveAccount(name: String, passwordHash: String, context: NSManagedObjectContext) {
                let account = NSManagedObject(entity: entityDescription, insertInto: context)
                account.setValue(passwordHash, forKey: "passwordHash")
                account.setValue(name, forKey: "name")
            }
            func cache(tokenCount: Int, pin: String, statement: OpaquePointer?) {
                sqlite3_bind_int(statement, 1, Int32(tokenCount))
                sqlite3_bind_text(statement, 2, SHA256.hash(data: Data(pin.utf8)).description, -1, nil)
            }
            func store(pin: String) throws {
                var config = Realm.Configuration()
                config.encryptionKey = keyFromKeychain()
                let realm = try Realm(configuration: config)
                let user = User()
                user.pin = pin
                try realm.write { realm.add(user) }
            }
            """, note: "A password hash, a count, a hashed PIN, and a Realm opened with an encryption key."),
            .nonTriggering("TokenStore.m", """
            - (void)saveUser:(NSString *)userName inDatabase:(FMDatabase *)db {
                [db executeUpdate:@"INSERT INTO users (name) VALUES (?)" withArgumentsInArray:@[userName]];
            }
            """),
        ])

    public init() {}

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        let encryptedRealm = unit.names.contains("encryptionKey")
        var reported = Set<Int>()
        for (flow, taint) in SensitiveFlows.flows(unit, .databaseWrite) {
            let isRealm = flow.api.hasPrefix("Realm")
            if isRealm && encryptedRealm { continue }
            reported.insert(flow.range.start.offset)
            let store = Self.store(flow.api)
            SensitiveFlows.report("\(DataflowReporting.capitalized(SensitiveFlows.describe(taint))) is written to \(store) with \(flow.calledName): the database is a plain file in the app's container, copied into backups. Keep the secret in the Keychain, or encrypt the store.",
                                  flow: flow, taint: taint, in: file,
                                  confidence: SensitiveFlows.confidence(taint, rule: Self.description.confidence), &sink)
        }
        // Without a flow: a Core Data attribute or key-value entry whose key names a secret.
        guard unit.names.contains("forKey") || unit.names.containsAny(["setValue:forKey:", "setObject:forKey:", "setString:forKey:"]) else { return }
        let cache = LocalValuesCache(file: file)
        for (call, context) in file.calls(where: { call in
            guard case .call(let callee, _, _) = call.kind, let name = callee.name else { return false }
            return TaintSinks.byName[name]?.contains { $0.sink.kind == .databaseWrite } ?? false
        }) where !reported.contains(call.range.start.offset) {
            let values = cache.values(for: context)
            for site in SinkTable.sinks(of: call, in: file, kinds: [.databaseWrite]) {
                guard let value = site.argument(.value), !SensitiveFlows.isNonSecretValue(value, values),
                      let keyName = SensitiveFlows.keyName(site.argument(.key), values), !SecretNaming.isNonCredentialTokenName(keyName),
                      let kind = SensitiveNaming.kind(ofName: keyName) else { continue }
                reported.insert(call.range.start.offset)
                sink.report("\(DataflowReporting.capitalized(kind.phrase)) (`\(file.text(value.range))`) is written to \(Self.store(site.api)) under \"\(keyName)\": the database is a plain file in the app's container, copied into backups. Keep the secret in the Keychain, or encrypt the store.",
                            in: file, at: call.range, confidence: .medium)
                break
            }
        }
    }

    static func store(_ api: String) -> String {
        if api.hasPrefix("NSManagedObject") { return "a Core Data store" }
        if api.hasPrefix("sqlite3") || api.hasPrefix("FMDatabase") || api.hasPrefix("GRDB") { return "an SQLite database" }
        if api.hasPrefix("Realm") { return "a Realm database opened without an encryption key" }
        return "an on-disk key-value store"
    }
}
