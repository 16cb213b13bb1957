import MoatCore
import MoatSyntax

extension FunctionInterpreter {
    // MARK: Statements

    mutating func analyze(statements: [Statement], _ state: inout InterpreterState) {
        guard blockDepth < Self.maximumBlockDepth else { return }
        blockDepth += 1
        defer { blockDepth -= 1 }
        for statement in statements {
            guard state.reachable else { return }
            analyze(statement, &state)
        }
    }

    mutating func analyze(_ statement: Statement, _ state: inout InterpreterState) {
        switch statement.kind {
        case .expression(let expression):
            _ = eval(expression, &state)
            if statement.exits { state.reachable = false }
        case .variable(let names, let type, let initializer, _):
            declare(names: names, type: type, initializer: initializer, range: statement.range, &state)
        case .assignment(let target, let op, let value):
            assign(target: target, op: op, value: value, range: statement.range, &state)
        case .ifStatement(let conditions, let then, let elseBranch):
            let routingBefore = state.routing
            var (thenState, elseState) = evaluate(conditions, &state)
            analyze(statements: then.statements, &thenState)
            if let elseBranch { analyze(statements: elseBranch.statements, &elseState) }
            let bothContinue = thenState.reachable && elseState.reachable
            state = InterpreterState.join(thenState, elseState)
            // Code after an `if` both of whose branches go on runs whatever the condition said.
            if bothContinue { state.routing = routingBefore }
        case .guardStatement(let conditions, let elseBody):
            var (thenState, elseState) = evaluate(conditions, &state)
            analyze(statements: elseBody.statements, &elseState)
            state = elseBody.exits || !elseState.reachable ? thenState : InterpreterState.join(thenState, elseState)
        case .loop(let header, let variables, let body):
            analyzeLoop(header: header, variables: variables, body: body, &state)
        case .switchStatement(let subject, let cases):
            let subjectTaints = eval(subject, &state)
            let routingBefore = state.routing
            state.routing.merge(routingTaints(subject, state))
            var result = InterpreterState()
            result.reachable = false
            var hasDefault = false
            for switchCase in cases {
                var caseState = state
                if switchCase.patterns.isEmpty { hasDefault = true }
                for pattern in switchCase.patterns {
                    for name in PatternNames.bound(in: file.text(pattern.range)) {
                        bind(name, subjectTaints, at: pattern.range, message: "bound to `\(name)`", &caseState)
                    }
                }
                analyze(statements: switchCase.body.statements, &caseState)
                result = InterpreterState.join(result, caseState)
            }
            if !hasDefault { result = InterpreterState.join(result, state) }
            state = result
            state.routing = routingBefore
        case .returnStatement(let value):
            if let value {
                let taints = eval(value, &state).mapTaints { $0.addStep(value.range, "returned") }
                returns.merge(taints)
                // `return nil`, `return NO`: a failure exit, which validates nothing.
                if !value.isNilLike && value.boolValue != false { noteSuccessfulExit(state) }
            }
            state.reachable = false
        case .throwStatement(let value):
            _ = eval(value, &state)
            state.reachable = false
        case .doStatement(let body, let catches):
            let before = state
            analyze(statements: body.statements, &state)
            for clause in catches {
                var catchState = InterpreterState.join(before, state)
                catchState.reachable = true
                analyze(statements: clause.body.statements, &catchState)
                state = InterpreterState.join(state, catchState)
            }
        case .deferStatement(let body), .block(let body):
            analyze(statements: body.statements, &state)
        case .declaration(let declaration):
            if case .variable(let variable) = declaration {
                declare(names: [variable.name], type: variable.type, initializer: variable.initializer, range: variable.range, &state)
            }
        case .conditional(let block):
            let before = state
            var result = InterpreterState()
            result.reachable = false
            for clause in block.clauses {
                var clauseState = before
                analyze(statements: clause.elements, &clauseState)
                result = InterpreterState.join(result, clauseState)
            }
            state = result
        case .other:
            if statement.exits { state.reachable = false }
        }
    }

