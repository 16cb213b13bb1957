import MoatCore
import MoatSyntax

/// A TLS minimum (or maximum) protocol version below TLS 1.2 set in code: `tlsMinimumSupportedProtocol`,
/// `tlsMinimumSupportedProtocolVersion`, `sec_protocol_options_set_tls_min_version`,
/// `sec_protocol_options_set_min_tls_protocol_version`, and the maximum counterparts; the version written
/// there or kept in a constant (a local, a global, a `static let`, a function's return, a parameter, a
/// constant of another file: `ConstantResolver`), reported at the assignment with the way to the constant.
/// Stream and socket levels set by key (`NSStreamSocketSecurityLevelKey`, `kCFStreamSSLLevel`,
/// `GCDAsyncSocketSSLProtocolVersionMin`) are judged the same way, at the value.
public struct WeakTLSVersionRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-NET-208", slug: "tls-version-below-1-2",
        title: "TLS version below 1.2 allowed",
        severity: .medium, confidence: .high, evidence: .configuration, cwe: [326, 327],
        masvs: ["MASVS-NETWORK-1"], mastg: ["MASTG-TEST-0066"],
        rationale: "TLS 1.0 and 1.1 (and SSL 3) use deprecated constructions (CBC with implicit IVs, SHA-1 and MD5 in the handshake) and are disabled by App Transport Security and by current servers. Allowing them lets a network attacker downgrade the connection to a version with known attacks.",
        fix: "Set the minimum to TLS 1.2 (`.TLSv12`) or TLS 1.3 (`.TLSv13`), or leave the system default.",
        references: ["https://developer.apple.com/documentation/foundation/urlsessionconfiguration/3709176-tlsminimumsupportedprotocolversi",
                     "https://mas.owasp.org/MASTG/tests/ios/MASVS-NETWORK/MASTG-TEST-0066/"],
        examples: [
            .triggering("Session.swift", """
            func makeSession() -> URLSession {
                let configuration = URLSessionConfiguration.default
                ↓configuration.tlsMinimumSupportedProtocolVersion = .TLSv10
                ↓configuration.tlsMinimumSupportedProtocol = .tlsProtocol11
                let options = NWProtocolTLS.Options()
                ↓sec_protocol_options_set_min_tls_protocol_version(options.securityProtocolOptions, .TLSv11)
                return URLSession(configuration: configuration)
            }
            """),
            .triggering("Session.m", """
            - (NSURLSession *)makeSession {
                NSURLSessionConfiguration *configuration = [NSURLSessionConfiguration defaultSessionConfiguration];
                ↓configuration.TLSMinimumSupportedProtocol = kTLSProtocol1;
                ↓[configuration setTLSMinimumSupportedProtocolVersion:tls_protocol_version_TLSv11];
                return [NSURLSession sessionWithConfiguration:configuration];
            }
            """),
            .triggering("Session.swift", """
            enum TLSSettings {
                static let minimum = tls_protocol_version_t.TLSv10
            }
            func legacyProtocol() -> SSLProtocol { .tlsProtocol1 }
            func makeSession(maximum: SSLProtocol) -> URLSession {
                let configuration = URLSessionConfiguration.ephemeral
                ↓configuration.tlsMinimumSupportedProtocolVersion = TLSSettings.minimum
                ↓configuration.tlsMinimumSupportedProtocol = legacyProtocol()
                ↓configuration.tlsMaximumSupportedProtocol = maximum
                let options = NWProtocolTLS.Options()
                ↓sec_protocol_options_set_min_tls_protocol_version(options.securityProtocolOptions, TLSSettings.minimum)
                return URLSession(configuration: configuration)
            }
            let legacy = makeSession(maximum: .tlsProtocol11)
            """, note: "Versions kept in a static let, returned by a function, passed as an argument."),
            RuleExample(files: [
                ExampleFile(name: "NetworkPolicy.swift", content: """
                enum NetworkPolicy {
                    static let oldestTLS: tls_protocol_version_t = .TLSv11
                }
                """),
                ExampleFile(name: "Session.swift", content: """
                func makeSession() -> URLSession {
                    let configuration = URLSessionConfiguration.default
                    ↓configuration.tlsMinimumSupportedProtocolVersion = NetworkPolicy.oldestTLS
                    return URLSession(configuration: configuration)
                }
                """),
            ], triggers: true, note: "A version kept in a constant of another file."),
            .triggering("Session.m", """
            static const SSLProtocol kMinimumProtocol = kTLSProtocol1;
            - (NSURLSession *)makeSession {
                NSURLSessionConfiguration *configuration = [NSURLSessionConfiguration defaultSessionConfiguration];
                ↓configuration.TLSMinimumSupportedProtocol = kMinimumProtocol;
                return [NSURLSession sessionWithConfiguration:configuration];
            }
            """),
            RuleExample(files: [
                ExampleFile(name: "NetworkPolicy.swift", content: """
                enum NetworkPolicy {
                    static let oldestTLS: tls_protocol_version_t = .TLSv12
                    static func legacyProtocol() -> SSLProtocol { .tlsProtocol12 }
                }
                """),
                ExampleFile(name: "Session.swift", content: """
                enum TLSSettings {
                    static let minimum = tls_protocol_version_t.TLSv12
                }
                func makeSession(maximum: tls_protocol_version_t) -> URLSession {
                    let configuration = URLSessionConfiguration.default
                    configuration.tlsMinimumSupportedProtocolVersion = NetworkPolicy.oldestTLS
                    configuration.tlsMinimumSupportedProtocolVersion = TLSSettings.minimum
                    configuration.tlsMinimumSupportedProtocol = NetworkPolicy.legacyProtocol()
                    configuration.tlsMaximumSupportedProtocolVersion = maximum
                    return URLSession(configuration: configuration)
                }
                let modern = makeSession(maximum: .TLSv13)
                """),
            ], triggers: false, note: "TLS 1.2 and 1.3 kept in constants, here and in another file."),
            RuleExample(files: [
                ExampleFile(name: "SessionFactory.swift", content: """
                enum SessionFactory {
                    static func make(minimum: tls_protocol_version_t) -> URLSession {
                        let configuration = URLSessionConfiguration.default
                        configuration.tlsMinimumSupportedProtocolVersion = minimum
                        return URLSession(configuration: configuration)
                    }
                }
                """),
                ExampleFile(name: "LegacyClient.swift", content: """
                final class LegacyClient {
                    let session = ↓SessionFactory.make(minimum: .TLSv10)
                }
                """),
            ], triggers: true, note: "A weak version passed to a function of another file that sets it: reported at the call."),
            RuleExample(files: [
                ExampleFile(name: "SessionFactory.swift", content: """
                enum SessionFactory {
                    static func make(minimum: tls_protocol_version_t) -> URLSession {
                        let configuration = URLSessionConfiguration.default
                        configuration.tlsMinimumSupportedProtocolVersion = minimum
                        return URLSession(configuration: configuration)
                    }
                }
                """),
                ExampleFile(name: "Client.swift", content: """
                final class Client {
                    let session = SessionFactory.make(minimum: .TLSv12)
                }
                """),
            ], triggers: false, note: "TLS 1.2 passed to the function of another file."),
            .triggering("Session.m", """
            #define kLegacyProtocol kTLSProtocol1
            - (NSURLSession *)makeSession {
                NSURLSessionConfiguration *configuration = [NSURLSessionConfiguration defaultSessionConfiguration];
                ↓configuration.TLSMinimumSupportedProtocol = kLegacyProtocol;
                return [NSURLSession sessionWithConfiguration:configuration];
            }
            """, note: "A version in a `#define`."),
            RuleExample(files: [
                ExampleFile(name: "SessionFactory.swift", content: """
                struct SessionFactory {
                    func make(timeout: TimeInterval = 30, minimum: tls_protocol_version_t = .TLSv11) -> URLSession {
                        let configuration = URLSessionConfiguration.default
                        configuration.timeoutIntervalForRequest = timeout
                        ↓configuration.tlsMinimumSupportedProtocolVersion = minimum
                        return URLSession(configuration: configuration)
                    }
                }
                """),
                ExampleFile(name: "Client.swift", content: """
                final class Client {
                    let session = SessionFactory().make(timeout: 10)
                }
                """),
            ], triggers: true, note: "A weak version as a parameter's default value: what every call that leaves the argument out gets, reported where it is set."),
            .triggering("Streams.swift", """
            func openStreams(host: String) {
                var input: InputStream?
                var output: OutputStream?
                Stream.getStreamsToHost(withName: host, port: 443, inputStream: &input, outputStream: &output)
                input?.setProperty(↓StreamSocketSecurityLevel.tlSv1, forKey: .socketSecurityLevelKey)
                let ssl: [String: Any] = [kCFStreamSSLLevel as String: ↓kCFStreamSocketSecurityLevelSSLv3]
                output?.setProperty(ssl, forKey: Stream.PropertyKey(kCFStreamPropertySSLSettings as String))
            }
            """, note: "A stream's socket security level and an SSL settings dictionary's level naming TLS 1.0 or SSL 3."),
            .triggering("Socket.m", """
            - (void)socket:(GCDAsyncSocket *)socket didConnectToHost:(NSString *)host port:(uint16_t)port {
                [socket startTLS:@{ GCDAsyncSocketSSLProtocolVersionMin: ↓@(kTLSProtocol1),
                                    GCDAsyncSocketManuallyEvaluateTrust: @NO }];
                CFReadStreamSetProperty(self.readStream, kCFStreamPropertySocketSecurityLevel, ↓kCFStreamSocketSecurityLevelTLSv1);
            }
            """),
            .nonTriggering("Streams.swift", """
            func secure(_ input: InputStream, _ socket: GCDAsyncSocket) {
                input.setProperty(StreamSocketSecurityLevel.negotiatedSSL, forKey: .socketSecurityLevelKey)
                socket.startTLS([GCDAsyncSocketSSLProtocolVersionMin: NSNumber(value: SSLProtocol.tlsProtocol12.rawValue)])
            }
            struct SessionFactory {
                func make(minimum: tls_protocol_version_t = .TLSv12) -> URLSession {
                    let configuration = URLSessionConfiguration.default
                    configuration.tlsMinimumSupportedProtocolVersion = minimum
                    return URLSession(configuration: configuration)
                }
            }
            let session = SessionFactory().make()
            """, note: "The negotiated level, a TLS 1.2 minimum for the socket, TLS 1.2 as the default."),
            .nonTriggering("Session.swift", """
            func makeSession() -> URLSession {
                let configuration = URLSessionConfiguration.default
                configuration.tlsMinimumSupportedProtocolVersion = .TLSv12
                let options = NWProtocolTLS.Options()
                sec_protocol_options_set_min_tls_protocol_version(options.securityProtocolOptions, .TLSv13)
                return URLSession(configuration: configuration)
            }
            """),
        ])

    public init() {}

    static let weakValues = ConstantTables.weakTLSVersions

    /// The settings that bound the TLS version (`APIs+TLS.swift`): properties, and C functions whose last
    /// argument is the version.
    static let properties = APIs.tlsVersionProperties
    static let functions = APIs.tlsVersionFunctions

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        let linked = unit.context?.constantSinks.contains { $0.role == ParameterSink.tlsRole } == true
            ? unit.constants.linkedCalls().filter { $0.sink.role == ParameterSink.tlsRole } : []
        let namesLevel = unit.names.containsAny(Self.levelKeys)
        guard unit.names.mayWriteProperty(Self.properties) || unit.names.containsAny(Self.functions) || !linked.isEmpty || namesLevel else { return }
        if namesLevel { checkStreamLevels(unit, &sink) }
        for write in file.propertyWrites(named: Self.properties) {
            guard let (weak, related) = Self.weakValue(write.value, write.context, unit, api: write.property, at: write.range) else { continue }
            sink.report("`\(write.property)` is set to `\(weak)`, below TLS 1.2: a network attacker can downgrade the connection. Use TLS 1.2 or later.",
                        in: file, at: write.range, related: related)
        }
        file.forEachExpression { call, context in
            guard case .call(let callee, let arguments, false) = call.kind, case .identifier(let name) = callee.unwrapped.kind,
                  Self.functions.contains(name), let value = arguments.last?.value,
                  let (weak, related) = Self.weakValue(value, context, unit, api: name, at: value.range) else { return }
            sink.report("`\(name)` allows `\(weak)`, below TLS 1.2: a network attacker can downgrade the connection. Use TLS 1.2 or later.",
                        in: file, at: call.range, related: related)
        }
        // A weak version passed to a parameter of another file's function that sets it.
        for call in linked {
            guard let (weak, related) = Self.weakValue(call.argument, call.context, unit, api: nil, at: nil) else { continue }
            sink.report("`\(weak)` is passed to \(call.sink.functionDescription), which sets `\(call.sink.api)` with it, below TLS 1.2: a network attacker can downgrade the connection. Use TLS 1.2 or later.",
                        in: file, at: call.call.range, related: call.sink.related + related)
        }
    }

    static let levelKeys = APIs.streamTLSLevelKeys

    /// Protocol levels set by key: a stream's socket security level (`setProperty(_:forKey:)`,
    /// `CFReadStreamSetProperty`), an SSL settings dictionary's `kCFStreamSSLLevel`, CocoaAsyncSocket's
    /// `GCDAsyncSocketSSLProtocolVersionMin` (a boxed `SSLProtocol`): in a dictionary literal, a subscript
    /// write or a property set, reported at the value.
    func checkStreamLevels(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        var reported = Set<Int>()
        func judge(key: Expression, value: Expression, _ context: WalkContext) {
            guard let keyName = DictionaryEntries.keyName(key), Self.levelKeys.contains(keyName),
                  reported.insert(value.range.start.offset).inserted,
                  let (weak, related) = Self.weakValue(Self.unboxed(value), context, unit, api: nil, at: nil) else { return }
            sink.report("`\(keyName)` is set to `\(weak)`, below TLS 1.2: a network attacker can downgrade the connection. Use TLS 1.2 or later.",
                        in: file, at: value.range, related: related)
        }
        file.forEachExpression { expression, context in
            switch expression.kind {
            case .dictionaryLiteral(let pairs):
                for pair in pairs { judge(key: pair.key, value: pair.value, context) }
            case .call(let callee, let arguments, _):
                guard let name = callee.name, APIs.streamSetProperty ~= name else { return }
                // `setProperty(value, forKey: key)`; `CFReadStreamSetProperty(stream, key, value)`.
                let isFunction = APIs.streamSetProperty.cFunctions.contains(name)
                guard arguments.count == (isFunction ? 3 : 2) else { return }
                let (key, value) = isFunction ? (arguments[1].value, arguments[2].value) : (arguments[1].value, arguments[0].value)
                judge(key: key, value: value, context)
            default:
                return
            }
        }
        file.forEachStatement { statement, context in
            // `settings[kCFStreamSSLLevel] = kCFStreamSocketSecurityLevelTLSv1`
            guard case .assignment(let target, "=", let value) = statement.kind,
                  case .subscriptAccess(_, let index) = target.unwrapped.kind, index.count == 1 else { return }
            judge(key: index[0].value, value: value, context)
        }
    }

    /// A version boxed as a number (`NSNumber(value: SSLProtocol.tlsProtocol1.rawValue)`,
    /// `@(kTLSProtocol1)`, `Int(kTLSProtocol1.rawValue)`): the version.
    static func unboxed(_ value: Expression) -> Expression {
        let bare = value.strippedOfCasts
        switch bare.kind {
        case .member(let base?, "rawValue"): return unboxed(base)
        case .call(let callee, let arguments, false) where arguments.count == 1:
            guard let name = callee.name, name.first?.isUppercase == true || name == "init" else { return bare }
            return unboxed(arguments[0].value)
        default: return bare
        }
    }

    /// The weak version a value is, written at the use or kept in a constant (a local, a global, a
    /// `static let`, a function's return, a parameter, a constant of another file), with the way to it.
    /// A parameter of a function other files may call is noted as a `ParameterSink` of `api` used `at`.
    static func weakValue(_ value: Expression, _ context: WalkContext, _ unit: SourceUnit, api: String?, at use: SourceRange?) -> (String, [RelatedLocation])? {
        if let weak = weakName(value) { return (weak, []) }
        for origin in unit.constants.origins(of: value, in: context) {
            if origin.parameter != nil {
                if let api, let use { unit.constants.noteParameterSink(origin, role: ParameterSink.tlsRole, api: api, at: use) }
                continue
            }
            let weak: String?
            var related = origin.steps.map { RelatedLocation(location: $0.location, message: $0.message) }
            if let external = origin.external {
                guard case .symbol(let name) = external.value, weakValues.contains(name) else { continue }
                weak = name
                related.append(RelatedLocation(location: external.location.asLocation, message: "`\(name)` is written here"))
            } else {
                weak = origin.value.flatMap(weakName)
            }
            if let weak { return (weak, related) }
        }
        return nil
    }

    static func weakName(_ value: Expression) -> String? {
        switch value.strippedOfCasts.kind {
        case .identifier(let name) where weakValues.contains(name): return name
        case .member(_, let name) where weakValues.contains(name): return name
        default: return nil
        }
    }
}
