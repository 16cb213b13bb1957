import MoatCore
import MoatSyntax


// The interpreter: walks one function over the code model, keeping the taints of each access path.
// Statements (Interpreter+Statements.swift), expressions (+Expressions), calls as an ordered list of steps
// (+Calls), summaries of called functions (+Summaries), closures (+Closures) and the matching of sources
// (+Sources) are in their own files. What APIs do is read from the tables (Tables/): none is named here.

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
    /// Locals that hold the scheme of a URL (`let scheme = url.scheme?.lowercased()`): finding one equal to a
    /// fixed scheme checks the URL's scheme.
    var schemeAliases: [String: String] = [:]
    /// Locals bound to what a sign-in call returned (`let confirmation = try await remote.requestLoginConfirmation(…)`),
    /// with the call's name: the tokens in it are the credential the login issued (`SensitiveSources.loginCallName`).
    var loginResults: [String: String] = [:]
    /// A confirmation was shown on every path to here.
    var confirmed = false
    /// Untrusted input (an opened URL, or while a summary is computed, a parameter) that a condition or a
    /// `switch` on the path to here read: it chose to run this code (`if url.host == "logout" { ... }`).
    var routing: [Taint] = []
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
        result.schemeAliases.merge(rhs.schemeAliases) { first, _ in first }
        result.loginResults.merge(rhs.loginResults) { first, _ in first }
        result.confirmed = lhs.confirmed && rhs.confirmed
        result.routing.merge(rhs.routing)
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
    /// Parameters a value derived from which passed a validation (`.validated`, `.comparedWithValue`) on
    /// every successful exit (a return of a value that is not nil or false, or the end of the body); nil
    /// until an exit is seen.
    var validatedAtExits: Set<Int>?
    /// The type the function belongs to.
    var ownerName: String?
    var closureDepth = 0
    /// Nesting of the expression and statement being analyzed; beyond the limits the engine stops
    /// following (hostile or generated input must not exhaust the stack or time).
    var expressionDepth = 0
    var blockDepth = 0
    var loopDepth = 0
    static let maximumExpressionDepth = 200
    static let maximumBlockDepth = 100
    static let maximumFlows = 2000

    init(engine: TaintEngine, function: FunctionDeclaration?) {
        self.engine = engine
        self.function = function
    }

    var file: CodeFile { engine.file }

    /// Adds a flow, merging it into an earlier one at the same sink (loops are analyzed twice).
    func add(_ flow: TaintFlow, to list: inout [TaintFlow]) {
        // A kind that only proves something about a value (`localFile`) never reaches a sink, however it
        // got there (directly, or through a summary of this file or another).
        var flow = flow
        // Likewise a taint of a kind the sink does not report (a secret at a file path) is dropped here, also
        // when a summary composed it with the sink.
        // A sink that names a proof kind among its kinds keeps it beside the others, as a fact about the
        // same argument (a read by path keeps `localFile`: the path starts in a folder of the app), but a
        // flow of proofs alone is no flow.
        let kinds = flow.kinds
        let keepsProofs = !kinds.isEvery && kinds.contains(where: \.isProof)
        flow.roles = flow.roles.mapValues { $0.filter { taint in taint.flow.map { kinds.contains($0) && (keepsProofs || !$0.isProof) } ?? true } }
            .filter { !$0.value.isEmpty }
        if flow.roles.isEmpty { return }
        if keepsProofs && !flow.roles.values.contains(where: { $0.contains { !($0.flow?.isProof ?? false) } }) { return }
        if let index = list.firstIndex(where: { $0.range == flow.range && $0.kind == flow.kind && $0.calledName == flow.calledName }) {
            for (role, taints) in flow.roles { list[index].roles[role, default: []].merge(taints) }
            list[index].confirmed = list[index].confirmed && flow.confirmed
            return
        }
        if list.count < Self.maximumFlows { list.append(flow) }
    }

    /// How messages name a call: `copyItem(at:to:)`, `copyItemAtURL:toURL:error:`, `memcpy`.
    func displayName(_ call: Expression, _ name: String) -> String {
        if case .call(let callee, _, false) = call.unwrapped.kind, case .member = callee.unwrapped.kind, let swiftName = call.swiftCallName {
            return swiftName
        }
        return name
    }

    /// How messages name a call whose base name alone says too little: an initializer (`String(contentsOf:)`,
    /// not `String`), as the reads and opens by path name it.
    func fullDisplayName(_ call: Expression, _ name: String) -> String {
        if case .call(let callee, _, false) = call.unwrapped.kind, callee.name?.first?.isUppercase == true,
           let swiftName = call.swiftCallName { return swiftName }
        return displayName(call, name)
    }

    /// Records the flows of a sink: those from real sources of the kinds the sink reports, and (for the
    /// summary) those from parameters.
    mutating func record(_ sink: TaintSink, calledName: String, range: SourceRange, roles: [(SinkRole, Expression?, [Taint])],
                         fixed: Bool, _ state: InterpreterState) {
        let everyKind = sink.kinds.isEvery
        var real = TaintFlow(kind: sink.kind, api: sink.api, calledName: calledName, range: range, roles: [:], arguments: [:],
                             confirmed: state.confirmed, fixedDestination: fixed, function: function?.fullName, kinds: sink.kinds)
        var symbolic = real
        for (role, expression, taints) in roles {
            let active = taints.active
            let sources = everyKind ? active.real : active.real.filter { $0.isAffected(by: sink.kinds) }
            let parameters = active.filter { $0.source == nil }
            if let expression, real.arguments[role] == nil { real.arguments[role] = expression; symbolic.arguments[role] = expression }
            if !sources.isEmpty { real.roles[role, default: []].merge(sources) }
            if !parameters.isEmpty { symbolic.roles[role, default: []].merge(parameters) }
        }
        if !real.roles.isEmpty { add(real, to: &flows) }
        if !symbolic.roles.isEmpty { add(symbolic, to: &parameterFlows) }
    }
}
