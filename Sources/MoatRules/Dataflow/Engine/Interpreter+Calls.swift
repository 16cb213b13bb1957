import MoatCore
import MoatSyntax

/// One call being evaluated: what the steps of `evalCall` read, and what earlier steps leave to later ones.
struct CallSite {
    let expression: Expression
    let callee: Expression
    let arguments: [Argument]
    let isMessageSend: Bool
    /// The called name: Swift base name, Objective-C selector, C function.
    let name: String
    /// The Swift base name or the first selector piece.
    let baseName: String
    let receiver: Expression?
    /// Filled by `evaluateReceiver`.
    var receiverTaints: [Taint] = []
    /// Filled by `evaluateArguments` (closures count as untainted arguments).
    var argumentTaints: [[Taint]] = []
    /// Closure arguments and their positions, for `analyzeClosures`.
    var closureArguments: [(Int, Expression)] = []
    /// Set by `reachSinks` when the call is a sink of the table.
    var matchedSink = false
    /// Set by `readSource` when it evaluated the receiver and arguments (a content reader whose URL is local).
    var evaluated = false
    /// Sources added to whatever the call returns (`TaintSource.addsToResult`).
    var addedTaints: [Taint] = []

    /// Every taint that goes into the call: its receiver's and its arguments'.
    var inputs: [Taint] { receiverTaints.merging(argumentTaints.flatMap { $0 }) }
}

/// The steps of `evalCall`, in the order they run, named after the functions that run them.
enum CallStepName: String, CaseIterable, Sendable {
    case readSource, evaluateReceiver, readPropertyCall, evaluateArguments, analyzeClosures, readIntoCOutArguments, checkOverflow
    case reachSinks, reachSensitiveAction, useLookedUpClass, confirm, applySummary, applyOtherFileSummary, mutateReceiver
    case writeOutArguments, transferResult
}

extension FunctionInterpreter {
    // MARK: Calls

    /// The steps of a call, in order (`CallStepName`); the first that returns taints decides what the call
    /// returns. Steps that decide nothing still record flows, bind out-parameters or mark the state.
    static let callSteps: [CallStepName] = CallStepName.allCases

    /// Runs one step: the call's taints when the step decides them, nil to go on to the next.
    mutating func run(_ step: CallStepName, _ call: inout CallSite, _ state: inout InterpreterState) -> [Taint]? {
        switch step {
        case .readSource: readSource(&call, &state)
        case .evaluateReceiver: evaluateReceiver(&call, &state)
        case .readPropertyCall: readPropertyCall(&call, &state)
        case .evaluateArguments: evaluateArguments(&call, &state)
        case .analyzeClosures: analyzeClosures(&call, &state)
        case .readIntoCOutArguments: readIntoCOutArguments(&call, &state)
        case .checkOverflow: checkOverflow(&call, &state)
        case .reachSinks: reachSinks(&call, &state)
        case .reachSensitiveAction: reachSensitiveAction(&call, &state)
        case .useLookedUpClass: useLookedUpClass(&call, &state)
        case .confirm: confirm(&call, &state)
        case .applySummary: applySummary(&call, &state)
        case .applyOtherFileSummary: applyOtherFileSummary(&call, &state)
        case .mutateReceiver: mutateReceiver(&call, &state)
        case .writeOutArguments: writeOutArguments(&call, &state)
        case .transferResult: transferResult(&call, &state)
        }
    }

    mutating func evalCall(_ expression: Expression, _ state: inout InterpreterState) -> [Taint] {
        guard case .call(let callee, let arguments, let isMessageSend) = expression.kind else { return [] }
        var receiver: Expression?
        if case .member(let base, _) = callee.unwrapped.kind { receiver = base }
        var call = CallSite(expression: expression, callee: callee, arguments: arguments, isMessageSend: isMessageSend,
                            name: callee.name ?? "", baseName: callee.baseCallName ?? "", receiver: receiver)
        for step in Self.callSteps {
            if let result = run(step, &call, &state) { return call.addedTaints.isEmpty ? result : result.merging(call.addedTaints) }
        }
        return call.addedTaints.isEmpty ? call.inputs : call.inputs.merging(call.addedTaints)
    }

