import MoatCore

/// Links the dataflow facts of every source file into one context per file (see `CrossFile.swift`).
///
/// Pure and deterministic: the same facts, in the same order, give the same contexts, whatever order
/// the files were analyzed in.
public struct CrossFileLinker {
    /// Untrusted values one file passes to one parameter of another file's function, at most.
    static let maximumSeedsPerParameter = 8
    /// Functions of one name beyond which calls of that name are not resolved (generated code with a
    /// thousand `process(_:)` functions must not make every file's context a thousand entries long).
    static let maximumCandidates = 64

    public let facts: [DataflowFacts?]
    /// The path of each file: places in a file's own facts have an empty path.
    public let paths: [String]
    /// Whether a file names something (a function's lookup name): the scanner answers from each file's
    /// `SourceSummary.referencedNames`; nil gives every file's name to every file (tests).
    public let mentions: (@Sendable (Int, String) -> Bool)?
    /// The classes of the Core Data models' entities (`ManagedObjects.modelTypes`), with their stores' protection.
    public let modelTypes: [ManagedObjectType]

    public init(facts: [DataflowFacts?], paths: [String], mentions: (@Sendable (Int, String) -> Bool)? = nil,
                modelTypes: [ManagedObjectType] = []) {
        self.facts = facts
        self.paths = paths
        self.mentions = mentions
        self.modelTypes = modelTypes
    }

