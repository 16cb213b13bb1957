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
            ("bplist00garbage", "malformed binary property list"),
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

/// Inputs that crashed FoundationXML before `XMLInput` refused them (found by fuzzing).
struct XMLInputTests {
    @Test func refusesWhatFoundationXMLCannotSurvive() {
        let cases: [([UInt8], String)] = [
            (Array("<?xml version=\"1.0\"?><plist><dict><key>A</key><".utf8) + [0xC9] + Array("tring/>".utf8), "not valid UTF-8"),
            (Array("<?xml?>\n<plist/>".utf8), "malformed XML declaration"),
            (Array("<?xml version=\"1.0\"?>\n<plist>\n<?pi?></plist>".utf8), "processing instruction at line 3"),
            ([0xFF, 0xFE, 0x3C, 0x00, 0x3F, 0x00], "UTF-16"),
            (Array("<?xml version=\"1.0\"?><plist>\u{0}</plist>".utf8), "NUL byte"),
        ]
        for (bytes, expected) in cases {
            #expect {
                try PropertyListParser.parse(data: Data(bytes), path: "Info.plist")
            } throws: { error in
                String(describing: error).contains(expected)
            }
        }
    }

    @Test func acceptsOrdinaryDeclarationsAndBOM() throws {
        let text = "\u{FEFF}<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict><key>A</key><string>a &lt;?b?&gt;</string></dict></plist>"
        let document = try PropertyListParser.parse(data: Data(text.utf8), path: "Info.plist")
        #expect(document.root["A"]?.string == "a <?b?>")
    }
}