    /// A source read through a call (`UIPasteboard.general.string(forType:)`, `getenv`, a CKRecord
    /// accessor): the call returns the source; its receiver and arguments are evaluated for their effects.
    ///
    /// A content reader (`Data(contentsOf:)`) returns remote content unless the URL it reads is local (then
    /// the later steps decide, with the receiver and arguments already evaluated). A source that adds to
    /// the result (`URL(fileURLWithPath:)`) is kept for the end of the call.
    mutating func readSource(_ call: inout CallSite, _ state: inout InterpreterState) -> [Taint]? {
        if let hit = callSource(call.expression, callee: call.callee, arguments: call.arguments, isMessageSend: call.isMessageSend, state,
                                addingToResult: true) {
            call.addedTaints = [sourceTaint(hit, at: call.expression.range)]
        }
        call.addedTaints += namedCallTaints(call, state)
        if let names = readArchiveEntryName(&call, &state) { return names }
        if call.evaluated { return nil }
        if let (source, urlIndex) = contentReader(call) {
            if let receiver = call.receiver { call.receiverTaints = eval(receiver, &state) }
            for argument in call.arguments { call.argumentTaints.append(eval(argument.value, &state)) }
            call.evaluated = true
            if isLocalURL(call.argumentTaints[urlIndex], for: source) { return nil }
            let api = call.isMessageSend ? call.name : (call.expression.swiftCallName ?? call.name)
            let hit = SourceHit(kind: source.kind, description: "\(source.description) with \(api)", range: call.expression.range,
                                confidence: source.confidence)
            return [sourceTaint(hit, at: call.expression.range)].merging(call.inputs)
        }
        guard let hit = callSource(call.expression, callee: call.callee, arguments: call.arguments, isMessageSend: call.isMessageSend, state)
        else { return nil }
        if let receiver = call.receiver { _ = eval(receiver, &state) }
        for argument in call.arguments { _ = eval(argument.value, &state) }
        return [sourceTaint(hit, at: call.expression.range)]
    }

    /// Evaluates the receiver (decides nothing).
    mutating func evaluateReceiver(_ call: inout CallSite, _ state: inout InterpreterState) -> [Taint]? {
        if call.evaluated { return nil }
        if let receiver = call.receiver { call.receiverTaints = eval(receiver, &state) }
        // `parser.parse()`: the parser's taints are the document's, whose content its callbacks receive.
        if XMLDocuments.parseNames.contains(call.name), call.arguments.isEmpty, let receiver = call.receiver, !call.receiverTaints.isEmpty,
           isXMLParser(receiver, state) {
            engine.noteXMLDocument(call.receiverTaints, delegates: xmlDelegateTypes(of: receiver, state), at: call.expression.range)
        }
        return nil
    }

    /// A call without arguments read as a property: every Objective-C message (`[data length]`), and the
    /// members `Transfers.members` also reads as calls (`url.resolvingSymlinksInPath()`, `s.intValue`).
    mutating func readPropertyCall(_ call: inout CallSite, _ state: inout InterpreterState) -> [Taint]? {
        guard call.arguments.isEmpty, call.receiver != nil, call.isMessageSend || Transfers.readsAsCall.contains(call.name) else { return nil }
        // `[self logout]`, `[self showDebugMenu]`: a message without arguments can still be the action a URL chose.
        if call.isMessageSend, !state.routing.isEmpty { _ = reachSensitiveAction(&call, &state) }
        let expression = call.expression
        if let hit = memberSource(expression, state) { return [sourceTaint(hit, at: expression.range)] }
        if let path = expression.accessPath, let stored = state.vars[path] { return stored }
        if let receiver = call.receiver, isArchiveEntryName(receiver, call.name, state) {
            return ArchiveEntries.entryName(of: call.receiverTaints, at: expression.range, api: CodeText.of(expression, in: file))
        }
        return readMember(call.receiverTaints, call.name, path: expression.accessPath, at: expression.range)
    }

