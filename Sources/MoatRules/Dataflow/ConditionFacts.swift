import MoatCore
import MoatSyntax

/// A check a condition establishes about a value, named by its access path.
struct ConditionFact: Hashable {
    var path: String
    var check: TaintCheck
    /// The kinds of flow the check applies to (from its table entry).
    var kinds: Set<FlowKind> = FlowKind.every
    /// For `.comparedWithValue`: the other side of the comparison; the check holds only when that side
    /// carries no taint (a value the app holds, not another input).
    var against: String? = nil
}

/// Reads the checks out of a condition known to hold (or known to fail): `name != ".."`,
/// `data.length != sizeof(_uuid)` under `if (...) return`, `allowed.contains(host)`, `os_mul_overflow(...)`.
/// These are the guards and sanitizers of the reference documents; anything else is not a check.
enum ConditionFacts {
    // What counts as a check is in the checks table (`Checks`); this reader finds it in conditions.

    static func extract(_ condition: Expression, holds: Bool) -> [ConditionFact] {
        var facts: [ConditionFact] = []
        // Validation calls and overflow checks count wherever they appear in a condition, whatever its
        // polarity: a condition that calls them is the validation step.
        anywhere(condition, into: &facts)
        collect(condition, holds: holds, depth: 0, into: &facts)
        return facts
    }

    private static func collect(_ condition: Expression, holds: Bool, depth: Int, into facts: inout [ConditionFact]) {
        guard depth < 64 else { return }
        let expression = condition.unwrapped
        switch expression.kind {
        case .prefix("!", let operand):
            collect(operand, holds: !holds, depth: depth + 1, into: &facts)
        case .binary("&&", let lhs, let rhs):
            if holds {
                collect(lhs, holds: true, depth: depth + 1, into: &facts)
                collect(rhs, holds: true, depth: depth + 1, into: &facts)
            }
        case .binary("||", let lhs, let rhs):
            if !holds {
                collect(lhs, holds: false, depth: depth + 1, into: &facts)
                collect(rhs, holds: false, depth: depth + 1, into: &facts)
            } else {
                // Either side held: what both sides establish holds (`scheme == "http" || scheme == "https"`).
                var left: [ConditionFact] = []
                var right: [ConditionFact] = []
                collect(lhs, holds: true, depth: depth + 1, into: &left)
                collect(rhs, holds: true, depth: depth + 1, into: &right)
                facts += left.filter { fact in right.contains { $0.path == fact.path && $0.check == fact.check && $0.against == nil } && fact.against == nil }
            }
        case .binary(let op, let lhs, let rhs) where comparisonOperators.contains(op):
            comparison(holds ? op : negate(op), lhs, rhs, into: &facts)
        case .cast(let operand, _, "is"):
            if holds, let path = operand.accessPath { facts.append(ConditionFact(path: path, check: .typeChecked)) }
        case .member(let base?, let member) where member == Checks.emptinessMember:
            if !holds, let path = base.accessPath { facts.append(ConditionFact(path: path, check: .rejectsEmpty)) }
        case .call(let callee, let arguments, _):
            call(expression, callee: callee, arguments: arguments, holds: holds, into: &facts)
        default:
            break
        }
    }

    static let comparisonOperators: Set<String> = ["==", "!=", "<", "<=", ">", ">=", "==="]

    private static func negate(_ op: String) -> String {
        switch op {
        case "==", "===": return "!="
        case "!=": return "=="
        case "<": return ">="
        case "<=": return ">"
        case ">": return "<="
        case ">=": return "<"
        default: return op
        }
    }

