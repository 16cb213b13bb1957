@testable import MoatTestSupport
import Foundation
import Testing
@testable import MoatFormats

@Suite("DER reader and provisioning profiles")
struct ProvisioningProfileTests {
    @Test func readsAProfile() throws {
        let plist = DERWriter.profilePlist(devices: ["00008030-001", "00008030-002"], getTaskAllow: true)
        let profile = try ProvisioningProfile(data: DERWriter.cms(Data(plist.utf8)), path: "App.ipa!/Payload/App.app/embedded.mobileprovision")
        #expect(profile.wasCMSData)
        #expect(profile.document.path == "App.ipa!/Payload/App.app/embedded.mobileprovision")
        #expect(profile.name == "Example Profile")
        #expect(profile.uuid == "01234567-89AB-CDEF-0123-456789ABCDEF")
        #expect(profile.teamIdentifiers == ["ABCDE12345"])
        #expect(profile.teamName == "Example Corp")
        #expect(profile.appIDName == "Example App")
        #expect(profile.applicationIdentifierPrefixes == ["ABCDE12345"])
        #expect(profile.platforms == ["iOS"])
        #expect(profile.creationDate == Date(timeIntervalSince1970: 1_704_164_645))
        #expect(profile.expirationDate == Date(timeIntervalSince1970: 1_735_787_045))
        #expect(profile.isExpired(at: Date(timeIntervalSince1970: 1_800_000_000)))
        #expect(!profile.isExpired(at: Date(timeIntervalSince1970: 1_710_000_000)))
        #expect(profile.provisionedDevices == ["00008030-001", "00008030-002"])
        #expect(!profile.provisionsAllDevices)
        #expect(profile.entitlements?.entries?.map(\.key) == ["application-identifier", "get-task-allow", "aps-environment"])
        #expect(profile.getTaskAllow)
        #expect(profile.developerCertificateCount == 1)
        #expect(profile.kind == .development)
    }

    @Test func classifiesProfiles() throws {
        func kind(_ plist: String, ber: Bool = false) throws -> ProvisioningProfile.Kind {
            try ProvisioningProfile(data: DERWriter.cms(Data(plist.utf8), ber: ber), path: "p").kind
        }
        #expect(try kind(DERWriter.profilePlist(devices: ["a"], getTaskAllow: true)) == .development)
        #expect(try kind(DERWriter.profilePlist(devices: ["a"])) == .adHoc)
        #expect(try kind(DERWriter.profilePlist(allDevices: true)) == .enterprise)
        #expect(try kind(DERWriter.profilePlist()) == .appStore)
        #expect(try kind(DERWriter.profilePlist(devices: ["a"]), ber: true) == .adHoc)
    }

    @Test func readsBERIndefiniteLengthsAndChunkedContent() throws {
        let plist = Data(DERWriter.profilePlist().utf8)
        let cms = try CMSSignedData(data: DERWriter.cms(plist, ber: true, certificates: 3))
        #expect(cms.content == plist)
        #expect(cms.contentTypeIsData)
        #expect(cms.certificateCount == 3)
    }

    @Test func acceptsABarePropertyList() throws {
        let profile = try ProvisioningProfile(data: Data(DERWriter.profilePlist(allDevices: true).utf8), path: "p")
        #expect(!profile.wasCMSData)
        #expect(profile.kind == .enterprise)
    }

    @Test func readsDERElements() throws {
        // High tag number [31] and a long-form length.
        let body = Data(repeating: 0x41, count: 300)
        let element = Data([0xbf, 0x81, 0x00]) + Data(DERWriter.length(body.count)) + body
        let reader = DERReader(data: element)
        let parsed = try reader.element(at: 0)
        #expect(parsed.tagClass == .contextSpecific)
        #expect(parsed.isConstructed)
        #expect(parsed.tagNumber == 128)
        #expect(parsed.contentLength == 300)
        #expect(parsed.contentOffset == 6)
        #expect(parsed.endOffset == element.count)
    }

    // MARK: Malformed input

    @Test func refusesLengthsPastTheEnd() {
        let content = Data(DERWriter.profilePlist().utf8)
        var cms = DERWriter.cms(content)
        cms.removeLast(10)
        #expect(throws: BinaryFormatError.self) { try CMSSignedData(data: cms) }
        // A length claiming 4 GiB.
        #expect(throws: BinaryFormatError(.der, "length 4294967295 at offset 0 runs past the end (2 bytes left)")) {
            try DERReader(data: Data([0x04, 0x84, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00])).element(at: 0)
        }
        // A long-form length of nine bytes.
        #expect(throws: BinaryFormatError(.der, "length of 9 bytes at offset 0 (limit 4)")) {
            try DERReader(data: Data([0x04, 0x89] + [UInt8](repeating: 0xff, count: 9))).element(at: 0)
        }
        // A child longer than its parent.
        let child = DERWriter.octets(Data(count: 10))
        var parent = DERWriter.tlv(0x30, child)
        parent[1] = 4
        parent.append(Data(count: 20))
        #expect(throws: BinaryFormatError.self) { try DERReader(data: parent).validate() }
    }

    @Test func refusesDeepNesting() {
        // Ten thousand nested indefinite-length sequences.
        let depth = 10_000
        let nested = Data((0..<depth).flatMap { _ in [UInt8(0x30), 0x80] } + [UInt8](repeating: 0, count: depth * 2))
        #expect(throws: BinaryFormatError(.der, "nested deeper than 64 levels")) { try DERReader(data: nested).element(at: 0) }
        #expect(throws: BinaryFormatError.self) { try ProvisioningProfile(data: nested, path: "p") }
        // Definite lengths, deep inside the profile's tree.
        var definite = DERWriter.octets(Data("x".utf8))
        for _ in 0..<200 { definite = DERWriter.sequence([definite]) }
        let cms = DERWriter.sequence([DERWriter.oid(DERWriter.signedDataOID), DERWriter.explicit(0, definite)])
        #expect(throws: BinaryFormatError(.der, "nested deeper than 64 levels")) { try CMSSignedData(data: cms) }
    }

    @Test func refusesOtherContent() {
        let wrongType = DERWriter.sequence([DERWriter.oid(DERWriter.dataOID), DERWriter.explicit(0, DERWriter.sequence([]))])
        #expect(throws: BinaryFormatError(.der, "not CMS signed data: content type is not signedData")) {
            try CMSSignedData(data: wrongType)
        }
        let notPlist = DERWriter.cms(Data("hello".utf8))
        #expect(throws: BinaryFormatError.self) { try ProvisioningProfile(data: notPlist, path: "p") }
        let arrayRoot = DERWriter.cms(Data("<plist><array/></plist>".utf8))
        #expect(throws: BinaryFormatError(.provisioningProfile, "property list root is not a dictionary")) {
            try ProvisioningProfile(data: arrayRoot, path: "p")
        }
    }

    @Test func truncatedAndCorruptedProfilesNeverCrash() {
        for ber in [false, true] {
            let data = DERWriter.cms(Data(DERWriter.profilePlist(devices: ["a"]).utf8), ber: ber)
            for length in stride(from: 0, to: data.count, by: 7) {
                _ = try? ProvisioningProfile(data: Data(data.prefix(length)), path: "p")
            }
            for position in stride(from: 0, to: data.count, by: 7) {
                for value: UInt8 in [0x00, 0xff, 0x80, 0x3f] {
                    var corrupt = data
                    corrupt[position] = value
                    _ = try? ProvisioningProfile(data: corrupt, path: "p")
                }
            }
        }
    }
}
