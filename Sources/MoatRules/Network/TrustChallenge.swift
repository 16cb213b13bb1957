import MoatCore
import MoatSyntax

/// Shared reading of authentication-challenge handlers (URLSession, WKWebView and NSURLConnection
/// delegates) for the trust rules.
struct ChallengeHandler {
    let function: FunctionDeclaration
    let owner: TypeDeclaration?
    /// The challenge parameter's name inside the body.
    let challenge: String
    /// The completion handler parameter's name, if the API has one.
    let completion: String?

    /// Whether a type names an authentication challenge (`URLAuthenticationChallenge`...).
    static func isChallengeType(_ type: String) -> Bool {
        // The length first: the names index asks this of every name in a file.
        type.utf8.count >= 23 && type.containsASCIIAware("AuthenticationChallenge")
    }

    /// Every function with a parameter typed as an authentication challenge.
    static func all(in file: CodeFile) -> [ChallengeHandler] {
        file.allFunctions.compactMap { function, owner in
            guard function.body != nil,
                  let challenge = function.parameters.first(where: { isChallengeType($0.type ?? "") })
            else { return nil }
            let completion = function.parameters.first { parameter in
                let type = parameter.type ?? ""
                return type.contains("AuthChallengeDisposition") || parameter.label == "completionHandler" || parameter.name == "completionHandler"
            }
            return ChallengeHandler(function: function, owner: owner, challenge: challenge.name, completion: completion?.name)
        }
    }

    /// One place where the handler answers the challenge by trusting the server.
    struct Acceptance {
        var call: Expression
        /// The nested function it is in, when not directly in the handler.
        var nestedFunction: FunctionDeclaration?
    }

    /// `completionHandler(.useCredential, URLCredential(trust:))`, `challenge.sender?.use(URLCredential(trust:), for:)`,
    /// `[challenge.sender useCredential:[NSURLCredential credentialForTrust:] forAuthenticationChallenge:]`,
    /// `return (.useCredential, URLCredential(trust:))`.
    func isAcceptance(_ expression: Expression, _ values: LocalValues) -> Bool {
        switch expression.kind {
        case .call(let callee, let arguments, let isMessageSend):
            if let completion, case .identifier(completion) = callee.unwrapped.kind, arguments.count == 2 {
                return Self.isUseCredential(arguments[0].value) && Self.isTrustCredential(arguments[1].value, values)
            }
            guard let name = callee.name else { return false }
            if isMessageSend, name == APIs.challengeSenderAnswer.selectors[0], let credential = arguments.first?.value {
                return Self.isTrustCredential(credential, values)
            }
            if !isMessageSend, name == "use", arguments.count == 2, arguments[1].label == "for" {
                return Self.isTrustCredential(arguments[0].value, values)
            }
            return false
        case .tuple(let elements) where elements.count == 2:
            return Self.isUseCredential(elements[0].value) && Self.isTrustCredential(elements[1].value, values)
        default:
            return false
        }
    }

    static func isUseCredential(_ expression: Expression) -> Bool {
        switch expression.strippedOfCasts.kind {
        case .member(_, "useCredential"): return true
        case .identifier("NSURLSessionAuthChallengeUseCredential"): return true
        default: return false
        }
    }

    /// `URLCredential(trust:)`, `URLCredential.init(trust:)`, `[NSURLCredential credentialForTrust:]`,
    /// `[[NSURLCredential alloc] initWithTrust:]`, followed through locals.
    static func isTrustCredential(_ expression: Expression, _ values: LocalValues) -> Bool {
        let resolved = values.resolve(expression)
        guard case .call(let callee, let arguments, let isMessageSend) = resolved.kind, let name = callee.name else { return false }
        if isMessageSend { return name == APIs.serverTrustCredential.selectors[0] || name == APIs.serverTrustCredential.selectors[1] }
        return (name == "URLCredential" || name == "NSURLCredential" || name == "init") && arguments.first?.label == "trust"
    }

