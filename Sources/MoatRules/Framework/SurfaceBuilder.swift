import Foundation
import MoatCore
import MoatFormats
import MoatSyntax

/// Builds `AttackSurface` from the app model, then annotates it with findings.
struct SurfaceBuilder {
    typealias Section = WritableKeyPath<AttackSurface, [AttackSurface.Entry]>

    /// An entry being built, with what decides which findings are about it.
    struct Item {
        var section: Section
        var entry: AttackSurface.Entry
        /// Key paths of the property-list node and everything under it.
        var keyPaths: Set<String> = []
        /// Findings anywhere in the files of the entry and its handlers that this accepts are attached too.
        var sameFile: ((Finding) -> Bool)?
    }

    let app: AppModel
    var items: [Item] = []
    var seen = Set<String>()
    /// Target names compiling (or copying) each file.
    var unitsByPath: [String: [String]] = [:]

    init(app: AppModel) {
        self.app = app
        for unit in app.units {
            for source in unit.sources { unitsByPath[source.path, default: []].append(unit.name) }
            for document in unit.interfaceBuilderDocuments { unitsByPath[document.path, default: []].append(unit.name) }
        }
    }

    func unitName(_ path: String) -> String {
        (unitsByPath[path] ?? []).joined(separator: ", ")
    }

    @discardableResult
    mutating func add(_ section: Section, _ entry: AttackSurface.Entry, keyPaths: Set<String> = [],
                      sameFile: ((Finding) -> Bool)? = nil) -> Bool {
        let location = entry.location
        let key = "\(section.hashValue)|\(entry.unit)|\(entry.value)|\(location.path)|\(location.line)|\(location.keyPath ?? "")"
        guard seen.insert(key).inserted else { return false }
        items.append(Item(section: section, entry: entry, keyPaths: keyPaths, sameFile: sameFile))
        return true
    }

    func plistLocation(_ plist: PropertyListDocument, _ node: PlistNode) -> Location {
        Location(path: plist.path, line: plist.line(of: node), column: 1, keyPath: node.keyPath)
    }

    /// The key paths of a node and its descendants.
    static func keyPaths(of node: PlistNode) -> Set<String> {
        var result: Set<String> = []
        var stack = [node]
        while let next = stack.popLast(), result.count < 10_000 {
            result.insert(next.keyPath)
            if let entries = next.entries { stack.append(contentsOf: entries.map(\.value)) }
            if let array = next.array { stack.append(contentsOf: array) }
        }
        return result
    }

    static func handlers(_ points: [URLEntryPoint]) -> [AttackSurface.Handler] {
        points.map { AttackSurface.Handler(name: $0.name, location: $0.match.location) }
    }

    static func code(_ source: SourceSummary, _ position: SourcePosition) -> Location {
        Location(path: source.path, line: position.line, column: position.column)
    }

    // MARK: Building

    mutating func build() {
        for unit in app.units { configuration(of: unit) }
        code()
        interfaceBuilder()
    }

    func ownCode(_ unit: AppUnit) -> [SourceSummary] {
        app.reachableSources(for: unit).filter { !AppUnit.isTestPath($0.path) }
    }

    mutating func configuration(of unit: AppUnit) {
        let code = ownCode(unit)
        let schemeHandlers = code.urlSchemeEntryPoints()
        let linkHandlers = code.universalLinkEntryPoints()
        let urlRisk = "Receives URLs that any app or web page can send: every component is untrusted input."
        for handler in schemeHandlers {
            add(\.urlHandlers, .init(unit: unit.name, value: handler.name, kind: "URL scheme", detail: handler.isDeprecated ? "deprecated" : nil,
                                     location: handler.match.location, risk: urlRisk))
        }
        for handler in linkHandlers {
            add(\.urlHandlers, .init(unit: unit.name, value: handler.name, kind: "universal link / user activity",
                                     location: handler.match.location, risk: urlRisk))
        }
        var declaresDocuments = false
        for plist in unit.infoPlists {
            urlSchemes(plist, unit: unit, handlers: schemeHandlers)
            transportSecurity(plist, unit: unit)
            if documentTypes(plist, unit: unit, code: code, schemeHandlers: schemeHandlers) { declaresDocuments = true }
            extensionPoint(plist, unit: unit, code: code)
            otherInfo(plist, unit: unit)
        }
        for (key, risk) in [("LSSupportsOpeningDocumentsInPlace", "The app opens documents in place in other apps' containers: access must stay security-scoped and contents are untrusted."),
                            ("UIFileSharingEnabled", "The app's Documents folder is readable and writable from a connected computer (Finder) and the Files app."),
                            ("UISupportsDocumentBrowser", "The app is a document browser: the Files app opens its documents in it.")] {
            for value in unit.infoValues(forKey: key) where value.bool == true {
                if key != "UIFileSharingEnabled" { declaresDocuments = true }
                add(\.documentTypes, .init(unit: unit.name, value: key, kind: "setting", detail: "YES", location: value.location,
                                           handlers: key == "UIFileSharingEnabled" ? [] : Self.handlers(schemeHandlers), risk: risk),
                    keyPaths: value.plistNode.map(Self.keyPaths) ?? [])
            }
        }
        // URL handlers that receive documents other apps open in this one.
        for handler in schemeHandlers {
            let source = code.first { $0.path == handler.match.path }
            let checksFiles = ["isFileURL", "startAccessingSecurityScopedResource"].filter { source?.referencedNames[$0] != nil }
            guard declaresDocuments || !checksFiles.isEmpty else { continue }
            let reason = declaresDocuments ? "the app declares document types it opens" : "the handler checks \(checksFiles.joined(separator: ", "))"
            add(\.fileImports, .init(unit: unit.name, value: handler.name, kind: "opened document", detail: reason,
                                     location: handler.match.location, handlers: Self.handlers([handler]),
                                     risk: "Receives files other apps open in this app: their names and contents are untrusted input."))
        }
        for key in unit.infoKeys where PermissionTable.isUsageKey(key) {
            guard let value = unit.infoValues(forKey: key).first else { continue }
            add(\.usageDescriptions, .init(unit: unit.name, value: key, detail: value.string, location: value.location),
                keyPaths: value.plistNode.map(Self.keyPaths) ?? [])
        }
        for plist in unit.entitlementsDocuments {
            entitlements(plist, unit: unit, linkHandlers: linkHandlers)
        }
        if let target = unit.target, let project = unit.project, target.isExtension,
           !unit.infoPlists.contains(where: { $0.root["NSExtension"] != nil }) {
            add(\.extensions, .init(unit: unit.name, value: target.name, kind: "extension target", detail: target.productType,
                                    location: Location(path: target.specPath.map(project.displayPath) ?? project.path, line: target.line),
                                    risk: SurfaceTables.extensionPoint("").risk))
        }
    }

