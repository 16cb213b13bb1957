import Foundation
import Testing
import MoatCore
@testable import MoatRules
@testable import MoatScan

/// Issue 14 item 2 limits: secrets written to Core Data managed objects by property assignment (classes of
/// other files, of the models, `@NSManaged` properties), SQLite.swift setters and GRDB records, and one
/// finding per secret between MOAT-STOR-209 (the model) and MOAT-STOR-301 (the code flow).
struct CoreDataSecretWritesTests {
    static func model(_ entities: String) -> String { CoreDataSecretAttributeRule.model(entities) }

    static let accountModel = model("""
        <entity name="Account" representedClassName="Account" syncable="YES" codeGenerationType="class">
            <attribute name="username" optional="YES" attributeType="String"/>
            <attribute name="password" optional="YES" attributeType="String"/>
            <attribute name="pin" optional="YES" attributeType="String"/>
        </entity>
    """)
    static let persistence = """
        import CoreData
        let container = NSPersistentContainer(name: "Model")
        func load() { container.loadPersistentStores { _, _ in } }
        """
    static let modelPath = "App/Model.xcdatamodeld/Model.xcdatamodel/contents"

    static func rows(_ findings: [Finding]) -> [String] {
        findings.filter { ["MOAT-STOR-301", "MOAT-STOR-209"].contains($0.ruleId) }
            .map { "\($0.ruleId) \($0.location.path):\($0.location.line)" }
    }

    @Test func everySecretAttributeWrittenFromCodeLeavesOnlyTheCodeFindings() throws {
        let tree = try TemporaryTree([
            Self.modelPath: Self.accountModel,
            "App/Persistence.swift": Self.persistence,
            "App/SignUp.swift": """
            import CoreData
            func signUp(username: String, password: String, pin: String, context: NSManagedObjectContext) {
                let account = Account(context: context)
                account.username = username
                account.password = password
                account.pin = pin
            }
            """,
        ])
        defer { tree.remove() }
        let findings = try tree.scan().findings
        #expect(Self.rows(findings) == ["MOAT-STOR-301 App/SignUp.swift:5", "MOAT-STOR-301 App/SignUp.swift:6"])
        let first = try #require(findings.first { $0.ruleId == "MOAT-STOR-301" })
        #expect(first.message == "`password` (named as a password) is written to the Core Data attribute `Account.password` with `account.password = …`: the context saves it into the store, a plain SQLite file in the app's container, copied into backups. Keep the secret in the Keychain, or encrypt the value and open the store with complete file protection.")
        #expect(first.confidence == .medium && first.severity == .medium)
        let model = try #require(first.related.last)
        #expect(model.location.path == Self.modelPath && model.location.line == 5)
        #expect(model.message == "`Account.password` is declared in the Core Data model here, in a store opened without file protection (MOAT-STOR-209).")
    }

    @Test func theModelFindingStaysForSecretsNoCodeWrites() throws {
        let tree = try TemporaryTree([
            Self.modelPath: Self.accountModel,
            "App/Persistence.swift": Self.persistence,
            "App/SignUp.swift": """
            import CoreData
            func signUp(password: String, context: NSManagedObjectContext) {
                let account = Account(context: context)
                account.password = password
            }
            """,
        ])
        defer { tree.remove() }
        let findings = try tree.scan().findings
        #expect(Self.rows(findings) == ["MOAT-STOR-209 \(Self.modelPath):5", "MOAT-STOR-301 App/SignUp.swift:4"])
        let model = try #require(findings.first { $0.ruleId == "MOAT-STOR-209" })
        let written = try #require(model.related.last)
        #expect(written.location.path == "App/SignUp.swift" && written.location.line == 4)
        #expect(written.message == "This secret attribute is written from code here (MOAT-STOR-301 reports it with its flow).")
        // The model rule alone (STOR-301 not run) keeps its finding as before.
        let alone = try tree.scan { $0.onlyRules = ["MOAT-STOR-209"] }.findings
        #expect(Self.rows(alone) == ["MOAT-STOR-209 \(Self.modelPath):5"])
    }

