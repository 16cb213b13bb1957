public enum Declaration: Sendable {
    case type(TypeDeclaration)
    case function(FunctionDeclaration)
    case variable(VariableDeclaration)
    /// `#if` around declarations.
    case conditional(ConditionalBlock<Declaration>)
}

public enum TypeKind: String, Sendable {
    case `class`, `struct`, `enum`, `protocol`, `extension`, actor
    /// Objective-C `@interface`, `@implementation`, category, `@protocol`.
    case objcInterface, objcImplementation, objcCategory, objcProtocol
}

public final class TypeDeclaration: Sendable {
    public let kind: TypeKind
    public let name: String
    /// Superclass and adopted protocols, in source order (`class A: B, C` / `@interface A : B <C>`).
    public let inherits: [String]
    public let attributes: [String]
    public let members: [Declaration]
    public let range: SourceRange
    public let nameRange: SourceRange

    public init(kind: TypeKind, name: String, inherits: [String], attributes: [String], members: [Declaration],
                range: SourceRange, nameRange: SourceRange) {
        self.kind = kind
        self.name = name
        self.inherits = inherits
        self.attributes = attributes
        self.members = members
        self.range = range
        self.nameRange = nameRange
    }
}

public struct Parameter: Sendable {
    /// Argument label (Swift external name, Objective-C selector piece); nil for `_` or C parameters.
    public var label: String?
    /// The name used inside the body.
    public var name: String
    public var type: String?
    /// The default value (Swift `minimum: tls_protocol_version_t = .TLSv10`): what a call that omits the
    /// argument passes.
    public var defaultValue: Expression?

    public init(label: String?, name: String, type: String?, defaultValue: Expression? = nil) {
        self.label = label
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
    }
}

public final class FunctionDeclaration: Sendable {
    /// Base name: `application` for `application(_:open:options:)`, the first selector piece for
    /// Objective-C, the function name for C. `init` / `deinit` for initializers.
    public let name: String
    /// Full name: Swift `application(_:open:options:)`, Objective-C `application:openURL:options:`, C `memcpy`.
    public let fullName: String
    public let parameters: [Parameter]
    public let returnType: String?
    public let attributes: [String]
    public let modifiers: [String]
    public let isStatic: Bool
    /// The body, nil for protocol requirements and prototypes.
    public let body: Block?
    public let range: SourceRange
    public let nameRange: SourceRange

    public init(name: String, fullName: String, parameters: [Parameter], returnType: String?, attributes: [String],
                modifiers: [String], isStatic: Bool, body: Block?, range: SourceRange, nameRange: SourceRange) {
        self.name = name
        self.fullName = fullName
        self.parameters = parameters
        self.returnType = returnType
        self.attributes = attributes
        self.modifiers = modifiers
        self.isStatic = isStatic
        self.body = body
        self.range = range
        self.nameRange = nameRange
    }
}

/// A stored or computed property, a global, or an Objective-C `@property`.
public final class VariableDeclaration: Sendable {
    public let name: String
    public let type: String?
    public let initializer: Expression?
    public let isConstant: Bool
    public let isStatic: Bool
    public let attributes: [String]
    /// Getter/setter/observer bodies of a computed or observed property.
    public let accessors: [Block]
    public let range: SourceRange
    public let nameRange: SourceRange

    public init(name: String, type: String?, initializer: Expression?, isConstant: Bool, isStatic: Bool,
                attributes: [String], accessors: [Block], range: SourceRange, nameRange: SourceRange) {
        self.name = name
        self.type = type
        self.initializer = initializer
        self.isConstant = isConstant
        self.isStatic = isStatic
        self.attributes = attributes
        self.accessors = accessors
        self.range = range
        self.nameRange = nameRange
    }
}

/// `#if CONDITION ... #elseif ... #else ... #endif`. `condition` is the clause's condition text
/// (`DEBUG`, `!DEBUG`), nil for `#else`.
public struct ConditionalBlock<Element: Sendable>: Sendable {
    public struct Clause: Sendable {
        public var condition: String?
        public var elements: [Element]

        public init(condition: String?, elements: [Element]) {
            self.condition = condition
            self.elements = elements
        }
    }

    public var clauses: [Clause]
    public var range: SourceRange

    public init(clauses: [Clause], range: SourceRange) {
        self.clauses = clauses
        self.range = range
    }
}
