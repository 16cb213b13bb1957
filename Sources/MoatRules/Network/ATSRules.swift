import MoatCore
import MoatFormats

/// Shared reading of `NSAppTransportSecurity` for the ATS rules.
enum ATS {
    static let key = "NSAppTransportSecurity"

    static func dictionary(_ plist: PropertyListDocument) -> PlistNode? {
        plist.root[key]
    }

    /// Each exception domain with its settings node.
    static func exceptionDomains(_ plist: PropertyListDocument) -> [(domain: String, settings: PlistNode)] {
        guard let domains = dictionary(plist)?["NSExceptionDomains"]?.entries else { return [] }
        return domains.map { ($0.key, $0.value) }
    }

    /// The first of these keys present in the settings (plain, temporary and third-party variants).
    static func variant(_ settings: PlistNode, _ names: [String]) -> PlistNode? {
        names.lazy.compactMap { settings[$0] }.first
    }
}

public struct ATSArbitraryLoadsRule: PropertyListRule {
    public static let plistKinds: Set<PlistKind> = [.infoPlist]

    public static let description = RuleDescription(
        id: "MOAT-NET-001", slug: "ats-arbitrary-loads", title: "App Transport Security allows arbitrary loads",
        severity: .high, confidence: .high, evidence: .configuration, cwe: [319],
        masvs: ["MASVS-NETWORK-1"], mastg: ["MASTG-TEST-0065", "MASTG-TEST-0066"],
        rationale: "`NSAllowsArbitraryLoads` turns App Transport Security off for every connection: plain HTTP and weak TLS are accepted, so anyone on the network path can read and change the traffic. `NSAllowsArbitraryLoadsInWebContent` and `NSAllowsArbitraryLoadsForMedia` do the same for web views and AVFoundation media.",
        fix: "Remove the key and serve every endpoint over HTTPS with TLS 1.2 or later. If one legacy host needs HTTP, add a narrow `NSExceptionDomains` entry for that host alone.",
        references: ["https://developer.apple.com/documentation/bundleresources/information_property_list/nsapptransportsecurity"],
        examples: [
            .triggering("App/Info.plist", """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
                <key>NSAppTransportSecurity</key>
                <dict>
                    ↓<key>NSAllowsArbitraryLoads</key>
                    <true/>
                </dict>
            </dict>
            </plist>
            """),
            .triggering("App/Info.plist", """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
                <key>NSAppTransportSecurity</key>
                <dict>
                    ↓<key>NSAllowsArbitraryLoadsInWebContent</key>
                    <true/>
                    ↓<key>NSAllowsArbitraryLoadsForMedia</key>
                    <true/>
                </dict>
            </dict>
            </plist>
            """),
            .triggering("Casts/Info.plist", """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
                <key>NSAppTransportSecurity</key>
                <dict>
                    ↓<key>NSAllowsArbitraryLoads</key>
                    <true/>
                    <key>NSExceptionDomains</key>
                    <dict>
                        <key>api.example.com</key>
                        <dict>
                            <key>NSExceptionAllowsInsecureHTTPLoads</key>
                            <false/>
                        </dict>
                    </dict>
                </dict>
            </dict>
            </plist>
            """, note: "Feeds and media on arbitrary hosts, the app's own API host kept under ATS by its exception entry (Apple: listed domains are not affected by NSAllowsArbitraryLoads): medium, naming the hosts that keep ATS."),
            .nonTriggering("App/Info.plist", """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
                <key>NSAppTransportSecurity</key>
                <dict>
                    <key>NSAllowsArbitraryLoads</key>
                    <false/>
                </dict>
                <key>Comment</key>
                <string>NSAllowsArbitraryLoads is not needed</string>
            </dict>
            </plist>
            """),
        ])

    public init() {}

