import MoatCore
import MoatSyntax

// Sinks of the `sensitive` kind of flow (issue 14 item 2): where a secret or personal datum must not go.
// Registered in `TaintSinks.all` by one line. Each reports only `sensitive` taints; whether the write is
// protected enough (file protection, `privacy: .private`, an encrypted Realm) is the rule's decision.

extension TaintSinks {
    /// Receivers that are UserDefaults (the standard defaults, an app-group suite, a variable named
    /// `…defaults`) or iCloud's key-value store.
    static let defaultsReceivers = ["UserDefaults", "NSUserDefaults", "standardUserDefaults", "defaults", "Defaults",
                                    "NSUbiquitousKeyValueStore", "ubiquitousStore", "keyValueStore", "kvStore", "cloudStore"]
    /// Receivers that are Core Data managed objects (a name guess when the type is not known).
    static let managedObjectReceivers = ["NSManagedObject", "managedObject", "ManagedObject", "entity", "Entity", "insertNewObject"]
    /// Receivers of the key-value and document databases iOS apps embed (see `keyValueStores`).
    static let keyValueReceivers = ["MMKV", "mmkv", "PINCache", "pinCache", "PINDiskCache", "diskCache", "levelDB", "LevelDB", "leveldb",
                                    "ldb", "APLevelDB", "storage", "Storage", "DiskStorage", "YYCache", "yyCache", "YYDiskCache",
                                    "TMCache", "TMDiskCache", "mutableDocument", "MutableDocument", "document", "doc", "Document"]
    static let realmReceivers = ["realm", "Realm", "RLMRealm"]
    /// Receivers of SQLite.swift's `run`: a connection or a prepared statement.
    static let sqliteConnectionReceivers = ["db", "DB", "database", "Database", "connection", "Connection", "conn", "statement", "Statement",
                                            "stmt"]
    /// The database a GRDB record is written into (`dbQueue.write { db in try user.insert(db) }`).
    static let databaseArgumentNames: Set<String> = ["db", "database"]
    static let pasteboardReceivers = ["UIPasteboard", "generalPasteboard", "pasteboard", "Pasteboard", "NSPasteboard"]
    /// Receivers of log calls: Apple's `Logger`, and loggers by name (CocoaLumberjack, SwiftyBeaver, XCGLogger).
    static let loggerReceivers = ["Logger", "logger", "log", "Log", "LOG", "osLog", "OSLog", "SwiftyBeaver", "XCGLogger"]

