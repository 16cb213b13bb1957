import Foundation
import Testing
@testable import MoatFormats

/// The Core Data model reader and the JSON resource reader: what they keep, with lines, and how they refuse.
struct CoreDataModelTests {
    static let model = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        <entity name="Account" representedClassName="Account" syncable="YES">
            <attribute name="password" optional="YES" attributeType="String"/>
            <attribute name="cache" attributeType="Binary" transient="YES"/>
            <attribute name="token" attributeType="Transformable"
                       valueTransformerName="EncryptedTransformer"/>
            <relationship name="owner" destinationEntity="Person"/>
        </entity>
        <entity name="Person" representedClassName="Person" syncable="YES"/>
        <elements>
            <element name="Account" positionX="0" positionY="0" width="128" height="74"/>
        </elements>
    </model>
    """

    @Test func entitiesAndAttributesWithTheirLines() throws {
        let model = try CoreDataModel.parse(data: Data(Self.model.utf8), path: "App/Store.xcdatamodeld/Store 2.xcdatamodel/contents")
        #expect(model.name == "Store")
        #expect(model.bundlePath == "App/Store.xcdatamodeld")
        #expect(model.entities.map(\.name) == ["Account", "Person"])
        let attributes = try #require(model.entities.first).attributes
        #expect(attributes.map { "\($0.name) \($0.type ?? "-") \($0.line):\($0.column) \($0.isTransient) \($0.valueTransformer ?? "-")" } == [
            "password String 4:9 false -",
            "cache Binary 5:9 true -",
            "token Transformable 6:9 false EncryptedTransformer",
        ])
        #expect(model.line(4) == "<attribute name=\"password\" optional=\"YES\" attributeType=\"String\"/>")
    }

    @Test func modelContentsAreRecognizedByTheirFolder() {
        #expect(CoreDataModel.isModelContents(path: "App/M.xcdatamodeld/M.xcdatamodel/contents"))
        #expect(CoreDataModel.isModelContents(path: "M.xcdatamodel/contents"))
        #expect(!CoreDataModel.isModelContents(path: "App/contents"))
        #expect(!CoreDataModel.isModelContents(path: "App/M.xcdatamodel/other"))
    }

    @Test func badModelsAreRefusedWithAReason() {
        let cases: [(String, String)] = [
            ("", "empty Core Data model"),
            ("<model><entity name=\"A\"></model>", "malformed Core Data model"),
            ("<document/>", "not a Core Data model"),
            ("<?xml version=\"1.0\"?><!DOCTYPE m [<!ENTITY x \"y\">]><model/>", "declares entity"),
        ]
        for (text, expected) in cases {
            do {
                _ = try CoreDataModel.parse(data: Data(text.utf8), path: "M.xcdatamodel/contents")
                Issue.record("accepted: \(text)")
            } catch let error as CoreDataModelError {
                #expect(error.message.contains(expected), "\(text): \(error.message)")
            } catch {
                Issue.record("unexpected error \(error)")
            }
        }
    }
}

struct JSONDocumentReaderTests {
    /// 200 levels of objects with 2,000-byte keys: the innermost key path was 400 KB, and building every
    /// level's path was quadratic. Paths are cut at 1,024 bytes.
    @Test func deepLongKeysGetCappedKeyPaths() throws {
        let key = String(repeating: "k", count: 2_000)
        let text = String(repeating: "{\"\(key)\": ", count: 200) + "true" + String(repeating: "}", count: 200)
        var node = try JSONDocumentReader.parse(data: Data(text.utf8), path: "c.json").root
        for _ in 0..<200 { node = try #require(node[key]) }
        #expect(node.bool == true)
        #expect(node.keyPath == String(repeating: "k", count: 1_021) + "…")

        let xml = "<plist><dict>" + String(repeating: "<key>\(key)</key><dict>", count: 200) + "<key>x</key><true/>"
            + String(repeating: "</dict>", count: 201) + "</plist>"
        var plist = try PropertyListParser.parse(data: Data(xml.utf8), path: "x.plist").root
        for _ in 0..<200 { plist = try #require(plist[key]) }
        #expect(plist["x"]?.bool == true)
        #expect(plist["x"]?.keyPath == String(repeating: "k", count: 1_021) + "…")
        let array = try PropertyListParser.parse(data: Data("<plist><array><string>v</string></array></plist>".utf8), path: "x.plist").root
        #expect(array.array?.first?.keyPath == "[0]")
    }

    @Test func keysKeepTheirLinesAndPaths() throws {
        let text = """
        {
          "name": "x\\u00e9\\ud83d\\ude00\\n",
          "nested": {"client_secret": "abc", "n": -1.5e2, "i": 42, "ok": true, "none": null},
          "list": [null, "a", {"k": "v"}]
        }
        """
        let document = try JSONDocumentReader.parse(data: Data(text.utf8), path: "c.json")
        #expect(document.format == .json && document.kind == .other)
        #expect(document.root["name"]?.string == "x\u{e9}\u{1F600}\n")
        let secret = try #require(document.root["nested"]?["client_secret"])
        #expect(secret.keyPath == "nested.client_secret" && secret.line == 3)
        if case .real(let value)? = document.root["nested"]?["n"]?.value { #expect(value == -150) } else { Issue.record("n") }
        if case .integer(let value)? = document.root["nested"]?["i"]?.value { #expect(value == 42) } else { Issue.record("i") }
        #expect(document.root["nested"]?["ok"]?.bool == true)
        #expect(document.root["nested"]?["none"] == nil)
        #expect(document.root["list"]?.array?.count == 2)
        #expect(document.root["list"]?.array?.last?["k"]?.keyPath == "list[1].k")
    }

    @Test func commentsAndTrailingCommasAreRead() throws {
        let text = """
        {
          // the endpoint
          "a": [1, 2,],
          /* a secret
             on two lines */
          "b": {"c": "d",},
        }
        """
        let document = try JSONDocumentReader.parse(data: Data(text.utf8), path: "c.json")
        #expect(document.root["a"]?.array?.count == 2)
        #expect(document.root["b"]?["c"]?.string == "d" && document.root["b"]?["c"]?.line == 6)
    }

    @Test func malformedJSONIsRefusedWithTheLine() {
        let cases: [(String, String)] = [
            ("", "empty JSON file"),
            ("{\"a\": 1,,}", "line 1: expected a key in quotes"),
            ("{\n\"a\": 1\n\"b\": 2}", "line 3: expected ',' or '}'"),
            ("[,]", "unexpected character ','"),
            ("[1, 2", "unexpected end of file"),
            ("{\"a\": \"\\x\"}", "invalid escape"),
            ("{} {}", "unexpected text after the JSON value"),
            (String(repeating: "[", count: 300), "nested deeper than"),
        ]
        for (text, expected) in cases {
            do {
                _ = try JSONDocumentReader.parse(data: Data(text.utf8), path: "x.json")
                Issue.record("accepted: \(text)")
            } catch let error as PropertyListError {
                #expect(error.message.contains(expected), "\(text.prefix(20)): \(error.message)")
            } catch {
                Issue.record("unexpected error \(error)")
            }
        }
    }
}
