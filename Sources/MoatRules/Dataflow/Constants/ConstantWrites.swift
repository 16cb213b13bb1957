import MoatCore
import MoatSyntax

/// Every place a file sets a name, for properties set once (`ConstantResolver`): a Swift `var` whose only
/// value is its initializer, or a property set in exactly one place (`init() { key = … }`,
/// `self.key = …`, Objective-C `_key = …` and `[self setKey:…]`) holds that value wherever it is read.
///
/// Counted by name: a bare name or `self.key` is a write of the enclosing type's `key` (unless the
/// function declares a local or parameter of that name); `other.key = x` is a write of every `key` of the
/// file, whatever its type. Compound assignments (`key += …`), `&key` and in-place writers (`key.append`) count as writes
/// without a value.
struct ConstantWrites {
    struct Write {
        /// The value assigned (nil for a compound assignment, `&name`, an in-place writer).
        var value: Expression?
        var context: WalkContext
        /// The type whose property is written (a bare name or `self.name`), nil when it may be any.
        var owner: String?
    }

    private var byName: [String: [Write]] = [:]

    init(file: CodeFile) {
        var localsCache: [ObjectIdentifier: Set<String>] = [:]
        func locals(_ function: FunctionDeclaration?) -> Set<String> {
            guard let function else { return [] }
            if let known = localsCache[ObjectIdentifier(function)] { return known }
            var names = Set(function.parameters.map(\.name))
            function.body?.walk { node, _ in
                guard case .statement(let statement) = node else { return }
                switch statement.kind {
                case .variable(let declared, _, _, _): names.formUnion(declared)
                case .declaration(.variable(let variable)): names.insert(variable.name)
                case .loop(_, let variables, _): names.formUnion(variables)
                case .ifStatement(let conditions, _, _), .guardStatement(let conditions, _):
                    for case .binding(let bound, _, _) in conditions { names.formUnion(bound) }
                default: break
                }
            }
            localsCache[ObjectIdentifier(function)] = names
            return names
        }
        func note(_ target: Expression, _ value: Expression?, _ context: WalkContext) {
            switch target.strippedOfCasts.kind {
            case .identifier(let name):
                guard !locals(context.function).contains(name) else { return }
                let owner = context.type?.name
                byName[name, default: []].append(Write(value: value, context: context, owner: owner))
                if file.language.isCFamily, name.hasPrefix("_"), name.count > 1 {
                    byName[String(name.dropFirst()), default: []].append(Write(value: value, context: context, owner: owner))
                }
            case .member(let base?, let name):
                var isSelf = false
                if case .identifier(let root) = base.strippedOfCasts.kind, root == "self" || root == "Self" { isSelf = true }
                byName[name, default: []].append(Write(value: value, context: context, owner: isSelf ? context.type?.name : nil))
            case .subscriptAccess(let base, _):
                // `key[0] = …` changes the value in place.
                note(base, nil, context)
            default:
                break
            }
        }
        file.walk { node, context in
            switch node {
            case .statement(let statement):
                if case .assignment(let target, let op, let value) = statement.kind { note(target, op == "=" ? value : nil, context) }
            case .expression(let expression):
                switch expression.kind {
                case .binary(let op, let target, let value) where op == "=" || (op.hasSuffix("=") && !["==", "!=", "<=", ">=", "==="].contains(op)):
                    note(target, op == "=" ? value : nil, context)
                case .prefix("&", let operand):
                    note(operand, nil, context)
                case .postfix(let op, let operand) where op == "++" || op == "--":
                    note(operand, nil, context)
                case .member(let base?, let member) where ConstantTables.inPlaceWriters.contains(member):
                    note(base, nil, context)
                case .call(let callee, let arguments, true):
                    // `[self setKey:value]`.
                    guard let name = callee.name, name.hasPrefix("set"), name.hasSuffix(":"), arguments.count == 1, name.count > 4 else { return }
                    let stem = name.dropFirst(3).dropLast()
                    guard !stem.contains(":") else { return }
                    var owner: String?
                    if case .identifier("self")? = callee.receiver?.strippedOfCasts.kind { owner = context.type?.name }
                    byName[stem.prefix(1).lowercased() + stem.dropFirst(), default: []].append(Write(value: arguments[0].value, context: context, owner: owner))
                case .call(let callee, _, false):
                    if let name = callee.name, ConstantTables.inPlaceWriters.contains(name), let receiver = callee.receiver { note(receiver, nil, context) }
                default:
                    break
                }
            default:
                break
            }
        }
    }

    /// The writes of a property of `owner` (of a global when nil: every write of the name).
    private func writes(of name: String, owner: String?) -> [Write] {
        guard let owner else { return byName[name] ?? [] }
        return (byName[name] ?? []).filter { $0.owner == nil || $0.owner == owner }
    }

    /// How many times the file sets a name (its declaration's initializer not included).
    func count(of name: String, owner: String?) -> Int { writes(of: name, owner: owner).count }

    /// The only write of a name, when there is exactly one and it assigns a value.
    func onlyWrite(of name: String, owner: String?) -> (value: Expression, context: WalkContext)? {
        let list = writes(of: name, owner: owner)
        guard list.count == 1, let value = list[0].value else { return nil }
        return (value, list[0].context)
    }
}
