import MoatCore
import MoatFormats
import MoatSyntax

/// The app's attack surface as its configuration declares it: what a `moat surface` command prints.
/// Every entry names the unit (target) it belongs to and where it is declared.
public struct AttackSurface: Codable, Sendable {
    public struct Entry: Codable, Sendable, Hashable {
        /// Target name, or "App" for loose files.
        public var unit: String
        /// The scheme, domain, group, key...
        public var value: String
        /// Extra facts: the purpose string, the handlers, the exception's settings...
        public var detail: String?
        public var location: Location

        public init(unit: String, value: String, detail: String? = nil, location: Location) {
            self.unit = unit
            self.value = value
            self.detail = detail
            self.location = location
        }
    }

    /// Custom URL schemes (`CFBundleURLTypes`), with the code that receives them in `detail`.
    public var urlSchemes: [Entry] = []
    /// Schemes queried with `canOpenURL` (`LSApplicationQueriesSchemes`).
    public var queriedSchemes: [Entry] = []
    /// Code that receives URLs: scheme handlers and universal link handlers.
    public var urlHandlers: [Entry] = []
    /// `service:domain` entries of the associated domains entitlement.
    public var associatedDomains: [Entry] = []
    public var appGroups: [Entry] = []
    public var keychainAccessGroups: [Entry] = []
    /// Other entitlements (capabilities).
    public var capabilities: [Entry] = []
    /// Privacy usage descriptions, with the purpose string in `detail`.
    public var usageDescriptions: [Entry] = []
    /// ATS global relaxations (`NSAllowsArbitraryLoads`...) and exception domains with their settings.
    public var transportSecurityExceptions: [Entry] = []
    /// `NSPinnedDomains`.
    public var pinnedDomains: [Entry] = []
    /// Web views placed in storyboards and xibs (`UIWebView` or `WKWebView`).
    public var interfaceBuilderWebViews: [Entry] = []

    public init() {}
}