    mutating func analyzeLoop(header: [Expression], variables: [String], body: Block, _ state: inout InterpreterState) {
        var headerTaints: [[Taint]] = []
        for expression in header { headerTaints.append(eval(expression, &state)) }
        var entry = state
        let isForIn = !variables.isEmpty && (file.language == .swift || header.count == 1)
        if isForIn, let sequence = headerTaints.first {
            // for-in: the variables are elements of the sequence; a `where` clause holds in the body.
            for name in variables {
                bind(name, sequence, at: header[0].range, message: "iterated as `\(name)`", &entry)
                if let type = elementType(of: header[0], state) { entry.types[name] = type }
            }
            for condition in header.dropFirst() { applyFacts(ConditionFacts.extract(condition, holds: true), &entry) }
        } else if file.language == .swift {
            for condition in header { applyFacts(ConditionFacts.extract(condition, holds: true), &entry) }
        }
        // A second pass carries what one iteration leaves to the next; only for shallow nesting, so
        // nested loops stay linear.
        loopDepth += 1
        defer { loopDepth -= 1 }
        var first = entry
        analyze(statements: body.statements, &first)
        if loopDepth <= 2 {
            var second = InterpreterState.join(entry, first)
            analyze(statements: body.statements, &second)
            first = second
        }
        state = InterpreterState.join(state, InterpreterState.join(entry, first))
        state.reachable = true
    }

    func elementType(of sequence: Expression, _ state: InterpreterState) -> String? {
        guard let root = sequence.rootName, let type = state.types[root] else { return nil }
        return type.hasText(TaintSources.recordType) ? TaintSources.recordType : nil
    }

    /// The states in which the conditions hold and in which they do not. Untrusted input a condition
    /// reads routes both (`InterpreterState.routing`).
    mutating func evaluate(_ conditions: [Condition], _ state: inout InterpreterState) -> (InterpreterState, InterpreterState) {
        if conditions.count == 1, case .expression(let expression) = conditions[0], !isAssignment(expression) {
            _ = eval(expression, &state)
            var thenState = state
            var elseState = state
            applyFacts(ConditionFacts.extract(expression, holds: true), &thenState)
            applyFacts(ConditionFacts.extract(expression, holds: false), &elseState)
            thenState.routing.merge(routingTaints(expression, thenState))
            elseState.routing.merge(routingTaints(expression, elseState))
            return (thenState, elseState)
        }
        var elseState = state
        var thenState = state
        var routed: [Expression] = []
        for condition in conditions {
            switch condition {
            case .expression(let expression):
                if case .binary("=", let target, let value) = expression.unwrapped.kind {
                    // `guard session = lookup[...]` (a binding written without `let`).
                    assign(target: target, op: "=", value: value, range: expression.range, &thenState)
                } else {
                    _ = eval(expression, &thenState)
                    applyFacts(ConditionFacts.extract(expression, holds: true), &thenState)
                    routed.append(expression)
                }
            case .binding(let names, let value, let range):
                var taints = eval(value, &thenState)
                if case .cast(_, let type, "as?") = value.unwrapped.kind {
                    taints = taints.map { $0.adding(.typeChecked) }
                    for name in names { thenState.types[name] = type }
                }
                for name in names {
                    bind(name, taints, at: range, message: "bound to `\(name)`", &thenState)
                    noteHost(name, value, &thenState)
                }
            case .pattern(let pattern, let value, let range):
                let taints = eval(value, &thenState)
                for name in PatternNames.bound(in: pattern) { bind(name, taints, at: range, message: "bound to `\(name)`", &thenState) }
            case .other:
                break
            }
        }
        // After every condition: a check made by a later one (`, verifySignature(url)`) is on the route.
        for expression in routed {
            thenState.routing.merge(routingTaints(expression, thenState))
            elseState.routing.merge(routingTaints(expression, elseState))
        }
        return (thenState, elseState)
    }

    func isAssignment(_ expression: Expression) -> Bool {
        if case .binary("=", _, _) = expression.unwrapped.kind { return true }
        return false
    }

    // MARK: Assignments

