import MoatCore
import MoatSyntax

/// What a file tells about values whose meaning comes from the file itself rather than from an API: the
/// text fields it makes secure, the variables bound to secure fields, the types that hold a secret
/// property. Computed once per file, on first use (`TaintEngine.namedValues`).
struct NamedValueFacts {
    /// Access paths (without `self.`) of text fields the file makes secure.
    var secureFields: Set<String> = []
    /// Variables bound to the text of a secure field.
    var secureBindings: Set<String> = []
    /// Types declared in the file with a property named as sensitive data: the property and what it holds.
    var secretTypes: [String: (property: String, kind: SensitiveDataKind)] = [:]
    /// Enums declared in the file: a value of one is a case, never a secret, whatever it is called.
    var enumTypes: Set<String> = []
    /// The stored properties of the file's structs and classes, with their declared types (field
    /// sensitivity: `credentials.userID` is not the `secret` beside it).
    var storedProperties: [String: [String: String?]] = [:]

    init() {}

    init(_ file: CodeFile) {
        let flags = SensitiveSources.secureFlags
        let bindings = SensitiveSources.secureFieldBindings
        file.walk { node, _ in
            switch node {
            case .statement(let statement):
                if case .assignment(let target, "=", let value) = statement.kind, case .member(let base?, let name) = target.unwrapped.kind,
                   flags.contains(name), Self.isTrue(value), let path = base.accessPath {
                    secureFields.insert(Self.normalized(path))
                }
            case .expression(let expression):
                guard case .call(let callee, let arguments, _) = expression.kind, let name = callee.name else { return }
                if case .binary("=", let target, let value) = expression.kind, case .member(let base?, let member) = target.unwrapped.kind,
                   flags.contains(member), Self.isTrue(value), let path = base.accessPath {
                    secureFields.insert(Self.normalized(path))
                }
                if flags.contains(name), let receiver = callee.receiver, let first = arguments.first, Self.isTrue(first.value),
                   let path = receiver.accessPath {
                    secureFields.insert(Self.normalized(path))
                }
                if bindings.contains(name) {
                    for argument in arguments where argument.label == SensitiveSources.secureFieldTextLabel {
                        if let path = argument.value.accessPath {
                            secureBindings.insert(Self.normalized(path.hasPrefix("$") ? String(path.dropFirst()) : path))
                        }
                    }
                }
            case .declaration:
                break
            }
        }
        for type in file.allTypes where type.kind != .protocol && type.kind != .objcProtocol {
            if type.kind == .enum { enumTypes.insert(type.name) }
            if type.kind == .struct || type.kind == .class || type.kind == .actor {
                for case .variable(let variable) in type.members where !variable.isStatic && variable.accessors.isEmpty {
                    storedProperties[type.name, default: [:]][variable.name] = .some(variable.type)
                }
            }
            for member in type.members {
                guard case .variable(let variable) = member, !variable.isStatic, variable.accessors.isEmpty || variable.initializer == nil,
                      let kind = SensitiveNaming.kind(ofName: variable.name, type: variable.type) else { continue }
                if secretTypes[type.name] == nil { secretTypes[type.name] = (variable.name, kind) }
            }
        }
    }

    /// `Credentials` for `Credentials?`, `Credentials!`, `[Credentials]`, `Module.Credentials`.
    static func coreType(_ type: String) -> String {
        let core = type.filter { !"?![]* ".contains($0) }
        return core.split(separator: ".").last.map(String.init) ?? core
    }

    static func normalized(_ path: String) -> String {
        path.hasPrefix("self.") ? String(path.dropFirst(5)) : path
    }

    static func isTrue(_ value: Expression) -> Bool {
        switch value.unwrapped.kind {
        case .booleanLiteral(let value): return value
        case .identifier(let name): return SensitiveSources.trueNames.contains(name)
        default: return false
        }
    }
}

extension FunctionInterpreter {
    // MARK: Values named as sensitive data

