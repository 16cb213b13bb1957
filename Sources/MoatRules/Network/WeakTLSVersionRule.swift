import MoatCore
import MoatSyntax

/// A TLS minimum (or maximum) protocol version below TLS 1.2 set in code: `tlsMinimumSupportedProtocol`,
/// `tlsMinimumSupportedProtocolVersion`, `sec_protocol_options_set_tls_min_version`,
/// `sec_protocol_options_set_min_tls_protocol_version`, and the maximum counterparts.
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

    static let weakValues: Set<String> = [
        "TLSv10", "TLSv11", "DTLSv10", "tlsProtocol1", "tlsProtocol11", "sslProtocol3", "sslProtocol2", "sslProtocolAll",
        "kTLSProtocol1", "kTLSProtocol11", "kSSLProtocol3", "kSSLProtocol2", "kSSLProtocolAll", "kDTLSProtocol1",
        "tls_protocol_version_TLSv10", "tls_protocol_version_TLSv11", "tls_protocol_version_DTLSv10",
    ]

    static let properties: Set<String> = ["tlsMinimumSupportedProtocol", "tlsMinimumSupportedProtocolVersion",
                                          "tlsMaximumSupportedProtocol", "tlsMaximumSupportedProtocolVersion",
                                          "TLSMinimumSupportedProtocol", "TLSMinimumSupportedProtocolVersion",
                                          "TLSMaximumSupportedProtocol", "TLSMaximumSupportedProtocolVersion"]
    static let functions: Set<String> = ["sec_protocol_options_set_tls_min_version", "sec_protocol_options_set_min_tls_protocol_version",
                                         "sec_protocol_options_set_tls_max_version", "sec_protocol_options_set_max_tls_protocol_version",
                                         "SSLSetProtocolVersionMin", "SSLSetProtocolVersionMax"]

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        guard unit.names.mayWriteProperty(Self.properties) || unit.names.containsAny(Self.functions) else { return }
        for write in file.propertyWrites(named: Self.properties) {
            guard let weak = Self.weakName(write.value) else { continue }
            sink.report("`\(write.property)` is set to `\(weak)`, below TLS 1.2: a network attacker can downgrade the connection. Use TLS 1.2 or later.",
                        in: file, at: write.range)
        }
        for (call, _) in file.calls(where: { call in
            guard case .call(let callee, _, false) = call.kind, case .identifier(let name) = callee.unwrapped.kind else { return false }
            return Self.functions.contains(name)
        }) {
            guard let value = call.arguments.last?.value, let weak = Self.weakName(value) else { continue }
            sink.report("`\(call.name ?? "sec_protocol_options")` allows `\(weak)`, below TLS 1.2: a network attacker can downgrade the connection. Use TLS 1.2 or later.",
                        in: file, at: call.range)
        }
    }

    static func weakName(_ value: Expression) -> String? {
        switch value.strippedOfCasts.kind {
        case .identifier(let name) where weakValues.contains(name): return name
        case .member(_, let name) where weakValues.contains(name): return name
        default: return nil
        }
    }
}
