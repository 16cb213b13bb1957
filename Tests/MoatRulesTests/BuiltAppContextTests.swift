import Foundation
import Testing
import MoatCore
import MoatFormats
import MoatRules
import MoatScan

/// Binary rules that judge a binary by its bundle: signature, profile and the host's Info.plist.
@Suite("Binary rules in their bundle")
struct BuiltAppContextTests {
    /// Scans `Demo.app` made of these files (an executable sketch, Info.plist extras, a profile...).
    static func scanApp(executable: String, info: [String: Any] = [:], profile: Data? = nil,
                        extra: [(String, Data)] = [], rules: [String]) throws -> ScanResult {
        let folder = try BuiltAppFixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var files: [(String, Data)] = [
            ("Info.plist", BuiltAppFixture.infoPlist(executable: "Demo", identifier: "com.example.demo", extra: info)),
            ("Demo", BuiltAppFixture.machO(executable)),
        ] + extra
        if let profile { files.append(("embedded.mobileprovision", profile)) }
        try BuiltAppFixture.write(files, under: folder.appendingPathComponent("Demo.app"))
        return try BuiltAppFixture.scan([folder.appendingPathComponent("Demo.app").path], rules: rules)
    }

    static let debuggable = """
    Mach-O executable arm64 stripped
    platform: iOS 16.0 sdk 17.0
    entitlements: application-identifier=ABCDE12345.com.example.demo get-task-allow=true
    """
    static var grants: [String: Any] { ["application-identifier": "ABCDE12345.com.example.demo", "get-task-allow": true] }

    @Test func getTaskAllowIsJudgedByTheProfile() throws {
        let rules = ["MOAT-PLAT-102", "MOAT-PLAT-404"]
        // Development profile, release-looking build: PLAT-404 only.
        let development = try Self.scanApp(executable: Self.debuggable, profile: BuiltAppFixture.profile(
            name: "Team", devices: ["a", "b"], entitlements: Self.grants), rules: rules)
        #expect(development.findings.map(\.ruleId) == ["MOAT-PLAT-404"])
        #expect(development.findings.first?.message == "Demo.app is built like a release (stripped executable, no debug dylib) but signed with the development profile 'Team', which grants get-task-allow: a debugger can attach on its 2 provisioned devices.")
        // Development profile, Debug build (local symbols kept, or a debug dylib): nothing.
        let debugBuild = try Self.scanApp(executable: Self.debuggable.replacingOccurrences(of: "stripped", with: "unstripped"),
                                          profile: BuiltAppFixture.profile(devices: ["a"], entitlements: Self.grants), rules: rules)
        #expect(debugBuild.findings.isEmpty)
        let debugDylib = try Self.scanApp(executable: Self.debuggable, profile: BuiltAppFixture.profile(devices: ["a"], entitlements: Self.grants),
                                          extra: [("Demo.debug.dylib", BuiltAppFixture.machO("Mach-O dylib arm64", name: "Demo.debug.dylib"))],
                                          rules: rules)
        #expect(debugDylib.findings.isEmpty)
        // No profile: medium confidence. A simulator build: nothing.
        let unprovisioned = try Self.scanApp(executable: Self.debuggable, rules: rules)
        #expect(unprovisioned.findings.map { "\($0.ruleId) \($0.confidence)" } == ["MOAT-PLAT-102 medium"])
        #expect(unprovisioned.findings.first?.message == "Demo is signed with get-task-allow = true, and carries no provisioning profile: any debugger can attach to this build and read or change its memory.")
        let simulator = try Self.scanApp(executable: Self.debuggable.replacingOccurrences(of: "platform: iOS 16.0", with: "platform: iOS-simulator 16.0"),
                                         rules: rules)
        #expect(simulator.findings.isEmpty)
        // An archive is signed for development and re-signed on export: not reported.
        let folder = try BuiltAppFixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try BuiltAppFixture.write([
            ("Info.plist", BuiltAppFixture.infoPlist(executable: "Demo", identifier: "com.example.demo")),
            ("Demo", BuiltAppFixture.machO(Self.debuggable)),
            ("embedded.mobileprovision", BuiltAppFixture.profile(devices: ["a"], entitlements: Self.grants)),
        ], under: folder.appendingPathComponent("Demo.xcarchive/Products/Applications/Demo.app"))
        #expect(try BuiltAppFixture.scan([folder.path], rules: rules).findings.isEmpty)
    }

