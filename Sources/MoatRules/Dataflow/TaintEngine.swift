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
    private var summaries: [ObjectIdentifier: FunctionSummary] = [:]
    private var flowsByFunction: [ObjectIdentifier: [TaintFlow]] = [:]
    private var functionsByFullName: [String: [FunctionDeclaration]] = [:]
    private var functionsByName: [String: [FunctionDeclaration]] = [:]
    private var exportedMethods: Set<String> = []
    private var exportingTypes: Set<String> = []
    let mentionsCloudKit: Bool
    /// What other files said (nil: analyzed alone).
    let context: DataflowContext?
    private var externalFunctions: [String: [ExportedFunction]] = [:]
    private var seedsByFunction: [FunctionSignature: [DataflowSeed]] = [:]
    /// Calls to functions of no file in sight, and those carrying untrusted data (for `facts`).
    private(set) var calledNames: Set<String> = []
    private(set) var taintedCalls: Set<String> = []
    private(set) var outgoing: [OutgoingCall] = []
    private var outgoingKeys: Set<OutgoingCall> = []
    /// Property types of the file's types, for receivers (`self.importer.save(...)`).
    private var propertyTypes: [String: [String: String]] = [:]

    static let maximumRounds = 5
    static let maximumOutgoing = 500

    init(file: CodeFile, context: DataflowContext? = nil) {
        self.file = file
        self.context = context
        if let context {
            for function in context.functions { externalFunctions[function.signature.lookupName, default: []].append(function) }
            for seed in context.seeds { seedsByFunction[seed.function, default: []].append(seed) }
        }
        mentionsCloudKit = file.imports.contains("CloudKit") || file.typeReferences.contains { $0.name.hasPrefix("CKRecord") }
            || file.containsText("CKRecord")
    }

    /// Runs the analysis: every flow from a real source into a sink, and what other files need to know.
    func run() -> (flows: [TaintFlow], facts: DataflowFacts) {
        var functions: [(FunctionDeclaration, TypeDeclaration?)] = []
        for (function, owner) in file.allFunctions where function.body != nil {
            functions.append((function, owner))
            functionsByFullName[function.fullName, default: []].append(function)
            functionsByName[function.name, default: []].append(function)
        }
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
                    if !(old == nil && summary.returns.isEmpty && summary.flows.isEmpty) { changed.insert(id) }
                }
            }
            if changed.isEmpty { break }
            pending = functions.filter { !(callees[ObjectIdentifier($0.0)] ?? []).isDisjoint(with: changed) }
            if pending.isEmpty { break }
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

    /// What callers in other files need: each function's signature and return summary, this file's calls
    /// to functions it does not define, and its JSExport declarations.
    private func facts(_ functions: [(FunctionDeclaration, TypeDeclaration?)]) -> DataflowFacts {
        var facts = DataflowFacts()
        var implemented = Set<String>()
        for (function, owner) in functions {
            if let owner { implemented.insert(owner.name) }
            var returns: [PortableTaint]?
            let returnsNothing = function.returnType.map { $0 == "void" || $0 == "Void" || $0 == "()" || $0 == "IBAction" } ?? true
            if !returnsNothing, let summary = summaries[ObjectIdentifier(function)] {
                let portable = summary.returns.map { $0.portable(in: file) }
                let passedThrough = Set(portable.compactMap { taint in
                    taint.parameter != nil && taint.checks.isEmpty && !taint.resetsCallerChecks && taint.members.isEmpty ? taint.parameter : nil
                })
                let isIdentity = portable.count == function.parameters.count && passedThrough.count == function.parameters.count
                if !isIdentity { returns = portable }
            }
            facts.functions.append(ExportedFunction(signature: signature(function, owner: owner),
                                                    location: ExternalLocation(file, function.nameRange), returns: returns))
        }
        facts.calledNames = calledNames.sorted()
        facts.taintedCalls = taintedCalls.sorted()
        facts.outgoing = outgoing
        for type in file.allTypes {
            if (type.kind == .protocol || type.kind == .objcProtocol) && type.inherits.contains("JSExport") {
                facts.javaScriptProtocols.append(JavaScriptProtocolFact(name: type.name, methods: type.functions.map(\.fullName)))
            }
            if !type.inherits.isEmpty { facts.adoptions.append(TypeAdoption(name: type.name, inherits: type.inherits)) }
        }
        facts.implementedTypes = implemented.sorted()
        return facts
    }

    private func analyze(_ function: FunctionDeclaration, owner: TypeDeclaration?) -> (FunctionSummary, [TaintFlow], Set<ObjectIdentifier>) {
        var interpreter = FunctionInterpreter(engine: self, function: function)
        var state = InterpreterState()
        let sources = parameterSources(function, owner: owner)
        for (index, parameter) in function.parameters.enumerated() {
            // A parameter typed as a number, a Boolean, a UUID or a date cannot carry a string.
            let inert = parameter.type.map(Self.isInertType) ?? false
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
        interpreter.ownerName = owner?.name
        if let body = function.body {
            var statements = body.statements
            // `func name() -> String { value }`: a single expression is what the function returns.
            if file.language == .swift, statements.count == 1, case .expression(let value) = statements[0].kind,
               let type = function.returnType, type != "Void", type != "()" {
                statements = [Statement(kind: .returnStatement(value), range: statements[0].range)]
            }
            interpreter.analyze(statements: statements, &state)
        }
        var summary = FunctionSummary()
        summary.returns = interpreter.returns.filter { taint in
            switch taint.origin {
            case .parameter: return true
            case .source(let hit): return taint.isActive && !hit.passedIn
            }
        }
        summary.flows = interpreter.parameterFlows
        return (summary, interpreter.flows, interpreter.callees)
    }

    static let inertTypes: Set<String> = ["Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
                                          "Double", "Float", "CGFloat", "Decimal", "Bool", "UUID", "Date", "TimeInterval",
                                          "NSInteger", "NSUInteger", "BOOL", "int", "long", "float", "double", "bool",
                                          "int32_t", "uint32_t", "int64_t", "uint64_t", "size_t", "NSTimeInterval", "CGFloat"]

    static func isInertType(_ type: String) -> Bool {
        var core = Substring(type)
        while let first = core.first, first == " " { core.removeFirst() }
        while let last = core.last, last == "?" || last == "!" || last == " " { core.removeLast() }
        return inertTypes.contains(String(core))
    }

    // MARK: Sources on parameters

    private func parameterSources(_ function: FunctionDeclaration, owner: TypeDeclaration?) -> [Int: [(SourceHit, Set<String>?)]] {
        var result: [Int: [(SourceHit, Set<String>?)]] = [:]
        for entry in TaintSources.parameterSources[function.fullName] ?? [] where entry.index < function.parameters.count {
            let hit = SourceHit(kind: entry.source.kind, description: entry.source.description, range: function.nameRange,
                                confidence: entry.source.confidence, isSystemFileURL: entry.source.isSystemFileURL)
            result[entry.index, default: []].append((hit, entry.latent))
        }
        if let source = TaintSources.exportSource, let owner, exportedMethods.contains(function.fullName),
           exportingTypes.contains(owner.name) {
            for (index, parameter) in function.parameters.enumerated() {
                let hit = SourceHit(kind: source.kind, description: "`\(parameter.name)`, a parameter of the JSExport method \(function.fullName), called by page JavaScript",
                                    range: function.nameRange, confidence: source.confidence)
                result[index, default: []].append((hit, nil))
            }
        }
        if result.isEmpty, let source = TaintSources.remoteHandlerSource, let sender = RemoteHandlers.senderIndex(of: function) {
            let senderName = function.parameters[sender].name
            for (index, parameter) in function.parameters.enumerated() where index != sender {
                let hit = SourceHit(kind: source.kind,
                                    description: "`\(parameter.name)`, received by \(function.fullName) from the remote sender `\(senderName)`",
                                    range: function.nameRange, confidence: source.confidence)
                result[index, default: []].append((hit, nil))
            }
        }
        return result
    }

    /// Protocols that inherit JSExport, their methods, and the types that adopt them; with what other
    /// files declared for the types of this one.
    private func collectJavaScriptExports() {
        for export in context?.javaScriptExports ?? [] {
            exportingTypes.insert(export.name)
            exportedMethods.formUnion(export.methods)
        }
        var protocols: Set<String> = []
        for type in file.allTypes where (type.kind == .protocol || type.kind == .objcProtocol) && type.inherits.contains("JSExport") {
            protocols.insert(type.name)
            for function in type.functions { exportedMethods.insert(function.fullName) }
        }
        guard !protocols.isEmpty else { return }
        for type in file.allTypes where !protocols.isDisjoint(with: type.inherits) { exportingTypes.insert(type.name) }
    }

    /// Untrusted values other files pass to this function: its parameters become sources.
    private func applySeeds(_ function: FunctionDeclaration, owner: TypeDeclaration?, _ state: inout InterpreterState) {
        guard !seedsByFunction.isEmpty, let seeds = seedsByFunction[signature(function, owner: owner)] else { return }
        var allConfirmed = true
        for seed in seeds where seed.parameter < function.parameters.count {
            let parameter = function.parameters[seed.parameter]
            let suffix = ", passed to \(function.fullName) from \(seed.call.shortDescription)"
            guard var taint = seed.taint.sourceTaint(at: function.nameRange, suffix: suffix, passedIn: true) else { continue }
            taint.append(PathStep(range: function.nameRange, message: "passed to \(function.fullName) as `\(parameter.name)`", external: seed.call))
            taint.lineage = [parameter.name]
            if let type = parameter.type, Self.isInertType(type) { taint.checks.insert(.numeric) }
            state.vars[parameter.name, default: []].merge([taint])
            allConfirmed = allConfirmed && seed.confirmed
        }
        if allConfirmed, !seeds.isEmpty { state.confirmed = true }
    }

    func signature(_ function: FunctionDeclaration, owner: TypeDeclaration?) -> FunctionSignature {
        let style: CallStyle = !file.language.isCFamily ? .swift : owner != nil ? .objc : .c
        return FunctionSignature(style: style, name: function.name, fullName: function.fullName,
                                 labels: function.parameters.map(\.label), owner: owner?.name)
    }

    private func collectPropertyTypes() {
        for type in file.allTypes {
            for member in type.members {
                guard case .variable(let variable) = member else { continue }
                if let declared = variable.type {
                    propertyTypes[type.name, default: [:]][variable.name] = declared
                } else if let initializer = variable.initializer, case .call(let callee, _, _) = initializer.unwrapped.kind,
                          let first = callee.nameChain.first, first.first?.isUppercase == true {
                    propertyTypes[type.name, default: [:]][variable.name] = first
                }
            }
        }
    }

    /// The type a receiver has, when it can be told: `Importer.shared`, a local or property declared with
    /// a type.
    func receiverType(_ receiver: Expression, owner: String?, _ state: InterpreterState) -> String? {
        guard let path = receiver.accessPath else { return nil }
        var components = path.split(separator: ".").map(String.init)
        if components.first == "self" { components.removeFirst() }
        guard let root = components.first else { return nil }
        if root.first?.isUppercase == true { return root }
        var type: String?
        if let declared = state.types[root] {
            type = declared
        } else if let owner, let declared = propertyTypes[owner]?[root] {
            type = declared
        }
        guard components.count == 1, let type else { return nil }
        let core = type.filter { !"?!* ".contains($0) }
        guard core.first?.isUppercase == true, core.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
        return core
    }

    // MARK: Other files

    /// A call this file does not define: resolved against other files' functions when the context knows
    /// them; recorded for the facts otherwise.
    func externalFunction(for shape: CallShape) -> (ExportedFunction, [Int: Int])? {
        guard let candidates = externalFunctions[shape.name], !candidates.isEmpty,
              let (index, mapping) = CrossFileResolver.resolve(shape, among: candidates.map(\.signature)) else { return nil }
        return (candidates[index], mapping)
    }

    func noteUnresolved(_ shape: CallShape, location: SourceRange, argumentTaints: [[Taint]], confirmed: Bool) {
        calledNames.insert(shape.name)
        var arguments: [OutgoingCall.Argument] = []
        for (index, taints) in argumentTaints.enumerated() {
            let real = taints.filter { $0.source != nil && $0.classLookup == nil && $0.product == nil }
            if !real.isEmpty { arguments.append(OutgoingCall.Argument(index: index, taints: real.prefix(4).map { $0.portable(in: file) })) }
        }
        guard !arguments.isEmpty else { return }
        taintedCalls.insert(shape.name)
        guard outgoing.count < Self.maximumOutgoing else { return }
        let call = OutgoingCall(call: shape, location: ExternalLocation(file, location), arguments: arguments, confirmed: confirmed)
        if outgoingKeys.insert(call).inserted { outgoing.append(call) }
    }

    // MARK: Summaries

    func summary(of function: FunctionDeclaration) -> FunctionSummary? {
        summaries[ObjectIdentifier(function)]
    }

    /// The function of this file a call resolves to, with the call argument index for each parameter.
    func resolve(_ call: Expression) -> (FunctionDeclaration, [Int: Int])? {
        guard case .call(let callee, let arguments, let isMessageSend) = call.unwrapped.kind, let name = callee.name else { return nil }
        if isMessageSend {
            guard let function = functionsByFullName[name]?.first, function.parameters.count == arguments.count else { return nil }
            return (function, Dictionary(uniqueKeysWithValues: (0..<arguments.count).map { ($0, $0) }))
        }
        if file.language.isCFamily {
            guard case .identifier = callee.kind, let function = functionsByName[name]?.first(where: { $0.fullName == name }),
                  function.parameters.count == arguments.count else { return nil }
            return (function, Dictionary(uniqueKeysWithValues: (0..<arguments.count).map { ($0, $0) }))
        }
        if let swiftName = call.swiftCallName, let function = functionsByFullName[swiftName]?.first {
            return (function, Dictionary(uniqueKeysWithValues: (0..<arguments.count).map { ($0, $0) }))
        }
        // Defaulted parameters, trailing closures: match labels in order.
        for function in functionsByName[name] ?? [] where function.parameters.count >= arguments.count {
            var mapping: [Int: Int] = [:]
            var argumentIndex = 0
            for (parameterIndex, parameter) in function.parameters.enumerated() where argumentIndex < arguments.count {
                if arguments[argumentIndex].label == parameter.label {
                    mapping[parameterIndex] = argumentIndex
                    argumentIndex += 1
                }
            }
            if argumentIndex == arguments.count { return (function, mapping) }
        }
        return nil
    }
}

