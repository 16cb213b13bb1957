@testable import MoatTestSupport
import Foundation
import Testing
@testable import MoatFormats

@Suite("Code signature reader")
struct CodeSignatureTests {
    @Test func readsTheSuperBlob() throws {
        let signature = try CodeSignature(data: CodeSignatureWriter.sample())
        #expect(signature.warnings.isEmpty)
        #expect(signature.blobs.map(\.slot) == [0, 2, 5, 7, 0x1000, 0x10000])
        #expect(signature.blobs.map(\.magic) == [0xfade_0c02, 0xfade_0c01, 0xfade_7171, 0xfade_7172, 0xfade_0c02, 0xfade_0b01])
        #expect(signature.codeDirectories.map(\.slot) == [0, 0x1000])
        let directory = try #require(signature.codeDirectory)
        #expect(directory.version == 0x20400)
        #expect(directory.identifier == "com.example.app")
        #expect(directory.teamIdentifier == "ABCDE12345")
        #expect(directory.flags == .runtime)
        #expect(directory.hashType == 2)
        #expect(directory.hashName == "SHA-256")
        #expect(directory.hashSize == 32)
        #expect(directory.pageSizeLog2 == 12)
        #expect(directory.codeSlotCount == 1)
        #expect(directory.codeLimit == 0x4000)
        #expect(directory.execSegmentFlags == 1)
        #expect(signature.codeDirectories.last?.hashName == "SHA-1")
        #expect(signature.derEntitlementsData == Data([0x70, 0x03, 0x02, 0x01, 0x01]))
        #expect(signature.requirementsData == Data([0, 0, 0, 0]))
        #expect(signature.hasCMSSignature)
    }

    @Test func parsesEntitlements() throws {
        let signature = try CodeSignature(data: CodeSignatureWriter.sample())
        let document = try #require(try signature.entitlements(path: "App.ipa!/Payload/App.app/App"))
        #expect(document.kind == .entitlements)
        #expect(document.path == "App.ipa!/Payload/App.app/App")
        #expect(document.root.entries?.map(\.key) == ["application-identifier", "get-task-allow", "keychain-access-groups"])
        #expect(document.root["get-task-allow"]?.bool == true)
        #expect(document.root["application-identifier"]?.string == "ABCDE12345.com.example.app")
        #expect(document.root["keychain-access-groups"]?.strings == ["ABCDE12345.*"])
    }

    @Test func olderCodeDirectoriesHaveNoTeam() throws {
        let data = CodeSignatureWriter.superBlob([
            (0, CodeSignatureWriter.codeDirectory(identifier: "old", teamID: "IGNORED", flags: 0x2, version: 0x20100)),
        ])
        let signature = try CodeSignature(data: data)
        #expect(signature.codeDirectory?.teamIdentifier == nil)
        #expect(signature.codeDirectory?.flags == .adhoc)
        #expect(signature.codeDirectory?.execSegmentFlags == nil)
        #expect(!signature.hasCMSSignature)
        #expect(try signature.entitlements(path: "x") == nil)
    }

    @Test func refusesMalformedSuperBlobs() throws {
        #expect(throws: BinaryFormatError.self) { try CodeSignature(data: Data([0xfa, 0xde])) }
        #expect(throws: BinaryFormatError(.codeSignature, "not an embedded signature (magic 0xfade7171)")) {
            try CodeSignature(data: CodeSignatureWriter.blob(0xfade_7171, Data(count: 8)))
        }
        let huge = CodeSignatureWriter.superBlob([(0, CodeSignatureWriter.codeDirectory(identifier: "a", teamID: nil))],
                                                 declaredCount: 0x00FF_FFFF)
        #expect(throws: BinaryFormatError(.codeSignature, "super-blob claims 16777215 blobs (limit 256)")) {
            try CodeSignature(data: huge)
        }
        let pastEnd = CodeSignatureWriter.superBlob([(0, CodeSignatureWriter.codeDirectory(identifier: "a", teamID: nil))],
                                                    declaredCount: 200)
        #expect(throws: BinaryFormatError.self) { try CodeSignature(data: pastEnd) }
    }

    @Test func notesBlobsOutsideTheSuperBlob() throws {
        let data = CodeSignatureWriter.superBlob([
            (0, CodeSignatureWriter.codeDirectory(identifier: "a", teamID: nil)),
            (5, CodeSignatureWriter.blob(0xfade_7171, Data("<plist/>".utf8))),
        ], offsetOverride: [1: 0xFFFF_FFF0])
        let signature = try CodeSignature(data: data)
        #expect(signature.warnings == ["blob 1 (slot 0x5) lies outside the super-blob"])
        #expect(signature.entitlementsData == nil)
        #expect(signature.codeDirectory?.identifier == "a")
    }

    @Test func truncatedSignaturesNeverCrash() {
        let data = CodeSignatureWriter.sample()
        for length in 0..<data.count {
            if let signature = try? CodeSignature(data: Data(data.prefix(length))) {
                _ = try? signature.entitlements(path: "x")
            }
        }
    }
}

@Suite("XML input guard for FoundationXML traps")
struct XMLInputGuardTests {
    /// FoundationXML's `XMLParser` on Linux crashed on all of these but the third (the entity-expansion
    /// vector, refused along with the others); `XMLInput` refuses them inside `PropertyListParser`.
    @Test(arguments: [
        "<!DOCTYPE plist [<!NOTATION n SYSTEM \"x\">]><plist><dict/></plist>",
        "<!DOCTYPE plist [<!ENTITY u SYSTEM \"x\" NDATA n>]><plist><dict/></plist>",
        "<!DOCTYPE plist [<!ENTITY a \"aaaaaaaa\">]><plist><string>&a;</string></plist>",
        "<?xml version=\"1.0\"?><?pi?><plist><dict/></plist>",
        "<?xml?><plist/>",
    ])
    func refusesInputThatCrashesXMLParser(_ text: String) {
        #expect(throws: PropertyListError.self) { try PropertyListParser.parse(data: Data(text.utf8), path: "x", kind: nil) }
    }

    @Test func refusesInvalidUTF8() {
        let data = Data("<plist><!--".utf8) + Data([0xff]) + Data("--><dict/></plist>".utf8)
        #expect(throws: PropertyListError.self) { try PropertyListParser.parse(data: data, path: "x", kind: nil) }
    }

    @Test func acceptsOrdinaryPlists() throws {
        let document = try PropertyListParser.parse(data: Data(CodeSignatureWriter.entitlementsPlist.utf8), path: "e", kind: nil)
        #expect(document.root["get-task-allow"]?.bool == true)
    }
}
