@testable import MoatTestSupport
import Foundation
import Testing
import MoatCore
import MoatFormats
import MoatRules
import MoatScan

/// Built apps through the whole pipeline: discovery, the built-app reader, the property-list rules and
/// the binary rules, with findings located by archive display path and key path or symbol.
@Suite("Built app scans")
struct BuiltAppScanTests {
    // Credential vectors are assembled so that Moat's own scan of this repository stays clean.
    static let awsKey = "AKIA" + "2E0A8F3B244C9986"
    /// With `\n` written out: a sketch string is one line.
    static let pemKey = "-----BEGIN RSA " + "PRIVATE KEY-----\\nMIIEowIBAAKCAQEA1x2y3z4ABCDEFGHIJKLMNOPQRSTUVWXYZ\\n-----END RSA " + "PRIVATE KEY-----"

    static let mainExecutable = """
    Mach-O executable arm64 decrypted
    platform: iOS 15.0 sdk 17.0
    text: 64K
    objc-classes: AppDelegate LBStatementArchive
    imports: _objc_msgSend _objc_release ___stack_chk_fail _OBJC_CLASS_$_UIWebView _OBJC_CLASS_$_NSKeyedUnarchiver _SecTrustEvaluate _strcpy _CC_MD5
    selectors: viewDidLoad unarchiveObjectWithData: setShouldResolveExternalEntities:
    string: http://rates.example.net/v1
    string: %@ failed
    string: \(awsKey)
    entitlements: application-identifier=ABCDE12345.com.example.demo get-task-allow=true keychain-access-groups=[ABCDE12345.com.example.demo]
    """

    static func demoFiles() -> [(String, Data)] {
        [
            ("Info.plist", BuiltAppFixture.infoPlist(executable: "Demo", identifier: "com.example.demo", extra: [
                "CFBundleDisplayName": "Demo", "NSAppTransportSecurity": ["NSAllowsArbitraryLoads": true],
            ])),
            ("Demo", BuiltAppFixture.machO(mainExecutable)),
            ("embedded.mobileprovision", BuiltAppFixture.profile(name: "Demo Store", entitlements: [
                "application-identifier": "ABCDE12345.com.example.demo", "keychain-access-groups": ["ABCDE12345.*"],
                "get-task-allow": false,
            ])),
            ("PrivacyInfo.xcprivacy", BuiltAppFixture.xmlPlist(["NSPrivacyTracking": false])),
            ("Frameworks/Kit.framework/Info.plist", BuiltAppFixture.infoPlist(executable: "Kit", identifier: "com.example.kit",
                                                                              extra: ["CFBundleShortVersionString": "4.2.1"])),
            ("Frameworks/Kit.framework/Kit", BuiltAppFixture.machO("Mach-O dylib arm64 swift\nimports: _swift_release", name: "Kit")),
            ("Frameworks/libswiftCore.dylib", BuiltAppFixture.machO("Mach-O dylib arm64\nimports: _strcpy", name: "libswiftCore.dylib")),
            ("PlugIns/Share.appex/Info.plist", BuiltAppFixture.infoPlist(executable: "Share", identifier: "com.example.demo.share")),
            ("PlugIns/Share.appex/Share", BuiltAppFixture.machO("""
            Mach-O executable arm64 swift
            imports: _swift_release _objc_msgSend
            string: \(pemKey)
            """, name: "Share")),
        ]
    }

