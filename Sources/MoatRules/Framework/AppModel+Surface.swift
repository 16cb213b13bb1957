import MoatCore
import MoatFormats
import MoatSyntax

/// Where data enters the app: what `moat surface` prints and every report summarises. Built from the
/// configuration (Info.plists, entitlements, Xcode targets, storyboards), from per-file code facts
/// (`SourceSummary`), and — when a scan ran — annotated with the findings about each entry.
///
/// Every entry names the unit (target) it belongs to, where it is declared or used, the code that
/// handles it when there is one, and its risk in one sentence.
public struct AttackSurface: Codable, Sendable {
    /// Code that receives what an entry lets in.
    public struct Handler: Codable, Sendable, Hashable {
        /// `application(_:open:options:)`, `ShareViewController: NSExtensionRequestHandling`...
        public var name: String
        public var location: Location

        public init(name: String, location: Location) {
            self.name = name
            self.location = location
        }
    }

    /// A finding about an entry (or its handler): the validation the scan did or did not see.
    public struct Note: Codable, Sendable, Hashable {
        public var ruleId: String
        public var severity: Severity
        public var message: String
        public var location: Location

        public init(ruleId: String, severity: Severity, message: String, location: Location) {
            self.ruleId = ruleId
            self.severity = severity
            self.message = message
            self.location = location
        }

        public init(_ finding: Finding) {
            self.init(ruleId: finding.ruleId, severity: finding.severity, message: finding.message, location: finding.location)
        }
    }

    public struct Entry: Codable, Sendable, Hashable {
        /// Target name; "" for code and documents no app or extension target claims.
        public var unit: String
        /// The scheme, domain, group, host, API, extension point...
        public var value: String
        /// A sub-kind within the section (`read`/`write` for the pasteboard, `Share extension`, `exported UTI`,
        /// `code`/`Interface Builder` for web views...).
        public var kind: String?
        /// Extra facts: the purpose string, the handlers, the exception's settings...
        public var detail: String?
        /// Where it is declared or first used (file:line, with the key path for property lists and build settings).
        public var location: Location
        public var handlers: [Handler]
        /// The risk in one sentence, where one applies.
        public var risk: String?
        /// Machine-readable facts, per section (documented in Docs/formats.md): `validation`, `pinned`, `ats`...
        public var attributes: [String: String]
        /// Findings of the scan about this entry or its handlers.
        public var notes: [Note]
        /// Further places (other uses of the same host, say).
        public var alsoAt: [Location]

        public init(unit: String, value: String, kind: String? = nil, detail: String? = nil, location: Location,
                    handlers: [Handler] = [], risk: String? = nil, attributes: [String: String] = [:]) {
            self.unit = unit
            self.value = value
            self.kind = kind
            self.detail = detail
            self.location = location
            self.handlers = handlers
            self.risk = risk
            self.attributes = attributes
            self.notes = []
            self.alsoAt = []
        }

        enum CodingKeys: String, CodingKey {
            case unit, value, kind, detail, location, handlers, risk, attributes, notes, alsoAt
        }