struct BinaryPlistTests {
    @Test func roundTripsEveryValueType() throws {
        let object: [String: Any] = [
            "string": "héllo wörld ✓", "ascii": "plain", "int": 123456789, "negative": -5, "real": 2.5,
            "bool": true, "no": false, "date": Date(timeIntervalSince1970: 1_700_000_000),
            "data": Data([0, 1, 2, 255]), "array": [1, "two", [3]], "nested": ["inner": ["deep": "value"]],
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)
        let root = try PropertyListParser.parse(data: data, path: "Info.plist").root
        #expect(root["string"]?.string == "héllo wörld ✓")
        #expect(root["ascii"]?.string == "plain")
        #expect(root["int"]?.value.integerValue == 123456789)
        #expect(root["negative"]?.value.integerValue == -5)
        if case .real(let value)? = root["real"]?.value { #expect(value == 2.5) } else { Issue.record("real") }
        #expect(root["bool"]?.bool == true && root["no"]?.bool == false)
        if case .date(let date)? = root["date"]?.value { #expect(date.timeIntervalSince1970 == 1_700_000_000) } else { Issue.record("date") }
        if case .data(let bytes)? = root["data"]?.value { #expect(bytes == Data([0, 1, 2, 255])) } else { Issue.record("data") }
        #expect(root["array"]?.array?.count == 3)
        #expect(root["nested"]?["inner"]?["deep"]?.string == "value")
        #expect(root["nested"]?["inner"]?["deep"]?.keyPath == "nested.inner.deep")
    }

    /// A hand-made bplist: objects, offset table, trailer.
    static func bplist(objects: [[UInt8]], top: Int = 0) -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let tableStart = bytes.count
        for offset in offsets { bytes += [UInt8(offset >> 8), UInt8(offset & 0xFF)] }
        bytes += [0, 0, 0, 0, 0, 0, 2, 1]
        for value in [objects.count, top, tableStart] {
            bytes += (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
        }
        return Data(bytes)
    }

    /// 15 levels of dictionaries whose two 1,000-byte keys both name the next level: 2^15 leaves whose key
    /// paths were 15 KB each (about a gigabyte from a 3 KB file). Paths are cut at 1,024 bytes and shared.
    @Test func sharedObjectsGetCappedKeyPaths() throws {
        let levels = 15
        let keyA = String(repeating: "a", count: 1_000), keyB = String(repeating: "b", count: 1_000)
        func string(_ text: String) -> [UInt8] { [0x5F, 0x11, UInt8(text.utf8.count >> 8), UInt8(text.utf8.count & 0xFF)] + Array(text.utf8) }
        var objects: [[UInt8]] = []
        let keyAIndex = UInt8(levels + 1), keyBIndex = UInt8(levels + 2)
        for level in 0..<levels { objects.append([0xD2, keyAIndex, keyBIndex, UInt8(level + 1), UInt8(level + 1)]) }
        objects.append([0x09])
        objects += [string(keyA), string(keyB)]
        let data = Self.bplist(objects: objects)
        #expect(data.count < 3_000)
        let root = try PropertyListParser.parse(data: data, path: "x.plist").root
        #expect(root[keyA]?.keyPath == keyA, "paths up to the cap are whole")
        let second = try #require(root[keyA]?[keyB])
        #expect(second.keyPath.utf8.count <= PlistNode.maximumKeyPathLength)
        #expect(second.keyPath.hasPrefix(keyA + ".bbb") && second.keyPath.hasSuffix("…"))
        var leaf = second
        for _ in 2..<levels { leaf = try #require(leaf[keyB]) }
        #expect(leaf.bool == true)
        #expect(leaf.keyPath == second.keyPath, "below a cut path, nodes share it")
        #expect(PlistNode.keyPath("a", key: "b") == "a.b" && PlistNode.keyPath("a", index: 2) == "a[2]")
        #expect(PlistNode.keyPath("", key: "b") == "b")
        // A cut never splits a character.
        let wide = PlistNode.keyPath("", key: String(repeating: "é", count: 1_000))
        #expect(wide == String(repeating: "é", count: 510) + "…")
    }

    /// 16 levels of arrays holding the next level twice, ending in one 10,000-byte string: 65,536
    /// references to it, each decoded into its own copy (650 MB from a 10 KB file). Decoded once, shared.
    @Test func sharedStringsAreDecodedOnce() throws {
        let levels = 16
        let text = String(repeating: "s", count: 10_000)
        var objects: [[UInt8]] = []
        for level in 0..<levels { objects.append([0xA2, UInt8(level + 1), UInt8(level + 1)]) }
        objects.append([0x5F, 0x11, UInt8(text.utf8.count >> 8), UInt8(text.utf8.count & 0xFF)] + Array(text.utf8))
        let root = try PropertyListParser.parse(data: Self.bplist(objects: objects), path: "x.plist").root
        var leaves: [PlistNode] = []
        func collect(_ node: PlistNode) {
            if let elements = node.array { elements.forEach(collect) } else { leaves.append(node) }
        }
        collect(root)
        #expect(leaves.count == 1 << levels)
        #expect(leaves.allSatisfy { $0.string == text })
        #expect(leaves.last?.keyPath == String(repeating: "[1]", count: levels))
    }

    @Test func cyclesSharingAndBadReferencesAreRefused() {
        // Array 0 contains itself.
        let cycle = Self.bplist(objects: [[0xA1, 0x00]])
        // 25 levels, each an array holding the next level twice: 2^25 nodes if expanded.
        var levels: [[UInt8]] = []
        for level in 0..<25 { levels.append([0xA2, UInt8(level + 1), UInt8(level + 1)]) }
        levels.append([0x09])
        let exponential = Self.bplist(objects: levels)
        let outOfRange = Self.bplist(objects: [[0xA1, 0x07]])
        let setObject = Self.bplist(objects: [[0xC1, 0x01], [0x09]])
        let hugeLength = Self.bplist(objects: [[0x5F, 0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]])
        let cases: [(Data, String)] = [
            (cycle, "reference cycle"), (exponential, "expands to more than"), (outOfRange, "reference out of range"),
            (hugeLength, "length too large"),
        ]
        for (data, expected) in cases {
            #expect { try PropertyListParser.parse(data: data, path: "x.plist") } throws: { error in
                String(describing: error).contains(expected)
            }
        }
        // Sets are not plist types Apple writes, but reading one as an array is harmless.
        #expect((try? PropertyListParser.parse(data: setObject, path: "x.plist"))?.root.array?.first?.bool == true)
        // Every truncation of a valid file fails cleanly.
        let valid = (try? PropertyListSerialization.data(fromPropertyList: ["a": [1, 2, "x"]], format: .binary, options: 0)) ?? Data()
        for cut in 0..<valid.count { _ = try? PropertyListParser.parse(data: valid.prefix(cut), path: "x.plist") }
    }
}