    mutating func urlSchemes(_ plist: PropertyListDocument, unit: AppUnit, handlers: [URLEntryPoint]) {
        for declared in DeclaredURLScheme.all(in: plist) {
            let detail = handlers.isEmpty ? "no handler found" : "handled by " + handlers.map(\.name).joined(separator: ", ")
            var attributes: [String: String] = [:]
            if let name = declared.urlName { attributes["urlName"] = name }
            if let role = declared.role { attributes["role"] = role }
            add(\.urlSchemes, .init(unit: unit.name, value: declared.scheme, detail: detail, location: plistLocation(plist, declared.node),
                                    handlers: Self.handlers(handlers),
                                    risk: "Any app or web page can open \(declared.scheme):// URLs with parameters it chooses, and another app can register the same scheme.",
                                    attributes: attributes),
                keyPaths: [declared.node.keyPath])
        }
        for node in plist.root["LSApplicationQueriesSchemes"]?.array ?? [] {
            guard let scheme = node.string else { continue }
            add(\.queriedSchemes, .init(unit: unit.name, value: scheme, location: plistLocation(plist, node),
                                        risk: "Lets the app learn whether an app handling \(scheme):// is installed."),
                keyPaths: [node.keyPath])
        }
    }

    /// An ATS exception's settings: summary text, whether it allows plain HTTP or weak TLS.
    struct ATSException {
        var domain: String
        var node: PlistNode
        var includesSubdomains: Bool
        var allowsHTTP: Bool
        var minimumTLS: String?
        var summary: String

        init(domain: String, node: PlistNode) {
            self.domain = domain.lowercased()
            self.node = node
            includesSubdomains = node["NSIncludesSubdomains"]?.bool == true
            allowsHTTP = node["NSExceptionAllowsInsecureHTTPLoads"]?.bool == true || node["NSTemporaryExceptionAllowsInsecureHTTPLoads"]?.bool == true
            minimumTLS = node["NSExceptionMinimumTLSVersion"]?.string ?? node["NSTemporaryExceptionMinimumTLSVersion"]?.string
            summary = (node.entries ?? []).map { "\($0.key)=\(SurfaceBuilder.scalar($0.value))" }.joined(separator: ", ")
        }

        var weakTLS: Bool { minimumTLS == "TLSv1.0" || minimumTLS == "TLSv1.1" }

        func covers(_ host: String) -> Bool {
            host == domain || includesSubdomains && host.hasSuffix("." + domain)
        }
    }

    struct PinnedDomain {
        var domain: String
        var includesSubdomains: Bool
        func covers(_ host: String) -> Bool { host == domain || includesSubdomains && host.hasSuffix("." + domain) }
    }

    static func exceptions(_ plist: PropertyListDocument) -> [ATSException] {
        (plist.root["NSAppTransportSecurity"]?["NSExceptionDomains"]?.entries ?? []).map { ATSException(domain: $0.key, node: $0.value) }
    }

    static func pins(_ plist: PropertyListDocument) -> [(entry: PlistEntry, pin: PinnedDomain)] {
        (plist.root["NSAppTransportSecurity"]?["NSPinnedDomains"]?.entries ?? []).map {
            ($0, PinnedDomain(domain: $0.key.lowercased(), includesSubdomains: $0.value["NSIncludesSubdomains"]?.bool == true))
        }
    }