    /// Acceptance sites in the handler body and in functions nested in it.
    func acceptances(_ values: LocalValues) -> [Acceptance] {
        guard let body = function.body else { return [] }
        var result: [Acceptance] = []
        let nested = body.nestedFunctions
        var nestedRanges: [(SourceRange, FunctionDeclaration)] = nested.map { ($0.range, $0) }
        nestedRanges.sort { $0.0.start.offset > $1.0.start.offset }
        body.walk { node, _ in
            guard case .expression(let expression) = node, isAcceptance(expression, values) else { return }
            let owner = nestedRanges.first { $0.0.contains(expression.range) }?.1
            result.append(Acceptance(call: expression, nestedFunction: owner))
        }
        // `return (.useCredential, credential)` is a statement-level tuple the walker sees as an expression too.
        return result
    }

    /// Names whose value comes out of an evaluation: out-parameters (`&result`) and closure parameters of
    /// calls that receive the trust (`SecTrustEvaluateAsyncWithError(trust, queue) { _, trusted, _ in ... }`).
    func evaluationResults(_ values: LocalValues) -> Set<String> {
        guard let body = function.body else { return [] }
        var names = Set<String>()
        body.walk { node, _ in
            guard case .expression(let expression) = node, case .call(_, let arguments, _) = expression.kind,
                  arguments.contains(where: { mentionsTrust($0.value, values) }) else { return }
            for argument in arguments {
                switch argument.value.unwrapped.kind {
                case .prefix("&", let operand):
                    if let name = LocalValues.assignableName(operand) { names.insert(name) }
                case .closure(let parameters, _):
                    names.formUnion(parameters)
                default:
                    break
                }
            }
        }
        return names
    }

    /// The value is the server trust, the challenge itself, its protection space, or built from them.
    func mentionsTrust(_ expression: Expression, _ values: LocalValues) -> Bool {
        let bare = expression.strippedOfCasts
        if case .identifier(challenge) = bare.kind { return true }
        if case .member(let base?, "protectionSpace") = bare.kind, case .identifier(challenge) = base.unwrapped.kind { return true }
        return values.reachable(from: expression).contains { node in
            if case .member(_, "serverTrust") = node.kind { return true }
            if case .call(let callee, _, true) = node.kind, callee.name == "serverTrust" { return true }
            return false
        }
    }

    static let nonEvaluating: Set<String> = ["URLCredential", "NSURLCredential", APIs.serverTrustCredential.selectors[0], APIs.serverTrustCredential.selectors[1],
                                             "SecTrustGetCertificateCount", "CFRetain", "CFRelease", "print",
                                             APIs.formattedLogC.cFunctions[0], // NSLog
                                             "completionHandler", APIs.challengeSenderAnswer.swiftBaseNames[0], // use
                                             APIs.challengeSenderAnswer.selectors[0]]

    /// A guard fact that means "the trust was evaluated and passed" on this path.
    func isSuccessfulEvaluation(_ fact: GuardFact, _ values: LocalValues, results: Set<String>) -> Bool {
        let (core, holds) = Self.normalize(fact.condition, holds: fact.holds)
        guard holds || fact.casePatterns != nil else { return false }
        return isEvaluation(core, values, results: results)
    }

    func isEvaluation(_ condition: Expression, _ values: LocalValues, results: Set<String>) -> Bool {
        for node in values.reachable(from: condition) {
            switch node.kind {
            case .identifier(let name) where results.contains(name):
                return true
            case .call(let callee, let arguments, _):
                guard let name = callee.name, !Self.nonEvaluating.contains(name) else { continue }
                if Self.trustEvaluationNames.contains(name) { return true }
                if arguments.contains(where: { mentionsTrust($0.value, values) }) { return true }
                if let receiver = callee.receiver, mentionsTrust(receiver, values),
                   !receiver.nameChain.contains(where: { ["host", "authenticationMethod", "realm", "port", "protocol"].contains($0) }) {
                    return true
                }
            default:
                continue
            }
        }
        return false
    }

