import MoatCore
import MoatSyntax

/// What holds on every path to a statement, for questions asked outside the rules (`moat diff`): the
/// dominating conditions and the bindings made on the way, as `Dominance` sees them.
public struct DominatingFacts: Sendable {
    /// Conditions every path passes, outermost first; `holds` is false for an early exit's condition
    /// (`if (bad) return;`).
    public var conditions: [(expression: Expression, holds: Bool)]
    /// Bindings and declarations on the way (`let url = base.appendingPathComponent(name)`).
    public var bindings: [(names: [String], value: Expression)]
}

public enum DominanceQuery {
    /// The facts at the innermost statement of `function` (closures included) that contains `range`; nil
    /// when the function has no body or no statement contains it.
    public static func facts(at range: SourceRange, in function: FunctionDeclaration) -> DominatingFacts? {
        guard let body = function.body else { return nil }
        var found: Dominance?
        var foundRange: SourceRange?
        DominanceWalk.walk(body.statements) { statement, dominance in
            guard statement.range.start <= range.start, range.end <= statement.range.end else { return }
            // The innermost statement wins: it is visited after the statements that enclose it.
            if let current = foundRange, !(current.start <= statement.range.start && statement.range.end <= current.end) { return }
            found = dominance
            foundRange = statement.range
        }
        guard let found else { return nil }
        return DominatingFacts(conditions: found.conditions + found.switchSubjects.map { ($0, true) }, bindings: found.bindings)
    }
}
