import MoatCore
import MoatSyntax

extension FunctionInterpreter {
    // MARK: Expressions

    mutating func eval(_ expression: Expression, _ state: inout InterpreterState) -> [Taint] {
        guard expressionDepth < Self.maximumExpressionDepth else { return [] }
        expressionDepth += 1
        defer { expressionDepth -= 1 }
        switch expression.kind {
        case .identifier(let name):
            let stored = state.vars[name] ?? []
            guard let named = identifierTaint(name, at: expression.range, state) else { return stored }
            return stored.merging([named])
        case .member(let base, let name):
            if let hit = memberSource(expression, state) { return [sourceTaint(hit, at: expression.range)] }
            let named = base.flatMap { memberNameTaint($0, name, at: expression.range, state) }
            if let path = expression.accessPath, let stored = state.vars[path] { return named.map { stored.merging([$0]) } ?? stored }
            guard let base else { return [] }
            var taints = eval(base, &state)
            if named == nil, engine.gates.namesMaySecrets, base.nameChain.contains(where: { engine.sensitiveKind(of: $0, type: nil) == .credential }) {
                // `credentials.userId`, `credentials.wpcom?.siteURL`: a member (at any depth) of a record named for
                // credentials is not a secret by the record's name; only a member named as a secret is.
                // The record's name taint may come from here, or from a caller that passes a value so named
                // (a parameter's taint, marked so that the caller's name taint stops here too).
                taints = taints.filter { $0.source?.kind != .sensitiveName }.map { taint in
                    guard case .parameter = taint.origin else { return taint }
                    var marked = taint
                    marked.checks.insert(.memberOfCredentials)
                    return marked
                }
            }
            if named == nil, !taints.isEmpty, engine.gates.namesMaySecrets, isFieldOfNamedValue(base, name, state) {
                // `token.decimals`, `token.coin.code` of a wallet's `token: Token`: a field of a value named as a
                // secret is not the secret by that name (its text, `password.utf8`, `apiKey.rawValue`, is).
                taints = taints.filter { $0.source?.kind != .sensitiveName }.map { taint in
                    guard case .parameter = taint.origin else { return taint }
                    var marked = taint
                    marked.checks.insert(.memberOfCredentials)
                    return marked
                }
            }
            if named == nil, !taints.isEmpty, isOtherField(of: base, name, state) {
                // `creds.userID` of a `struct Credentials { let userID: String; let secret: String }`: a stored
                // property of the file's type that is not itself a secret is not the secret beside it.
                taints = taints.filter { $0.flow != .sensitive }.map { taint in
                    guard case .parameter = taint.origin else { return taint }
                    var marked = taint
                    marked.checks.insert(.memberOfCredentials)
                    return marked
                }
            }
            if isArchiveEntryName(base, name, state) {
                let names = ArchiveEntries.entryName(of: taints, at: expression.range, api: CodeText.of(expression, in: file))
                return named.map { names.merging([$0]) } ?? names
            }
            let read = readMember(taints, name, path: expression.accessPath, at: expression.range)
            return named.map { read.merging([$0]) } ?? read
        case .call:
            return evalCall(expression, &state)
        case .subscriptAccess(let base, let arguments):
            if let hit = recordSource(base: base, key: arguments.first?.value, range: expression.range, state)
                ?? subscriptSource(base: base, range: expression.range) {
                for argument in arguments { _ = eval(argument.value, &state) }
                return [sourceTaint(hit, at: expression.range)]
            }
            var taints = eval(base, &state)
            for argument in arguments { _ = eval(argument.value, &state) }
            if arguments.count == 1, let key = keyTaint(arguments[0].value, at: expression.range) { taints.merge([key]) }
            return taints
        case .stringLiteral(let segments):
            var result: [Taint] = []
            var text = ""
            var fixedHost = false
            for segment in segments {
                switch segment {
                case .text(let part): text += part
                case .interpolation(let value):
                    // `"https://shop.example.com/item/\(id)"`: the input is after a fixed host.
                    if result.isEmpty, Self.hasFixedHost(text) { fixedHost = true }
                    var taints = eval(value, &state)
                    if fixedHost { taints = taints.map { $0.adding(.hostChecked) } }
                    result.merge(taints)
                }
            }
            let message = text.hasText("/") ? "interpolated into a path string" : "interpolated into a string"
            return result.mapTaints { $0.addStep(expression.range, message) }
        case .binary(let op, let lhs, let rhs):
            return evalBinary(expression, op, lhs, rhs, &state)
        case .prefix(let op, let operand):
            let taints = eval(operand, &state)
            return op == "!" ? [] : taints
        case .postfix(_, let operand), .wrapped(_, let operand):
            return eval(operand, &state)
        case .ternary(let condition, let then, let otherwise):
            _ = eval(condition, &state)
            var thenState = state
            applyFacts(ConditionFacts.extract(condition, holds: true), &thenState)
            var result = eval(then, &thenState)
            result.merge(eval(otherwise, &state))
            return result
        case .cast(let operand, let type, let op):
            let taints = eval(operand, &state)
            if op == "is" { return [] }
            // `body["count"] as? Int`: a value cast to a number, a Boolean or a date is no string an attacker can
            // shape, like one converted with `Int(_:)`.
            return Transfers.isInertType(type) ? taints.map { $0.adding(.numeric) } : taints
        case .tuple(let elements):
            var result: [Taint] = []
            for element in elements { result.merge(eval(element.value, &state)) }
            return result
        case .arrayLiteral(let elements):
            var result: [Taint] = []
            for element in elements { result.merge(eval(element, &state)) }
            return result
        case .dictionaryLiteral(let pairs):
            var result: [Taint] = []
            for pair in pairs {
                _ = eval(pair.key, &state)
                result.merge(eval(pair.value, &state))
                if let key = keyTaint(pair.key, at: pair.value.range) { result.merge([key]) }
            }
            return result
        case .closure(let parameters, let body):
            analyzeClosure(parameters: parameters, body: body, parameterTaints: [], confirmed: false, state)
            return []
        case .integerLiteral, .floatLiteral, .booleanLiteral, .nilLiteral, .typeValue, .unknown:
            return []
        }
    }