    /// A source for a value named as sensitive data, read at `range`.
    func nameTaint(_ name: String, kind: SensitiveDataKind, at range: SourceRange) -> Taint {
        let source = SensitiveSources.nameSource
        let hit = SourceHit(kind: source.kind, description: "`\(name)` (named as \(kind.phrase))", range: range,
                            confidence: source.confidence)
        return Taint(origin: .source(hit))
    }

    func secureTextTaint(_ what: String, at range: SourceRange) -> Taint {
        let source = SensitiveSources.secureTextSource
        return Taint(origin: .source(SourceHit(kind: source.kind, description: "\(what), \(source.description)", range: range,
                                               confidence: source.confidence)))
    }

    /// The sensitive source an identifier read is (a variable, parameter or property named as a secret,
    /// a variable bound to a secure field).
    func identifierTaint(_ name: String, at range: SourceRange, _ state: InterpreterState) -> Taint? {
        guard let first = name.first, first.isLowercase || first == "_" else { return nil }
        // `kSecClassGenericPassword`, `kTokenKey`: a constant of the `k` style names a class or a key, not a value.
        if SecretNaming.isConstantStyle(name) { return nil }
        if engine.gates.mayHaveSecureFields, engine.namedValues.secureBindings.contains(name) { return secureTextTaint("`\(name)`", at: range) }
        guard engine.gates.namesMaySecrets else { return nil }
        let type = state.types[name] ?? ownerName.flatMap { engine.propertyTypes[$0]?[name] }
        guard let kind = engine.sensitiveKind(of: name, type: type) else { return nil }
        // `registerDeviceToken(with tokenData:)`: a token named only `token` in a function about the device's
        // push token is that token (see `SensitiveNaming`).
        if kind == .token, let function, SensitiveNaming.isUnqualifiedToken(name), SensitiveSources.handlesDeviceToken(function) {
            return nil
        }
        return nameTaint(name, kind: kind, at: range)
    }

    /// The sensitive source a member read is: a property named as a secret (not a static member of a type:
    /// `Keys.password` is a key name), the text of a secure field or of a field named for a secret.
    func memberNameTaint(_ base: Expression, _ name: String, at range: SourceRange, _ state: InterpreterState) -> Taint? {
        // A static member of a type (`Keys.password`, `Errors.codes.wrongCredentials`) is a constant, a key
        // name or an enum case; a singleton's property (`Session.shared.token`) is a value.
        let chain = base.nameChain
        if let root = chain.first, root.first?.isUppercase == true, !chain.dropFirst().contains(where: SensitiveSources.singletonNames.contains) {
            return nil
        }
        if SensitiveSources.secureTextMembers.contains(name), let path = base.accessPath {
            let normalized = NamedValueFacts.normalized(path)
            if engine.gates.mayHaveSecureFields, engine.namedValues.secureFields.contains(normalized) {
                return secureTextTaint("`\(path).\(name)`", at: range)
            }
            let last = normalized.split(separator: ".").last.map(String.init) ?? normalized
            if engine.gates.namesMaySecrets, SensitiveNaming.isSecretInputField(last) {
                let hit = SourceHit(kind: .sensitiveName, description: "`\(path).\(name)`, the text of a field named for a secret",
                                    range: range, confidence: SensitiveSources.nameSource.confidence)
                return Taint(origin: .source(hit))
            }
        }
        guard engine.gates.namesMaySecrets else { return nil }
        var type: String?
        if let root = base.accessPath, root == SensitiveSources.selfName, let ownerName { type = engine.propertyTypes[ownerName]?[name] }
        // A secret-named member of what a sign-in call returned is the credential the login issued: proven,
        // not a name alone (high confidence, so its rule's severity stands). One held by a value whose type is
        // named for authentication (`UserSession`) rests on names still. A token whose name reads as
        // bookkeeping (`syncToken`) in either is one too.
        let issuer = loginIssuer(of: base, state)
        if let kind = engine.sensitiveKind(of: name, type: type), issuer?.proven != true { return nameTaint(name, kind: kind, at: range) }
        guard let issuer, let kind = SensitiveNaming.kind(ofName: name, type: type, issuedByLogin: true) else { return nil }
        let hit = SourceHit(kind: SensitiveSources.nameSource.kind, description: "`\(name)` (\(kind.phrase) \(issuer.text))", range: range,
                            confidence: issuer.proven ? .high : SensitiveSources.nameSource.confidence)
        return Taint(origin: .source(hit))
    }

