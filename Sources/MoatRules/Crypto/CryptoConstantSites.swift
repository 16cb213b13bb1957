import MoatCore
import MoatSyntax

/// Where a crypto API receives a key, password, IV, nonce or salt, and the literal it is made of when it
/// is one: written at the call, or kept in a local, a global, a `let` or `static let` property, a
/// function's return, a parameter (each call of the function in the file), or a constant of another file
/// (`ConstantResolver`). Shared by MOAT-CRYP-202 (keys, passwords, stored secrets) and MOAT-CRYP-204
/// (IVs, nonces, salts).
enum CryptoConstantSites {
    enum Role: String {
        case key, password, storedSecret = "stored secret", iv = "IV", nonce, salt

        /// Whether MOAT-CRYP-202 (a secret) or MOAT-CRYP-204 (a value that must be unique) reports it.
        var isSecret: Bool { self == .key || self == .password || self == .storedSecret }
    }

    struct Site {
        /// The literal, when it is in this file.
        var literal: Expression?
        /// The constant of another file it comes from.
        var external: ExportedConstant?
        /// The argument at the API.
        var use: Expression
        var api: String
        var role: Role
        /// The literal's text ("…" for bytes).
        var value: String
        /// The way from the use to the literal, nearest first.
        var steps: [ConstantResolver.Step]
        /// The parameter of another file's function the literal is passed to (`use` is then the argument
        /// at the call, `api` the sink in that function).
        var via: ParameterSink?
        /// The call that passes it (with `via`).
        var call: Expression?

        /// The finding's subject: what the literal is, where it goes.
        var subject: String {
            switch (via, external) {
            case (let via?, let external?):
                return "A literal written in \(external.location.shortDescription) is passed to \(via.functionDescription), which uses it as the \(role.rawValue) of `\(api)`"
            case (let via?, nil):
                return "A literal is passed to \(via.functionDescription), which uses it as the \(role.rawValue) of `\(api)`"
            case (nil, let external?):
                return "The \(role.rawValue) of `\(api)` is a literal written in \(external.location.shortDescription)"
            case (nil, nil):
                return "A literal is used as the \(role.rawValue) of `\(api)`"
            }
        }
    }

    /// The names the sites are found by (calls by base name, Objective-C selectors by their first part,
    /// RNCryptor by its class and initializers — `encrypt` alone is too common —, Realm's key by its
    /// property; the keychain's `kSecValueData` is checked apart), from the vocabulary (`APIs+Crypto.swift`).
    static let requiredNames: Set<String> = {
        let calls: [API] = [APIs.commonCryptoCipher, APIs.commonCryptoCipherWithMode, APIs.commonCryptoHMAC, APIs.commonCryptoPBKDF,
                            APIs.secKeyCreateWithData, APIs.cryptoKitSymmetricKey, APIs.cryptoKitNonce, APIs.cryptoSwiftKeyed,
                            APIs.cryptoSwiftKeyDerivation, APIs.cryptoSwiftBlockModes]
        let rnCryptor = APIs.rnCryptorPassword
        return calls.swiftBaseNames.union(calls.cFunctions).union(rnCryptor.selectorHeads).union(rnCryptor.classes.prefix(1))
            .union(rnCryptor.swiftBaseNames.filter { $0.first?.isUppercase == true })
            .union(APIs.realmEncryptionKey.swift).union(APIs.realmEncryptionKey.selectorHeads)
    }()
    /// CryptoSwift block modes that take an IV (`CBC(iv:)`).
    static let blockModes = Set(APIs.cryptoSwiftBlockModes.swiftBaseNames)

    static func isRelevant(_ unit: SourceUnit) -> Bool {
        unit.names.containsAny(requiredNames) || unit.names.containsAnywhere(["kSecValueData"])
            || unit.context?.constantSinks.contains { Role(rawValue: $0.role) != nil } == true
    }

