import MoatCore

/// The names the attack-surface inventory looks for, with the section they belong to and their risk in
/// one sentence. Functions are full names as `SourceSummary.definedFunctions` records them (Swift and
/// Objective-C); references are names as `SourceSummary.referencedNames` records them.
enum SurfaceTables {
    /// The ids of rule types (rules are named by their type, never by a literal id or a message).
    static func ids(_ rules: [any Rule.Type]) -> Set<String> { Set(rules.map { $0.description.id }) }

    /// Rules that judge a web view's configuration or content: their findings anywhere in the file of a
    /// web view created in code are about it.
    static let webViewRules = ids([
        WebViewFileAccessRule.self, WebViewBroadReadAccessRule.self, WebViewHTMLFileBaseURLRule.self,
        WebViewJavaScriptWindowsRule.self, WebViewJavaScriptLocalContentRule.self, WebViewInspectableRule.self,
        WebViewPhoneNumberDetectionRule.self, WebViewCleartextLoadRule.self, ScriptMessageOriginRule.self,
        JavaScriptInjectionRule.self,
    ])
    /// Rules whose findings in a script message handler's file are about the handler.
    static let scriptMessageRules = ids([ScriptMessageOriginRule.self])
    /// Rules that judge the classes an app archives: in a file with one coding adopter, about that type.
    static let codingClassRules = ids([InsecureCodingClassRule.self])
    /// Rules whose findings say how URL handlers validate what they receive (the `validation` attribute).
    static let sensitiveURLAction = URLSchemeSensitiveActionRule.description.id
    static let unvalidatedURLInput = URLHandlerUnvalidatedInputRule.description.id
    static let schemeWithoutHandler = URLSchemeWithoutHandlerRule.description.id
    static let deprecatedURLHandler = DeprecatedURLHandlerRule.description.id
    static let genericURLScheme = GenericURLSchemeRule.description.id
    /// The rule whose inventory lists code that handles server trust.
    static let customTrust = PinningInventoryRule.description.id

    enum Target {
        case fileImports, pushNotifications, otherIPC, pasteboard
    }

    struct Item {
        var target: Target
        /// Names, any of which marks the item.
        var names: [String]
        /// What the entry is called (`value`).
        var label: String
        var kind: String
        var risk: String
        /// Names one of which the same file must also reference (for names too generic alone).
        var requires: [String] = []
        /// Findings of these rules anywhere in the entry's file are about it.
        var sameFileRules: [any Rule.Type] = []
    }

    /// The full names of a delegate method the app implements: Swift names and selectors.
    static func names(_ api: API) -> [String] { api.implementedNames }