    private static func anywhere(_ expression: Expression, into facts: inout [ConditionFact]) {
        for node in expression.descendants() {
            guard case .call(let callee, let arguments, _) = node.kind, let name = callee.baseCallName else { continue }
            if Checks.overflowCheckerNames.contains(name) {
                var values = arguments.map(\.value)
                if let receiver = callee.receiver { values.append(receiver) }
                for value in values {
                    if let path = stripAddress(value).accessPath {
                        facts.append(ConditionFact(path: path, check: .overflowChecked, kinds: Checks.overflowCheck.kinds))
                    }
                }
                continue
            }
            let words = Set(CamelCase.words(name).map { $0.lowercased() })
            let regex = Checks.regexSearch
            let isRegexRange = name == regex.name && arguments.contains { $0.label == regex.optionsLabel && $0.value.nameChain.last == regex.option }
            guard isRegexRange || !words.isDisjoint(with: Checks.validationWords) || Checks.validationCallNames.contains(name) else { continue }
            var subjects = arguments.map(\.value)
            if let receiver = callee.receiver { subjects.append(receiver) }
            for subject in subjects {
                for path in subjectPaths(subject) { facts.append(ConditionFact(path: path, check: .validated, kinds: Checks.validation.kinds)) }
            }
        }
    }

    private static func stripAddress(_ expression: Expression) -> Expression {
        if case .prefix("&", let operand) = expression.unwrapped.kind { return operand }
        return expression
    }

    /// The paths a check on this expression is about: the expression itself and, through path views and
    /// hosts, the value it reads (`url` for `url.host`).
    private static func subjectPaths(_ expression: Expression) -> [String] {
        var paths: [String] = []
        if let path = expression.accessPath { paths.append(path) }
        let (subject, _) = stripViews(expression)
        if let path = subject.accessPath, !paths.contains(path) { paths.append(path) }
        return paths.filter { $0 != "self" }
    }

    /// Walks down `path`, `absoluteString`, standardizers: `dest.standardizedFileURL.path` → (`dest`, true).
    static func stripViews(_ expression: Expression) -> (subject: Expression, standardized: Bool) {
        var current = expression.unwrapped
        var standardized = false
        while true {
            if let (base, name) = current.propertyRead, Checks.pathViews.contains(name) || Transfers.standardizers.contains(name) {
                if Transfers.standardizers.contains(name) { standardized = true }
                current = base.unwrapped
                continue
            }
            if case .call(let callee, let arguments, false) = current.kind, arguments.isEmpty,
               case .member(let base?, let name) = callee.kind, Transfers.standardizers.contains(name) || Checks.pathViews.contains(name) {
                if Transfers.standardizers.contains(name) { standardized = true }
                current = base.unwrapped
                continue
            }
            if case .call(let callee, let arguments, _) = current.kind, arguments.count >= 1,
               case .identifier(let name) = callee.kind, Transfers.standardizers.contains(name) {
                standardized = true
                current = arguments[0].value.unwrapped
                continue
            }
            return (current, standardized)
        }
    }

    /// `X.count`, `X.length`, `[X length]`, `strlen(X)`, `CFDataGetLength(X)` → X, a measured length.
    static func measuredSubject(_ expression: Expression) -> String? {
        let value = expression.unwrapped
        if let (base, name) = value.propertyRead, Checks.lengthMembers.contains(name) {
            if let (inner, view) = base.unwrapped.propertyRead, Checks.byteViews.contains(view) { return inner.accessPath }
            return base.accessPath
        }
        if case .call(let callee, let arguments, false) = value.kind, arguments.count == 1, let name = callee.name,
           Checks.lengthFunctionNames.contains(name) {
            return arguments[0].value.accessPath
        }
        return nil
    }

    private static func isTrivialBound(_ expression: Expression) -> Bool {
        if case .integerLiteral(let text) = expression.unwrapped.kind { return text == "0" || text == "1" }
        return false
    }

