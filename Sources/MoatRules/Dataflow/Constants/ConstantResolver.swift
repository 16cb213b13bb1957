import MoatCore
import MoatSyntax

/// Follows a value back from where a settings rule uses it (a TLS version set, a key handed to a cipher)
/// to where it was written: through locals, the file's globals, `let` and `static let` properties
/// (`Config.minTLS`, `self.key`, `Self.salt`), functions and computed properties that return it
/// (`minimumTLS()`, `[Keys key]`), parameters (every call of the function in the file), and, across files,
/// the constants other files export (`ExportedConstant`, linked by `CrossFileLinker` for the names this
/// file asked about).
///
/// Constants are resolved on demand, backwards from the sink, not followed forwards from every literal:
/// a literal is everywhere, a TLS version set or a key given to a cipher is rare. The resolver names no
/// API: the rules judge what it finds (`ConstantOrigin.value`), with `ConstantTables` for the values and
/// conversions that concern them.
public final class ConstantResolver {
    /// A place the value passed through, for the finding's related locations.
    public struct Step: Sendable {
        public var location: Location
        public var message: String
    }

    /// Where a value comes from: an expression the resolver cannot follow further (a literal, an enum case,
    /// a call it does not know), in this file, or a constant of another file.
    public struct Origin {
        /// The expression in this file (nil for a constant of another file).
        public var value: Expression?
        /// A constant of another file.
        public var external: ExportedConstant?
        /// The context the expression is in.
        public var context: WalkContext
        /// The places between the use and the value, nearest first.
        public var steps: [Step]
        /// The parameter of a function of this file the value is (whatever callers in other files pass:
        /// `ParameterSink`); the value is then the parameter's name.
        public var parameter: ParameterOrigin?
        /// True when the value was reached through a name (not written at the use itself).
        public var isIndirect: Bool { !steps.isEmpty }
    }

    /// A parameter of a function of this file.
    public struct ParameterOrigin {
        public var function: FunctionDeclaration
        public var owner: TypeDeclaration?
        public var index: Int
    }

    let file: CodeFile
    let linked: [String: [ExportedConstant]]
    /// Parameters of other files' functions that reach a settings sink (`ParameterSink`), by lookup name.
    let linkedSinks: [String: [ParameterSink]]
    let values: LocalValuesCache
    private lazy var typesByName: [String: [TypeDeclaration]] = Dictionary(grouping: file.allTypes, by: \.name)
    lazy var functionsByName: [String: [(function: FunctionDeclaration, owner: TypeDeclaration?)]] = {
        var result: [String: [(function: FunctionDeclaration, owner: TypeDeclaration?)]] = [:]
        for entry in file.allFunctions where entry.function.body != nil {
            result[entry.function.name, default: []].append(entry)
            if entry.function.fullName != entry.function.name { result[entry.function.fullName, default: []].append(entry) }
        }
        return result
    }()
    private lazy var globals: [String: VariableDeclaration] = {
        var result: [String: VariableDeclaration] = [:]
        // Declarations first: a macro of the same name is a fallback (`#ifndef KEY` / `#define KEY`).
        for variable in file.declarations.flatMap(\.flattenedVariables) + file.macros where result[variable.name] == nil {
            result[variable.name] = variable
        }
        return result
    }()
    /// Every write of a name in the file (`ConstantWrites`), for properties set once.
    private lazy var writes = ConstantWrites(file: file)
    /// Calls of the file by callee name, with their context (built on the first parameter to follow).
    lazy var callsByName: [String: [(call: Expression, context: WalkContext)]] = {
        var result: [String: [(call: Expression, context: WalkContext)]] = [:]
        file.forEachExpression { expression, context in
            guard case .call(let callee, _, _) = expression.kind, let name = callee.name else { return }
            result[name, default: []].append((expression, context))
        }
        return result
    }()
    /// Names this file asked about that it does not define (`Owner.name` or `name`), for the linker.
    public private(set) var queries: Set<String> = []
    /// Parameters of this file's functions that reach a settings sink, for callers in other files.
    public internal(set) var parameterSinks: [ParameterSink] = []
    var parameterSinkKeys = Set<String>()
    var cachedLinkedCalls: [LinkedCall]?

    /// How many names one resolution follows, at most.
    static let maximumDepth = 8
    /// Call sites followed for one parameter, at most.
    static let maximumCallSites = 16

    public init(file: CodeFile, context: DataflowContext?) {
        self.file = file
        values = LocalValuesCache(file: file)
        var linked: [String: [ExportedConstant]] = [:]
        for constant in context?.constants ?? [] { linked[constant.name, default: []].append(constant) }
        self.linked = linked
        var sinks: [String: [ParameterSink]] = [:]
        for sink in context?.constantSinks ?? [] { sinks[sink.function.lookupName, default: []].append(sink) }
        linkedSinks = sinks
    }

