// Small, shared questions rules ask of the model. Kept here so rules do not re-implement them.

extension Expression {
    /// The expression without `try`, `await`, parentheses, `@(...)` boxing, force/optional unwraps.
    public var unwrapped: Expression {
        var current = self
        while true {
            switch current.kind {
            case .wrapped(_, let operand): current = operand
            case .postfix(let op, let operand) where op == "!" || op == "?": current = operand
            default: return current
            }
        }
    }

    /// The last name of an identifier, member access or call: `b` for `a.b`, `a.b(x)`, `[a b]`.
    /// For Objective-C message sends this is the full selector (`setValue:forKey:`).
    public var name: String? {
        switch unwrapped.kind {
        case .identifier(let name): return name
        case .member(_, let name): return name
        case .call(let callee, _, _): return callee.name
        case .typeValue(let name): return name
        default: return nil
        }
    }

    /// The receiver of a member access or method call (`a` in `a.b` and `a.b()` and `[a b]`).
    public var receiver: Expression? {
        switch unwrapped.kind {
        case .member(let base, _): return base
        case .call(let callee, _, _): return callee.receiver
        default: return nil
        }
    }

    /// `NSKeyedUnarchiver.unarchiveObject` for a chain of names; nil when any part is not a plain name.
    /// Calls in the middle keep their name (`FileManager.default.urls`).
    public var dottedName: String? {
        switch unwrapped.kind {
        case .identifier(let name): return name
        case .typeValue(let name): return name
        case .member(let base, let name):
            guard let base else { return "." + name }
            guard let prefix = base.dottedName else { return nil }
            return prefix + "." + name
        case .call(let callee, _, _): return callee.dottedName
        default: return nil
        }
    }

    /// The names along a member chain, outermost last: `["webView", "configuration", "preferences"]`.
    public var nameChain: [String] {
        var names: [String] = []
        var current: Expression? = self
        while let expression = current?.unwrapped {
            switch expression.kind {
            case .identifier(let name), .typeValue(let name):
                names.append(name)
                current = nil
            case .member(let base, let name):
                names.append(name)
                current = base
            case .call(let callee, _, _):
                current = callee
            case .subscriptAccess(let base, _):
                current = base
            default:
                current = nil
            }
        }
        return names.reversed()
    }

    public var isCall: Bool {
        if case .call = unwrapped.kind { return true }
        return false
    }

    public var arguments: [Argument] {
        if case .call(_, let arguments, _) = unwrapped.kind { return arguments }
        return []
    }

    /// The argument with this label (Swift label or Objective-C selector piece).
    public func argument(_ label: String) -> Expression? {
        arguments.first { $0.label == label }?.value
    }

    /// For a call, the argument labels joined the Swift way: `unarchiveObject(with:)`.
    public var swiftCallName: String? {
        guard case .call(let callee, let arguments, let isMessageSend) = unwrapped.kind, !isMessageSend,
              let base = callee.name else { return nil }
        // Built in one string (asked of every call by the summary, the surface and many rules).
        var name = base
        name.append("(")
        for argument in arguments {
            name.append(argument.label ?? "_")
            name.append(":")
        }
        name.append(")")
        return name
    }

    /// The literal text of a string literal without interpolation.
    public var stringValue: String? {
        guard case .stringLiteral(let segments) = unwrapped.kind else { return nil }
        var text = ""
        for segment in segments {
            guard case .text(let part) = segment else { return nil }
            text += part
        }
        return text
    }

    /// True for string literals, including interpolated ones.
    public var isStringLiteral: Bool {
        if case .stringLiteral = unwrapped.kind { return true }
        return false
    }

    /// True for a literal that needs no outside data: strings without interpolation, numbers, booleans,
    /// nil, and arrays/dictionaries of those.
    public var isConstantLiteral: Bool {
        switch unwrapped.kind {
        case .stringLiteral: return stringValue != nil
        case .integerLiteral, .floatLiteral, .booleanLiteral, .nilLiteral: return true
        case .arrayLiteral(let elements): return elements.allSatisfy(\.isConstantLiteral)
        case .dictionaryLiteral(let pairs): return pairs.allSatisfy { $0.key.isConstantLiteral && $0.value.isConstantLiteral }
        default: return false
        }
    }

    /// `true`, `YES`, `@YES`, `1` in a boolean position are all "true".
    public var boolValue: Bool? {
        switch unwrapped.kind {
        case .booleanLiteral(let value): return value
        case .identifier(let name):
            switch name {
            case "YES", "TRUE", "kCFBooleanTrue": return true
            case "NO", "FALSE", "kCFBooleanFalse": return false
            default: return nil
            }
        case .integerLiteral(let text): return text == "0" ? false : (text == "1" ? true : nil)
        case .call(let callee, let arguments, _):
            // NSNumber(value: true), [NSNumber numberWithBool:YES]
            if let name = callee.name, name == "NSNumber" || name == "numberWithBool:" || name == "init",
               arguments.count == 1 { return arguments[0].value.boolValue }
            return nil
        default: return nil
        }
    }

