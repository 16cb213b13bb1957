public struct Argument: Sendable {
    /// Swift argument label or Objective-C selector piece (`forKey`); nil when unlabeled.
    public var label: String?
    public var value: Expression

    public init(label: String?, value: Expression) {
        self.label = label
        self.value = value
    }
}

/// A segment of a string literal: plain text or an interpolated expression.
public enum StringSegment: Sendable {
    case text(String)
    case interpolation(Expression)
}

public final class Expression: Sendable {
    public indirect enum Kind: Sendable {
        /// A bare name: `foo`, `self`, `UIWebView`, `kSecAttrAccessibleAlways`.
        case identifier(String)
        /// `base.name`; `base` is nil for an implicit member (`.useCredential`).
        case member(base: Expression?, name: String)
        /// A call. Swift `a.b(x: 1)`: callee `member(a, "b")`. Objective-C `[a setX:1 forKey:k]`: callee
        /// `member(a, "setX:forKey:")` with arguments labeled `setX` and `forKey`, and `isMessageSend`.
        /// C `memcpy(a, b, n)`: callee `identifier("memcpy")`. Trailing closures are appended as arguments
        /// with label nil (or their Swift label).
        case call(callee: Expression, arguments: [Argument], isMessageSend: Bool)
        case subscriptAccess(base: Expression, arguments: [Argument])
        case stringLiteral([StringSegment])
        case integerLiteral(String)
        case floatLiteral(String)
        case booleanLiteral(Bool)
        case nilLiteral
        case arrayLiteral([Expression])
        case dictionaryLiteral([(key: Expression, value: Expression)])
        /// Closure or block, with parameter names.
        case closure(parameters: [String], body: Block)
        case binary(op: String, lhs: Expression, rhs: Expression)
        /// `!x`, `-x`, `&x`, `*p`.
        case prefix(op: String, operand: Expression)
        /// `x!`, `x?`, `x++`.
        case postfix(op: String, operand: Expression)
        case ternary(condition: Expression, then: Expression, otherwise: Expression)
        /// `x as T`, `x as? T`, `(T)x`, `x is T`.
        case cast(operand: Expression, type: String, op: String)
        /// `try`, `await`, parentheses, `@()` boxing: kept as a wrapper so ranges stay right.
        case wrapped(op: String, operand: Expression)
        case tuple([Argument])
        /// `Foo.self`, `[Foo class]` as a value, `@selector(x:)`, key paths: a type or selector name.
        case typeValue(String)
        /// Anything else, with its source text.
        case unknown(String)
    }

    public let kind: Kind
    public let range: SourceRange

    public init(kind: Kind, range: SourceRange) {
        self.kind = kind
        self.range = range
    }
}
