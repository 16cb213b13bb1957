import MoatCore
import MoatFormats

public struct CleartextURLStringRule: BinaryRule {
    public static let description = RuleDescription(
        id: "MOAT-NET-401", slug: "cleartext-url-in-binary", title: "Cleartext http:// endpoint in a binary",
        severity: .low, confidence: .low, evidence: .configuration, cwe: [319],
        masvs: ["MASVS-NETWORK-1"], mastg: ["MASTG-TEST-0065"],
        rationale: "An `http://` URL among a binary's strings is an endpoint the code may contact without TLS, where anyone on the network can read and change the traffic. Whether it is used is not visible in the binary, so the app's App Transport Security settings decide how much it matters: when they allow cleartext to that host (`NSAllowsArbitraryLoads`, or an exception domain with `NSExceptionAllowsInsecureHTTPLoads`), a request would go out in clear (medium severity); when ATS blocks it, only code that bypasses ATS (sockets, Network.framework) could use it (low). XML namespaces and DTD identifiers (`http://www.w3.org/...`, `http://www.apple.com/DTDs/...`, `http://ns.adobe.com/...`), documentation domains (`example.com`), certificate revocation (OCSP, CRL) URLs, which carry signed data, and URLs whose host is a format placeholder are not endpoints and are skipped; local addresses (`localhost`, `127.0.0.1`, `.local`) are reported as info.",
        fix: "Use `https://` for the endpoint; remove App Transport Security exceptions that allow cleartext, and drop test URLs from release builds.",
        references: ["https://developer.apple.com/documentation/security/preventing-insecure-network-connections"],
        examples: [
            RuleExample(files: [
                ExampleFile(name: "Demo.app/Demo", content: """
                Mach-O executable arm64 swift
                string: ↓http://legacy-rates.example.net/v1/rates
                string: https://api.example.net/v2
                """),
                ExampleFile(name: "Demo.app/Info.plist", content: """
                <?xml version="1.0" encoding="UTF-8"?>
                <plist version="1.0">
                <dict>
                    <key>CFBundleExecutable</key>
                    <string>Demo</string>
                    <key>NSAppTransportSecurity</key>
                    <dict>
                        <key>NSExceptionDomains</key>
                        <dict>
                            <key>example.net</key>
                            <dict>
                                <key>NSIncludesSubdomains</key>
                                <true/>
                                <key>NSExceptionAllowsInsecureHTTPLoads</key>
                                <true/>
                            </dict>
                        </dict>
                    </dict>
                </dict>
                </plist>
                """),
            ], triggers: true, note: "ATS allows cleartext to the host: medium severity."),
            .triggering("Demo.app/Demo", """
            Mach-O executable arm64
            string: ↓http://tracker.example.net/collect?id=%@
            string: ↓http://localhost:8080/debug
            """, note: "ATS blocks cleartext by default: low severity; local addresses are info."),
            .nonTriggering("Demo.app/Demo", """
            Mach-O executable arm64
            string: http://www.apple.com/DTDs/PropertyList-1.0.dtd
            string: http://www.w3.org/2000/svg
            string: http://ns.adobe.com/xap/1.0/
            string: http://ocsp.apple.com/ocsp04-wwdr
            string: http://example.com/docs
            string: http://%@:%d/
            string: Visit https://help.example.net
            """),
        ])

    public init() {}

    /// Hosts whose URLs are identifiers, not endpoints.
    static let identifierHosts: Set<String> = [
        "www.w3.org", "w3.org", "ns.adobe.com", "purl.org", "xmlns.com", "schemas.xmlsoap.org", "schemas.microsoft.com",
        "schemas.openxmlformats.org", "schemas.android.com", "json-schema.org", "www.opengis.net", "relaxng.org",
        "exslt.org", "docs.oasis-open.org", "www.idpf.org", "xml.org", "www.xml.org", "ns.apple.com", "iptc.org",
        "www.iptc.org", "www.w3c.org", "xml.apache.org", "www.ietf.org", "tools.ietf.org",
    ]
    static let maximumPerBinary = 100

    public func check(_ binary: BinaryImage, _ sink: inout FindingSink) {
        var seen = Set<String>()
        let ats = binary.bundle?.hostInfoPlist.map(ATSPolicy.init)
        for string in binary.cStrings where string.hasPrefix("http://") {
            guard let url = Self.endpoint(in: string), seen.insert(url.text).inserted else { continue }
            guard seen.count <= Self.maximumPerBinary else { break }
            if url.isLocal {
                sink.report("\(binary.name) holds the cleartext URL \(url.text) to the local machine or network: make sure it is a development endpoint that is not reachable in release builds.",
                            in: binary, symbol: url.text, severity: .info, confidence: .low)
                continue
            }
            guard let ats else {
                sink.report("\(binary.name) holds the cleartext URL \(url.text): anything sent to it can be read and changed on the network. Use https://.",
                            in: binary, symbol: url.text)
                continue
            }
            switch ats.allowsCleartext(to: url.host) {
            case let reason?:
                sink.report("\(binary.name) holds the cleartext URL \(url.text), and the app's App Transport Security settings allow cleartext HTTP to \(url.host) (\(reason)): requests to it can be read and changed on the network.",
                            in: binary, symbol: url.text, severity: .medium, confidence: .medium)
            case nil:
                sink.report("\(binary.name) holds the cleartext URL \(url.text); App Transport Security blocks cleartext to \(url.host) for URLSession and web views, so it is dead, a fallback, or used by code that bypasses ATS (sockets, Network.framework). Use https://.",
                            in: binary, symbol: url.text)
            }
        }
    }

