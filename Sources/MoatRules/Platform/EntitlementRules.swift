import MoatCore
import MoatFormats
import MoatSyntax

/// What each capability (entitlement) gives the app, and the risk it carries.
public enum EntitlementCatalogue {
    public struct Capability: Sendable {
        public var name: String
        public var risk: String
    }

    public static let capabilities: [String: Capability] = [
        "com.apple.security.application-groups": Capability(
            name: "App Groups", risk: "a shared container and shared user defaults readable and writable by every app and extension of the same team in the group"),
        "keychain-access-groups": Capability(
            name: "Keychain Sharing", risk: "keychain items shared with the other apps of the same team in these groups"),
        "com.apple.developer.associated-domains": Capability(
            name: "Associated Domains", risk: "universal links and shared web credentials: URLs on these domains open the app with any path and parameters"),
        "com.apple.developer.icloud-container-identifiers": Capability(
            name: "iCloud containers", risk: "data synced to iCloud leaves the device and is stored with the user's Apple Account"),
        "com.apple.developer.ubiquity-container-identifiers": Capability(
            name: "iCloud Documents", risk: "files synced to iCloud Drive leave the device"),
        "com.apple.developer.ubiquity-kvstore-identifier": Capability(
            name: "iCloud key-value store", risk: "values synced through iCloud leave the device"),
        "com.apple.developer.icloud-services": Capability(name: "iCloud services", risk: "CloudKit or iCloud Documents data leaves the device"),
        "com.apple.developer.icloud-container-environment": Capability(name: "iCloud environment", risk: "selects the CloudKit development or production environment"),
        "aps-environment": Capability(
            name: "Push Notifications", risk: "remote content delivered to the app and its notification extensions"),
        "com.apple.developer.healthkit": Capability(name: "HealthKit", risk: "access to health data, among the most sensitive personal data"),
        "com.apple.developer.healthkit.access": Capability(name: "HealthKit clinical records", risk: "access to clinical health records"),
        "com.apple.developer.healthkit.background-delivery": Capability(name: "HealthKit background delivery", risk: "health data delivered while the app is in the background"),
        "com.apple.developer.homekit": Capability(name: "HomeKit", risk: "control of the user's home accessories (locks, cameras)"),
        "com.apple.developer.in-app-payments": Capability(name: "Apple Pay", risk: "payment requests for these merchant identifiers"),
        "com.apple.developer.pass-type-identifiers": Capability(name: "Wallet", risk: "passes added to and read from Wallet"),
        "com.apple.developer.siri": Capability(name: "Siri", risk: "app actions run by voice, possibly from the lock screen"),
        "com.apple.developer.networking.networkextension": Capability(name: "Network Extensions", risk: "VPN, content filter, DNS or packet tunnel providers that see device traffic"),
        "com.apple.developer.networking.vpn.api": Capability(name: "Personal VPN", risk: "configuration of the device's VPN"),
        "com.apple.developer.networking.wifi-info": Capability(name: "Access Wi-Fi Information", risk: "the current network's SSID and BSSID, which reveal location"),
        "com.apple.developer.networking.HotspotConfiguration": Capability(name: "Hotspot Configuration", risk: "joining Wi-Fi networks on the user's behalf"),
        "com.apple.developer.networking.multicast": Capability(name: "Multicast Networking", risk: "sending and receiving multicast traffic on the local network"),
        "com.apple.developer.nfc.readersession.formats": Capability(name: "NFC Tag Reading", risk: "reading NFC tags and cards"),
        "com.apple.developer.applesignin": Capability(name: "Sign in with Apple", risk: "the user's Apple identity and relay email address"),
        "com.apple.developer.authentication-services.autofill-credential-provider": Capability(
            name: "AutoFill Credential Provider", risk: "the app supplies passwords and passkeys to other apps"),
        "com.apple.developer.default-data-protection": Capability(name: "Data Protection", risk: "the default file protection class of the app's files"),
        "com.apple.developer.devicecheck.appattest-environment": Capability(name: "App Attest", risk: "none: it strengthens the server's trust in the app"),
        "com.apple.developer.family-controls": Capability(name: "Family Controls", risk: "Screen Time data and restrictions"),
        "com.apple.developer.contacts.notes": Capability(name: "Contact notes", risk: "the free-text notes field of contacts"),
        "com.apple.developer.usernotifications.time-sensitive": Capability(name: "Time Sensitive Notifications", risk: "notifications that break through Focus"),
        "com.apple.developer.usernotifications.critical-alerts": Capability(name: "Critical Alerts", risk: "notifications that ignore the mute switch and Do Not Disturb"),
        "com.apple.developer.usernotifications.communication": Capability(name: "Communication Notifications", risk: "notifications that show sender identity"),
        "com.apple.developer.associated-appclip-app-identifiers": Capability(name: "App Clip", risk: "an App Clip that shares data with the app"),
        "com.apple.developer.parent-application-identifiers": Capability(name: "App Clip parent", risk: "the full app this App Clip hands over to"),
        "com.apple.developer.game-center": Capability(name: "Game Center", risk: "the player's Game Center identity"),
        "com.apple.developer.kernel.increased-memory-limit": Capability(name: "Increased Memory Limit", risk: "none"),
        "com.apple.developer.weatherkit": Capability(name: "WeatherKit", risk: "location sent to Apple's weather service"),
        "com.apple.developer.ClassKit-environment": Capability(name: "ClassKit", risk: "student progress data shared with schools"),
        "com.apple.developer.exposure-notification": Capability(name: "Exposure Notification", risk: "contact-tracing data"),
        "com.apple.developer.shared-with-you": Capability(name: "Shared with You", risk: "content shared with the user in Messages"),
        "com.apple.developer.user-fonts": Capability(name: "Fonts", risk: "installing fonts system-wide"),
        "com.apple.external-accessory.wireless-configuration": Capability(name: "Wireless Accessory Configuration", risk: "configuring Wi-Fi accessories"),
        "inter-app-audio": Capability(name: "Inter-App Audio", risk: "audio exchanged with other apps"),
        "get-task-allow": Capability(name: "Debugging", risk: "a debugger can attach and read or change the process memory"),
        "application-identifier": Capability(name: "Application identifier", risk: "none: the signed app identity"),
        "com.apple.developer.team-identifier": Capability(name: "Team identifier", risk: "none: the signing team"),
    ]
}