    private static func comparison(_ op: String, _ lhs: Expression, _ rhs: Expression, into facts: inout [ConditionFact]) {
        // String constants: `name != ".."`, `action == "refresh"`.
        if let (subject, literal) = literalComparison(lhs, rhs) {
            guard let path = subject.accessPath else { return }
            if op == "!=" {
                switch literal {
                case "..": facts.append(ConditionFact(path: path, check: .rejectsDotDot))
                case ".": facts.append(ConditionFact(path: path, check: .rejectsDot))
                case "": facts.append(ConditionFact(path: path, check: .rejectsEmpty))
                default: break
                }
            } else if op == "==" || op == "===", ![".", "..", ""].contains(literal) {
                facts.append(ConditionFact(path: path, check: .allowlisted))
                hostFact(subject, into: &facts)
                schemeFact(subject, into: &facts)
            }
            return
        }
        // Lookups in a dictionary used as an allowlist: `allowed[name] != nil`.
        if lhs.isNilLike || rhs.isNilLike {
            let other = lhs.isNilLike ? rhs : lhs
            if op == "!=", case .subscriptAccess(_, let arguments) = other.unwrapped.kind, let key = arguments.first?.value,
               let path = key.accessPath {
                facts.append(ConditionFact(path: path, check: .allowlisted))
            }
            return
        }
        // Hosts compared with anything: `url.host == trustedHost`.
        if op == "==" {
            hostFact(lhs, into: &facts)
            hostFact(rhs, into: &facts)
            // Equal to a value the app holds (`state == storedState`): each side, when the other is untainted.
            if let left = lhs.accessPath, let right = rhs.accessPath, left != right,
               !isTypeOrConstantName(left), !isTypeOrConstantName(right) {
                facts.append(ConditionFact(path: left, check: .comparedWithValue, against: right))
                facts.append(ConditionFact(path: right, check: .comparedWithValue, against: left))
            }
        }
        // Sizes and counts.
        let left = sizeSubject(lhs)
        let right = sizeSubject(rhs)
        if isTrivialBound(rhs) || isTrivialBound(lhs) {
            // `x.count > 0`, `x.length != 0`: only says the value is not empty.
            let subject = isTrivialBound(rhs) ? left : right
            if let subject, subject.measured, op == ">" || op == "!=" || op == ">=" || op == "<" {
                facts.append(ConditionFact(path: subject.path, check: .rejectsEmpty))
            }
            return
        }
        func add(_ subject: (path: String, measured: Bool)?, _ checks: [TaintCheck]) {
            guard let subject else { return }
            for check in checks { facts.append(ConditionFact(path: subject.path, check: check)) }
        }
        switch op {
        case "==", "===":
            add(left, [.upperBounded, .lowerBounded])
            add(right, [.upperBounded, .lowerBounded])
        case "<", "<=":
            add(left, [.upperBounded])
            add(right, [.lowerBounded])
        case ">", ">=":
            add(left, [.lowerBounded])
            add(right, [.upperBounded])
        default:
            break
        }
    }

    /// `Route.logout`, `NSNotFound`: a type's member or a constant, not a value the app stored.
    private static func isTypeOrConstantName(_ path: String) -> Bool {
        path.first?.isUppercase ?? true
    }

    private static func sizeSubject(_ expression: Expression) -> (path: String, measured: Bool)? {
        if let path = measuredSubject(expression) { return (path, true) }
        if let path = expression.accessPath { return (path, false) }
        return nil
    }

    private static func literalComparison(_ lhs: Expression, _ rhs: Expression) -> (Expression, String)? {
        if let literal = rhs.stringValue { return (lhs, literal) }
        if let literal = lhs.stringValue { return (rhs, literal) }
        return nil
    }

    /// `url.host`, `url.host()`, `[url host]` compared or looked up: the URL's host was checked.
    private static func hostFact(_ expression: Expression, into facts: inout [ConditionFact]) {
        var value = expression.unwrapped
        if case .call(let callee, let arguments, false) = value.kind, arguments.isEmpty { value = callee.unwrapped }
        guard let (base, name) = value.propertyRead ?? {
            if case .member(let base?, let name) = value.kind { return (base, name) }
            return nil
        }(), Checks.hostMembers.contains(name) else { return }
        let (subject, _) = stripViews(base)
        if let path = subject.accessPath { facts.append(ConditionFact(path: path, check: .hostChecked)) }
        if let path = base.accessPath { facts.append(ConditionFact(path: path, check: .hostChecked)) }
    }

    /// `url.scheme`, `[url scheme]`, `url.scheme?.lowercased()` found equal to a fixed scheme: the URL's scheme was checked.
    private static func schemeFact(_ expression: Expression, into facts: inout [ConditionFact]) {
        if let path = schemeSubject(expression) { facts.append(ConditionFact(path: path, check: .schemeChecked)) }
    }

