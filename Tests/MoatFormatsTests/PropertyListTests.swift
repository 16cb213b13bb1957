import Foundation
import Testing
import MoatFormats

struct PropertyListTests {
    static let xml = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
        <key>CFBundleIdentifier</key>
        <string>com.example.app</string>
        <key>NSAppTransportSecurity</key>
        <dict>
            <key>NSAllowsArbitraryLoads</key>
            <true/>
            <key>NSExceptionDomains</key>
            <dict>
                <key>example.com</key>
                <dict>
                    <key>NSExceptionMinimumTLSVersion</key>
                    <string>TLSv1.0</string>
                </dict>
            </dict>
        </dict>
        <key>LSApplicationQueriesSchemes</key>
        <array>
            <string>fb</string>
            <string>twitter</string>
        </array>
        <key>Count</key>
        <integer>42</integer>
    </dict>
    </plist>
    """

    @Test func xmlKeysHaveLinesAndKeyPaths() throws {
        let document = try PropertyListParser.parse(data: Data(Self.xml.utf8), path: "App/Info.plist")
        #expect(document.format == .xml)
        #expect(document.kind == .infoPlist)
        let ats = try #require(document.root["NSAppTransportSecurity"])
        #expect(ats.line == 7)
        let arbitrary = try #require(ats["NSAllowsArbitraryLoads"])
        #expect(arbitrary.bool == true)
        #expect(arbitrary.line == 9)
        #expect(arbitrary.keyPath == "NSAppTransportSecurity.NSAllowsArbitraryLoads")
        let tls = try #require(ats["NSExceptionDomains"]?["example.com"]?["NSExceptionMinimumTLSVersion"])
        #expect(tls.string == "TLSv1.0" && tls.line == 15)
        #expect(tls.keyPath == "NSAppTransportSecurity.NSExceptionDomains.example.com.NSExceptionMinimumTLSVersion")
        let schemes = try #require(document.root["LSApplicationQueriesSchemes"])
        #expect(schemes.strings == ["fb", "twitter"])
        #expect(schemes.array?[1].keyPath == "LSApplicationQueriesSchemes[1]")
        #expect(document.root["Count"]?.value.integerValue == 42)
    }

    @Test func binaryPlistsParseWithoutLines() throws {
        let object: [String: Any] = ["NSAppTransportSecurity": ["NSAllowsArbitraryLoads": true], "Name": "x", "N": 3]
        let data = try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)
        let document = try PropertyListParser.parse(data: data, path: "Payload/A.app/Info.plist")
        #expect(document.format == .binary)
        let node = try #require(document.root["NSAppTransportSecurity"]?["NSAllowsArbitraryLoads"])
        #expect(node.bool == true)
        #expect(node.line == nil)
        #expect(document.line(of: node) == 1)
        #expect(document.root["N"]?.value.integerValue == 3)
    }

    @Test func openStepPlistsParseWithKeyLines() throws {
        let text = """
        {
            archiveVersion = 1;
            objects = {
                ABC = { isa = PBXProject; name = "My App"; };
            };
        }
        """
        let document = try PropertyListParser.parse(data: Data(text.utf8), path: "project.pbxproj")
        #expect(document.format == .openStep)
        #expect(document.root["objects"]?["ABC"]?["name"]?.string == "My App")
        #expect(document.root["objects"]?.line == 3)
    }

    @Test func malformedInputsAreErrorsNotCrashes() {
        let cases: [(String, String)] = [
            ("", "empty property list"),
            ("<?xml version=\"1.0\"?><plist><dict><key>A</key></plist>", "malformed XML property list"),
            ("<?xml version=\"1.0\"?><plist><dict><key>A</key></dict></plist>", "key 'A' has no value"),
            ("<?xml version=\"1.0\"?><plist><dict><string>x</string></dict></plist>", "has no <key>"),
            ("<?xml version=\"1.0\"?><plist><dict><key>A</key><integer>zz</integer></dict></plist>", "is not a number"),
            ("<?xml version=\"1.0\"?><plist><dict><key>A</key><script/></dict></plist>", "unexpected element"),
            ("bplist00garbage", "malformed property list"),
            ("{ a = ; ", "malformed property list"),
        ]
        for (input, expected) in cases {
            #expect {
                try PropertyListParser.parse(data: Data(input.utf8), path: "X.plist")
            } throws: { error in
                String(describing: error).contains(expected)
            }
        }
    }

    @Test func deepNestingIsRefused() {
        let depth = PropertyListParser.maximumDepth + 10
        let xml = "<?xml version=\"1.0\"?><plist>" + String(repeating: "<array>", count: depth)
            + String(repeating: "</array>", count: depth) + "</plist>"
        #expect { try PropertyListParser.parse(data: Data(xml.utf8), path: "deep.plist") } throws: { error in
            String(describing: error).contains("nested deeper")
        }
    }

    @Test func externalEntitiesAreNotResolved() throws {
        let xml = """
        <?xml version="1.0"?>
        <!DOCTYPE plist [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
        <plist version="1.0"><dict><key>A</key><string>&xxe;</string></dict></plist>
        """
        let document = try? PropertyListParser.parse(data: Data(xml.utf8), path: "evil.plist")
        #expect(document?.root["A"]?.string?.contains("root:") != true)
    }

    @Test func kindsFromNames() {
        #expect(PlistKind.of(path: "A/App.entitlements") == .entitlements)
        #expect(PlistKind.of(path: "PrivacyInfo.xcprivacy") == .privacyManifest)
        #expect(PlistKind.of(path: "Share/Info.plist") == .infoPlist)
        #expect(PlistKind.of(path: "Settings.bundle/Root.plist") == .other)
    }
}

extension PlistNode.Value {
    var integerValue: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }
}
