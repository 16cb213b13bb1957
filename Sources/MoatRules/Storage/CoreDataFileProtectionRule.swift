import MoatCore
import MoatSyntax

/// A Core Data store added without `NSPersistentStoreFileProtectionKey`: `addPersistentStore` whose
/// options are nil or a dictionary without the key, `NSPersistentStoreDescription`s in a file that never
/// sets the option, and `NSPersistentContainer`/`NSPersistentCloudKitContainer` stores loaded with their
/// default descriptions (`loadPersistentStores` in a file that neither sets the option nor makes or assigns
/// descriptions). In-memory stores and options that cannot be followed stay quiet. Low severity: without
/// the key the store gets the app's default class (Complete Until First User Authentication unless the
/// Data Protection entitlement raises it).
public struct CoreDataFileProtectionRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-STOR-202", slug: "core-data-store-without-file-protection",
        title: "Core Data store added without a file protection option",
        severity: .low, confidence: .low, cwe: [311],
        masvs: ["MASVS-STORAGE-1"], mastg: ["MASTG-TEST-0052"],
        rationale: "Core Data stores are plain SQLite files. Without `NSPersistentStoreFileProtectionKey` they get the app's default Data Protection class, normally Complete Until First User Authentication: after the first unlock following a boot the file stays decryptable while the device is locked, and the WAL/SHM side files follow the same class.",
        fix: "Add `NSPersistentStoreFileProtectionKey: FileProtectionType.complete` to the store options (or `description.setOption(FileProtectionType.complete as NSObject, forKey: NSPersistentStoreFileProtectionKey)`), or set the Data Protection entitlement to NSFileProtectionComplete. Encrypt sensitive fields as well.",
        references: ["https://developer.apple.com/documentation/coredata/nspersistentstorefileprotectionkey",
                     "https://mas.owasp.org/MASTG/tests/ios/MASVS-STORAGE/MASTG-TEST-0052/"],
        examples: [
            .triggering("Persistence.swift", """
            func addStore(to coordinator: NSPersistentStoreCoordinator, at url: URL) throws {
                let options = [NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true]
                try ↓coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: options)
            }
            func makeDescription(_ url: URL) -> NSPersistentStoreDescription {
                let description = ↓NSPersistentStoreDescription(url: url)
                description.shouldMigrateStoreAutomatically = true
                return description
            }
            """),
            .triggering("Persistence.m", """
            - (void)addStoreAtURL:(NSURL *)url {
                NSError *error = nil;
                ↓[self.coordinator addPersistentStoreWithType:NSSQLiteStoreType configuration:nil URL:url options:nil error:&error];
            }
            """),
            .nonTriggering("Persistence.swift", """
            func addStore(to coordinator: NSPersistentStoreCoordinator, at url: URL) throws {
                let options: [String: Any] = [NSPersistentStoreFileProtectionKey: FileProtectionType.complete]
                try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: options)
                try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)
            }
            func makeDescription(_ url: URL) -> NSPersistentStoreDescription {
                let description = NSPersistentStoreDescription(url: url)
                description.setOption(FileProtectionType.complete as NSObject, forKey: NSPersistentStoreFileProtectionKey)
                return description
            }
            """),
            .nonTriggering("PreviewStore.swift", """
            func makePreviewDescription() -> NSPersistentStoreDescription {
                let description = NSPersistentStoreDescription()
                description.type = NSInMemoryStoreType
                return description
            }
            """, note: "An in-memory store has no file to protect."),
            .triggering("CoreDataStack.swift", """
            final class CoreDataStack {
                lazy var container: NSPersistentContainer = {
                    let container = NSPersistentCloudKitContainer(name: "Model")
                    ↓container.loadPersistentStores { _, error in
                        if let error { fatalError("\\(error)") }
                    }
                    return container
                }()
            }
            """, note: "A container's default store description has no file protection option: the store gets the default class. MOAT-STOR-209 reports it instead, at medium, when the model holds secret-named attributes."),
            .nonTriggering("CoreDataStack.swift", """
            final class CoreDataStack {
                lazy var container: NSPersistentContainer = {
                    let container = NSPersistentContainer(name: "Model")
                    container.persistentStoreDescriptions.first?.setOption(FileProtectionType.complete as NSObject,
                                                                          forKey: NSPersistentStoreFileProtectionKey)
                    container.loadPersistentStores { _, _ in }
                    return container
                }()
            }
            """, note: "Protection set on the container's default description."),
            .nonTriggering("SharedStack.swift", """
            func load(_ container: NSPersistentContainer, _ descriptions: [NSPersistentStoreDescription]) {
                container.persistentStoreDescriptions = descriptions
                container.loadPersistentStores { _, _ in }
            }
            """, note: "Descriptions made elsewhere are judged where they are made."),
            .nonTriggering("Persistence.m", """
            - (void)addStoreAtURL:(NSURL *)url {
                NSError *error = nil;
                NSDictionary *options = @{NSPersistentStoreFileProtectionKey: NSFileProtectionComplete};
                [self.coordinator addPersistentStoreWithType:NSSQLiteStoreType configuration:nil URL:url options:options error:&error];
            }
            """),
        ])

    public init() {}

    /// The calls it judges: adding a store (both languages) and store descriptions.
    static let requiredNames: Set<String> = ["addPersistentStoreWithType", "addPersistentStore", "NSPersistentStoreDescription",
                                             "loadPersistentStores", "loadPersistentStoresWithCompletionHandler"]

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        guard unit.names.containsAny(Self.requiredNames) else { return }
        var fileSetsProtection = false
        file.forEachExpression { expression, _ in
            if case .identifier("NSPersistentStoreFileProtectionKey") = expression.kind { fileSetsProtection = true }
        }
        // Store descriptions made or assigned in this file: a container's loaded stores are judged there.
        var describesStores = !file.propertyWrites(named: ["persistentStoreDescriptions"]).isEmpty
            || file.typeReferences.contains { $0.name == "NSPersistentStoreDescription" }
        file.forEachExpression { expression, _ in
            switch expression.kind {
            case .identifier("NSPersistentStoreDescription"), .typeValue("NSPersistentStoreDescription"): describesStores = true
            default: break
            }
        }
        let cache = LocalValuesCache(file: file)
        // Descriptions made in-memory (`description.type = NSInMemoryStoreType`): no file to protect.
        var inMemoryDescriptions = Set<ObjectIdentifier>()
        for write in file.propertyWrites(named: ["type"]) where Self.isInMemory(write.value) {
            guard let object = write.object else { continue }
            inMemoryDescriptions.insert(ObjectIdentifier(cache.values(for: write.context).resolve(object)))
        }
        file.forEachExpression { expression, context in
            guard case .call(let callee, let arguments, let isMessageSend) = expression.kind, let name = callee.name else { return }
            if isMessageSend ? name == APIs.persistentStoresLoad.selectors[0] : name == APIs.persistentStoresLoad.swiftBaseNames[0] {
                if !fileSetsProtection, !describesStores {
                    report(expression, "`loadPersistentStores` loads the container's default store description, which has no `NSPersistentStoreFileProtectionKey`", file, &sink)
                }
                return
            }
            let isAdd = isMessageSend ? APIs.coreDataAddPersistentStore.selectors.contains(name)
                : APIs.coreDataAddPersistentStore.swiftBaseNames.contains(name) && arguments.contains { $0.label == "ofType" || $0.label == "type" }
            if isAdd {
                if let type = arguments.first?.value, Self.isInMemory(type) { return }
                guard let options = arguments.first(where: { $0.label == "options" })?.value else {
                    report(expression, "`addPersistentStore` has no options", file, &sink)
                    return
                }
                let values = cache.values(for: context)
                if values.resolve(options).isNilLike {
                    report(expression, "`addPersistentStore` is called with nil options", file, &sink)
                    return
                }
                guard let entries = DictionaryEntries.of(options, values, in: file.statements(of: context)) else { return }
                if !entries.contains("NSPersistentStoreFileProtectionKey") {
                    report(expression, "The options of `addPersistentStore` have no `NSPersistentStoreFileProtectionKey`", file, &sink)
                }
                return
            }
            let isDescription = isMessageSend
                ? APIs.coreDataStoreDescription.selectors.contains(name)
                    && callee.receiver?.nameChain.contains(where: APIs.coreDataStoreDescription.classes.contains) == true
                : name == "NSPersistentStoreDescription"
            if isDescription, !fileSetsProtection, !inMemoryDescriptions.contains(ObjectIdentifier(expression)) {
                report(expression, "This `NSPersistentStoreDescription` never gets `NSPersistentStoreFileProtectionKey`", file, &sink)
            }
        }
    }

    static func isInMemory(_ type: Expression) -> Bool {
        switch type.strippedOfCasts.kind {
        case .identifier(let name): return name == "NSInMemoryStoreType"
        case .member(_, let name): return name == "inMemory"
        default: return false
        }
    }

    private func report(_ call: Expression, _ what: String, _ file: CodeFile, _ sink: inout FindingSink) {
        sink.report("\(what): the store gets the default Data Protection class and stays readable while the device is locked after the first unlock. Add `NSPersistentStoreFileProtectionKey: FileProtectionType.complete`.",
                    in: file, at: call.range)
    }
}