    /// Evaluates the arguments; closures are kept for `analyzeClosures` (decides nothing).
    mutating func evaluateArguments(_ call: inout CallSite, _ state: inout InterpreterState) -> [Taint]? {
        if call.evaluated { return nil }
        for (index, argument) in call.arguments.enumerated() {
            if closure(argument.value, state) != nil, case .closure = argument.value.unwrapped.kind {
                call.closureArguments.append((index, argument.value))
                call.argumentTaints.append([])
            } else {
                call.argumentTaints.append(eval(argument.value, &state))
            }
        }
        return nil
    }

    /// Analyzes the closures passed to the call with the taints their parameters receive (sources'
    /// completion handlers, elements of a tainted collection, blocks exposed to JavaScript).
    mutating func analyzeClosures(_ call: inout CallSite, _ state: inout InterpreterState) -> [Taint]? {
        let lookedUp = analyzeClosureArguments(call.closureArguments, call: call.expression, callee: call.callee, name: call.name,
                                               baseName: call.baseName, receiverTaints: call.receiverTaints, receiver: call.receiver, &state)
        if !lookedUp.isEmpty { call.addedTaints.merge(lookedUp) }
        return nil
    }

    /// C library calls that write untrusted bytes into a buffer argument (`recv(fd, buffer, ...)`): the
    /// buffer's variable becomes the source (decides nothing about the result).
    mutating func readIntoCOutArguments(_ call: inout CallSite, _ state: inout InterpreterState) -> [Taint]? {
        guard case .identifier = call.callee.unwrapped.kind else { return nil }
        var sources = TaintSources.outArgumentSources[call.name] ?? []
        if file.language.isCFamily { sources += TaintSources.cOutSources[call.name] ?? [] }
        for source in sources {
            let argument: Int
            switch source.pattern {
            case .cOutArgument(_, let index), .outArgument(_, let index): argument = index
            default: continue
            }
            guard argument < call.arguments.count, let root = stripped(call.arguments[argument].value).rootName else { continue }
            let hit = SourceHit(kind: source.kind, description: "\(source.description) by \(call.name)", range: call.expression.range,
                                confidence: source.confidence)
            state.vars[root] = [sourceTaint(hit, at: call.expression.range)].mapTaints { $0.lineage.insert(root) }
        }
        return nil
    }

    /// An overflow-checked multiplication (`Checks.overflowCheck`): its operands and its product are
    /// overflow-checked; the call returns the checked product when the checker returns it, else nothing.
    mutating func checkOverflow(_ call: inout CallSite, _ state: inout InterpreterState) -> [Taint]? {
        guard Checks.overflowCheckerNames.contains(call.baseName) else { return nil }
        let arguments = call.arguments
        var facts: [ConditionFact] = []
        var values = arguments.map(\.value)
        if let receiver = call.receiver { values.append(receiver) }
        let kinds = Checks.overflowCheck.kinds
        for value in values {
            if let path = stripped(value).accessPath { facts.append(ConditionFact(path: path, check: .overflowChecked, kinds: kinds)) }
        }
        let operands = (call.receiverTaints + call.argumentTaints.flatMap { $0 }).adding([.overflowChecked], for: kinds)
        applyFacts(facts, &state)
        if let last = arguments.last, case .prefix("&", let out) = last.value.unwrapped.kind, let path = out.accessPath {
            var merged: [Taint] = []
            merged.merge(call.argumentTaints.dropLast().flatMap { $0 }.adding([.overflowChecked], for: kinds))
            bind(path, merged, at: call.expression.range, message: "checked product stored into `\(path)`", &state)
        }
        return Checks.overflowCheckersReturningOperands.contains(call.baseName) ? operands.mapTaints { $0.product = nil } : []
    }