    mutating func transportSecurity(_ plist: PropertyListDocument, unit: AppUnit) {
        guard let ats = plist.root["NSAppTransportSecurity"] else { return }
        for key in ["NSAllowsArbitraryLoads", "NSAllowsArbitraryLoadsInWebContent", "NSAllowsArbitraryLoadsForMedia", "NSAllowsLocalNetworking"] {
            guard let node = ats[key], node.bool == true else { continue }
            add(\.transportSecurityExceptions, .init(unit: unit.name, value: key, kind: "global", detail: "all domains",
                                                     location: plistLocation(plist, node), risk: SurfaceTables.atsGlobalRisks[key],
                                                     attributes: ["insecure": "true"]),
                keyPaths: [node.keyPath])
        }
        for exception in Self.exceptions(plist) {
            let scope = exception.domain + (exception.includesSubdomains ? " and its subdomains" : "")
            let risk: String
            if exception.allowsHTTP {
                risk = "Plain HTTP to \(scope) is allowed: anyone on the network path can read and change that traffic."
            } else if exception.weakTLS {
                risk = "\(exception.minimumTLS ?? "Old TLS") is accepted for \(scope): connections can be downgraded to broken protocol versions."
            } else if exception.node["NSExceptionRequiresForwardSecrecy"]?.bool == false {
                risk = "Cipher suites without forward secrecy are accepted for \(scope)."
            } else {
                risk = "An exception for \(scope) that does not relax transport security."
            }
            let insecure = exception.allowsHTTP || exception.weakTLS || exception.node["NSExceptionRequiresForwardSecrecy"]?.bool == false
            var attributes = ["insecure": insecure ? "true" : "false", "allowsHTTP": exception.allowsHTTP ? "true" : "false",
                              "includesSubdomains": exception.includesSubdomains ? "true" : "false"]
            if let minimum = exception.minimumTLS { attributes["minimumTLS"] = minimum }
            add(\.transportSecurityExceptions, .init(unit: unit.name, value: exception.domain, kind: insecure ? "insecure exception" : "exception",
                                                     detail: exception.summary, location: plistLocation(plist, exception.node), risk: risk,
                                                     attributes: attributes),
                keyPaths: Self.keyPaths(of: exception.node))
        }
        for (entry, pin) in Self.pins(plist) {
            let leaf = entry.value["NSPinnedLeafIdentities"]?.array?.count ?? 0
            let ca = entry.value["NSPinnedCAIdentities"]?.array?.count ?? 0
            let subdomains = pin.includesSubdomains ? ", subdomains" : ""
            add(\.pinnedDomains, .init(unit: unit.name, value: entry.key, detail: "\(leaf) leaf, \(ca) CA\(subdomains)",
                                       location: plistLocation(plist, entry.value),
                                       risk: "Connections to \(entry.key) must present one of the pinned keys: a certificate from another CA cannot intercept them.",
                                       attributes: ["leafIdentities": String(leaf), "caIdentities": String(ca),
                                                    "includesSubdomains": pin.includesSubdomains ? "true" : "false"]),
                keyPaths: Self.keyPaths(of: entry.value))
        }
    }

    /// Document types and UTIs; true when the plist declares document types the app opens.
    mutating func documentTypes(_ plist: PropertyListDocument, unit: AppUnit, code: [SourceSummary], schemeHandlers: [URLEntryPoint]) -> Bool {
        var declares = false
        var handlers = Self.handlers(schemeHandlers)
        for item in SurfaceTables.functions where item.kind == "document browser" {
            for source in code {
                for name in item.names {
                    if let position = source.definedFunctions[name] { handlers.append(.init(name: name, location: Self.code(source, position))) }
                }
            }
        }
        for node in plist.root["CFBundleDocumentTypes"]?.array ?? [] {
            declares = true
            let contentTypes = node["LSItemContentTypes"]?.strings ?? []
            let extensions = node["CFBundleTypeExtensions"]?.strings ?? []
            let name = node["CFBundleTypeName"]?.string ?? contentTypes.first ?? extensions.first ?? "document type"
            var parts: [String] = []
            if !contentTypes.isEmpty { parts.append("content types: " + contentTypes.joined(separator: ", ")) }
            if !extensions.isEmpty { parts.append("extensions: " + extensions.joined(separator: ", ")) }
            var attributes: [String: String] = [:]
            if let role = node["CFBundleTypeRole"]?.string {
                parts.append("role \(role)")
                attributes["role"] = role
            }
            if let rank = node["LSHandlerRank"]?.string {
                parts.append("rank \(rank)")
                attributes["rank"] = rank
            }
            if !contentTypes.isEmpty { attributes["contentTypes"] = contentTypes.joined(separator: ", ") }
            add(\.documentTypes, .init(unit: unit.name, value: name, kind: "document type", detail: parts.isEmpty ? nil : parts.joined(separator: "; "),
                                       location: plistLocation(plist, node), handlers: handlers,
                                       risk: "Files of \(contentTypes.isEmpty ? "this type" : "these types") from Mail, Files, AirDrop or other apps open in the app: their contents are untrusted input to its parsers.",
                                       attributes: attributes),
                keyPaths: Self.keyPaths(of: node))
        }
        for (key, kind, risk) in [("UTExportedTypeDeclarations", "exported UTI", "Declares a file type this app owns: files of this type are routed to it from other apps."),
                                  ("UTImportedTypeDeclarations", "imported UTI", "Declares another party's file type so the app can open such files: their contents are untrusted input.")] {
            for node in plist.root[key]?.array ?? [] {
                guard let identifier = node["UTTypeIdentifier"]?.string else { continue }
                let conforms = node["UTTypeConformsTo"]?.strings ?? []
                let tags = node["UTTypeTagSpecification"]?["public.filename-extension"]
                let fileExtensions = tags?.strings ?? tags?.string.map { [$0] } ?? []
                var parts: [String] = []
                if !conforms.isEmpty { parts.append("conforms to " + conforms.joined(separator: ", ")) }
                if !fileExtensions.isEmpty { parts.append("extensions: " + fileExtensions.joined(separator: ", ")) }
                add(\.documentTypes, .init(unit: unit.name, value: identifier, kind: kind, detail: parts.isEmpty ? nil : parts.joined(separator: "; "),
                                           location: plistLocation(plist, node), risk: risk),
                    keyPaths: Self.keyPaths(of: node))
            }
        }
        return declares
    }

