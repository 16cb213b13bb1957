import MoatCore
import MoatFormats
import MoatSyntax

/// Examples shared by the privacy manifest rules.
enum PrivacyManifestExamples {
    static func manifest(_ body: String) -> String { ExampleProject.plist(body) }

    static let userDefaultsDeclared = """
        <key>NSPrivacyTracking</key>
        <false/>
        <key>NSPrivacyAccessedAPITypes</key>
        <array>
            <dict>
                <key>NSPrivacyAccessedAPIType</key>
                <string>NSPrivacyAccessedAPICategoryUserDefaults</string>
                <key>NSPrivacyAccessedAPITypeReasons</key>
                <array>
                    <string>CA92.1</string>
                </array>
            </dict>
        </array>
    """

    static let infoPlist = ExampleFile(name: "App/Info.plist", content: ExampleProject.plist("""
        <key>CFBundleName</key>
        <string>Receipts</string>
    """))

    /// An XcodeGen project with a shipping app (its manifest declared) and a showcase app that renders the
    /// app's screens for UI tests, both compiling `Shared/Settings.swift` (user defaults); `skipInstall` is
    /// the showcase's release `SKIP_INSTALL`.
    static func showcaseProject(skipInstall: String) -> [ExampleFile] {
        let marker = skipInstall == "YES" ? "" : "↓"
        return [
            ExampleFile(name: "project.yml", content: """
            name: Chat
            configs:
              Debug: debug
              Release: release
            targets:
              Chat:
                type: application
                platform: iOS
                info:
                  path: App/Info.plist
                sources:
                - path: App/ChatApp.swift
                - path: App/PrivacyInfo.xcprivacy
                - path: Shared/Settings.swift
              Showcase:
                type: application
                platform: iOS
                info:
                  path: Showcase/Info.plist
                configFiles:
                  Debug: Showcase/Debug.xcconfig
                  Release: Showcase/Release.xcconfig
                sources:
                - path: Showcase/ShowcaseApp.swift
                - path: Shared/Settings.swift
            """),
            ExampleFile(name: "App/Info.plist", content: ExampleProject.plist("""
                <key>CFBundlePackageType</key>
                <string>APPL</string>
            """)),
            ExampleFile(name: "App/PrivacyInfo.xcprivacy", content: manifest(userDefaultsDeclared)),
            ExampleFile(name: "App/ChatApp.swift", content: "import SwiftUI\n@main struct ChatApp: App { var body: some Scene { WindowGroup { Text(\"Chat\") } } }\n"),
            ExampleFile(name: "Showcase/Info.plist", content: ExampleProject.plist("""
                <key>CFBundlePackageType</key>
                <string>APPL</string>
            """)),
            ExampleFile(name: "Showcase/Debug.xcconfig", content: "PRODUCT_BUNDLE_IDENTIFIER = com.example.chat.showcase\n"),
            ExampleFile(name: "Showcase/Release.xcconfig", content: "PRODUCT_BUNDLE_IDENTIFIER = com.example.chat.showcase\nSKIP_INSTALL = \(skipInstall)\n"),
            ExampleFile(name: "Showcase/ShowcaseApp.swift", content: "import SwiftUI\n// Screens rendered for UI tests.\n@main struct ShowcaseApp: App { var body: some Scene { WindowGroup { Text(\"Screens\") } } }\n"),
            ExampleFile(name: "Shared/Settings.swift", content: "import Foundation\nlet theme = \(marker)UserDefaults.standard.string(forKey: \"theme\")\n"),
        ]
    }

    static let macInfoPlist = ExampleFile(name: "MacApp/Info.plist", content: ExampleProject.plist("""
        <key>CFBundleName</key>
        <string>Receipts</string>
        <key>LSMinimumSystemVersion</key>
        <string>13.0</string>
    """))
}