    public func check(_ plist: PropertyListDocument, _ sink: inout FindingSink) {
        guard let ats = ATS.dictionary(plist) else { return }
        // On iOS 10 and later, the presence of any of these keys makes the system ignore NSAllowsArbitraryLoads.
        let overriding = ["NSAllowsArbitraryLoadsInWebContent", "NSAllowsArbitraryLoadsForMedia", "NSAllowsLocalNetworking"]
            .filter { ats[$0] != nil }
        if let node = ats["NSAllowsArbitraryLoads"], node.bool == true {
            // Apple: domains named in NSExceptionDomains are not affected by NSAllowsArbitraryLoads; a domain
            // whose entry does not allow insecure loads keeps ATS (the app's own API hosts, typically).
            let protected = (ats["NSExceptionDomains"]?.entries ?? []).filter { entry in
                entry.value.entries != nil && ["NSExceptionAllowsInsecureHTTPLoads", "NSTemporaryExceptionAllowsInsecureHTTPLoads",
                                               "NSThirdPartyExceptionAllowsInsecureHTTPLoads"].allSatisfy { entry.value[$0]?.bool != true }
            }.map(\.key)
            if overriding.isEmpty, !protected.isEmpty {
                let names = protected.prefix(3).joined(separator: ", ") + (protected.count > 3 ? " and \(protected.count - 3) more" : "")
                sink.report("NSAllowsArbitraryLoads disables App Transport Security for every host except the exception domains that keep it (\(names)): HTTP and weak TLS are allowed for all other hosts.",
                            in: plist, at: node, severity: .medium)
            } else if overriding.isEmpty {
                sink.report("NSAllowsArbitraryLoads disables App Transport Security for all connections: HTTP and weak TLS are allowed everywhere.",
                            in: plist, at: node)
            } else {
                sink.report("NSAllowsArbitraryLoads is ignored on iOS 10+ because \(overriding.joined(separator: ", ")) is present, but still disables ATS on older systems.",
                            in: plist, at: node, severity: .low)
            }
        }
        if let node = ats["NSAllowsArbitraryLoadsInWebContent"], node.bool == true {
            sink.report("NSAllowsArbitraryLoadsInWebContent disables App Transport Security for every page web views load.",
                        in: plist, at: node, severity: .medium)
        }
        if let node = ats["NSAllowsArbitraryLoadsForMedia"], node.bool == true {
            sink.report("NSAllowsArbitraryLoadsForMedia disables App Transport Security for media loaded with AVFoundation.",
                        in: plist, at: node, severity: .medium)
        }
    }
}

public struct ATSInsecureHTTPExceptionRule: PropertyListRule {
    public static let plistKinds: Set<PlistKind> = [.infoPlist]

    /// `onion` or a `.onion` host: Tor onion services (RFC 7686).
    static func isOnion(_ domain: String) -> Bool {
        var host = Substring(domain.lowercased())
        while host.hasSuffix(".") { host = host.dropLast() }
        while host.hasPrefix(".") { host = host.dropFirst() }
        return host == "onion" || host.hasSuffix(".onion")
    }
    static let keys = ["NSExceptionAllowsInsecureHTTPLoads", "NSTemporaryExceptionAllowsInsecureHTTPLoads",
                       "NSThirdPartyExceptionAllowsInsecureHTTPLoads"]

    public static let description = RuleDescription(
        id: "MOAT-NET-002", slug: "ats-insecure-http-exception", title: "ATS exception domain allows plain HTTP",
        severity: .medium, confidence: .high, evidence: .configuration, cwe: [319],
        masvs: ["MASVS-NETWORK-1"], mastg: ["MASTG-TEST-0065"],
        rationale: "An exception domain with `NSExceptionAllowsInsecureHTTPLoads` lets the app talk to that host (and its subdomains when `NSIncludesSubdomains` is set) over unencrypted HTTP, where traffic can be read and modified in transit.",
        fix: "Serve the host over HTTPS and delete the exception. Keep unavoidable exceptions narrow: no `NSIncludesSubdomains`, and document why.",
        references: ["https://developer.apple.com/documentation/bundleresources/information_property_list/nsapptransportsecurity/nsexceptiondomains"],
        examples: [
            .triggering("Info.plist", """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
                <key>NSAppTransportSecurity</key>
                <dict>
                    <key>NSExceptionDomains</key>
                    <dict>
                        <key>legacy.example.com</key>
                        <dict>
                            <key>NSIncludesSubdomains</key>
                            <true/>
                            ↓<key>NSExceptionAllowsInsecureHTTPLoads</key>
                            <true/>
                        </dict>
                    </dict>
                </dict>
            </dict>
            </plist>
            """),
            .nonTriggering("Info.plist", """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
                <key>NSAppTransportSecurity</key>
                <dict>
                    <key>NSExceptionDomains</key>
                    <dict>
                        <key>api.example.com</key>
                        <dict>
                            <key>NSExceptionAllowsInsecureHTTPLoads</key>
                            <false/>
                            <key>NSExceptionMinimumTLSVersion</key>
                            <string>TLSv1.3</string>
                        </dict>
                    </dict>
                </dict>
            </dict>
            </plist>
            """),
            .nonTriggering("Info.plist", """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
                <key>NSAppTransportSecurity</key>
                <dict>
                    <key>NSExceptionDomains</key>
                    <dict>
                        <key>onion</key>
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
            """, note: "Tor onion services: Tor encrypts and authenticates the connection, plain HTTP there is not cleartext on the network."),
        ])