    /// Every constant used as a key, password, IV, nonce or salt in the file (one site per literal).
    static func sites(in unit: SourceUnit) -> [Site] {
        let file = unit.code
        var result: [Site] = []
        var seen = Set<ObjectIdentifier>()
        var seenExternal = Set<String>()
        func add(_ argument: Expression, _ api: String, _ role: Role, _ context: WalkContext, via: LinkedCall? = nil) {
            for var site in constantSites(argument, api, role, context, unit, exportsParameters: via == nil) {
                site.via = via?.sink
                site.call = via?.call
                if let literal = site.literal {
                    guard seen.insert(ObjectIdentifier(literal)).inserted else { continue }
                } else {
                    let key = "\(site.use.range.start.offset)|\(site.external?.location.shortDescription ?? "")"
                    guard seenExternal.insert(key).inserted else { continue }
                }
                result.append(site)
            }
        }
        file.forEachExpression { expression, context in
            switch expression.kind {
            case .call(let callee, let arguments, let isMessageSend):
                guard let name = callee.name else { return }
                func labeled(_ label: String) -> Expression? { arguments.first { $0.label == label }?.value }
                func positional(_ index: Int) -> Expression? { index < arguments.count ? arguments[index].value : nil }
                if isMessageSend {
                    if APIs.rnCryptorPassword.selectorHeads.contains(where: { name.hasPrefix($0 + ":") }), let password = labeled("password") {
                        add(password, name, .password, context)
                    }
                    if APIs.realmEncryptionKey.selectors.contains(name), let key = positional(0) { add(key, "Realm encryptionKey", .key, context) }
                    return
                }
                switch name {
                case APIs.cryptoKitSymmetricKey: if let data = labeled("data") { add(data, APIs.cryptoKitSymmetricKey.name, .key, context) }
                case APIs.cryptoKitNonce:
                    if let data = labeled("data"), callee.nameChain.contains("GCM") || callee.nameChain.contains("ChaChaPoly") {
                        add(data, "\(callee.nameChain.joined(separator: "."))(data:)", .nonce, context)
                    }
                case APIs.commonCryptoCipher:
                    if let key = positional(3) { add(key, name, .key, context) }
                    if let iv = positional(5) { add(iv, name, .iv, context) }
                case APIs.commonCryptoCipherWithMode:
                    if let iv = positional(4) { add(iv, name, .iv, context) }
                    if let key = positional(5) { add(key, name, .key, context) }
                case APIs.commonCryptoHMAC:
                    // CCHmac(alg, key, …); CCHmacInit(context, alg, key, …).
                    let keyPosition = name == APIs.commonCryptoHMAC.cFunctions[1] ? 2 : 1
                    if let key = positional(keyPosition) { add(key, name, .key, context) }
                case APIs.commonCryptoPBKDF:
                    if let password = positional(1) { add(password, name, .password, context) }
                    if let salt = positional(3) { add(salt, name, .salt, context) }
                case APIs.cryptoSwiftKeyed:
                    if let key = labeled("key") { add(key, "\(name)(key:)", .key, context) }
                    if let iv = labeled("iv") { add(iv, "\(name)(key:iv:)", .iv, context) }
                case APIs.cryptoSwiftKeyDerivation:
                    if let password = labeled("password") { add(password, "\(name)(password:)", .password, context) }
                    if let salt = labeled("salt"), name != "HKDF" { add(salt, "\(name)(password:salt:)", .salt, context) }
                case _ where blockModes.contains(name):
                    if let iv = labeled("iv") { add(iv, "\(name)(iv:)", .iv, context) }
                case APIs.rnCryptorPassword:
                    let password = labeled("withPassword") ?? labeled("password")
                    if let password, callee.nameChain.contains("RNCryptor") || name == "Encryptor" || name == "Decryptor" {
                        add(password, "RNCryptor", .password, context)
                    }
                case APIs.realmConfiguration:
                    if let key = labeled("encryptionKey"), callee.nameChain.contains("Realm") || unit.names.contains("Realm") {
                        add(key, "Realm.Configuration(encryptionKey:)", .key, context)
                    }
                case APIs.secKeyCreateWithData:
                    // A private or symmetric key; a public key in the source is normal (signature checks, pinning).
                    if let key = positional(0), let attributes = positional(1), isPrivateKey(attributes, context, unit) {
                        add(key, name, .key, context)
                    }
                default:
                    break
                }
            case .dictionaryLiteral(let pairs):
                for pair in pairs where DictionaryEntries.keyName(pair.key) == "kSecValueData" {
                    add(pair.value, "the keychain (kSecValueData)", .storedSecret, context)
                }
            default:
                break
            }
        }
        if unit.names.containsAny(APIs.realmEncryptionKey.swift) && unit.names.contains("Realm") {
            for write in file.propertyWrites(named: Set(APIs.realmEncryptionKey.swift)) {
                add(write.value, "Realm encryptionKey", .key, write.context)
            }
        }
        // Literals passed to a parameter of another file's function that reaches one of these APIs.
        for linked in unit.constants.linkedCalls() {
            guard let role = Role(rawValue: linked.sink.role) else { continue }
            add(linked.argument, linked.sink.api, role, linked.context, via: linked)
        }
        return result
    }

