import Foundation
import MoatCore
import MoatFormats

/// Shared text about provisioning profiles.
enum ProfileText {
    static func kind(_ kind: ProvisioningProfile.Kind) -> String {
        switch kind {
        case .development: return "development"
        case .adHoc: return "ad-hoc"
        case .enterprise: return "enterprise (In-House)"
        case .appStore: return "App Store"
        }
    }

    static func date(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: date)
    }

    static func name(_ profile: ProvisioningProfile) -> String {
        profile.name.map { "'\($0)'" } ?? "without a name"
    }

    /// The profile document as reported: lines dropped (its XML sits inside CMS bytes).
    static func location(_ profile: ProvisioningProfile, _ node: PlistNode?) -> Location {
        Location(path: profile.document.path, line: 1, column: 1, keyPath: node.flatMap { $0.keyPath.isEmpty ? nil : $0.keyPath })
    }

    /// The example profile of the rules' examples: a bare property list (Moat also reads the CMS form).
    static func example(kind: String, expiration: String = "2099-01-01T00:00:00Z", devices: Int = 0,
                        getTaskAllow: Bool = false, entitlements: String = "", marker: String = "") -> String {
        let deviceList = devices == 0 ? "" : """

            <key>ProvisionedDevices</key>
            <array>
        \((0..<devices).map { "        <string>00008030-00000000000000\(String(format: "%02d", $0))</string>" }.joined(separator: "\n"))
            </array>
        """
        return """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
            <key>Name</key>
            <string>\(kind) Demo</string>
            <key>TeamIdentifier</key>
            <array>
                <string>ABCDE12345</string>
            </array>
            <key>TeamName</key>
            <string>Example Corp</string>
            <key>UUID</key>
            <string>01234567-89AB-CDEF-0123-456789ABCDEF</string>
            \(marker)<key>ExpirationDate</key>
            <date>\(expiration)</date>\(deviceList)
            <key>Entitlements</key>
            <dict>
                <key>application-identifier</key>
                <string>ABCDE12345.com.example.demo</string>
                <key>get-task-allow</key>
                <\(getTaskAllow ? "true" : "false")/>\(entitlements)
            </dict>
        </dict>
        </plist>
        """
    }
}

public struct ProvisioningProfileInventoryRule: BinaryRule {
    public static let description = RuleDescription(
        id: "MOAT-PLAT-402", slug: "provisioning-profile-inventory", title: "Provisioning profile of a built app",
        severity: .info, confidence: .high, cwe: [489],
        masvs: ["MASVS-RESILIENCE-2"], mastg: ["MASTG-TEST-0081"],
        rationale: "The embedded provisioning profile says how the build may be distributed and run: development (a debugger may attach, on listed devices), ad-hoc (listed devices), enterprise (any device, outside the App Store) or App Store. Its team, expiry and device count tell a reviewer whether the artifact is the build they think it is.",
        fix: "Nothing to fix: this is an inventory entry. Check that release artifacts carry an App Store, ad-hoc or enterprise profile of the expected team.",
        references: ["https://developer.apple.com/documentation/technotes/tn3125-inside-code-signing-provisioning-profiles"],
        isInventory: true,
        examples: [
            RuleExample(files: [
                ExampleFile(name: "Demo.app/Demo", content: "Mach-O executable arm64"),
                ExampleFile(name: "Demo.app/embedded.mobileprovision",
                            content: ProfileText.example(kind: "Ad Hoc", devices: 3).replacingOccurrences(of: "<plist version=\"1.0\">", with: "↓<plist version=\"1.0\">")),
            ], triggers: true),
            .nonTriggering("Demo.app/Demo", "Mach-O executable arm64", note: "No embedded.mobileprovision (App Store downloads have none)."),
        ])

    public init() {}