    @Test func aProtectedStoreKeepsAttributeSetsQuiet() throws {
        let tree = try TemporaryTree([
            Self.modelPath: Self.accountModel,
            "App/Persistence.swift": """
            import CoreData
            let container = NSPersistentContainer(name: "Model")
            func load() {
                container.persistentStoreDescriptions.first?.setOption(FileProtectionType.complete as NSObject, forKey: NSPersistentStoreFileProtectionKey)
                container.loadPersistentStores { _, _ in }
            }
            """,
            "App/SignUp.swift": """
            import CoreData
            func signUp(password: String, context: NSManagedObjectContext) {
                let account = Account(context: context)
                account.password = password
            }
            """,
        ])
        defer { tree.remove() }
        #expect(Self.rows(try tree.scan().findings).isEmpty)
    }

    @Test func managedObjectClassesAndPropertiesOfOtherFiles() throws {
        let tree = try TemporaryTree([
            "App/Model/Base.swift": "import CoreData\nclass Entity: NSManagedObject {}\n",
            "App/Model/Member.swift": "import CoreData\nfinal class Member: Entity {}\n",
            "App/Model/Member+Properties.swift": """
            import CoreData
            extension Member {
                @NSManaged var name: String?
                @NSManaged var pinCode: String?
            }
            """,
            "App/Members.swift": """
            import CoreData
            struct Draft { var pinCode: String }
            func enroll(pinCode: String, context: NSManagedObjectContext) throws {
                let member = Member(context: context)
                member.pinCode = pinCode
                var draft = Draft(pinCode: "")
                draft.pinCode = pinCode
            }
            func reset(pinCode: String, request: NSFetchRequest<Member>, context: NSManagedObjectContext) throws {
                guard let found = try context.fetch(request).first else { return }
                found.pinCode = pinCode
            }
            """,
        ])
        defer { tree.remove() }
        let findings = try tree.scan().findings
        // A subclass of a subclass of NSManagedObject in other files; an @NSManaged property on a fetched
        // object of unknown type. The plain struct with a property of the same name is no managed object.
        #expect(Self.rows(findings) == ["MOAT-STOR-301 App/Members.swift:5", "MOAT-STOR-301 App/Members.swift:11"])
        #expect(findings.first { $0.location.line == 5 }?.message.hasPrefix("`pinCode` (named as a PIN) is written to the Core Data attribute `Member.pinCode` with `member.pinCode = …`") == true)
        #expect(findings.first { $0.location.line == 11 }?.message.hasPrefix("`pinCode` (named as a PIN) is written to the Core Data attribute `pinCode` with `found.pinCode = …`") == true)
    }

    @Test func sqliteSwiftSettersAndGRDBRecords() throws {
        let tree = try TemporaryTree([
            "App/Tables.swift": """
            import SQLite
            import GRDB
            let sessions = Table("sessions")
            let user = Expression<String>("user")
            let token = Expression<String>("token")
            func save(userName: String, accessToken: String, db: Connection) throws {
                try db.run(sessions.insert(user <- userName, token <- accessToken))
                try db.run(sessions.update(token <- accessToken))
            }
            func save(cvv: String, holder: String, dbQueue: DatabaseQueue) throws {
                var card = CardRecord()
                card.cvv = cvv
                var other = CardRecord()
                other.holder = holder
                try dbQueue.write { db in
                    try card.insert(db)
                    try other.insert(db)
                }
                var names: Set<String> = []
                names.insert(holder)
            }
            """,
        ])
        defer { tree.remove() }
        let findings = try tree.scan().findings
        #expect(Self.rows(findings) == ["MOAT-STOR-301 App/Tables.swift:7", "MOAT-STOR-301 App/Tables.swift:8", "MOAT-STOR-301 App/Tables.swift:16"])
        let setter = try #require(findings.first { $0.location.line == 7 && $0.ruleId == "MOAT-STOR-301" })
        #expect(setter.location.column == 50)
        #expect(setter.message == "`accessToken` (named as a token) is written to an SQLite database with SQLite.swift's setter `token <- …`: the database is a plain file in the app's container, copied into backups. Keep the secret in the Keychain, or encrypt the store.")
        let record = try #require(findings.first { $0.location.line == 16 })
        #expect(record.message.hasPrefix("`cvv` (named as a card security code) is written to an SQLite database with insert(_:)"))
        #expect(record.related.map(\.message).contains("stored into `card.cvv`"))
    }
}

