import MoatCore
import MoatFormats

extension ATS {
    /// `NSPinnedDomains` entries: domain and settings.
    static func pinnedDomains(_ plist: PropertyListDocument) -> [(domain: String, settings: PlistNode, keyLine: Int?)] {
        guard let entries = dictionary(plist)?["NSPinnedDomains"]?.entries else { return [] }
        return entries.map { ($0.key, $0.value, $0.keyLine) }
    }

    /// Whether an exception domain's settings allow plain HTTP.
    static func allowsInsecureHTTP(_ settings: PlistNode) -> Bool {
        variant(settings, ATSInsecureHTTPExceptionRule.keys)?.bool == true
    }

    /// Whether `domain` (an exception or pinned domain, with its NSIncludesSubdomains) covers `host`.
    static func covers(_ domain: String, includesSubdomains: Bool, host: String) -> Bool {
        let domain = domain.lowercased(), host = host.lowercased()
        return host == domain || (includesSubdomains && host.hasSuffix("." + domain))
    }
}

public struct ATSLocalNetworkingRule: PropertyListRule {
    public static let plistKinds: Set<PlistKind> = [.infoPlist]

    public static let description = RuleDescription(
        id: "MOAT-NET-101", slug: "ats-local-networking", title: "ATS allows unencrypted local network connections",
        severity: .info, confidence: .high, cwe: [319],
        masvs: ["MASVS-NETWORK-1"], mastg: ["MASTG-TEST-0065"],
        rationale: "`NSAllowsLocalNetworking` lets the app load plain HTTP from unqualified host names, `.local` domains and IP addresses that are not public, without an ATS exception. It is the intended setting for talking to devices on the user's network (printers, cameras, IoT), so it is listed, not reported as a defect; remember that such traffic is readable by anyone on the same Wi-Fi. When it is present, iOS 10+ ignores `NSAllowsArbitraryLoads`.",
        fix: "Nothing to fix by itself. Keep sensitive data off local connections, or protect it at the application layer.",
        references: ["https://developer.apple.com/documentation/bundleresources/information_property_list/nsapptransportsecurity/nsallowslocalnetworking"],
        isInventory: true,
        examples: [
            .triggering("App/Info.plist", ExampleProject.plist("""
                <key>NSAppTransportSecurity</key>
                <dict>
                    ↓<key>NSAllowsLocalNetworking</key>
                    <true/>
                </dict>
            """)),
            .nonTriggering("App/Info.plist", ExampleProject.plist("""
                <key>NSAppTransportSecurity</key>
                <dict>
                    <key>NSAllowsLocalNetworking</key>
                    <false/>
                </dict>
            """)),
        ])

    public init() {}

    public func check(_ plist: PropertyListDocument, _ sink: inout FindingSink) {
        guard let node = ATS.dictionary(plist)?["NSAllowsLocalNetworking"], node.bool == true else { return }
        sink.report("NSAllowsLocalNetworking lets the app use plain HTTP to .local names, unqualified hosts and private IP addresses.",
                    in: plist, at: node)
        sink.attach(InventoryItem(.transportSecurity, name: "NSAllowsLocalNetworking"))
    }
}

public struct ATSForwardSecrecyDisabledRule: PropertyListRule {
    public static let plistKinds: Set<PlistKind> = [.infoPlist]
    static let keys = ["NSExceptionRequiresForwardSecrecy", "NSTemporaryExceptionRequiresForwardSecrecy",
                       "NSThirdPartyExceptionRequiresForwardSecrecy"]