    mutating func extensionPoint(_ plist: PropertyListDocument, unit: AppUnit, code: [SourceSummary]) {
        guard let node = plist.root["NSExtension"] else { return }
        let identifierNode = node["NSExtensionPointIdentifier"] ?? node
        let identifier = identifierNode.string ?? "unknown extension point"
        let point = SurfaceTables.extensionPoint(identifier)
        var parts: [String] = []
        var attributes: [String: String] = [:]
        var principal: String?
        if let value = node["NSExtensionPrincipalClass"]?.string {
            parts.append("principal class \(value)")
            attributes["principalClass"] = value
            principal = value.split(separator: ".").last.map(String.init)
        }
        if let storyboard = node["NSExtensionMainStoryboard"]?.string { parts.append("storyboard \(storyboard)") }
        if let rule = node["NSExtensionAttributes"]?["NSExtensionActivationRule"] {
            if let predicate = rule.string {
                parts.append("activation rule: \(predicate)")
                attributes["activationRule"] = predicate
            } else {
                let keys = (rule.entries ?? []).map { "\($0.key)=\(Self.scalar($0.value))" }
                if !keys.isEmpty {
                    parts.append("activates for " + keys.joined(separator: ", "))
                    attributes["activationRule"] = keys.joined(separator: ", ")
                }
            }
        }
        if let intents = node["NSExtensionAttributes"]?["IntentsSupported"]?.strings, !intents.isEmpty {
            parts.append("intents: " + intents.joined(separator: ", "))
        }
        // The extension's code: its principal class, else the types adopting an extension protocol. Without
        // a project, the code in the Info.plist's folder is the extension's.
        var own = unit.sources.filter { !AppUnit.isTestPath($0.path) }
        if unit.isLoose {
            let folder = (plist.path as NSString).deletingLastPathComponent
            let local = code.filter { !folder.isEmpty && $0.path.hasPrefix(folder + "/") }
            own = local.isEmpty ? code : local
        }
        var principals: [AttackSurface.Handler] = []
        var adopters: [AttackSurface.Handler] = []
        for source in own {
            for fact in source.surfaceFacts where fact.kind == .conformance {
                let pieces = fact.value.components(separatedBy: ": ")
                guard pieces.count == 2 else { continue }
                let handler = AttackSurface.Handler(name: fact.value, location: Self.code(source, fact.position))
                if pieces[0] == principal { principals.append(handler) }
                if SurfaceTables.extensionProtocols.contains(pieces[1]) { adopters.append(handler) }
            }
        }
        let handlers = principals.isEmpty ? adopters : principals
        attributes["extensionPoint"] = identifier
        add(\.extensions, .init(unit: unit.name, value: identifier, kind: point.name, detail: parts.isEmpty ? nil : parts.joined(separator: "; "),
                                location: plistLocation(plist, identifierNode), handlers: handlers, risk: point.risk, attributes: attributes),
            keyPaths: Self.keyPaths(of: node))
        if identifier == "com.apple.usernotifications.service" || identifier == "com.apple.usernotifications.content-extension" {
            add(\.pushNotifications, .init(unit: unit.name, value: identifier, kind: point.name, location: plistLocation(plist, identifierNode),
                                           handlers: handlers, risk: point.risk),
                keyPaths: [identifierNode.keyPath])
        }
    }