    public func check(_ binary: BinaryImage, _ sink: inout FindingSink) {
        guard binary.role == .bundleExecutable, let profile = binary.bundle?.profile else { return }
        var parts = ["\(ProfileText.kind(profile.kind).prefix(1).uppercased() + ProfileText.kind(profile.kind).dropFirst()) provisioning profile \(ProfileText.name(profile))"]
        let team = [profile.teamName, profile.teamIdentifiers.first.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ")
        if !team.isEmpty { parts.append("team \(team)") }
        if let expiration = profile.expirationDate { parts.append("expires \(ProfileText.date(expiration))") }
        if profile.provisionsAllDevices {
            parts.append("all devices")
        } else if !profile.provisionedDevices.isEmpty {
            parts.append("\(profile.provisionedDevices.count) provisioned device\(profile.provisionedDevices.count == 1 ? "" : "s")")
        }
        if profile.getTaskAllow { parts.append("get-task-allow granted") }
        sink.report(parts.joined(separator: ", ") + " (signing \(binary.bundle?.name ?? binary.name)).", at: ProfileText.location(profile, nil),
                    evidence: profile.uuid)
        sink.attach(InventoryItem(.profile, name: profile.name ?? profile.uuid ?? ""))
    }
}

public struct ExpiredProvisioningProfileRule: BinaryRule {
    public static let description = RuleDescription(
        id: "MOAT-PLAT-403", slug: "provisioning-profile-expired", title: "Provisioning profile has expired",
        severity: .low, confidence: .high, evidence: .configuration, cwe: [672],
        masvs: ["MASVS-RESILIENCE-2"], mastg: ["MASTG-TEST-0081"],
        rationale: "iOS stops launching development, ad-hoc and enterprise builds once their embedded profile expires, and App Store Connect refuses uploads signed with an expired profile. An expired profile in an artifact means it is stale: it is not the build users run, or it is about to stop working for testers.",
        fix: "Renew the profile in the developer account (or let Xcode manage signing) and re-sign or rebuild the app.",
        references: ["https://developer.apple.com/help/account/manage-profiles/edit-download-or-delete-profiles"],
        examples: [
            RuleExample(files: [
                ExampleFile(name: "Demo.app/Demo", content: "Mach-O executable arm64"),
                ExampleFile(name: "Demo.app/embedded.mobileprovision",
                            content: ProfileText.example(kind: "Ad Hoc", expiration: "2021-06-30T00:00:00Z", devices: 2, marker: "↓")),
            ], triggers: true),
            RuleExample(files: [
                ExampleFile(name: "Demo.app/Demo", content: "Mach-O executable arm64"),
                ExampleFile(name: "Demo.app/embedded.mobileprovision", content: ProfileText.example(kind: "Ad Hoc", devices: 2)),
            ], triggers: false),
        ])

    public init() {}

