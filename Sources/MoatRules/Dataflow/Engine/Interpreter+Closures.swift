import MoatCore
import MoatSyntax

extension FunctionInterpreter {
    // MARK: Closures

    func closure(_ expression: Expression, _ state: InterpreterState) -> Expression? {
        let value = expression.unwrapped
        if case .closure = value.kind { return value }
        if let path = value.accessPath, let stored = state.closures[path] { return stored }
        return nil
    }

    /// Analyzes the closures passed to a call; returns the classes looked up by name that the closures of a
    /// higher-order call return (`names.compactMap { NSClassFromString($0) }`): the call's result holds them.
    @discardableResult
    mutating func analyzeClosureArguments(_ closures: [(Int, Expression)], call: Expression, callee: Expression, name: String,
                                                  baseName: String, receiverTaints: [Taint], receiver: Expression?,
                                                  _ state: inout InterpreterState) -> [Taint] {
        // A block registered with a JSContext by `setObject:forKeyedSubscript:`.
        if TaintSources.javaScriptContextStoreSelectors.contains(name)
            || (TaintSources.javaScriptContextStoreBaseNames.contains(baseName) && call.arguments.count == 2),
           let receiver, isJavaScriptContext(receiver, state), let first = call.arguments.first, let block = closure(first.value, state) {
            analyzeJavaScriptBlock(block, &state)
        }
        guard !closures.isEmpty else { return [] }
        var lookedUpClasses: [Taint] = []
        let sourceEntries = TaintSources.closureSources[name] ?? TaintSources.closureSources[baseName] ?? []
        let higherOrder = Transfers.callTransfer(name: name, baseName: baseName) { if case .elementsToClosure = $0 { true } else { false } }
        let fixedBufferClosure = Transfers.callTransfer(name: name, baseName: baseName) { $0 == .fixedBufferToClosure } != nil
        let confirms = Checks.confirms(name: name, baseName: baseName, .confirmsInHandler)
        for (index, closureExpression) in closures {
            guard case .closure(let parameters, let body) = closureExpression.unwrapped.kind else { continue }
            let count = max(parameters.count, 1)
            var parameterTaints: [[Taint]] = Array(repeating: [], count: count)
            // Completion handlers are the last closure of the call.
            let isCompletion = index == closures.last?.0
            for entry in sourceEntries where entry.index < count && isCompletion {
                let hit = SourceHit(kind: entry.source.kind, description: entry.source.description, range: call.range,
                                    confidence: entry.source.confidence, isSystemFileURL: entry.source.isSystemFileURL)
                var taint = Taint(origin: .source(hit))
                taint.latent = entry.latent
                if taint.isActive { taint.steps = [] }
                parameterTaints[entry.index].merge([taint])
            }
            if let higherOrder, case .elementsToClosure(let skipsFirst) = higherOrder.effect, !receiverTaints.isEmpty {
                var elements = receiverTaints
                if !higherOrder.kinds.isEvery { elements = elements.filter { $0.isAffected(by: higherOrder.kinds) } }
                for position in 0..<count {
                    if skipsFirst && position == 0 { continue }
                    parameterTaints[position].merge(elements)
                }
            }
            var closureState = state
            if fixedBufferClosure, let first = call.arguments.first, case .prefix("&", _) = first.value.unwrapped.kind {
                for parameter in parameters { closureState.fixedBuffers.insert(parameter) }
                if parameters.isEmpty { closureState.fixedBuffers.insert("$0") }
            }
            let produced = analyzeClosure(parameters: parameters, body: body, parameterTaints: parameterTaints, confirmed: confirms, closureState)
            if higherOrder != nil { lookedUpClasses.merge(produced.filter { $0.classLookup != nil && $0.isActive }) }
        }
        return lookedUpClasses
    }

    mutating func analyzeJavaScriptBlock(_ block: Expression, _ state: inout InterpreterState) {
        guard case .closure(let parameters, let body) = block.unwrapped.kind, let source = TaintSources.contextBlockSource else { return }
        var parameterTaints: [[Taint]] = []
        for parameter in (parameters.isEmpty ? ["$0"] : parameters) {
            let hit = SourceHit(kind: source.kind, description: "`\(parameter)`, \(source.description)", range: block.range,
                                confidence: source.confidence)
            parameterTaints.append([Taint(origin: .source(hit))])
        }
        analyzeClosure(parameters: parameters, body: body, parameterTaints: parameterTaints, confirmed: false, state)
    }

    /// Analyzes a closure body with these parameter taints; returns what the closure returns (a
    /// single-expression closure returns its expression).
    @discardableResult
    mutating func analyzeClosure(parameters: [String], body: Block, parameterTaints: [[Taint]], confirmed: Bool,
                                         _ outer: InterpreterState) -> [Taint] {
        guard closureDepth < 8 else { return [] }
        var state = outer
        state.reachable = true
        if confirmed { state.confirmed = true }
        let names = parameters.isEmpty ? (0..<max(parameterTaints.count, 1)).map { "$\($0)" } : parameters
        for (index, name) in names.enumerated() {
            state.vars[name] = nil
            if index < parameterTaints.count, !parameterTaints[index].isEmpty {
                bind(name, parameterTaints[index], at: body.range, message: "received as `\(name)`", &state)
            }
        }
        let savedReturns = returns
        returns = []
        closureDepth += 1
        if body.statements.count == 1, case .expression(let value) = body.statements[0].kind {
            returns.merge(eval(value, &state))
        } else {
            analyze(statements: body.statements, &state)
        }
        closureDepth -= 1
        let produced = returns
        returns = savedReturns
        return produced
    }

}