    /// Delegate methods and other functions the app defines to receive outside input.
    static let functions: [Item] = [
        Item(target: .fileImports, names: names(APIs.documentPickerSelection),
             label: "document picker", kind: "document picker",
             risk: "Files the user picks from any provider: their names and contents are untrusted (path traversal, parser bugs), and they need security-scoped access."),
        Item(target: .fileImports, names: names(APIs.documentBrowserSelection),
             label: "document browser", kind: "document browser",
             risk: "Documents opened from the Files browser come from any provider: their contents are untrusted input."),
        Item(target: .fileImports, names: names(APIs.peerResourceFinish),
             label: "Multipeer resource", kind: "Multipeer / AirDrop-like transfer",
             risk: "A nearby peer sends a file and chooses its name: never build a path from the name, and parse the content as untrusted."),
        Item(target: .fileImports, names: names(APIs.dropPerform),
             label: "drag and drop", kind: "drop",
             risk: "Items dropped from other apps are untrusted input."),
        Item(target: .fileImports, names: names(APIs.photoPickerSelection),
             label: "photo picker", kind: "photo picker", risk: "Images and files from the photo library: parse them as untrusted input.",
             requires: ["PHPickerViewController"]),
        Item(target: .pushNotifications, names: names(APIs.remoteNotificationReceipt),
             label: "remote notification handler", kind: "remote notification",
             risk: "Runs on every push payload, even in the background: its fields are untrusted and must not trigger actions without confirmation."),
        Item(target: .pushNotifications, names: names(APIs.notificationResponse),
             label: "notification response handler", kind: "notification response",
             risk: "Runs when the user taps a notification: the payload's fields (links, identifiers) drive the app and must be validated."),
        Item(target: .pushNotifications, names: names(APIs.notificationPresentation),
             label: "foreground notification handler", kind: "notification presentation",
             risk: "Sees every notification that arrives while the app is open: treat its payload as untrusted."),
        Item(target: .pushNotifications, names: names(APIs.pushKitIncoming),
             label: "PushKit (VoIP) handler", kind: "VoIP push",
             risk: "VoIP pushes wake the app in the background with a payload from the push provider: validate it before acting."),
        Item(target: .pushNotifications, names: names(APIs.notificationServiceRequest),
             label: "notification service handler", kind: "notification service",
             risk: "Runs on push payloads before they are shown, and may download attachments from URLs the payload names.",
             requires: ["UNNotificationServiceExtension"]),
        Item(target: .pushNotifications, names: names(APIs.remoteNotificationRegistration),
             label: "device token registration", kind: "registration",
             risk: "The device token goes to the app's server; whoever holds it and the push key can send notifications to this device."),
        Item(target: .otherIPC, names: names(APIs.peerDataReceipt),
             label: "Multipeer data", kind: "Multipeer Connectivity",
             risk: "Nearby peers send messages the app must treat as untrusted, including messages that change its state.",
             sameFileRules: [RemoteMessageStateRule.self]),
        Item(target: .otherIPC, names: names(APIs.peerStreamReceipt),
             label: "Multipeer stream", kind: "Multipeer Connectivity",
             risk: "Nearby peers open streams whose bytes the app must treat as untrusted."),
        Item(target: .otherIPC, names: names(APIs.intentHandler),
             label: "in-app intent handling", kind: "Siri / Shortcuts",
             risk: "Siri and Shortcuts run intents with parameters they choose, possibly from the lock screen."),
    ]

    /// Names that show `loadItem`-like calls are on item providers, not on the app's own types.
    static let itemProviderNames = ["NSItemProvider", "attachments", "itemProviders", "inputItems", "NSExtensionItem",
                                    itemLoad.selector] + APIs.itemProviderFileLoad.selectors + [dataLoad.selector]

    /// The Swift base name and the selector of one of an API's calls (its Swift names and selectors are
    /// listed in the same order).
    static func call(_ api: API, _ index: Int) -> (swift: String, selector: String) {
        (String(api.swift[index].prefix { $0 != "(" }), api.selectors[index])
    }
    /// `NSItemProvider`'s item and data loads.
    static let itemLoad = call(APIs.itemProviderLoad, 0), dataLoad = call(APIs.itemProviderLoad, 1)