    /// Every origin of the value of `expression`, used in `context`.
    public func origins(of expression: Expression, in context: WalkContext) -> [Origin] {
        var visited = Set<ObjectIdentifier>()
        var result: [Origin] = []
        follow(expression, context, steps: [], depth: 0, visited: &visited, into: &result)
        return result
    }

    private func location(_ range: SourceRange) -> Location {
        Location(path: file.path, line: range.start.line, column: range.start.column)
    }

    private func follow(_ expression: Expression, _ context: WalkContext, steps: [Step], depth: Int,
                        visited: inout Set<ObjectIdentifier>, into result: inout [Origin]) {
        let current = expression.strippedOfCasts
        guard depth < Self.maximumDepth, visited.insert(ObjectIdentifier(current)).inserted, result.count < 32 else {
            result.append(Origin(value: current, context: context, steps: steps))
            return
        }
        func next(_ value: Expression, _ valueContext: WalkContext, _ message: String, at range: SourceRange) {
            follow(value, valueContext, steps: steps + [Step(location: location(range), message: message)], depth: depth + 1,
                   visited: &visited, into: &result)
        }
        switch current.kind {
        case .identifier(let name):
            let local = values.values(for: context)
            if let function = context.function, changedInPlace(in: function).contains(name) {
                return result.append(Origin(value: current, context: context, steps: steps))
            }
            if let value = local.boundValue(of: name, before: current.range.start.offset) {
                return next(value, context, "`\(name)` is set here", at: value.range)
            }
            if local.isParameter(name), let function = context.function {
                return followParameter(name, of: function, context, steps: steps, depth: depth, visited: &visited, into: &result)
            }
            let ivar = file.language.isCFamily && name.hasPrefix("_") ? staticProperty(String(name.dropFirst()), in: context.type?.name) : nil
            if let variable = staticProperty(name, in: context.type?.name) ?? ivar ?? globals[name], let value = declaredValue(variable) {
                return next(value.expression, value.context, value.message(name), at: value.expression.range)
            }
            if let external = external(name, owner: nil) { return result.append(Origin(external: external, context: context, steps: steps)) }
        case .member(let base?, let name):
            switch base.unwrapped.kind {
            case .identifier("self"), .identifier("Self"):
                if let variable = staticProperty(name, in: context.type?.name), let value = declaredValue(variable) {
                    return next(value.expression, value.context, value.message(name), at: value.expression.range)
                }
                if let value = returnedValue(of: name, owner: context.type?.name, arguments: 0) {
                    return next(value.expression, value.context, "`\(name)` returns this", at: value.expression.range)
                }
            case .identifier(let owner) where owner.first?.isUppercase == true:
                if let variable = staticProperty(name, in: owner), let value = declaredValue(variable) {
                    return next(value.expression, value.context, value.message("\(owner).\(name)"), at: value.expression.range)
                }
                if let value = returnedValue(of: name, owner: owner, arguments: 0) {
                    return next(value.expression, value.context, "`\(owner).\(name)` returns this", at: value.expression.range)
                }
                if let external = external(name, owner: owner) { return result.append(Origin(external: external, context: context, steps: steps)) }
            default:
                break
            }
        case .call(let callee, let arguments, _) where arguments.isEmpty:
            // `Data()`, `UUID()`: an initializer, not a constant.
            guard let name = callee.name, callee.receiver != nil || name.first?.isUppercase != true else { break }
            var owner: String?
            switch callee.receiver?.unwrapped.kind {
            case nil, .identifier("self")?, .identifier("Self")?: owner = context.type?.name
            case .identifier(let type)? where type.first?.isUppercase == true: owner = type
            default: return result.append(Origin(value: current, context: context, steps: steps))
            }
            if let value = returnedValue(of: name, owner: owner, arguments: 0) {
                return next(value.expression, value.context, "`\(name)` returns this", at: value.expression.range)
            }
            if let external = external(name, owner: callee.receiver == nil ? nil : owner) {
                return result.append(Origin(external: external, context: context, steps: steps))
            }
        case .ternary(_, let then, let otherwise):
            follow(then, context, steps: steps, depth: depth + 1, visited: &visited, into: &result)
            follow(otherwise, context, steps: steps, depth: depth + 1, visited: &visited, into: &result)
            return
        case .binary("??", let lhs, let rhs):
            follow(lhs, context, steps: steps, depth: depth + 1, visited: &visited, into: &result)
            follow(rhs, context, steps: steps, depth: depth + 1, visited: &visited, into: &result)
            return
        default:
            break
        }
        result.append(Origin(value: current, context: context, steps: steps))
    }