    public func check(_ binary: BinaryImage, _ sink: inout FindingSink) {
        guard binary.role == .bundleExecutable, let profile = binary.bundle?.profile,
              let expiration = profile.expirationDate, profile.isExpired(at: Date()) else { return }
        let consequence = profile.kind == .appStore
            ? "App Store Connect refuses uploads signed with it"
            : "iOS no longer launches the app on devices"
        sink.report("The \(ProfileText.kind(profile.kind)) provisioning profile \(ProfileText.name(profile)) of \(binary.bundle?.name ?? binary.name) expired on \(ProfileText.date(expiration)): \(consequence).",
                    at: ProfileText.location(profile, profile.document.root["ExpirationDate"]), evidence: ProfileText.date(expiration))
    }
}

public struct DevelopmentProfileInReleaseRule: BinaryRule {
    public static let description = RuleDescription(
        id: "MOAT-PLAT-404", slug: "development-profile-in-release-build", title: "Release build signed with a development profile",
        severity: .medium, confidence: .medium, evidence: .configuration, cwe: [489],
        masvs: ["MASVS-RESILIENCE-4"], mastg: ["MASTG-TEST-0082", "MASTG-TEST-0081"],
        rationale: "A development profile grants `get-task-allow`: a debugger can attach to the app, read its memory and change its behaviour. That is expected of a Debug build, but this build looks like a release: it was built for devices, its executable is stripped of local symbols (Xcode strips only when installing or archiving), and it has no debug dylib. Such a build shared with testers or customers is debuggable on every provisioned device. An `.xcarchive` is normally signed for development and re-signed on export, so archives are not reported.",
        fix: "Export or re-sign release builds with an ad-hoc, enterprise or App Store distribution profile (Xcode Organizer ▸ Distribute App), which drops get-task-allow.",
        references: ["https://developer.apple.com/documentation/xcode/distributing-your-app-to-registered-devices"],
        examples: [
            RuleExample(files: [
                ExampleFile(name: "Demo.app/Demo", content: """
                ↓Mach-O executable arm64 stripped
                platform: iOS 16.0 sdk 17.0
                """),
                ExampleFile(name: "Demo.app/embedded.mobileprovision",
                            content: ProfileText.example(kind: "iOS Team Provisioning Profile", devices: 4, getTaskAllow: true)),
            ], triggers: true),
            RuleExample(files: [
                ExampleFile(name: "Demo.app/Demo", content: """
                Mach-O executable arm64 unstripped
                platform: iOS 16.0 sdk 17.0
                """),
                ExampleFile(name: "Demo.app/embedded.mobileprovision",
                            content: ProfileText.example(kind: "iOS Team Provisioning Profile", devices: 4, getTaskAllow: true)),
            ], triggers: false, note: "A Debug build keeps its local symbols."),
            RuleExample(files: [
                ExampleFile(name: "Demo.app/Demo", content: """
                Mach-O executable arm64 stripped
                platform: iOS 16.0 sdk 17.0
                """),
                ExampleFile(name: "Demo.app/embedded.mobileprovision", content: ProfileText.example(kind: "Ad Hoc", devices: 4)),
            ], triggers: false),
        ])

    public init() {}

    public func check(_ binary: BinaryImage, _ sink: inout FindingSink) {
        guard binary.role == .bundleExecutable, let bundle = binary.bundle, bundle.container != "xcarchive",
              let profile = bundle.profile, profile.kind == .development, !bundle.hasDebugDylib,
              let symbols = binary.image.dynamicSymbolTable, symbols.localSymbolCount == 0 else { return }
        let simulators: Set<MachOPlatform> = [.iOSSimulator, .tvOSSimulator, .watchOSSimulator, .visionOSSimulator]
        if let platform = binary.image.buildVersion?.platform, simulators.contains(platform) { return }
        let devices = profile.provisionedDevices.count
        sink.report("\(bundle.name) is built like a release (stripped executable, no debug dylib) but signed with the development profile \(ProfileText.name(profile)), which grants get-task-allow: a debugger can attach on its \(devices) provisioned device\(devices == 1 ? "" : "s").",
                    in: binary)
    }
}

public struct EntitlementNotInProfileRule: BinaryRule {
    public static let description = RuleDescription(
        id: "MOAT-PLAT-401", slug: "entitlement-not-in-profile", title: "Signed entitlement not granted by the provisioning profile",
        severity: .medium, confidence: .medium, evidence: .configuration, cwe: [347, 250],
        masvs: ["MASVS-RESILIENCE-2"], mastg: ["MASTG-TEST-0081"],
        rationale: "iOS launches an app only when every entitlement in its code signature is granted by its embedded provisioning profile (the profile's values may end in `*`, which matches any suffix: `ABCDE12345.*`). An executable signed with an entitlement or a value its profile does not grant was re-signed with a different profile, tampered with, or built with entitlements the team is not allowed: it will not run as shipped, or it runs only on jailbroken devices.",
        fix: "Enable the capability for the App ID in the developer account and regenerate the profile, or remove the entitlement from the target's entitlements file; then sign again.",
        references: ["https://developer.apple.com/documentation/technotes/tn3125-inside-code-signing-provisioning-profiles"],
        examples: [
            RuleExample(files: [
                ExampleFile(name: "Demo.app/Demo", content: """
                Mach-O executable arm64
                entitlements: application-identifier=ABCDE12345.com.example.demo keychain-access-groups=[ABCDE12345.com.example.shared] ↓com.apple.developer.healthkit=true
                """),
                ExampleFile(name: "Demo.app/embedded.mobileprovision", content: ProfileText.example(kind: "Ad Hoc", devices: 1, entitlements: """

                        <key>keychain-access-groups</key>
                        <array>
                            <string>ABCDE12345.*</string>
                        </array>
                """)),
            ], triggers: true),
            RuleExample(files: [
                ExampleFile(name: "Demo.app/Demo", content: """
                Mach-O executable arm64
                entitlements: application-identifier=ABCDE12345.com.example.demo ↓get-task-allow=true
                """),
                ExampleFile(name: "Demo.app/embedded.mobileprovision", content: ProfileText.example(kind: "Ad Hoc", devices: 1)),
            ], triggers: true, note: "The profile grants get-task-allow as false."),
            RuleExample(files: [
                ExampleFile(name: "Demo.app/Demo", content: """
                Mach-O executable arm64
                entitlements: application-identifier=ABCDE12345.com.example.demo keychain-access-groups=[ABCDE12345.com.example.shared] get-task-allow=false
                """),
                ExampleFile(name: "Demo.app/embedded.mobileprovision", content: ProfileText.example(kind: "Ad Hoc", devices: 1, entitlements: """

                        <key>keychain-access-groups</key>
                        <array>
                            <string>ABCDE12345.*</string>
                        </array>
                """)),
            ], triggers: false),
        ])