/// The environment at one point of a function.
struct InterpreterState {
    var vars: [String: [Taint]] = [:]
    /// Declared or inferred types of locals and parameters.
    var types: [String: String] = [:]
    /// Locals that hold a closure (for blocks later stored into a JSContext).
    var closures: [String: Expression] = [:]
    /// Locals that are fixed-size buffers (C arrays, `withUnsafeMutableBytes(of: &x)` pointers).
    var fixedBuffers: Set<String> = []
    /// Locals that are arrays or data sized at run time (`[UInt8](repeating: 0, count: n)`).
    var dynamicBuffers: Set<String> = []
    /// Locals that hold the host of a URL (`let host = url.host`): a check on them is a check of the URL.
    var hostAliases: [String: String] = [:]
    /// A confirmation was shown on every path to here.
    var confirmed = false
    var reachable = true

    static func join(_ lhs: InterpreterState, _ rhs: InterpreterState) -> InterpreterState {
        if !lhs.reachable { return rhs }
        if !rhs.reachable { return lhs }
        var result = lhs
        for (key, taints) in rhs.vars { result.vars[key, default: []].merge(taints) }
        result.types.merge(rhs.types) { first, _ in first }
        result.closures.merge(rhs.closures) { first, _ in first }
        result.fixedBuffers.formUnion(rhs.fixedBuffers)
        result.dynamicBuffers.formUnion(rhs.dynamicBuffers)
        result.hostAliases.merge(rhs.hostAliases) { first, _ in first }
        result.confirmed = lhs.confirmed && rhs.confirmed
        return result
    }
}

