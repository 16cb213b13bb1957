import MoatCore
import MoatSyntax

/// Sensitive data written to a local database: the `sensitive` flow reaching a Core Data attribute set
/// (`setValue(_:forKey:)` on a managed object), an SQLite bind or statement (`sqlite3_bind_text`,
/// `sqlite3_exec`), FMDB's `executeUpdate`, GRDB's `execute(sql:arguments:)`, a Realm write (`add`,
/// `create`) in a file that configures no `encryptionKey`, or the put/set APIs of the key-value and document
/// databases apps embed (MMKV, PINCache, YYCache, YapDatabase, Objective-LevelDB, hyperoslo Cache, Disk,
/// Couchbase Lite documents: see `TaintSinks.sensitive`); or, without a flow, a Core Data or key-value
/// store key that names a secret (`setValue(field.text, forKey: "password")`). Also an assignment to a
/// property of a Core Data managed object (`ManagedObjects`: `user.password = pw`), quiet when the entity's
/// store is opened with complete file protection, with the model's attribute as a related location (the
/// MOAT-STOR-209 finding for that attribute is then dropped: `PostProcessor.mergingModelAndCodeSecrets`);
/// SQLite.swift's `<-` column setters and `Connection.run` bindings; GRDB records written with
/// `insert(db)`/`save(db)` after a secret was stored in them.
public struct SecretInDatabaseRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-STOR-301", slug: "secret-in-local-database",
        title: "Secret stored in a local database",
        severity: .medium, confidence: .high, evidence: .dataflow, cwe: [312, 922],
        masvs: ["MASVS-STORAGE-1"], mastg: ["MASTG-TEST-0052"],
        rationale: "Core Data and SQLite stores, Realm files and key-value stores (MMKV, PINCache, YapDatabase, LevelDB) are plain files in the app's container: they get the default Data Protection class (readable after the first unlock), are copied into backups and can be read from a jailbroken device or a forensic image. A password, token, key or card number written there is stored in clear. A Core Data attribute set (`user.password = pw` on a managed object: a subclass of `NSManagedObject` in any file, an owner of `@NSManaged` properties, or an entity's class in a Core Data model of the scan) is reported at the assignment, with the model's declaration of the attribute as a related location; MOAT-STOR-209, which reports the same attribute from the model alone, then drops its finding for it (one secret, one finding: this flow is the stronger evidence). Quiet when the entity's store is opened with complete file protection.",
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
            .triggering("UserStore.swift", """
            import CoreData
            import SQLite
            import GRDB
            final class User: NSManagedObject {
                @NSManaged var name: String?
                @NSManaged var password: String?
            }
            func register(name: String, password: String, context: NSManagedObjectContext) throws {
                let user = User(context: context)
                user.name = name
                ↓user.password = password
                try context.save()
            }
            let sessions = Table("sessions")
            let tokenColumn = Expression<String>("token")
            func cache(accessToken: String, db: Connection) throws {
                try db.run(sessions.insert(↓tokenColumn <- accessToken))
            }
            func save(pin: String, dbQueue: DatabaseQueue) throws {
                var player = Player(name: "Ann")
                player.pin = pin
                try dbQueue.write { db in
                    try ↓player.insert(db)
                }
            }
            """, note: "A Core Data attribute set on a managed object, a SQLite.swift column setter, a GRDB record that holds a PIN."),
            .triggering("AccountStore.m", """
            @interface Account : NSManagedObject
            @property (nonatomic, copy) NSString *pinCode;
            @end
            @implementation AccountStore
            - (void)storePinCode:(NSString *)pinCode context:(NSManagedObjectContext *)context {
                Account *account = [NSEntityDescription insertNewObjectForEntityForName:@"Account" inManagedObjectContext:context];
                ↓account.pinCode = pinCode;
            }
            @end
            """),
            RuleExample(files: [
                ExampleFile(name: "App/Model.xcdatamodeld/Model.xcdatamodel/contents", content: CoreDataSecretAttributeRule.model("""
                    <entity name="Account" representedClassName="Account" syncable="YES" codeGenerationType="class">
                        <attribute name="username" optional="YES" attributeType="String"/>
                        <attribute name="password" optional="YES" attributeType="String"/>
                    </entity>
                """)),
                ExampleFile(name: "App/Persistence.swift", content: """
                    import CoreData
                    let container = NSPersistentContainer(name: "Model")
                    func load() { container.loadPersistentStores { _, _ in } }
                    """),
                ExampleFile(name: "App/SignUp.swift", content: """
                    import CoreData
                    func signUp(username: String, password: String, context: NSManagedObjectContext) {
                        let account = Account(context: context)
                        account.username = username
                        ↓account.password = password
                    }
                    """),
            ], triggers: true, note: "The class Xcode generates for the model's entity is a managed object; the model's attribute is a related location (MOAT-STOR-209's finding for it is dropped)."),
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
            .nonTriggering("UserStore.swift", """
            import CoreData
            import CryptoKit
            import SQLite
            final class User: NSManagedObject {
                @NSManaged var name: String?
                @NSManaged var passwordHash: String?
            }
            struct Credentials { var password: String }
            func register(name: String, password: String, context: NSManagedObjectContext) throws {
                let user = User(context: context)
                user.name = name
                user.passwordHash = SHA256.hash(data: Data(password.utf8)).description
                var draft = Credentials(password: "")
                draft.password = password
                let cache = NSCache<NSString, NSString>()
                cache.setObject(password as NSString, forKey: "password")
            }
            let users = Table("users")
            let nameColumn = Expression<String>("name")
            func cache(userName: String, db: Connection) throws {
                try db.run(users.insert(nameColumn <- userName))
            }
            """, note: "A hashed password in a managed object, a secret in a plain struct and in an in-memory NSCache, a user name in a SQLite.swift column."),
            .nonTriggering("Account.swift", """
            import ObjectMapper
            final class Account: Mappable {
                var password: String?
                required init?(map: Map) {}
                func mapping(map: Map) {
                    password <- map["password"]
                }
            }
            """, note: "ObjectMapper's `<-` reads a JSON value into a property: SQLite.swift's setter only in a file that imports SQLite."),
            RuleExample(files: [
                ExampleFile(name: "App/Model.xcdatamodeld/Model.xcdatamodel/contents", content: CoreDataSecretAttributeRule.model("""
                    <entity name="Account" representedClassName="Account" syncable="YES" codeGenerationType="class">
                        <attribute name="password" optional="YES" attributeType="String"/>
                    </entity>
                """)),
                ExampleFile(name: "App/Persistence.swift", content: """
                    import CoreData
                    let container = NSPersistentContainer(name: "Model")
                    func load() {
                        container.persistentStoreDescriptions.first?.setOption(FileProtectionType.complete as NSObject,
                                                                              forKey: NSPersistentStoreFileProtectionKey)
                        container.loadPersistentStores { _, _ in }
                    }
                    """),
                ExampleFile(name: "App/SignUp.swift", content: """
                    import CoreData
                    func signUp(password: String, context: NSManagedObjectContext) {
                        let account = Account(context: context)
                        account.password = password
                    }
                    """),
            ], triggers: false, note: "The entity's store is opened with complete file protection."),
            .nonTriggering("TokenStore.m", """
            - (void)saveUser:(NSString *)userName inDatabase:(FMDatabase *)db {
                [db executeUpdate:@"INSERT INTO users (name) VALUES (?)" withArgumentsInArray:@[userName]];
            }
            """),
        ])

    public init() {}

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        var encryptedRealm = false
        file.forEachExpression { expression, _ in
            if !encryptedRealm, expression.name == "encryptionKey" { encryptedRealm = true }
        }
        var reported = Set<Int>()
        for (flow, taint) in SensitiveFlows.flows(unit, .databaseWrite) {
            let isRealm = flow.api.hasPrefix("Realm")
            if isRealm && encryptedRealm { continue }
            if flow.api.hasPrefix(ManagedObjects.attributeSet.api) {
                Self.reportAttributeSet(flow, taint, unit, &sink)
                reported.insert(flow.range.start.offset)
                continue
            }
            reported.insert(flow.range.start.offset)
            let store = Self.store(flow.api)
            var written = flow.calledName
            if flow.api == Self.sqliteSwiftSetter, let column = flow.arguments[.key] {
                written = "SQLite.swift's setter `\(file.text(column.range)) <- …`"
            }
            SensitiveFlows.report("\(DataflowReporting.capitalized(SensitiveFlows.describe(taint))) is written to \(store) with \(written): the database is a plain file in the app's container, copied into backups. Keep the secret in the Keychain, or encrypt the store.",
                                  flow: flow, taint: taint, in: file,
                                  confidence: SensitiveFlows.confidence(taint, rule: Self.description.confidence), &sink)
        }
        // Without a flow: a Core Data attribute or key-value entry whose key names a secret.
        guard unit.names.contains("forKey") || unit.names.containsAny(APIs.defaultsWrite.selectors.prefix(3)) else { return }
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

    /// A Core Data attribute set (`user.password = pw`, `ManagedObjects`): quiet when the entity's store is
    /// opened with complete file protection; the model's declaration of a secret attribute is a related
    /// location (MOAT-STOR-209's finding at that attribute is then dropped, see `PostProcessor`).
    static func reportAttributeSet(_ flow: TaintFlow, _ taint: Taint, _ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        let className = ManagedObjects.className(ofFlowAPI: flow.api)
        let type = className.flatMap { name in unit.context?.managedObjects.first { $0.name == name } }
        if type?.isProtected == true { return }
        var attribute: String?
        if let target = flow.arguments[.key], case .member(_, let name) = target.unwrapped.kind { attribute = name }
        let written = flow.arguments[.key].map { "`\(file.text($0.range)) = …`" } ?? "an attribute set"
        let place = className.map { name in attribute.map { "the Core Data attribute `\(name).\($0)`" } ?? "a `\(name)` managed object" }
            ?? attribute.map { "the Core Data attribute `\($0)`" } ?? "a Core Data managed object"
        var related = taint.relatedLocations(in: file)
        if let type, let attribute, let declared = type.modelAttributes.first(where: { $0.name == attribute }) {
            related.append(RelatedLocation(location: Location(path: declared.location.path, line: declared.location.line, column: declared.location.column),
                                           message: "`\(type.entity ?? type.name).\(attribute)` is declared in the Core Data model here, in a store opened without file protection (MOAT-STOR-209)."))
        }
        sink.report("\(DataflowReporting.capitalized(SensitiveFlows.describe(taint))) is written to \(place) with \(written): the context saves it into the store, a plain SQLite file in the app's container, copied into backups. Keep the secret in the Keychain, or encrypt the value and open the store with complete file protection.",
                    in: file, at: flow.range, confidence: SensitiveFlows.confidence(taint, rule: description.confidence), related: related)
    }

    /// The api of SQLite.swift's `<-` entry (`TaintSinks.sensitive`).
    static let sqliteSwiftSetter = "SQLite.swift `<-` setter"

    static func store(_ api: String) -> String {
        if api.hasPrefix("NSManagedObject") { return "a Core Data store" }
        if api.hasPrefix("sqlite3") || api.hasPrefix("FMDatabase") || api.hasPrefix("GRDB") || api.hasPrefix("SQLite.swift") { return "an SQLite database" }
        if api.hasPrefix("Realm") { return "a Realm database opened without an encryption key" }
        return "an on-disk key-value store"
    }
}