        /// Every key is always written (null when absent), so the JSON shape does not depend on the app.
        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(unit, forKey: .unit)
            try container.encode(value, forKey: .value)
            try container.encode(kind, forKey: .kind)
            try container.encode(detail, forKey: .detail)
            try container.encode(location, forKey: .location)
            try container.encode(handlers, forKey: .handlers)
            try container.encode(risk, forKey: .risk)
            try container.encode(attributes, forKey: .attributes)
            try container.encode(notes, forKey: .notes)
            try container.encode(alsoAt, forKey: .alsoAt)
        }

        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            unit = try container.decodeIfPresent(String.self, forKey: .unit) ?? ""
            value = try container.decode(String.self, forKey: .value)
            kind = try container.decodeIfPresent(String.self, forKey: .kind)
            detail = try container.decodeIfPresent(String.self, forKey: .detail)
            location = try container.decode(Location.self, forKey: .location)
            handlers = try container.decodeIfPresent([Handler].self, forKey: .handlers) ?? []
            risk = try container.decodeIfPresent(String.self, forKey: .risk)
            attributes = try container.decodeIfPresent([String: String].self, forKey: .attributes) ?? [:]
            notes = try container.decodeIfPresent([Note].self, forKey: .notes) ?? []
            alsoAt = try container.decodeIfPresent([Location].self, forKey: .alsoAt) ?? []
        }
    }

    /// Custom URL schemes (`CFBundleURLTypes`), with the code that receives them and whether it validates.
    public var urlSchemes: [Entry] = []
    /// `service:domain` entries of the associated domains entitlement (universal links and friends).
    public var associatedDomains: [Entry] = []
    /// Code that receives URLs: scheme handlers and universal link handlers.
    public var urlHandlers: [Entry] = []
    /// Schemes queried with `canOpenURL` (`LSApplicationQueriesSchemes`).
    public var queriedSchemes: [Entry] = []
    /// `CFBundleDocumentTypes`, imported and exported UTIs, `LSSupportsOpeningDocumentsInPlace`,
    /// `UIFileSharingEnabled`, `UISupportsDocumentBrowser`.
    public var documentTypes: [Entry] = []
    /// Where files come in: document pickers, `fileImporter`, item providers, drops, URL handlers that
    /// receive documents, Multipeer resources.
    public var fileImports: [Entry] = []
    /// App extensions (`NSExtension` points, extension targets).
    public var extensions: [Entry] = []
    public var appGroups: [Entry] = []
    public var keychainAccessGroups: [Entry] = []
    /// Web views: in code (per file and class) and in storyboards and xibs.
    public var webViews: [Entry] = []
    /// Native code callable from JavaScript (script message handlers, JSContext objects, JSExport).
    public var javaScriptBridges: [Entry] = []
    /// Calls that decode data into objects or values, and `NSCoding` adopters.
    public var deserialization: [Entry] = []
    /// Hosts of `http`/`https` URL literals in code, with whether they are pinned and their ATS exception.
    public var networkEndpoints: [Entry] = []
    /// ATS global relaxations (`NSAllowsArbitraryLoads`...) and exception domains with their settings.
    public var transportSecurityExceptions: [Entry] = []
    /// `NSPinnedDomains`.
    public var pinnedDomains: [Entry] = []
    /// Reads and writes of the pasteboard.
    public var pasteboard: [Entry] = []
    /// Remote and local notification handlers, notification extensions, the push entitlement.
    public var pushNotifications: [Entry] = []
    /// Share sheet, user activities and Handoff, App Intents and Siri, Bonjour and local network, Multipeer,
    /// Bluetooth, NFC, Watch connectivity.
    public var otherIPC: [Entry] = []
    /// Other entitlements (capabilities), with the exposure each brings.
    public var capabilities: [Entry] = []
    /// Privacy usage descriptions, with the purpose string in `detail`.
    public var usageDescriptions: [Entry] = []

    public init() {}

    /// Web views placed in storyboards and xibs.
    public var interfaceBuilderWebViews: [Entry] { webViews.filter { $0.kind == "Interface Builder" } }

    /// One section: its JSON key, its title for people, and its entries.
    public struct Section: Sendable {
        public var key: String
        public var title: String
        public var entries: [Entry]
    }

    /// Every section in the order reports show them.
    public var sections: [Section] {
        [
            Section(key: "urlSchemes", title: "URL schemes", entries: urlSchemes),
            Section(key: "associatedDomains", title: "Universal links and associated domains", entries: associatedDomains),
            Section(key: "urlHandlers", title: "Code that receives URLs", entries: urlHandlers),
            Section(key: "queriedSchemes", title: "Queried URL schemes", entries: queriedSchemes),
            Section(key: "documentTypes", title: "Document types and UTIs", entries: documentTypes),
            Section(key: "fileImports", title: "File imports", entries: fileImports),
            Section(key: "extensions", title: "App extensions", entries: extensions),
            Section(key: "appGroups", title: "App groups", entries: appGroups),
            Section(key: "keychainAccessGroups", title: "Keychain access groups", entries: keychainAccessGroups),
            Section(key: "webViews", title: "Web views", entries: webViews),
            Section(key: "javaScriptBridges", title: "JavaScript bridges", entries: javaScriptBridges),
            Section(key: "deserialization", title: "Deserialization", entries: deserialization),
            Section(key: "networkEndpoints", title: "Network endpoints", entries: networkEndpoints),
            Section(key: "transportSecurityExceptions", title: "App Transport Security exceptions", entries: transportSecurityExceptions),
            Section(key: "pinnedDomains", title: "Pinned domains", entries: pinnedDomains),
            Section(key: "pasteboard", title: "Pasteboard", entries: pasteboard),
            Section(key: "pushNotifications", title: "Push notifications", entries: pushNotifications),
            Section(key: "otherIPC", title: "Other IPC", entries: otherIPC),
            Section(key: "capabilities", title: "Other capabilities", entries: capabilities),
            Section(key: "usageDescriptions", title: "Privacy permissions", entries: usageDescriptions),
        ]
    }

    /// The key paths of every section (in no particular order).
    public static var sectionKeyPaths: [WritableKeyPath<AttackSurface, [Entry]>] { Array(SurfaceBuilder.sectionPaths.values) }

    /// Entries in all sections.
    public var count: Int { sections.reduce(0) { $0 + $1.entries.count } }
    public var isEmpty: Bool { count == 0 }
}

extension AppModel {
    /// The attack surface from the configuration and the code alone.
    public var surface: AttackSurface { surface(findings: nil) }

    /// The attack surface, annotated with a scan's findings when given: notes on each entry, bridges from
    /// the JavaScript bridge inventory, whether URL handlers validate. `rulesThatRan` (rule ids) lets an
    /// entry say "not checked" rather than "nothing found" when a rule was left out.
    public func surface(findings: [Finding]?, rulesThatRan: Set<String>? = nil) -> AttackSurface {
        var builder = SurfaceBuilder(app: self)
        builder.build()
        if let findings {
            builder.annotate(findings.filter { $0.suppression == nil && !$0.isNonShipping }, rulesThatRan: rulesThatRan)
        }
        return builder.finish()
    }
}