public struct RequiredReasonAPIUndeclaredRule: AppRule {
    public static let description = RuleDescription(
        id: "MOAT-PRIV-105", slug: "required-reason-api-undeclared", title: "Required-reason API used but not declared in the privacy manifest",
        severity: .low, confidence: .high, evidence: .compliance, cwe: [359],
        masvs: ["MASVS-PRIVACY-3"], mastg: [],
        rationale: "Some APIs can be used to fingerprint a device: user defaults, file timestamps (`NSFileCreationDate`, `creationDateKey`, `stat`, `getattrlist`...), system boot time (`systemUptime`, `mach_absolute_time`), disk space (`volumeAvailableCapacityKey`, `systemFreeSize`, `statfs`...) and active keyboards (`activeInputModes`). Since May 2024 Apple requires new uploads whose code uses them to declare the category and an approved reason in the bundle's `PrivacyInfo.xcprivacy` (ITMS-91053). A compliance matter, not a security weakness: low. Not reported for a target that builds for macOS only. Only unambiguous names count as a use: a `creationDate` property of the app's own model does not. The category table is `RequiredReasonAPITable`, shared with binary analysis.",
        fix: "Add an `NSPrivacyAccessedAPITypes` entry for the category with the approved reason that matches the use (for example `CA92.1` for user defaults read and written by the app itself) to the target's `PrivacyInfo.xcprivacy`.",
        references: ["https://developer.apple.com/documentation/bundleresources/privacy_manifest_files/describing_use_of_required_reason_api"],
        examples: [
            RuleExample(files: [
                PrivacyManifestExamples.infoPlist,
                ExampleFile(name: "App/PrivacyInfo.xcprivacy", content: PrivacyManifestExamples.manifest(PrivacyManifestExamples.userDefaultsDeclared)),
                ExampleFile(name: "App/Uptime.swift", content: """
                import Foundation
                let launchedAgo = ↓ProcessInfo.processInfo.systemUptime
                let theme = UserDefaults.standard.string(forKey: "theme")
                """),
            ], triggers: true),
            RuleExample(files: [
                PrivacyManifestExamples.infoPlist,
                ExampleFile(name: "App/PrivacyInfo.xcprivacy", content: PrivacyManifestExamples.manifest("""
                    <key>NSPrivacyAccessedAPITypes</key>
                    <array>
                        <dict>
                            <key>NSPrivacyAccessedAPIType</key>
                            <string>NSPrivacyAccessedAPICategoryUserDefaults</string>
                            <key>NSPrivacyAccessedAPITypeReasons</key>
                            <array/>
                        </dict>
                    </array>
                """)),
                ExampleFile(name: "App/Settings.swift", content: """
                import Foundation
                let theme = ↓UserDefaults.standard.string(forKey: "theme")
                """),
            ], triggers: true, note: "Declared without a reason."),
            RuleExample(files: [
                PrivacyManifestExamples.infoPlist,
                ExampleFile(name: "App/PrivacyInfo.xcprivacy", content: PrivacyManifestExamples.manifest(PrivacyManifestExamples.userDefaultsDeclared)),
                ExampleFile(name: "App/Settings.swift", content: """
                import Foundation
                struct Receipt { var creationDate: Date }
                let theme = UserDefaults.standard.string(forKey: "theme")
                let sorted = [Receipt]().sorted { $0.creationDate < $1.creationDate }
                """),
            ], triggers: false, note: "A model property named creationDate is not a file timestamp API."),
        ])

    public init() {}

    public func check(_ app: AppModel, _ sink: inout FindingSink) {
        for unit in app.appUnits where !unit.privacyManifests.isEmpty && !unit.isMacOnly {
            let code = app.ownSources(for: unit)
            let declared = unit.privacyManifests.flatMap { PrivacyManifest(document: $0).accessedAPITypes }
            let manifestNames = PermissionText.list(unit.privacyManifests.map(\.path))
            for category in RequiredReasonAPITable.categories {
                guard let match = code.firstMatch(of: category.uses) else { continue }
                let entries = declared.filter { $0.category == category.category }
                guard !entries.contains(where: { !$0.reasons.isEmpty }) else { continue }
                let problem = entries.isEmpty ? "\(manifestNames) does not declare \(category.category)"
                    : "\(manifestNames) declares \(category.category) without a reason"
                sink.report("\(match.clause.readable) is a \(category.name) required-reason API, but \(problem): Apple requires new uploads to declare each required-reason API category with an approved reason (ITMS-91053). Approved reasons: \(category.reasons.joined(separator: ", ")).",
                            at: match)
            }
        }
    }
}

