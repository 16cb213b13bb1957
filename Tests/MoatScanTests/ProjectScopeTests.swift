import Foundation
import Testing
import MoatCore
@testable import MoatScan
@testable import MoatRules

/// Which target a file belongs to when the project is an XcodeGen spec, and template copies no target compiles.
struct ProjectScopeTests {
    static func plist(_ body: String) -> String { ExampleProject.plist(body) }

    /// An XcodeGen project (no .xcodeproj): the Chat app compiles the showcase's service folder, the
    /// showcase app excludes it; only Chat's Info.plist has the microphone key.
    static let chat: [String: String] = [
        "project.yml": "name: Chat\ninclude:\n  - path: App/target.yml\n  - path: Showcase/target.yml\n",
        "App/target.yml": """
        targets:
          Chat:
            type: application
            platform: iOS
            info:
              path: Info.plist
            sources:
            - path: ../Showcase/Modules
            - path: .
        """,
        "Showcase/target.yml": """
        targets:
          Showcase:
            type: application
            platform: iOS
            info:
              path: Info.plist
            sources:
            - path: .
              excludes:
              - "**/Service/**"
        """,
        "App/Info.plist": plist("""
            <key>CFBundlePackageType</key>
            <string>APPL</string>
            <key>NSMicrophoneUsageDescription</key>
            <string>Record voice messages for your chats.</string>
        """),
        "Showcase/Info.plist": plist("""
            <key>CFBundlePackageType</key>
            <string>APPL</string>
        """),
        "Showcase/Modules/Voice/Service/Recorder.swift": "import AVFoundation\nfunc record(to url: URL) throws -> AVAudioRecorder {\n    try AVAudioRecorder(url: url, settings: [:])\n}\n",
    ]

    static func rows(_ result: ScanResult, under folder: String) -> [String] {
        let prefix = folder.isEmpty ? "" : folder + "/"
        return result.findings.filter { $0.location.path.hasPrefix(prefix) }.map { finding in
            "\(finding.ruleId) \(finding.location.path.dropFirst(prefix.count)):\(finding.location.line) \(finding.severity.rawValue) \(finding.message)"
        }.sorted()
    }

    @Test func anXcodeGenSpecDecidesWhichTargetCompilesAFile() throws {
        let tree = try TemporaryTree(Self.chat)
        defer { tree.remove() }
        let result = try tree.scan()
        #expect(!result.findings.contains { $0.ruleId == "MOAT-PRIV-104" }, "\(Self.rows(result, under: ""))")
        // Without the spec the files form units by folder, and the recorder is judged against the showcase's plist.
        var loose = Self.chat
        loose["project.yml"] = nil
        let looseTree = try TemporaryTree(loose)
        defer { looseTree.remove() }
        let looseFindings = try looseTree.scan().findings.filter { $0.ruleId == "MOAT-PRIV-104" }
        #expect(looseFindings.map { "\($0.location.path):\($0.location.line)" } == ["Showcase/Modules/Voice/Service/Recorder.swift:2"])
    }

    @Test func anXcodeGenAppScansTheSameAloneAndBesideAnotherApp() throws {
        let other = [
            "Info.plist": Self.plist("<key>CFBundlePackageType</key>\n<string>APPL</string>\n<key>NSCameraUsageDescription</key>\n<string>Scan receipts.</string>"),
            "Sources/Locator.swift": "import CoreLocation\nlet manager = CLLocationManager()\nfunc start() { manager.requestWhenInUseAuthorization() }\n",
        ]
        var both: [String: String] = [:]
        for (path, content) in Self.chat { both["Chat/" + path] = content }
        for (path, content) in other { both["Other/" + path] = content }
        let together = try TemporaryTree(both)
        defer { together.remove() }
        let chatAlone = try TemporaryTree(Self.chat)
        defer { chatAlone.remove() }
        let otherAlone = try TemporaryTree(other)
        defer { otherAlone.remove() }
        let result = try together.scan()
        #expect(Self.rows(result, under: "Chat") == Self.rows(try chatAlone.scan(), under: ""))
        let otherRows = Self.rows(try otherAlone.scan(), under: "")
        #expect(otherRows.contains { $0.hasPrefix("MOAT-PRIV-104 Sources/Locator.swift:3 ") }, "\(otherRows)")
        #expect(Self.rows(result, under: "Other") == otherRows)
    }

    @Test func aTemplateCopyNoTargetCompilesDoesNotShip() throws {
        let secret = "static let apiKey = \"6805ca9a091e45ada8a9d8988367f14e\"\n"
        let tree = try TemporaryTree([
            ExampleProject.path: ExampleProject.pbxproj(),
            "App/Main.swift": "struct Main {}\n",
            "App/Onboarding-demo.swift": "enum OnboardingDemo {\n    " + secret + "}\n",
            "Config/Credentials-demo.swift": "enum Credentials {\n    " + secret + "}\n",
            "Config/Keys.swift": "enum Keys {\n    " + secret + "}\n",
        ])
        defer { tree.remove() }
        let findings = try tree.scan().findings.filter { $0.ruleId == "MOAT-CRYP-203" }
        let marks = Dictionary(uniqueKeysWithValues: findings.map { ($0.location.path, $0.nonShippingReason?.rawValue ?? "ships") })
        #expect(marks == ["App/Onboarding-demo.swift": "ships", "Config/Credentials-demo.swift": "not-compiled", "Config/Keys.swift": "ships"])
    }
}