    mutating func otherInfo(_ plist: PropertyListDocument, unit: AppUnit) {
        for node in plist.root["UIBackgroundModes"]?.array ?? [] {
            guard let mode = node.string else { continue }
            switch mode {
            case "remote-notification":
                add(\.pushNotifications, .init(unit: unit.name, value: "UIBackgroundModes: remote-notification", kind: "background push",
                                               location: plistLocation(plist, node),
                                               risk: "Silent pushes wake the app in the background to run code on their payload."),
                    keyPaths: [node.keyPath])
            case "bluetooth-central", "bluetooth-peripheral":
                add(\.otherIPC, .init(unit: unit.name, value: "UIBackgroundModes: \(mode)", kind: "Bluetooth", location: plistLocation(plist, node),
                                      risk: "Bluetooth LE keeps working in the background: nearby devices can reach the app at any time."),
                    keyPaths: [node.keyPath])
            default:
                break
            }
        }
        for node in plist.root["NSBonjourServices"]?.array ?? [] {
            guard let service = node.string else { continue }
            add(\.otherIPC, .init(unit: unit.name, value: service, kind: "Bonjour service", location: plistLocation(plist, node),
                                  risk: "Advertised or browsed on the local network: any device on it can answer or connect."),
                keyPaths: [node.keyPath])
        }
        for node in plist.root["NSUserActivityTypes"]?.array ?? [] {
            guard let type = node.string else { continue }
            add(\.otherIPC, .init(unit: unit.name, value: type, kind: "user activity type", location: plistLocation(plist, node),
                                  risk: "Handoff, Spotlight and Shortcuts deliver activities of this type with a userInfo the sender chose."),
                keyPaths: [node.keyPath])
        }
        for node in plist.root["INIntentsSupported"]?.array ?? [] {
            guard let intent = node.string else { continue }
            add(\.otherIPC, .init(unit: unit.name, value: intent, kind: "Siri intent", location: plistLocation(plist, node),
                                  risk: "Siri and Shortcuts run this intent with parameters they choose, possibly from the lock screen."),
                keyPaths: [node.keyPath])
        }
    }

    mutating func entitlements(_ plist: PropertyListDocument, unit: AppUnit, linkHandlers: [URLEntryPoint]) {
        let entitlements = Entitlements(document: plist)
        for domain in entitlements.associatedDomains {
            var attributes = ["service": domain.service, "domain": domain.domain]
            if let mode = domain.mode { attributes["mode"] = mode }
            add(\.associatedDomains, .init(unit: unit.name, value: "\(domain.service):\(domain.domain)", kind: domain.service,
                                           detail: domain.mode.map { "mode=\($0)" }, location: plistLocation(plist, domain.node),
                                           handlers: domain.service == "applinks" || domain.service == "activitycontinuation" ? Self.handlers(linkHandlers) : [],
                                           risk: SurfaceTables.associatedDomainRisk(service: domain.service, domain: domain.domain),
                                           attributes: attributes),
                keyPaths: [domain.node.keyPath])
        }
        for entry in entitlements.entries {
            let catalogued = EntitlementCatalogue.capabilities[entry.key]
            let risk = catalogued.flatMap { $0.risk.hasPrefix("none") ? nil : Self.sentence($0.risk) }
            switch entry.key {
            case Entitlements.applicationGroupsKey:
                for node in entry.value.array ?? [] {
                    if let group = node.string {
                        add(\.appGroups, .init(unit: unit.name, value: group, location: plistLocation(plist, node), risk: risk), keyPaths: [node.keyPath])
                    }
                }
            case Entitlements.keychainAccessGroupsKey:
                for node in entry.value.array ?? [] {
                    if let group = node.string {
                        add(\.keychainAccessGroups, .init(unit: unit.name, value: group, location: plistLocation(plist, node), risk: risk),
                            keyPaths: [node.keyPath])
                    }
                }
            case Entitlements.associatedDomainsKey:
                break
            default:
                let values = entry.value.strings
                add(\.capabilities, .init(unit: unit.name, value: entry.key, kind: catalogued?.name,
                                          detail: values.isEmpty ? nil : values.joined(separator: ", "),
                                          location: plistLocation(plist, entry.value), risk: risk),
                    keyPaths: Self.keyPaths(of: entry.value))
                if entry.key == Entitlements.apsEnvironmentKey {
                    add(\.pushNotifications, .init(unit: unit.name, value: entry.key, kind: "push entitlement", detail: entry.value.string,
                                                   location: plistLocation(plist, entry.value),
                                                   risk: "The app can receive remote notifications from whoever holds its push key and a device token."),
                        keyPaths: [entry.value.keyPath])
                }
            }
        }
    }

    /// A property-list value as the Info.plist editor shows it: YES/NO, the string or number, "…" for containers.
    static func scalar(_ node: PlistNode) -> String {
        switch node.value {
        case .bool(let flag): return flag ? "YES" : "NO"
        case .string(let text): return text
        case .integer(let number): return String(number)
        case .real(let number): return String(number)
        default: return "…"
        }
    }

    static func sentence(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.uppercased() + text.dropFirst() + (text.hasSuffix(".") ? "" : ".")
    }

    // MARK: Code