    /// Where `base` comes from when it is what a sign-in returned, for messages ("issued by the sign-in call
    /// `requestLoginConfirmation`", "held by an `AuthResponse`"): the call itself (`try await api.login(…).syncToken`),
    /// a local bound to it, or a local or parameter whose declared type is named for authentication.
    /// `proven`: the value is what a sign-in call returned (the call is in the code), not a value of a type
    /// whose name says authentication.
    func loginIssuer(of base: Expression, _ state: InterpreterState) -> (text: String, proven: Bool)? {
        if let call = SensitiveSources.loginCallName(base) { return ("issued by the sign-in call `\(call)`", true) }
        guard let root = base.rootName, base.accessPath == root else { return nil }
        if let call = state.loginResults[root] { return ("issued by the sign-in call `\(call)`", true) }
        if let type = state.types[root], SensitiveSources.isAuthenticationType(type) {
            return ("held by \(SensitiveSources.article(type)) `\(type.filter { !"?! ".contains($0) })`", false)
        }
        return nil
    }

    /// A dictionary key (a string literal or a constant's name) that names sensitive data: what is stored
    /// or read under it is.
    func keyTaint(_ key: Expression, at range: SourceRange) -> Taint? {
        let stripped = key.strippedOfCasts
        guard let name = stripped.stringValue ?? {
            if case .member = stripped.unwrapped.kind { return stripped.nameChain.last }
            return nil
        }(), let kind = engine.sensitiveKind(of: name, type: nil) else { return nil }
        return nameTaint(name, kind: kind, at: range)
    }

    /// Sensitive sources a call is besides the table's: a function named as returning a secret
    /// (`storedPassword()`), an encoder given a value whose type holds a secret property.
    func namedCallTaints(_ call: CallSite, _ state: InterpreterState) -> [Taint] {
        guard engine.gates.namesMaySecrets else { return [] }
        var result: [Taint] = []
        // `sensitiveKind(of:type:)` remembers the name's answer (calls repeat); only a sensitive name is asked further.
        if call.callee.name?.first?.isUppercase != true, engine.sensitiveKind(of: call.baseName, type: nil) != nil,
           let kind = SensitiveSources.callReturnsSecret(baseName: call.baseName, argumentCount: call.arguments.count) {
            result.append(nameTaint(call.baseName, kind: kind, at: call.expression.range))
        }
        if SensitiveSources.encoderNames.contains(call.baseName), let receiver = call.receiver,
           receiver.chainMentions(SensitiveSources.encoderReceivers), let value = call.arguments.first?.value,
           let (typeName, secret) = secretType(of: value, state) {
            let source = SensitiveSources.encodedSource
            let hit = SourceHit(kind: source.kind,
                                description: "a `\(typeName)` value encoded by \(call.name) (its property `\(secret.property)` is \(secret.kind.phrase))",
                                range: call.expression.range, confidence: source.confidence)
            result.append(Taint(origin: .source(hit)))
        }
        return result
    }