    static let sensitive: [TaintSink] = [
        // MARK: UserDefaults and iCloud key-value store (MOAT-STOR-203)
        TaintSink(kind: .defaultsWrite, api: "UserDefaults.set(_:forKey:)",
                  spelling: APISpelling(swift: ["set", "setValue", "setObject"],
                                        objc: ["setObject:forKey:", "setValue:forKey:", "setString:forKey:", "setData:forKey:",
                                               "setArray:forKey:", "setDictionary:forKey:"]),
                  roles: [(.value, .index(0)), (.key, .label(["forKey"])), (.destination, .receiver)], receivers: defaultsReceivers,
                  requiredLabels: ["forKey"],
                  kinds: [.sensitive]),

        // MARK: Files and property lists (MOAT-STOR-204): what is written; the rule judges protection and backup.
        TaintSink(kind: .fileWrite, api: APIs.fileWrite.swift[0], spelling: APISpelling(APIs.fileWrite),
                  roles: [(.value, .receiver), (.path, .label(["to", "toFile"]))], requiredLabels: ["to", "toFile"],
                  objcForm: SinkForm(roles: [(.value, .receiver), (.path, .index(0))]), kinds: [.sensitive]),
        TaintSink(kind: .fileWrite, api: APIs.fileManagerCreateFile.name, spelling: APISpelling(APIs.fileManagerCreateFile),
                  roles: [(.value, .label(["contents"])), (.path, .label(["atPath"]))], requiredLabels: ["contents"],
                  objcForm: SinkForm(roles: [(.value, .label(["contents"])), (.path, .index(0))]), kinds: [.sensitive]),
        TaintSink(kind: .fileWrite, api: APIs.keyedArchiverArchiveToFile.name, spelling: APISpelling(APIs.keyedArchiverArchiveToFile),
                  roles: [(.value, .index(0)), (.path, .label(["toFile"]))], receivers: ["NSKeyedArchiver"], kinds: [.sensitive]),
        TaintSink(kind: .fileWrite, api: "FileHandle.write(_:)",
                  spelling: APISpelling(swift: ["write"], objc: ["writeData:", "writeData:error:"]),
                  roles: [(.value, .index(0))], receivers: ["FileHandle", "fileHandle", "NSFileHandle", "handle", "Handle"],
                  requiredLabels: [""], objcForm: SinkForm(roles: [(.value, .index(0))]), kinds: [.sensitive]),

        // MARK: Databases (MOAT-STOR-301): Core Data, SQLite, FMDB, GRDB, Realm, key-value stores.
        TaintSink(kind: .databaseWrite, api: "NSManagedObject.setValue(_:forKey:)",
                  spelling: APISpelling(swift: ["setValue"], objc: ["setValue:forKey:"]),
                  roles: [(.value, .index(0)), (.key, .label(["forKey"]))], receivers: managedObjectReceivers, requiredLabels: ["forKey"],
                  kinds: [.sensitive]),
        TaintSink(kind: .databaseWrite, api: APIs.sqliteBind.name, spelling: APISpelling(APIs.sqliteBind),
                  roles: [(.value, .index(2))], kinds: [.sensitive]),
        TaintSink(kind: .databaseWrite, api: APIs.sqliteStatement.name,
                  spelling: APISpelling(c: [APIs.sqliteStatement.cFunctions[0]]), roles: [(.value, .index(1))], kinds: [.sensitive]),
        TaintSink(kind: .databaseWrite, api: "FMDatabase.executeUpdate",
                  spelling: APISpelling(swift: ["executeUpdate"],
                                        objc: ["executeUpdate:", "executeUpdate:withArgumentsInArray:", "executeUpdate:values:error:",
                                               "executeUpdate:withParameterDictionary:", "executeUpdateWithFormat:"]),
                  roles: [(.value, .all)], kinds: [.sensitive]),
        TaintSink(kind: .databaseWrite, api: "GRDB Database.execute(sql:arguments:)",
                  spelling: APISpelling(swift: ["execute"]), roles: [(.value, .label(["arguments"]))], requiredLabels: ["sql"],
                  kinds: [.sensitive]),
        TaintSink(kind: .databaseWrite, api: "Realm.add(_:)",
                  spelling: APISpelling(swift: ["add", "create"], objc: ["addObject:", "addOrUpdateObject:", "createObject:withValue:",
                                                                         "createInRealm:withValue:", "createOrUpdateInRealm:withValue:"]),
                  roles: [(.value, .index(0)), (.value, .label(["value", "withValue"]))], receivers: realmReceivers, kinds: [.sensitive]),
        // Key-value and document databases: MMKV (`set(_:forKey:)`, `setString:forKey:`), PINCache and YYCache
        // (`setObject:forKey:`), Objective-LevelDB, hyperoslo Cache's `Storage.setObject(_:forKey:)`,
        // Couchbase Lite's `MutableDocument.setString(_:forKey:)`.
        TaintSink(kind: .databaseWrite, api: "a key-value store's set(_:forKey:)",
                  spelling: APISpelling(swift: ["set", "setObject", "setString", "setData", "setValue", "setBlob"],
                                        objc: ["setObject:forKey:", "setString:forKey:", "setData:forKey:", "setObject:forKey:block:",
                                               "setObject:forKey:withBlock:", "setValue:forKey:"]),
                  roles: [(.value, .index(0)), (.key, .label(["forKey"]))], receivers: keyValueReceivers, requiredLabels: ["forKey"],
                  kinds: [.sensitive]),
        TaintSink(kind: .databaseWrite, api: "YapDatabase setObject(_:forKey:inCollection:)",
                  spelling: APISpelling(swift: ["setObject"], objc: ["setObject:forKey:inCollection:", "setObject:forKey:inCollection:withMetadata:"]),
                  roles: [(.value, .index(0)), (.key, .label(["forKey"]))], requiredLabels: ["inCollection"], kinds: [.sensitive]),
        // SQLite.swift: a column setter (`password <- value`) is only made to be written by `insert`,
        // `update`, `upsert` or `insertMany`, so the setter is where the value enters the row; a statement
        // run with bindings (`try db.run("INSERT … VALUES (?)", token)`).
        TaintSink(kind: .databaseWrite, api: "SQLite.swift `<-` setter", spelling: APISpelling(swift: APIs.sqliteSwiftSetter.swift),
                  roles: [(.key, .index(0)), (.value, .index(1))], kinds: [.sensitive], isOperator: true,
                  modules: Set(APIs.sqliteSwiftModules)),
        TaintSink(kind: .databaseWrite, api: "SQLite.swift Connection.run(_:_:)", spelling: APISpelling(swift: APIs.sqliteSwiftRun.swiftBaseNames),
                  roles: [(.value, .all)], receivers: sqliteConnectionReceivers, kinds: [.sensitive]),
        // GRDB records: `user.password = pw` then `try user.insert(db)` writes every stored property (the
        // record carries the secret it was given, `FlowKind.fillsContainer`).
        TaintSink(kind: .databaseWrite, api: "GRDB PersistableRecord.insert(_:)", spelling: APISpelling(swift: APIs.grdbRecordPersistence.swiftBaseNames),
                  roles: [(.value, .receiver)], kinds: [.sensitive], argumentNames: databaseArgumentNames),
        TaintSink(kind: .databaseWrite, api: "Disk.save(_:to:as:)",
                  spelling: APISpelling(swift: ["save"]), roles: [(.value, .index(0))], receivers: ["Disk"], requiredLabels: ["as"],
                  kinds: [.sensitive]),

        // MARK: Logs (MOAT-STOR-302): the rule reads the privacy of os_log formats and Logger interpolations.
        TaintSink(kind: .logWrite, api: "print", spelling: APISpelling(swift: ["print", "debugPrint", "dump"]), roles: [(.value, .all)],
                  kinds: [.sensitive]),
        TaintSink(kind: .logWrite, api: APIs.formattedLogC.name, spelling: APISpelling(APIs.formattedLogC), roles: [(.value, .all)],
                  kinds: [.sensitive]),
        TaintSink(kind: .logWrite, api: APIs.osLogC.name, spelling: APISpelling(APIs.osLogC), roles: [(.value, .all)], kinds: [.sensitive]),
        TaintSink(kind: .logWrite, api: APIs.cocoaLumberjackLog.name, spelling: APISpelling(APIs.cocoaLumberjackLog), roles: [(.value, .all)],
                  kinds: [.sensitive]),
        TaintSink(kind: .logWrite, api: "Logger",
                  spelling: APISpelling(swift: ["log", "trace", "debug", "info", "notice", "warning", "error", "critical", "fault", "verbose"]),
                  roles: [(.value, .all)], receivers: loggerReceivers, kinds: [.sensitive]),

        // MARK: Pasteboard (MOAT-STOR-303): the general pasteboard is readable by every app in the foreground.
        TaintSink(kind: .pasteboardWrite, api: "UIPasteboard.setString",
                  spelling: APISpelling(swift: ["setString"] + APIs.pasteboardWrite.swiftBaseNames,
                                        objc: ["setString:", "setItems:"] + APIs.pasteboardWrite.selectors + ["setString:forType:"]),
                  roles: [(.value, .index(0))], receivers: pasteboardReceivers, kinds: [.sensitive]),
        TaintSink(kind: .pasteboardWrite, api: "UIPasteboard.string",
                  spelling: APISpelling(swift: ["string", "strings", "url", "urls", "items", "URL", "URLs"]),
                  roles: [(.value, .all)], receivers: pasteboardReceivers, kinds: [.sensitive], isSetter: true),

        // MARK: URLs (MOAT-NET-301): the rule reports a secret in a query string or an http:// URL.
        // The string alone: the selectors of one argument (a URL relative to another is not watched).
        TaintSink(kind: .urlString, api: APIs.urlFromString.name,
                  spelling: APISpelling(swift: ["URL", "NSURL", "URLComponents"],
                                        objc: APIs.urlFromString.selectors.filter { $0.filter { $0 == ":" }.count == 1 }),
                  roles: [(.url, .label(["string", "URLWithString", "initWithString", "componentsWithString"]))],
                  requiredLabels: ["string", "URLWithString", "initWithString", "componentsWithString"], kinds: [.sensitive]),
        TaintSink(kind: .urlString, api: "URLQueryItem(name:value:)",
                  spelling: APISpelling(swift: ["URLQueryItem", "NSURLQueryItem"], objc: ["queryItemWithName:value:", "initWithName:value:"]),
                  roles: [(.value, .label(["value"])), (.key, .label(["name", "queryItemWithName", "initWithName"]))], requiredLabels: ["value"],
                  kinds: [.sensitive]),
    ]
}