    public init() {}

    public func check(_ plist: PropertyListDocument, _ sink: inout FindingSink) {
        for (domain, settings) in ATS.exceptionDomains(plist) {
            guard let node = ATS.variant(settings, Self.keys), node.bool == true else { continue }
            // Tor onion services: the onion address is the service's key, and Tor encrypts and
            // authenticates the connection end to end; plain HTTP there is not cleartext on the network.
            if Self.isOnion(domain) { continue }
            let subdomains = settings["NSIncludesSubdomains"]?.bool == true ? " and all its subdomains" : ""
            sink.report("ATS exception lets \(domain)\(subdomains) be reached over plain HTTP.", in: plist, at: node)
        }
    }
}

public struct ATSWeakTLSVersionRule: PropertyListRule {
    public static let plistKinds: Set<PlistKind> = [.infoPlist]
    static let keys = ["NSExceptionMinimumTLSVersion", "NSTemporaryExceptionMinimumTLSVersion",
                       "NSThirdPartyExceptionMinimumTLSVersion"]
    static let weakVersions: Set<String> = ["tlsv1.0", "tlsv1.1", "tlsv1", "sslv3"]

    public static let description = RuleDescription(
        id: "MOAT-NET-003", slug: "ats-weak-tls-version", title: "ATS exception accepts TLS below 1.2",
        severity: .medium, confidence: .high, evidence: .configuration, cwe: [326, 757],
        masvs: ["MASVS-NETWORK-1"], mastg: ["MASTG-TEST-0066"],
        rationale: "TLS 1.0 and 1.1 are deprecated (RFC 8996) and have known weaknesses; an exception domain that accepts them lets a network attacker negotiate a weaker protocol.",
        fix: "Set `NSExceptionMinimumTLSVersion` to `TLSv1.2` or `TLSv1.3` (or remove it: ATS requires TLS 1.2 by default) and upgrade the server.",
        references: ["https://www.rfc-editor.org/rfc/rfc8996"],
        examples: [
            .triggering("Info.plist", """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
                <key>NSAppTransportSecurity</key>
                <dict>
                    <key>NSExceptionDomains</key>
                    <dict>
                        <key>old.example.com</key>
                        <dict>
                            ↓<key>NSExceptionMinimumTLSVersion</key>
                            <string>TLSv1.0</string>
                        </dict>
                    </dict>
                </dict>
            </dict>
            </plist>
            """),
            .nonTriggering("Info.plist", """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
                <key>NSAppTransportSecurity</key>
                <dict>
                    <key>NSExceptionDomains</key>
                    <dict>
                        <key>api.example.com</key>
                        <dict>
                            <key>NSExceptionMinimumTLSVersion</key>
                            <string>TLSv1.2</string>
                        </dict>
                    </dict>
                </dict>
            </dict>
            </plist>
            """),
        ])

    public init() {}

    public func check(_ plist: PropertyListDocument, _ sink: inout FindingSink) {
        for (domain, settings) in ATS.exceptionDomains(plist) {
            guard let node = ATS.variant(settings, Self.keys), let version = node.string,
                  Self.weakVersions.contains(version.lowercased()) else { continue }
            sink.report("ATS exception lets \(domain) use \(version), below TLS 1.2.", in: plist, at: node)
        }
    }
}