    public init() {}

    public func check(_ binary: BinaryImage, _ sink: inout FindingSink) {
        guard binary.role == .bundleExecutable, let signed = binary.entitlements, let profile = binary.bundle?.profile else { return }
        let granted = profile.entitlements
        for entry in signed.root.entries ?? [] {
            guard let grant = granted?[entry.key] else {
                sink.report("\(binary.name) is signed with \(entry.key), which its provisioning profile \(ProfileText.name(profile)) does not grant: iOS refuses to launch it as signed.",
                            inEmbedded: signed, at: entry.value,
                            related: [RelatedLocation(location: ProfileText.location(profile, granted), message: "the profile's entitlements")])
                continue
            }
            for value in Self.ungranted(entry.value, by: grant) {
                sink.report("\(binary.name) is signed with \(entry.key) = \(value), which its provisioning profile \(ProfileText.name(profile)) does not grant (it grants \(Self.describe(grant))): iOS refuses to launch it as signed.",
                            inEmbedded: signed, at: entry.value,
                            related: [RelatedLocation(location: ProfileText.location(profile, grant), message: "what the profile grants")])
            }
        }
    }

    /// The signed values the profile's value does not cover, as text.
    static func ungranted(_ signed: PlistNode, by grant: PlistNode) -> [String] {
        switch signed.value {
        case .array(let elements):
            return elements.compactMap { element in
                guard let text = element.string else { return nil }
                return covers(grant, text) ? nil : text
            }
        case .string(let text):
            return covers(grant, text) ? [] : [text]
        case .bool(let flag):
            return !flag || grant.bool == true ? [] : ["true"]
        default:
            return []
        }
    }

    /// Whether the profile's value (a string, an array of strings, a pattern ending in `*`) covers a value.
    static func covers(_ grant: PlistNode, _ value: String) -> Bool {
        grant.strings.contains { pattern in
            if pattern == value { return true }
            if pattern.hasSuffix("*") { return value.hasPrefix(pattern.dropLast()) }
            return false
        }
    }

    static func describe(_ grant: PlistNode) -> String {
        if let flag = grant.bool, grant.string == nil { return flag ? "true" : "false" }
        let values = grant.strings
        return values.isEmpty ? "another value" : values.prefix(4).joined(separator: ", ") + (values.count > 4 ? ", …" : "")
    }
}
