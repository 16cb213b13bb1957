import MoatCore
import MoatSyntax

/// Calls to functions with a summary, of this file or of another: what they return and the flows their
/// parameters reach.
extension FunctionInterpreter {
    /// A caller's taint after a callee (of this file or another) did to it what its summary says: the
    /// checks it applied, a transformation that voids the caller's path checks, the members it read (which
    /// make a latent value untrusted; nil when it never read one of those). The lineage ends at the call.
    static func passedThrough(_ outer: Taint, checks: Set<TaintCheck>, resets: Bool, members: Set<String>,
                              viaUnknownCall: Bool = false) -> Taint? {
        if viaUnknownCall {
            if let flow = outer.flow, !flow.passesThroughUnknownCalls { return nil }
        }
        var taint = outer
        if viaUnknownCall, outer.flow == nil { taint.viaUnknownCall = true }
        if let latent = outer.latent {
            guard !latent.isDisjoint(with: members) else { return nil }
            taint.latent = nil
        }
        if resets {
            taint.checks.subtract(TaintCheck.pathChecks)
            if case .parameter = outer.origin { taint.resetsCallerChecks = true }
        }
        // A name read inside the callee from the archive the caller passed: the caller's checks of the archive
        // say nothing about it.
        if checks.contains(.archiveEntry) { taint.checks = checks } else { taint.checks.formUnion(checks) }
        taint.members.formUnion(members)
        taint.lineage = []
        return taint
    }

    /// The taints a call to a summarized function returns, and the flows its parameters reach.
    mutating func apply(_ summary: FunctionSummary, of callee: FunctionDeclaration, mapping: [Int: Int], call: Expression,
                                arguments: [Argument], argumentTaints: [[Taint]], _ state: inout InterpreterState) -> [Taint] {
        func compose(_ outer: Taint, _ inner: Taint, parameter: Int, name: String) -> Taint? {
            guard var taint = Self.passedThrough(outer, checks: inner.checks, resets: inner.resetsCallerChecks,
                                                 members: inner.members, viaUnknownCall: inner.viaUnknownCall) else { return nil }
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

    /// How another file's function would see this call (`CallShape.of`).
    func callShape(_ expression: Expression, callee: Expression, arguments: [Argument], isMessageSend: Bool,
                   receiver: Expression?, _ state: InterpreterState) -> CallShape? {
        CallShape.of(expression, callee: callee, arguments: arguments, isMessageSend: isMessageSend, receiver: receiver,
                     language: file.language, enclosingType: ownerName) { engine.receiverType($0, owner: ownerName, state) }
    }

    /// The taints a call to a summarized function of another file returns.
    func applyExternal(_ function: ExportedFunction, returns: [PortableTaint], mapping: [Int: Int], call: Expression,
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
                                                     members: Set(inner.members), viaUnknownCall: inner.viaUnknownCall ?? false) else { continue }
                taint.addStep(arguments[index].value.range, "passed to \(name) (\(place))")
                taint.addStep(call.range, "returned by \(name)")
                result.merge([taint])
            }
        }
        return result
    }

}
