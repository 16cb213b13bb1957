import MoatCore
import MoatSyntax

/// What simple names are bound to inside one function (or the file's top-level code): enough to follow
/// `let docs = FileManager.default.urls(...)[0]` to its value when `docs` is used a few lines below.
///
/// This is deliberately shallow: straight-line "last binding before the use" over `let`/`var`, plain
/// assignments and `if let`/`guard let`, with the enclosing type's stored properties and the file's globals
/// as a fallback. Branches are not merged; a name bound differently in two branches resolves to the later
/// binding in source order.
public struct LocalValues {
    struct Binding {
        let value: Expression
        /// Where the binding takes effect: the end of its statement, so `let url = url.appending(...)`
        /// reads the earlier `url` inside its own initializer.
        let offset: Int
    }

    private var bindings: [String: [Binding]] = [:]
    private var properties: [String: Expression] = [:]
    /// Declared types of locals, properties and parameters (`let web: WKWebView`, `NSString *x`).
    public private(set) var declaredTypes: [String: String] = [:]
    /// Parameters of the function, by the name used inside the body.
    public private(set) var parameters: [String: Parameter] = [:]

    /// Bindings of one function, with its type's properties and the file's globals as fallback.
    public init(function: FunctionDeclaration?, type: TypeDeclaration?, file: CodeFile) {
        self.init(function: function, type: type, file: file, scope: ScopeProperties(file: file, type: type))
    }

    /// Properties visible to a function: the file's globals and its type's stored properties (from every
    /// declaration of that type name in the file, extensions included).
    struct ScopeProperties {
        var properties: [String: Expression] = [:]
        var declaredTypes: [String: String] = [:]

        init(file: CodeFile, type: TypeDeclaration?) {
            self.init(globals: file.declarations.flatMap(\.flattenedVariables),
                      typeDeclarations: type.map { type in file.allTypes.filter { $0.name == type.name || $0 === type } } ?? [])
        }

        init(globals: [VariableDeclaration], typeDeclarations: [TypeDeclaration]) {
            for global in globals { note(global) }
            for candidate in typeDeclarations {
                for property in candidate.variables { note(property) }
            }
        }

        mutating func note(_ variable: VariableDeclaration) {
            if let initializer = variable.initializer { properties[variable.name] = initializer }
            if let type = variable.type { declaredTypes[variable.name] = type }
        }
    }

    init(function: FunctionDeclaration?, type: TypeDeclaration?, file: CodeFile, scope: ScopeProperties) {
        properties = scope.properties
        declaredTypes = scope.declaredTypes
        if let function {
            for parameter in function.parameters {
                parameters[parameter.name] = parameter
                if let type = parameter.type { declaredTypes[parameter.name] = type }
            }
            if let body = function.body { collect(body.statements) }
        } else {
            collect(file.statements)
        }
    }

    /// Bindings of a block alone (a closure body, a nested function).
    public init(block: Block) {
        collect(block.statements)
    }

    private mutating func note(_ name: String, _ value: Expression, at offset: Int) {
        bindings[name, default: []].append(Binding(value: value, offset: offset))
    }

    private mutating func collect(_ statements: [Statement]) {
        for statement in statements {
            switch statement.kind {
            case .variable(let names, let type, let initializer, _):
                if names.count == 1, let name = names.first {
                    if let type { declaredTypes[name] = type }
                    if let initializer { note(name, initializer, at: statement.range.end.offset) }
                }
            case .assignment(let target, "=", let value):
                if let name = Self.assignableName(target) { note(name, value, at: statement.range.end.offset) }
            case .ifStatement(let conditions, _, _), .guardStatement(let conditions, _):
                for condition in conditions {
                    if case .binding(let names, let value, let range) = condition, names.count == 1, let name = names.first {
                        note(name, value, at: range.end.offset)
                    }
                }
            case .declaration(.variable(let variable)):
                if let initializer = variable.initializer { note(variable.name, initializer, at: statement.range.end.offset) }
                if let type = variable.type { declaredTypes[variable.name] = type }
            case .declaration(.function(let nested)):
                // Nested functions read the enclosing function's names; their own locals are collected too.
                if let body = nested.body { collect(body.statements) }
            case .conditional(let block):
                for clause in block.clauses { collect(clause.elements) }
            default:
                break
            }
            for expression in statement.expressions { collectClosures(expression) }
            for block in statement.blocks { collect(block.statements) }
        }
    }

    private mutating func collectClosures(_ expression: Expression) {
        for node in expression.descendants() {
            if case .closure(_, let body) = node.kind { collect(body.statements) }
        }
    }

    /// `x` and `self.x` (and Objective-C `_x`) are names this tracker follows.
    static func assignableName(_ target: Expression) -> String? {
        switch target.unwrapped.kind {
        case .identifier(let name): return name
        case .member(let base?, let name):
            if case .identifier("self") = base.unwrapped.kind { return name }
            return nil
        default: return nil
        }
    }