    /// `x == false` holding is `x` failing; `a != b` holding is `a == b` failing. A comparison with `0`,
    /// `errSecSuccess` or `noErr` reads a status code: `status == 0` holding is the check succeeding
    /// (`verifyTrust(trust, host: host) == 0`).
    static func normalize(_ condition: Expression, holds: Bool) -> (Expression, Bool) {
        switch condition.unwrapped.kind {
        case .binary(let op, let lhs, let rhs) where op == "==" || op == "!=":
            let positive = op == "==" ? holds : !holds
            if isSuccessStatus(rhs), !looksBoolean(lhs) { return (lhs, positive) }
            if isSuccessStatus(lhs), !looksBoolean(rhs) { return (rhs, positive) }
            if let value = rhs.boolValue { return (lhs, value ? positive : !positive) }
            if let value = lhs.boolValue { return (rhs, value ? positive : !positive) }
            return (condition, positive)
        default:
            return (condition, holds)
        }
    }

    /// `SecTrustEvaluateWithError(…)` and `is…`/`has…`/`should…` calls return a Boolean: `== 0` is NO.
    static func looksBoolean(_ expression: Expression) -> Bool {
        guard let name = expression.unwrapped.name else { return false }
        if APIs.secTrustEvaluateWithError.callNames.contains(name) { return true }
        return ["is", "has", "should", "can", "did", "was"].contains { prefix in
            name.hasPrefix(prefix) && name.dropFirst(prefix.count).first?.isUppercase == true
        }
    }

    static func isSuccessStatus(_ expression: Expression) -> Bool {
        switch expression.unwrapped.kind {
        case .integerLiteral(let text): return text == "0"
        case .identifier(let name): return name == "errSecSuccess" || name == "noErr"
        case .member(_, let name): return name == "errSecSuccess" || name == "noErr"
        default: return false
        }
    }

    /// Whether the acceptance is guarded by a successful evaluation on every path that reaches it.
    func isGuarded(_ acceptance: Acceptance, _ values: LocalValues, file: CodeFile? = nil) -> Bool {
        guard let body = function.body else { return false }
        let results = evaluationResults(values)
        let evaluators = file.map(Self.evaluatingFunctions) ?? []
        func guarded(_ target: Expression, in statements: [Statement]) -> Bool? {
            if evaluatedByThrowingCall(before: target, in: statements, values, evaluators: evaluators) == true { return true }
            var answer: Bool?
            GuardedWalk.walk(statements) { expression, facts in
                guard expression === target else { return }
                answer = facts.contains { isSuccessfulEvaluation($0, values, results: results) }
            }
            return answer
        }
        guard let nested = acceptance.nestedFunction, let nestedBody = nested.body else {
            return guarded(acceptance.call, in: body.statements) ?? false
        }
        if guarded(acceptance.call, in: nestedBody.statements) == true { return true }
        // Every call of the nested function must be guarded.
        var callSites: [Expression] = []
        body.walk { node, _ in
            guard case .expression(let expression) = node, case .call(let callee, _, false) = expression.kind,
                  case .identifier(nested.name) = callee.unwrapped.kind else { return }
            callSites.append(expression)
        }
        guard !callSites.isEmpty else { return false }
        return callSites.allSatisfy { site in guarded(site, in: body.statements) ?? false }
    }

    /// The calls that evaluate a trust (`SecTrustEvaluate…`), from the vocabulary.
    static let trustEvaluationNames = APIs.trustEvaluations.callNames

    /// Functions of the file that evaluate a trust (call a `SecTrustEvaluate…` function), by base name.
    static func evaluatingFunctions(_ file: CodeFile) -> Set<String> {
        Set(file.allFunctions.filter { entry in
            entry.function.body?.allExpressions.contains { expression in
                guard case .call(let callee, _, _) = expression.kind, let name = callee.name else { return false }
                return trustEvaluationNames.contains(name)
            } ?? false
        }.map(\.function.name))
    }