    mutating func declare(names: [String], type: String?, initializer: Expression?, range: SourceRange,
                                  _ state: inout InterpreterState) {
        for name in names {
            state.vars[name] = nil
            state.closures[name] = nil
            state.loginResults[name] = nil
            if let type {
                state.types[name] = type
                if type.hasText("[") && type.hasText("]") && file.language.isCFamily { state.fixedBuffers.insert(name) }
            }
        }
        guard let initializer else { return }
        if case .closure = initializer.unwrapped.kind, names.count == 1 { state.closures[names[0]] = initializer }
        if type == nil, names.count == 1, let inferred = inferredType(initializer) { state.types[names[0]] = inferred }
        if names.count == 1, let login = SensitiveSources.loginCallName(initializer) { state.loginResults[names[0]] = login }
        if names.count == 1, isFixedArrayLiteral(initializer) { state.fixedBuffers.insert(names[0]) }
        if names.count == 1, isDynamicBuffer(initializer) { state.dynamicBuffers.insert(names[0]) }
        let taints = eval(initializer, &state)
        for name in names {
            bind(name, taints, at: range, message: "flows into `\(name)`", &state)
            noteHost(name, initializer, &state)
        }
    }

    func inferredType(_ expression: Expression) -> String? {
        switch expression.unwrapped.kind {
        case .cast(_, let type, _): return type
        // Literals say their type (`var secretEnabled = false`, `let tokenCount = 0`): a Boolean or a number.
        case .booleanLiteral: return Transfers.literalTypes.boolean
        case .integerLiteral: return Transfers.literalTypes.integer
        case .floatLiteral: return Transfers.literalTypes.float
        case .call(let callee, _, _):
            let chain = callee.nameChain
            guard let first = chain.first, first.first?.isUppercase == true else { return nil }
            if chain.count == 1 || chain.contains(where: Transfers.constructorNames.contains) { return first }
            return nil
        default: return nil
        }
    }

    /// `[UInt8](repeating: 0, count: n)`, `Array(data)`, `Data(count: n)`: sized at run time.
    func isDynamicBuffer(_ expression: Expression) -> Bool {
        guard case .call(let callee, _, false) = expression.unwrapped.kind else { return false }
        switch callee.unwrapped.kind {
        case .arrayLiteral: return !isFixedArrayLiteral(expression)
        case .identifier(let name): return Transfers.runtimeSizedBuffers.contains(name)
        default: return false
        }
    }

    /// `[UInt8](repeating: 0, count: 16)`.
    func isFixedArrayLiteral(_ expression: Expression) -> Bool {
        guard case .call(let callee, let arguments, false) = expression.unwrapped.kind,
              case .arrayLiteral = callee.unwrapped.kind,
              let count = arguments.first(where: { $0.label == Transfers.arrayCountLabel })?.value,
              case .integerLiteral = count.unwrapped.kind else { return false }
        return true
    }

    /// Remembers that `name` holds the host of a URL.
    func noteHost(_ name: String, _ value: Expression, _ state: inout InterpreterState) {
        var read = value.unwrapped
        if case .cast(let operand, _, _) = read.kind { read = operand.unwrapped }
        if case .call(let callee, let arguments, false) = read.kind, arguments.isEmpty { read = callee.unwrapped }
        let member: (Expression, String)? = read.propertyRead ?? {
            if case .member(let base?, let name) = read.kind { return (base, name) }
            return nil
        }()
        if let (base, property) = member, Checks.hostMembers.contains(property), let path = ConditionFacts.stripViews(base).subject.accessPath {
            state.hostAliases[name] = path
        } else {
            state.hostAliases[name] = nil
        }
        state.schemeAliases[name] = ConditionFacts.schemeSubject(value)
    }

    mutating func bind(_ name: String, _ taints: [Taint], at range: SourceRange, message: String, _ state: inout InterpreterState) {
        guard !taints.isEmpty else {
            state.vars[name] = nil
            return
        }
        state.vars[name] = taints.mapTaints { taint in
            taint.lineage.insert(name)
            if taint.isActive { taint.addStep(range, message) }
        }
    }

