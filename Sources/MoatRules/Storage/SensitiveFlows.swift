import MoatCore
import MoatSyntax

/// What the rules about sensitive data share: the flows of the `sensitive` kind into one kind of sink, with
/// the taint each finding shows, and the wording of where a secret came from.
enum SensitiveFlows {
    /// A taint a sensitive-data rule reports: sensitive data in clear (not hashed or encrypted, not a length).
    static func reportable(_ taint: Taint) -> Bool {
        taint.isActive && taint.flow == .sensitive && taint.checks.isDisjoint(with: [.encrypted, .measuredSize, .memberOfCredentials])
    }

    /// One flow per sink call of `kind`, with the taint to show: the most certain source (a Keychain read or
    /// a secure field before a name), then the longest path (where the value came from, not only its name).
    static func flows(_ unit: SourceUnit, _ kind: SinkKind, roles: [SinkRole] = [.value]) -> [(flow: TaintFlow, taint: Taint)] {
        var result: [(TaintFlow, Taint)] = []
        var seen = Set<Int>()
        for flow in unit.flows where flow.kind == kind {
            let taints = roles.flatMap { flow.taints($0) }.filter(reportable)
            guard let best = taints.max(by: { rank($0) < rank($1) }), seen.insert(flow.range.start.offset).inserted else { continue }
            result.append((flow, best))
        }
        return result
    }

    private static func rank(_ taint: Taint) -> (Int, Int) {
        let certainty = taint.source?.confidence == .high ? 1 : 0
        return (certainty, taint.steps.count + (taint.source?.external != nil ? 4 : 0))
    }

    /// "`password`, named as a password" → "`password` (named as a password)"; other sources as they are.
    static func describe(_ taint: Taint) -> String {
        guard let source = taint.source else { return "sensitive data" }
        return source.description
    }

    /// The confidence of a finding: the rule's, lowered to the source's (a name is a heuristic).
    static func confidence(_ taint: Taint, rule: Confidence) -> Confidence {
        Swift.min(rule, taint.source?.confidence ?? rule)
    }

    /// Reports a finding on a flow with its path.
    static func report(_ message: String, flow: TaintFlow, taint: Taint, in file: CodeFile, severity: Severity? = nil,
                       confidence: Confidence, _ sink: inout FindingSink) {
        DataflowReporting.report(message, flow: flow, taint: taint, in: file, severity: severity, confidence: confidence, &sink)
    }

    /// The name a key expression gives (`"auth_token"`, `Keys.password`, `kTokenKey`).
    static func keyName(_ key: Expression?, _ values: LocalValues? = nil) -> String? {
        guard let key else { return nil }
        let resolved = values?.resolve(key) ?? key
        return resolved.strippedOfCasts.stringValue ?? key.strippedOfCasts.stringValue ?? key.strippedOfCasts.nameChain.last
    }

    /// Booleans, numbers, nil and dates are not secrets (`set(true, forKey: "hasSeenPasswordTip")`).
    static func isNonSecretValue(_ value: Expression, _ values: LocalValues) -> Bool {
        let resolved = values.resolve(value).strippedOfCasts
        switch resolved.kind {
        case .booleanLiteral, .integerLiteral, .floatLiteral, .nilLiteral: return true
        case .identifier(let name): return ["YES", "NO", "true", "false", "nil"].contains(name)
        case .call(let callee, _, _): return ["Date", "NSDate", "NSNumber", "date"].contains(callee.name ?? "")
        default: return false
        }
    }
}
