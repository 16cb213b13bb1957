import MoatCore
import MoatSyntax

/// What is known to hold at a statement: conditions of the enclosing `if`s and `switch`es, `guard`s and
/// early exits before it, and the bindings and declarations made on the way. A condition counts only when
/// every path to the statement passes it.
struct Dominance {
    /// Conditions and whether they hold (`false` after `if (bad) return;`).
    var conditions: [(expression: Expression, holds: Bool)] = []
    /// Bindings and declarations visible here: `guard let session = lookup[id]`, `Session *s = ...;`.
    var bindings: [(names: [String], value: Expression)] = []
    /// Subjects of enclosing `switch`es (each case compares its subject).
    var switchSubjects: [Expression] = []
    /// Inside a `guard`'s else, a `catch`: a path that rejects the input.
    var isRejection = false

    /// Expressions of every condition that holds or fails here, including switch subjects.
    var checkedExpressions: [Expression] {
        conditions.map(\.expression) + switchSubjects
    }
}

/// Walks a function body keeping the dominance of each statement, closures included (a closure's body
/// runs after the statements that dominate its creation).
enum DominanceWalk {
    static func walk(_ statements: [Statement], _ visit: (Statement, Dominance) -> Void) {
        withoutActuallyEscaping(visit) { visit in
            var walker = Walker(visit: visit)
            walker.walk(statements, Dominance())
        }
    }

    private struct Walker {
        let visit: (Statement, Dominance) -> Void
        var depth = 0

        mutating func walk(_ statements: [Statement], _ start: Dominance) {
            guard depth < 100 else { return }
            depth += 1
            defer { depth -= 1 }
            var dominance = start
            for statement in statements {
                visit(statement, dominance)
                walkClosures(in: statement, dominance)
                switch statement.kind {
                case .variable(let names, _, let initializer, _):
                    if let initializer { dominance.bindings.append((names, initializer)) }
                case .declaration(.variable(let variable)):
                    if let initializer = variable.initializer { dominance.bindings.append(([variable.name], initializer)) }
                case .assignment(let target, "=", let value):
                    if let path = target.accessPath { dominance.bindings.append(([path], value)) }
                case .guardStatement(let conditions, let elseBody):
                    var rejection = dominance
                    rejection.isRejection = true
                    walk(elseBody.statements, rejection)
                    add(conditions, to: &dominance)
                case .ifStatement(let conditions, let then, let elseBranch):
                    var thenDominance = dominance
                    add(conditions, to: &thenDominance)
                    walk(then.statements, thenDominance)
                    let single = singleCondition(conditions)
                    var elseDominance = dominance
                    if let single { elseDominance.conditions.append((single, false)) }
                    if let elseBranch { walk(elseBranch.statements, elseDominance) }
                    if then.exits, elseBranch == nil || elseBranch?.exits == false {
                        if let single { dominance.conditions.append((single, false)) }
                    } else if let elseBranch, elseBranch.exits, !then.exits {
                        add(conditions, to: &dominance)
                    }
                case .switchStatement(let subject, let cases):
                    for switchCase in cases {
                        var caseDominance = dominance
                        if !switchCase.patterns.isEmpty { caseDominance.switchSubjects.append(subject) }
                        walk(switchCase.body.statements, caseDominance)
                    }
                case .loop(let header, let variables, let body):
                    var bodyDominance = dominance
                    let conditions = variables.isEmpty ? header : Array(header.dropFirst())
                    for condition in conditions { bodyDominance.conditions.append((condition, true)) }
                    if !variables.isEmpty, let sequence = header.first { bodyDominance.bindings.append((variables, sequence)) }
                    walk(body.statements, bodyDominance)
                case .doStatement(let body, let catches):
                    walk(body.statements, dominance)
                    var rejection = dominance
                    rejection.isRejection = true
                    for clause in catches { walk(clause.body.statements, rejection) }
                case .deferStatement(let body), .block(let body):
                    walk(body.statements, dominance)
                case .conditional(let block):
                    for clause in block.clauses { walk(clause.elements, dominance) }
                default:
                    break
                }
            }
        }

        private func singleCondition(_ conditions: [Condition]) -> Expression? {
            guard conditions.count == 1, case .expression(let expression) = conditions[0] else { return nil }
            return expression
        }

        private func add(_ conditions: [Condition], to dominance: inout Dominance) {
            for condition in conditions {
                switch condition {
                case .expression(let expression):
                    if case .binary("=", let target, let value) = expression.unwrapped.kind, let path = target.accessPath {
                        dominance.bindings.append(([path], value))
                    } else {
                        dominance.conditions.append((expression, true))
                    }
                case .binding(let names, let value, _):
                    dominance.bindings.append((names, value))
                case .pattern(let pattern, let value, _):
                    dominance.bindings.append((PatternNames.bound(in: pattern), value))
                    dominance.conditions.append((value, true))
                case .other:
                    break
                }
            }
        }

        private mutating func walkClosures(in statement: Statement, _ dominance: Dominance) {
            for expression in statement.expressions {
                for node in expression.descendants() {
                    if case .closure(_, let body) = node.kind { walk(body.statements, dominance) }
                }
            }
        }
    }
}