    struct Endpoint {
        var text: String
        var host: String
        var isLocal: Bool
    }

    /// The URL at the start of a string, when its host is a literal name (not a placeholder) and it is
    /// not an identifier, a documentation example or a revocation service.
    static func endpoint(in string: String) -> Endpoint? {
        let scalars = string.unicodeScalars
        var end = scalars.startIndex
        while end < scalars.endIndex, !CharacterSetting.endsURL(scalars[end]) { end = scalars.index(after: end) }
        let text = String(String.UnicodeScalarView(scalars[scalars.startIndex..<end]))
        let rest = text.dropFirst("http://".count)
        guard !rest.isEmpty else { return nil }
        var hostPart = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = hostPart.lastIndex(of: "@") { hostPart = hostPart[hostPart.index(after: at)...] }
        var host: Substring
        if hostPart.hasPrefix("[") {
            host = hostPart.prefix { $0 != "]" }.dropFirst()
        } else {
            host = hostPart.prefix { $0 != ":" }
        }
        host = Substring(host.lowercased())
        guard !host.isEmpty, host.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == ":" }),
              host.contains(".") || host == "localhost" || host.contains(":") else { return nil }
        let hostName = String(host)
        let path = rest.dropFirst(hostPart.count)
        if identifierHosts.contains(hostName) { return nil }
        if hostName.hasSuffix("apple.com") && path.hasPrefix("/DTDs/") { return nil }
        if ["example.com", "example.org", "example.net"].contains(hostName) || hostName.hasSuffix(".example") { return nil }
        if hostName.hasPrefix("ocsp.") || hostName.hasPrefix("crl.") || hostName.hasPrefix("crl3.") || hostName.hasPrefix("crl4.")
            || path.hasSuffix(".crl") || path.hasSuffix(".crt") || path.hasSuffix(".cer") {
            return nil
        }
        let isLocal = hostName == "localhost" || hostName.hasPrefix("127.") || hostName == "0.0.0.0" || hostName == "::1"
            || hostName.hasSuffix(".local") || hostName.hasSuffix(".localhost")
        return Endpoint(text: String(text.prefix(200)), host: hostName, isLocal: isLocal)
    }

    enum CharacterSetting {
        static func endsURL(_ scalar: Unicode.Scalar) -> Bool {
            scalar.value <= 0x20 || scalar == "\"" || scalar == "'" || scalar == "<" || scalar == ">" || scalar == "\\"
                || scalar == "`" || scalar.value == 0x7f
        }
    }
}

/// What an Info.plist's App Transport Security dictionary allows for cleartext HTTP, as URLSession
/// applies it: a domain's exception wins over the global setting.
struct ATSPolicy {
    let arbitraryLoads: Bool
    let exceptions: [(domain: String, includesSubdomains: Bool, allowsInsecure: Bool?)]

    init(_ plist: PropertyListDocument) {
        let ats = plist.root["NSAppTransportSecurity"]
        // iOS 10 and later ignore NSAllowsArbitraryLoads when one of the finer-grained keys is present.
        let overridden = ["NSAllowsArbitraryLoadsInWebContent", "NSAllowsArbitraryLoadsForMedia", "NSAllowsLocalNetworking"]
            .contains { ats?[$0] != nil }
        arbitraryLoads = !overridden && (ats?["NSAllowsArbitraryLoads"]?.bool ?? false)
        var exceptions: [(String, Bool, Bool?)] = []
        for entry in ats?["NSExceptionDomains"]?.entries ?? [] {
            let insecure = entry.value["NSExceptionAllowsInsecureHTTPLoads"]?.bool
                ?? entry.value["NSTemporaryExceptionAllowsInsecureHTTPLoads"]?.bool
            exceptions.append((entry.key.lowercased(), entry.value["NSIncludesSubdomains"]?.bool ?? false, insecure))
        }
        self.exceptions = exceptions
    }

    /// Why cleartext to the host is allowed, or nil when ATS blocks it.
    func allowsCleartext(to host: String) -> String? {
        // The most specific exception domain that covers the host decides.
        let matching = exceptions.filter { host == $0.domain || ($0.includesSubdomains && host.hasSuffix("." + $0.domain)) }
            .max { $0.domain.count < $1.domain.count }
        if let matching {
            // A listed domain has its own settings: the global ones do not apply to it.
            return matching.allowsInsecure == true ? "NSExceptionDomains.\(matching.domain) allows insecure HTTP loads" : nil
        }
        return arbitraryLoads ? "NSAllowsArbitraryLoads is true" : nil
    }
}
