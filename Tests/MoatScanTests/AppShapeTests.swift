import Foundation
import Testing
import MoatCore
import MoatFormats
@testable import MoatScan
@testable import MoatRules

/// The app's real shape (issue 23): a property list no target uses does not ship, a target's platform
/// decides which rules apply, compliance is low and says what Apple requires, info-level findings belong
/// to the surface.
struct AppShapeTests {
    static func plist(_ body: String) -> String { ExampleProject.plist(body) }

    static let arbitraryLoads = plist("""
        <key>CFBundlePackageType</key>
        <string>APPL</string>
        <key>NSAppTransportSecurity</key>
        <dict>
            <key>NSAllowsArbitraryLoads</key>
            <true/>
        </dict>
    """)

    /// An XcodeGen app whose target uses `App/Info.plist` (or names its file in `infoSetting`, written in
    /// the Release `.xcconfig`), and an old `Legacy/Info.plist` beside it.
    static func legacyPlistProject(spec: String = "info:\n      path: App/Info.plist", xcconfig: String? = nil) -> [String: String] {
        var files = [
            "project.yml": """
            name: Notes
            targets:
              Notes:
                type: application
                platform: iOS
                \(spec)
                configFiles:
                  Debug: App/Release.xcconfig
                  Release: App/Release.xcconfig
                sources:
                - path: App
            """,
            "App/Info.plist": Self.plist("<key>CFBundlePackageType</key>\n<string>APPL</string>"),
            "App/NotesApp.swift": "import SwiftUI\n@main struct NotesApp: App { var body: some Scene { WindowGroup { Text(\"Notes\") } } }\n",
            "Legacy/Info.plist": arbitraryLoads,
            "Legacy/Old.entitlements": Self.plist("<key>get-task-allow</key>\n<true/>"),
        ]
        if let xcconfig { files["App/Release.xcconfig"] = xcconfig }
        return files
    }

    static func marks(_ result: ScanResult, path: String) -> [String] {
        result.findings.filter { $0.location.path == path }.map { "\($0.ruleId) \($0.nonShippingReason?.rawValue ?? "ships")" }.sorted()
    }

    @Test func aPlistNoTargetUsesDoesNotShip() throws {
        let tree = try TemporaryTree(Self.legacyPlistProject(xcconfig: "PRODUCT_BUNDLE_IDENTIFIER = com.example.notes\n"))
        defer { tree.remove() }
        let result = try tree.scan()
        let legacy = Self.marks(result, path: "Legacy/Info.plist")
        #expect(!legacy.isEmpty && legacy.allSatisfy { $0.hasSuffix(" no-target") }, "\(legacy)")
        #expect(Self.marks(result, path: "Legacy/Old.entitlements").allSatisfy { $0.hasSuffix(" no-target") })
        // It fails nothing: the gate counts shipping findings only.
        #expect(!result.findings(atOrAbove: .low).contains { $0.location.path.hasPrefix("Legacy/") })
    }

    @Test func aPlistATargetNamesInAReadXcconfigShips() throws {
        // The target's own `info: path` would win over the .xcconfig: this target names its file only there.
        let files = Self.legacyPlistProject(spec: "settings:\n      PRODUCT_NAME: Notes",
                                            xcconfig: "INFOPLIST_FILE = Legacy/Info.plist\nCODE_SIGN_ENTITLEMENTS = Legacy/Old.entitlements\n")
        let tree = try TemporaryTree(files)
        defer { tree.remove() }
        let result = try tree.scan()
        let legacy = Self.marks(result, path: "Legacy/Info.plist")
        #expect(legacy.contains("MOAT-NET-001 ships"), "\(legacy)")
    }

    @Test func aTargetWhoseFileIsNamedOutOfSightMarksNothing() throws {
        // The Release .xcconfig the target names is not in the tree: its INFOPLIST_FILE could be the legacy file.
        let tree = try TemporaryTree(Self.legacyPlistProject(spec: "settings:\n      PRODUCT_NAME: Notes"))
        defer { tree.remove() }
        let result = try tree.scan()
        #expect(Self.marks(result, path: "Legacy/Info.plist").contains("MOAT-NET-001 ships"), "\(Self.marks(result, path: "Legacy/Info.plist"))")
    }

    @Test func withoutAProjectLooseFilesKeepTheirUnits() throws {
        var files = Self.legacyPlistProject()
        files["project.yml"] = nil
        let tree = try TemporaryTree(files)
        defer { tree.remove() }
        let result = try tree.scan()
        #expect(Self.marks(result, path: "Legacy/Info.plist").contains("MOAT-NET-001 ships"))
    }

