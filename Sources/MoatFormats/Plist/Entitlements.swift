/// A typed view of an `.entitlements` property list (or the entitlements embedded in a signed binary).
public struct Entitlements: Sendable {
    public let document: PropertyListDocument

    public init(document: PropertyListDocument) {
        self.document = document
    }

    public static let getTaskAllowKey = "get-task-allow"
    public static let apsEnvironmentKey = "aps-environment"
    public static let applicationGroupsKey = "com.apple.security.application-groups"
    public static let keychainAccessGroupsKey = "keychain-access-groups"
    public static let associatedDomainsKey = "com.apple.developer.associated-domains"

    /// `get-task-allow`: a debugger may attach to the process.
    public var getTaskAllow: PlistNode? { document.root[Self.getTaskAllowKey] }
    /// `aps-environment`: `development` or `production` push notification servers.
    public var apsEnvironment: PlistNode? { document.root[Self.apsEnvironmentKey] }
    public var applicationGroups: [String] { document.root[Self.applicationGroupsKey]?.strings ?? [] }
    public var keychainAccessGroups: [String] { document.root[Self.keychainAccessGroupsKey]?.strings ?? [] }

    /// `com.apple.developer.associated-domains` entries split into service and domain:
    /// `applinks:example.com?mode=developer` → (`applinks`, `example.com`, `developer`).
    public var associatedDomains: [AssociatedDomain] {
        guard let node = document.root[Self.associatedDomainsKey] else { return [] }
        let elements = node.array ?? [node]
        return elements.compactMap { element in
            guard let text = element.string else { return nil }
            return AssociatedDomain(text, node: element)
        }
    }

    /// Every top-level key with its value node, in file order.
    public var entries: [PlistEntry] {
        (document.root.entries ?? []).sorted { ($0.keyLine ?? 0, $0.key) < ($1.keyLine ?? 0, $1.key) }
    }
}

/// One `service:domain[?mode=...]` entry of the associated domains entitlement.
public struct AssociatedDomain: Sendable {
    /// `applinks`, `webcredentials`, `activitycontinuation`, `appclips`.
    public var service: String
    public var domain: String
    /// `developer` or `managed` when a `?mode=` suffix is present.
    public var mode: String?
    public var node: PlistNode

    public init?(_ text: String, node: PlistNode) {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        service = String(text[..<colon])
        var rest = String(text[text.index(after: colon)...])
        if let question = rest.firstIndex(of: "?") {
            let query = rest[rest.index(after: question)...]
            rest = String(rest[..<question])
            mode = query.hasPrefix("mode=") ? String(query.dropFirst(5)) : nil
        }
        domain = rest
        self.node = node
    }
}

/// A typed view of a `PrivacyInfo.xcprivacy` privacy manifest.
public struct PrivacyManifest: Sendable {
    public let document: PropertyListDocument

    public init(document: PropertyListDocument) {
        self.document = document
    }

    /// `NSPrivacyTracking`: whether the app or SDK uses data for tracking as defined by App Tracking Transparency.
    public var tracking: PlistNode? { document.root["NSPrivacyTracking"] }
    /// `NSPrivacyTrackingDomains`: the node of the list, and its strings.
    public var trackingDomainsNode: PlistNode? { document.root["NSPrivacyTrackingDomains"] }
    public var trackingDomains: [String] { trackingDomainsNode?.strings ?? [] }
    public var collectedDataTypes: [PlistNode] { document.root["NSPrivacyCollectedDataTypes"]?.array ?? [] }

    /// One `NSPrivacyAccessedAPITypes` entry: a required-reason API category and its declared reasons.
    public struct AccessedAPIType: Sendable {
        /// `NSPrivacyAccessedAPICategoryUserDefaults`...
        public var category: String
        /// The node of the category string (report declared-but-unused categories here).
        public var categoryNode: PlistNode
        public var reasons: [String]
        public var reasonsNode: PlistNode?
    }

    public var accessedAPITypes: [AccessedAPIType] {
        (document.root["NSPrivacyAccessedAPITypes"]?.array ?? []).compactMap { entry in
            guard let node = entry["NSPrivacyAccessedAPIType"], let category = node.string else { return nil }
            let reasonsNode = entry["NSPrivacyAccessedAPITypeReasons"]
            return AccessedAPIType(category: category, categoryNode: node,
                                   reasons: reasonsNode?.strings.filter { !$0.isEmpty } ?? [], reasonsNode: reasonsNode)
        }
    }
}
