/// The settings that bound the TLS versions a connection accepts (see `API`): MOAT-NET-208 judges the
/// version they are given.
extension APIs {
    /// `URLSessionConfiguration`'s bounds, as properties (Swift names; Objective-C names as `selectors`).
    public static let sessionTLSVersionBounds = API(
        "URLSessionConfiguration.tlsMinimumSupportedProtocolVersion", classes: ["URLSessionConfiguration", "NSURLSessionConfiguration"],
        swift: ["tlsMinimumSupportedProtocol", "tlsMinimumSupportedProtocolVersion", "tlsMaximumSupportedProtocol",
                "tlsMaximumSupportedProtocolVersion"],
        selectors: ["TLSMinimumSupportedProtocol", "TLSMinimumSupportedProtocolVersion", "TLSMaximumSupportedProtocol",
                    "TLSMaximumSupportedProtocolVersion"])

    /// Network framework's bounds on `sec_protocol_options_t` `(options, version)`.
    public static let secProtocolTLSVersionBounds = API(
        "sec_protocol_options_set_min_tls_protocol_version",
        cFunctions: ["sec_protocol_options_set_tls_min_version", "sec_protocol_options_set_min_tls_protocol_version",
                     "sec_protocol_options_set_tls_max_version", "sec_protocol_options_set_max_tls_protocol_version"])

    /// Secure Transport's bounds on an `SSLContext` `(context, version)`.
    public static let secureTransportVersionBounds = API("SSLSetProtocolVersionMin", cFunctions: ["SSLSetProtocolVersionMin", "SSLSetProtocolVersionMax"])

    /// Stream and socket settings that name the protocol level: a stream's socket security level
    /// (`Stream.PropertyKey.socketSecurityLevelKey`, `NSStreamSocketSecurityLevelKey`,
    /// `kCFStreamPropertySocketSecurityLevel`), the level key of an SSL settings dictionary
    /// (`kCFStreamSSLLevel`), and CocoaAsyncSocket's TLS bounds in `startTLS(_:)` settings.
    public static let streamTLSLevelKeys: Set<String> = [
        "socketSecurityLevelKey", "NSStreamSocketSecurityLevelKey", "kCFStreamPropertySocketSecurityLevel", "kCFStreamSSLLevel",
        "GCDAsyncSocketSSLProtocolVersionMin", "GCDAsyncSocketSSLProtocolVersionMax",
    ]
    /// Setting a stream property `(value, key)` / `(stream, key, value)`.
    public static let streamSetProperty = API(
        "Stream.setProperty(_:forKey:)", classes: ["Stream", "InputStream", "OutputStream", "NSStream"],
        swift: ["setProperty(_:forKey:)"], selectors: ["setProperty:forKey:"],
        cFunctions: ["CFReadStreamSetProperty", "CFWriteStreamSetProperty"])

    /// The property names of every bound set on an object.
    public static let tlsVersionProperties: Set<String> = Set(sessionTLSVersionBounds.swift + sessionTLSVersionBounds.selectors)
    /// The C functions that set a bound.
    public static let tlsVersionFunctions: Set<String> = [secProtocolTLSVersionBounds, secureTransportVersionBounds].cFunctions

    /// The APIs of this file, for `APIs.all`.
    static let tls: [API] = [sessionTLSVersionBounds, secProtocolTLSVersionBounds, secureTransportVersionBounds, streamSetProperty]
}
