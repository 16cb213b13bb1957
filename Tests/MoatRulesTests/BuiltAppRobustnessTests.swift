@testable import MoatTestSupport
import Foundation
import Testing
import MoatCore
import MoatFormats
import MoatRules
import MoatScan

/// Hostile built apps and binaries through the same entry points the fuzzer drives: mutated and
/// truncated Mach-O files, signatures, profiles and archives must never trap or hang.
@Suite("Built app robustness")
struct BuiltAppRobustnessTests {
    /// A small deterministic generator (SplitMix64), so failures reproduce.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(bound, 1))) }
    }

    static func mutate(_ data: Data, _ generator: inout Generator, changes: Int) -> Data {
        var bytes = [UInt8](data)
        guard !bytes.isEmpty else { return data }
        for _ in 0..<changes {
            let index = generator.below(bytes.count)
            switch generator.below(4) {
            case 0: bytes[index] = UInt8(truncatingIfNeeded: generator.next())
            case 1: bytes[index] = 0xff
            case 2: bytes[index] = 0
            default: bytes[index] ^= 0x80
            }
        }
        return Data(bytes)
    }

    static let rich = BuiltAppScanTests.mainExecutable

    @Test func mutatedAndTruncatedBinariesNeverTrap() throws {
        let entry = try #require(FuzzEntryPoints.all["macho-rules"])
        let binary = BuiltAppFixture.machO(Self.rich)
        let fat = BuiltAppFixture.machO(Self.rich.replacingOccurrences(of: "arm64 decrypted", with: "arm64 x86_64 decrypted"))
        var generator = Generator(state: 0x5EED)
        for round in 0..<300 {
            entry(Self.mutate(round.isMultiple(of: 2) ? binary : fat, &generator, changes: 1 + generator.below(8)))
        }
        for length in stride(from: 0, to: binary.count, by: max(1, binary.count / 200)) {
            entry(binary.prefix(length))
        }
    }

    @Test func mutatedAppsNeverTrap() throws {
        let entry = try #require(FuzzEntryPoints.all["built-app-scan"])
        var generator = Generator(state: 0xA11CE)
        let files = BuiltAppScanTests.demoFiles()
        for _ in 0..<60 {
            // Valid archives around mutated members, so the readers behind the ZIP layer are exercised.
            let mutated = files.map { path, data in
                (path, generator.below(3) == 0 ? Self.mutate(data, &generator, changes: 1 + generator.below(6)) : data)
            }
            entry(BuiltAppFixture.ipa(mutated, stored: true))
        }
        let ipa = BuiltAppFixture.ipa(files, stored: true)
        for _ in 0..<60 {
            entry(Self.mutate(ipa, &generator, changes: 1 + generator.below(16)))
        }
    }

    @Test func selectorReferencesOutsideTheNamesAreWarnings() throws {
        // References that point nowhere (a stripped or hostile image) are counted, not followed.
        var writer = MachOWriter()
        var pointers = ByteWriter()
        pointers.u64(0xdead_beef_0000); pointers.u64(0); pointers.u64(UInt64.max)
        writer.commands = [
            .segment("__TEXT", [.strings("__objc_methname", ["viewDidLoad"])]),
            .segment("__DATA", [MachOWriter.Section("__objc_selrefs", pointers.data)]),
        ]
        let image = try #require(try MachOFile(data: writer.build()).images.first)
        let references = try #require(image.objcSelectorReferences())
        #expect(references.strings.isEmpty)
        #expect(references.warnings == ["__DATA,__objc_selrefs: 3 references point outside __objc_methname"])
    }
}