public struct RequiredReasonDeclaredUnusedRule: AppRule {
    public static let description = RuleDescription(
        id: "MOAT-PRIV-106", slug: "required-reason-declared-unused", title: "Privacy manifest declares a required-reason API the code does not use",
        severity: .info, confidence: .medium, evidence: .compliance, cwe: [359],
        masvs: ["MASVS-PRIVACY-3"], mastg: [],
        rationale: "A privacy manifest is a statement to users and to Apple about what the app does. Declaring an API category nothing uses makes the privacy report inaccurate and hides which declarations still matter. The app's manifest must also cover statically linked third-party code, so confidence is low when libraries are linked; nothing is said when there is no code to judge. A category name Apple does not define covers nothing and is reported too.",
        fix: "Remove the stale `NSPrivacyAccessedAPITypes` entry, or keep it and note which library uses the API. Fix misspelled category names.",
        references: ["https://developer.apple.com/documentation/bundleresources/privacy_manifest_files/describing_use_of_required_reason_api"],
        examples: [
            RuleExample(files: [
                PrivacyManifestExamples.infoPlist,
                ExampleFile(name: "App/PrivacyInfo.xcprivacy", content: PrivacyManifestExamples.manifest("""
                    <key>NSPrivacyAccessedAPITypes</key>
                    <array>
                        <dict>
                            ↓<key>NSPrivacyAccessedAPIType</key>
                            <string>NSPrivacyAccessedAPICategoryDiskSpace</string>
                            <key>NSPrivacyAccessedAPITypeReasons</key>
                            <array>
                                <string>E174.1</string>
                            </array>
                        </dict>
                        <dict>
                            ↓<key>NSPrivacyAccessedAPIType</key>
                            <string>NSPrivacyAccessedAPICategoryUserDefault</string>
                            <key>NSPrivacyAccessedAPITypeReasons</key>
                            <array>
                                <string>CA92.1</string>
                            </array>
                        </dict>
                    </array>
                """)),
                ExampleFile(name: "App/Receipts.swift", content: "struct Receipt { var total: Double }\n"),
            ], triggers: true),
            RuleExample(files: [
                PrivacyManifestExamples.infoPlist,
                ExampleFile(name: "App/PrivacyInfo.xcprivacy", content: PrivacyManifestExamples.manifest(PrivacyManifestExamples.userDefaultsDeclared)),
                ExampleFile(name: "App/Settings.swift", content: "import SwiftUI\nstruct SettingsView: View {\n    @AppStorage(\"theme\") var theme = \"light\"\n    var body: some View { Text(theme) }\n}\n"),
            ], triggers: false, note: "@AppStorage is backed by UserDefaults."),
        ])

    public init() {}

    public func check(_ app: AppModel, _ sink: inout FindingSink) {
        for unit in app.appUnits {
            let code = app.reachableSources(for: unit)
            guard code.isAnalyzable else { continue }
            let confidence: Confidence = unit.isLoose || !unit.thirdPartyDependencies.isEmpty ? .low : .medium
            for document in unit.privacyManifests {
                for entry in PrivacyManifest(document: document).accessedAPITypes {
                    guard let category = RequiredReasonAPITable.category(named: entry.category) else {
                        sink.report("\(entry.category) is not a required-reason API category Apple defines, so this entry declares nothing.",
                                    in: document, at: entry.categoryNode, severity: .low, confidence: .high)
                        continue
                    }
                    guard !code.matchesAny(of: category.uses) else { continue }
                    sink.report("\(category.category) is declared, but no code of \(unit.displayName) uses a \(category.name) API.",
                                in: document, at: entry.categoryNode, confidence: confidence)
                }
            }
        }
    }
}

public struct TrackingDomainsWithoutTrackingRule: PropertyListRule {
    public static let plistKinds: Set<PlistKind> = [.privacyManifest]