    public static let description = RuleDescription(
        id: "MOAT-NET-102", slug: "ats-forward-secrecy-disabled", title: "ATS exception accepts cipher suites without forward secrecy",
        severity: .low, confidence: .high, evidence: .configuration, cwe: [326],
        masvs: ["MASVS-NETWORK-1"], mastg: ["MASTG-TEST-0066"],
        rationale: "`NSExceptionRequiresForwardSecrecy` set to false lets the connection use RSA key exchange. Without forward secrecy, anyone who records the traffic today and later obtains the server's private key can decrypt all of it. The message says when the exception also covers every subdomain (`NSIncludesSubdomains`).",
        fix: "Enable ECDHE cipher suites on the server and remove the key (ATS requires forward secrecy by default).",
        references: ["https://developer.apple.com/documentation/bundleresources/information_property_list/nsapptransportsecurity/nsexceptiondomains"],
        examples: [
            .triggering("App/Info.plist", ExampleProject.plist("""
                <key>NSAppTransportSecurity</key>
                <dict>
                    <key>NSExceptionDomains</key>
                    <dict>
                        <key>legacy.example.com</key>
                        <dict>
                            <key>NSIncludesSubdomains</key>
                            <true/>
                            ↓<key>NSExceptionRequiresForwardSecrecy</key>
                            <false/>
                        </dict>
                    </dict>
                </dict>
            """)),
            .nonTriggering("App/Info.plist", ExampleProject.plist("""
                <key>NSAppTransportSecurity</key>
                <dict>
                    <key>NSExceptionDomains</key>
                    <dict>
                        <key>api.example.com</key>
                        <dict>
                            <key>NSExceptionRequiresForwardSecrecy</key>
                            <true/>
                        </dict>
                    </dict>
                </dict>
            """)),
        ])

    public init() {}

    public func check(_ plist: PropertyListDocument, _ sink: inout FindingSink) {
        for (domain, settings) in ATS.exceptionDomains(plist) {
            guard let node = ATS.variant(settings, Self.keys), node.bool == false else { continue }
            let subdomains = settings["NSIncludesSubdomains"]?.bool == true ? " and all its subdomains" : ""
            sink.report("ATS exception lets \(domain)\(subdomains) use cipher suites without forward secrecy: recorded traffic can be decrypted if the server key leaks.",
                        in: plist, at: node)
        }
    }
}

public struct ATSCertificateTransparencyRule: PropertyListRule {
    public static let plistKinds: Set<PlistKind> = [.infoPlist]
    static let keys = ["NSRequiresCertificateTransparency", "NSExceptionRequiresCertificateTransparency"]

    public static let description = RuleDescription(
        id: "MOAT-NET-103", slug: "ats-certificate-transparency", title: "ATS certificate transparency setting",
        severity: .info, confidence: .high, cwe: [295],
        masvs: ["MASVS-NETWORK-1"], mastg: ["MASTG-TEST-0067"],
        rationale: "`NSRequiresCertificateTransparency` makes ATS refuse server certificates that lack valid signed certificate timestamps, so a mis-issued certificate that was never logged publicly is rejected. It is a hardening setting worth knowing about when reviewing the network configuration, so it is listed where present (enabled or explicitly disabled).",
        fix: "Nothing to fix. Keep it enabled for domains whose certificates come from public CAs that log to CT.",
        references: ["https://developer.apple.com/documentation/bundleresources/information_property_list/nsapptransportsecurity/nsexceptiondomains"],
        isInventory: true,
        examples: [
            .triggering("App/Info.plist", ExampleProject.plist("""
                <key>NSAppTransportSecurity</key>
                <dict>
                    <key>NSExceptionDomains</key>
                    <dict>
                        <key>api.example.com</key>
                        <dict>
                            ↓<key>NSRequiresCertificateTransparency</key>
                            <true/>
                        </dict>
                    </dict>
                </dict>
            """)),
            .nonTriggering("App/Info.plist", ExampleProject.plist("""
                <key>NSAppTransportSecurity</key>
                <dict>
                    <key>NSExceptionDomains</key>
                    <dict>
                        <key>api.example.com</key>
                        <dict>
                            <key>NSExceptionMinimumTLSVersion</key>
                            <string>TLSv1.3</string>
                        </dict>
                    </dict>
                </dict>
            """)),
        ])

    public init() {}