    /// Types, calls and modifiers whose use opens a way in.
    static let references: [Item] = [
        Item(target: .fileImports, names: ["fileImporter"], label: "SwiftUI fileImporter", kind: "document picker",
             risk: "Files the user picks from any provider: their names and contents are untrusted input."),
        Item(target: .fileImports, names: ["UIDocumentPickerViewController"], label: "UIDocumentPickerViewController", kind: "document picker",
             risk: "Files the user picks from any provider: their names and contents are untrusted input."),
        Item(target: .fileImports, names: [itemLoad.swift, itemLoad.selector],
             label: "NSItemProvider.loadItem", kind: "item provider",
             risk: "Items shared or dropped by other apps: files, URLs and data of any content.",
             requires: itemProviderNames),
        Item(target: .fileImports, names: APIs.itemProviderFileLoad.swiftBaseNames + APIs.itemProviderFileLoad.selectors,
             label: "NSItemProvider file representation", kind: "item provider",
             risk: "Files shared or dropped by other apps: their names and contents are untrusted input.",
             requires: itemProviderNames),
        Item(target: .fileImports, names: [dataLoad.swift, dataLoad.selector],
             label: "NSItemProvider data representation", kind: "item provider",
             risk: "Data shared or dropped by other apps: parse it as untrusted input.",
             requires: itemProviderNames),
        Item(target: .fileImports, names: ["inputItems"], label: "extension input items", kind: "extension context",
             risk: "Items the host app hands to the extension: every attachment is untrusted input.",
             requires: ["extensionContext"]),
        Item(target: .fileImports, names: ["onDrop", "dropDestination"], label: "SwiftUI drop", kind: "drop",
             risk: "Items dropped from other apps are untrusted input."),
        Item(target: .pushNotifications, names: ["registerForRemoteNotifications"], label: "registerForRemoteNotifications",
             kind: "registration", risk: "The app asks for a device token: its server can then push payloads to it."),
        Item(target: .pasteboard, names: ["PasteButton", "UIPasteControl"], label: "paste control", kind: "read (user action)",
             risk: "Pastes what any app put on the pasteboard when the user taps it: treat the content as untrusted."),
        Item(target: .otherIPC, names: ["UIActivityViewController"], label: "UIActivityViewController", kind: "share sheet",
             risk: "Sends data to any app or service the user picks: share only what the user means to share."),
        Item(target: .otherIPC, names: ["NSUserActivity"], label: "NSUserActivity", kind: "Handoff / user activity",
             risk: "Activities the app publishes go to Handoff and Spotlight (and other devices); activities it receives carry any userInfo."),
        Item(target: .otherIPC, names: ["NWListener"], label: "NWListener", kind: "local network server",
             risk: "Accepts connections from other devices: every peer is unauthenticated unless the app checks."),
        Item(target: .otherIPC, names: ["NWBrowser", "NetServiceBrowser", "NSNetServiceBrowser"], label: "Bonjour browser", kind: "Bonjour",
             risk: "Discovers services on the local network: any device can advertise one."),
        Item(target: .otherIPC, names: ["NetService", "NSNetService"], label: "Bonjour service", kind: "Bonjour",
             risk: "Publishes or resolves a service on the local network, visible to every device on it."),
        Item(target: .otherIPC, names: ["MCNearbyServiceAdvertiser", "MCAdvertiserAssistant"], label: "Multipeer advertiser", kind: "Multipeer Connectivity",
             risk: "Advertises the device to nearby peers, who can ask to join and send data."),
        Item(target: .otherIPC, names: ["MCNearbyServiceBrowser", "MCBrowserViewController"], label: "Multipeer browser", kind: "Multipeer Connectivity",
             risk: "Finds nearby peers; any device can advertise the same service type."),
        Item(target: .otherIPC, names: ["CBCentralManager"], label: "CBCentralManager", kind: "Bluetooth",
             risk: "Connects to nearby Bluetooth LE devices: their data is untrusted input."),
        Item(target: .otherIPC, names: ["CBPeripheralManager"], label: "CBPeripheralManager", kind: "Bluetooth",
             risk: "Makes the device a Bluetooth LE peripheral that nearby devices can read and write."),
        Item(target: .otherIPC, names: ["NFCNDEFReaderSession", "NFCTagReaderSession"], label: "NFC reader", kind: "NFC",
             risk: "Reads NFC tags anyone can write: their payloads are untrusted input."),
        Item(target: .otherIPC, names: ["WCSession"], label: "WCSession", kind: "Watch connectivity",
             risk: "Exchanges messages and files with the paired Apple Watch app."),
    ]

