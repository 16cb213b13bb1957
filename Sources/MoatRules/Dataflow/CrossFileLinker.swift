import MoatCore

/// Links the dataflow facts of every source file into one context per file (see `CrossFile.swift`).
///
/// Pure and deterministic: the same facts, in the same order, give the same contexts, whatever order
/// the files were analyzed in.
public struct CrossFileLinker {
    /// Untrusted values one file passes to one parameter of another file's function, at most.
    static let maximumSeedsPerParameter = 8

    public let facts: [DataflowFacts?]

    public init(facts: [DataflowFacts?]) {
        self.facts = facts
    }

    /// The context of each file (by index in `facts`); files with nothing to learn get none.
    public func contexts() -> [Int: DataflowContext] {
        // Every function, by lookup name, with the file that defines it.
        var byName: [String: [(file: Int, function: ExportedFunction)]] = [:]
        for (index, fileFacts) in facts.enumerated() {
            for function in fileFacts?.functions ?? [] { byName[function.signature.lookupName, default: []].append((index, function)) }
        }
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
                let transforms = tainted.contains(name) && candidates.contains { $0.function.returns != nil }
                guard returnsSource || transforms else { continue }
                functions += candidates.map(\.function)
            }
            if !functions.isEmpty { contexts[index, default: DataflowContext()].functions = functions }
        }

        // Untrusted values passed to other files' functions.
        var seeds: [Int: [DataflowSeed]] = [:]
        var perParameter: [String: Int] = [:]
        for (index, fileFacts) in facts.enumerated() {
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
                                                                           taint: taint, call: call.location, confirmed: call.confirmed))
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
        return contexts
    }
}
