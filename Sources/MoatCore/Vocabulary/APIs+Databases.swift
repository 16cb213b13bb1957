// Local databases that hold what the app stores (issue 14 item 2, MOAT-STOR-301): the shapes in which a
// value is written to Core Data, SQLite.swift, GRDB and similar stores beyond a plain `set(_:forKey:)` call.
// Read by the sensitive-data sinks (`Sinks+Sensitive.swift` in MoatRules).
extension APIs {
    // MARK: Core Data managed objects

    /// `NSManagedObject`: an assignment to a property of an instance of a subclass (`user.password = pw`,
    /// Objective-C `user.password = pw;`) sets a Core Data attribute, saved with the context.
    public static let managedObject = API("NSManagedObject", classes: ["NSManagedObject"])

    /// The Swift attribute of a Core Data property (`@NSManaged var pinCode: String`): the property is an
    /// attribute of the entity, whatever class declares it.
    public static let managedPropertyAttribute = "NSManaged"

    // MARK: SQLite.swift

    /// SQLite.swift's setter operator: `password <- value` makes a `Setter` that `insert`, `update`,
    /// `upsert` and `insertMany` write into the table's row (`users.insert(email <- e, password <- pw)`).
    public static let sqliteSwiftSetter = API("SQLite.swift `<-` setter", classes: ["Setter"], swift: ["<-"])
    /// The modules SQLite.swift is imported as (the same operator is ObjectMapper's mapping elsewhere:
    /// `password <- map["password"]` reads a JSON value into a property, it writes nothing).
    public static let sqliteSwiftModules = ["SQLite"]

    /// SQLite.swift's `Connection.run(_:_:)` and `Statement.run(_:)`: a statement run with bindings
    /// (`try db.run("INSERT INTO auth (token) VALUES (?)", token)`).
    public static let sqliteSwiftRun = API("SQLite.swift Connection.run(_:_:)", classes: ["Connection", "Statement"],
                                           swift: ["run(_:_:)", "run(_:)", "scalar(_:_:)"])

    // MARK: GRDB records

    /// GRDB's `PersistableRecord` methods: the record, with every stored property, is written into its table
    /// (`try user.insert(db)`, `try user.save(db)`).
    public static let grdbRecordPersistence = API(
        "GRDB PersistableRecord.insert(_:)", classes: ["PersistableRecord", "MutablePersistableRecord", "Record"],
        swift: ["insert(_:)", "save(_:)", "update(_:)", "upsert(_:)", "insertAndFetch(_:)", "saveAndFetch(_:)", "updateChanges(_:)",
                "insert(_:onConflict:)", "update(_:onConflict:)"])
}
