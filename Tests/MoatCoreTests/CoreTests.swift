import Foundation
import Testing
import MoatCore

struct CoreTests {
    @Test func sha256KnownAnswers() {
        #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex([UInt8](repeating: 0x61, count: 1000)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
        #expect(SHA256.hex([UInt8](repeating: 0x61, count: 1_000_000)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func lowercaseHexIsTwoDigitsPerByteAsFormatGivesThem() {
        let every = (0...255).map { UInt8($0) }
        #expect(SHA256.lowercaseHex(every) == every.map { String(format: "%02x", $0) }.joined())
        #expect(SHA256.lowercaseHex([]) == "")
        #expect(SHA256.lowercaseHex([0x00, 0x0f, 0xa0, 0xff]) == "000fa0ff")
    }

    @Test func sha256GivesTheSameDigestWhateverTheChunksAndTheirStorage() {
        let bytes = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let whole = SHA256.hex(bytes)
        for chunk in [1, 3, 63, 64, 65, 127, 1000] {
            var contiguous = SHA256()
            var lazy = SHA256()
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + chunk)
                contiguous.update(Array(bytes[start..<end]))
                lazy.update(bytes[start..<end].lazy.map { $0 })
                start = end
            }
            let hex = { (digest: [UInt8]) in digest.map { String(format: "%02x", $0) }.joined() }
            #expect(hex(contiguous.finalize()) == whole, "chunks of \(chunk)")
            #expect(hex(lazy.finalize()) == whole, "chunks of \(chunk), not contiguous")
        }
    }

    @Test func severityOrderingAndScores() {
        #expect(Severity.critical > .high && Severity.high > .medium && Severity.low > .info)
        #expect(Severity.allCases.sorted() == [.info, .low, .medium, .high, .critical])
        #expect(Severity.high.securityScore == "8.0")
        #expect(Confidence.high > .low)
    }

    @Test func examplesMarkersAreRemovedAndLocated() {
        let file = ExampleFile(name: "A.swift", content: "let a = 1\nlet é = ↓b(↓c)\n")
        let (content, markers) = file.cleaned
        #expect(content == "let a = 1\nlet é = b(c)\n")
        #expect(markers.map(\.line) == [2, 2])
        #expect(markers.map(\.column) == [10, 12])
    }

    @Test func fingerprintNormalization() {
        #expect(Fingerprint.normalize("   let  a =\tb  ") == "let a = b")
        #expect(Fingerprint.hex("x") != Fingerprint.hex("y"))
        #expect(Fingerprint.hex("x").count == 16)
    }

    @Test func masvsAreas() {
        #expect(Taxonomy.area(of: "MASVS-NETWORK-1") == "NETWORK")
        #expect(Taxonomy.masvs.keys.allSatisfy { $0.hasPrefix("MASVS-") })
        #expect(Taxonomy.masvs.count == 24)
    }
}
