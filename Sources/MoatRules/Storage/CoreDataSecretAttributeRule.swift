import MoatCore
import MoatFormats
import MoatSyntax

/// A Core Data entity (`*.xcdatamodeld/*.xcdatamodel/contents`) with a stored attribute named for a secret
/// (password, token, PIN, card number, CVV, SSN… — `SensitiveAttributeNames`, on the `SensitiveNaming` table) whose store the app's code
/// opens without file protection: a file of the code that can use the model (the targets that bundle it)
/// opens a store (`loadPersistentStores`, `addPersistentStore`) and never mentions
/// `NSPersistentStoreFileProtectionKey`, and no Data Protection entitlement raises the default to Complete.
/// Files that name the model (`NSPersistentContainer(name: "Model")`, `url(forResource: "Model", …)`)
/// decide for it; without any, the files that name no model do. Reported at the
/// entity's first secret attribute, one finding per entity, with the other secret attributes and the code
/// that opens the store as related locations. Quiet when the code that opens the store is not in the scan,
/// for transient attributes, names that describe the secret rather than hold it (`passwordHint`,
/// `tokenExpiry`, `pinned`), encrypted or hashed values (`encryptedPassword`, an encrypting value
/// transformer) and attribute types that cannot hold one (Boolean, Date…).
///
/// Medium severity with low confidence by policy (a name heuristic without a flow). One secret, one finding:
/// when MOAT-STOR-301 reports a code flow writing one of the entity's secret attributes (it lists the
/// attribute as a related location), `PostProcessor.mergingModelAndCodeSecrets` drops this rule's finding
/// if the code findings cover every secret attribute it lists, and otherwise adds them as related locations.
///
/// A new id rather than MOAT-STOR-202: STOR-202 judges the store-opening code alone (low: any store without
/// the option); this rule is the evidence that the unprotected store holds secrets, reported where the
/// secret is declared, and it supersedes STOR-202's finding at the code it lists as related.
public struct CoreDataSecretAttributeRule: AppRule {
    public static let description = RuleDescription(
        id: "MOAT-STOR-209", slug: "core-data-secret-attribute-unprotected",
        title: "Secret-named Core Data attribute in a store without file protection",
        severity: .medium, confidence: .low, cwe: [312, 311],
        masvs: ["MASVS-STORAGE-1"], mastg: ["MASTG-TEST-0052"],
        rationale: "Core Data stores are plain SQLite files. Opened without `NSPersistentStoreFileProtectionKey` they get the default Data Protection class (Complete Until First User Authentication): after the first unlock following a boot, the store — with every password, token or card number its entities hold — stays readable while the device is locked, and it is copied into backups. The finding rests on an attribute's name and the store's options, not on a value seen going in (the attribute may hold a reference to a Keychain item, a value encrypted elsewhere, or stay empty), so it is medium with low confidence by policy: a name heuristic alone is never more. When the scanned code writes a secret into the attribute (`account.password = password`, `setValue(_:forKey:)`), MOAT-STOR-301 reports that write with its flow — the stronger evidence — and lists this attribute as a related location; this rule then drops its finding for the entity when such writes cover every secret attribute it lists, and otherwise keeps it for the others, with the writes as related locations. One secret, one finding.",
        fix: "Keep secrets out of Core Data: store them in the Keychain and keep only a reference in the entity. If the store must hold them, open it with `NSPersistentStoreFileProtectionKey: FileProtectionType.complete` (`description.setOption(FileProtectionType.complete as NSObject, forKey: NSPersistentStoreFileProtectionKey)`) or set the Data Protection entitlement to NSFileProtectionComplete, and encrypt the fields.",
        references: ["https://developer.apple.com/documentation/coredata/nspersistentstorefileprotectionkey",
                     "https://mas.owasp.org/MASTG/tests/ios/MASVS-STORAGE/MASTG-TEST-0052/"],
        supersedes: ["MOAT-STOR-202"],
        examples: [
            RuleExample(files: [
                ExampleFile(name: "App/Model.xcdatamodeld/Model.xcdatamodel/contents", content: CoreDataSecretAttributeRule.model("""
                    <entity name="Account" representedClassName="Account" syncable="YES" codeGenerationType="class">
                        <attribute name="username" optional="YES" attributeType="String"/>
                        ↓<attribute name="password" optional="YES" attributeType="String"/>
                        <attribute name="pin" optional="YES" attributeType="String"/>
                        <attribute name="passwordHint" optional="YES" attributeType="String"/>
                    </entity>
                    <entity name="Card" representedClassName="Card" syncable="YES" codeGenerationType="class">
                        ↓<attribute name="cardNumber" optional="YES" attributeType="String"/>
                        <attribute name="cvv" optional="YES" attributeType="String"/>
                        <attribute name="nickname" optional="YES" attributeType="String"/>
                    </entity>
                """)),
                ExampleFile(name: "App/Persistence.swift", content: """
                    import CoreData
                    final class Persistence {
                        let container = NSPersistentContainer(name: "Model")
                        init() {
                            container.loadPersistentStores { _, error in
                                if let error { fatalError("\\(error)") }
                            }
                        }
                    }
                    """),
            ], triggers: true, note: "One finding per entity, at its first secret attribute; the others and the store code are related locations. `passwordHint` describes the secret, it is not one."),
            RuleExample(files: [
                ExampleFile(name: "App/Model.xcdatamodeld/Model.xcdatamodel/contents", content: CoreDataSecretAttributeRule.model("""
                    <entity name="Account" representedClassName="Account" syncable="YES" codeGenerationType="class">
                        <attribute name="password" optional="YES" attributeType="String"/>
                    </entity>
                """)),
                ExampleFile(name: "App/Persistence.swift", content: """
                    import CoreData
                    final class Persistence {
                        let container = NSPersistentContainer(name: "Model")
                        init() {
                            container.persistentStoreDescriptions.first?.setOption(FileProtectionType.complete as NSObject,
                                                                                  forKey: NSPersistentStoreFileProtectionKey)
                            container.loadPersistentStores { _, _ in }
                        }
                    }
                    """),
            ], triggers: false, note: "The store is opened with Complete file protection."),
            RuleExample(files: [
                ExampleFile(name: "App/Model.xcdatamodeld/Model.xcdatamodel/contents", content: CoreDataSecretAttributeRule.model("""
                    <entity name="Session" representedClassName="Session" syncable="YES" codeGenerationType="class">
                        <attribute name="passwordHint" optional="YES" attributeType="String"/>
                        <attribute name="tokenExpiry" optional="YES" attributeType="Date"/>
                        <attribute name="isPinned" optional="YES" attributeType="Boolean"/>
                        <attribute name="encryptedPassword" optional="YES" attributeType="Binary"/>
                        <attribute name="accessToken" optional="YES" attributeType="String" transient="YES"/>
                        <attribute name="refreshToken" optional="YES" attributeType="Transformable" valueTransformerName="EncryptedStringTransformer"/>
                    </entity>
                """)),
                ExampleFile(name: "App/Persistence.swift", content: """
                    import CoreData
                    let container = NSPersistentContainer(name: "Model")
                    func load() { container.loadPersistentStores { _, _ in } }
                    """),
            ], triggers: false, note: "Names that describe a secret, flags, encrypted or transient values."),
            RuleExample(files: [
                ExampleFile(name: "App/Model.xcdatamodeld/Model.xcdatamodel/contents", content: CoreDataSecretAttributeRule.model("""
                    <entity name="Account" representedClassName="Account" syncable="YES" codeGenerationType="class">
                        <attribute name="password" optional="YES" attributeType="String"/>
                    </entity>
                """)),
                ExampleFile(name: "App/Persistence.swift", content: """
                    import CoreData
                    let container = NSPersistentContainer(name: "Model")
                    func load() { container.loadPersistentStores { _, _ in } }
                    """),
                ExampleFile(name: "App/App.entitlements", content: ExampleProject.plist("""
                        <key>com.apple.developer.default-data-protection</key>
                        <string>NSFileProtectionComplete</string>
                    """)),
            ], triggers: false, note: "The Data Protection entitlement makes Complete the default class of every file the app creates."),
        ])