    /// Whether `SecKeyCreateWithData`'s attributes say the key is private (or symmetric).
    static func isPrivateKey(_ attributes: Expression, _ context: WalkContext, _ unit: SourceUnit) -> Bool {
        for origin in unit.constants.origins(of: attributes, in: context) {
            guard let value = origin.value else { continue }
            if value.descendants().contains(where: {
                if case .identifier(let name) = $0.kind { return name == "kSecAttrKeyClassPrivate" || name == "kSecAttrKeyClassSymmetric" }
                return false
            }) { return true }
        }
        return false
    }

    /// The literals an argument is made of, with the way to each: names are followed by the resolver,
    /// byte conversions (`Data(x)`, `x.utf8`, `x.data(using:)`) are looked through.
    /// A parameter the argument is (of a function other files may call) is noted as a `ParameterSink`
    /// when `exportsParameters`.
    static func constantSites(_ argument: Expression, _ api: String, _ role: Role, _ context: WalkContext, _ unit: SourceUnit,
                              exportsParameters: Bool = true) -> [Site] {
        var sites: [Site] = []
        let cFamily = unit.code.language.isCFamily
        func collect(_ expression: Expression, _ context: WalkContext, _ steps: [ConstantResolver.Step], depth: Int) {
            guard depth < 6 else { return }
            for origin in unit.constants.origins(of: expression, in: context) {
                let steps = steps + origin.steps
                if origin.parameter != nil {
                    if exportsParameters {
                        var full = origin
                        full.steps = steps
                        unit.constants.noteParameterSink(full, role: role.rawValue, api: api, at: argument.range)
                    }
                    continue
                }
                if let external = origin.external {
                    switch external.value {
                    case .text(let text) where !SecretNaming.isPlaceholder(text):
                        sites.append(Site(external: external, use: argument, api: api, role: role, value: text, steps: steps))
                    case .bytes:
                        sites.append(Site(external: external, use: argument, api: api, role: role, value: "…", steps: steps))
                    default:
                        break
                    }
                    continue
                }
                guard let value = origin.value else { continue }
                if let (constant, literal) = ConstantValue.of(value, symbols: [], cFamily: cFamily) {
                    switch constant {
                    case .text(let text):
                        guard !SecretNaming.isPlaceholder(text) else { continue }
                        sites.append(Site(literal: literal, use: argument, api: api, role: role, value: text, steps: steps))
                    case .bytes:
                        // A zero-filled buffer stored in the keychain is a placeholder item, not a secret.
                        if role == .storedSecret, case .call = literal.kind { continue }
                        sites.append(Site(literal: literal, use: argument, api: api, role: role, value: "…", steps: steps))
                    case .symbol:
                        break
                    }
                } else if let operand = ConstantValue.conversionOperand(value) {
                    collect(operand, origin.context, steps, depth: depth + 1)
                }
            }
        }
        collect(argument, context, [], depth: 0)
        return sites
    }

    /// Reports a site: at the literal when it is in this file, else at the use, with the way between them.
    static func report(_ site: Site, message: String, in file: CodeFile, _ sink: inout FindingSink) {
        var steps = site.steps.map { RelatedLocation(location: $0.location, message: $0.message) }
        if let via = site.via, let call = site.call {
            // The sink in the other file and the way to its parameter, then the call here and the way to the literal.
            steps = via.related + [FindingSink.related("passed to `\(via.function.fullName)` here", in: file, at: call.range)] + steps
            if let external = site.external {
                sink.report(message, in: file, at: site.use.range, related: steps + [RelatedLocation(location: external.location.asLocation, message: "the constant is written here")],
                            evidence: Redaction.redact(file.line(site.use.range.start.line).trimmed(of: " \t"), masking: [site.value]))
            } else if let literal = site.literal {
                sink.report(message, in: file, at: literal.range, related: steps,
                            evidence: Redaction.redact(file.line(literal.range.start.line).trimmed(of: " \t"), masking: [site.value]))
            }
            return
        }
        if let external = site.external {
            let related = steps + [RelatedLocation(location: external.location.asLocation, message: "the constant is written here")]
            sink.report(message, in: file, at: site.use.range, related: related,
                        evidence: Redaction.redact(file.line(site.use.range.start.line).trimmed(of: " \t"), masking: [site.value]))
            return
        }
        guard let literal = site.literal else { return }
        let related = steps.isEmpty ? [] : [FindingSink.related("used as the \(site.role.rawValue) of `\(site.api)` here", in: file, at: site.use.range)] + steps
        sink.report(message, in: file, at: literal.range, related: related,
                    evidence: Redaction.redact(file.line(literal.range.start.line).trimmed(of: " \t"), masking: [site.value]))
    }
}
