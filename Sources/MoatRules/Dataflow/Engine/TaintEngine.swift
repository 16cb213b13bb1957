import MoatCore
import MoatSyntax


/// The dataflow engine: an abstract interpreter over the code model, one function at a time, with
/// summaries for calls between functions of the same file.
///
/// Each function is walked in source order with an environment that maps access paths (`name`,
/// `components.host`) to the taints they may hold. Branches are analyzed separately and joined; a
/// condition's checks are added to the taints of the values it checks on the branch where it holds, so a
/// taint carries the checks of its own path and a sink sees an unchecked taint whenever some path to it
/// skipped the check. Every function also runs with a symbolic taint on each parameter; what reaches its
/// returns and sinks becomes its summary, applied at call sites until the summaries stop changing.
final class TaintEngine {
    let file: CodeFile
    var summaries: [ObjectIdentifier: FunctionSummary] = [:]
    var flowsByFunction: [ObjectIdentifier: [TaintFlow]] = [:]
    var functionsByFullName: [String: [FunctionDeclaration]] = [:]
    var functionsByName: [String: [FunctionDeclaration]] = [:]
    /// The type each function of the file belongs to, and the names of the types the file declares or extends.
    var functionOwners: [ObjectIdentifier: String] = [:]
    var fileTypeNames: Set<String> = []
    var exportedMethods: Set<String> = []
    var exportingTypes: Set<String> = []
    let mentionsCloudKit: Bool
    /// The file works with archives (`ArchiveEntries`): `entry.path` reads an entry name there.
    let mentionsArchives: Bool
    /// Where the XML documents this file parses came from (`XMLDocuments`): the sources of its callbacks.
    var xmlDocuments: [SourceHit] = []
    /// Those documents parsed with a delegate of a named type, for other files (`XMLDelegateUse`).
    var xmlDelegateUses: [XMLDelegateUse] = []
    /// Documents other files parse with a delegate of a type of this file, by type.
    var xmlDocumentsByType: [String: [XMLDelegateUse]] = [:]
    /// What other files said (nil: analyzed alone).
    let context: DataflowContext?
    var externalFunctions: [String: [ExportedFunction]] = [:]
    var seedsByFunction: [FunctionSignature: [DataflowSeed]] = [:]
    /// Calls to functions of no file in sight, and those carrying untrusted data (for `facts`).
    var calledNames: Set<String> = []
    var taintedCalls: Set<String> = []
    var outgoing: [OutgoingCall] = []
    var outgoingKeys: Set<OutgoingCall> = []
    /// Property types of the file's types, for receivers (`self.importer.save(...)`).
    var propertyTypes: [String: [String: String]] = [:]
    /// Names judged by `SensitiveNaming`, with their type (a cache: names repeat).
    var sensitiveNames: [String: SensitiveDataKind?] = [:]
    /// `SensitiveNaming.mayBeSensitive` of each name asked, remembered (it is asked of every name read).
    var sensitiveCandidates: [String: Bool] = [:]
    /// `SensitiveActions.action(in:)` of each base name asked, remembered (it is asked of every call).
    var sensitiveActionVerbs: [String: String?] = [:]
    /// `Checks.confirms(name:baseName:_:)` of each call name asked, remembered (asked of every call).
    var confirmingCalls: [CallNames: Bool] = [:]
    /// What the file's names let the engine skip (`SourceGates`).
    let gates: SourceGates
    /// Secure fields, secure-field bindings and types with secret properties of the file (none when the
    /// file's names rule them out).
    lazy var namedValues = gates.namesMaySecrets || gates.mayHaveSecureFields ? NamedValueFacts(file) : NamedValueFacts()
    /// Core Data managed-object classes and `@NSManaged` properties known to this file.
    lazy var managedObjects = ManagedObjectFacts(file: file, context: context)
    /// Receivers of member assignments of sensitive data (`ManagedObjects`), for `facts`.
    var sensitiveMemberWrites: Set<String> = []

    static let maximumRounds = 5
    static let maximumOutgoing = 500