    /// Whether `base.name` reads a field of a value named as a secret rather than the secret's own text: the
    /// base's last name is sensitive, `name` is not, it is no representation of a string, data or key
    /// (`SensitiveNaming.isRepresentation`: `utf8`, `rawValue`, `description`, `rawRepresentation`), and the
    /// base is not declared as a string or data (whose members are its text).
    func isFieldOfNamedValue(_ base: Expression, _ name: String, _ state: InterpreterState) -> Bool {
        guard let last = base.nameChain.last, SensitiveNaming.mayBeSensitive(last), !SensitiveNaming.isRepresentation(name),
              SensitiveNaming.kind(ofName: name) == nil else { return false }
        var type: String?
        if let root = base.rootName, base.accessPath == root {
            type = state.types[root] ?? ownerName.flatMap { engine.propertyTypes[$0]?[root] }
        }
        if let type, SensitiveNaming.isTextType(type) { return false }
        return engine.sensitiveKind(of: last, type: type) != nil
    }

    /// Whether `base.name` reads a stored property of a struct or class of this file that is not a secret:
    /// not named as one (the caller asked), not of a type of the file that holds one, not computed (a
    /// computed `authorizationHeader` may return the token). The base's type is its declared or inferred
    /// type (a local, a parameter, a property of the enclosing type).
    func isOtherField(of base: Expression, _ name: String, _ state: InterpreterState) -> Bool {
        let stored = engine.namedValues.storedProperties
        guard !stored.isEmpty, SensitiveNaming.kind(ofName: name) == nil else { return false }
        var type: String?
        if let root = base.rootName, base.accessPath == root {
            type = state.types[root] ?? ownerName.flatMap { engine.propertyTypes[$0]?[root] }
        } else if let path = base.accessPath, path.hasPrefix("self."), let ownerName, !path.dropFirst(5).contains(".") {
            type = engine.propertyTypes[ownerName]?[String(path.dropFirst(5))]
        }
        guard let declared = type, let properties = stored[NamedValueFacts.coreType(declared)], let property = properties[name] else { return false }
        if let propertyType = property, engine.namedValues.secretTypes[NamedValueFacts.coreType(propertyType)] != nil { return false }
        return true
    }

    /// The file's type with a secret property that `value` has: a local or property declared or built
    /// with it, an array of it, or a call of its initializer.
    func secretType(of value: Expression, _ state: InterpreterState) -> (String, (property: String, kind: SensitiveDataKind))? {
        let secretTypes = engine.namedValues.secretTypes
        guard !secretTypes.isEmpty else { return nil }
        var type: String?
        if case .call(let callee, _, _) = value.unwrapped.kind, case .identifier(let name) = callee.unwrapped.kind { type = name }
        if type == nil, let root = value.rootName, value.accessPath == root {
            type = state.types[root] ?? ownerName.flatMap { engine.propertyTypes[$0]?[root] }
        }
        if type == nil, let path = value.accessPath, path.hasPrefix("self."), let ownerName {
            type = engine.propertyTypes[ownerName]?[String(path.dropFirst(5))]
        }
        guard let declared = type else { return nil }
        let core = declared.filter { !"?![] ".contains($0) }
        guard let secret = secretTypes[core] else { return nil }
        return (core, secret)
    }
}

extension TaintEngine {
    /// `SensitiveNaming.kind(ofName:type:)`, remembered per name and type.
    func sensitiveKind(of name: String, type: String?) -> SensitiveDataKind? {
        // A value of an enum of the file (`var availableSecrets: AvailableSecrets`) is a case, not a secret.
        if let type, !namedValues.enumTypes.isEmpty, namedValues.enumTypes.contains(NamedValueFacts.coreType(type)) { return nil }
        let candidate: Bool
        if let known = sensitiveCandidates[name] {
            candidate = known
        } else {
            candidate = SensitiveNaming.mayBeSensitive(name)
            sensitiveCandidates[name] = candidate
        }
        guard candidate else { return nil }
        let key = type.map { name + ":" + $0 } ?? name
        if let cached = sensitiveNames[key] { return cached }
        let kind = SensitiveNaming.kind(ofName: name, type: type)
        sensitiveNames[key] = kind
        return kind
    }
}