    @Test func protectedAPIsInBinariesNeedTheHostsUsageDescriptions() throws {
        let location = """
        Mach-O executable arm64
        imports: _OBJC_CLASS_$_CLLocationManager _objc_msgSend
        selectors: requestWhenInUseAuthorization startUpdatingLocation
        """
        let missing = try Self.scanApp(executable: location, rules: ["MOAT-PRIV-104"])
        let finding = try #require(missing.findings.first)
        #expect(missing.findings.count == 1 && finding.location == Location(path: "Demo.app/Demo", line: 1, symbol: "requestWhenInUseAuthorization"))
        #expect(finding.message.hasPrefix("Demo uses requestWhenInUseAuthorization (with CLLocationManager), which needs NSLocationWhenInUseUsageDescription for location while in use, but Demo.app/Info.plist does not have it: without it iOS ignores the authorization request"))
        #expect(finding.confidence == .high)
        let declared = try Self.scanApp(executable: location, info: ["NSLocationWhenInUseUsageDescription": "Show nearby branches."],
                                        rules: ["MOAT-PRIV-104"])
        #expect(declared.findings.isEmpty)

        // A framework's code runs in the app: the app's Info.plist decides, with medium confidence.
        let camera = BuiltAppFixture.machO("""
        Mach-O dylib arm64
        imports: _OBJC_CLASS_$_AVCaptureDevice _AVMediaTypeVideo _objc_msgSend
        selectors: requestAccessForMediaType:completionHandler:
        """, name: "Scanner")
        let framework = try Self.scanApp(executable: "Mach-O executable arm64", extra: [
            ("Frameworks/Scanner.framework/Info.plist", BuiltAppFixture.infoPlist(executable: "Scanner", identifier: "com.example.scanner")),
            ("Frameworks/Scanner.framework/Scanner", camera),
        ], rules: ["MOAT-PRIV-104"])
        #expect(framework.findings.map { "\($0.location.path) \($0.location.symbol ?? "") \($0.confidence)" }
                == ["Demo.app/Frameworks/Scanner.framework/Scanner requestAccessForMediaType:completionHandler: medium"])

        // Swift spellings (`camera`, `sourceType`) are not matched against selectors.
        let swiftNames = try Self.scanApp(executable: """
        Mach-O executable arm64
        imports: _OBJC_CLASS_$_UIImagePickerController _objc_msgSend
        selectors: camera sourceType video default
        """, rules: ["MOAT-PRIV-104"])
        #expect(swiftNames.findings.isEmpty)
    }

    @Test func frameworkInfoPlistsAreNotJudgedAsApps() throws {
        // iOS reads ATS settings and usage descriptions from apps and extensions only.
        let result = try Self.scanApp(executable: "Mach-O executable arm64", extra: [
            ("Frameworks/Kit.framework/Info.plist", BuiltAppFixture.infoPlist(executable: "Kit", identifier: "com.example.kit",
                                                                              extra: ["NSAppTransportSecurity": ["NSAllowsArbitraryLoads": true]])),
            ("Frameworks/Kit.framework/Kit", BuiltAppFixture.machO("Mach-O dylib arm64", name: "Kit")),
        ], rules: ["MOAT-NET-001", "MOAT-CODE-405"])
        #expect(result.findings.map { "\($0.ruleId) \($0.location.path)" } == ["MOAT-CODE-405 Demo.app/Frameworks/Kit.framework/Kit"])
        #expect(result.findings.first?.message == "Embedded framework Kit.framework (no version in its Info.plist) (com.example.kit) at Demo.app/Frameworks/Kit.framework.")
    }
}