    mutating func assign(target: Expression, op: String, value: Expression, range: SourceRange, _ state: inout InterpreterState) {
        // A block stored into a JSContext is callable from page JavaScript.
        if case .subscriptAccess(let base, _) = target.unwrapped.kind, isJavaScriptContext(base, state) {
            if let closure = closure(value, state) { analyzeJavaScriptBlock(closure, &state) }
            _ = eval(base, &state)
            return
        }
        var taints = eval(value, &state)
        if op != "=" { taints.merge(eval(target, &state)) }
        if case .closure = value.unwrapped.kind, let path = target.accessPath { state.closures[path] = value }
        reachSetter(target: target, value: value, taints: taints, range: range, state)
        switch target.unwrapped.kind {
        case .subscriptAccess(let base, let arguments):
            for argument in arguments { _ = eval(argument.value, &state) }
            if arguments.count == 1, let key = keyTaint(arguments[0].value, at: value.range) { taints.merge([key]) }
            if let root = base.rootName, !taints.isEmpty {
                state.vars[root, default: []].merge(taints.mapTaints { $0.lineage.insert(root); $0.addStep(range, "stored into `\(root)`") })
            }
        default:
            guard let path = target.accessPath else {
                _ = eval(target, &state)
                return
            }
            for key in Array(state.vars.keys) where key.hasPrefix(path + ".") { state.vars[key] = nil }
            bind(path, taints, at: range, message: "flows into `\(path)`", &state)
            fillContainer(path: path, taints: taints, range: range, &state)
        }
    }

    /// A value of a kind that fills its container (`FlowKind.fillsContainer`) stored into a member of a
    /// local object (`account.password = pin`) makes the object carry it.
    mutating func fillContainer(path: String, taints: [Taint], range: SourceRange, _ state: inout InterpreterState) {
        guard let dot = path.firstIndex(of: ".") else { return }
        let root = String(path[..<dot])
        guard root != SensitiveSources.selfName else { return }
        let filling = taints.filter { $0.flow?.fillsContainer ?? false }
        guard !filling.isEmpty else { return }
        state.vars[root, default: []].merge(filling.mapTaints { $0.lineage.insert(root); $0.isContained = true; $0.addStep(range, "stored into `\(path)`") })
    }

    /// A property whose assignment is a sink (`UIPasteboard.general.string = token`).
    mutating func reachSetter(target: Expression, value: Expression, taints: [Taint], range: SourceRange, _ state: InterpreterState) {
        guard case .member(let base?, let name) = target.unwrapped.kind else { return }
        reachManagedAttribute(base: base, name: name, target: target, value: value, taints: taints, range: range, state)
        guard let candidates = TaintSinks.setters[name] else { return }
        let type = base.rootName.flatMap { state.types[$0] }
        for sink in candidates where base.chainMentions(sink.receivers) || (type.map { t in sink.receivers.contains { t.hasText($0) } } ?? false) {
            record(sink, calledName: file.text(target.range), range: range, roles: [(.value, value, taints)], fixed: false, state)
        }
    }

    /// A property of a Core Data managed object assigned (`user.password = pw`): an attribute set
    /// (`ManagedObjects`). The receiver's class comes from its declared or inferred type (`self` in a
    /// method of the class); without one, an `@NSManaged` property name decides. Receivers this file cannot
    /// judge are noted for the linker.
    mutating func reachManagedAttribute(base: Expression, name: String, target: Expression, value: Expression, taints: [Taint],
                                        range: SourceRange, _ state: InterpreterState) {
        let active = taints.active
        guard active.contains(where: { $0.flow == nil || $0.flow == .sensitive }) else { return }
        // Only a real secret makes the receiver worth telling other files about.
        let notes = active.contains { $0.flow == .sensitive && $0.source != nil } && engine.sensitiveMemberWrites.count < ManagedObjects.maximumNotedWrites
        // The receiver's class: `self`'s, a local's or parameter's declared or inferred type, a property's
        // declared type (`keychain.password = x` on a `Keychain` property is no Core Data write).
        var typeName: String?
        var typeKnown = false
        var declared: String?
        if case .identifier(let root) = base.unwrapped.kind {
            if root == SensitiveSources.selfName {
                typeName = ownerName
                typeKnown = ownerName != nil
            } else {
                declared = state.types[root] ?? ownerName.flatMap { engine.propertyTypes[$0]?[root] }
            }
        } else if let path = base.accessPath, let ownerName, path.hasPrefix(SensitiveSources.selfName + "."),
                  !path.dropFirst(SensitiveSources.selfName.count + 1).contains(".") {
            declared = engine.propertyTypes[ownerName]?[String(path.dropFirst(SensitiveSources.selfName.count + 1))]
        }
        if let declared {
            typeName = ManagedObjects.className(ofType: declared)
            typeKnown = true
        }
        let facts = engine.managedObjects
        if typeKnown {
            guard let typeName else { return }
            if notes { engine.sensitiveMemberWrites.insert(typeName) }
            guard facts.types[typeName] != nil else { return }
        } else {
            // Without the receiver's class, an `@NSManaged` property of that name is evidence only when the
            // property itself is named for a secret (`found.pinCode = pin`, not `field.text = password`).
            guard !ManagedObjects.modules.isDisjoint(with: file.imports), engine.sensitiveKind(of: name, type: nil) != nil else { return }
            if notes { engine.sensitiveMemberWrites.insert("." + name) }
            guard facts.properties.contains(name) else { return }
        }
        var sink = ManagedObjects.attributeSet
        sink.api += ":" + (typeName ?? "")
        record(sink, calledName: file.text(target.range), range: range, roles: [(.value, value, taints), (.key, target, [])], fixed: false, state)
    }