    /// `gates`: what the file's names index rules out (`SourceGates(unit.names)`); every gate open by default.
    init(file: CodeFile, context: DataflowContext? = nil, gates: SourceGates = .open) {
        self.file = file
        self.context = context
        self.gates = gates
        if let context {
            for function in context.functions { externalFunctions[function.signature.lookupName, default: []].append(function) }
            for seed in context.seeds { seedsByFunction[seed.function, default: []].append(seed) }
            for use in context.xmlDocuments { xmlDocumentsByType[use.type, default: []].append(use) }
        }
        mentionsCloudKit = file.imports.contains(TaintSources.cloudKitModule)
            || file.typeReferences.contains { $0.name.hasPrefix(TaintSources.recordType) } || file.containsText(TaintSources.recordType)
        mentionsArchives = !ArchiveEntries.archiveModules.isDisjoint(with: file.imports)
            || ArchiveEntries.archiveTypeNames.contains { file.containsText($0) }
    }

    /// What callers in other files need: each function's signature and return summary, this file's calls
    /// to functions it does not define, and its JSExport declarations.
    func facts(_ functions: [(FunctionDeclaration, TypeDeclaration?)]) -> DataflowFacts {
        var facts = DataflowFacts()
        var implemented = Set<String>()
        for (function, owner) in functions {
            if let owner { implemented.insert(owner.name) }
            var returns: [PortableTaint]?
            let returnsNothing = function.returnType.map(Transfers.noValueTypes.contains) ?? true
            if !returnsNothing, let summary = summaries[ObjectIdentifier(function)] {
                let portable = summary.returns.map { $0.portable(in: file) }
                let passedThrough = Set(portable.compactMap { taint in
                    taint.parameter != nil && taint.checks.isEmpty && !taint.resetsCallerChecks && taint.members.isEmpty
                        && taint.viaUnknownCall != true ? taint.parameter : nil
                })
                let isIdentity = portable.count == function.parameters.count && passedThrough.count == function.parameters.count
                // A function named as a sanitizer of secrets (`encrypt(_:)`, `mask(_:)`) that hands its input back
                // (`String(text.reversed())`) tells its callers so: they judge it by its body, not by its name.
                if !isIdentity || Checks.namesSecretSanitizer(function.name) { returns = portable }
            }
            let validated = summaries[ObjectIdentifier(function)]?.validatedParameters.sorted() ?? []
            facts.functions.append(ExportedFunction(signature: signature(function, owner: owner),
                                                    location: ExternalLocation(file, function.nameRange), returns: returns,
                                                    validatesParameters: validated))
        }
        facts.calledNames = calledNames.sorted()
        facts.taintedCalls = taintedCalls.sorted()
        facts.outgoing = outgoing
        for type in file.allTypes {
            if (type.kind == .protocol || type.kind == .objcProtocol) && type.inherits.contains(TaintSources.javaScriptExportProtocol) {
                facts.javaScriptProtocols.append(JavaScriptProtocolFact(name: type.name, methods: type.functions.map(\.fullName)))
            }
            if !type.inherits.isEmpty { facts.adoptions.append(TypeAdoption(name: type.name, inherits: type.inherits)) }
        }
        facts.implementedTypes = implemented.sorted()
        facts.managedProperties = managedObjects.declared.sorted()
        facts.valueTypes = managedObjects.valueTypes
        facts.sensitiveMemberWrites = Array(sensitiveMemberWrites.sorted().prefix(ManagedObjects.maximumNotedWrites))
        facts.xmlDelegates = xmlDelegateUses
        return facts
    }

}

/// A call's name and base name, as a key of the engine's memos.
struct CallNames: Hashable {
    let name: String
    let baseName: String
}

extension TaintEngine {
    /// `SensitiveActions.action(in:)`, remembered per base name.
    func sensitiveAction(in baseName: String) -> String? {
        if let known = sensitiveActionVerbs[baseName] { return known }
        let verb = SensitiveActions.action(in: baseName)
        sensitiveActionVerbs[baseName] = verb
        return verb
    }

    /// `Checks.confirms(name:baseName:_:)` for `.confirms`, remembered per call name.
    func confirms(name: String, baseName: String) -> Bool {
        let key = CallNames(name: name, baseName: baseName)
        if let known = confirmingCalls[key] { return known }
        let answer = Checks.confirms(name: name, baseName: baseName, .confirms)
        confirmingCalls[key] = answer
        return answer
    }
}