    /// A throwing call that evaluates the trust (`try validate(trust)`, `try SecTrustEvaluateWithError`
    /// wrappers) made before the target on every path to it: a throw skips the target, so reaching it
    /// means the evaluation passed. The call receives the trust (or the challenge) and is a function of
    /// this file that calls `SecTrustEvaluate…`, or one named for a check (evaluate, validate, verify,
    /// check, pin, trust) when it lives elsewhere. A `do` whose every `catch` leaves the function counts
    /// like a plain `try` before the target.
    func evaluatedByThrowingCall(before target: Expression, in statements: [Statement], _ values: LocalValues,
                                 evaluators: Set<String>, evaluated: Bool = false) -> Bool? {
        var evaluated = evaluated
        func recurse(_ blocks: [Block], _ flag: Bool) -> Bool {
            for block in blocks where block.range.contains(target.range) {
                return evaluatedByThrowingCall(before: target, in: block.statements, values, evaluators: evaluators, evaluated: flag) ?? flag
            }
            return flag
        }
        for statement in statements {
            if statement.range.contains(target.range) {
                switch statement.kind {
                case .ifStatement(let conditions, let then, let elseBranch):
                    let flag = evaluated || conditions.contains { condition in
                        if case .expression(let expression) = condition { return isThrowingEvaluation(expression, values, evaluators) }
                        if case .binding(_, let value, _) = condition { return isThrowingEvaluation(value, values, evaluators) }
                        return false
                    }
                    return recurse([then] + (elseBranch.map { [$0] } ?? []), flag)
                case .guardStatement(_, let elseBody): return recurse([elseBody], evaluated)
                case .loop(_, _, let body): return recurse([body], evaluated)
                case .switchStatement(_, let cases): return recurse(cases.map(\.body), evaluated)
                case .doStatement(let body, let catches): return recurse([body] + catches.map(\.body), evaluated)
                case .deferStatement(let block), .block(let block): return recurse([block], evaluated)
                default: return evaluated
                }
            }
            guard statement.range.end.offset <= target.range.start.offset else { continue }
            if statementEvaluates(statement, values, evaluators) { evaluated = true }
        }
        return nil
    }

    private func statementEvaluates(_ statement: Statement, _ values: LocalValues, _ evaluators: Set<String>) -> Bool {
        switch statement.kind {
        case .expression(let expression), .returnStatement(let expression?):
            return isThrowingEvaluation(expression, values, evaluators)
        case .variable(_, _, let initializer?, _):
            return isThrowingEvaluation(initializer, values, evaluators)
        case .assignment(_, _, let value):
            return isThrowingEvaluation(value, values, evaluators)
        case .doStatement(let body, let catches):
            let leaves = catches.allSatisfy { clause in
                guard let last = clause.body.statements.last else { return false }
                switch last.kind {
                case .returnStatement, .throwStatement: return true
                default: return false
                }
            }
            return !catches.isEmpty && leaves && body.statements.contains { statementEvaluates($0, values, evaluators) }
        default:
            return false
        }
    }

    /// `try f(trust)` (not `try?`/`try!`) where `f` evaluates the trust.
    private func isThrowingEvaluation(_ expression: Expression, _ values: LocalValues, _ evaluators: Set<String>) -> Bool {
        var current = expression
        var throwing = false
        while true {
            switch current.kind {
            case .wrapped(let op, let operand):
                if op == "try" { throwing = true }
                current = operand
                continue
            case .postfix(let op, let operand) where op == "!" || op == "?":
                current = operand
                continue
            default:
                break
            }
            break
        }
        guard throwing, case .call(let callee, let arguments, _) = current.kind, let name = callee.name else { return false }
        let receivesTrust = arguments.contains { mentionsTrust($0.value, values) } || callee.receiver.map { mentionsTrust($0, values) } == true
        guard receivesTrust else { return false }
        if Self.trustEvaluationNames.contains(name) || evaluators.contains(name) { return true }
        let lower = name.lowercased()
        return ["evaluat", "validat", "verif", "check", "pin", "trust"].contains { lower.contains($0) }
    }

    /// Whether the handler evaluates the trust anywhere.
    func evaluatesAnywhere(_ values: LocalValues) -> Bool {
        guard let body = function.body else { return false }
        let results = evaluationResults(values)
        if !results.isEmpty { return true }
        return body.allExpressions.contains { expression in
            guard case .call = expression.kind else { return false }
            return isEvaluation(expression, values, results: results)
        }
    }
}

// MARK: Exceptions the user chose

