import Foundation
import Testing
import MoatCore
@testable import MoatScan

/// Data at rest found without code flow (issue 14, item 2): Core Data models and bundled configuration
/// files, read by the scanner like any other input.
struct StaticDataTests {
    static let model = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        <entity name="Account" representedClassName="Account" syncable="YES">
            <attribute name="password" optional="YES" attributeType="String"/>
        </entity>
    </model>
    """
    static let stack = """
    import CoreData
    let container = NSPersistentContainer(name: "Model")
    func load() {
        container.loadPersistentStores { _, _ in }
    }
    """

    @Test func discoveryFindsModelsAndResourceJSONOnly() {
        #expect(Discovery.kind(ofPath: "App/Model.xcdatamodeld/Model.xcdatamodel/contents") == .coreDataModel)
        #expect(Discovery.kind(ofPath: "App/config.json") == .propertyList)
        #expect(Discovery.kind(ofPath: "App/Assets.xcassets/AppIcon.appiconset/Contents.json") == nil)
        #expect(Discovery.kind(ofPath: ".github/renovate.json") == nil)
        #expect(Discovery.kind(ofPath: "web/package.json") == nil)
        #expect(Discovery.kind(ofPath: "App/contents") == nil)
    }

    @Test func aBadModelIsAnErrorNamingTheFileAndTheScanGoesOn() throws {
        let tree = try TemporaryTree([
            "App/Broken.xcdatamodeld/Broken.xcdatamodel/contents": "<model><entity name=\"A\">",
            "App/Model.xcdatamodeld/Model.xcdatamodel/contents": Self.model,
            "App/Store.swift": Self.stack,
            "App/broken.json": "{\"a\": }",
        ])
        defer { tree.remove() }
        let result = try tree.scan()
        #expect(result.errors.map(\.path) == ["App/Broken.xcdatamodeld/Broken.xcdatamodel/contents", "App/broken.json"])
        #expect(result.errors.first?.message.contains("malformed Core Data model") == true)
        #expect(result.findings.map { "\($0.ruleId) \($0.location.path):\($0.location.line)" }
                == ["MOAT-STOR-209 App/Model.xcdatamodeld/Model.xcdatamodel/contents:4"])
    }

    @Test func theSecretAttributeFindingTakesTheStoreFindingItNames() throws {
        // With a secret-named attribute: one medium finding at the model, the store code as related.
        let tree = try TemporaryTree(["App/Model.xcdatamodeld/Model.xcdatamodel/contents": Self.model, "App/Store.swift": Self.stack])
        defer { tree.remove() }
        let findings = try tree.scan().findings
        #expect(findings.map(\.ruleId) == ["MOAT-STOR-209"])
        #expect(findings.first?.related.map { "\($0.location.path):\($0.location.line)" } == ["App/Store.swift:4"])
        #expect(findings.first?.severity == .medium)
        // Without one: the store finding alone, low.
        let plain = try TemporaryTree([
            "App/Model.xcdatamodeld/Model.xcdatamodel/contents": Self.model.replacingOccurrences(of: "\"password\"", with: "\"nickname\""),
            "App/Store.swift": Self.stack,
        ])
        defer { plain.remove() }
        let low = try plain.scan().findings
        #expect(low.map { "\($0.ruleId) \($0.location.path):\($0.location.line) \($0.severity.rawValue)" } == ["MOAT-STOR-202 App/Store.swift:4 low"])
        // A container naming another model does not open this one: nothing is known about its store.
        let other = try TemporaryTree([
            "App/Model.xcdatamodeld/Model.xcdatamodel/contents": Self.model,
            "App/Store.swift": Self.stack.replacingOccurrences(of: "\"Model\"", with: "\"Cache\""),
        ])
        defer { other.remove() }
        #expect(try other.scan().findings.map(\.ruleId) == ["MOAT-STOR-202"])
    }

    @Test func onlyTheLatestModelVersionIsJudged() throws {
        let tree = try TemporaryTree([
            "App/Model.xcdatamodeld/Model.xcdatamodel/contents": Self.model,
            "App/Model.xcdatamodeld/Model 2.xcdatamodel/contents": Self.model,
            "App/Model.xcdatamodeld/Model 10.xcdatamodel/contents": Self.model,
            "App/Store.swift": Self.stack,
        ])
        defer { tree.remove() }
        #expect(try tree.scan().findings.map(\.location.path) == ["App/Model.xcdatamodeld/Model 10.xcdatamodel/contents"])
    }

    @Test func resourcesInNonShippingFoldersAreNotRead() throws {
        let secret = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\"><dict><key>ClientSecret</key><string>9f8e7d6c5b4a39281716f5e4d3c2b1a0</string></dict></plist>"
        let tree = try TemporaryTree([
            "App/Info.plist": "<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\"><dict><key>CFBundlePackageType</key><string>APPL</string></dict></plist>",
            "App/Mocks/secrets.json": "{\"client_secret\": \"9f8e7d6c5b4a39281716f5e4d3c2b1a0\"",
            "App/Fixtures/secrets.plist": secret,
            "App/Secrets.plist": secret,
        ])
        defer { tree.remove() }
        let result = try tree.scan()
        // The malformed mock JSON is not even read; the fixture plist is read but not judged.
        #expect(result.errors.isEmpty)
        #expect(result.findings.filter { $0.ruleId == "MOAT-CRYP-203" }.map(\.location.path) == ["App/Secrets.plist"])
    }
}