    public func check(_ plist: PropertyListDocument, _ sink: inout FindingSink) {
        for (domain, settings) in ATS.exceptionDomains(plist) {
            guard let node = ATS.variant(settings, Self.keys), let enabled = node.bool else { continue }
            sink.report(enabled ? "Certificate transparency is required for \(domain): certificates without public log proofs are refused."
                                : "Certificate transparency is explicitly not required for \(domain).",
                        in: plist, at: node)
            sink.attach(InventoryItem(.transportSecurity, name: domain))
        }
    }
}

public struct ATSPinnedDomainsInventoryRule: PropertyListRule {
    public static let plistKinds: Set<PlistKind> = [.infoPlist]

    public static let description = RuleDescription(
        id: "MOAT-NET-104", slug: "ats-pinned-domains", title: "Certificate pinning declared with NSPinnedDomains",
        severity: .info, confidence: .high, cwe: [295],
        masvs: ["MASVS-NETWORK-2"], mastg: ["MASTG-TEST-0068"],
        rationale: "`NSPinnedDomains` (iOS 14+) is Apple's declarative identity pinning: ATS accepts a server of that domain only if its chain contains one of the listed SPKI hashes (`NSPinnedLeafIdentities` or `NSPinnedCAIdentities`). The pinned domains are listed with their hash counts, so a reviewer can check that every first-party endpoint is covered and that backup pins exist (one pin means an outage when the key rotates).",
        fix: "Nothing to fix by itself. Keep at least two pins per domain (the current key and a backup) and a plan to rotate them.",
        references: ["https://developer.apple.com/documentation/bundleresources/information_property_list/nsapptransportsecurity/nspinneddomains",
                     "https://developer.apple.com/news/?id=g9ejcf8y"],
        isInventory: true,
        examples: [
            .triggering("App/Info.plist", ExampleProject.plist("""
                <key>NSAppTransportSecurity</key>
                <dict>
                    <key>NSPinnedDomains</key>
                    <dict>
                        ↓<key>api.example.com</key>
                        <dict>
                            <key>NSIncludesSubdomains</key>
                            <true/>
                            <key>NSPinnedLeafIdentities</key>
                            <array>
                                <dict>
                                    <key>SPKI-SHA256-BASE64</key>
                                    <string>r/mIkG3eEpVdm+u/ko/cwxzOMo1bk4TyHIlByibiA5E=</string>
                                </dict>
                            </array>
                        </dict>
                    </dict>
                </dict>
            """)),
            .nonTriggering("App/Info.plist", ExampleProject.plist("""
                <key>NSAppTransportSecurity</key>
                <dict>
                    <key>NSExceptionDomains</key>
                    <dict>
                        <key>api.example.com</key>
                        <dict>
                            <key>NSExceptionMinimumTLSVersion</key>
                            <string>TLSv1.3</string>
                        </dict>
                    </dict>
                </dict>
            """)),
        ])

    public init() {}

    public func check(_ plist: PropertyListDocument, _ sink: inout FindingSink) {
        for (domain, settings, _) in ATS.pinnedDomains(plist) {
            let leaf = settings["NSPinnedLeafIdentities"]?.array?.count ?? 0
            let ca = settings["NSPinnedCAIdentities"]?.array?.count ?? 0
            let subdomains = settings["NSIncludesSubdomains"]?.bool == true ? " and its subdomains" : ""
            var pins: [String] = []
            if leaf > 0 { pins.append("\(leaf) leaf key\(leaf == 1 ? "" : "s")") }
            if ca > 0 { pins.append("\(ca) CA key\(ca == 1 ? "" : "s")") }
            let detail = pins.isEmpty ? "no identity listed, so nothing is pinned" : "pinned to " + pins.joined(separator: " and ")
            let backup = leaf + ca == 1 ? " (no backup pin)" : ""
            sink.report("\(domain)\(subdomains): \(detail)\(backup).", in: plist, at: settings)
            sink.attach(InventoryItem(.pinnedDomain, name: domain))
        }
    }
}