    /// Direct children, in source order.
    public var children: [Expression] {
        switch kind {
        case .identifier, .integerLiteral, .floatLiteral, .booleanLiteral, .nilLiteral, .typeValue, .unknown:
            return []
        case .member(let base, _): return base.map { [$0] } ?? []
        case .call(let callee, let arguments, _): return [callee] + arguments.map(\.value)
        case .subscriptAccess(let base, let arguments): return [base] + arguments.map(\.value)
        case .stringLiteral(let segments):
            return segments.compactMap { if case .interpolation(let value) = $0 { return value } else { return nil } }
        case .arrayLiteral(let elements): return elements
        case .dictionaryLiteral(let pairs): return pairs.flatMap { [$0.key, $0.value] }
        case .closure: return []
        case .binary(_, let lhs, let rhs): return [lhs, rhs]
        case .prefix(_, let operand), .postfix(_, let operand), .cast(let operand, _, _), .wrapped(_, let operand):
            return [operand]
        case .ternary(let condition, let then, let otherwise): return [condition, then, otherwise]
        case .tuple(let arguments): return arguments.map(\.value)
        }
    }

    /// Every expression in this tree (this one first), not descending into closure bodies.
    public func descendants() -> [Expression] {
        var result: [Expression] = []
        var stack: [Expression] = [self]
        while let next = stack.popLast() {
            result.append(next)
            stack.append(contentsOf: next.children.reversed())
        }
        return result
    }

    /// Identifiers this expression reads (not descending into closures).
    public var referencedNames: Set<String> {
        var names = Set<String>()
        for expression in descendants() {
            if case .identifier(let name) = expression.kind { names.insert(name) }
        }
        return names
    }
}

extension Statement {
    /// Expressions directly held by this statement (not those of nested blocks).
    public var expressions: [Expression] {
        switch kind {
        case .expression(let expression): return [expression]
        case .variable(_, _, let initializer, _): return initializer.map { [$0] } ?? []
        case .assignment(let target, _, let value): return [target, value]
        case .ifStatement(let conditions, _, _), .guardStatement(let conditions, _):
            return conditions.flatMap(\.expressions)
        case .loop(let header, _, _): return header
        case .switchStatement(let subject, let cases): return [subject] + cases.flatMap(\.patterns)
        case .returnStatement(let value): return value.map { [$0] } ?? []
        case .throwStatement(let value): return [value]
        case .doStatement, .deferStatement, .block, .declaration, .conditional, .other: return []
        }
    }

    /// Nested blocks (then/else, loop bodies, cases...), in source order.
    public var blocks: [Block] {
        switch kind {
        case .ifStatement(_, let then, let elseBranch): return [then] + (elseBranch.map { [$0] } ?? [])
        case .guardStatement(_, let elseBody): return [elseBody]
        case .loop(_, _, let body): return [body]
        case .switchStatement(_, let cases): return cases.map(\.body)
        case .doStatement(let body, let catches): return [body] + catches.map(\.body)
        case .deferStatement(let body), .block(let body): return [body]
        default: return []
        }
    }
}

extension Condition {
    public var expressions: [Expression] {
        switch self {
        case .expression(let expression): return [expression]
        case .binding(_, let value, _), .pattern(_, let value, _): return [value]
        case .other: return []
        }
    }
}

extension TypeDeclaration {
    public var functions: [FunctionDeclaration] {
        members.flatMap(\.flattenedFunctions)
    }

    public var variables: [VariableDeclaration] {
        members.flatMap { declaration -> [VariableDeclaration] in
            switch declaration {
            case .variable(let variable): return [variable]
            case .conditional(let block): return block.clauses.flatMap { $0.elements.compactMap { if case .variable(let v) = $0 { v } else { nil } } }
            default: return []
            }
        }
    }

    public func adopts(_ name: String) -> Bool { inherits.contains(name) }
}

extension Declaration {
    /// Functions declared here, looking through `#if` (not into nested types).
    public var flattenedFunctions: [FunctionDeclaration] {
        switch self {
        case .function(let function): return [function]
        case .conditional(let block): return block.clauses.flatMap { $0.elements.flatMap(\.flattenedFunctions) }
        default: return []
        }
    }
}

extension CodeFile {
    /// Every type declaration in the file, nested ones included.
    public var allTypes: [TypeDeclaration] {
        var result: [TypeDeclaration] = []
        func collect(_ declarations: [Declaration]) {
            for declaration in declarations {
                switch declaration {
                case .type(let type):
                    result.append(type)
                    collect(type.members)
                case .conditional(let block):
                    for clause in block.clauses { collect(clause.elements) }
                default: break
                }
            }
        }
        collect(declarations)
        return result
    }

    /// Every function with a body or not, with the type it belongs to (nil for free functions).
    public var allFunctions: [(function: FunctionDeclaration, owner: TypeDeclaration?)] {
        var result: [(FunctionDeclaration, TypeDeclaration?)] = []
        func collect(_ declarations: [Declaration], owner: TypeDeclaration?) {
            for declaration in declarations {
                switch declaration {
                case .type(let type): collect(type.members, owner: type)
                case .function(let function): result.append((function, owner))
                case .conditional(let block):
                    for clause in block.clauses { collect(clause.elements, owner: owner) }
                case .variable: break
                }
            }
        }
        collect(declarations, owner: nil)
        return result
    }
}