    public static let description = RuleDescription(
        id: "MOAT-PRIV-107", slug: "tracking-domains-without-tracking", title: "Tracking domains declared while NSPrivacyTracking is false",
        severity: .low, confidence: .high, evidence: .compliance, cwe: [359],
        masvs: ["MASVS-PRIVACY-2", "MASVS-PRIVACY-3"], mastg: [],
        rationale: "`NSPrivacyTrackingDomains` lists the hosts the app contacts to track users; iOS blocks them until the user allows tracking through App Tracking Transparency. A manifest that lists tracking domains but says `NSPrivacyTracking` is false (or leaves it out, which means false) contradicts itself: either the app tracks and its privacy declaration is wrong, or the list is stale.",
        fix: "If the app tracks users, set `NSPrivacyTracking` to true, ask for permission with `ATTrackingManager`, and declare it in the App Store privacy labels. Otherwise remove the domains and stop contacting them for tracking.",
        references: ["https://developer.apple.com/documentation/bundleresources/privacy_manifest_files"],
        examples: [
            .triggering("App/PrivacyInfo.xcprivacy", ExampleProject.plist("""
                <key>NSPrivacyTracking</key>
                <false/>
                ↓<key>NSPrivacyTrackingDomains</key>
                <array>
                    <string>metrics.example-ads.net</string>
                </array>
            """)),
            .nonTriggering("App/PrivacyInfo.xcprivacy", ExampleProject.plist("""
                <key>NSPrivacyTracking</key>
                <true/>
                <key>NSPrivacyTrackingDomains</key>
                <array>
                    <string>metrics.example-ads.net</string>
                </array>
            """)),
            .nonTriggering("App/PrivacyInfo.xcprivacy", ExampleProject.plist("""
                <key>NSPrivacyTracking</key>
                <false/>
                <key>NSPrivacyTrackingDomains</key>
                <array/>
            """)),
        ])

    public init() {}

    public func check(_ plist: PropertyListDocument, _ sink: inout FindingSink) {
        let manifest = PrivacyManifest(document: plist)
        guard let node = manifest.trackingDomainsNode, !manifest.trackingDomains.isEmpty,
              manifest.tracking?.bool != true else { return }
        let state = manifest.tracking == nil ? "is missing (false)" : "is false"
        sink.report("NSPrivacyTrackingDomains lists \(PermissionText.list(manifest.trackingDomains.prefix(5).map { $0 })) but NSPrivacyTracking \(state): the manifest says the app does not track while naming tracking hosts.",
                    in: plist, at: node)
    }
}

