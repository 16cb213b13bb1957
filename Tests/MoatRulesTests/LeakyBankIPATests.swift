import Foundation
import Testing
import MoatCore
import MoatRules
import MoatScan

/// The example app built into an `.ipa` in code: its Info.plist converted to a binary plist (build
/// variables expanded as Xcode would), its entitlements in the executable's code signature, and an ad-hoc
/// `embedded.mobileprovision`. Scanning it must report the configuration findings the source scan reports,
/// with the same rule ids, located by archive path and key path.
@Suite("LeakyBank as a built app")
struct LeakyBankIPATests {
    static let sources = BuiltAppFixture.packageRoot.appendingPathComponent("Examples/LeakyBank")

    static func ipa() throws -> Data {
        let infoURL = sources.appendingPathComponent("LeakyBank/Info.plist")
        var info = try #require(try PropertyListSerialization.propertyList(from: Data(contentsOf: infoURL), format: nil) as? [String: Any])
        for (key, value) in info {
            if let text = value as? String, text.hasPrefix("$(") { info[key] = "LeakyBank" }
        }
        let entitlements = try String(contentsOf: sources.appendingPathComponent("LeakyBank/LeakyBank.entitlements"), encoding: .utf8)
        // The executable as the sources would compile it: UIWebView, the legacy unarchiver, XXE.
        var sketch = try MachOSketch("""
        Mach-O executable arm64 swift stripped
        platform: iOS 15.0 sdk 17.0
        objc-classes: _TtC9LeakyBank11AppDelegate LBStatementArchive
        imports: _objc_msgSend _objc_release _swift_release ___stack_chk_fail _OBJC_CLASS_$_UIWebView _OBJC_CLASS_$_NSKeyedUnarchiver _OBJC_CLASS_$_NSXMLParser
        selectors: unarchiveObjectWithData: unarchivedObjectOfClass:fromData:error: setShouldResolveExternalEntities: initWithFrame:
        """, name: "LeakyBank")
        sketch.entitlementsXML = entitlements
        sketch.signingIdentifier = "com.example.leakybank"
        let executable = sketch.build()
        return BuiltAppFixture.ipa([
            ("Info.plist", BuiltAppFixture.binaryPlist(info)),
            ("LeakyBank", executable),
            ("embedded.mobileprovision", BuiltAppFixture.profile(name: "LeakyBank Ad Hoc", devices: ["00008030-000A1B2C3D4E5F60"], entitlements: [
                "application-identifier": "ABCDE12345.com.example.leakybank", "aps-environment": "production",
                "com.apple.developer.associated-domains": "*", "com.apple.security.application-groups": ["group.com.example.leakybank"],
                "get-task-allow": false, "keychain-access-groups": ["ABCDE12345.*"],
            ])),
        ], app: "LeakyBank.app")
    }
}

extension LeakyBankIPATests {
    /// (rule, key path) of a scan's findings on the given files.
    static func configuration(_ result: ScanResult, infoPlist: String, entitlements: String) -> [String: Set<String>] {
        var found: [String: Set<String>] = [:]
        for finding in result.findings where finding.location.path == infoPlist || finding.location.path == entitlements {
            guard let keyPath = finding.location.keyPath else { continue }
            let file = finding.location.path == infoPlist ? "Info.plist" : "entitlements"
            found[file, default: []].insert("\(finding.ruleId) \(keyPath)")
        }
        return found
    }

    @Test func ipaReportsTheSourceConfigurationFindings() throws {
        let folder = try BuiltAppFixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("LeakyBank.ipa")
        try Self.ipa().write(to: url)
        let built = try BuiltAppFixture.scan([url.path])
        #expect(built.errors.isEmpty, "\(built.errors)")
        let source = try BuiltAppFixture.scan([Self.sources.path])
        let app = "LeakyBank.ipa!/Payload/LeakyBank.app/"
        let fromSource = Self.configuration(source, infoPlist: "LeakyBank/Info.plist", entitlements: "LeakyBank/LeakyBank.entitlements")
        let fromIPA = Self.configuration(built, infoPlist: app + "Info.plist", entitlements: app + "LeakyBank")

        // Every configuration finding of the source, except the one that needs the app's code.
        let needsCode: Set<String> = ["MOAT-PLAT-104 com.apple.developer.associated-domains[0]"]
        let sourceInfo = try #require(fromSource["Info.plist"])
        #expect(sourceInfo.isSuperset(of: [
            "MOAT-NET-001 NSAppTransportSecurity.NSAllowsArbitraryLoads",
            "MOAT-NET-002 NSAppTransportSecurity.NSExceptionDomains.legacy-rates.example.com.NSExceptionAllowsInsecureHTTPLoads",
            "MOAT-PLAT-106 CFBundleURLTypes[0].CFBundleURLSchemes[0]",
        ]))
        #expect(fromIPA["Info.plist"] == fromSource["Info.plist"])
        let sourceEntitlements = try #require(fromSource["entitlements"])
        #expect(sourceEntitlements.contains("MOAT-PLAT-102 get-task-allow") && sourceEntitlements.isSuperset(of: needsCode))
        // The signature adds what only a built app can show: entitlements its profile does not grant.
        let notGranted: Set<String> = ["MOAT-PLAT-401 aps-environment", "MOAT-PLAT-401 get-task-allow"]
        #expect(fromIPA["entitlements"] == sourceEntitlements.subtracting(needsCode).union(notGranted))

        // Binary plists and signatures have no lines: line 1, key path set, at the archive display path.
        let ats = try #require(built.finding("MOAT-NET-001", at: app + "Info.plist"))
        #expect(ats.location.line == 1 && ats.location.column == 1)
        let debuggable = try #require(built.finding("MOAT-PLAT-102", at: app + "LeakyBank", keyPath: "get-task-allow"))
        #expect(debuggable.location.line == 1 && debuggable.confidence == .high)
        #expect(debuggable.message == "LeakyBank is signed with get-task-allow = true although its ad-hoc provisioning profile 'LeakyBank Ad Hoc' is for distribution: any debugger can attach to this build and read or change its memory.")
        // The same code weaknesses as the source scan, with the same rule ids, located by symbol.
        for (rule, symbol) in [("MOAT-PLAT-001", "_OBJC_CLASS_$_UIWebView"), ("MOAT-CODE-001", "unarchiveObjectWithData:"),
                               ("MOAT-CODE-002", "setShouldResolveExternalEntities:")] {
            #expect(built.finding(rule, at: app + "LeakyBank", symbol: symbol) != nil, "\(rule) \(symbol)")
            #expect(source.findings.contains { $0.ruleId == rule }, "\(rule) in the source scan")
        }
        #expect(built.appName == "LeakyBank" && built.bundleIdentifier == "com.example.leakybank")
    }
}