    /// The context of each file (by index in `facts`); files with nothing to learn get none.
    public func contexts() -> [Int: DataflowContext] {
        // Every function, by lookup name, with the file that defines it.
        var byName: [String: [(file: Int, function: ExportedFunction)]] = [:]
        for (index, fileFacts) in facts.enumerated() {
            for function in fileFacts?.functions ?? [] { byName[function.signature.lookupName, default: []].append((index, function)) }
        }
        byName = byName.filter { $0.value.count <= Self.maximumCandidates }
        var contexts: [Int: DataflowContext] = [:]

        // Return summaries of other files' functions that the file calls: those that return untrusted
        // data, and those that transform what they receive when the call passes untrusted data.
        for (index, fileFacts) in facts.enumerated() {
            guard let fileFacts else { continue }
            let tainted = Set(fileFacts.taintedCalls)
            var functions: [ExportedFunction] = []
            for name in fileFacts.calledNames {
                guard let candidates = byName[name]?.filter({ $0.file != index }) else { continue }
                let returnsSource = candidates.contains { $0.function.returns?.contains { $0.source != nil } == true }
                let transforms = tainted.contains(name) && candidates.contains { $0.function.isSummarized }
                // A function that validates a parameter matters to any call, also one that passes a
                // parameter of the caller (whose callers pass the untrusted value).
                let validates = candidates.contains { !$0.function.validatesParameters.isEmpty }
                guard returnsSource || transforms || validates else { continue }
                functions += candidates.map { $0.function.resolved(paths[$0.file]) }
            }
            if !functions.isEmpty { contexts[index, default: DataflowContext()].functions = functions }
        }

        // Untrusted values passed to other files' functions. A call in test code is not a way into the app:
        // a test that passes a password to a logging helper does not make the shipping helper leak one.
        var seeds: [Int: [DataflowSeed]] = [:]
        var perParameter: [String: Int] = [:]
        for (index, fileFacts) in facts.enumerated() where !ShippingScope.isTestPath(paths[index]) {
            for call in fileFacts?.outgoing ?? [] {
                guard let candidates = byName[call.call.name]?.filter({ $0.file != index }), !candidates.isEmpty,
                      let (chosen, mapping) = CrossFileResolver.resolve(call.call, among: candidates.map(\.function.signature))
                else { continue }
                let target = candidates[chosen]
                for (parameter, argumentIndex) in mapping.sorted(by: { $0.key < $1.key }) {
                    guard let argument = call.arguments.first(where: { $0.index == argumentIndex }) else { continue }
                    for taint in argument.taints {
                        let key = "\(target.file)|\(target.function.signature.fullName)|\(target.function.signature.owner ?? "")|\(parameter)"
                        guard perParameter[key, default: 0] < Self.maximumSeedsPerParameter else { break }
                        perParameter[key, default: 0] += 1
                        seeds[target.file, default: []].append(DataflowSeed(function: target.function.signature, parameter: parameter,
                                                                           taint: taint.resolved(paths[index]),
                                                                           call: call.location.resolved(paths[index]),
                                                                           confirmed: call.confirmed))
                    }
                }
            }
        }
        for (index, list) in seeds { contexts[index, default: DataflowContext()].seeds = list }

        // JSExport protocols declared in one file and adopted by a type implemented in another.
        var protocols: [String: [String]] = [:]
        for fileFacts in facts {
            for declared in fileFacts?.javaScriptProtocols ?? [] where protocols[declared.name] == nil {
                protocols[declared.name] = declared.methods
            }
        }
        if !protocols.isEmpty {
            var adopted: [String: Set<String>] = [:]
            for fileFacts in facts {
                for adoption in fileFacts?.adoptions ?? [] {
                    for name in adoption.inherits where protocols[name] != nil { adopted[adoption.name, default: []].insert(name) }
                }
            }
            for (index, fileFacts) in facts.enumerated() {
                guard let fileFacts else { continue }
                let local = Set(fileFacts.javaScriptProtocols.map(\.name))
                var exports: [JavaScriptProtocolFact] = []
                for type in fileFacts.implementedTypes {
                    let foreign = (adopted[type] ?? []).subtracting(local).sorted()
                    guard !foreign.isEmpty else { continue }
                    exports.append(JavaScriptProtocolFact(name: type, methods: foreign.flatMap { protocols[$0] ?? [] }))
                }
                if !exports.isEmpty { contexts[index, default: DataflowContext()].javaScriptExports = exports }
            }
        }

        // Constants of other files that a file's settings rules asked about (`Owner.name` or `name`).
        var constants: [String: [(file: Int, constant: ExportedConstant)]] = [:]
        for (index, fileFacts) in facts.enumerated() {
            for constant in fileFacts?.constants ?? [] {
                constants[constant.owner.map { "\($0).\(constant.name)" } ?? constant.name, default: []].append((index, constant))
            }
        }
        if !constants.isEmpty {
            for (index, fileFacts) in facts.enumerated() {
                guard let queries = fileFacts?.constantQueries, !queries.isEmpty else { continue }
                var found: [ExportedConstant] = []
                for query in queries.sorted() {
                    let candidates = (constants[query] ?? []).filter { $0.file != index }
                    // An ambiguous name is not followed.
                    guard candidates.count == 1 else { continue }
                    found.append(candidates[0].constant.resolved(paths[candidates[0].file]))
                }
                if !found.isEmpty { contexts[index, default: DataflowContext()].constants = found }
            }
        }

        // Parameters of other files' functions that reach a settings sink, for the files that name the
        // function (not test code: a test's literal key is no key of the app).
        var sinks: [String: [(file: Int, sink: ParameterSink)]] = [:]
        for (index, fileFacts) in facts.enumerated() {
            for sink in fileFacts?.constantSinks ?? [] { sinks[sink.function.lookupName, default: []].append((index, sink)) }
        }
        if !sinks.isEmpty {
            let names = sinks.keys.sorted()
            for index in paths.indices where !ShippingScope.isTestPath(paths[index]) {
                var found: [ParameterSink] = []
                for name in names where mentions?(index, name) ?? true {
                    found += sinks[name, default: []].filter { $0.file != index }.map { $0.sink.resolved(paths[$0.file]) }
                }
                if !found.isEmpty { contexts[index, default: DataflowContext()].constantSinks = found }
            }
        }
        linkManagedObjects(&contexts)
        linkXMLDocuments(&contexts)
        return contexts
    }

