/// Where the walker is: the enclosing type and function and the `#if` clauses around the node.
public struct WalkContext: Sendable {
    public var type: TypeDeclaration?
    public var function: FunctionDeclaration?
    /// Conditions of the enclosing `#if` clauses, innermost last. An `#else` clause appears as
    /// `!(A) && !(B)` of its siblings; an `#elseif B` as `!(A) && B`.
    public var compilationConditions: [String] = []
    /// Closures entered since the function began.
    public var closureDepth: Int = 0

    public init() {}

    /// True when the node only compiles in debug builds (inside `#if DEBUG`).
    public var isDebugOnly: Bool {
        compilationConditions.contains { condition in
            let compact = condition.replacingOccurrences(" ", "")
            return compact == "DEBUG" || compact.hasPrefix("DEBUG&&") || compact.hasSuffix("&&DEBUG")
                || compact.hasSuffix("&&(DEBUG)") || compact == "(DEBUG)"
        }
    }
}

public enum CodeNode: Sendable {
    case declaration(Declaration)
    case statement(Statement)
    case expression(Expression)
}

extension CodeFile {
    /// Visits every declaration, statement and expression in source order, closures included.
    public func walk(_ visit: (CodeNode, WalkContext) -> Void) {
        withoutActuallyEscaping(visit) { visit in
            var walker = CodeWalker(visit: visit)
            walker.walk(declarations: declarations, context: WalkContext())
            walker.walk(statements: statements, context: WalkContext())
        }
    }

    /// Every expression with its context.
    public func forEachExpression(_ visit: (Expression, WalkContext) -> Void) {
        walk { node, context in
            if case .expression(let expression) = node { visit(expression, context) }
        }
    }

    /// Every statement with its context.
    public func forEachStatement(_ visit: (Statement, WalkContext) -> Void) {
        walk { node, context in
            if case .statement(let statement) = node { visit(statement, context) }
        }
    }
}

extension Block {
    /// Visits every statement and expression inside this block, closures included.
    public func walk(context: WalkContext = WalkContext(), _ visit: (CodeNode, WalkContext) -> Void) {
        withoutActuallyEscaping(visit) { visit in
            var walker = CodeWalker(visit: visit)
            walker.walk(statements: statements, context: context)
        }
    }

    /// Every expression in the block, closures included.
    public var allExpressions: [Expression] {
        var result: [Expression] = []
        walk { node, _ in if case .expression(let expression) = node { result.append(expression) } }
        return result
    }
}

private struct CodeWalker {
    let visit: (CodeNode, WalkContext) -> Void

    mutating func walk(declarations: [Declaration], context: WalkContext) {
        for declaration in declarations { walk(declaration: declaration, context: context) }
    }

    mutating func walk(declaration: Declaration, context: WalkContext) {
        visit(.declaration(declaration), context)
        switch declaration {
        case .type(let type):
            var inner = context
            inner.type = type
            inner.function = nil
            walk(declarations: type.members, context: inner)
        case .function(let function):
            var inner = context
            inner.function = function
            inner.closureDepth = 0
            if let body = function.body { walk(statements: body.statements, context: inner) }
        case .variable(let variable):
            if let initializer = variable.initializer { walk(expression: initializer, context: context) }
            for accessor in variable.accessors { walk(statements: accessor.statements, context: context) }
        case .conditional(let block):
            for (elements, inner) in clauses(block, context: context) {
                walk(declarations: elements, context: inner)
            }
        }
    }

    func clauses<Element>(_ block: ConditionalBlock<Element>, context: WalkContext) -> [([Element], WalkContext)] {
        var result: [([Element], WalkContext)] = []
        var previous: [String] = []
        for clause in block.clauses {
            var inner = context
            let negated = previous.map { "!(\($0))" }
            if let condition = clause.condition {
                inner.compilationConditions.append((negated + [condition]).joined(separator: " && "))
                previous.append(condition)
            } else {
                inner.compilationConditions.append(negated.isEmpty ? "true" : negated.joined(separator: " && "))
            }
            result.append((clause.elements, inner))
        }
        return result
    }

    mutating func walk(statements: [Statement], context: WalkContext) {
        for statement in statements { walk(statement: statement, context: context) }
    }

    mutating func walk(statement: Statement, context: WalkContext) {
        visit(.statement(statement), context)
        switch statement.kind {
        case .declaration(let declaration):
            walk(declaration: declaration, context: context)
            return
        case .conditional(let block):
            for (elements, inner) in clauses(block, context: context) {
                walk(statements: elements, context: inner)
            }
            return
        // The commonest statements hold one or two expressions and no block: walked without building the
        // arrays of `expressions` and `blocks`.
        case .expression(let expression), .throwStatement(let expression):
            walk(expression: expression, context: context)
            return
        case .variable(_, _, let initializer, _):
            if let initializer { walk(expression: initializer, context: context) }
            return
        case .assignment(let target, _, let value):
            walk(expression: target, context: context)
            walk(expression: value, context: context)
            return
        case .returnStatement(let value):
            if let value { walk(expression: value, context: context) }
            return
        default: break
        }
        for expression in statement.expressions { walk(expression: expression, context: context) }
        for block in statement.blocks { walk(statements: block.statements, context: context) }
    }

    mutating func walk(expression: Expression, context: WalkContext) {
        visit(.expression(expression), context)
        // The children in the order of `Expression.children`, without building that array for every node.
        switch expression.kind {
        case .closure(_, let body):
            var inner = context
            inner.closureDepth += 1
            walk(statements: body.statements, context: inner)
        case .identifier, .integerLiteral, .floatLiteral, .booleanLiteral, .nilLiteral, .typeValue, .unknown:
            break
        case .member(let base, _):
            if let base { walk(expression: base, context: context) }
        case .call(let callee, let arguments, _):
            walk(expression: callee, context: context)
            for argument in arguments { walk(expression: argument.value, context: context) }
        case .subscriptAccess(let base, let arguments):
            walk(expression: base, context: context)
            for argument in arguments { walk(expression: argument.value, context: context) }
        case .stringLiteral(let segments):
            for segment in segments {
                if case .interpolation(let value) = segment { walk(expression: value, context: context) }
            }
        case .arrayLiteral(let elements):
            for element in elements { walk(expression: element, context: context) }
        case .dictionaryLiteral(let pairs):
            for pair in pairs {
                walk(expression: pair.key, context: context)
                walk(expression: pair.value, context: context)
            }
        case .binary(_, let lhs, let rhs):
            walk(expression: lhs, context: context)
            walk(expression: rhs, context: context)
        case .prefix(_, let operand), .postfix(_, let operand), .cast(let operand, _, _), .wrapped(_, let operand):
            walk(expression: operand, context: context)
        case .ternary(let condition, let then, let otherwise):
            walk(expression: condition, context: context)
            walk(expression: then, context: context)
            walk(expression: otherwise, context: context)
        case .tuple(let arguments):
            for argument in arguments { walk(expression: argument.value, context: context) }
        }
    }
}

extension String {
    func replacingOccurrences(_ target: Character, _ replacement: String) -> String {
        var result = ""
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
