import MoatCore
import MoatSyntax

/// What the engine knows about the sinks of one file, for questions asked outside the rules (`moat diff`):
/// the flows from untrusted sources, and the flows from each function's own parameters (its summary: what
/// a caller's value would reach), with the parameters the source table makes untrusted.
public struct SinkFlows: Sendable {
    /// Every flow from an untrusted source into a sink (what `SourceUnit.flows` holds).
    public var flows: [TaintFlow]
    /// Flows whose taints are parameters of the function the sink is in (`Taint.origin` is
    /// `.parameter`): whatever a caller passes reaches the sink this way.
    public var parameterFlows: [TaintFlow]
    /// Per function (by the start of its name), the parameters that are untrusted sources themselves
    /// (delegate methods of the source table, remote-message handlers, JSExport methods).
    var untrustedParameters: [SourcePosition: [(name: String, source: SourceHit)]]

    /// The flows (from sources and from parameters) into the sink call at `range`.
    public func flows(at range: SourceRange) -> [TaintFlow] {
        (flows + parameterFlows).filter { $0.range == range }
    }

    /// The parameters of `function` that are untrusted sources, with the source that makes them so.
    public func untrustedParameters(of function: FunctionDeclaration) -> [(name: String, source: SourceHit)] {
        untrustedParameters[function.nameRange.start] ?? []
    }
}

extension SinkFlows {
    /// Runs the engine on `file` (with what other files told it, when given).
    public static func analyze(_ file: CodeFile, context: DataflowContext? = nil) -> SinkFlows {
        let engine = TaintEngine(file: file, context: context)
        let (flows, _) = engine.run()
        var parameterFlows: [TaintFlow] = []
        var untrusted: [SourcePosition: [(name: String, source: SourceHit)]] = [:]
        for (function, owner) in file.allFunctions {
            guard let body = function.body else { continue }
            // The summary also holds sinks of called functions reached by this function's parameters;
            // only the sinks inside this function are its own.
            for flow in engine.summaries[ObjectIdentifier(function)]?.flows ?? []
            where body.range.start <= flow.range.start && flow.range.end <= body.range.end {
                parameterFlows.append(flow)
            }
            let sources = engine.parameterSources(function, owner: owner)
            for (index, hits) in sources.sorted(by: { $0.key < $1.key }) where index < function.parameters.count {
                for (hit, latent) in hits where latent == nil {
                    untrusted[function.nameRange.start, default: []].append((function.parameters[index].name, hit))
                }
            }
        }
        return SinkFlows(flows: Dataflow.ordered(flows), parameterFlows: parameterFlows, untrustedParameters: untrusted)
    }
}