    /// Core Data: each file that assigns sensitive data to a member of an object of a managed-object class
    /// (a subclass of `NSManagedObject` in any file, directly or through other classes, an owner of
    /// `@NSManaged` properties, an entity's class in a model), or to an `@NSManaged` property of another
    /// file on a receiver of unknown type, learns those classes and properties.
    func linkManagedObjects(_ contexts: inout [Int: DataflowContext]) {
        let writers = facts.indices.filter { !(facts[$0]?.sensitiveMemberWrites.isEmpty ?? true) }
        guard !writers.isEmpty else { return }
        var types: [String: ManagedObjectType] = [:]
        for type in modelTypes { types[type.name] = type }
        var properties = Set<String>()
        var inherits: [String: Set<String>] = [:]
        for fileFacts in facts {
            for adoption in fileFacts?.adoptions ?? [] { inherits[adoption.name, default: []].formUnion(adoption.inherits) }
            for property in fileFacts?.managedProperties ?? [] {
                guard let dot = property.lastIndex(of: ".") else { continue }
                let owner = String(property[..<dot])
                if !owner.isEmpty, types[owner] == nil { types[owner] = ManagedObjectType(name: owner) }
                properties.insert(String(property[property.index(after: dot)...]))
            }
        }
        // A name some file declares as a struct, enum, actor or protocol is ambiguous: no managed object.
        let valueTypes = Set(facts.flatMap { $0?.valueTypes ?? [] })
        var known = Set(ManagedObjects.baseClasses).union(types.keys).subtracting(valueTypes)
        var changed = true
        while changed {
            changed = false
            for (name, supers) in inherits where !known.contains(name) && !valueTypes.contains(name) && !supers.isDisjoint(with: known) {
                known.insert(name)
                if types[name] == nil { types[name] = ManagedObjectType(name: name) }
                changed = true
            }
        }
        for name in valueTypes { types[name] = nil }
        for index in writers {
            guard let writes = facts[index]?.sensitiveMemberWrites else { continue }
            // A class the file derives from NSManagedObject by itself is known there; only what a model
            // says about it is news.
            var own = Set(ManagedObjects.baseClasses)
            let adoptions = facts[index]?.adoptions ?? []
            var grew = true
            while grew {
                grew = false
                for adoption in adoptions where !own.contains(adoption.name) && adoption.inherits.contains(where: own.contains) {
                    own.insert(adoption.name)
                    grew = true
                }
            }
            var found: [ManagedObjectType] = []
            var foundProperties: [String] = []
            for write in writes {
                if write.hasPrefix(".") {
                    let name = String(write.dropFirst())
                    if properties.contains(name) { foundProperties.append(name) }
                } else if let type = types[write], !own.contains(write) || type.entity != nil {
                    found.append(type)
                }
            }
            if !found.isEmpty { contexts[index, default: DataflowContext()].managedObjects = found }
            if !foundProperties.isEmpty { contexts[index, default: DataflowContext()].managedProperties = foundProperties }
        }
    }

    /// XML documents from outside parsed in one file with a delegate of a type implemented in another: the
    /// callbacks of that type receive their content. A parse in test code is not a way into the app.
    func linkXMLDocuments(_ contexts: inout [Int: DataflowContext]) {
        var byType: [String: [(file: Int, use: XMLDelegateUse)]] = [:]
        for (index, fileFacts) in facts.enumerated() where !ShippingScope.isTestPath(paths[index]) {
            for use in fileFacts?.xmlDelegates ?? [] { byType[use.type, default: []].append((index, use)) }
        }
        guard !byType.isEmpty else { return }
        for (index, fileFacts) in facts.enumerated() {
            var documents: [XMLDelegateUse] = []
            for type in fileFacts?.implementedTypes ?? [] {
                let uses = (byType[type] ?? []).filter { $0.file != index }.prefix(XMLDocuments.maximumUsesPerType)
                documents += uses.map { $0.use.resolved(paths[$0.file]) }
            }
            if !documents.isEmpty { contexts[index, default: DataflowContext()].xmlDocuments = documents }
        }
    }
}