    /// A URL prefix that fixes scheme and host: `https://host/`.
    static func hasFixedHost(_ prefix: String) -> Bool {
        guard let schemeEnd = prefix.range(of: "://") else { return false }
        let rest = prefix[schemeEnd.upperBound...]
        guard let slash = rest.firstIndex(of: "/") else { return false }
        return rest.distance(from: rest.startIndex, to: slash) > 0 && !rest[..<slash].contains("@")
    }

    /// Reading a member of a tainted value: what `Transfers.members` says the member does.
    func readMember(_ taints: [Taint], _ name: String, path: String?, at range: SourceRange?) -> [Taint] {
        let entry = Transfers.membersByName[name]
        var taints = taints
        if let entry, entry.effect == .dropsTaint {
            if entry.kinds.isEvery { return [] }
            taints = taints.filter { !$0.isAffected(by: entry.kinds) }
        }
        return taints.compactMap { original in
            // A member of an object that holds a value elsewhere is not that value.
            if original.isContained { return nil }
            var taint = original
            if case .parameter = taint.origin { taint.members.insert(name) }
            if let latent = taint.latent {
                if latent.contains(name) {
                    taint.latent = nil
                    if let range { taint.addStep(range, "reads `\(name)`") }
                }
                return taint
            }
            if let entry, entry.kinds.isEvery || taint.isAffected(by: entry.kinds) {
                switch entry.effect {
                case .adds(let check):
                    taint.checks.insert(check)
                case .takesLastPathComponent:
                    taint.checks.subtract(TaintCheck.pathChecks)
                    taint.checks.insert(.lastPathComponent)
                    taint.lineage = []
                    taint.resetsCallerChecks = true
                    if let range { taint.addStep(range, "takes \(name)") }
                case .standardizes:
                    taint.checks.remove(.prefixChecked)
                    taint.checks.insert(.standardized)
                    taint.lineage = []
                    taint.resetsCallerChecks = true
                case .dropsTaint:
                    break
                }
            }
            if let path { taint.lineage.insert(path) }
            return taint
        }
    }

    mutating func evalBinary(_ expression: Expression, _ op: String, _ lhs: Expression, _ rhs: Expression,
                                     _ state: inout InterpreterState) -> [Taint] {
        switch op {
        case "=":
            assign(target: lhs, op: "=", value: rhs, range: expression.range, &state)
            return []
        case "&&", "||":
            _ = eval(lhs, &state)
            var rhsState = state
            applyFacts(ConditionFacts.extract(lhs, holds: op == "&&"), &rhsState)
            _ = eval(rhs, &rhsState)
            state = InterpreterState.join(state, rhsState)
            return []
        case _ where ConditionFacts.comparisonOperators.contains(op) || op == "!==":
            let left = eval(lhs, &state)
            let right = eval(rhs, &state)
            let products = (left + right).filter { $0.product != nil }
            if !products.isEmpty {
                record(TaintSinks.lengthComparison, calledName: op, range: expression.range, roles: [(.size, lhs, products)],
                       fixed: false, state)
            }
            return []
        case "*", "&*":
            let left = eval(lhs, &state)
            let right = eval(rhs, &state)
            let wraps = op == "&*" || file.language.isCFamily
            var result: [Taint] = []
            for taint in left + right {
                var copy = taint
                // A count read from the data (not the size of a buffer that exists) multiplied with wrapping
                // arithmetic: C's `*`, Swift's `&*` (Swift's `*` traps on overflow).
                if wraps, taint.isActive, !taint.checks.contains(.measuredSize) {
                    let checked = !taint.checks.isDisjoint(with: [.overflowChecked, .upperBounded])
                    copy.product = ProductInfo(range: expression.range, checked: checked)
                    copy.addStep(expression.range, "multiplied without an overflow check")
                }
                result.merge([copy])
            }
            return result
        default:
            let left = eval(lhs, &state)
            let right = eval(rhs, &state)
            var consumed = false
            for sink in TaintSinks.operators[op] ?? [] where sink.modules.map({ !$0.isDisjoint(with: file.imports) }) ?? true {
                consumed = true
                let roles = sink.roles.compactMap { role, selector -> (SinkRole, Expression?, [Taint])? in
                    guard case .index(let index) = selector, index < 2 else { return nil }
                    return (role, index == 0 ? lhs : rhs, index == 0 ? left : right)
                }
                record(sink, calledName: op, range: expression.range, roles: roles, fixed: false, state)
            }
            // An operator sink makes a value for the call that writes it (a SQLite.swift `Setter`): the write
            // is reported at the operator, once.
            if consumed { return [] }
            var result = left
            result.merge(right)
            if op == "+" {
                let isString = lhs.isStringLiteral || rhs.isStringLiteral
                if isString { result = result.mapTaints { $0.addStep(expression.range, "concatenated into a string") } }
                if let prefix = lhs.stringValue, Self.hasFixedHost(prefix) { result = result.map { $0.adding(.hostChecked) } }
            }
            return result
        }
    }

}