/// Core Data managed objects (MOAT-STOR-301): an assignment to a property of an instance of a managed-object
/// class (`user.password = pw`) sets an attribute that the context saves into the store. A class is a managed
/// object when it derives from `NSManagedObject` (in this file or another, through other classes), owns
/// `@NSManaged` properties, or is an entity's class in a Core Data model of the scan (the linker says so,
/// `DataflowContext.managedObjects`); on a receiver of unknown type, a property declared `@NSManaged` in
/// the scanned code is an attribute.
enum ManagedObjects {
    static let baseClasses = APIs.managedObject.classes
    static let propertyAttribute = APIs.managedPropertyAttribute
    /// The sink an attribute set is; flows name the class after a colon (`NSManagedObject attribute:User`).
    static let attributeSet = TaintSink(kind: .databaseWrite, api: "NSManagedObject attribute", spelling: APISpelling(),
                                        roles: [(.value, .index(0))], kinds: [.sensitive], isSetter: true)
    /// Receivers of sensitive member writes a file notes for the linker, at most.
    static let maximumNotedWrites = 64
    /// Structs, enums, actors and protocols a file declares that it tells the linker about, at most.
    static let maximumValueTypes = 128
    /// A receiver of unknown type is judged by an `@NSManaged` property name only in a file that imports one
    /// of these (a view model's `settings.password = password` is not a Core Data write).
    static let modules: Set<String> = ["CoreData"]