public struct EntitlementsInventoryRule: PropertyListRule {
    public static let plistKinds: Set<PlistKind> = [.entitlements]

    public static let description = RuleDescription(
        id: "MOAT-PLAT-101", slug: "entitlements-inventory", title: "Capability granted by the entitlements",
        severity: .info, confidence: .high, cwe: [250],
        masvs: ["MASVS-PLATFORM-1", "MASVS-PRIVACY-1"], mastg: ["MASTG-TEST-0069"],
        rationale: "Entitlements are the capabilities the signed app has beyond the sandbox. Some need no user permission but still move data across the app's boundary: App Groups and keychain access groups share data with other apps of the same team, associated domains turn web URLs into app entry points, iCloud containers sync data off the device. Each one is listed with the exposure it brings, so a reviewer can check it is needed and its data is protected.",
        fix: "Nothing to fix by itself. Remove capabilities the app does not use; keep shared containers and keychain groups free of secrets other apps of the team should not read.",
        references: ["https://developer.apple.com/documentation/bundleresources/entitlements"],
        isInventory: true,
        examples: [
            .triggering("App/App.entitlements", ExampleProject.plist("""
                ↓<key>com.apple.security.application-groups</key>
                <array>
                    <string>group.com.example.receipts</string>
                </array>
                ↓<key>keychain-access-groups</key>
                <array>
                    <string>$(AppIdentifierPrefix)com.example.shared</string>
                </array>
                ↓<key>com.apple.developer.associated-domains</key>
                <array>
                    <string>applinks:receipts.example.com</string>
                    <string>webcredentials:receipts.example.com</string>
                </array>
            """)),
            .nonTriggering("App/App.entitlements", ExampleProject.plist("")),
        ])

    public init() {}

    public func check(_ plist: PropertyListDocument, _ sink: inout FindingSink) {
        for entry in Entitlements(document: plist).entries {
            let values = entry.value.strings
            let shown = values.isEmpty ? "" : ": " + values.prefix(5).joined(separator: ", ") + (values.count > 5 ? ", …" : "")
            if let capability = EntitlementCatalogue.capabilities[entry.key] {
                sink.report("\(capability.name) (\(entry.key))\(shown). Exposure: \(capability.risk).", in: plist, at: entry.value)
                sink.attach(InventoryItem(.entitlement, name: entry.key))
            } else {
                sink.report("Entitlement \(entry.key)\(shown).", in: plist, at: entry.value)
                sink.attach(InventoryItem(.entitlement, name: entry.key))
            }
        }
    }
}

