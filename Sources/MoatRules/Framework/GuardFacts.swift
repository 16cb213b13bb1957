import MoatCore
import MoatSyntax

/// A condition known at a point of a function: it held (`if c { here }`, after `guard c else { return }`)
/// or it failed (`else { here }`, after `if c { return }`). For the `else` of a multi-clause `if a, b`,
/// each clause is recorded as failed: "at least one of them failed", which is all rules need to know that a
/// check exists on the path.
public struct GuardFact {
    public var condition: Expression
    public var holds: Bool
    /// Inside a `switch` case: the case's patterns (empty for `default`); `condition` is the subject.
    public var casePatterns: [Expression]?

    public init(condition: Expression, holds: Bool, casePatterns: [Expression]? = nil) {
        self.condition = condition
        self.holds = holds
        self.casePatterns = casePatterns
    }
}

/// Walks a function body in source order and tells, for every expression, which conditions guard it.
/// Nested function declarations are not entered (their guards are those of their call sites).
public enum GuardedWalk {
    public typealias Visitor = (Expression, [GuardFact]) -> Void

    public static func walk(_ statements: [Statement], facts: [GuardFact] = [], _ visit: Visitor) {
        withoutActuallyEscaping(visit) { visit in
            walkStatements(statements, facts: facts, visit)
        }
    }

    /// Like `walk`, but visits only root expressions: each statement's own expressions and each condition,
    /// not their sub-expressions (closure bodies inside them are walked as statements).
    public static func walkRoots(_ statements: [Statement], facts: [GuardFact] = [], _ visit: Visitor) {
        withoutActuallyEscaping(visit) { visit in
            walkStatements(statements, facts: facts, visit, rootsOnly: true)
        }
    }

    private static func walkStatements(_ statements: [Statement], facts: [GuardFact], _ visit: Visitor, rootsOnly: Bool = false) {
        var current = facts
        for statement in statements {
            switch statement.kind {
            case .guardStatement(let conditions, let elseBody):
                visitConditions(conditions, current, visit, rootsOnly)
                walkStatements(elseBody.statements, facts: current + negated(conditions), visit, rootsOnly: rootsOnly)
                current += positive(conditions)
            case .ifStatement(let conditions, let then, let elseBranch):
                visitConditions(conditions, current, visit, rootsOnly)
                walkStatements(then.statements, facts: current + positive(conditions), visit, rootsOnly: rootsOnly)
                if let elseBranch { walkStatements(elseBranch.statements, facts: current + negated(conditions), visit, rootsOnly: rootsOnly) }
                let thenExits = exits(then)
                let elseExits = elseBranch.map(exits) ?? false
                if thenExits && !elseExits { current += negated(conditions) }
                else if elseExits && !thenExits { current += positive(conditions) }
            case .loop(let header, let variables, let body):
                for expression in header { visitExpression(expression, current, visit, rootsOnly) }
                let loopFacts = variables.isEmpty ? header.flatMap { split($0, holds: true) } : []
                walkStatements(body.statements, facts: current + loopFacts, visit, rootsOnly: rootsOnly)
            case .switchStatement(let subject, let cases):
                visitExpression(subject, current, visit, rootsOnly)
                for switchCase in cases {
                    for pattern in switchCase.patterns { visitExpression(pattern, current, visit, rootsOnly) }
                    let fact = GuardFact(condition: subject, holds: true, casePatterns: switchCase.patterns)
                    walkStatements(switchCase.body.statements, facts: current + [fact], visit, rootsOnly: rootsOnly)
                }
            case .doStatement(let body, let catches):
                walkStatements(body.statements, facts: current, visit, rootsOnly: rootsOnly)
                for clause in catches { walkStatements(clause.body.statements, facts: current, visit, rootsOnly: rootsOnly) }
            case .deferStatement(let body), .block(let body):
                walkStatements(body.statements, facts: current, visit, rootsOnly: rootsOnly)
            case .conditional(let block):
                for clause in block.clauses { walkStatements(clause.elements, facts: current, visit, rootsOnly: rootsOnly) }
            case .declaration(let declaration):
                for variable in declaration.flattenedVariables {
                    if let initializer = variable.initializer { visitExpression(initializer, current, visit, rootsOnly) }
                }
            default:
                for expression in statement.expressions { visitExpression(expression, current, visit, rootsOnly) }
            }
        }
    }