public struct ATSPinnedInsecureDomainRule: PropertyListRule {
    public static let plistKinds: Set<PlistKind> = [.infoPlist]

    public static let description = RuleDescription(
        id: "MOAT-NET-105", slug: "ats-pinned-domain-allows-http", title: "Pinned domain also allowed over plain HTTP",
        severity: .medium, confidence: .high, evidence: .configuration, cwe: [319, 295],
        masvs: ["MASVS-NETWORK-1", "MASVS-NETWORK-2"], mastg: ["MASTG-TEST-0065", "MASTG-TEST-0068"],
        rationale: "Pinning only protects TLS connections. A domain listed in `NSPinnedDomains` that an `NSExceptionDomains` entry also allows over plain HTTP (`NSExceptionAllowsInsecureHTTPLoads`) contradicts itself: an attacker who can intercept the traffic just downgrades the request to `http://`, where no certificate — pinned or not — is checked.",
        fix: "Remove the insecure HTTP exception for the pinned domain (and its parent domains with `NSIncludesSubdomains`) so that only HTTPS with the pinned keys is allowed.",
        references: ["https://developer.apple.com/documentation/bundleresources/information_property_list/nsapptransportsecurity/nspinneddomains"],
        examples: [
            .triggering("App/Info.plist", ExampleProject.plist("""
                <key>NSAppTransportSecurity</key>
                <dict>
                    <key>NSPinnedDomains</key>
                    <dict>
                        <key>api.example.com</key>
                        <dict>
                            <key>NSPinnedCAIdentities</key>
                            <array>
                                <dict>
                                    <key>SPKI-SHA256-BASE64</key>
                                    <string>r/mIkG3eEpVdm+u/ko/cwxzOMo1bk4TyHIlByibiA5E=</string>
                                </dict>
                            </array>
                        </dict>
                    </dict>
                    <key>NSExceptionDomains</key>
                    <dict>
                        <key>example.com</key>
                        <dict>
                            <key>NSIncludesSubdomains</key>
                            <true/>
                            ↓<key>NSExceptionAllowsInsecureHTTPLoads</key>
                            <true/>
                        </dict>
                    </dict>
                </dict>
            """)),
            .nonTriggering("App/Info.plist", ExampleProject.plist("""
                <key>NSAppTransportSecurity</key>
                <dict>
                    <key>NSPinnedDomains</key>
                    <dict>
                        <key>api.example.com</key>
                        <dict>
                            <key>NSPinnedCAIdentities</key>
                            <array>
                                <dict>
                                    <key>SPKI-SHA256-BASE64</key>
                                    <string>r/mIkG3eEpVdm+u/ko/cwxzOMo1bk4TyHIlByibiA5E=</string>
                                </dict>
                            </array>
                        </dict>
                    </dict>
                    <key>NSExceptionDomains</key>
                    <dict>
                        <key>legacy.example.org</key>
                        <dict>
                            <key>NSExceptionAllowsInsecureHTTPLoads</key>
                            <true/>
                        </dict>
                    </dict>
                </dict>
            """)),
        ])

    public init() {}

    public func check(_ plist: PropertyListDocument, _ sink: inout FindingSink) {
        let pinned = ATS.pinnedDomains(plist)
        guard !pinned.isEmpty else { return }
        for (domain, settings) in ATS.exceptionDomains(plist) where ATS.allowsInsecureHTTP(settings) {
            guard let node = ATS.variant(settings, ATSInsecureHTTPExceptionRule.keys) else { continue }
            let includes = settings["NSIncludesSubdomains"]?.bool == true
            let overlapping = pinned.filter { ATS.covers(domain, includesSubdomains: includes, host: $0.domain) }.map(\.domain)
            guard !overlapping.isEmpty else { continue }
            sink.report("\(domain) allows plain HTTP, but \(PermissionText.list(overlapping)) \(overlapping.count == 1 ? "is" : "are") pinned in NSPinnedDomains: an attacker downgrades to http:// and the pins are never checked.",
                        in: plist, at: node)
        }
    }
}
