/// Databases and archives written to files: where a store is opened (its file), and the object archive
/// written straight to a path (see `API`). File writes themselves are in `APIs+Files.swift`.
extension APIs {
    // MARK: Archives written to a file

    /// `NSKeyedArchiver` writing an object graph straight to a path.
    public static let keyedArchiverArchiveToFile = API(
        "NSKeyedArchiver.archiveRootObject(_:toFile:)", classes: ["NSKeyedArchiver"],
        swift: ["archiveRootObject(_:toFile:)"], selectors: ["archiveRootObject:toFile:"])

    // MARK: Stores opened on a file

    /// Core Data: a persistent store added to a coordinator at a URL.
    public static let coreDataAddPersistentStore = API(
        "NSPersistentStoreCoordinator.addPersistentStore(ofType:configurationName:at:options:)", classes: ["NSPersistentStoreCoordinator"],
        swift: ["addPersistentStore(ofType:configurationName:at:options:)", "addPersistentStore(type:configuration:at:options:)"],
        selectors: ["addPersistentStoreWithType:configuration:URL:options:error:"])

    /// Core Data: the description of a store at a URL.
    public static let coreDataStoreDescription = API(
        "NSPersistentStoreDescription(url:)", classes: ["NSPersistentStoreDescription"],
        swift: ["NSPersistentStoreDescription(url:)"], selectors: ["persistentStoreDescriptionWithURL:", "initWithURL:"])

    /// Realm: a configuration, with the file of the store and its encryption key.
    public static let realmConfiguration = API(
        "Realm.Configuration(fileURL:encryptionKey:)", classes: ["Realm.Configuration", "RLMRealmConfiguration"],
        swift: ["Configuration(fileURL:)", "Configuration(encryptionKey:)", "Configuration(fileURL:encryptionKey:)", "RLMRealmConfiguration()"])

    /// Realm: the encryption key of a configuration, set as a property.
    public static let realmEncryptionKey = API(
        "Realm.Configuration.encryptionKey", classes: ["Realm.Configuration", "RLMRealmConfiguration"],
        swift: ["encryptionKey"], selectors: ["setEncryptionKey:"])

    /// SQLite: a database opened by file name `(filename, db, ...)`.
    public static let sqliteOpen = API("sqlite3_open", cFunctions: ["sqlite3_open", "sqlite3_open_v2", "sqlite3_open16"])

    /// FMDB: a database or a queue opened on a path.
    public static let fmdbOpen = API(
        "FMDatabase(path:)", classes: ["FMDatabase", "FMDatabaseQueue"],
        swift: ["FMDatabase(path:)", "FMDatabaseQueue(path:)"], selectors: ["databaseWithPath:", "initWithPath:", "databaseQueueWithPath:"])

    /// GRDB: a database queue or pool opened on a path.
    public static let grdbOpen = API(
        "DatabaseQueue(path:)", classes: ["DatabaseQueue", "DatabasePool"], swift: ["DatabaseQueue(path:)", "DatabasePool(path:)"])

    /// The APIs of this file, for `APIs.all`.
    static let storage: [API] = [
        keyedArchiverArchiveToFile, coreDataAddPersistentStore, coreDataStoreDescription, realmConfiguration, realmEncryptionKey, sqliteOpen,
        fmdbOpen, grdbOpen,
    ]
}