extension AppModel {
    /// The declared attack surface of every unit.
    public var surface: AttackSurface {
        var surface = AttackSurface()
        var seen = Set<String>()
        func add(_ path: WritableKeyPath<AttackSurface, [AttackSurface.Entry]>, _ entry: AttackSurface.Entry) {
            let key = "\(path.hashValue)|\(entry.unit)|\(entry.value)|\(entry.location.path)|\(entry.location.line)|\(entry.location.keyPath ?? "")"
            if seen.insert(key).inserted { surface[keyPath: path].append(entry) }
        }
        func plistLocation(_ plist: PropertyListDocument, _ node: PlistNode) -> Location {
            Location(path: plist.path, line: plist.line(of: node), column: 1, keyPath: node.keyPath)
        }
        for unit in units {
            let code = reachableSources(for: unit)
            let handlers = code.urlSchemeEntryPoints()
            for handler in handlers + code.universalLinkEntryPoints() {
                add(\.urlHandlers, .init(unit: unit.name, value: handler.name, detail: handler.isDeprecated ? "deprecated" : nil,
                                         location: handler.match.location))
            }
            for plist in unit.infoPlists {
                for declared in DeclaredURLScheme.all(in: plist) {
                    let detail = handlers.isEmpty ? "no handler found" : "handled by " + handlers.map(\.name).joined(separator: ", ")
                    add(\.urlSchemes, .init(unit: unit.name, value: declared.scheme, detail: detail, location: plistLocation(plist, declared.node)))
                }
                for node in plist.root["LSApplicationQueriesSchemes"]?.array ?? [] {
                    guard let scheme = node.string else { continue }
                    add(\.queriedSchemes, .init(unit: unit.name, value: scheme, location: plistLocation(plist, node)))
                }
                if let ats = ATSView(plist: plist) {
                    for (key, node) in ats.globalRelaxations {
                        add(\.transportSecurityExceptions, .init(unit: unit.name, value: key, detail: "all domains", location: plistLocation(plist, node)))
                    }
                    for (domain, settings, summary) in ats.exceptions {
                        add(\.transportSecurityExceptions, .init(unit: unit.name, value: domain, detail: summary, location: plistLocation(plist, settings)))
                    }
                    for (domain, settings, summary) in ats.pins {
                        add(\.pinnedDomains, .init(unit: unit.name, value: domain, detail: summary, location: plistLocation(plist, settings)))
                    }
                }
            }
            for key in unit.infoKeys where PermissionTable.isUsageKey(key) {
                guard let value = unit.infoValues(forKey: key).first else { continue }
                add(\.usageDescriptions, .init(unit: unit.name, value: key, detail: value.string, location: value.location))
            }
            for plist in unit.entitlementsDocuments {
                let entitlements = Entitlements(document: plist)
                for domain in entitlements.associatedDomains {
                    add(\.associatedDomains, .init(unit: unit.name, value: "\(domain.service):\(domain.domain)", detail: domain.mode.map { "mode=\($0)" },
                                                   location: plistLocation(plist, domain.node)))
                }
                for entry in entitlements.entries {
                    switch entry.key {
                    case Entitlements.applicationGroupsKey:
                        for node in entry.value.array ?? [] {
                            if let group = node.string { add(\.appGroups, .init(unit: unit.name, value: group, location: plistLocation(plist, node))) }
                        }
                    case Entitlements.keychainAccessGroupsKey:
                        for node in entry.value.array ?? [] {
                            if let group = node.string {
                                add(\.keychainAccessGroups, .init(unit: unit.name, value: group, location: plistLocation(plist, node)))
                            }
                        }
                    case Entitlements.associatedDomainsKey:
                        break
                    default:
                        let values = entry.value.strings
                        add(\.capabilities, .init(unit: unit.name, value: entry.key, detail: values.isEmpty ? nil : values.joined(separator: ", "),
                                                  location: plistLocation(plist, entry.value)))
                    }
                }
            }
        }
        for document in interfaceBuilderDocuments where document.isCocoaTouch {
            for (kind, objects) in [("UIWebView", document.webViews), ("WKWebView", document.wkWebViews)] {
                for object in objects {
                    add(\.interfaceBuilderWebViews, .init(unit: "", value: kind, detail: object.controller,
                                                          location: Location(path: document.path, line: object.line, column: object.column)))
                }
            }
        }
        return surface
    }
}

/// A summary of an Info.plist's App Transport Security settings, for the surface.
struct ATSView {
    var globalRelaxations: [(String, PlistNode)] = []
    var exceptions: [(String, PlistNode, String)] = []
    var pins: [(String, PlistNode, String)] = []

    init?(plist: PropertyListDocument) {
        guard let ats = plist.root["NSAppTransportSecurity"] else { return nil }
        for key in ["NSAllowsArbitraryLoads", "NSAllowsArbitraryLoadsInWebContent", "NSAllowsArbitraryLoadsForMedia", "NSAllowsLocalNetworking"] {
            if let node = ats[key], node.bool == true { globalRelaxations.append((key, node)) }
        }
        for entry in ats["NSExceptionDomains"]?.entries ?? [] {
            let settings = (entry.value.entries ?? []).map { setting -> String in
                let value: String
                switch setting.value.value {
                case .bool(let flag): value = flag ? "YES" : "NO"
                case .string(let text): value = text
                default: value = "…"
                }
                return "\(setting.key)=\(value)"
            }
            exceptions.append((entry.key, entry.value, settings.joined(separator: ", ")))
        }
        for entry in ats["NSPinnedDomains"]?.entries ?? [] {
            let leaf = entry.value["NSPinnedLeafIdentities"]?.array?.count ?? 0
            let ca = entry.value["NSPinnedCAIdentities"]?.array?.count ?? 0
            let subdomains = entry.value["NSIncludesSubdomains"]?.bool == true ? ", subdomains" : ""
            pins.append((entry.key, entry.value, "\(leaf) leaf, \(ca) CA\(subdomains)"))
        }
    }
}