    /// The value a name was last bound to before a position (falling back to properties and globals).
    public func value(of name: String, before offset: Int) -> Expression? {
        if let list = bindings[name], let last = list.filter({ $0.offset < offset }).max(by: { $0.offset < $1.offset }) {
            return last.value
        }
        if parameters[name] != nil { return nil }
        if let property = properties[name] { return property }
        if name.hasPrefix("_"), let property = properties[String(name.dropFirst())] { return property }
        return nil
    }

    /// The value a name was last bound to in the function before a position (no property or global).
    public func boundValue(of name: String, before offset: Int) -> Expression? {
        bindings[name]?.filter({ $0.offset < offset }).max(by: { $0.offset < $1.offset })?.value
    }

    public func isParameter(_ name: String) -> Bool { parameters[name] != nil && bindings[name] == nil }

    /// Follows identifiers (and `self.x`) to what they were bound to, through casts and unwraps.
    public func resolve(_ expression: Expression, depth: Int = 6) -> Expression {
        var current = expression.strippedOfCasts
        var remaining = depth
        while remaining > 0, let name = Self.assignableName(current),
              let next = value(of: name, before: current.range.start.offset) {
            if next === current { break }
            current = next.strippedOfCasts
            remaining -= 1
        }
        return current
    }

    /// Every expression reachable from this one through its descendants and the values of the names it
    /// reads (cycle-safe). Use for "does this value, however built, involve X".
    public func reachable(from expression: Expression, depth: Int = 6) -> [Expression] {
        var result: [Expression] = []
        var seenNames = Set<String>()
        var frontier: [(Expression, Int)] = [(expression, 0)]
        while let (next, level) = frontier.popLast() {
            for node in next.descendants() {
                result.append(node)
                guard level < depth, let name = Self.assignableName(node), !seenNames.contains(name) else { continue }
                seenNames.insert(name)
                if let value = value(of: name, before: node.range.start.offset) { frontier.append((value, level + 1)) }
            }
        }
        return result
    }

    /// The declared type of a name (local, parameter or property), if written in the source.
    public func declaredType(of name: String) -> String? { declaredTypes[name] }
}

extension Expression {
    /// The expression without wrappers, unwraps and casts (`(x as? NSDictionary)!` → `x`).
    public var strippedOfCasts: Expression {
        var current = self
        while true {
            switch current.kind {
            case .wrapped(_, let operand): current = operand
            case .postfix(let op, let operand) where op == "!" || op == "?": current = operand
            case .cast(let operand, _, let op) where op != "is": current = operand
            default: return current
            }
        }
    }
}

extension Declaration {
    /// Variables declared here, looking through `#if`.
    public var flattenedVariables: [VariableDeclaration] {
        switch self {
        case .variable(let variable): return [variable]
        case .conditional(let block): return block.clauses.flatMap { $0.elements.flatMap(\.flattenedVariables) }
        default: return []
        }
    }
}

/// Builds `LocalValues` once per function (and once per type for code outside functions, such as
/// property initializers) while a rule walks a file.
public final class LocalValuesCache {
    private let file: CodeFile
    private var byFunction: [ObjectIdentifier: LocalValues] = [:]
    private var byType: [String: LocalValues] = [:]
    private var scopes: [String: LocalValues.ScopeProperties] = [:]
    private lazy var globals: [VariableDeclaration] = file.declarations.flatMap(\.flattenedVariables)
    private lazy var typesByName: [String: [TypeDeclaration]] = Dictionary(grouping: file.allTypes, by: \.name)

    public init(file: CodeFile) {
        self.file = file
    }

    public func values(for context: WalkContext) -> LocalValues {
        values(function: context.function, type: context.type)
    }

    private func scope(_ type: TypeDeclaration?) -> LocalValues.ScopeProperties {
        let key = type?.name ?? ""
        if let cached = scopes[key] { return cached }
        let declarations = type.map { type in typesByName[type.name] ?? [type] } ?? []
        let scope = LocalValues.ScopeProperties(globals: globals, typeDeclarations: declarations)
        scopes[key] = scope
        return scope
    }

    public func values(function: FunctionDeclaration?, type: TypeDeclaration?) -> LocalValues {
        guard let function else {
            let key = type?.name ?? ""
            if let cached = byType[key] { return cached }
            let values = LocalValues(function: nil, type: type, file: file, scope: scope(type))
            byType[key] = values
            return values
        }
        let key = ObjectIdentifier(function)
        if let cached = byFunction[key] { return cached }
        let values = LocalValues(function: function, type: type, file: file, scope: scope(type))
        byFunction[key] = values
        return values
    }
}