    /// Adopted protocols and superclasses (from `SurfaceFact.conformance`) that make a type an entry point.
    static let conformances: [String: (target: Target, kind: String, risk: String)] = [
        "AppIntent": (.otherIPC, "App Intent",
                      "Siri, Shortcuts, Spotlight and widgets run it with parameters they choose, some from the lock screen."),
        "AppShortcutsProvider": (.otherIPC, "App Shortcuts", "Publishes the app's intents to Siri and Spotlight without any setup by the user."),
        "INExtension": (.otherIPC, "Siri intents extension", "Siri and Shortcuts run its intents with parameters they choose, possibly from the lock screen."),
        "UIActivityItemSource": (.otherIPC, "share sheet item", "Provides data to whichever app or service the user shares with."),
        "UNNotificationServiceExtension": (.pushNotifications, "notification service extension",
                                           "Runs on push payloads before they are shown, and may download attachments from URLs the payload names."),
        "UNNotificationContentExtension": (.pushNotifications, "notification content extension", "Renders push payloads in a custom interface."),
        "UNUserNotificationCenterDelegate": (.pushNotifications, "notification delegate", "Receives notifications and the user's responses to them."),
        "PKPushRegistryDelegate": (.pushNotifications, "PushKit delegate", "Receives VoIP pushes that wake the app in the background."),
    ]

    /// NSCoding and NSSecureCoding adopters are deserialization sites.
    static let codingProtocols: [String: String] = [
        "NSCoding": "init(coder:) decodes whatever an archive holds when a non-secure unarchiver reads it: adopt NSSecureCoding and decode with decodeObject(of:forKey:).",
        "NSSecureCoding": "Decoded from archives with class checks; the decoded values still need validation.",
    ]

    /// Principal-class protocols of extensions: what handles their input.
    static let extensionProtocols: Set<String> = ["NSExtensionRequestHandling", "SLComposeServiceViewController",
                                                   "NSFileProviderReplicatedExtension", "NSFileProviderExtension",
                                                   "QLPreviewingController", "UNNotificationServiceExtension",
                                                   "UNNotificationContentExtension", "INExtension"]

    /// Extension points: a name and the risk of what they let in.
    static func extensionPoint(_ identifier: String) -> (name: String, risk: String) {
        switch identifier {
        case "com.apple.share-services":
            return ("Share extension", "Receives whatever other apps share (text, URLs, files): every attachment is untrusted input.")
        case "com.apple.ui-services":
            return ("Action extension", "Receives content from other apps and may hand back a modified version: treat the items as untrusted.")
        case "com.apple.fileprovider-nonui", "com.apple.fileprovider-ui", "com.apple.fileprovider-actionsui":
            return ("File Provider", "Serves the app's files to the Files app and to every app that opens a document picker.")
        case "com.apple.usernotifications.service":
            return ("Notification Service extension", "Runs on push payloads before they are shown, and may download attachments from URLs the payload names.")
        case "com.apple.usernotifications.content-extension":
            return ("Notification Content extension", "Renders push payloads in a custom interface.")
        case "com.apple.widgetkit-extension", "com.apple.widget-extension":
            return ("Widget", "Shows app data on the Home Screen and Lock Screen, visible without unlocking unless marked privacy-sensitive.")
        case "com.apple.keyboard-service":
            return ("Custom keyboard", "Sees every keystroke typed with it; with full access it can also send them off the device.")
        case "com.apple.intents-service":
            return ("Siri intents extension", "Siri and Shortcuts run it with parameters they choose, possibly from the lock screen.")
        case "com.apple.intents-ui-service":
            return ("Siri intents UI extension", "Shows intent results inside Siri and Shortcuts.")
        case "com.apple.authentication-services-credential-provider-ui":
            return ("AutoFill credential provider", "Supplies passwords and passkeys to other apps and websites.")
        case "com.apple.broadcast-services-upload", "com.apple.broadcast-services-setupui":
            return ("Broadcast extension", "Receives the screen recording of the device.")
        case "com.apple.message-payload-provider":
            return ("iMessage extension", "Receives messages other participants send: their URLs and data are untrusted.")
        case "com.apple.quicklook.preview", "com.apple.quicklook.thumbnail":
            return ("Quick Look extension", "Parses other apps' files to preview them: their content is untrusted input.")
        case "com.apple.callkit.call-directory":
            return ("Call directory extension", "Supplies caller identification and blocking lists to the phone app.")
        case "com.apple.Safari.web-extension", "com.apple.Safari.content-blocker":
            return ("Safari extension", "Runs alongside the web pages the user opens in Safari.")
        case "com.apple.photo-editing":
            return ("Photo editing extension", "Edits photos from the user's library inside Photos.")
        case "com.apple.spotlight.index":
            return ("Spotlight index extension", "Feeds the app's data to Spotlight search.")
        default:
            if identifier.hasPrefix("com.apple.networkextension") {
                return ("Network extension", "Sees the device's network traffic.")
            }
            return ("App extension", "Runs in its own process with the app group's shared data; its inputs come from the host app or the system.")
        }
    }