/// Walks one function.
struct FunctionInterpreter {
    let engine: TaintEngine
    let function: FunctionDeclaration?
    var flows: [TaintFlow] = []
    var parameterFlows: [TaintFlow] = []
    var returns: [Taint] = []
    /// Functions of the file this one calls.
    var callees = Set<ObjectIdentifier>()
    /// The type the function belongs to.
    var ownerName: String?
    private var closureDepth = 0
    /// Nesting of the expression and statement being analyzed; beyond the limits the engine stops
    /// following (hostile or generated input must not exhaust the stack or time).
    private var expressionDepth = 0
    private var blockDepth = 0
    private var loopDepth = 0
    static let maximumExpressionDepth = 200
    static let maximumBlockDepth = 100
    static let maximumFlows = 2000

    init(engine: TaintEngine, function: FunctionDeclaration?) {
        self.engine = engine
        self.function = function
    }

    var file: CodeFile { engine.file }

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
            var (thenState, elseState) = evaluate(conditions, &state)
            analyze(statements: then.statements, &thenState)
            if let elseBranch { analyze(statements: elseBranch.statements, &elseState) }
            state = InterpreterState.join(thenState, elseState)
        case .guardStatement(let conditions, let elseBody):
            var (thenState, elseState) = evaluate(conditions, &state)
            analyze(statements: elseBody.statements, &elseState)
            state = elseBody.exits || !elseState.reachable ? thenState : InterpreterState.join(thenState, elseState)
        case .loop(let header, let variables, let body):
            analyzeLoop(header: header, variables: variables, body: body, &state)
        case .switchStatement(let subject, let cases):
            let subjectTaints = eval(subject, &state)
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
        case .returnStatement(let value):
            if let value {
                let taints = eval(value, &state).mapTaints { $0.addStep(value.range, "returned") }
                returns.merge(taints)
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

    private mutating func analyzeLoop(header: [Expression], variables: [String], body: Block, _ state: inout InterpreterState) {
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

    private func elementType(of sequence: Expression, _ state: InterpreterState) -> String? {
        guard let root = sequence.rootName, let type = state.types[root] else { return nil }
        return type.hasText("CKRecord") ? "CKRecord" : nil
    }

    /// The states in which the conditions hold and in which they do not.
    private mutating func evaluate(_ conditions: [Condition], _ state: inout InterpreterState) -> (InterpreterState, InterpreterState) {
        if conditions.count == 1, case .expression(let expression) = conditions[0], !isAssignment(expression) {
            _ = eval(expression, &state)
            var thenState = state
            var elseState = state
            applyFacts(ConditionFacts.extract(expression, holds: true), &thenState)
            applyFacts(ConditionFacts.extract(expression, holds: false), &elseState)
            return (thenState, elseState)
        }
        let elseState = state
        var thenState = state
        for condition in conditions {
            switch condition {
            case .expression(let expression):
                if case .binary("=", let target, let value) = expression.unwrapped.kind {
                    // `guard session = lookup[...]` (a binding written without `let`).
                    assign(target: target, op: "=", value: value, range: expression.range, &thenState)
                } else {
                    _ = eval(expression, &thenState)
                    applyFacts(ConditionFacts.extract(expression, holds: true), &thenState)
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
        return (thenState, elseState)
    }

    private func isAssignment(_ expression: Expression) -> Bool {
        if case .binary("=", _, _) = expression.unwrapped.kind { return true }
        return false
    }

    // MARK: Assignments

    private mutating func declare(names: [String], type: String?, initializer: Expression?, range: SourceRange,
                                  _ state: inout InterpreterState) {
        for name in names {
            state.vars[name] = nil
            state.closures[name] = nil
            if let type {
                state.types[name] = type
                if type.hasText("[") && type.hasText("]") && file.language.isCFamily { state.fixedBuffers.insert(name) }
            }
        }
        guard let initializer else { return }
        if case .closure = initializer.unwrapped.kind, names.count == 1 { state.closures[names[0]] = initializer }
        if type == nil, names.count == 1, let inferred = inferredType(initializer) { state.types[names[0]] = inferred }
        if names.count == 1, isFixedArrayLiteral(initializer) { state.fixedBuffers.insert(names[0]) }
        if names.count == 1, isDynamicBuffer(initializer) { state.dynamicBuffers.insert(names[0]) }
        let taints = eval(initializer, &state)
        for name in names {
            bind(name, taints, at: range, message: "flows into `\(name)`", &state)
            noteHost(name, initializer, &state)
        }
    }

    private func inferredType(_ expression: Expression) -> String? {
        switch expression.unwrapped.kind {
        case .cast(_, let type, _): return type
        case .call(let callee, _, _):
            let chain = callee.nameChain
            guard let first = chain.first, first.first?.isUppercase == true else { return nil }
            if chain.count == 1 || chain.contains("alloc") || chain.contains("new") || chain.contains("init") { return first }
            return nil
        default: return nil
        }
    }

    /// `[UInt8](repeating: 0, count: n)`, `Array(data)`, `Data(count: n)`: sized at run time.
    private func isDynamicBuffer(_ expression: Expression) -> Bool {
        guard case .call(let callee, _, false) = expression.unwrapped.kind else { return false }
        switch callee.unwrapped.kind {
        case .arrayLiteral: return !isFixedArrayLiteral(expression)
        case .identifier(let name): return ["Array", "Data", "ContiguousArray", "NSMutableData"].contains(name)
        default: return false
        }
    }

    /// `[UInt8](repeating: 0, count: 16)`.
    private func isFixedArrayLiteral(_ expression: Expression) -> Bool {
        guard case .call(let callee, let arguments, false) = expression.unwrapped.kind,
              case .arrayLiteral = callee.unwrapped.kind,
              let count = arguments.first(where: { $0.label == "count" })?.value,
              case .integerLiteral = count.unwrapped.kind else { return false }
        return true
    }

    /// Remembers that `name` holds the host of a URL.
    private func noteHost(_ name: String, _ value: Expression, _ state: inout InterpreterState) {
        var read = value.unwrapped
        if case .cast(let operand, _, _) = read.kind { read = operand.unwrapped }
        if case .call(let callee, let arguments, false) = read.kind, arguments.isEmpty { read = callee.unwrapped }
        let member: (Expression, String)? = read.propertyRead ?? {
            if case .member(let base?, let name) = read.kind { return (base, name) }
            return nil
        }()
        if let (base, property) = member, property == "host" || property == "hostname", let path = ConditionFacts.stripViews(base).subject.accessPath {
            state.hostAliases[name] = path
        } else {
            state.hostAliases[name] = nil
        }
    }

    private mutating func bind(_ name: String, _ taints: [Taint], at range: SourceRange, message: String, _ state: inout InterpreterState) {
        guard !taints.isEmpty else {
            state.vars[name] = nil
            return
        }
        state.vars[name] = taints.mapTaints { taint in
            taint.lineage.insert(name)
            if taint.isActive { taint.addStep(range, message) }
        }
    }

    private mutating func assign(target: Expression, op: String, value: Expression, range: SourceRange, _ state: inout InterpreterState) {
        // A block stored into a JSContext is callable from page JavaScript.
        if case .subscriptAccess(let base, _) = target.unwrapped.kind, isJavaScriptContext(base, state) {
            if let closure = closure(value, state) { analyzeJavaScriptBlock(closure, &state) }
            _ = eval(base, &state)
            return
        }
        var taints = eval(value, &state)
        if op != "=" { taints.merge(eval(target, &state)) }
        if case .closure = value.unwrapped.kind, let path = target.accessPath { state.closures[path] = value }
        switch target.unwrapped.kind {
        case .subscriptAccess(let base, let arguments):
            for argument in arguments { _ = eval(argument.value, &state) }
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
        }
    }

    // MARK: Checks

    mutating func applyFacts(_ facts: [ConditionFact], _ state: inout InterpreterState) {
        var facts = facts
        for fact in facts where [.allowlisted, .validated, .hostChecked].contains(fact.check) {
            if let url = state.hostAliases[fact.path] { facts.append(ConditionFact(path: url, check: .hostChecked)) }
        }
        for fact in facts {
            var found = false
            for key in Array(state.vars.keys) {
                guard let taints = state.vars[key] else { continue }
                let matches = key == fact.path
                if matches { found = true }
                state.vars[key] = taints.map { taint in
                    guard matches || taint.lineage.contains(fact.path) else { return taint }
                    return taint.adding(fact.check)
                }
            }
            if !found, let derived = derive(path: fact.path, state), !derived.isEmpty {
                state.vars[fact.path] = derived.map { $0.adding(fact.check) }
            }
        }
    }

    /// The taints of an access path not stored in the environment, read from its root.
    private func derive(path: String, _ state: InterpreterState) -> [Taint]? {
        let components = path.split(separator: ".").map(String.init)
        guard let root = components.first, var taints = state.vars[root] else { return nil }
        var prefix = root
        for component in components.dropFirst() {
            prefix += "." + component
            taints = readMember(taints, component, path: prefix, at: nil)
        }
        return taints
    }

    // MARK: Expressions

    mutating func eval(_ expression: Expression, _ state: inout InterpreterState) -> [Taint] {
        guard expressionDepth < Self.maximumExpressionDepth else { return [] }
        expressionDepth += 1
        defer { expressionDepth -= 1 }
        switch expression.kind {
        case .identifier(let name):
            return state.vars[name] ?? []
        case .member(let base, let name):
            if let hit = memberSource(expression, state) { return [sourceTaint(hit, at: expression.range)] }
            if let path = expression.accessPath, let stored = state.vars[path] { return stored }
            guard let base else { return [] }
            let taints = eval(base, &state)
            return readMember(taints, name, path: expression.accessPath, at: expression.range)
        case .call:
            return evalCall(expression, &state)
        case .subscriptAccess(let base, let arguments):
            if let hit = recordSource(base: base, key: arguments.first?.value, range: expression.range, state) {
                for argument in arguments { _ = eval(argument.value, &state) }
                return [sourceTaint(hit, at: expression.range)]
            }
            let taints = eval(base, &state)
            for argument in arguments { _ = eval(argument.value, &state) }
            return taints
        case .stringLiteral(let segments):
            var result: [Taint] = []
            var text = ""
            var fixedHost = false
            for segment in segments {
                switch segment {
                case .text(let part): text += part
                case .interpolation(let value):
                    // `"https://shop.example.com/item/\(id)"`: the input is after a fixed host.
                    if result.isEmpty, Self.hasFixedHost(text) { fixedHost = true }
                    var taints = eval(value, &state)
                    if fixedHost { taints = taints.map { $0.adding(.hostChecked) } }
                    result.merge(taints)
                }
            }
            let message = text.hasText("/") ? "interpolated into a path string" : "interpolated into a string"
            return result.mapTaints { $0.addStep(expression.range, message) }
        case .binary(let op, let lhs, let rhs):
            return evalBinary(expression, op, lhs, rhs, &state)
        case .prefix(let op, let operand):
            let taints = eval(operand, &state)
            return op == "!" ? [] : taints
        case .postfix(_, let operand), .wrapped(_, let operand):
            return eval(operand, &state)
        case .ternary(let condition, let then, let otherwise):
            _ = eval(condition, &state)
            var thenState = state
            applyFacts(ConditionFacts.extract(condition, holds: true), &thenState)
            var result = eval(then, &thenState)
            result.merge(eval(otherwise, &state))
            return result
        case .cast(let operand, _, let op):
            let taints = eval(operand, &state)
            return op == "is" ? [] : taints
        case .tuple(let elements):
            var result: [Taint] = []
            for element in elements { result.merge(eval(element.value, &state)) }
            return result
        case .arrayLiteral(let elements):
            var result: [Taint] = []
            for element in elements { result.merge(eval(element, &state)) }
            return result
        case .dictionaryLiteral(let pairs):
            var result: [Taint] = []
            for pair in pairs {
                _ = eval(pair.key, &state)
                result.merge(eval(pair.value, &state))
            }
            return result
        case .closure(let parameters, let body):
            analyzeClosure(parameters: parameters, body: body, parameterTaints: [], confirmed: false, state)
            return []
        case .integerLiteral, .floatLiteral, .booleanLiteral, .nilLiteral, .typeValue, .unknown:
            return []
        }
    }

    /// A URL prefix that fixes scheme and host: `https://host/`.
    static func hasFixedHost(_ prefix: String) -> Bool {
        guard let schemeEnd = prefix.range(of: "://") else { return false }
        let rest = prefix[schemeEnd.upperBound...]
        guard let slash = rest.firstIndex(of: "/") else { return false }
        return rest.distance(from: rest.startIndex, to: slash) > 0 && !rest[..<slash].contains("@")
    }

    static let numericMembers: Set<String> = [
        "intValue", "integerValue", "unsignedIntegerValue", "unsignedIntValue", "int32Value", "int64Value", "uint32Value",
        "uint64Value", "longValue", "longLongValue", "unsignedLongLongValue", "unsignedLongValue", "doubleValue", "floatValue",
        "boolValue", "shortValue", "unsignedShortValue", "charValue", "unsignedCharValue", "uuidString", "UUIDString",
    ]
    static let sizeMembers: Set<String> = ["count", "length", "utf16Count", "byteCount", "capacity"]
    static let booleanMembers: Set<String> = ["isEmpty", "isFileURL", "hashValue", "hash", "isNaN", "isZero", "isDirectory"]
    static let urlParts: Set<String> = ["query", "queryItems", "fragment", "percentEncodedQuery", "pathComponents", "parameterString",
                                        "queryParameters", "userInfo"]

    /// Reading a member of a tainted value.
    func readMember(_ taints: [Taint], _ name: String, path: String?, at range: SourceRange?) -> [Taint] {
        if Self.booleanMembers.contains(name) { return [] }
        return taints.compactMap { original in
            var taint = original
            if case .parameter = taint.origin { taint.members.insert(name) }
            if let latent = taint.latent {
                if latent.contains(name) {
                    taint.latent = nil
                    if let range { taint.addStep(range, "reads `\(name)`") }
                }
                return taint
            }
            if Self.sizeMembers.contains(name) {
                taint.checks.insert(.measuredSize)
            } else if name == "lastPathComponent" {
                taint.checks.subtract(TaintCheck.pathChecks)
                taint.checks.insert(.lastPathComponent)
                taint.lineage = []
                taint.resetsCallerChecks = true
                if let range { taint.addStep(range, "takes lastPathComponent") }
            } else if ConditionFacts.standardizers.contains(name) {
                taint.checks.remove(.prefixChecked)
                taint.checks.insert(.standardized)
                taint.lineage = []
                taint.resetsCallerChecks = true
            } else if Self.numericMembers.contains(name) {
                taint.checks.insert(.numeric)
            } else if Self.urlParts.contains(name) {
                taint.checks.insert(.urlPart)
            }
            if let path { taint.lineage.insert(path) }
            return taint
        }
    }

    private mutating func evalBinary(_ expression: Expression, _ op: String, _ lhs: Expression, _ rhs: Expression,
                                     _ state: inout InterpreterState) -> [Taint] {
        switch op {
        case "=":
            assign(target: lhs, op: "=", value: rhs, range: expression.range, &state)
            return []
        case "&&", "||":
            _ = eval(lhs, &state)
            var rhsState = state
            applyFacts(ConditionFacts.extract(lhs, holds: op == "&&"), &rhsState)
            _ = eval(rhs, &rhsState)
            state = InterpreterState.join(state, rhsState)
            return []
        case _ where ConditionFacts.comparisonOperators.contains(op) || op == "!==":
            let left = eval(lhs, &state)
            let right = eval(rhs, &state)
            let products = (left + right).filter { $0.product != nil }
            if !products.isEmpty {
                record(TaintSinks.lengthComparison, calledName: op, range: expression.range, roles: [(.size, lhs, products)],
                       fixed: false, state)
            }
            return []
        case "*", "&*":
            let left = eval(lhs, &state)
            let right = eval(rhs, &state)
            let wraps = op == "&*" || file.language.isCFamily
            var result: [Taint] = []
            for taint in left + right {
                var copy = taint
                // A count read from the data (not the size of a buffer that exists) multiplied with wrapping
                // arithmetic: C's `*`, Swift's `&*` (Swift's `*` traps on overflow).
                if wraps, taint.isActive, !taint.checks.contains(.measuredSize) {
                    let checked = !taint.checks.isDisjoint(with: [.overflowChecked, .upperBounded])
                    copy.product = ProductInfo(range: expression.range, checked: checked)
                    copy.addStep(expression.range, "multiplied without an overflow check")
                }
                result.merge([copy])
            }
            return result
        default:
            var result = eval(lhs, &state)
            result.merge(eval(rhs, &state))
            if op == "+" {
                let isString = lhs.isStringLiteral || rhs.isStringLiteral
                if isString { result = result.mapTaints { $0.addStep(expression.range, "concatenated into a string") } }
                if let prefix = lhs.stringValue, Self.hasFixedHost(prefix) { result = result.map { $0.adding(.hostChecked) } }
            }
            return result
        }
    }

    // MARK: Calls

    static let hofNames: Set<String> = ["map", "flatMap", "compactMap", "forEach", "filter", "first", "last", "contains", "allSatisfy",
                                        "reduce", "sorted", "sort", "min", "max", "withUnsafeBytes", "enumerateObjectsUsingBlock:",
                                        "enumerateKeysAndObjectsUsingBlock:", "indexOfObjectPassingTest:", "objectsPassingTest:",
                                        "enumerateObjectsWithOptions:usingBlock:", "firstIndex", "lastIndex", "drop", "prefix"]
    static let mutators: Set<String> = ["append", "insert", "add", "push", "formUnion", "merge", "updateValue", "addObject:",
                                        "addObjectsFromArray:", "setObject:forKey:", "setValue:forKey:", "appendString:", "appendFormat:",
                                        "appendData:", "appendBytes:length:", "addEntriesFromDictionary:", "unionSet:", "setObject:forKeyedSubscript:",
                                        "insertObject:atIndex:", "addObjectsFromArray", "appendContentsOf"]
    static let pathBuilders: Set<String> = ["appendingPathComponent", "appending", "URLByAppendingPathComponent:", "URLByAppendingPathComponent:isDirectory:",
                                            "stringByAppendingPathComponent:", "fileURLWithPath:", "fileURLWithPath:isDirectory:",
                                            "fileURLWithPath:relativeToURL:", "pathWithComponents:", "appendingPathExtension"]
    static let numericConversions: Set<String> = ["Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
                                                  "Double", "Float", "CGFloat", "Bool", "NSNumber", "UUID", "NSUUID", "Decimal", "atoi",
                                                  "atol", "atoll", "atof", "strtol", "strtoul", "strtoll", "strtoull", "strtod",
                                                  "initWithUUIDString:", "numberWithInteger:", "numberWithInt:"]
    static let jsonEncoders: Set<String> = ["data", "dataWithJSONObject:options:error:", "encode"]
    static let escapers: Set<String> = ["addingPercentEncoding", "stringByAddingPercentEncodingWithAllowedCharacters:",
                                        "stringByAddingPercentEscapesUsingEncoding:", "escapedPattern", "escapedTemplate",
                                        "escapedPatternForString:", "escapedTemplateForString:"]
    static let classChecks: Set<String> = ["conformsToProtocol:", "conforms", "isSubclassOfClass:", "isSubclass", "class_conformsToProtocol",
                                           "NSStringFromClass", "isKindOfClass:", "isMemberOfClass:", "respondsToSelector:",
                                           "instancesRespondToSelector:", "NSLog", "print", "debugPrint", "os_log", "String", "isEqual:",
                                           "isEqual", "describing"]
    static let confirmations: Set<String> = ["UIAlertController", "alertControllerWithTitle:message:preferredStyle:"]

    private mutating func evalCall(_ expression: Expression, _ state: inout InterpreterState) -> [Taint] {
        guard case .call(let callee, let arguments, let isMessageSend) = expression.kind else { return [] }
        let name = callee.name ?? ""
        let baseName = callee.baseCallName ?? ""
        var receiverExpression: Expression?
        if case .member(let base, _) = callee.unwrapped.kind { receiverExpression = base }

        // Sources read through a call.
        if let hit = callSource(expression, callee: callee, arguments: arguments, isMessageSend: isMessageSend, state) {
            if let receiverExpression { _ = eval(receiverExpression, &state) }
            for argument in arguments { _ = eval(argument.value, &state) }
            return [sourceTaint(hit, at: expression.range)]
        }

        var receiverTaints: [Taint] = []
        if let receiverExpression { receiverTaints = eval(receiverExpression, &state) }
        // `[data length]`, `url.resolvingSymlinksInPath()`: a property read.
        if arguments.isEmpty, receiverExpression != nil,
           isMessageSend || ConditionFacts.standardizers.contains(name) || Self.numericMembers.contains(name) {
            if let hit = memberSource(expression, state) { return [sourceTaint(hit, at: expression.range)] }
            if let path = expression.accessPath, let stored = state.vars[path] { return stored }
            return readMember(receiverTaints, name, path: expression.accessPath, at: expression.range)
        }

        // Arguments; closures are analyzed with the taints their parameters receive.
        var argumentTaints: [[Taint]] = []
        var closureArguments: [(Int, Expression)] = []
        for (index, argument) in arguments.enumerated() {
            if closure(argument.value, state) != nil, case .closure = argument.value.unwrapped.kind {
                closureArguments.append((index, argument.value))
                argumentTaints.append([])
            } else {
                argumentTaints.append(eval(argument.value, &state))
            }
        }
        analyzeClosureArguments(closureArguments, call: expression, callee: callee, name: name, baseName: baseName,
                                receiverTaints: receiverTaints, receiver: receiverExpression, &state)

        // C library out-parameters.
        if file.language.isCFamily, case .identifier = callee.unwrapped.kind {
            for source in TaintSources.cOutSources {
                guard case .cOutArgument(let functions, let index) = source.pattern, functions.contains(name),
                      index < arguments.count, let root = stripped(arguments[index].value).rootName else { continue }
                let hit = SourceHit(kind: source.kind, description: "\(source.description) by \(name)", range: expression.range,
                                    confidence: source.confidence)
                state.vars[root] = [sourceTaint(hit, at: expression.range)].mapTaints { $0.lineage.insert(root) }
            }
        }

        // Overflow-checked multiplication.
        if ConditionFacts.overflowCheckers.contains(baseName) {
            var facts: [ConditionFact] = []
            var values = arguments.map(\.value)
            if let receiverExpression { values.append(receiverExpression) }
            for value in values { if let path = stripped(value).accessPath { facts.append(ConditionFact(path: path, check: .overflowChecked)) } }
            let operands = (receiverTaints + argumentTaints.flatMap { $0 }).map { $0.adding(.overflowChecked) }
            applyFacts(facts, &state)
            if let last = arguments.last, case .prefix("&", let out) = last.value.unwrapped.kind, let path = out.accessPath {
                var merged: [Taint] = []
                merged.merge(argumentTaints.dropLast().flatMap { $0 }.map { $0.adding(.overflowChecked) })
                bind(path, merged, at: expression.range, message: "checked product stored into `\(path)`", &state)
            }
            return baseName == "multipliedReportingOverflow" || baseName == "multipliedFullWidth"
                ? operands.mapTaints { $0.product = nil } : []
        }

        // Sinks.
        let sinkCandidates = TaintSinks.byName[name] ?? []
        var matchedSink = false
        for sink in sinkCandidates where matches(sink, callee: callee, arguments: arguments, receiver: receiverExpression, state) {
            matchedSink = true
            if sink.kind == .classLookup { continue }
            var roles: [(SinkRole, Expression?, [Taint])] = []
            for (role, selector) in sink.roles {
                switch selector {
                case .receiver: roles.append((role, receiverExpression, receiverTaints))
                case .index(let index):
                    if index < arguments.count { roles.append((role, arguments[index].value, argumentTaints[index])) }
                case .label(let labels):
                    if let index = arguments.firstIndex(where: { labels.contains($0.label ?? "") }) {
                        roles.append((role, arguments[index].value, argumentTaints[index]))
                    }
                case .all:
                    roles.append((role, nil, argumentTaints.flatMap { $0 }))
                }
            }
            let destination = roles.first { $0.0 == .destination }?.1
            record(sink, calledName: displayName(expression, name), range: expression.range, roles: roles,
                   fixed: destination.map { isFixedBuffer($0, state) } ?? false, state)
        }
        if SensitiveActions.action(in: baseName) != nil, !SensitiveActions.isBookkeeping(labels: arguments.compactMap(\.label), receiver: receiverExpression) {
            record(TaintSinks.sensitiveAction, calledName: displayName(expression, name), range: expression.range,
                   roles: [(.argument, nil, argumentTaints.flatMap { $0 })], fixed: false, state)
        }

        // Classes looked up by name are reported when they are used for anything but a check.
        let lookedUp = (receiverTaints + argumentTaints.flatMap { $0 }).filter { $0.classLookup != nil && $0.isActive }
        if !lookedUp.isEmpty, !Self.classChecks.contains(name), let sink = TaintSinks.all.first(where: { $0.kind == .classLookup }) {
            record(sink, calledName: displayName(expression, name), range: expression.range, roles: [(.className, nil, lookedUp)],
                   fixed: false, state)
        }
        if TaintSinks.byName[name]?.contains(where: { $0.kind == .classLookup }) == true, let first = argumentTaints.first {
            return first.filter { $0.isActive && !$0.isInertString }.mapTaints { taint in
                taint.classLookup = expression.range
                taint.checks.remove(.protocolChecked)
                taint.addStep(expression.range, "class looked up by name with \(name)")
            }
        }

        if Self.confirmations.contains(name) || (baseName.hasText("confirm") || baseName.hasText("Confirm") || baseName.hasText("CONFIRM")) { state.confirmed = true }

        // A function of this file: apply its summary.
        if let (function, mapping) = engine.resolve(expression) {
            callees.insert(ObjectIdentifier(function))
            guard let summary = engine.summary(of: function) else { return [] }
            return apply(summary, of: function, mapping: mapping, call: expression, arguments: arguments,
                         argumentTaints: argumentTaints, &state)
        }
        // A function of another file: its return summary, when the scanner linked the files.
        if !matchedSink, let shape = callShape(expression, callee: callee, arguments: arguments, isMessageSend: isMessageSend,
                                               receiver: receiverExpression, state) {
            engine.noteUnresolved(shape, location: expression.range, argumentTaints: argumentTaints, confirmed: state.confirmed)
            if let (function, mapping) = engine.externalFunction(for: shape), let returns = function.returns {
                return applyExternal(function, returns: returns, mapping: mapping, call: expression, arguments: arguments,
                                     argumentTaints: argumentTaints)
            }
        }

        // Mutations of a local collection or string.
        if Self.mutators.contains(name), let receiverExpression, let root = receiverExpression.rootName {
            let added = argumentTaints.flatMap { $0 }
            if !added.isEmpty {
                state.vars[root, default: []].merge(added.mapTaints { $0.lineage.insert(root); $0.addStep(expression.range, "added to `\(root)`") })
            }
            return []
        }
        // Out-parameters (`memcpy(&x, ...)`, `[data getBytes:&x length:n]`).
        let everything = receiverTaints + argumentTaints.flatMap { $0 }
        if !everything.isEmpty {
            for argument in arguments {
                guard case .prefix("&", let out) = argument.value.unwrapped.kind, let path = out.accessPath else { continue }
                let incoming = everything.filter { $0.classLookup == nil }
                if !incoming.isEmpty { state.vars[path, default: []].merge(incoming.mapTaints { $0.lineage.insert(path) }) }
            }
            if name == "memcpy" || name == "memmove", arguments.count == 3, let root = stripped(arguments[0].value).rootName,
               !argumentTaints[1].isEmpty {
                state.vars[root, default: []].merge(argumentTaints[1].mapTaints { $0.lineage.insert(root) })
            }
        }

        // Sanitizers and transformations.
        let inputs = receiverTaints.merging(argumentTaints.flatMap { $0 })
        if inputs.isEmpty { return [] }
        let words = CamelCase.words(baseName).map { $0.lowercased() }
        if let first = words.first, ["is", "has", "contains", "can", "should", "starts", "ends", "validate", "matches"].contains(first)
            || baseName == "fileExists" || baseName == "fileExistsAtPath" {
            return []
        }
        if Self.numericConversions.contains(name) || Self.numericConversions.contains(baseName) {
            return inputs.map { $0.adding(.numeric) }
        }
        if Self.escapers.contains(name) || Self.escapers.contains(baseName)
            || words.contains(where: { ["escape", "escaped", "escaping", "quote", "quoted", "encode", "encoded", "encoding"].contains($0) })
            && engine.resolve(expression) == nil {
            return inputs.map { $0.adding(.escaped) }
        }
        if words.contains(where: { $0.hasPrefix("sanitiz") }) {
            return inputs.map { $0.adding(.escaped).adding(.validated) }
        }
        if (name == "data" && arguments.first?.label == "withJSONObject") || name == "dataWithJSONObject:options:error:"
            || (name == "encode" && (receiverExpression?.chainMentions(["JSONEncoder", "encoder", "Encoder"]) ?? false)) {
            return inputs.map { $0.adding(.jsonEncoded) }
        }
        if Self.pathBuilders.contains(name) || Self.pathBuilders.contains(baseName)
            || arguments.contains(where: { ["fileURLWithPath", "filePath", "path", "component"].contains($0.label ?? "") }) && baseName != "write" {
            var result = receiverTaints
            // Appending a path to a URL the app chose keeps the app's scheme and host.
            let keepsHost = receiverExpression != nil && receiverTaints.isEmpty
            for (index, argument) in arguments.enumerated() {
                result.merge(argumentTaints[index].mapTaints { taint in
                    taint.addStep(argument.value.range, "put into a file path by \(name)")
                    if keepsHost { taint.checks.insert(.hostChecked) }
                })
            }
            return result
        }
        if name == "min" || name == "MIN" || name == "fmin" {
            if argumentTaints.contains(where: \.isEmpty) { return inputs.map { $0.adding(.upperBounded) } }
        }
        return inputs
    }

    /// Removes `&`, casts and parentheses around a buffer argument.
    private func stripped(_ expression: Expression) -> Expression {
        var current = expression.unwrapped
        while true {
            switch current.kind {
            case .prefix("&", let operand), .cast(let operand, _, _): current = operand.unwrapped
            default: return current
            }
        }
    }

    private func isFixedBuffer(_ expression: Expression, _ state: InterpreterState) -> Bool {
        let value = expression.unwrapped
        if case .prefix("&", let operand) = value.kind {
            if let root = operand.rootName, operand.accessPath == root {
                if let type = state.types[root], type.hasText("*") || type.hasPrefix("[") || type.hasPrefix("Array") || type == "Data" {
                    return false
                }
                if state.dynamicBuffers.contains(root) { return false }
            }
            return true
        }
        if case .cast(let operand, _, _) = value.kind { return isFixedBuffer(operand, state) }
        if let path = value.accessPath, state.fixedBuffers.contains(path) { return true }
        if let (base, name) = value.propertyRead, name == "baseAddress", let path = base.accessPath, state.fixedBuffers.contains(path) {
            return true
        }
        return false
    }

    private func matches(_ sink: TaintSink, callee: Expression, arguments: [Argument], receiver: Expression?, _ state: InterpreterState) -> Bool {
        if sink.cFamilyOnly && !file.language.isCFamily { return false }
        if let required = sink.requiredLabels, !arguments.contains(where: { required.contains($0.label ?? "") }) { return false }
        if !sink.receivers.isEmpty {
            guard let receiver else { return false }
            if receiver.chainMentions(sink.receivers) { return true }
            if let root = receiver.rootName, let type = state.types[root], sink.receivers.contains(where: { type.hasText($0) }) { return true }
            return false
        }
        return true
    }

    /// Adds a flow, merging it into an earlier one at the same sink (loops are analyzed twice).
    private func add(_ flow: TaintFlow, to list: inout [TaintFlow]) {
        if let index = list.firstIndex(where: { $0.range == flow.range && $0.kind == flow.kind && $0.calledName == flow.calledName }) {
            for (role, taints) in flow.roles { list[index].roles[role, default: []].merge(taints) }
            list[index].confirmed = list[index].confirmed && flow.confirmed
            return
        }
        if list.count < Self.maximumFlows { list.append(flow) }
    }

    /// How messages name a call: `copyItem(at:to:)`, `copyItemAtURL:toURL:error:`, `memcpy`.
    private func displayName(_ call: Expression, _ name: String) -> String {
        if case .call(let callee, _, false) = call.unwrapped.kind, case .member = callee.unwrapped.kind, let swiftName = call.swiftCallName {
            return swiftName
        }
        return name
    }

    private mutating func record(_ sink: TaintSink, calledName: String, range: SourceRange, roles: [(SinkRole, Expression?, [Taint])],
                                 fixed: Bool, _ state: InterpreterState) {
        var real = TaintFlow(kind: sink.kind, api: sink.api, calledName: calledName, range: range, roles: [:], arguments: [:],
                             confirmed: state.confirmed, fixedDestination: fixed, function: function?.fullName)
        var symbolic = real
        for (role, expression, taints) in roles {
            let active = taints.active
            let sources = active.real
            let parameters = active.filter { $0.source == nil }
            if let expression, real.arguments[role] == nil { real.arguments[role] = expression; symbolic.arguments[role] = expression }
            if !sources.isEmpty { real.roles[role, default: []].merge(sources) }
            if !parameters.isEmpty { symbolic.roles[role, default: []].merge(parameters) }
        }
        if !real.roles.isEmpty { add(real, to: &flows) }
        if !symbolic.roles.isEmpty { add(symbolic, to: &parameterFlows) }
    }

    /// A caller's taint after a callee (of this file or another) did to it what its summary says: the
    /// checks it applied, a transformation that voids the caller's path checks, the members it read (which
    /// make a latent value untrusted; nil when it never read one of those). The lineage ends at the call.
    static func passedThrough(_ outer: Taint, checks: Set<TaintCheck>, resets: Bool, members: Set<String>) -> Taint? {
        var taint = outer
        if let latent = outer.latent {
            guard !latent.isDisjoint(with: members) else { return nil }
            taint.latent = nil
        }
        if resets {
            taint.checks.subtract(TaintCheck.pathChecks)
            if case .parameter = outer.origin { taint.resetsCallerChecks = true }
        }
        taint.checks.formUnion(checks)
        taint.members.formUnion(members)
        taint.lineage = []
        return taint
    }

    /// The taints a call to a summarized function returns, and the flows its parameters reach.
    private mutating func apply(_ summary: FunctionSummary, of callee: FunctionDeclaration, mapping: [Int: Int], call: Expression,
                                arguments: [Argument], argumentTaints: [[Taint]], _ state: inout InterpreterState) -> [Taint] {
        func compose(_ outer: Taint, _ inner: Taint, parameter: Int, name: String) -> Taint? {
            guard var taint = Self.passedThrough(outer, checks: inner.checks, resets: inner.resetsCallerChecks,
                                                 members: inner.members) else { return nil }
            if let product = inner.product {
                let checked = product.checked || !outer.checks.isDisjoint(with: [.overflowChecked, .upperBounded])
                taint.product = ProductInfo(range: product.range, checked: checked)
            }
            if inner.classLookup != nil { taint.classLookup = inner.classLookup }
            let argumentRange = mapping[parameter].map { arguments[$0].value.range } ?? call.range
            taint.addStep(argumentRange, "passed to \(callee.fullName) as `\(name)`")
            for step in inner.steps { taint.addStep(step.range, step.message) }
            return taint
        }
        func outerTaints(_ parameter: Int) -> [Taint] {
            guard let index = mapping[parameter], index < argumentTaints.count else { return [] }
            return argumentTaints[index]
        }
        var result: [Taint] = []
        for inner in summary.returns {
            switch inner.origin {
            case .source:
                var taint = inner
                taint.lineage = []
                taint.addStep(call.range, "returned by \(callee.fullName)")
                result.merge([taint])
            case .parameter(let index, let name):
                for outer in outerTaints(index) {
                    if outer.latent != nil, inner.members.isEmpty {
                        result.merge([outer])
                    } else if var taint = compose(outer, inner, parameter: index, name: name) {
                        taint.addStep(call.range, "returned by \(callee.fullName)")
                        result.merge([taint])
                    }
                }
            }
        }
        for flow in summary.flows {
            var composed = flow
            composed.roles = [:]
            composed.confirmed = flow.confirmed || state.confirmed
            for (role, taints) in flow.roles {
                for inner in taints {
                    guard case .parameter(let index, let name) = inner.origin else { continue }
                    for outer in outerTaints(index) where outer.isActive || outer.latent != nil {
                        if let taint = compose(outer, inner, parameter: index, name: name), taint.isActive {
                            composed.roles[role, default: []].merge([taint])
                        }
                    }
                }
            }
            var real = composed
            real.roles = composed.roles.mapValues { $0.real }.filter { !$0.value.isEmpty }
            var symbolic = composed
            symbolic.roles = composed.roles.mapValues { $0.filter { $0.source == nil } }.filter { !$0.value.isEmpty }
            if !real.roles.isEmpty { add(real, to: &flows) }
            if !symbolic.roles.isEmpty { add(symbolic, to: &parameterFlows) }
        }
        return result
    }

    /// How another file's function would see this call.
    private func callShape(_ expression: Expression, callee: Expression, arguments: [Argument], isMessageSend: Bool,
                           receiver: Expression?, _ state: InterpreterState) -> CallShape? {
        guard let name = callee.name, !name.isEmpty else { return nil }
        let style: CallStyle
        if isMessageSend {
            style = .objc
        } else if file.language.isCFamily {
            guard case .identifier = callee.unwrapped.kind else { return nil }
            style = .c
        } else {
            // Initializers (`Importer(name)`) are not followed.
            if receiver == nil, name.first?.isUppercase == true { return nil }
            style = .swift
        }
        var isSelf = false
        if let receiver, case .identifier(let root) = receiver.unwrapped.kind, ["self", "super", "Self"].contains(root) { isSelf = true }
        let type = isSelf ? nil : receiver.flatMap { engine.receiverType($0, owner: ownerName, state) }
        return CallShape(style: style, name: name, swiftName: style == .swift ? expression.swiftCallName : nil,
                         labels: arguments.map(\.label), receiverType: type, hasReceiver: receiver != nil && !isSelf,
                         enclosingType: ownerName)
    }

    /// The taints a call to a summarized function of another file returns.
    private func applyExternal(_ function: ExportedFunction, returns: [PortableTaint], mapping: [Int: Int], call: Expression,
                               arguments: [Argument], argumentTaints: [[Taint]]) -> [Taint] {
        let name = function.signature.fullName
        let place = function.location.shortDescription
        var result: [Taint] = []
        for inner in returns {
            guard let parameter = inner.parameter else {
                if var taint = inner.sourceTaint(at: call.range, suffix: "", passedIn: false) {
                    taint.addStep(call.range, "returned by \(name) (\(place))")
                    result.merge([taint])
                }
                continue
            }
            guard let index = mapping[parameter], index < argumentTaints.count else { continue }
            for outer in argumentTaints[index] {
                if outer.latent != nil, inner.members.isEmpty {
                    result.merge([outer])
                    continue
                }
                guard var taint = Self.passedThrough(outer, checks: inner.checkSet, resets: inner.resetsCallerChecks,
                                                     members: Set(inner.members)) else { continue }
                taint.addStep(arguments[index].value.range, "passed to \(name) (\(place))")
                taint.addStep(call.range, "returned by \(name)")
                result.merge([taint])
            }
        }
        return result
    }

    // MARK: Closures

    private func closure(_ expression: Expression, _ state: InterpreterState) -> Expression? {
        let value = expression.unwrapped
        if case .closure = value.kind { return value }
        if let path = value.accessPath, let stored = state.closures[path] { return stored }
        return nil
    }

    private mutating func analyzeClosureArguments(_ closures: [(Int, Expression)], call: Expression, callee: Expression, name: String,
                                                  baseName: String, receiverTaints: [Taint], receiver: Expression?,
                                                  _ state: inout InterpreterState) {
        // A block registered with a JSContext by `setObject:forKeyedSubscript:`.
        if (name == "setObject:forKeyedSubscript:" || (baseName == "setObject" && call.arguments.count == 2)),
           let receiver, isJavaScriptContext(receiver, state), let first = call.arguments.first, let block = closure(first.value, state) {
            analyzeJavaScriptBlock(block, &state)
        }
        guard !closures.isEmpty else { return }
        let sourceEntries = TaintSources.closureSources[name] ?? TaintSources.closureSources[baseName] ?? []
        let isHigherOrder = Self.hofNames.contains(name) || Self.hofNames.contains(baseName)
        let confirms = ["UIAlertAction", "actionWithTitle:style:handler:", "evaluatePolicy", "evaluatePolicy:localizedReason:reply:",
                        "requestAccess", "present", "presentViewController:animated:completion:"].contains(name) || baseName == "UIAlertAction"
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
            if isHigherOrder, !receiverTaints.isEmpty {
                for position in 0..<count {
                    if baseName == "reduce" && position == 0 { continue }
                    parameterTaints[position].merge(receiverTaints)
                }
            }
            var closureState = state
            if baseName == "withUnsafeMutableBytes" || baseName == "withUnsafeMutablePointer",
               let first = call.arguments.first, case .prefix("&", _) = first.value.unwrapped.kind {
                for parameter in parameters { closureState.fixedBuffers.insert(parameter) }
                if parameters.isEmpty { closureState.fixedBuffers.insert("$0") }
            }
            analyzeClosure(parameters: parameters, body: body, parameterTaints: parameterTaints, confirmed: confirms, closureState)
        }
    }

    private mutating func analyzeJavaScriptBlock(_ block: Expression, _ state: inout InterpreterState) {
        guard case .closure(let parameters, let body) = block.unwrapped.kind, let source = TaintSources.contextBlockSource else { return }
        var parameterTaints: [[Taint]] = []
        for parameter in (parameters.isEmpty ? ["$0"] : parameters) {
            let hit = SourceHit(kind: source.kind, description: "`\(parameter)`, \(source.description)", range: block.range,
                                confidence: source.confidence)
            parameterTaints.append([Taint(origin: .source(hit))])
        }
        analyzeClosure(parameters: parameters, body: body, parameterTaints: parameterTaints, confirmed: false, state)
    }

    private mutating func analyzeClosure(parameters: [String], body: Block, parameterTaints: [[Taint]], confirmed: Bool,
                                         _ outer: InterpreterState) {
        guard closureDepth < 8 else { return }
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
        closureDepth += 1
        analyze(statements: body.statements, &state)
        closureDepth -= 1
        returns = savedReturns
    }

    // MARK: Source matching

    private func sourceTaint(_ hit: SourceHit, at range: SourceRange) -> Taint {
        Taint(origin: .source(hit))
    }

    private func isJavaScriptContext(_ expression: Expression, _ state: InterpreterState) -> Bool {
        if let root = expression.rootName, let type = state.types[root], type.hasText("JSContext") { return true }
        return expression.chainMentions(["JSContext", "jsContext", "javaScriptContext", "context", "Context"])
            && !expression.chainMentions(["managedObjectContext", "extensionContext", "viewContext", "ManagedObjectContext"])
    }

    private func memberSource(_ expression: Expression, _ state: InterpreterState) -> SourceHit? {
        guard let (base, name) = expression.propertyRead ?? {
            if case .member(let base?, let name) = expression.unwrapped.kind { return (base, name) }
            return nil
        }() else { return nil }
        for source in TaintSources.memberSources {
            guard case .member(let names, let receivers, let receiverType) = source.pattern, names.contains(name) else { continue }
            var matched = receivers.isEmpty && receiverType == nil
            if !receivers.isEmpty, base.chainMentions(receivers) { matched = true }
            if let receiverType, let root = base.rootName, let type = state.types[root], type.contains(receiverType) { matched = true }
            if matched {
                return SourceHit(kind: source.kind, description: source.description, range: expression.range, confidence: source.confidence)
            }
        }
        return nil
    }

    private func callSource(_ call: Expression, callee: Expression, arguments: [Argument], isMessageSend: Bool,
                            _ state: InterpreterState) -> SourceHit? {
        guard let name = callee.name else { return nil }
        let receiver = callee.receiver
        if TaintSources.recordAccessors.contains(name) || TaintSources.recordAccessors.contains(callee.baseCallName ?? ""),
           let receiver, arguments.count == 1, arguments[0].label == nil || arguments[0].label == "forKey" || isMessageSend {
            if let hit = recordSource(base: receiver, key: arguments[0].value, range: call.range, state) { return hit }
        }
        for source in TaintSources.callSources {
            guard case .call(let names, let receivers, let labels) = source.pattern, names.contains(name) else { continue }
            if let labels {
                if labels.isEmpty {
                    guard arguments.isEmpty, !isMessageSend, receiver != nil else { continue }
                } else {
                    guard let first = arguments.first?.label, labels.contains(first) else { continue }
                }
            }
            if !receivers.isEmpty {
                guard let receiver, receiver.chainMentions(receivers) else { continue }
            }
            return SourceHit(kind: source.kind, description: source.description, range: call.range, confidence: source.confidence)
        }
        if file.language.isCFamily, case .identifier = callee.unwrapped.kind {
            for source in TaintSources.cResultSources {
                guard case .cResult(let functions) = source.pattern, functions.contains(name) else { continue }
                return SourceHit(kind: source.kind, description: source.description, range: call.range, confidence: source.confidence)
            }
            for source in TaintSources.cOutSources {
                guard case .cOutArgument(let functions, _) = source.pattern, functions.contains(name), name == "fgets" else { continue }
                return SourceHit(kind: source.kind, description: source.description, range: call.range, confidence: source.confidence)
            }
        }
        return nil
    }

    /// A read from a CKRecord: `record["uuid"]`, `record.object(forKey:)`, `[record objectForKey:@"uuid"]`.
    private func recordSource(base: Expression, key: Expression?, range: SourceRange, _ state: InterpreterState) -> SourceHit? {
        guard let source = TaintSources.recordSource else { return nil }
        var receiver = base.unwrapped
        if let (inner, name) = receiver.propertyRead, name == "encryptedValues" { receiver = inner.unwrapped }
        guard let root = receiver.accessPath else { return nil }
        var isRecord = false
        if let type = state.types[root], type.hasText("CKRecord") {
            isRecord = !type.hasText("ID") || type.hasText("CKRecord *") || type == "CKRecord"
        } else if state.types[root] == nil, engine.mentionsCloudKit {
            let last = root.split(separator: ".").last.map(String.init) ?? root
            isRecord = last.lowercased() == "record" || last.hasSuffix("Record")
        }
        guard isRecord else { return nil }
        let field = key?.stringValue.map { "the CKRecord field \"\($0)\"" } ?? source.description
        return SourceHit(kind: source.kind, description: field, range: range, confidence: source.confidence)
    }
}