    @Test func ipaFindingsAreLocatedByArchivePathKeyPathAndSymbol() throws {
        let folder = try BuiltAppFixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ipa = folder.appendingPathComponent("Demo.ipa")
        try BuiltAppFixture.ipa(Self.demoFiles()).write(to: ipa)
        let result = try BuiltAppFixture.scan([ipa.path])
        #expect(result.errors.isEmpty, "\(result.errors)")
        #expect(result.filesScanned == 1)
        #expect(result.appName == "Demo" && result.bundleIdentifier == "com.example.demo")

        let app = "Demo.ipa!/Payload/Demo.app/"
        let binary = app + "Demo"
        // Property-list rules, as for source: line 1 (binary plist), key path set.
        let ats = try #require(result.finding("MOAT-NET-001", at: app + "Info.plist"))
        #expect(ats.location.line == 1 && ats.location.keyPath == "NSAppTransportSecurity.NSAllowsArbitraryLoads")

        // Reused code-rule ids, located by symbol.
        let webView = try #require(result.finding("MOAT-PLAT-001", at: binary, symbol: "_OBJC_CLASS_$_UIWebView"))
        #expect(webView.message.contains("references the UIWebView class") && webView.location.line == 1)
        let unarchive = try #require(result.finding("MOAT-CODE-001", at: binary, symbol: "unarchiveObjectWithData:"))
        #expect(unarchive.confidence == .high && unarchive.message.contains("references NSKeyedUnarchiver"))
        let xxe = try #require(result.finding("MOAT-CODE-002", at: binary, symbol: "setShouldResolveExternalEntities:"))
        #expect(xxe.confidence == .low && xxe.message.contains("does not show the value"))
        #expect(result.finding("MOAT-NET-202", at: binary, symbol: "_SecTrustEvaluate") != nil)
        #expect(result.finding("MOAT-CODE-404", at: binary, symbol: "_strcpy")?.message == "Demo imports strcpy, which copies without a destination size: review its calls for input longer than the buffer, and use strlcpy.")
        #expect(result.finding("MOAT-CRYP-401", at: binary, symbol: "_CC_MD5")?.confidence == .low)
        // Only selectors the code sends, never viewDidLoad-like names.
        #expect(result.findings.filter { $0.location.path == binary && $0.location.symbol == "viewDidLoad" }.isEmpty)

        // Strings: the URL is allowed in clear by NSAllowsArbitraryLoads; the key is redacted everywhere.
        let url = try #require(result.finding("MOAT-NET-401", at: binary, symbol: "http://rates.example.net/v1"))
        #expect(url.severity == .medium && url.message.contains("NSAllowsArbitraryLoads is true"))
        let aws = try #require(result.finding("MOAT-CRYP-201", at: binary))
        #expect(aws.location.symbol == "AKIA…[redacted]" && aws.evidence == "AKIA…[redacted]")
        #expect(aws.message.contains("an AWS access key id (AKIA…[redacted])"))
        let pem = try #require(result.finding("MOAT-CRYP-201", at: app + "PlugIns/Share.appex/Share"))
        #expect(pem.severity == .critical && pem.location.symbol == "-----BEGIN … PRIVATE KEY-----[redacted]")
        let encoded = String(decoding: try JSONEncoder().encode(result.findings), as: UTF8.self)
        #expect(!encoded.contains(Self.awsKey) && !encoded.contains("MIIEowIBAAKCAQEA1x2y3z4"), "a secret reached the output")

        // Signature versus profile.
        let notGranted = try #require(result.finding("MOAT-PLAT-401", at: binary, keyPath: "get-task-allow"))
        #expect(notGranted.message == "Demo is signed with get-task-allow = true, which its provisioning profile 'Demo Store' does not grant (it grants false): iOS refuses to launch it as signed.")
        #expect(notGranted.related.first?.location == Location(path: app + "embedded.mobileprovision", line: 1, keyPath: "Entitlements.get-task-allow"))
        #expect(result.finding("MOAT-PLAT-401", at: binary, keyPath: "keychain-access-groups") == nil, "ABCDE12345.* grants the group")
        let profile = try #require(result.finding("MOAT-PLAT-402", at: app + "embedded.mobileprovision"))
        #expect(profile.message == "App Store provisioning profile 'Demo Store', team Example Corp (ABCDE12345), expires 2100-01-01 (signing Demo.app).")

        // The signed entitlements went through the property-list rules at the binary's path (the capability
        // inventory), and get-task-allow in a distribution build is reported once, by its binary.
        let capabilities = result.findings(
            "MOAT-PLAT-101", at: binary).map { $0.location.keyPath ?? "" }.sorted()
        #expect(capabilities == ["application-identifier", "get-task-allow", "keychain-access-groups"])
        let debuggable = result.findings.filter { $0.ruleId == "MOAT-PLAT-102" }
        #expect(debuggable.count == 1 && debuggable.first?.location == Location(path: binary, line: 1, keyPath: "get-task-allow"))
        #expect(debuggable.first?.message == "Demo is signed with get-task-allow = true although its App Store provisioning profile 'Demo Store' is for distribution: any debugger can attach to this build and read or change its memory.")

        // Inventories: every binary but Apple's Swift runtime; the framework with its version.
        let inventory = result.findings.filter { $0.ruleId == "MOAT-RES-401" }.map(\.location.path).sorted()
        #expect(inventory == [binary, app + "Frameworks/Kit.framework/Kit", app + "PlugIns/Share.appex/Share"])
        let main = try #require(result.finding("MOAT-RES-401", at: binary))
        #expect(main.message.hasPrefix("Demo: arm64 app executable for iOS 15.0+ (SDK 17.0); PIE; Objective-C code; 8 imported symbols from 1 library; signed by team ABCDE12345 as com.example.demo (SHA-256) with entitlements; not encrypted (cryptid 0"))
        let kit = try #require(result.finding("MOAT-CODE-405", at: app + "Frameworks/Kit.framework/Info.plist"))
        #expect(kit.location.keyPath == "CFBundleShortVersionString" && kit.severity == .info)
        #expect(kit.message == "Embedded framework Kit.framework 4.2.1 (com.example.kit) at \(app)Frameworks/Kit.framework.")
        #expect(result.findings.allSatisfy { !$0.location.path.contains("libswiftCore") })
        // Swift-only binaries are never "missing canaries"; the main executable has them.
        #expect(result.findings.filter { $0.ruleId == "MOAT-CODE-402" }.isEmpty)
    }

