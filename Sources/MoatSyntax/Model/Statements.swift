public final class Block: Sendable {
    public let statements: [Statement]
    public let range: SourceRange

    public init(statements: [Statement], range: SourceRange) {
        self.statements = statements
        self.range = range
    }
}

/// One condition of an `if`, `guard` or `while`.
public enum Condition: Sendable {
    /// A boolean expression.
    case expression(Expression)
    /// `let name = value` / `if let name` (Swift optional binding); `value` is the bound expression.
    case binding(names: [String], value: Expression, range: SourceRange)
    /// `case .some(let x) = value` and other pattern conditions.
    case pattern(pattern: String, value: Expression, range: SourceRange)
    /// `#available(...)` and other conditions Moat does not model.
    case other(String, range: SourceRange)
}

public struct SwitchCase: Sendable {
    /// Case patterns as expressions where possible (`.foo`, `"literal"`); empty for `default`.
    public var patterns: [Expression]
    public var body: Block

    public init(patterns: [Expression], body: Block) {
        self.patterns = patterns
        self.body = body
    }
}

public struct CatchClause: Sendable {
    public var body: Block

    public init(body: Block) { self.body = body }
}

public final class Statement: Sendable {
    public indirect enum Kind: Sendable {
        case expression(Expression)
        /// `let a = b`, `var a: T = b`, C `T a = b;`. `names` has several entries for tuple patterns.
        case variable(names: [String], type: String?, initializer: Expression?, isConstant: Bool)
        /// `target = value`, `target += value` ... (`op` is the operator text).
        case assignment(target: Expression, op: String, value: Expression)
        case ifStatement(conditions: [Condition], then: Block, elseBranch: Block?)
        case guardStatement(conditions: [Condition], elseBody: Block)
        /// `for`, `while`, `repeat`, C `for`/`while`/`do`. `header` holds the sequence/condition expressions.
        case loop(header: [Expression], variables: [String], body: Block)
        case switchStatement(subject: Expression, cases: [SwitchCase])
        case returnStatement(Expression?)
        case throwStatement(Expression)
        case doStatement(body: Block, catches: [CatchClause])
        case deferStatement(Block)
        case block(Block)
        case declaration(Declaration)
        case conditional(ConditionalBlock<Statement>)
        /// `break`, `continue`, `fallthrough`, labels, anything else.
        case other(String)
    }

    public let kind: Kind
    public let range: SourceRange

    public init(kind: Kind, range: SourceRange) {
        self.kind = kind
        self.range = range
    }
}