    /// The sinks of the table the call matches: a flow for each (decides nothing about the result).
    mutating func reachSinks(_ call: inout CallSite, _ state: inout InterpreterState) -> [Taint]? {
        guard let candidates = TaintSinks.byName[call.name] else { return nil }
        for candidate in candidates where matches(candidate, callee: call.callee, arguments: call.arguments, receiver: call.receiver, state) {
            let sink = candidate.sink
            call.matchedSink = true
            if sink.kind == .classLookup { continue }
            if sink.kind == .sensitiveAction {
                record(sink, calledName: sink.api, range: call.expression.range,
                       roles: actionRoles(call, routeOnly: true, state), fixed: false, state)
                continue
            }
            var roles: [(SinkRole, Expression?, [Taint])] = []
            for (role, selector) in candidate.roles {
                switch selector {
                case .receiver: roles.append((role, call.receiver, call.receiverTaints))
                case .index(let index):
                    if index < call.arguments.count { roles.append((role, call.arguments[index].value, call.argumentTaints[index])) }
                case .label(let labels):
                    if let index = call.arguments.firstIndex(where: { labels.contains($0.label ?? "") }) {
                        roles.append((role, call.arguments[index].value, call.argumentTaints[index]))
                    }
                case .all:
                    roles.append((role, nil, call.argumentTaints.flatMap { $0 }))
                }
            }
            let destination = roles.first { $0.0 == .destination }?.1
            let calledName = sink.kinds.contains(where: \.isProof) ? fullDisplayName(call.expression, call.name)
                : displayName(call.expression, call.name)
            record(sink, calledName: calledName, range: call.expression.range, roles: roles,
                   fixed: destination.map { isFixedBuffer($0, state) } ?? false, state)
        }
        return nil
    }

    /// A method whose name performs a sensitive action (`SensitiveActions`, MOAT-PLAT-303): a flow of its
    /// arguments (decides nothing about the result).
    mutating func reachSensitiveAction(_ call: inout CallSite, _ state: inout InterpreterState) -> [Taint]? {
        if !call.matchedSink, let verb = engine.sensitiveAction(in: call.baseName),
           !SensitiveActions.isBookkeeping(labels: call.arguments.compactMap(\.label), receiver: call.receiver) {
            record(TaintSinks.sensitiveAction, calledName: displayName(call.expression, call.name), range: call.expression.range,
                   roles: actionRoles(call, routeOnly: SensitiveActions.actsWithoutArguments(verb), state), fixed: false, state)
        }
        return nil
    }

    /// The roles of a sensitive action: its arguments (checked for those the called function validates
    /// itself, by its summary), and when the action needs no argument to do harm, the input that chose
    /// the route to it (`InterpreterState.routing`).
    func actionRoles(_ call: CallSite, routeOnly: Bool, _ state: InterpreterState) -> [(SinkRole, Expression?, [Taint])] {
        let validated = validatedArguments(call, state)
        var arguments: [Taint] = []
        for (index, taints) in call.argumentTaints.enumerated() {
            arguments.merge(validated.contains(index) ? taints.map { $0.adding(.validated) } : taints)
        }
        var roles: [(SinkRole, Expression?, [Taint])] = [(.argument, nil, arguments)]
        if routeOnly, !state.routing.isEmpty { roles.append((.trigger, nil, state.routing)) }
        return roles
    }

    /// Arguments the called function (of this file or another) validates before doing its work.
    func validatedArguments(_ call: CallSite, _ state: InterpreterState) -> Set<Int> {
        guard call.argumentTaints.contains(where: { !$0.isEmpty }) else { return [] }
        if let (function, mapping) = engine.resolve(call.expression), !receiverRulesOut(function, call.receiver, state) {
            guard let summary = engine.summary(of: function) else { return [] }
            return Set(summary.validatedParameters.compactMap { mapping[$0] })
        }
        if let shape = callShape(call.expression, callee: call.callee, arguments: call.arguments, isMessageSend: call.isMessageSend,
                                 receiver: call.receiver, state),
           let (function, mapping) = engine.externalFunction(for: shape) {
            return Set(function.validatesParameters.compactMap { mapping[$0] })
        }
        return []
    }