    @Test func hostileArchiveEntriesBecomeErrorsNamingTheEntry() throws {
        var link = ZipWriter.Entry("Payload/Demo.app/link", Data("/etc/passwd".utf8), method: .stored)
        link.unixMode = 0o120777
        let replaced: Set<String> = ["PlugIns/Share.appex/Share", "embedded.mobileprovision", "PrivacyInfo.xcprivacy"]
        var files = Self.demoFiles().filter { !replaced.contains($0.0) }
        files.append(("PlugIns/Share.appex/Share", BuiltAppFixture.machO("Mach-O executable arm64").prefix(40)))
        files.append(("embedded.mobileprovision", Data([0x30, 0x82, 0xff, 0xff, 0x01])))
        files.append(("PrivacyInfo.xcprivacy", Data("<plist><dict><key>x</key>".utf8)))
        let ipa = BuiltAppFixture.ipa(files, extra: [ZipWriter.Entry("../evil.txt", Data("zip slip".utf8)), link])
        let folder = try BuiltAppFixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Hostile.ipa")
        try ipa.write(to: url)
        let result = try BuiltAppFixture.scan([url.path])
        let errors = Dictionary(grouping: result.errors, by: \.path).mapValues { $0.map(\.message) }
        let app = "Hostile.ipa!/Payload/Demo.app/"
        #expect(errors["Hostile.ipa!/../evil.txt"] == ["skipped: unsafe name ('..' component)"])
        #expect(errors[app + "link"] == ["skipped: symbolic link not followed"])
        #expect(errors[app + "PlugIns/Share.appex/Share"]?.first?.hasPrefix("cannot read Mach-O binary: ") == true)
        #expect(errors[app + "embedded.mobileprovision"]?.first?.hasPrefix("cannot read provisioning profile: ") == true)
        #expect(errors[app + "PrivacyInfo.xcprivacy"]?.first?.hasPrefix("cannot read property list: ") == true)
        // What could be read is still analyzed.
        #expect(result.finding("MOAT-PLAT-001", at: app + "Demo") != nil)
        #expect(result.finding("MOAT-NET-001", at: app + "Info.plist") != nil)
    }

    @Test func notAnArchiveIsOneError() throws {
        let folder = try BuiltAppFixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("not a zip".utf8).write(to: folder.appendingPathComponent("Broken.ipa"))
        try BuiltAppFixture.ipa([("Info.plist", Data())]).write(to: folder.appendingPathComponent("Empty.ipa"))
        let result = try BuiltAppFixture.scan([folder.path])
        #expect(result.findings.isEmpty)
        #expect(result.errors.map(\.path) == ["Broken.ipa", "Empty.ipa!/Payload/Demo.app", "Empty.ipa!/Payload/Demo.app/Info.plist"])
        #expect(result.errors.first?.message.hasPrefix("cannot read built app: ") == true)
    }

