import MoatCore
import MoatSyntax

/// A database whose name says it holds sensitive data (vault, wallet, credentials, tokens, keys,
/// passwords, sessions, health, payments, banking) placed in Documents, Application Support or Library,
/// in a source file that never excludes anything from backup. Stores: Core Data (`addPersistentStore`,
/// `NSPersistentStoreDescription(url:)`), Realm (`Configuration(fileURL:)`, `fileURL =`), SQLite
/// (`sqlite3_open`, `sqlite3_open_v2`), FMDB and GRDB. Low severity and confidence: backups are
/// encrypted when the user enables it, and the exclusion flag is advisory.
public struct SensitiveStoreBackupRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-STOR-206", slug: "sensitive-store-in-backup",
        title: "Sensitive database is included in backups",
        severity: .low, confidence: .low, cwe: [530, 312],
        masvs: ["MASVS-STORAGE-2"], mastg: ["MASTG-TEST-0058"],
        rationale: "Everything in Documents, Application Support and Library (except Caches) is copied into iCloud and computer backups, where it can be restored to another device or read with backup tools (unencrypted computer backups in particular). A vault, wallet or credential database there leaves the device with every backup.",
        fix: "Encrypt the store (Data Protection `.complete`, SQLCipher, a Realm encryption key kept in the Keychain) — that is the real fix. Also set `isExcludedFromBackup` on the store's folder (`URLResourceValues.isExcludedFromBackup = true`); the flag is advisory: it keeps the file out of backups but does not protect it on the device.",
        references: ["https://developer.apple.com/documentation/foundation/optimizing_your_app_s_data_for_icloud_backup",
                     "https://mas.owasp.org/MASTG/tests/ios/MASVS-STORAGE/MASTG-TEST-0058/"],
        examples: [
            .triggering("VaultStore.swift", """
            func addVaultStore(to coordinator: NSPersistentStoreCoordinator) throws {
                let urls = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)
                let baseURL = urls[urls.count-1]
                let storeURL = baseURL.appendingPathComponent("Vault.sqlite")
                try ↓coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: storeURL,
                                                    options: [NSPersistentStoreFileProtectionKey: FileProtectionType.complete])
            }
            func openWallet(key: Data) throws -> Realm {
                let docs = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
                let config = ↓Realm.Configuration(fileURL: docs.appendingPathComponent("wallet.realm"), encryptionKey: key)
                return try Realm(configuration: config)
            }
            """),
            .triggering("VaultStore.m", """
            - (void)openVault {
                NSString *docs = NSSearchPathForDirectoriesInDomains(NSDocumentDirectory, NSUserDomainMask, YES).firstObject;
                NSString *path = [docs stringByAppendingPathComponent:@"wallet.db"];
                sqlite3 *db = NULL;
                ↓sqlite3_open([path UTF8String], &db);
            }
            """),
            .nonTriggering("VaultStore.swift", """
            func addVaultStore(to coordinator: NSPersistentStoreCoordinator) throws {
                let urls = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)
                let baseURL = urls[urls.count-1];

                let bundleIdentifier = Bundle.main.object(forInfoDictionaryKey: "CFBundleIdentifier") as! String
                let pathURL = baseURL.appendingPathComponent(bundleIdentifier)
                let persistentStoreDirectoryPath = pathURL.path
                if !FileManager.default.fileExists(atPath: persistentStoreDirectoryPath) {
                    do {
                        try FileManager.default.createDirectory(atPath: persistentStoreDirectoryPath, withIntermediateDirectories: true, attributes: nil)
                    }catch {
                        //handle error
                    }
                }
                let dirURL = URL.init(fileURLWithPath: persistentStoreDirectoryPath, isDirectory: true)
                do {
                    try (dirURL as NSURL).setResourceValue((true), forKey: .isExcludedFromBackupKey)
                } catch {
                    //handle error
                }
                let storeURL = dirURL.appendingPathComponent("Vault.sqlite")
                try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: storeURL,
                                                   options: [NSPersistentStoreFileProtectionKey: FileProtectionType.complete])
            }
            """, note: "The backup-exclusion snippet of the Italian reference, with its bug fixed: it created the directory at an undefined `path` instead of `persistentStoreDirectoryPath`."),
            .nonTriggering("RecipeStore.swift", """
            func addRecipeStore(to coordinator: NSPersistentStoreCoordinator) throws {
                let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
                try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil,
                                                   at: support.appendingPathComponent("Recipes.sqlite"), options: nil)
                let cache = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
                try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil,
                                                   at: cache.appendingPathComponent("TokenCache.sqlite"), options: nil)
            }
            """, note: "A store with nothing sensitive in its name, and a store in Caches (not backed up)."),
        ])

    public init() {}

    static let sensitiveWords: Set<String> = [
        "vault", "wallet", "keystore", "keychain", "credential", "credentials", "secret", "secrets", "token", "tokens",
        "password", "passwords", "health", "medical", "payment", "payments", "bank", "banking", "session", "sessions",
        "auth", "private", "keys",
    ]

    /// The store constructors `storeURL(of:)` reads (FMDB's class methods by their receiver), and Realm's
    /// `fileURL` property.
    /// Initializers and FMDB's class methods are found by their receiver's name (`APIs+Storage.swift`).
    static let stores: [API] = [APIs.coreDataAddPersistentStore, APIs.coreDataStoreDescription, APIs.realmConfiguration, APIs.sqliteOpen,
                                APIs.fmdbOpen, APIs.grdbOpen]
    static let requiredNames: Set<String> = stores.swiftBaseNames.union(stores.cFunctions)
        .union(APIs.coreDataAddPersistentStore.selectorHeads).union(APIs.coreDataStoreDescription.selectorHeads.filter { !$0.hasPrefix("init") })

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        guard unit.names.containsAny(Self.requiredNames) || unit.names.containsName(where: { $0.hasPrefix("FMDatabase") })
            || unit.names.mayWriteProperty(["fileURL"]) else { return }
        var excludesFromBackup = false
        file.forEachExpression { expression, _ in
            if let name = expression.name, BackupExclusion.names.contains(name) { excludesFromBackup = true }
        }
        guard !excludesFromBackup else { return }
        let cache = LocalValuesCache(file: file)
        var stores: [(Expression, Expression, WalkContext, String)] = []
        file.forEachExpression { expression, context in
            if let (url, kind) = Self.storeURL(of: expression) { stores.append((expression, url, context, kind)) }
        }
        for write in file.propertyWrites(named: ["fileURL"]) {
            guard let object = write.object, object.nameChain.contains(where: { $0.lowercased().contains("config") }) else { continue }
            stores.append((Expression(kind: .unknown(""), range: write.range), write.value, write.context, "Realm"))
        }
        for (call, url, context, kind) in stores {
            let values = cache.values(for: context)
            guard let location = FileLocations.locate(url, values), location.base.isBackedUp,
                  let name = location.lastComponent, Self.isSensitive(name) else { continue }
            sink.report("The \(kind) store `\(name)` in \(location.base.rawValue) is copied into device backups. Encrypt it (that is the real fix); excluding it with `isExcludedFromBackup` is only advisory.",
                        in: file, at: call.range)
        }
    }

    static func isSensitive(_ fileName: String) -> Bool {
        let stem = fileName.split(separator: ".").first.map(String.init) ?? fileName
        return SecretNaming.words(stem).contains { sensitiveWords.contains($0) }
    }

    /// The URL or path argument of a store-opening call, with the kind of store.
    static func storeURL(of call: Expression) -> (Expression, String)? {
        guard case .call(let callee, let arguments, let isMessageSend) = call.kind, let name = callee.name else { return nil }
        func labeled(_ label: String) -> Expression? { arguments.first { $0.label == label }?.value }
        if isMessageSend {
            switch name {
            case APIs.coreDataAddPersistentStore: return labeled("URL").map { ($0, "Core Data") }
            case APIs.coreDataStoreDescription
                where !name.hasPrefix("init") || callee.receiver?.nameChain.contains(where: APIs.coreDataStoreDescription.classes.contains) == true:
                return arguments.first.map { ($0.value, "Core Data") }
            case APIs.fmdbOpen:
                return callee.receiver?.nameChain.contains(where: { $0.hasPrefix("FMDatabase") }) == true ? arguments.first.map { ($0.value, "SQLite") } : nil
            default: return nil
            }
        }
        switch name {
        case APIs.coreDataAddPersistentStore: return labeled("at").map { ($0, "Core Data") }
        case APIs.coreDataStoreDescription: return labeled("url").map { ($0, "Core Data") }
        case APIs.realmConfiguration: return labeled("fileURL").map { ($0, "Realm") }
        case APIs.sqliteOpen: return arguments.first.map { ($0.value, "SQLite") }
        case APIs.fmdbOpen, APIs.grdbOpen: return labeled("path").map { ($0, "SQLite") }
        default: return nil
        }
    }
}