    /// A class looked up by name used for anything but a check (`Checks.classInspection`) is a
    /// class-lookup flow; a class-lookup call (`NSClassFromString`) returns its argument's taints marked
    /// as a looked-up class.
    mutating func useLookedUpClass(_ call: inout CallSite, _ state: inout InterpreterState) -> [Taint]? {
        var lookedUp = (call.receiverTaints + call.argumentTaints.flatMap { $0 }).filter { $0.classLookup != nil && $0.isActive }
        // `classes.filter { $0.conforms(to: P.self) }`: the elements go to the closure, where each use is judged.
        if !call.closureArguments.isEmpty,
           Transfers.callTransfer(name: call.name, baseName: call.baseName, { if case .elementsToClosure = $0 { true } else { false } }) != nil {
            lookedUp = []
        }
        if Checks.classInspectionNames.contains(call.name) {
            let kinds = Checks.classInspection.kinds
            lookedUp = kinds.isEvery ? [] : lookedUp.filter { !$0.isAffected(by: kinds) }
        }
        if !lookedUp.isEmpty {
            record(TaintSinks.classLookup, calledName: displayName(call.expression, call.name), range: call.expression.range,
                   roles: [(.className, nil, lookedUp)], fixed: false, state)
        }
        guard TaintSinks.classLookupNames.contains(call.name), let first = call.argumentTaints.first else { return nil }
        let range = call.expression.range
        let name = call.name
        return first.filter { $0.isActive && !$0.isInertString }.mapTaints { taint in
            taint.classLookup = range
            taint.checks.remove(.protocolChecked)
            taint.addStep(range, "class looked up by name with \(name)")
        }
    }

    /// A call that asks the user (`Checks.confirmations`): what follows on this path is confirmed.
    mutating func confirm(_ call: inout CallSite, _ state: inout InterpreterState) -> [Taint]? {
        if engine.confirms(name: call.name, baseName: call.baseName) { state.confirmed = true }
        return nil
    }

    /// A function of this file: the call returns what its summary says (nothing until it has one).
    mutating func applySummary(_ call: inout CallSite, _ state: inout InterpreterState) -> [Taint]? {
        guard let (function, mapping) = engine.resolve(call.expression), !receiverRulesOut(function, call.receiver, state) else { return nil }
        callees.insert(ObjectIdentifier(function))
        guard let summary = engine.summary(of: function) else { return [] }
        return apply(summary, of: function, mapping: mapping, call: call.expression, arguments: call.arguments,
                     argumentTaints: call.argumentTaints, &state)
    }

    /// A function of another file (not a sink): noted for the facts, and when the scanner linked the files,
    /// the call returns what that function's return summary says.
    mutating func applyOtherFileSummary(_ call: inout CallSite, _ state: inout InterpreterState) -> [Taint]? {
        guard !call.matchedSink, let shape = callShape(call.expression, callee: call.callee, arguments: call.arguments,
                                                       isMessageSend: call.isMessageSend, receiver: call.receiver, state) else { return nil }
        engine.noteUnresolved(shape, location: call.expression.range, argumentTaints: call.argumentTaints, confirmed: state.confirmed)
        guard let (function, mapping) = engine.externalFunction(for: shape), let returns = function.returns else { return nil }
        return applyExternal(function, returns: returns, mapping: mapping, call: call.expression, arguments: call.arguments,
                             argumentTaints: call.argumentTaints)
    }

    /// A mutation of a local collection or string (`Transfers.calls`, `.mutatesReceiver`): the arguments
    /// flow into the receiver's variable; the call returns nothing.
    mutating func mutateReceiver(_ call: inout CallSite, _ state: inout InterpreterState) -> [Taint]? {
        guard let entry = Transfers.mutators[call.name], let receiver = call.receiver, let root = receiver.rootName else { return nil }
        var added = call.argumentTaints.flatMap { $0 }
        if !entry.kinds.isEvery { added = added.filter { $0.isAffected(by: entry.kinds) } }
        if !added.isEmpty {
            let range = call.expression.range
            state.vars[root, default: []].merge(added.mapTaints { $0.lineage.insert(root); $0.addStep(range, "added to `\(root)`") })
        }
        return []
    }