    /// The URL whose scheme this expression reads (`url` for `url.scheme`, `url.scheme?.lowercased()`,
    /// `url.scheme ?? ""`, `[url scheme]`), or nil.
    static func schemeSubject(_ expression: Expression) -> String? {
        var value = expression.unwrapped
        if case .binary("??", let lhs, let rhs) = value.kind, rhs.isConstantLiteral { value = lhs.unwrapped }
        if case .call(let callee, let arguments, _) = value.kind, arguments.isEmpty { value = callee.unwrapped }
        if case .member(let base?, let name) = value.kind, Checks.caseFolders.contains(name) {
            value = base.unwrapped
            if case .call(let callee, let arguments, _) = value.kind, arguments.isEmpty { value = callee.unwrapped }
        }
        guard let (base, name) = value.propertyRead ?? {
            if case .member(let base?, let name) = value.kind { return (base, name) }
            return nil
        }(), Checks.schemeMembers.contains(name) else { return nil }
        return stripViews(base).subject.accessPath
    }

    private static func call(_ expression: Expression, callee: Expression, arguments: [Argument], holds: Bool,
                             into facts: inout [ConditionFact]) {
        guard let name = callee.baseCallName, let entry = Checks.conditionCallsByName[name] else { return }
        let receiver = callee.receiver
        let first = arguments.first?.value
        var found: [ConditionFact] = []
        switch entry.effect {
        case .equality:
            guard let receiver, let first else { return }
            comparison(holds ? "==" : "!=", receiver, first, into: &found)
        case .prefix:
            guard let receiver, let first else { return }
            if holds {
                let (subject, standardized) = stripViews(receiver)
                if let path = subject.accessPath {
                    found.append(ConditionFact(path: path, check: .prefixChecked))
                    if standardized { found.append(ConditionFact(path: path, check: .standardized)) }
                }
                if let literal = first.stringValue, literal.hasPrefix(Checks.fixedURLPrefix),
                   literal.count >= Checks.fixedURLPrefixMinimumLength, let path = subject.accessPath {
                    found.append(ConditionFact(path: path, check: .hostChecked))
                }
            } else if first.stringValue == ".", let path = receiver.accessPath {
                found.append(ConditionFact(path: path, check: .rejectsDot))
                found.append(ConditionFact(path: path, check: .rejectsDotDot))
            }
        case .suffix:
            if holds, let receiver { hostFact(receiver, into: &found) }
        case .membership:
            guard let receiver, let first else { return }
            if let literal = first.stringValue {
                // `name.contains("..")` known false.
                if !holds, literal == "..", let path = receiver.accessPath {
                    found.append(ConditionFact(path: path, check: .rejectsDotDot))
                }
                break
            }
            if case .arrayLiteral(let elements) = receiver.unwrapped.kind, !elements.isEmpty,
               elements.allSatisfy({ $0.stringValue != nil }) {
                let literals = Set(elements.compactMap(\.stringValue))
                if holds, literals.isDisjoint(with: [".", "..", ""]) { schemeFact(first, into: &found) }
                guard let path = first.accessPath else { break }
                if !holds {
                    if literals.contains("..") { found.append(ConditionFact(path: path, check: .rejectsDotDot)) }
                    if literals.contains(".") { found.append(ConditionFact(path: path, check: .rejectsDot)) }
                    if literals.contains("") { found.append(ConditionFact(path: path, check: .rejectsEmpty)) }
                } else if literals.isDisjoint(with: [".", "..", ""]) {
                    found.append(ConditionFact(path: path, check: .allowlisted))
                }
                break
            }
            if holds {
                if let path = first.accessPath { found.append(ConditionFact(path: path, check: .allowlisted)) }
                hostFact(first, into: &found)
            }
        case .typeCheckOfReceiver:
            if holds, let receiver, let path = receiver.accessPath { found.append(ConditionFact(path: path, check: .typeChecked)) }
        case .protocolCheckOfReceiver:
            if holds, let receiver, let path = receiver.accessPath { found.append(ConditionFact(path: path, check: .protocolChecked)) }
        case .protocolCheckOfFirstArgument:
            if holds, let first, let path = first.accessPath { found.append(ConditionFact(path: path, check: .protocolChecked)) }
        }
        if !entry.kinds.isEvery {
            for index in found.indices { found[index].kinds = entry.kinds }
        }
        facts += found
    }
}