    /// Deserialization APIs by family: (kind, risk).
    static func decoder(_ api: String) -> (kind: String, risk: String) {
        if api.hasPrefix("NSKeyedUnarchiver") {
            // `NSKeyedUnarchiver.unarchivedObject(ofClass:from:)` or `NSKeyedUnarchiver unarchivedObjectOfClass:fromData:error:`.
            let secure = APIs.keyedUnarchiverSecure.fullCallNames.contains { api.hasSuffix("." + $0) || api.hasSuffix(" " + $0) }
            return secure
                ? ("keyed archive", "Decodes an object graph limited to the classes it names: the values still come from the data and need validation.")
                : ("keyed archive", "Decodes an object graph whose classes the data chooses unless secure coding is required: untrusted archives can instantiate unexpected classes.")
        }
        if api.hasPrefix("JSONDecoder") || api.hasPrefix("PropertyListDecoder") || api.hasPrefix("Decoder.") {
            return ("Decodable", "Decodes typed values: the types are fixed, but every value is whatever the data says.")
        }
        if api.contains("JSON") { return ("JSON", "Parses untyped JSON: every field needs a type and range check.") }
        if api.contains("PropertyList") { return ("property list", "Parses property lists of any shape, binary or XML: every value needs a type check.") }
        if api.contains("XMLParser") { return ("XML", "Parses XML: external entities must stay disabled and the content is untrusted.") }
        return ("decoder", "Decodes data: validate what comes out.")
    }

    /// Well-known web view types in code.
    static let webViewTypes: [(name: String, risk: String)] = [
        ("WKWebView", "Runs the JavaScript of whatever it loads, which can call every bridge the app registers: load only trusted https content."),
        ("UIWebView", "Deprecated: JavaScript runs in the app's process, file URLs can read local files, and content cannot be isolated."),
        ("SFSafariViewController", "Shows web pages isolated from the app (no bridge, no access to the page); low risk."),
    ]

    /// Message-handler functions: what receives script messages.
    /// (A Swift `async` implementation is recorded with its effect.)
    static let scriptMessageHandlers = APIs.scriptMessageReceipt.swift + [APIs.scriptMessageReceipt.swift[0] + " async"]
        + APIs.scriptMessageReceipt.selectors

    /// Associated-domain services and what they let in.
    static func associatedDomainRisk(service: String, domain: String) -> String {
        switch service {
        case "applinks": return "Any link to https://\(domain) opens the app with the path and query the sender chose."
        case "webcredentials": return "Passwords saved for \(domain) are offered to the app: the site's security also protects the app's accounts."
        case "activitycontinuation": return "Handoff from \(domain) web pages continues in the app with the page's URL."
        case "appclips": return "Links and codes for \(domain) launch the App Clip with their URL."
        default: return "\(service) service for \(domain)."
        }
    }

    /// App Transport Security global keys.
    static let atsGlobalRisks: [String: String] = [
        "NSAllowsArbitraryLoads": "App Transport Security is off for every domain not listed as an exception: plain HTTP and weak TLS are accepted.",
        "NSAllowsArbitraryLoadsInWebContent": "Web views load any content over plain HTTP or weak TLS.",
        "NSAllowsArbitraryLoadsForMedia": "Media loaded with AVFoundation may use plain HTTP.",
        "NSAllowsLocalNetworking": "Unqualified host names and .local addresses are loaded over plain HTTP.",
    ]
}