    private var changedInPlaceCache: [ObjectIdentifier: Set<String>] = [:]

    /// Names a function changes in place (`&iv`, `iv.withUnsafeMutableBytes { … }`): their initial value is
    /// not what they hold later.
    private func changedInPlace(in function: FunctionDeclaration) -> Set<String> {
        if let known = changedInPlaceCache[ObjectIdentifier(function)] { return known }
        var names = Set<String>()
        function.body?.walk { node, _ in
            if case .statement(let statement) = node, case .assignment(let target, _, _) = statement.kind,
               case .subscriptAccess(let base, _) = target.unwrapped.kind, case .identifier(let name) = base.unwrapped.kind {
                // `iv[i] = …`
                names.insert(name)
            }
            guard case .expression(let expression) = node else { return }
            switch expression.kind {
            case .call(let callee, let arguments, _) where file.language.isCFamily:
                // A C array passed bare is a pointer the callee may fill (`SecRandomCopyBytes(…, 16, iv)`,
                // `arc4random_buf(iv, 16)`, `memcpy(iv, …)`), unless the call only reads it there.
                let read = ConstantTables.readsArguments(callee.name ?? "")
                for (index, argument) in arguments.enumerated() where !(read?.isEmpty ?? false) && !(read?.contains(index) ?? false) {
                    guard case .identifier(let name) = argument.value.strippedOfCasts.kind, let type = values.values(function: function, type: nil).declaredType(of: name),
                          type.hasSuffix("[]"), !type.contains("const ") else { continue }
                    names.insert(name)
                }
            case .prefix("&", let operand):
                if let name = operand.unwrapped.name { names.insert(name) }
            case .member(let base?, let member) where ConstantTables.inPlaceWriters.contains(member):
                if case .identifier(let name) = base.unwrapped.kind { names.insert(name) }
            case .call(let callee, _, true) where ConstantTables.inPlaceWriters.contains(callee.name ?? ""):
                if case .identifier(let name)? = callee.receiver?.unwrapped.kind { names.insert(name) }
            default:
                break
            }
        }
        changedInPlaceCache[ObjectIdentifier(function)] = names
        return names
    }

    /// A parameter: what each call of its function in this file passes.
    private func followParameter(_ name: String, of function: FunctionDeclaration, _ context: WalkContext, steps: [Step], depth: Int,
                                 visited: inout Set<ObjectIdentifier>, into result: inout [Origin]) {
        guard let index = function.parameters.firstIndex(where: { $0.name == name }) else { return }
        result.append(Origin(value: Expression(kind: .identifier(name), range: function.nameRange), context: context, steps: steps,
                             parameter: ParameterOrigin(function: function, owner: context.type, index: index)))
        // A default value is what every call that omits the argument passes, in this file or another.
        if let defaultValue = function.parameters[index].defaultValue {
            follow(defaultValue, context,
                   steps: steps + [Step(location: location(defaultValue.range), message: "`\(name)` defaults to this")],
                   depth: depth + 1, visited: &visited, into: &result)
        }
        let isObjC = function.fullName.contains(":") && file.language != .swift
        var followed = 0
        for site in callsByName[isObjC ? function.fullName : function.name] ?? [] where followed < Self.maximumCallSites {
            guard case .call(_, let arguments, let isMessageSend) = site.call.kind, isMessageSend == isObjC else { continue }
            let argument: Expression?
            if !isObjC, file.language == .swift {
                // Labels decide which argument is which; a defaulted parameter may be left out.
                guard let matched = Self.match(arguments, to: function.parameters) else { continue }
                argument = matched[index]
            } else {
                guard arguments.count == function.parameters.count else { continue }
                argument = arguments[index].value
            }
            // A recursive call passes the parameter to itself: nothing new; a call that leaves the argument
            // out passes the default, followed above.
            guard let argument, site.context.function !== function else { continue }
            followed += 1
            follow(argument, site.context,
                   steps: steps + [Step(location: location(site.call.range), message: "`\(function.name)` is called with it here")],
                   depth: depth + 1, visited: &visited, into: &result)
        }
    }

    /// The argument a Swift call passes to each parameter (nil where a defaulted parameter is left out),
    /// matched by label in order; nil when the call does not fit the parameters.
    static func match(_ arguments: [Argument], to parameters: [Parameter]) -> [Expression?]? {
        var result: [Expression?] = []
        var next = 0
        for parameter in parameters {
            let label = parameter.label == "_" ? nil : parameter.label
            if next < arguments.count, arguments[next].label == label {
                result.append(arguments[next].value)
                next += 1
            } else if parameter.defaultValue != nil {
                result.append(nil)
            } else {
                return nil
            }
        }
        return next == arguments.count ? result : nil
    }