    /// The class a flow into `attributeSet` names, if any.
    static func className(ofFlowAPI api: String) -> String? {
        guard api.hasPrefix(attributeSet.api + ":") else { return nil }
        let name = String(api.dropFirst(attributeSet.api.count + 1))
        return name.isEmpty ? nil : name
    }

    /// `User` for `User`, `User?`, `User *`, `__kindof User *`; nil for collections and generics.
    static func className(ofType type: String) -> String? {
        var text = String(type.drop { $0 == " " })
        while let last = text.last, "?!* ".contains(last) { text.removeLast() }
        if text.hasPrefix("__kindof ") { text = String(text.dropFirst("__kindof ".count)) }
        guard !text.isEmpty, text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
        return text
    }
}

/// The managed-object classes and `@NSManaged` properties one file's analysis knows (`ManagedObjects`).
struct ManagedObjectFacts {
    var types: [String: ManagedObjectType] = [:]
    var properties = Set<String>()
    /// This file's `@NSManaged` properties, `Owner.property`, for other files.
    var declared: [String] = []
    /// Structs, enums, actors and protocols declared here: a name another module uses for a managed object
    /// (WooCommerce's `struct Product` in Networking, `class Product: NSManagedObject` in Storage) is not one.
    var valueTypes: [String] = []

    init(file: CodeFile, context: DataflowContext?) {
        for type in context?.managedObjects ?? [] { types[type.name] = type }
        properties.formUnion(context?.managedProperties ?? [])
        let all = file.allTypes
        for type in all {
            for case .variable(let variable) in type.members where variable.attributes.contains(ManagedObjects.propertyAttribute) {
                properties.insert(variable.name)
                declared.append(type.name + "." + variable.name)
                if types[type.name] == nil { types[type.name] = ManagedObjectType(name: type.name) }
            }
        }
        // A class declared here is a managed object only through its own superclass chain; a value type never.
        var valueTypes = Set<String>()
        var localClasses = Set<String>()
        for type in all {
            switch type.kind {
            case .struct, .enum, .actor, .protocol, .objcProtocol: valueTypes.insert(type.name)
            case .class: localClasses.insert(type.name)
            case .objcInterface where !type.inherits.isEmpty: localClasses.insert(type.name)
            default: break
            }
        }
        for name in valueTypes.union(localClasses) where !declared.contains(where: { $0.hasPrefix(name + ".") }) { types[name] = nil }
        var known = Set(ManagedObjects.baseClasses).union(types.keys)
        var changed = true
        while changed {
            changed = false
            for type in all where !known.contains(type.name) && !valueTypes.contains(type.name) && type.inherits.contains(where: known.contains) {
                known.insert(type.name)
                types[type.name] = context?.managedObjects.first { $0.name == type.name } ?? ManagedObjectType(name: type.name)
                changed = true
            }
        }
        self.valueTypes = Array(valueTypes.sorted().prefix(ManagedObjects.maximumValueTypes))
    }
}