    @Test func appAndArchiveFoldersInAScannedFolderAreReadWholeNeverWalked() throws {
        let folder = try BuiltAppFixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = Self.demoFiles().filter { !$0.0.hasPrefix("PlugIns/") }
        try BuiltAppFixture.write(files, under: folder.appendingPathComponent("build/Demo.app"))
        try BuiltAppFixture.write(files, under: folder.appendingPathComponent("Archives/Demo.xcarchive/Products/Applications/Demo.app"))
        try BuiltAppFixture.write([
            ("build/Demo.app/Hidden.swift", Data("let web = UIWebView()\n".utf8)),
            ("Sources/Web.swift", Data("let web = UIWebView()\n".utf8)),
        ], under: folder)
        let result = try BuiltAppFixture.scan([folder.path], rules: ["MOAT-PLAT-001"])
        #expect(result.errors.isEmpty, "\(result.errors)")
        #expect(result.findings.map(\.location.path) == [
            "Archives/Demo.xcarchive/Products/Applications/Demo.app/Demo", "Sources/Web.swift", "build/Demo.app/Demo",
        ])
        #expect(result.filesScanned == 3)

        // The bundle itself as the root.
        let alone = try BuiltAppFixture.scan([folder.appendingPathComponent("build/Demo.app").path], rules: ["MOAT-PLAT-001", "MOAT-NET-001"])
        #expect(alone.findings.map { "\($0.ruleId) \($0.location.path)" } == ["MOAT-PLAT-001 Demo.app/Demo", "MOAT-NET-001 Demo.app/Info.plist"])
    }

    @Test func loneMachOFilesAreScannedAsLibraries() throws {
        let folder = try BuiltAppFixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = BuiltAppFixture.machO("""
        Mach-O dylib arm64
        platform: iOS 13.0 sdk 17.2
        text: 300K
        imports: _PyObject_Free _strcpy _malloc
        """, name: "_speedups.so")
        try BuiltAppFixture.write([
            ("wheel/markupsafe/_speedups.cpython-313-iphoneos.so", library),
            ("wheel/markupsafe/_linux.so", Data("\u{7F}ELF....".utf8)),
            ("tool", library),
            ("fake.dylib", Data("not mach-o".utf8)),
        ], under: folder)
        let result = try BuiltAppFixture.scan([folder.appendingPathComponent("wheel").path])
        #expect(result.errors.isEmpty)
        let path = "markupsafe/_speedups.cpython-313-iphoneos.so"
        let inventory = try #require(result.finding("MOAT-RES-401", at: path))
        #expect(inventory.message.hasPrefix("_speedups.cpython-313-iphoneos.so: arm64 dynamic library for iOS 13.0+ (SDK 17.2); 3 imported symbols"))
        #expect(result.finding("MOAT-CODE-404", at: path, symbol: "_strcpy") != nil)
        let canaries = try #require(result.finding("MOAT-CODE-402", at: path))
        #expect(canaries.confidence == .medium && canaries.message.contains("its C code (300 KiB)"))
        #expect(!result.findings.contains { $0.location.path.contains("_linux") })

        // A Mach-O file without an extension, given as a root; a .dylib that is not Mach-O is an error.
        let tool = try BuiltAppFixture.scan([folder.appendingPathComponent("tool").path])
        #expect(tool.finding("MOAT-RES-401", at: "tool") != nil)
        let fake = try BuiltAppFixture.scan([folder.appendingPathComponent("fake.dylib").path])
        #expect(fake.errors.map(\.message) == ["not a Mach-O binary"])
    }

    @Test func findingsOnAWholeBinarySurviveARebuildInBaselines() throws {
        // Sizes and counts in the message change with every build; the fingerprint must not.
        func scan(_ text: String, imports: String) throws -> [String: String] {
            let folder = try BuiltAppFixture.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            try BuiltAppFixture.machO("Mach-O dylib arm64\ntext: \(text)\nimports: \(imports)", name: "libkit.dylib")
                .write(to: folder.appendingPathComponent("libkit.dylib"))
            let result = try BuiltAppFixture.scan([folder.appendingPathComponent("libkit.dylib").path])
            return Dictionary(uniqueKeysWithValues: result.findings.map { ($0.ruleId + " " + ($0.location.symbol ?? ""), $0.fingerprint) })
        }
        let before = try scan("300K", imports: "_malloc _strcpy")
        let after = try scan("420K", imports: "_malloc _free _strcpy")
        #expect(Set(before.keys) == ["MOAT-CODE-402 ", "MOAT-CODE-404 _strcpy", "MOAT-RES-401 "])
        #expect(before == after)
    }

    @Test func selectorsReadFromMethodNamesOnlyGiveLowConfidence() throws {
        // Without __objc_selrefs the names may be methods the binary defines.
        var sketch = try MachOSketch("Mach-O executable arm64\nselectors: unarchiveObjectWithData:")
        let withReferences = try #require(BinaryImage.make(path: "A", role: .standalone, bundle: nil, file: MachOFile(data: sketch.build())))
        #expect(withReferences.selectorsAreReferences && withReferences.selectors == ["unarchiveObjectWithData:"])
        sketch.selectors = []
        var writer = MachOWriter()
        writer.commands = [.segment("__TEXT", [.strings("__objc_methname", ["unarchiveObjectWithData:"])])]
        let definedOnly = try #require(BinaryImage.make(path: "B", role: .standalone, bundle: nil, file: MachOFile(data: writer.build())))
        #expect(!definedOnly.selectorsAreReferences && definedOnly.selectors == ["unarchiveObjectWithData:"])
        var sink = FindingSink(rule: InsecureUnarchivingRule.description)
        InsecureUnarchivingRule().check(definedOnly, &sink)
        #expect(sink.findings.map(\.confidence) == [.low])
    }
}