extension ChallengeHandler {
    /// Collection methods that add to a list of hosts or certificates (`trustedHosts.insert(host)`,
    /// `[self.exceptions addObject:host]`), and those that look one up.
    static let collectionWriters: Set<String> = ["insert", "append", "formUnion", "updateValue", "addObject", "setObject", "setValue"]
    static let collectionLookups: Set<String> = ["contains", "containsObject", "objectForKey", "member"]

    /// Whether the acceptance is what the user chose: it runs in the handler of an alert action (the user
    /// picked "Trust anyway"), or only for a host in a list of exceptions that the file fills only in such
    /// handlers (`if trustedHosts.contains(host) { accept }` with `trustedHosts.insert(host)` in the
    /// alert's action). A per-host exception the user must confirm is how a browser or a self-hosted
    /// server's client lets the user go on, not code that trusts every certificate.
    func isUserConsented(_ acceptance: Acceptance, file: CodeFile) -> Bool {
        let handlers = Self.alertActionHandlers(in: file)
        if handlers.contains(where: { $0.contains(acceptance.call.range) }) { return true }
        guard let body = function.body else { return false }
        var consented = false
        GuardedWalk.walk(body.statements) { expression, facts in
            guard expression === acceptance.call else { return }
            consented = facts.contains { fact in
                fact.holds && fact.casePatterns == nil && Self.lookedUpCollection(fact.condition).map {
                    Self.isFilledOnlyInHandlers($0, handlers, file: file)
                } == true
            }
        }
        return consented
    }

    /// The ranges of closures given to `UIAlertAction(title:style:handler:)` (`actionWithTitle:style:handler:`).
    static func alertActionHandlers(in file: CodeFile) -> [SourceRange] {
        let names = APIs.alertAction.callNames
        var ranges: [SourceRange] = []
        file.forEachExpression { expression, _ in
            guard case .call(let callee, let arguments, _) = expression.kind, let name = callee.name, names.contains(name) else { return }
            for argument in arguments {
                if case .closure = argument.value.unwrapped.kind { ranges.append(argument.value.range) }
            }
        }
        return ranges
    }

    /// `trustedHosts.contains(host)`, `[self.exceptions containsObject:host]`, `exceptions[host] != nil` → the
    /// collection's name (`trustedHosts`, `exceptions`).
    static func lookedUpCollection(_ condition: Expression) -> String? {
        let bare = condition.unwrapped
        switch bare.kind {
        case .call(let callee, let arguments, _):
            guard let name = callee.name, collectionLookups.contains(name), !arguments.isEmpty else { return nil }
            return callee.receiver?.nameChain.last
        case .binary("!=", let lhs, let rhs) where rhs.isNilLike || lhs.isNilLike:
            let other = rhs.isNilLike ? lhs : rhs
            if case .subscriptAccess(let base, _) = other.unwrapped.kind { return base.nameChain.last }
            return nil
        default:
            return nil
        }
    }

    /// Every write of the collection in the file (`name.insert(…)`, `name[key] = …`, `name = …`) is inside
    /// one of `handlers`, and there is at least one.
    static func isFilledOnlyInHandlers(_ name: String, _ handlers: [SourceRange], file: CodeFile) -> Bool {
        guard !handlers.isEmpty else { return false }
        var writes: [SourceRange] = []
        func isCollection(_ expression: Expression) -> Bool { expression.nameChain.last == name }
        file.forEachExpression { expression, _ in
            switch expression.kind {
            case .call(let callee, _, _):
                if let method = callee.name, collectionWriters.contains(method), let receiver = callee.receiver, isCollection(receiver) {
                    writes.append(expression.range)
                }
            case .binary(let op, let target, _) where op == "=" || op == "+=":
                if isCollection(target) { writes.append(expression.range) }
                if case .subscriptAccess(let base, _) = target.unwrapped.kind, isCollection(base) { writes.append(expression.range) }
            default:
                break
            }
        }
        file.forEachStatement { statement, _ in
            guard case .assignment(let target, _, _) = statement.kind else { return }
            if isCollection(target) { writes.append(statement.range) }
            if case .subscriptAccess(let base, _) = target.unwrapped.kind, isCollection(base) { writes.append(statement.range) }
        }
        return !writes.isEmpty && writes.allSatisfy { write in handlers.contains { $0.contains(write) } }
    }
}
