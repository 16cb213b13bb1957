/// A typed inventory entry: a fact about the attack surface that an inventory rule (or the app model)
/// found, as data. The attack surface (`moat surface`, the HTML report, SARIF `runs[0].properties`) is
/// built from these, never from rule ids or message text: rewording a message changes no surface entry.
///
/// An inventory rule reports it with `FindingSink.inventory(_:_:...)`; the entry travels with the
/// finding that describes it (`Finding.inventory`), which is listed among the findings only when asked
/// (`moat scan --include-inventory`, `"includeInventory": true` in `.moat.json`).
public struct InventoryItem: Codable, Sendable, Hashable {
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// A custom URL scheme registered in an Info.plist (`name`: the scheme).
        case urlScheme
        /// Schemes queried with `canOpenURL` (`name`: the schemes, comma-separated).
        case queriedSchemes
        /// An associated domain (`name`: `service:domain`).
        case associatedDomain
        /// A script message handler registered on a web view (`name`: the handler's name).
        case scriptMessageHandler
        /// A protocol adopting `JSExport` (`name`: the protocol).
        case jsExportProtocol
        /// A block or object put into a `JSContext` (`name`: its key).
        case jsContextValue
        /// Code that handles server trust itself or configures pinning (`name`: the function or API).
        case customTrust
        /// A call that decodes data into objects (`name`: the API).
        case deserializationSite
        /// An entitlement (`name`: its key).
        case entitlement
        /// A privacy usage description (`name`: its key).
        case permission
        /// An App Transport Security setting (`name`: the key or exception domain).
        case transportSecurity
        /// A domain pinned with `NSPinnedDomains` (`name`: the domain).
        case pinnedDomain
        /// A web view placed in a storyboard or xib (`name`: its class).
        case interfaceBuilderWebView
        /// A binary's facts: architecture, platform, encryption, signature (`name`: the binary).
        case binary
        /// A framework or library embedded in a built app (`name`: its name).
        case embeddedFramework
        /// A provisioning profile (`name`: its name).
        case profile
        /// A C function a binary imports that the inventory lists (`name`: the symbol).
        case importedFunction
    }

    public var kind: Kind
    /// The scheme, domain, handler, protocol, key, binary... the entry is about.
    public var name: String
    /// What the entry says, in one sentence (shown as the surface entry's detail).
    public var detail: String?

    public init(_ kind: Kind, name: String, detail: String? = nil) {
        self.kind = kind
        self.name = name
        self.detail = detail
    }
}