/// The names in a file's facts: enough to tell which files the linker needs in full. A warm scan keeps
/// every file's index and decodes the full facts only of those files.
public struct DataflowFactsIndex: Sendable, Hashable, Codable {
    /// Lookup names of the file's functions, and of those with a return summary.
    public var functionNames: [String]
    public var summarizedNames: [String]
    public var calledNames: [String]
    /// Lookup names of the calls in `outgoing`.
    public var outgoingNames: [String]
    public var taintedCalls: [String]
    public var javaScriptProtocols: [JavaScriptProtocolFact]
    public var adoptions: [TypeAdoption]
    public var implementedTypes: [String]
    /// The file's constants, constant queries and parameter sinks: small, and needed for every file.
    public var constants: [ExportedConstant] = []
    public var constantQueries: [String] = []
    public var constantSinks: [ParameterSink] = []
    /// Core Data facts (`DataflowFacts.managedProperties`, `sensitiveMemberWrites`): small, needed for every file.
    public var managedProperties: [String] = []
    public var sensitiveMemberWrites: [String] = []
    /// XML documents parsed with a delegate of a named type: small, and needed for every file.
    public var xmlDelegates: [XMLDelegateUse] = []
    public var valueTypes: [String] = []

    public init(functionNames: [String], summarizedNames: [String], calledNames: [String], outgoingNames: [String],
                taintedCalls: [String], javaScriptProtocols: [JavaScriptProtocolFact], adoptions: [TypeAdoption],
                implementedTypes: [String]) {
        self.functionNames = functionNames
        self.summarizedNames = summarizedNames
        self.calledNames = calledNames
        self.outgoingNames = outgoingNames
        self.taintedCalls = taintedCalls
        self.javaScriptProtocols = javaScriptProtocols
        self.adoptions = adoptions
        self.implementedTypes = implementedTypes
    }

    public init(_ facts: DataflowFacts) {
        functionNames = Array(Set(facts.functions.map(\.signature.lookupName))).sorted()
        summarizedNames = Array(Set(facts.functions.filter(\.isSummarized).map(\.signature.lookupName))).sorted()
        calledNames = facts.calledNames
        outgoingNames = Array(Set(facts.outgoing.map(\.call.name))).sorted()
        taintedCalls = facts.taintedCalls
        javaScriptProtocols = facts.javaScriptProtocols
        adoptions = facts.adoptions
        implementedTypes = facts.implementedTypes
        constants = facts.constants
        constantQueries = facts.constantQueries
        constantSinks = facts.constantSinks
        managedProperties = facts.managedProperties
        sensitiveMemberWrites = facts.sensitiveMemberWrites
        xmlDelegates = facts.xmlDelegates
        valueTypes = facts.valueTypes
    }
}

extension DataflowFacts {
    /// The facts of a file the linker does not need in full: its names, without functions or calls.
    public init(light index: DataflowFactsIndex) {
        self.init()
        calledNames = index.calledNames
        taintedCalls = index.taintedCalls
        javaScriptProtocols = index.javaScriptProtocols
        adoptions = index.adoptions
        implementedTypes = index.implementedTypes
        constants = index.constants
        constantQueries = index.constantQueries
        constantSinks = index.constantSinks
        managedProperties = index.managedProperties
        sensitiveMemberWrites = index.sensitiveMemberWrites
        xmlDelegates = index.xmlDelegates
        valueTypes = index.valueTypes
    }
}

extension CrossFileLinker {
    /// The files whose full facts the linker needs: those that define a function some other file's call
    /// may resolve to, and those whose calls carry untrusted data to such a function. With light facts
    /// for every other file, the linker gives the same contexts as with full facts everywhere.
    public static func neededFiles(_ indexes: [DataflowFactsIndex?]) -> Set<Int> {
        var definers: [String: [Int]] = [:]
        var summarized: [String: [Int]] = [:]
        for (index, fileIndex) in indexes.enumerated() {
            for name in fileIndex?.functionNames ?? [] { definers[name, default: []].append(index) }
            for name in fileIndex?.summarizedNames ?? [] { summarized[name, default: []].append(index) }
        }
        var needed = Set<Int>()
        for (index, fileIndex) in indexes.enumerated() {
            guard let fileIndex else { continue }
            for name in fileIndex.calledNames where summarized[name]?.contains(where: { $0 != index }) == true {
                needed.formUnion(definers[name] ?? [])
            }
            for name in fileIndex.outgoingNames {
                let others = (definers[name] ?? []).filter { $0 != index }
                guard !others.isEmpty else { continue }
                needed.formUnion(others)
                needed.insert(index)
            }
        }
        return needed
    }
}
