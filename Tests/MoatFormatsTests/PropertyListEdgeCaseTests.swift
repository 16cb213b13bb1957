import Foundation
import Testing
@testable import MoatFormats

struct PropertyListEdgeCaseTests {
    @Test func binaryInfoPlistIsRead() throws {
        let object: [String: Any] = ["CFBundleIdentifier": "com.example.app", "NSCameraUsageDescription": "Scan receipts.",
                                     "CFBundleURLTypes": [["CFBundleURLSchemes": ["exampleapp"]]]]
        let data = try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)
        let document = try PropertyListParser.parse(data: data, path: "App/Info.plist")
        #expect(document.format == .binary)
        #expect(document.kind == .infoPlist)
        #expect(document.root["NSCameraUsageDescription"]?.string == "Scan receipts.")
        #expect(document.root["CFBundleURLTypes"]?.array?.first?["CFBundleURLSchemes"]?.strings == ["exampleapp"])
        #expect(document.root["NSCameraUsageDescription"]?.line == nil, "binary plists have no lines")
        #expect(document.line(of: try #require(document.root["NSCameraUsageDescription"])) == 1)
    }

    @Test(arguments: [
        ("<plist><dict><key>NSCameraUsageDescription</key></dict></plist>", "line 1: key 'NSCameraUsageDescription' has no value"),
        ("<plist><dict><key>A</key><key>B</key><string>x</string></dict></plist>", "line 1: key 'A' has no value"),
        ("<plist><dict><string>x</string></dict></plist>", "has no <key>"),
        ("<plist><dict><key>A</key><array></dict></array></plist>", "malformed XML property list at line 1"),
        ("<plist><dict><key>A</key><integer>twelve</integer></dict></plist>", "is not a number"),
        ("<?xml version=\"1.0\"?><plist><dict><key>A</key>", "malformed XML property list at line 1"),
    ])
    func malformedXMLIsAnErrorWithALine(text: String, expected: String) {
        do {
            _ = try PropertyListParser.parse(data: Data(text.utf8), path: "Info.plist")
            Issue.record("accepted: \(text)")
        } catch let error as PropertyListError {
            #expect(error.message.contains(expected), "\(error.message)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }
}

struct EntitlementsAndManifestTests {
    static let entitlements = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
        <key>aps-environment</key>
        <string>development</string>
        <key>com.apple.developer.associated-domains</key>
        <array>
            <string>applinks:example.com</string>
            <string>applinks:*.example.com?mode=developer</string>
            <string>webcredentials:example.com</string>
            <string>not-a-domain</string>
        </array>
        <key>com.apple.security.application-groups</key>
        <array>
            <string>group.com.example.shared</string>
        </array>
        <key>get-task-allow</key>
        <true/>
        <key>keychain-access-groups</key>
        <array>
            <string>$(AppIdentifierPrefix)com.example.shared</string>
        </array>
    </dict>
    </plist>
    """

    @Test func entitlementsView() throws {
        let document = try PropertyListParser.parse(data: Data(Self.entitlements.utf8), path: "App/App.entitlements")
        #expect(document.kind == .entitlements)
        let entitlements = Entitlements(document: document)
        #expect(entitlements.getTaskAllow?.bool == true)
        #expect(entitlements.getTaskAllow?.line == lineNumber(of: "<key>get-task-allow</key>", in: Self.entitlements))
        #expect(entitlements.apsEnvironment?.string == "development")
        #expect(entitlements.applicationGroups == ["group.com.example.shared"])
        #expect(entitlements.keychainAccessGroups == ["$(AppIdentifierPrefix)com.example.shared"])
        let domains = entitlements.associatedDomains
        #expect(domains.map(\.service) == ["applinks", "applinks", "webcredentials"])
        #expect(domains.map(\.domain) == ["example.com", "*.example.com", "example.com"])
        #expect(domains.map(\.mode) == [nil, "developer", nil])
        #expect(domains[1].node.line == lineNumber(of: "applinks:*.example.com", in: Self.entitlements))
        #expect(entitlements.entries.map(\.key).first == "aps-environment")
    }

    static let manifest = """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0">
    <dict>
        <key>NSPrivacyTracking</key>
        <false/>
        <key>NSPrivacyTrackingDomains</key>
        <array>
            <string>metrics.example.net</string>
        </array>
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
            <dict>
                <key>NSPrivacyAccessedAPIType</key>
                <string>NSPrivacyAccessedAPICategorySystemBootTime</string>
                <key>NSPrivacyAccessedAPITypeReasons</key>
                <array/>
            </dict>
        </array>
    </dict>
    </plist>
    """

    @Test func privacyManifestView() throws {
        let document = try PropertyListParser.parse(data: Data(Self.manifest.utf8), path: "App/PrivacyInfo.xcprivacy")
        #expect(document.kind == .privacyManifest)
        let manifest = PrivacyManifest(document: document)
        #expect(manifest.tracking?.bool == false)
        #expect(manifest.trackingDomains == ["metrics.example.net"])
        let types = manifest.accessedAPITypes
        #expect(types.map(\.category) == ["NSPrivacyAccessedAPICategoryUserDefaults", "NSPrivacyAccessedAPICategorySystemBootTime"])
        #expect(types.map(\.reasons) == [["CA92.1"], []])
        #expect(types[1].categoryNode.line == lineNumber(of: "NSPrivacyAccessedAPICategorySystemBootTime", in: Self.manifest) - 1)
    }
}