public struct DebuggableReleaseRule: AppRule {
    public static let description = RuleDescription(
        id: "MOAT-PLAT-102", slug: "get-task-allow-in-release", title: "Release build signed with get-task-allow",
        severity: .high, confidence: .high, evidence: .configuration, cwe: [489],
        masvs: ["MASVS-RESILIENCE-4"], mastg: ["MASTG-TEST-0082"],
        rationale: "`get-task-allow` lets a debugger attach to the app. Xcode adds it by itself to development-signed builds; written into an entitlements file that a release configuration signs with (`CODE_SIGN_ENTITLEMENTS`), it ships in ad-hoc and enterprise builds, where anyone can attach a debugger to read secrets from memory and change the app's behaviour. The check follows `CODE_SIGN_ENTITLEMENTS` per build configuration; an entitlements file found without an Xcode project is reported with medium confidence (unless its name says it is for debug builds).",
        fix: "Remove `get-task-allow` from the entitlements file; Xcode adds it to debug builds automatically. If a debug-only file needs it, point only the Debug configuration's `CODE_SIGN_ENTITLEMENTS` at it.",
        references: ["https://developer.apple.com/documentation/bundleresources/entitlements/com_apple_security_get-task-allow"],
        examples: [
            RuleExample(files: [
                ExampleFile(name: ExampleProject.path, content: ExampleProject.pbxproj(
                    debug: ["CODE_SIGN_ENTITLEMENTS = App/App.entitlements;"],
                    release: ["CODE_SIGN_ENTITLEMENTS = App/App.entitlements;"])),
                ExampleFile(name: "App/App.entitlements", content: ExampleProject.plist("""
                    ↓<key>get-task-allow</key>
                    <true/>
                """)),
            ], triggers: true),
            .triggering("App/Receipts.entitlements", ExampleProject.plist("""
                ↓<key>get-task-allow</key>
                <true/>
            """), note: "Without a project the configuration is unknown: medium confidence."),
            RuleExample(files: [
                ExampleFile(name: ExampleProject.path, content: ExampleProject.pbxproj(
                    debug: ["CODE_SIGN_ENTITLEMENTS = App/Debug.entitlements;"],
                    release: ["CODE_SIGN_ENTITLEMENTS = App/App.entitlements;"])),
                ExampleFile(name: "App/Debug.entitlements", content: ExampleProject.plist("""
                    <key>get-task-allow</key>
                    <true/>
                """)),
                ExampleFile(name: "App/App.entitlements", content: ExampleProject.plist("""
                    <key>get-task-allow</key>
                    <false/>
                """)),
            ], triggers: false),
            .nonTriggering("App/Debug.entitlements", ExampleProject.plist("""
                <key>get-task-allow</key>
                <true/>
            """)),
            .triggering("Demo.app/Demo", """
            Mach-O executable arm64
            entitlements: application-identifier=ABCDE12345.com.example.demo ↓get-task-allow=true
            """, note: "A built app signed with get-task-allow and no provisioning profile."),
            .nonTriggering("Demo.app/Demo", """
            Mach-O executable arm64
            entitlements: application-identifier=ABCDE12345.com.example.demo get-task-allow=false
            """),
        ])

    public init() {}

    public func check(_ app: AppModel, _ sink: inout FindingSink) {
        if app.projects.isEmpty {
            for plist in app.plists where plist.kind == .entitlements && !AppUnit.isTestPath(plist.path) && !plist.isFromBuiltApp {
                // Entitlements a built app is signed with are judged with their binary (see Binary/ReusedRules.swift).
                let name = (plist.path.split(separator: "/").last ?? "").lowercased()
                guard !name.contains("debug"), !name.contains("dev"), let node = Entitlements(document: plist).getTaskAllow,
                      node.bool == true else { continue }
                sink.report("get-task-allow is true in \(plist.path): if release builds are signed with it, any debugger can attach to the shipped app.",
                            in: plist, at: node, confidence: .medium)
            }
            return
        }
        for unit in app.units where !unit.isLoose {
            var order: [String] = []
            var found: [String: (plist: PropertyListDocument, node: PlistNode, configurations: [String], setting: ConfiguredValue?)] = [:]
            for configuration in unit.configurations where configuration.isDebug == false {
                for plist in configuration.entitlements {
                    guard let node = Entitlements(document: plist).getTaskAllow, node.bool == true else { continue }
                    if found[plist.path] == nil {
                        found[plist.path] = (plist, node, [], configuration.entitlementsSetting)
                        order.append(plist.path)
                    }
                    found[plist.path]?.configurations.append(configuration.displayName)
                }
            }
            for path in order {
                guard let entry = found[path] else { continue }
                let related = entry.setting.map { [RelatedLocation.at($0, "CODE_SIGN_ENTITLEMENTS of \(unit.displayName)")] } ?? []
                sink.report("get-task-allow is true in \(path), which the \(PermissionText.list(entry.configurations)) configuration of \(unit.displayName) signs with: any debugger can attach to the shipped app.",
                            in: entry.plist, at: entry.node, related: related)
            }
        }
    }
}