struct ManagedObjectFactsTests {
    @Test func theCoreDataFactsSurviveTheCacheEncoding() {
        var facts = DataflowFacts()
        facts.adoptions = [TypeAdoption(name: "Member", inherits: ["NSManagedObject"])]
        facts.managedProperties = ["Member.pinCode"]
        facts.sensitiveMemberWrites = [".pinCode", "Member"]
        facts.valueTypes = ["Draft"]
        let encoded = FactsCoding.encode(facts)
        #expect(FactsCoding.decode(encoded) == facts)
        #expect(FactsCoding.decodeIndex(encoded)?.sensitiveMemberWrites == [".pinCode", "Member"])
        #expect(FactsCoding.decodeIndex(encoded)?.managedProperties == ["Member.pinCode"])
    }

    @Test func theLinkerTellsWritersOnlyAboutManagedClassesOfOtherFilesAndModels() {
        var model = DataflowFacts()
        model.adoptions = [TypeAdoption(name: "Base", inherits: ["NSManagedObject"]), TypeAdoption(name: "Member", inherits: ["Base"])]
        var properties = DataflowFacts()
        properties.managedProperties = ["Member.pinCode"]
        var writer = DataflowFacts()
        writer.sensitiveMemberWrites = ["Member", "Draft", "Card", ".pinCode", ".nickname"]
        writer.adoptions = [TypeAdoption(name: "Draft", inherits: ["Codable"])]
        let card = ManagedObjectType(name: "Card", entity: "Card", isProtected: false,
                                     modelAttributes: [ModelAttribute(name: "cvv", location: ExternalLocation(path: "M/contents", line: 4, column: 9))])
        let contexts = CrossFileLinker(facts: [model, properties, writer], paths: ["A.swift", "B.swift", "C.swift"], modelTypes: [card]).contexts()
        #expect(contexts[0] == nil && contexts[1] == nil)
        #expect(contexts[2]?.managedObjects.map(\.name).sorted() == ["Card", "Member"])
        #expect(contexts[2]?.managedObjects.first { $0.name == "Card" }?.modelAttributes.first?.location.line == 4)
        #expect(contexts[2]?.managedProperties == ["pinCode"])
        // A name another module declares as a struct is ambiguous (WooCommerce: `struct Product` in
        // Networking, `Product: NSManagedObject` in Storage): no managed object, even from a model.
        var networking = DataflowFacts()
        networking.valueTypes = ["Card", "Member"]
        let ambiguous = CrossFileLinker(facts: [model, properties, writer, networking], paths: ["A.swift", "B.swift", "C.swift", "D.swift"],
                                        modelTypes: [card]).contexts()
        #expect(ambiguous[2]?.managedObjects.isEmpty ?? true)
        #expect(ambiguous[2]?.managedProperties == ["pinCode"])
    }
}

/// Corpus shapes that must stay quiet (WooCommerce): a Keychain property, a view model's struct, a struct of
/// another module that has a managed-object namesake.
struct ManagedObjectPrecisionTests {
    @Test func propertiesStructsAndNamesakesAreNoManagedObjects() throws {
        let tree = try TemporaryTree([
            "Storage/Product.swift": """
            import CoreData
            public class Product: NSManagedObject {}
            extension Product {
                @NSManaged public var password: String?
            }
            """,
            "Networking/Product.swift": """
            public struct Product: Codable {
                public var password: String?
                mutating func update(password: String) { self.password = password }
            }
            """,
            "App/PasswordStorage.swift": """
            import CoreData
            import KeychainAccess
            final class PasswordStorage {
                private let keychain: Keychain = Keychain(service: "app")
                func save(password: String) { keychain.password = password }
            }
            """,
            "App/SettingsViewModel.swift": """
            final class SettingsViewModel {
                var settings: ProductSettings
                init(settings: ProductSettings) { self.settings = settings }
                func apply(password: String) { self.settings.password = password }
            }
            """,
        ])
        defer { tree.remove() }
        #expect(CoreDataSecretWritesTests.rows(try tree.scan().findings).isEmpty)
    }
}