    @Test func aPbxprojTargetsInfoPlistShipsAndALeftoverDoesNot() throws {
        let tree = try TemporaryTree([
            ExampleProject.path: ExampleProject.pbxproj(debug: ["INFOPLIST_FILE = App/Info.plist;"], release: ["INFOPLIST_FILE = App/Info.plist;"]),
            "App/Info.plist": Self.arbitraryLoads,
            "Archive/Info.plist": Self.arbitraryLoads,
        ])
        defer { tree.remove() }
        let result = try tree.scan()
        #expect(Self.marks(result, path: "App/Info.plist").contains("MOAT-NET-001 ships"))
        #expect(Self.marks(result, path: "Archive/Info.plist").contains("MOAT-NET-001 no-target"), "\(Self.marks(result, path: "Archive/Info.plist"))")
    }

    // MARK: Platforms

    /// An XcodeGen target on `platform` that browses the local network with Bonjour, without a local
    /// network usage description.
    static func browser(platform: String) -> [String: String] {
        [
            "project.yml": """
            name: Remote
            targets:
              Remote:
                type: application
                platform: \(platform)
                info:
                  path: Remote/Info.plist
                sources:
                - path: Remote
            """,
            "Remote/Info.plist": Self.plist("<key>CFBundlePackageType</key>\n<string>APPL</string>"),
            "Remote/Discovery.swift": "import Network\nfunc discover() {\n    let browser = NWBrowser(for: .bonjour(type: \"_remote._tcp\", domain: nil), using: .tcp)\n    browser.start(queue: .main)\n}\n",
        ]
    }

    @Test func theLocalNetworkKeyIsAskedOfIOSNotOfWatchOS() throws {
        let iOS = try CorpusPrecisionTests.findings(Self.browser(platform: "iOS"), rule: "MOAT-PRIV-104")
        #expect(iOS.map { "\($0.location.path):\($0.location.line) \($0.severity.rawValue)" } == ["Remote/Discovery.swift:3 low"])
        #expect(try CorpusPrecisionTests.findings(Self.browser(platform: "watchOS"), rule: "MOAT-PRIV-104").isEmpty)
    }

    @Test func platformsComeFromTheBuildSettings() throws {
        let project = try XcodeProject.parse(data: Data(ExampleProject.pbxproj(debug: ["SDKROOT = watchos;"], release: ["SDKROOT = watchos;"]).utf8), path: ExampleProject.path)
        let app = AppModel(plists: [], sources: [], projects: [project])
        #expect(app.units.first?.platforms == [.watchOS])
        let both = try XcodeProject.parse(data: Data(ExampleProject.pbxproj(project: ["SDKROOT = auto;", "SUPPORTED_PLATFORMS = \"iphoneos iphonesimulator macosx\";"]).utf8), path: ExampleProject.path)
        #expect(AppModel(plists: [], sources: [], projects: [both]).units.first?.platforms == [.iOS, .macOS])
    }

    // MARK: Compliance

    @Test func aMissingPrivacyManifestIsLowAndStatesTheRequirement() throws {
        let found = try CorpusPrecisionTests.findings([
            "App/Info.plist": Self.plist("<key>CFBundlePackageType</key>\n<string>APPL</string>"),
            "App/Settings.swift": "import Foundation\nlet theme = UserDefaults.standard.string(forKey: \"theme\")\n",
        ], rule: "MOAT-PRIV-108")
        #expect(found.map(\.severity) == [.low])
        let message = try #require(found.first?.message)
        #expect(message.contains("Apple requires new uploads to declare required-reason APIs in a privacy manifest"), "\(message)")
        #expect(!message.contains("reject"), "\(message)")
    }

    // MARK: Info belongs to the surface

    @Test func infoLevelFindingsLeaveTheFindingsList() throws {
        let tree = try TemporaryTree([
            "App/Info.plist": Self.plist("<key>CFBundlePackageType</key>\n<string>APPL</string>"),
            "App/Receipts.swift": "struct Receipt { var total: Double }\n",
            "App/PrivacyInfo.xcprivacy": Self.plist("""
                <key>NSPrivacyAccessedAPITypes</key>
                <array>
                    <dict>
                        <key>NSPrivacyAccessedAPIType</key>
                        <string>NSPrivacyAccessedAPICategoryDiskSpace</string>
                        <key>NSPrivacyAccessedAPITypeReasons</key>
                        <array>
                            <string>E174.1</string>
                        </array>
                    </dict>
                </array>
            """),
        ])
        defer { tree.remove() }
        let result = try tree.scan()
        #expect(!result.findings.contains { $0.severity == .info }, "\(result.findings.map(\.ruleId))")
        #expect(result.inventory.contains { $0.ruleId == "MOAT-PRIV-106" })
    }
}