public struct MissingPrivacyManifestRule: AppRule {
    public static let description = RuleDescription(
        id: "MOAT-PRIV-108", slug: "missing-privacy-manifest", title: "Required-reason APIs used without a privacy manifest",
        severity: .low, confidence: .high, evidence: .compliance, cwe: [359],
        masvs: ["MASVS-PRIVACY-3"], mastg: [],
        rationale: "An app (and each extension bundle) whose code uses required-reason APIs must ship a `PrivacyInfo.xcprivacy` that declares them: Apple requires it of new uploads since May 2024 (ITMS-91053). A compliance matter, not a security weakness: low; not reported for a target that builds for macOS only. The check looks at the code each app or extension target compiles and at the manifests copied into that bundle (Copy Bundle Resources or a synchronized folder); a manifest next to the code but not in the target is pointed out. Targets whose first use is the same line (an app and the extensions that compile its shared code) are one finding that names them all. Confidence is medium for extensions.",
        fix: "Add a Privacy Manifest file (File > New > File > App Privacy) to the target, and declare each required-reason API category with its approved reason.",
        references: ["https://developer.apple.com/documentation/bundleresources/privacy_manifest_files"],
        examples: [
            RuleExample(files: [
                PrivacyManifestExamples.infoPlist,
                ExampleFile(name: "App/Settings.swift", content: """
                import Foundation
                func theme() -> String? {
                    ↓UserDefaults.standard.string(forKey: "theme")
                }
                """),
            ], triggers: true),
            RuleExample(files: [
                PrivacyManifestExamples.infoPlist,
                ExampleFile(name: "App/Settings.m", content: """
                #import <Foundation/Foundation.h>
                @implementation Settings
                - (NSString *)theme {
                    return [[↓NSUserDefaults standardUserDefaults] stringForKey:@"theme"];
                }
                @end
                """),
            ], triggers: true),
            RuleExample(files: [
                PrivacyManifestExamples.infoPlist,
                ExampleFile(name: "App/Model.swift", content: "struct Receipt { var total: Double }\n"),
            ], triggers: false),
            RuleExample(files: [
                PrivacyManifestExamples.infoPlist,
                ExampleFile(name: "App/PrivacyInfo.xcprivacy", content: PrivacyManifestExamples.manifest(PrivacyManifestExamples.userDefaultsDeclared)),
                ExampleFile(name: "App/Settings.swift", content: "import Foundation\nlet theme = UserDefaults.standard.string(forKey: \"theme\")\n"),
            ], triggers: false),
            RuleExample(files: [
                PrivacyManifestExamples.macInfoPlist,
                ExampleFile(name: "MacApp/Settings.swift", content: "import Foundation\nlet theme = UserDefaults.standard.string(forKey: \"theme\")\n"),
            ], triggers: false, note: "A macOS app: required-reason declarations are required of iOS, iPadOS, tvOS, visionOS and watchOS apps."),
            RuleExample(files: PrivacyManifestExamples.showcaseProject(skipInstall: "YES"), triggers: false,
                        note: "An XcodeGen project: the Showcase app renders screens for UI tests and sets SKIP_INSTALL = YES in its release configuration, so no archive holds it and it is never uploaded; the shipping app has its manifest."),
            RuleExample(files: PrivacyManifestExamples.showcaseProject(skipInstall: "NO"), triggers: true,
                        note: "The same second app without SKIP_INSTALL = YES can be archived and uploaded: it needs its own manifest."),
        ])

    public init() {}

    public func check(_ app: AppModel, _ sink: inout FindingSink) {
        // An application target Xcode never archives (a showcase or UI-test host app) is never uploaded:
        // App Store Connect's check does not concern it.
        // One decision, one finding: targets whose first use is the same line (an app and the extensions
        // that compile its shared code) are reported together, the application first.
        struct Lacking { var unit: AppUnit; var first: CodeMatch; var uses: [String] }
        var groups: [String: [Lacking]] = [:]
        var order: [String] = []
        for unit in app.appUnits where unit.privacyManifests.isEmpty && !unit.isMacOnly && !unit.isNeverArchived {
            let code = app.ownSources(for: unit)
            let matches = RequiredReasonAPITable.categories.compactMap { category in
                code.firstMatch(of: category.uses).map { (category, $0) }
            }.sorted { ($0.1.path, $0.1.position.offset) < ($1.1.path, $1.1.position.offset) }
            guard let first = matches.first?.1 else { continue }
            let uses = matches.map { "\($0.0.name) (\($0.1.clause.anchor) in \($0.1.path):\($0.1.position.line))" }
            let key = "\(first.path):\(first.position.offset)"
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(Lacking(unit: unit, first: first, uses: uses))
        }
        for key in order {
            guard let members = groups[key]?.sorted(by: { !$0.unit.isExtension && $1.unit.isExtension }), let lead = members.first else { continue }
            let unit = lead.unit
            let subject: String
            if members.count == 1 {
                subject = unit.isLoose ? "The app uses" : "Target \(unit.name) uses"
            } else {
                subject = "Targets \(PermissionText.list(members.map(\.unit.name))) use"
            }
            var message = "\(subject) required-reason APIs — \(PermissionText.list(lead.uses)) — but \(members.count == 1 ? "ships" : "ship") no PrivacyInfo.xcprivacy: since May 2024 Apple requires new uploads to declare required-reason APIs in a privacy manifest (ITMS-91053)."
            if let stray = members.lazy.compactMap(\.unit.unclaimedPrivacyManifests.first).first {
                message += " \(stray.path) exists but is not copied into \(members.count == 1 ? "this target's bundle" : "these targets' bundles")."
            }
            sink.report(message, at: lead.first, confidence: members.allSatisfy(\.unit.isExtension) ? .medium : nil)
        }
    }
}