    /// Out-parameters: what goes into the call flows into each `&x` argument (`[data getBytes:&x length:n]`),
    /// and the copies of `Transfers.calls` (`memcpy(dst, src, n)`) into their destination (decides nothing).
    mutating func writeOutArguments(_ call: inout CallSite, _ state: inout InterpreterState) -> [Taint]? {
        let everything = call.receiverTaints + call.argumentTaints.flatMap { $0 }
        guard !everything.isEmpty else { return nil }
        for argument in call.arguments {
            guard case .prefix("&", let out) = argument.value.unwrapped.kind, let path = out.accessPath else { continue }
            let incoming = everything.filter { $0.classLookup == nil }
            if !incoming.isEmpty { state.vars[path, default: []].merge(incoming.mapTaints { $0.lineage.insert(path) }) }
        }
        if let entry = Transfers.copies[call.name], case .copiesArgument(let from, let into, let arity) = entry.effect, call.arguments.count == arity,
           let root = stripped(call.arguments[into].value).rootName, !call.argumentTaints[from].isEmpty {
            var copied = call.argumentTaints[from]
            if !entry.kinds.isEvery { copied = copied.filter { $0.isAffected(by: entry.kinds) } }
            state.vars[root, default: []].merge(copied.mapTaints { $0.lineage.insert(root) })
        }
        return nil
    }

    /// What the call returns: the transfer or check of `Transfers.results` and `Checks.results` with the
    /// lowest precedence that matches (a predicate, a conversion, an escaper, a sanitizer, an encoder, a
    /// path builder, a bound); otherwise its inputs pass through.
    mutating func transferResult(_ call: inout CallSite, _ state: inout InterpreterState) -> [Taint]? {
        let inputs = call.inputs
        if inputs.isEmpty { return [] }
        let index = Transfers.resultIndex
        let receiver = call.receiver
        let baseName = call.baseName
        let words = CamelCase.words(baseName).map { $0.lowercased() }
        var candidates = index.candidates(name: call.name, baseName: baseName, labels: call.arguments.map(\.label), words: words,
                                          receiverMentions: { receiver?.chainMentions($0) ?? false })
        while candidates != 0 {
            let rule = index.rules[candidates.trailingZeroBitCount]
            candidates &= candidates - 1
            switch rule.effect {
            case .dropsTaint:
                return rule.kinds.isEvery ? [] : inputs.filter { !$0.isAffected(by: rule.kinds) }
            case .adds(let checks):
                return inputs.adding(checks, for: rule.kinds)
            case .buildsPath:
                var result = call.receiverTaints
                // Appending a path to a URL the app chose keeps the app's scheme and host.
                let keepsHost = receiver != nil && call.receiverTaints.isEmpty
                let name = call.name
                for (position, argument) in call.arguments.enumerated() {
                    result.merge(call.argumentTaints[position].mapTaints { taint in
                        guard rule.kinds.isEvery || taint.isAffected(by: rule.kinds) else { return }
                        taint.addStep(argument.value.range, "put into a file path by \(name)")
                        if keepsHost { taint.checks.insert(.hostChecked) }
                    })
                }
                return result
            case .boundedByAnUntaintedArgument:
                if call.argumentTaints.contains(where: \.isEmpty) { return inputs.adding([.upperBounded], for: rule.kinds) }
            case .passesThrough:
                return inputs
            }
        }
        return passedThrough(call)
    }