extension AppShapeTests {
    /// One key, one decision: an Info.plist key and the `INFOPLIST_KEY_` build setting that sets it in
    /// another target of the same app group under one key path.
    @Test func anInfoPlistKeyAndItsBuildSettingAreOneKeyPath() {
        #expect(PostProcessor.settingKeyPath("targets.Widget.buildSettings[Release].INFOPLIST_KEY_NSCameraUsageDescription") == "NSCameraUsageDescription")
        #expect(PostProcessor.settingKeyPath("INFOPLIST_KEY_NSCameraUsageDescription") == "NSCameraUsageDescription")
        #expect(PostProcessor.settingKeyPath("NSCameraUsageDescription") == "NSCameraUsageDescription")
        #expect(PostProcessor.settingKeyPath("project.buildSettings[Debug].CODE_SIGN_ENTITLEMENTS") == "CODE_SIGN_ENTITLEMENTS")
    }
}

extension AppShapeTests {
    static let trackingManifest = plist("""
        <key>NSPrivacyTracking</key>
        <false/>
        <key>NSPrivacyTrackingDomains</key>
        <array>
            <string>metrics.example-ads.net</string>
        </array>
    """)

    /// A privacy manifest beside the code a target compiles but copied by no target does not ship; one
    /// beside a local package's code (no target compiles it) may be the package's resource and ships.
    @Test func aPrivacyManifestNoTargetCopiesAmongTargetCodeDoesNotShip() throws {
        let tree = try TemporaryTree([
            "project.yml": """
            name: Notes
            targets:
              Notes:
                type: application
                platform: iOS
                info:
                  path: App/Info.plist
                sources:
                - path: App/NotesApp.swift
            """,
            "App/Info.plist": Self.plist("<key>CFBundlePackageType</key>\n<string>APPL</string>"),
            "App/NotesApp.swift": "import SwiftUI\n@main struct NotesApp: App { var body: some Scene { WindowGroup { Text(\"Notes\") } } }\n",
            "App/PrivacyInfo.xcprivacy": Self.trackingManifest,
            "Packages/Kit/Sources/Kit/Kit.swift": "public struct Kit {}\n",
            "Packages/Kit/Sources/Kit/PrivacyInfo.xcprivacy": Self.trackingManifest,
        ])
        defer { tree.remove() }
        let result = try tree.scan()
        #expect(Self.marks(result, path: "App/PrivacyInfo.xcprivacy") == ["MOAT-PRIV-107 no-target"], "\(Self.marks(result, path: "App/PrivacyInfo.xcprivacy"))")
        #expect(Self.marks(result, path: "Packages/Kit/Sources/Kit/PrivacyInfo.xcprivacy") == ["MOAT-PRIV-107 ships"])
    }
}

extension AppShapeTests {
    /// One decision, one finding: an app and its widget compile the same settings file and neither ships a
    /// privacy manifest: one MOAT-PRIV-108 finding names both targets.
    @Test func targetsSharingTheirFirstRequiredReasonUseAreOneFinding() throws {
        var files: [String: String] = [
            "project.yml": """
            name: Weather
            targets:
              Weather:
                type: application
                platform: iOS
                info:
                  path: App/Info.plist
                sources:
                - path: App
                - path: Shared
              WeatherWidget:
                type: app-extension
                platform: iOS
                info:
                  path: Ext/Info.plist
                sources:
                - path: Ext
                - path: Shared
            """,
            "App/Info.plist": Self.plist("<key>CFBundlePackageType</key>\n<string>APPL</string>"),
            "App/WeatherApp.swift": "import SwiftUI\n@main struct WeatherApp: App { var body: some Scene { WindowGroup { Text(\"Weather\") } } }\n",
            "Ext/Info.plist": Self.plist("<key>NSExtension</key>\n<dict>\n<key>NSExtensionPointIdentifier</key>\n<string>com.apple.widgetkit-extension</string>\n</dict>"),
            "Ext/Widget.swift": "struct Forecast {}\n",
            "Shared/Units.swift": "import Foundation\nlet unit = UserDefaults.standard.string(forKey: \"unit\")\n",
        ]
        var found = try CorpusPrecisionTests.findings(files, rule: "MOAT-PRIV-108")
        #expect(found.map { "\($0.location.path):\($0.location.line)" } == ["Shared/Units.swift:2"])
        #expect(found.first?.message.hasPrefix("Targets Weather and WeatherWidget use required-reason APIs") == true, "\(found.map(\.message))")
        // The widget's own first use elsewhere is its own decision.
        files["Ext/Widget.swift"] = "import Foundation\nlet up = ProcessInfo.processInfo.systemUptime\n"
        found = try CorpusPrecisionTests.findings(files, rule: "MOAT-PRIV-108")
        #expect(found.count == 2, "\(found.map(\.message))")
    }
}
