import MoatCore
import MoatSyntax

/// The fixed point: every function is analyzed with symbolic parameters until the summaries stop changing.
extension TaintEngine {
    /// Runs the analysis: every flow from a real source into a sink, and what other files need to know.
    func run() -> (flows: [TaintFlow], facts: DataflowFacts) {
        var functions: [(FunctionDeclaration, TypeDeclaration?)] = []
        for (function, owner) in file.allFunctions where function.body != nil {
            functions.append((function, owner))
            functionsByFullName[function.fullName, default: []].append(function)
            functionsByName[function.name, default: []].append(function)
            if let owner { functionOwners[ObjectIdentifier(function)] = owner.name }
        }
        fileTypeNames = Set(file.allTypes.map(\.name))
        collectJavaScriptExports()
        collectPropertyTypes()
        // Round one analyzes every function; later rounds only the callers of functions whose summary
        // changed.
        var pending = functions
        var callees: [ObjectIdentifier: Set<ObjectIdentifier>] = [:]
        for _ in 0..<Self.maximumRounds {
            var changed = Set<ObjectIdentifier>()
            for (function, owner) in pending {
                let (summary, flows, called) = analyze(function, owner: owner)
                let id = ObjectIdentifier(function)
                flowsByFunction[id] = flows
                callees[id] = called
                let old = summaries[id]
                if old?.signature != summary.signature {
                    summaries[id] = summary
                    if !(old == nil && summary.returns.isEmpty && summary.flows.isEmpty && summary.validatedParameters.isEmpty) { changed.insert(id) }
                }
            }
            if changed.isEmpty { break }
            pending = functions.filter { !(callees[ObjectIdentifier($0.0)] ?? []).isDisjoint(with: changed) }
            if pending.isEmpty { break }
        }
        // The callbacks of the XML parsers whose documents came from outside, with the documents' origins.
        if !xmlDocuments.isEmpty {
            for (function, owner) in functions where XMLDocuments.callbackIndexes[function.fullName] != nil {
                flowsByFunction[ObjectIdentifier(function)] = analyze(function, owner: owner).1
            }
        }
        var flows: [TaintFlow] = []
        for (function, _) in functions { flows += flowsByFunction[ObjectIdentifier(function)] ?? [] }
        // Top-level code, computed properties (SwiftUI `body`) and property initializers.
        var blocks: [[Statement]] = file.statements.isEmpty ? [] : [file.statements]
        for variable in file.allVariables {
            for accessor in variable.accessors { blocks.append(accessor.statements) }
            if let initializer = variable.initializer, initializer.descendants().contains(where: { if case .closure = $0.kind { true } else { false } }) {
                blocks.append([Statement(kind: .expression(initializer), range: initializer.range)])
            }
        }
        for statements in blocks {
            var interpreter = FunctionInterpreter(engine: self, function: nil)
            var state = InterpreterState()
            interpreter.analyze(statements: statements, &state)
            flows += interpreter.flows
        }
        return (flows, facts(functions))
    }

    func analyze(_ function: FunctionDeclaration, owner: TypeDeclaration?) -> (FunctionSummary, [TaintFlow], Set<ObjectIdentifier>) {
        var interpreter = FunctionInterpreter(engine: self, function: function)
        var state = InterpreterState()
        let sources = parameterSources(function, owner: owner)
        for (index, parameter) in function.parameters.enumerated() {
            // A parameter typed as a number, a Boolean, a UUID or a date cannot carry a string.
            let inert = parameter.type.map(Transfers.isInertType) ?? false
            var symbolic = Taint(origin: .parameter(index: index, name: parameter.name))
            symbolic.lineage = [parameter.name]
            if inert { symbolic.checks.insert(.numeric) }
            var taints: [Taint] = [symbolic]
            for (source, latent) in sources[index] ?? [] {
                var taint = Taint(origin: .source(source))
                taint.latent = latent
                taint.lineage = [parameter.name]
                if inert { taint.checks.insert(.numeric) }
                taints.append(taint)
            }
            state.vars[parameter.name] = taints
            if let type = parameter.type { state.types[parameter.name] = type }
        }
        applySeeds(function, owner: owner, &state)
        applyXMLDocuments(function, owner: owner, &state)
        interpreter.ownerName = owner?.name
        if let body = function.body {
            var statements = body.statements
            // `func name() -> String { value }`: a single expression is what the function returns.
            if file.language == .swift, statements.count == 1, case .expression(let value) = statements[0].kind,
               let type = function.returnType, type != "Void", type != "()" {
                statements = [Statement(kind: .returnStatement(value), range: statements[0].range)]
            }
            interpreter.analyze(statements: statements, &state)
            if state.reachable { interpreter.noteSuccessfulExit(state) }
        }
        var summary = FunctionSummary()
        summary.validatedParameters = interpreter.validatedAtExits ?? []
        summary.returns = interpreter.returns.filter { taint in
            switch taint.origin {
            case .parameter: return true
            case .source(let hit): return taint.isActive && !hit.passedIn
            }
        }
        // `func validate(password: String) -> Bool`, `-> OSStatus`, `-> Date`, `-> SecretKind` (an enum of the
        // file): what such a function returns after consuming a secret is not the secret. Its sensitive
        // sources are dropped, and its parameters' values come back only for the kinds that pass through
        // any call (`Taint.viaUnknownCall`).
        if let type = function.returnType, SensitiveNaming.isScalarResult(type) || namedValues.enumTypes.contains(NamedValueFacts.coreType(type)) {
            summary.returns = summary.returns.compactMap { taint in
                if taint.flow == .sensitive { return nil }
                guard case .parameter = taint.origin else { return taint }
                var marked = taint
                marked.viaUnknownCall = true
                return marked
            }
        }
        summary.flows = interpreter.parameterFlows
        return (summary, interpreter.flows, interpreter.callees)
    }
}