    /// What a call no table entry describes returns: its receiver's taints, and its arguments' taints of
    /// the kinds that pass through any call (`FlowKind.passesThroughUnknownCalls`). A kind that does not
    /// (a secret handed to `postToServer(token:)` is not in the server's answer) passes through arguments
    /// only of an initializer (`Data(password.utf8)`) or a conversion of `Transfers.argumentConversions`
    /// (`String(format:)`, `JSONEncoder.encode`, `stringWithFormat:`).
    func passedThrough(_ call: CallSite) -> [Taint] {
        let arguments = call.argumentTaints.flatMap { $0 }
        let converts = call.callee.name?.first?.isUppercase == true || Transfers.argumentConversions.contains(call.name)
            || Transfers.argumentConversions.contains(call.baseName)
            || Transfers.buildsRequest(name: call.baseName, receiverRoot: call.receiver?.nameChain.first)
        if converts || arguments.isEmpty { return call.inputs }
        // A parameter's value is marked, for callers whose kind does not pass through such calls.
        let kept = arguments.compactMap { taint -> Taint? in
            guard let flow = taint.flow else {
                var copy = taint
                copy.viaUnknownCall = true
                return copy
            }
            return flow.passesThroughUnknownCalls ? taint : nil
        }
        return call.receiverTaints.merging(kept)
    }

    /// Removes `&`, casts and parentheses around a buffer argument.
    func stripped(_ expression: Expression) -> Expression {
        var current = expression.unwrapped
        while true {
            switch current.kind {
            case .prefix("&", let operand), .cast(let operand, _, _): current = operand.unwrapped
            default: return current
            }
        }
    }

    func isFixedBuffer(_ expression: Expression, _ state: InterpreterState) -> Bool {
        let value = expression.unwrapped
        if case .prefix("&", let operand) = value.kind {
            if let root = operand.rootName, operand.accessPath == root {
                if let type = state.types[root], type.hasText("*") || type.hasPrefix("[")
                    || Transfers.growableTypePrefixes.contains(where: type.hasPrefix) || Transfers.growableTypes.contains(type) {
                    return false
                }
                if state.dynamicBuffers.contains(root) { return false }
            }
            return true
        }
        if case .cast(let operand, _, _) = value.kind { return isFixedBuffer(operand, state) }
        if let path = value.accessPath, state.fixedBuffers.contains(path) { return true }
        if let (base, name) = value.propertyRead, name == Transfers.bufferAddressMember, let path = base.accessPath, state.fixedBuffers.contains(path) {
            return true
        }
        return false
    }

    /// A method of this file called on a receiver whose type is known to be a framework class or a standard
    /// value type the file neither declares nor extends (`[_secIdentities setObject:x forKey:k]` with
    /// `NSMutableDictionary *secIdentities`): the call is that type's method, not the file's namesake.
    func receiverRulesOut(_ function: FunctionDeclaration, _ receiver: Expression?, _ state: InterpreterState) -> Bool {
        guard let receiver, let owner = engine.functionOwners[ObjectIdentifier(function)], receiver.rootName != SensitiveSources.selfName,
              let type = sinkReceiverType(receiver, state) else { return false }
        let core = String(type.filter { !"?!* ".contains($0) }.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
        return core != owner && !engine.fileTypeNames.contains(core) && Transfers.isFrameworkType(type)
    }

    /// The declared or inferred type of a sink's receiver: a local's (`let defaults = UserDefaults(suiteName: g)`),
    /// or, for a receiver that is one of the enclosing type's stored properties (`shared`, `self.shared`,
    /// Objective-C `_shared`), the property's (`let shared = UserDefaults(suiteName: g)!` as a member).
    func sinkReceiverType(_ receiver: Expression, _ state: InterpreterState) -> String? {
        guard let root = receiver.rootName else { return nil }
        if let local = state.types[root] { return local }
        guard let ownerName, let properties = engine.propertyTypes[ownerName], let path = receiver.accessPath else { return nil }
        let property = path.hasPrefix(SensitiveSources.selfName + ".") ? String(path.dropFirst(SensitiveSources.selfName.count + 1)) : path
        if let declared = properties[property] { return declared }
        if file.language.isCFamily, property.hasPrefix("_") { return properties[String(property.dropFirst())] }
        return nil
    }

    func matches(_ candidate: SinkMatch, callee: Expression, arguments: [Argument], receiver: Expression?, _ state: InterpreterState) -> Bool {
        let type = receiver.flatMap { sinkReceiverType($0, state) }
        return TaintSinks.matches(candidate, language: file.language, callee: callee, arguments: arguments, receiver: receiver, receiverType: type)
    }

}