    /// A `let` (or a property that is only ever its initializer) of a type of this file, by name.
    private func staticProperty(_ name: String, in owner: String?) -> VariableDeclaration? {
        guard let owner else { return nil }
        for type in typesByName[owner] ?? [] {
            if let variable = type.variables.first(where: { $0.name == name }) { return variable }
        }
        return nil
    }

    /// A value a declaration holds, with where to follow it from.
    struct DeclaredValue {
        var expression: Expression
        var context: WalkContext
        /// Set by its only assignment (not its declaration).
        var isAssignment = false

        func message(_ name: String) -> String { isAssignment ? "`\(name)` is set here, its only assignment" : "`\(name)` is defined here" }
    }

    /// The value a stored `let`, a computed property of one returned expression, or a property (a Swift
    /// `var`, a `let` set in an initializer, an Objective-C `@property`) the file sets exactly once holds.
    private func declaredValue(_ variable: VariableDeclaration) -> DeclaredValue? {
        let owner = file.allTypes.first { $0.variables.contains { $0 === variable } }
        if file.language == .swift, !variable.isConstant, !isOnlySetByTheFile(variable, owner: owner) { return nil }
        if let initializer = variable.initializer {
            // A `var` may be set anywhere: followed only when nothing in the file sets it again.
            guard variable.isConstant || file.language != .swift || writes.count(of: variable.name, owner: owner?.name) == 0 else { return nil }
            return DeclaredValue(expression: initializer, context: WalkContext(type: owner))
        }
        if variable.accessors.count == 1, let value = Self.singleReturn(variable.accessors[0]) {
            return DeclaredValue(expression: value, context: WalkContext(type: owner))
        }
        guard variable.accessors.isEmpty, variable.attributes.firstIndex(of: "#define") == nil,
              let only = writes.onlyWrite(of: variable.name, owner: owner?.name) else { return nil }
        return DeclaredValue(expression: only.value, context: only.context, isAssignment: true)
    }

    /// Attributes of a Swift `var` that do not hand its value to anything else.
    static let inertAttributes: Set<String> = ["objc", "nonobjc", "MainActor", "available"]

    /// Whether only the assignments the file shows can set a Swift `var`: not a property wrapper or
    /// outlet (`@AppStorage`, `@Published`, `@NSManaged`, `@IBOutlet`), not a member of a `Decodable` type
    /// (decoding sets it) or of a struct without an initializer of its own (the memberwise one sets it).
    private func isOnlySetByTheFile(_ variable: VariableDeclaration, owner: TypeDeclaration?) -> Bool {
        guard variable.attributes.allSatisfy(Self.inertAttributes.contains) else { return false }
        guard let owner, !variable.isStatic else { return true }
        let declarations = typesByName[owner.name] ?? [owner]
        if declarations.contains(where: { $0.inherits.contains { ["Codable", "Decodable", "NSCoding", "NSSecureCoding"].contains($0) } }) {
            return false
        }
        if owner.kind == .struct, !declarations.contains(where: { $0.functions.contains { $0.name == "init" } }) { return false }
        return true
    }

    /// What a function of this file without parameters returns, when it has one return.
    private func returnedValue(of name: String, owner: String?, arguments: Int) -> (expression: Expression, context: WalkContext)? {
        if let variable = staticProperty(name, in: owner), variable.initializer == nil, !variable.accessors.isEmpty,
           let value = declaredValue(variable) {
            return (value.expression, value.context)
        }
        let candidates = (functionsByName[name] ?? []).filter { $0.function.parameters.count == arguments && $0.owner?.name == owner }
        guard candidates.count == 1, let body = candidates[0].function.body, let value = Self.singleReturn(body) else { return nil }
        var context = WalkContext(type: candidates[0].owner)
        context.function = candidates[0].function
        return (value, context)
    }

    /// The expression a body returns when it is one statement (`return x`, or Swift's implicit return).
    static func singleReturn(_ body: Block) -> Expression? {
        guard body.statements.count == 1 else { return nil }
        switch body.statements[0].kind {
        case .returnStatement(let value?): return value
        case .expression(let value): return value
        default: return nil
        }
    }

    private func external(_ name: String, owner: String?) -> ExportedConstant? {
        queries.insert(owner.map { "\($0).\(name)" } ?? name)
        let candidates = (linked[name] ?? []).filter { owner == nil || $0.owner == owner }
        return candidates.count == 1 ? candidates[0] : nil
    }
}

extension WalkContext {
    init(type: TypeDeclaration?) {
        self.init()
        self.type = type
    }
}