    public init() {}

    /// A model's `contents` around the given entities.
    static func model(_ entities: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" systemVersion="23A344" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
        \(entities)
        </model>

        """
    }

    /// Names in code that open a persistent store: containers load theirs, coordinators add them.
    /// (The first four are calls, the last two containers.)
    static let storeOpeners = APIs.persistentStoresLoad.swiftBaseNames + APIs.persistentStoresLoad.selectors
        + APIs.coreDataAddPersistentStore.swiftBaseNames + APIs.coreDataAddPersistentStore.selectors
        + ["NSPersistentContainer", "NSPersistentCloudKitContainer"]
    static let protectionKey = "NSPersistentStoreFileProtectionKey"
    static let dataProtectionEntitlement = "com.apple.developer.default-data-protection"
    /// Default classes that keep files encrypted while the device is locked.
    static let protectiveDefaults: Set<String> = ["NSFileProtectionComplete", "NSFileProtectionCompleteUnlessOpen"]

    public func check(_ app: AppModel, _ sink: inout FindingSink) {
        for model in Self.currentVersions(app.coreDataModels) {
            let secrets = model.entities.map { entity in (entity, entity.attributes.filter(SensitiveAttributeNames.holdsSecret)) }
                .filter { !$0.1.isEmpty }
            guard !secrets.isEmpty, let context = app.context(of: app.bundling(of: model.bundlePath)) else { continue }
            guard let stores = Self.unprotectedStores(of: model, context.sources) else { continue }
            if !context.units.isEmpty, context.units.allSatisfy(Self.defaultsToComplete) { continue }
            for (entity, attributes) in secrets {
                guard let first = attributes.first else { continue }
                let names = attributes.map { attribute in
                    SensitiveAttributeNames.sensitiveKind(attribute).map { "\($0.phrase) (`\(attribute.name)`)" } ?? "`\(attribute.name)`"
                }.joined(separator: ", ")
                var related = attributes.dropFirst().map { attribute in
                    RelatedLocation(location: Location(path: model.path, line: attribute.line, column: attribute.column),
                                    message: "`\(entity.name).\(attribute.name)` is secret-named too.")
                }
                related += stores.map { RelatedLocation(location: $0, message: "The store is opened here without `NSPersistentStoreFileProtectionKey`.") }
                sink.report("Core Data entity `\(entity.name)` stores \(names) in a store opened without file protection: the SQLite file keeps \(attributes.count == 1 ? "it" : "them") readable while the device is locked after the first unlock, and in backups. Keep secrets in the Keychain, or open the store with `FileProtectionType.complete`.",
                            at: Location(path: model.path, line: first.line, column: first.column),
                            related: related, evidence: model.line(first.line))
            }
        }
    }

    /// One model per `.xcdatamodeld` bundle: its latest version (`Model 12` after `Model 9`), the one a new
    /// store is created with; older versions only describe stores being migrated.
    static func currentVersions(_ models: [CoreDataModel]) -> [CoreDataModel] {
        var latest: [String: CoreDataModel] = [:]
        for model in models {
            if let known = latest[model.bundlePath], !naturallyBefore(versionName(known), versionName(model)) { continue }
            latest[model.bundlePath] = model
        }
        return latest.values.sorted { $0.path < $1.path }
    }

    /// `Model 2` for `…/Model.xcdatamodeld/Model 2.xcdatamodel/contents`.
    static func versionName(_ model: CoreDataModel) -> String {
        let components = model.path.split(separator: "/")
        guard components.count >= 2 else { return model.path }
        let folder = components[components.count - 2]
        return String(folder.hasSuffix(".xcdatamodel") ? folder.dropLast(".xcdatamodel".count) : folder)
    }

    /// Whether `left` sorts before `right` with runs of digits compared as numbers.
    static func naturallyBefore(_ left: String, _ right: String) -> Bool {
        func runs(_ text: String) -> [(isNumber: Bool, text: String)] {
            var result: [(Bool, String)] = []
            for character in text {
                let isDigit = character.isASCII && character.isNumber
                if let last = result.last, last.0 == isDigit { result[result.count - 1].1.append(character) } else { result.append((isDigit, String(character))) }
            }
            return result
        }
        for (a, b) in zip(runs(left), runs(right)) where a.text != b.text {
            if a.isNumber, b.isNumber, let x = Int(a.text.prefix(18)), let y = Int(b.text.prefix(18)), x != y { return x < y }
            return a.text < b.text
        }
        return left.count < right.count
    }

    /// A place where shipping code opens a persistent store.
    struct StoreSite {
        var location: Location
        /// Whether the file sets `NSPersistentStoreFileProtectionKey`.
        var isProtected: Bool
        /// The model names the file gives a container or a resource lookup (`NSPersistentContainer(name: "Model")`,
        /// `url(forResource: "Model", withExtension: "momd")`), when written as literals.
        var modelNames: Set<String>
    }

    /// Names whose lines may name the model: containers and resource lookups.
    static let modelNamingCalls = ["NSPersistentContainer", "NSPersistentCloudKitContainer", APIs.bundleResourceURL.swift[0],
                                   APIs.bundleResourceURL.selectors[0], APIs.persistentContainerCreation.selectors[1], APIs.persistentContainerCreation.selectors[0],
                                   APIs.persistentContainerCreation.selectors[2]]

    static func storeSites(_ sources: [SourceSummary]) -> [StoreSite] {
        var sites: [StoreSite] = []
        for source in sources.sorted(by: { $0.path < $1.path }) where source.nonShipping == nil {
            // The call that opens the store, else the container it belongs to.
            let positions = storeOpeners.compactMap { source.referencedNames[$0] }.filter { source.ships(at: $0) }
            guard let position = positions.min(by: { $0.offset < $1.offset }) else { continue }
            let call = storeOpeners.prefix(4).compactMap { source.referencedNames[$0] }.filter { source.ships(at: $0) }
                .min(by: { $0.offset < $1.offset }) ?? position
            let isProtected = source.referencedNames[protectionKey].map { source.ships(at: $0) } ?? false
            var names = Set<String>()
            for name in modelNamingCalls {
                guard let place = source.referencedNames[name], let text = source.lineText[place.line] else { continue }
                names.formUnion(quotedArguments(in: text, after: ["name:", "Name:", "forResource:", "URLForResource:"]))
            }
            sites.append(StoreSite(location: Location(path: source.path, line: call.line, column: call.column),
                                   isProtected: isProtected, modelNames: names))
        }
        return sites
    }

    /// The string literals right after these labels in a line of code (`name: "Model"`, `initWithName:@"Model"`).
    static func quotedArguments(in text: String, after labels: [String]) -> [String] {
        var result: [String] = []
        for label in labels {
            var rest = Substring(text)
            while let range = rest.range(of: label) {
                var tail = rest[range.upperBound...].drop { $0 == " " || $0 == "@" }
                rest = rest[range.upperBound...]
                guard tail.first == "\"" else { continue }
                tail = tail.dropFirst()
                guard let close = tail.firstIndex(of: "\"") else { continue }
                let value = String(tail[..<close])
                if !value.isEmpty, !value.contains("\\") { result.append(value) }
            }
        }
        return result
    }

    /// The places that open this model's store without file protection, or nil when it is protected or
    /// its store is opened nowhere the scan can see. Sites that name the model decide; without any, the
    /// sites that name no model do.
    static func unprotectedStores(of model: CoreDataModel, _ sources: [SourceSummary]) -> [Location]? {
        let sites = storeSites(sources)
        let named = sites.filter { $0.modelNames.contains(model.name) }
        let relevant = named.isEmpty ? sites.filter { $0.modelNames.isEmpty } : named
        guard !relevant.isEmpty else { return nil }
        let open = relevant.filter { !$0.isProtected }
        return open.isEmpty ? nil : open.map(\.location)
    }

    /// The classes of the entities of the current models, for the dataflow linker (`ManagedObjects`): whether
    /// the store is protected (every site that opens it sets `NSPersistentStoreFileProtectionKey`, or the
    /// Data Protection entitlement makes Complete the default), and the secret attributes this rule reports
    /// (none when it reports nothing for the model).
    public static func managedObjectTypes(_ app: AppModel) -> [ManagedObjectType] {
        var result: [ManagedObjectType] = []
        for model in currentVersions(app.coreDataModels) {
            let context = app.context(of: app.bundling(of: model.bundlePath))
            var isProtected = false
            var reported = false
            if let context {
                let sites = storeSites(context.sources)
                let named = sites.filter { $0.modelNames.contains(model.name) }
                let relevant = named.isEmpty ? sites.filter { $0.modelNames.isEmpty } : named
                let byEntitlement = !context.units.isEmpty && context.units.allSatisfy(defaultsToComplete)
                isProtected = byEntitlement || (!relevant.isEmpty && relevant.allSatisfy(\.isProtected))
                reported = !isProtected && !relevant.isEmpty
            }
            for entity in model.entities {
                guard let className = entity.className?.split(separator: ".").last.map(String.init), !className.isEmpty else { continue }
                let attributes = reported ? entity.attributes.filter(SensitiveAttributeNames.holdsSecret).map { attribute in
                    ModelAttribute(name: attribute.name, location: ExternalLocation(path: model.path, line: attribute.line, column: attribute.column))
                } : []
                result.append(ManagedObjectType(name: className, entity: entity.name, isProtected: isProtected, modelAttributes: attributes))
            }
        }
        return result
    }

    /// Whether every shipping configuration of a unit signs with a Data Protection entitlement of Complete.
    static func defaultsToComplete(_ unit: AppUnit) -> Bool {
        let documents = unit.releaseEntitlements
        return !documents.isEmpty && documents.allSatisfy { document in
            document.root[dataProtectionEntitlement]?.string.map(protectiveDefaults.contains) ?? false
        }
    }
}

/// Attributes that hold a secret or a sensitive personal value: names `SensitiveNaming` judges sensitive
/// (password, passcode, PIN, token, secret, credential, API key, card number, CVV, SSN…; not names that
/// describe the value such as `passwordHint` or `pinLength`, flags such as `isPinned`, or encrypted, hashed
/// and masked forms such as `encryptedPassword`, `passwordHash`, `cardNumberLast4`), of a type that can hold
/// the value (strings, binary data, transformables, integers for a PIN), stored (not transient), and not
/// encrypted by the attribute's value transformer.
public enum SensitiveAttributeNames {
    static let valueTypes: Set<String> = ["String", "Binary", "Transformable", "Integer 16", "Integer 32", "Integer 64", "URI"]

    public static func sensitiveKind(_ attribute: CoreDataAttribute) -> SensitiveDataKind? {
        guard !attribute.isTransient else { return nil }
        if let type = attribute.type, !valueTypes.contains(type) { return nil }
        if let transformer = attribute.valueTransformer?.lowercased(),
           transformer.contains("encrypt") || transformer.contains("crypt") || transformer.contains("cipher") { return nil }
        return SensitiveNaming.kind(ofName: attribute.name)
    }

    public static func holdsSecret(_ attribute: CoreDataAttribute) -> Bool { sensitiveKind(attribute) != nil }
}