    mutating func code() {
        var endpoints: [String: (schemes: Set<String>, unit: String, locations: [Location])] = [:]
        for source in app.sources.sorted(by: { $0.path < $1.path }) where !AppUnit.isTestPath(source.path) {
            let unit = unitName(source.path)
            var messageHandlers: [AttackSurface.Handler] = []
            for name in SurfaceTables.scriptMessageHandlers {
                if let position = source.definedFunctions[name] { messageHandlers.append(.init(name: name, location: Self.code(source, position))) }
            }
            for (name, risk) in SurfaceTables.webViewTypes {
                guard let position = source.referencedNames[name] else { continue }
                add(\.webViews, .init(unit: unit, value: name, kind: "code", location: Self.code(source, position),
                                      handlers: name == "SFSafariViewController" ? [] : messageHandlers, risk: risk),
                    sameFile: { SurfaceTables.webViewRules.contains($0.ruleId) && $0.severity > .info })
            }
            let codingAdopters = source.surfaceFacts.filter { fact in
                fact.kind == .conformance && SurfaceTables.codingProtocols.keys.contains { fact.value.hasSuffix(": " + $0) }
            }.count
            for fact in source.surfaceFacts {
                let location = Self.code(source, fact.position)
                switch fact.kind {
                case .urlLiteral:
                    guard let separator = fact.value.range(of: "://") else { continue }
                    let scheme = String(fact.value[..<separator.lowerBound])
                    let host = String(fact.value[separator.upperBound...])
                    var endpoint = endpoints[host] ?? (schemes: [], unit: unit, locations: [])
                    endpoint.schemes.insert(scheme)
                    if endpoint.locations.count < 50 { endpoint.locations.append(location) }
                    endpoints[host] = endpoint
                case .deserialization:
                    let family = SurfaceTables.decoder(fact.value)
                    add(\.deserialization, .init(unit: unit, value: fact.value, kind: family.kind, location: location, risk: family.risk))
                case .pasteboardRead, .pasteboardWrite:
                    let read = fact.kind == .pasteboardRead
                    let general = fact.value.hasPrefix("UIPasteboard.general")
                    let risk = read
                        ? (general ? "Reads what any app put on the general pasteboard (iOS asks the user first): treat it as untrusted input."
                                   : "Reads a pasteboard: named pasteboards are shared with the team's other apps; treat the content as untrusted.")
                        : (general ? "Every app can read the general pasteboard and Universal Clipboard copies it to the user's other devices: mark sensitive data localOnly with an expiration."
                                   : "Writes a pasteboard other apps of the team (or, for the general one, every app) can read.")
                    add(\.pasteboard, .init(unit: unit, value: fact.value, kind: read ? "read" : "write", location: location, risk: risk))
                case .namedPasteboard:
                    add(\.pasteboard, .init(unit: unit, value: fact.value, kind: "named pasteboard", location: location,
                                            risk: "A named pasteboard is shared with every app of the same team (and persists until removed): treat what is read from it as untrusted and keep secrets off it."))
                case .conformance:
                    let pieces = fact.value.components(separatedBy: ": ")
                    guard pieces.count == 2 else { continue }
                    if let risk = SurfaceTables.codingProtocols[pieces[1]] {
                        // init(coder:) is known per file, not per type: name it only when one type of the file decodes.
                        var handlers: [AttackSurface.Handler] = []
                        if codingAdopters == 1 {
                            for name in APIs.coderInit.implementedNames {
                                if let position = source.definedFunctions[name] { handlers.append(.init(name: name, location: Self.code(source, position))) }
                            }
                        }
                        add(\.deserialization, .init(unit: unit, value: fact.value, kind: "\(pieces[1]) adopter", location: location,
                                                     handlers: handlers, risk: risk),
                            sameFile: codingAdopters == 1 ? { SurfaceTables.codingClassRules.contains($0.ruleId) } : nil)
                    } else if let known = SurfaceTables.conformances[pieces[1]] {
                        add(section(known.target), .init(unit: unit, value: fact.value, kind: known.kind, location: location, risk: known.risk))
                    }
                }
            }
            for item in SurfaceTables.functions where item.requires.isEmpty || item.requires.contains(where: { source.referencedNames[$0] != nil }) {
                for name in item.names {
                    guard let position = source.definedFunctions[name] else { continue }
                    let rules = SurfaceTables.ids(item.sameFileRules)
                    add(section(item.target), .init(unit: unit, value: name, kind: item.kind, location: Self.code(source, position), risk: item.risk),
                        sameFile: rules.isEmpty ? nil : { rules.contains($0.ruleId) })
                }
            }
            for item in SurfaceTables.references where item.requires.isEmpty || item.requires.contains(where: { source.referencedNames[$0] != nil }) {
                let positions = item.names.compactMap { source.referencedNames[$0] }
                guard let first = positions.min() else { continue }
                add(section(item.target), .init(unit: unit, value: item.label, kind: item.kind, location: Self.code(source, first), risk: item.risk))
            }
        }
        networkEndpoints(endpoints)
    }

    func section(_ target: SurfaceTables.Target) -> Section {
        switch target {
        case .fileImports: return \.fileImports
        case .pushNotifications: return \.pushNotifications
        case .otherIPC: return \.otherIPC
        case .pasteboard: return \.pasteboard
        }
    }