    // MARK: Checks

    mutating func applyFacts(_ facts: [ConditionFact], _ state: inout InterpreterState) {
        var facts = facts
        for fact in facts where [.allowlisted, .validated, .hostChecked].contains(fact.check) {
            if let url = state.hostAliases[fact.path] { facts.append(ConditionFact(path: url, check: .hostChecked, kinds: fact.kinds)) }
            if fact.check == .allowlisted, let url = state.schemeAliases[fact.path] {
                facts.append(ConditionFact(path: url, check: .schemeChecked, kinds: fact.kinds))
            }
        }
        for fact in facts {
            // Equal to another value: a check only when that value is the app's own (carries no taint).
            if let against = fact.against,
               (state.vars[against] ?? derive(path: against, state) ?? []).active.contains(where: { !($0.flow?.isHeldByTheApp ?? false) }) { continue }
            var found = false
            let everyKind = fact.kinds.isEvery
            for key in Array(state.vars.keys) {
                guard let taints = state.vars[key] else { continue }
                let matches = key == fact.path
                if matches { found = true }
                state.vars[key] = taints.map { taint in
                    guard matches || taint.lineage.contains(fact.path), everyKind || taint.isAffected(by: fact.kinds) else { return taint }
                    return taint.adding(fact.check)
                }
            }
            if !found, let derived = derive(path: fact.path, state), !derived.isEmpty {
                state.vars[fact.path] = derived.adding([fact.check], for: fact.kinds)
            }
        }
    }

    /// The untrusted input a condition reads: the taints of the variables at the roots of its access paths
    /// that come from an opened URL (or, for summaries, from a parameter).
    func routingTaints(_ condition: Expression, _ state: InterpreterState) -> [Taint] {
        var result: [Taint] = []
        var seen = Set<String>()
        for node in [condition] + condition.descendants() {
            guard case .identifier(let name) = node.kind, seen.insert(name).inserted, let taints = state.vars[name] else { continue }
            result.merge(taints.active.filter { taint in
                guard let source = taint.source else { return true }
                return source.kind.isOpenedURL
            }.mapTaints { $0.addStep(condition.range, "chooses what the code does") })
        }
        return result
    }

    /// A successful exit: the parameters validated here (`validatedAtExits`).
    mutating func noteSuccessfulExit(_ state: InterpreterState) {
        guard closureDepth == 0, let function else { return }
        var validated = Set<Int>()
        for taints in state.vars.values {
            var checkedHere = Set<Int>()
            var uncheckedHere = Set<Int>()
            for taint in taints {
                guard case .parameter(let index, _) = taint.origin else { continue }
                if taint.checks.isDisjoint(with: Self.parameterValidations) { uncheckedHere.insert(index) } else { checkedHere.insert(index) }
            }
            validated.formUnion(checkedHere.subtracting(uncheckedHere))
        }
        validated = validated.filter { $0 < function.parameters.count }
        validatedAtExits = validatedAtExits.map { $0.intersection(validated) } ?? validated
    }

    /// Checks that make a parameter validated for its callers: a validation call, equality with a value
    /// the app holds. Not an allowlist of constants (that routes, it does not validate).
    static let parameterValidations: Set<TaintCheck> = [.validated, .comparedWithValue]

    /// The taints of an access path not stored in the environment, read from its root.
    func derive(path: String, _ state: InterpreterState) -> [Taint]? {
        let components = path.split(separator: ".").map(String.init)
        guard let root = components.first, var taints = state.vars[root] else { return nil }
        var prefix = root
        for component in components.dropFirst() {
            prefix += "." + component
            taints = readMember(taints, component, path: prefix, at: nil)
        }
        return taints
    }

}
