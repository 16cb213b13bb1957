import MoatCore
import MoatSyntax

/// Untrusted data reaching a sink: what the engine hands to rules. Rules decide whether the checks the
/// data passed are enough and word the finding.
public struct TaintFlow: Sendable {
    public var kind: SinkKind
    /// How messages name the API (`FileManager.copyItem/moveItem/linkItem`).
    public var api: String
    /// The name the code called (`copyItem`, `copyItemAtURL:toURL:error:`, `memcpy`).
    public var calledName: String
    /// The sink call (or comparison).
    public var range: SourceRange
    /// Taints per role (`.path`, `.source`, `.length`...), active and from real sources only.
    public var roles: [SinkRole: [Taint]]
    /// The argument expressions per role.
    public var arguments: [SinkRole: Expression]
    /// A confirmation (alert, authentication prompt) was shown on every path before the sink.
    public var confirmed: Bool
    /// The destination of a copy is a fixed-size object (`&_uuid`, a C array).
    public var fixedDestination: Bool
    /// The full name of the function the sink is in.
    public var function: String?
    /// The kinds of flow the sink reports (`TaintSink.kinds`): only taints of these kinds (or symbolic
    /// parameter taints) are kept, also when a summary carries a caller's value to the sink.
    public var kinds: Set<FlowKind> = [.untrusted, .remote]

    public func taints(_ role: SinkRole) -> [Taint] { roles[role] ?? [] }
    public var allTaints: [Taint] { roles.values.flatMap { $0 } }
}

/// What a function does with its parameters, for callers in the same file.
struct FunctionSummary {
    /// Taints of returned values: parameter taints (with what the function did to them) and sources.
    var returns: [Taint] = []
    /// Sinks reached by parameter taints.
    var flows: [TaintFlow] = []
    /// Parameters the function validates before it does its work: on every successful exit, a value
    /// derived from them passed a validation call or was found equal to a value the app holds
    /// (`if (![state isEqualToString:storedState]) return nil;`). A caller's action through this function
    /// is checked for the arguments it passes there.
    var validatedParameters: Set<Int> = []

    struct Signature: Hashable {
        var returns: Set<Taint.Key>
        var flows: Set<FlowKey>
        var validatedParameters: Set<Int>
    }

    struct FlowKey: Hashable {
        var range: SourceRange
        var kind: SinkKind
        var taints: Set<Taint.Key>
        var confirmed: Bool
    }

    var signature: Signature {
        Signature(returns: Set(returns.map(\.key)),
                  flows: Set(flows.map { FlowKey(range: $0.range, kind: $0.kind, taints: Set($0.allTaints.map(\.key)), confirmed: $0.confirmed) }),
                  validatedParameters: validatedParameters)
    }
}