    mutating func networkEndpoints(_ endpoints: [String: (schemes: Set<String>, unit: String, locations: [Location])]) {
        var exceptions: [ATSException] = []
        var pins: [PinnedDomain] = []
        var arbitraryLoads = false
        var seenPlists = Set<String>()
        for unit in app.units {
            for plist in unit.infoPlists where seenPlists.insert(plist.path).inserted {
                exceptions += Self.exceptions(plist)
                pins += Self.pins(plist).map(\.pin)
                if plist.root["NSAppTransportSecurity"]?["NSAllowsArbitraryLoads"]?.bool == true { arbitraryLoads = true }
            }
        }
        for host in endpoints.keys.sorted() {
            guard let endpoint = endpoints[host], let first = endpoint.locations.first else { continue }
            let bare = host.split(separator: ":").first.map(String.init) ?? host
            let schemes = endpoint.schemes.sorted()
            let exception = exceptions.filter { $0.covers(bare) }.max { $0.domain.count < $1.domain.count }
            let pinned = pins.contains { $0.covers(bare) }
            var attributes = ["schemes": schemes.joined(separator: ", "), "pinned": pinned ? "NSPinnedDomains" : "no"]
            var details: [String] = []
            if let exception {
                attributes["ats"] = "exception \(exception.domain)"
                details.append("ATS exception \(exception.domain): \(exception.summary)")
            } else {
                attributes["ats"] = arbitraryLoads ? "NSAllowsArbitraryLoads" : "default"
                if arbitraryLoads { details.append("ATS disabled by NSAllowsArbitraryLoads") }
            }
            if pinned { details.append("pinned in NSPinnedDomains") }
            let risk: String
            if endpoint.schemes.contains("http") {
                let allowed = exception?.allowsHTTP == true || exception == nil && arbitraryLoads
                risk = allowed
                    ? "Plain HTTP that App Transport Security lets through: anyone on the network path can read and change the traffic."
                    : "Plain HTTP: App Transport Security blocks it unless an exception allows it; if loaded, anyone on the path can read and change it."
            } else if pinned {
                risk = "HTTPS with pinned keys: interception needs one of the pinned keys."
            } else {
                risk = "HTTPS validated against the system's trusted CAs, not pinned: a CA the device trusts (MDM, user-installed) can intercept it."
            }
            var entry = AttackSurface.Entry(unit: endpoint.unit, value: host, kind: schemes.joined(separator: ", "),
                                            detail: details.isEmpty ? nil : details.joined(separator: "; "), location: first,
                                            risk: risk, attributes: attributes)
            entry.alsoAt = Array(endpoint.locations.dropFirst())
            add(\.networkEndpoints, entry)
        }
    }

    mutating func interfaceBuilder() {
        for document in app.interfaceBuilderDocuments where document.isCocoaTouch {
            for (kind, objects) in [("UIWebView", document.webViews), ("WKWebView", document.wkWebViews)] {
                let risk = SurfaceTables.webViewTypes.first { $0.name == kind }?.risk
                for object in objects {
                    add(\.webViews, .init(unit: unitName(document.path), value: kind, kind: "Interface Builder", detail: object.controller,
                                          location: Location(path: document.path, line: object.line, column: object.column), risk: risk))
                }
            }
        }
    }

    // MARK: Findings