    private static func visitConditions(_ conditions: [Condition], _ facts: [GuardFact], _ visit: Visitor, _ rootsOnly: Bool) {
        var running = facts
        for condition in conditions {
            for expression in condition.expressions { visitExpression(expression, running, visit, rootsOnly) }
            running += positive([condition])
        }
    }

    private static func visitExpression(_ expression: Expression, _ facts: [GuardFact], _ visit: Visitor, _ rootsOnly: Bool = false) {
        visit(expression, facts)
        if rootsOnly {
            for node in expression.descendants() {
                if case .closure(_, let body) = node.kind { walkStatements(body.statements, facts: facts, visit, rootsOnly: true) }
            }
            return
        }
        switch expression.kind {
        case .closure(_, let body):
            walkStatements(body.statements, facts: facts, visit)
        case .ternary(let condition, let then, let otherwise):
            visitExpression(condition, facts, visit)
            visitExpression(then, facts + split(condition, holds: true), visit)
            visitExpression(otherwise, facts + split(condition, holds: false), visit)
        case .binary("&&", let lhs, let rhs):
            visitExpression(lhs, facts, visit)
            visitExpression(rhs, facts + split(lhs, holds: true), visit)
        case .binary("||", let lhs, let rhs):
            visitExpression(lhs, facts, visit)
            visitExpression(rhs, facts + split(lhs, holds: false), visit)
        default:
            for child in expression.children { visitExpression(child, facts, visit) }
        }
    }

    /// Facts of conditions that all held.
    static func positive(_ conditions: [Condition]) -> [GuardFact] {
        conditions.flatMap { condition -> [GuardFact] in
            switch condition {
            case .expression(let expression): return split(expression, holds: true)
            case .binding(_, let value, _), .pattern(_, let value, _): return [GuardFact(condition: value, holds: true)]
            case .other: return []
            }
        }
    }

    /// Facts of conditions of which at least one failed.
    static func negated(_ conditions: [Condition]) -> [GuardFact] {
        let expressions = conditions.flatMap(\.expressions)
        if expressions.count == 1, case .expression(let only) = conditions.first(where: { !$0.expressions.isEmpty }) {
            return split(only, holds: false)
        }
        return expressions.map { GuardFact(condition: $0, holds: false) }
    }

    /// `a && b` holding gives two facts; `!a` holding is `a` failing.
    static func split(_ expression: Expression, holds: Bool) -> [GuardFact] {
        let bare = expression.unwrapped
        switch bare.kind {
        case .prefix("!", let operand):
            return split(operand, holds: !holds)
        case .binary("&&", let lhs, let rhs) where holds:
            return split(lhs, holds: true) + split(rhs, holds: true)
        case .binary("||", let lhs, let rhs) where !holds:
            return split(lhs, holds: false) + split(rhs, holds: false)
        default:
            return [GuardFact(condition: expression, holds: holds)]
        }
    }

    /// Whether a block always leaves the enclosing scope (return, throw, break, continue, fatalError...).
    public static func exits(_ block: Block) -> Bool {
        block.statements.contains { statement in
            switch statement.kind {
            case .returnStatement, .throwStatement: return true
            case .other(let text):
                return text.hasPrefix("break") || text.hasPrefix("continue") || text.hasPrefix("return")
            case .expression(let expression):
                guard case .call(let callee, _, _) = expression.unwrapped.kind, let name = callee.name else { return false }
                return ["fatalError", "preconditionFailure", "abort", "exit"].contains(name)
            case .ifStatement(_, let then, let elseBranch?):
                return exits(then) && exits(elseBranch)
            default: return false
            }
        }
    }
}

extension Block {
    /// Functions declared inside this block (Swift nested functions), at any depth of statements.
    public var nestedFunctions: [FunctionDeclaration] {
        var result: [FunctionDeclaration] = []
        func collect(_ statements: [Statement]) {
            for statement in statements {
                if case .declaration(let declaration) = statement.kind {
                    result.append(contentsOf: declaration.flattenedFunctions)
                }
                for block in statement.blocks { collect(block.statements) }
            }
        }
        collect(statements)
        return result
    }
}