    mutating func annotate(_ findings: [Finding], rulesThatRan: Set<String>?) {
        func ran(_ id: String) -> Bool { rulesThatRan?.contains(id) ?? true }
        // JavaScript bridges come from the typed entries of the bridge inventory.
        let bridgeKinds: [InventoryItem.Kind: String] = [.scriptMessageHandler: "script message handler", .jsExportProtocol: "JSExport protocol",
                                                         .jsContextValue: "JSContext value"]
        let bridges = findings.compactMap { finding in
            finding.inventory.flatMap { item in bridgeKinds[item.kind].map { (finding.location, item, $0) } }
        }
        for (location, item, kind) in bridges {
            var handlers: [AttackSurface.Handler] = []
            if item.kind == .scriptMessageHandler, let source = app.sources.first(where: { $0.path == location.path }) {
                for function in SurfaceTables.scriptMessageHandlers {
                    if let position = source.definedFunctions[function] { handlers.append(.init(name: function, location: Self.code(source, position))) }
                }
            }
            add(\.javaScriptBridges, .init(unit: unitName(location.path), value: item.name.isEmpty ? item.detail ?? "" : item.name, kind: kind,
                                           detail: item.detail, location: location, handlers: handlers,
                                           risk: "Any script running in the page, injected ones included, can call it."),
                sameFile: item.kind == .scriptMessageHandler ? { SurfaceTables.scriptMessageRules.contains($0.ruleId) } : nil)
        }
        let trustCode = findings.filter { $0.inventory?.kind == .customTrust }
        // Findings by every file they touch (their location and dataflow steps), so each entry looks only
        // at the findings of its own files. Inventory entries are entries, not notes.
        var byPath: [String: [Int]] = [:]
        let defects = findings.filter { $0.inventory == nil && !Self.inventoryRules.contains($0.ruleId) }
        for (index, finding) in defects.enumerated() {
            for path in Set([finding.location.path] + finding.related.map(\.location.path)) { byPath[path, default: []].append(index) }
        }
        for index in items.indices {
            var item = items[index]
            var notes: [AttackSurface.Note] = []
            let places = [item.entry.location] + item.entry.alsoAt + item.entry.handlers.map(\.location)
            let files = Set(places.map(\.path))
            let candidates = Set(files.flatMap { byPath[$0] ?? [] }).sorted()
            for finding in candidates.map({ defects[$0] }) {
                let location = finding.location
                // Same line; a binary's symbol or a plist key must agree too (whole-binary findings sit on line 1).
                let samePlace = places.contains { place in
                    place.path == location.path && place.line == location.line && place.symbol == location.symbol
                        && (place.keyPath == nil || location.keyPath == nil || place.keyPath == location.keyPath
                            || item.keyPaths.contains(location.keyPath ?? ""))
                }
                let onPath = finding.related.contains { step in places.contains { $0.path == step.location.path && $0.line == step.location.line } }
                let sameKey = location.keyPath.map { item.keyPaths.contains($0) && location.path == item.entry.location.path } ?? false
                let sameFile = item.sameFile.map { files.contains(location.path) && $0(finding) } ?? false
                var about = samePlace || onPath || sameKey || sameFile
                if item.section == \AttackSurface.urlSchemes || item.entry.kind == "applinks",
                   finding.ruleId == SurfaceTables.sensitiveURLAction || finding.ruleId == SurfaceTables.unvalidatedURLInput,
                   !item.entry.handlers.isEmpty {
                    let handlerFiles = Set(item.entry.handlers.map(\.location.path))
                    about = about || handlerFiles.contains(location.path) || finding.related.contains { handlerFiles.contains($0.location.path) }
                }
                if about { notes.append(AttackSurface.Note(finding)) }
            }
            var seenNotes = Set<String>()
            item.entry.notes = notes.filter { seenNotes.insert("\($0.ruleId)|\($0.location.path)|\($0.location.line)|\($0.message)").inserted }
                .sorted { ($0.location, $0.ruleId) < ($1.location, $1.ruleId) }
            let ruleIds = Set(item.entry.notes.map(\.ruleId))
            if item.section == \AttackSurface.urlSchemes {
                let (withoutHandler, sensitive) = (SurfaceTables.schemeWithoutHandler, SurfaceTables.sensitiveURLAction)
                let (deprecated, generic) = (SurfaceTables.deprecatedURLHandler, SurfaceTables.genericURLScheme)
                var validation: [String] = []
                if item.entry.handlers.isEmpty {
                    validation.append("no handler found" + (ruleIds.contains(withoutHandler) ? " (\(withoutHandler))" : ""))
                } else {
                    if ruleIds.contains(sensitive) {
                        validation.append("a handler performs a sensitive action without validation or confirmation (\(sensitive))")
                    } else {
                        validation.append(ran(sensitive) ? "no unvalidated sensitive action found (\(sensitive))" : "not checked (\(sensitive) did not run)")
                    }
                    let unvalidated = SurfaceTables.unvalidatedURLInput
                    if ruleIds.contains(unvalidated) {
                        validation.append("a handler stores, fetches or shows the URL's values without validating them (\(unvalidated))")
                    }
                    if ruleIds.contains(deprecated) { validation.append("deprecated handler (\(deprecated))") }
                }
                if ruleIds.contains(generic) { validation.append("generic scheme name (\(generic))") }
                item.entry.attributes["validation"] = validation.joined(separator: "; ")
            }
            if item.section == \AttackSurface.webViews, item.entry.kind == "code" {
                let names = bridges.filter { $0.0.path == item.entry.location.path }.map(\.1.name).filter { !$0.isEmpty }
                if !names.isEmpty {
                    item.entry.detail = "bridges in this file: " + names.joined(separator: ", ")
                    item.entry.attributes["bridges"] = names.joined(separator: ", ")
                }
            }
            if item.section == \AttackSurface.networkEndpoints, item.entry.attributes["pinned"] == "no",
               item.entry.kind?.contains("https") == true, !trustCode.isEmpty {
                let text = "the app handles server trust in code at \(trustCode.count) place\(trustCode.count == 1 ? "" : "s") (\(SurfaceTables.customTrust)): check whether it pins this host"
                item.entry.detail = item.entry.detail.map { $0 + "; " + text } ?? text
                item.entry.attributes["customTrust"] = String(trustCode.count)
            }
            items[index] = item
        }
    }

    /// Rules that only list inventory: their findings are entries of their own, never notes on others.
    static let inventoryRules = Set(RuleRegistry.all.filter { $0.description.isInventory }.map { $0.description.id })

    func finish() -> AttackSurface {
        var surface = AttackSurface()
        for item in items { surface[keyPath: item.section].append(item.entry) }
        for section in surface.sections {
            guard let path = Self.sectionPaths[section.key] else { continue }
            surface[keyPath: path].sort { ($0.location, $0.value, $0.unit) < ($1.location, $1.value, $1.unit) }
        }
        return surface
    }

    static var sectionPaths: [String: Section] {
        [
        "urlSchemes": \.urlSchemes, "associatedDomains": \.associatedDomains, "urlHandlers": \.urlHandlers,
        "queriedSchemes": \.queriedSchemes, "documentTypes": \.documentTypes, "fileImports": \.fileImports,
        "extensions": \.extensions, "appGroups": \.appGroups, "keychainAccessGroups": \.keychainAccessGroups,
        "webViews": \.webViews, "javaScriptBridges": \.javaScriptBridges, "deserialization": \.deserialization,
        "networkEndpoints": \.networkEndpoints, "transportSecurityExceptions": \.transportSecurityExceptions,
        "pinnedDomains": \.pinnedDomains, "pasteboard": \.pasteboard, "pushNotifications": \.pushNotifications,
        "otherIPC": \.otherIPC, "capabilities": \.capabilities, "usageDescriptions": \.usageDescriptions,
        ]
    }
}
