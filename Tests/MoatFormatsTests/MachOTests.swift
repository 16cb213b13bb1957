@testable import MoatTestSupport
import Foundation
import Testing
@testable import MoatFormats

@Suite("Mach-O reader")
struct MachOTests {
    static let uuidBytes: [UInt8] = Array(0x10...0x1f)

    /// A 64-bit iOS executable using chained fixups, with Objective-C and Swift sections.
    static func modernExecutable(signature: Data = CodeSignatureWriter.sample(), encrypted: Bool = false) -> MachOWriter {
        var writer = MachOWriter()
        writer.flags |= MachOWriter.noHeapExecution
        writer.commands = [
            .segment("__PAGEZERO", []),
            .segment("__TEXT", [
                .strings("__cstring", ["http://insecure.example.com", "", "password=%@", "héllo"]),
                .strings("__objc_classname", ["AppDelegate", "LoginViewController"]),
                .strings("__objc_methname", ["viewDidLoad", "application:didFinishLaunchingWithOptions:"]),
                MachOWriter.Section("__swift5_types", Data(count: 8), flags: 0),
            ]),
            .segment("__DATA", [MachOWriter.Section("__bss", Data(), flags: 0x1)]),
            .dylib(MachOWriter.loadDylib, "/usr/lib/libobjc.A.dylib"),
            .dylib(MachOWriter.loadWeakDylib, "/System/Library/Frameworks/CryptoKit.framework/CryptoKit"),
            .dylib(MachOWriter.reexportDylib, "@rpath/Reexported.framework/Reexported"),
            .dylib(MachOWriter.lazyLoadDylib, "/usr/lib/libz.1.dylib"),
            .dylib(MachOWriter.loadDylib, "/usr/lib/libSystem.B.dylib"),
            .rpath("@executable_path/Frameworks"),
            .buildVersion(platform: 2, minimumOS: MachOWriter.version(15, 0), sdk: MachOWriter.version(17, 2, 1)),
            .encryption(cryptID: encrypted ? 1 : 0),
            .main(0x4000),
            .uuid(uuidBytes),
            .chainedFixups(MachOWriter.chainedFixups([
                .init(ordinal: 1, name: "_objc_release"),
                .init(ordinal: 1, name: "_objc_retain"),
                .init(ordinal: 2, name: "_$s9CryptoKit3AESO3GCMO4seal", weak: true),
                .init(ordinal: 5, name: "___stack_chk_guard"),
                .init(ordinal: -2, name: "_flat_lookup_symbol"),
            ])),
            .symtab([
                .init(name: "___stack_chk_fail", ordinal: 5),
                .init(name: "_CCCrypt", ordinal: 5, weak: true),
                .init(name: "_main", type: 0x0f, ordinal: 0, value: 0x4000),      // defined: not an import
                .init(name: "_common", type: 0x01, ordinal: 0, value: 16),        // common: not an import
                .init(name: "debug", type: 0x24, ordinal: 0),                     // stab: not an import
            ]),
            .codeSignature(signature),
        ]
        return writer
    }

    @Test func readsAModernExecutable() throws {
        let file = try MachOFile(data: Self.modernExecutable().build())
        #expect(!file.isFat)
        let image = try #require(file.images.first)
        #expect(image.warnings.isEmpty)
        #expect(image.architecture.name == "arm64")
        #expect(image.is64Bit && !image.isBigEndian)
        #expect(image.fileType == .execute)
        #expect(image.isPIE && image.hasNoHeapExecution && !image.allowsStackExecution)
        #expect(image.loadCommands.map(\.name) == [
            "LC_SEGMENT_64", "LC_SEGMENT_64", "LC_SEGMENT_64", "LC_LOAD_DYLIB", "LC_LOAD_WEAK_DYLIB", "LC_REEXPORT_DYLIB",
            "LC_LAZY_LOAD_DYLIB", "LC_LOAD_DYLIB", "LC_RPATH", "LC_BUILD_VERSION", "LC_ENCRYPTION_INFO_64", "LC_MAIN",
            "LC_UUID", "LC_DYLD_CHAINED_FIXUPS", "LC_SYMTAB", "LC_CODE_SIGNATURE",
        ])
        #expect(image.segments.map(\.name) == ["__PAGEZERO", "__TEXT", "__DATA"])
        #expect(image.sections.map(\.name) == ["__cstring", "__objc_classname", "__objc_methname", "__swift5_types", "__bss"])
        #expect(image.section("__bss")?.isZeroFill == true)
        #expect(image.dylibs.map(\.path) == [
            "/usr/lib/libobjc.A.dylib", "/System/Library/Frameworks/CryptoKit.framework/CryptoKit",
            "@rpath/Reexported.framework/Reexported", "/usr/lib/libz.1.dylib", "/usr/lib/libSystem.B.dylib",
        ])
        #expect(image.dylibs.map(\.kind) == [.load, .weak, .reexport, .lazy, .load])
        #expect(image.dylibs.map(\.ordinal) == [1, 2, 3, 4, 5])
        #expect(image.dylibs.first?.currentVersion.description == "1.2.3")
        #expect(image.rpaths == ["@executable_path/Frameworks"])
        let build = try #require(image.buildVersion)
        #expect(build.platform == .iOS)
        #expect(build.minimumOS.description == "15.0")
        #expect(build.sdk.description == "17.2.1")
        #expect(image.encryption?.cryptID == 0)
        #expect(!image.isEncrypted)
        #expect(image.entryPointOffset == 0x4000)
        #expect(image.uuid?.uuidString == "10111213-1415-1617-1819-1A1B1C1D1E1F")
        #expect(image.hasCodeSignature)
        #expect(image.containsSwift)
        #expect(image.swiftSectionNames == ["__swift5_types"])
    }

    @Test func readsStringsSections() throws {
        let image = try #require(try MachOFile(data: Self.modernExecutable().build()).images.first)
        #expect(image.objcClassNames().strings == ["AppDelegate", "LoginViewController"])
        #expect(image.objcSelectors().strings == ["viewDidLoad", "application:didFinishLaunchingWithOptions:"])
        #expect(image.cStringLiterals().strings == ["http://insecure.example.com", "password=%@", "héllo"])
        #expect(image.cStrings(section: "__bss").strings.isEmpty)
    }

    @Test func readsChainedFixupImportsAndUndefinedSymbols() throws {
        let image = try #require(try MachOFile(data: Self.modernExecutable().build()).images.first)
        let imports = image.imports()
        #expect(imports.warnings.isEmpty)
        #expect(imports.symbols.map(\.name) == [
            "_objc_release", "_objc_retain", "_$s9CryptoKit3AESO3GCMO4seal", "___stack_chk_guard", "_flat_lookup_symbol",
            "___stack_chk_fail", "_CCCrypt",
        ])
        #expect(imports.symbols.map(\.libraryOrdinal) == [1, 1, 2, 5, -2, 5, 5])
        #expect(imports.symbols.map(\.library) == [
            "/usr/lib/libobjc.A.dylib", "/usr/lib/libobjc.A.dylib", "/System/Library/Frameworks/CryptoKit.framework/CryptoKit",
            "/usr/lib/libSystem.B.dylib", nil, "/usr/lib/libSystem.B.dylib", "/usr/lib/libSystem.B.dylib",
        ])
        #expect(imports.symbols.map(\.isWeak) == [false, false, true, false, false, false, true])
        #expect(imports.symbols.first?.sources == .chainedFixups)
        #expect(imports.symbols.last?.sources == .symbolTable)
        #expect(imports.usesStackProtector)
        #expect(imports.usesAutomaticReferenceCounting)
    }

    @Test(arguments: [(UInt32(1), false), (2, false), (3, false), (1, true), (3, true)])
    func readsEveryChainedImportFormat(format: UInt32, compressed: Bool) throws {
        var writer = MachOWriter()
        writer.commands = [
            .dylib(MachOWriter.loadDylib, "/usr/lib/libSystem.B.dylib"),
            .chainedFixups(MachOWriter.chainedFixups([
                .init(ordinal: 1, name: "_malloc"), .init(ordinal: 1, name: "_free", weak: true), .init(ordinal: -1, name: "_fromMain"),
            ], format: format, compressedNames: compressed)),
        ]
        let image = try #require(try MachOFile(data: writer.build()).images.first)
        let imports = image.imports()
        #expect(imports.warnings.isEmpty)
        #expect(imports.symbols.map(\.name) == ["_malloc", "_free", "_fromMain"])
        #expect(imports.symbols.map(\.libraryOrdinal) == [1, 1, -1])
        #expect(imports.symbols.map(\.isWeak) == [false, true, false])
        #expect(!imports.usesStackProtector && !imports.usesAutomaticReferenceCounting)
    }

    @Test func readsClassicBindOpcodes() throws {
        var writer = MachOWriter()
        writer.is64Bit = false
        writer.cpuType = 12
        writer.cpuSubtype = 11
        writer.flags = 0x85 | MachOWriter.allowStackExecution
        writer.commands = [
            .segment("__TEXT", [.strings("__cstring", ["abc"])]),
            .dylib(MachOWriter.loadDylib, "/usr/lib/libobjc.A.dylib"),
            .dylib(MachOWriter.loadDylib, "/usr/lib/libSystem.B.dylib"),
            .versionMin(0x25, version: MachOWriter.version(9, 0), sdk: MachOWriter.version(12, 4)),
            .dyldInfo(
                bind: MachOWriter.bindStream([
                    .init(ordinal: 1, name: "_OBJC_CLASS_$_NSObject"), .init(ordinal: 2, name: "___stack_chk_guard"),
                    .init(ordinal: 2, name: "_dlopen", weak: true), .init(ordinal: -2, name: "_dynamic"),
                ]),
                weakBind: MachOWriter.bindStream([.init(ordinal: 0, name: "__ZdlPv")])
                    + MachOWriter.bindStream([.init(ordinal: 0, name: "__ZnwmStrongDefinition")], flags: 0x8),
                lazyBind: MachOWriter.bindStream([
                    .init(ordinal: 1, name: "_objc_retain"), .init(ordinal: 2, name: "_arc4random"),
                    .init(ordinal: 1, name: "_OBJC_CLASS_$_NSObject"),
                ], lazy: true)),
        ]
        let image = try #require(try MachOFile(data: writer.build()).images.first)
        #expect(image.warnings.isEmpty)
        #expect(image.architecture.name == "armv7s")
        #expect(!image.is64Bit)
        #expect(!image.isPIE && image.allowsStackExecution)
        #expect(image.buildVersion == MachOBuildVersion(platform: .iOS, minimumOS: MachOVersion(rawValue: MachOWriter.version(9, 0)),
                                                         sdk: MachOVersion(rawValue: MachOWriter.version(12, 4)),
                                                         fromVersionMinCommand: true))
        #expect(image.dyldInfo?.isOnly == true)
        #expect(image.cStringLiterals().strings == ["abc"])
        let imports = image.imports()
        #expect(imports.warnings.isEmpty)
        #expect(imports.symbols.map(\.name) == [
            "_OBJC_CLASS_$_NSObject", "___stack_chk_guard", "_dlopen", "_dynamic", "__ZdlPv", "_objc_retain", "_arc4random",
        ])
        #expect(imports.symbols.map(\.libraryOrdinal) == [1, 2, 2, -2, 0, 1, 2])
        #expect(imports.symbols.map(\.isWeak) == [false, false, true, false, false, false, false])
        #expect(imports.symbols.first?.sources == [.bind, .lazyBind])
        #expect(imports.symbols[4].sources == .weakBind)
        #expect(imports.usesStackProtector && imports.usesAutomaticReferenceCounting)
    }

    @Test func readsBigEndianImages() throws {
        var writer = MachOWriter()
        writer.bigEndian = true
        writer.is64Bit = false
        writer.cpuType = 18
        writer.commands = [.dylib(MachOWriter.loadDylib, "/usr/lib/libSystem.B.dylib"),
                           .symtab([.init(name: "_printf", ordinal: 1)])]
        let image = try #require(try MachOFile(data: writer.build()).images.first)
        #expect(image.isBigEndian)
        #expect(image.dylibs.map(\.path) == ["/usr/lib/libSystem.B.dylib"])
        #expect(image.imports().symbols.map(\.name) == ["_printf"])
    }

    @Test(arguments: [(false, false), (true, false), (false, true)])
    func readsFatFiles(wide: Bool, cigam: Bool) throws {
        var arm64 = Self.modernExecutable()
        arm64.cpuSubtype = 0
        var armv7 = MachOWriter()
        armv7.is64Bit = false
        armv7.cpuType = 12
        armv7.cpuSubtype = 9
        armv7.commands = [.dylib(MachOWriter.loadDylib, "/usr/lib/libSystem.B.dylib")]
        let data = MachOWriter.fat([(12, 9, armv7.build()), (12 | 0x0100_0000, 0, arm64.build())], wide: wide, cigam: cigam)
        #expect(MachOFile.looksLikeMachO(data))
        let file = try MachOFile(data: data)
        #expect(file.isFat)
        #expect(file.warnings.isEmpty)
        #expect(file.images.map(\.architecture.name) == ["armv7", "arm64"])
        #expect(file.images.last?.fileOffset ?? 0 > 0)
        let preferred = try #require(file.preferredImage)
        #expect(preferred.architecture.name == "arm64")
        #expect(preferred.objcClassNames().strings == ["AppDelegate", "LoginViewController"])
        #expect(preferred.imports().symbols.count == 7)
        #expect(try preferred.codeSignature()?.codeDirectory?.identifier == "com.example.app")
    }

    @Test func encryptedSectionsAreNotRead() throws {
        let image = try #require(try MachOFile(data: Self.modernExecutable(encrypted: true).build()).images.first)
        #expect(image.isEncrypted)
        let strings = image.objcClassNames()
        #expect(strings.strings.isEmpty)
        #expect(strings.warnings == ["__TEXT,__objc_classname is encrypted"])
    }

    // MARK: Malformed input

    @Test func refusesAFatHeaderClaimingTenThousandArchitectures() {
        let data = MachOWriter.fat([(12, 9, MachOWriter().build())], declaredCount: 10_000)
        #expect(throws: BinaryFormatError(.machO, "fat header claims 10000 architectures (limit 32)")) {
            try MachOFile(data: data)
        }
    }

    @Test func refusesFatSlicesOutsideTheFile() {
        var data = MachOWriter.fat([(12, 9, MachOWriter().build())])
        data[16..<20] = Data([0x7f, 0xff, 0xff, 0x00]) // offset of the only slice
        #expect(throws: BinaryFormatError.self) { try MachOFile(data: data) }
    }

    @Test func refusesLoadCommandsPastTheEnd() {
        var writer = MachOWriter()
        writer.commands = [.raw(0x1b, Data(count: 16))]
        var data = writer.build()
        // cmdsize of the first command: far past sizeofcmds.
        data[36..<40] = Data([0x00, 0x10, 0x00, 0x00])
        #expect(throws: BinaryFormatError(.machO, "load command 0 (LC_UUID) has size 4096, past the end of the load commands")) {
            try MachOFile(data: data)
        }
        var zero = MachOWriter()
        zero.commands = [.raw(0x1b, Data(count: 16))]
        var zeroData = zero.build()
        zeroData[36..<40] = Data(count: 4)
        #expect(throws: BinaryFormatError.self) { try MachOFile(data: zeroData) }
    }

    @Test func refusesSizeOfCommandsOverflow() {
        var writer = MachOWriter()
        writer.commands = [.main(0)]
        writer.declaredCommandsSize = 0xFFFF_FFFF
        #expect(throws: BinaryFormatError(.machO, "sizeofcmds is 4294967295 (limit 16777216)")) {
            try MachOFile(data: writer.build())
        }
        writer.declaredCommandsSize = 0xFFFF
        #expect(throws: BinaryFormatError.self) { try MachOFile(data: writer.build()) }
        let unlimited = MachOLimits(maximumLoadCommandsSize: Int.max)
        writer.declaredCommandsSize = 0xFFFF_FFF0
        #expect(throws: BinaryFormatError.self) { try MachOFile(data: writer.build(), limits: unlimited) }
    }

    @Test func refusesTooManyCommandsAndCommandsBeyondSizeOfCommands() {
        var writer = MachOWriter()
        writer.commands = [.main(0)]
        writer.declaredCommandCount = 0xFFFF_FFFF
        #expect(throws: BinaryFormatError(.machO, "ncmds is 4294967295 (limit 8192)")) { try MachOFile(data: writer.build()) }
        writer.declaredCommandCount = 2
        #expect(throws: BinaryFormatError(.machO, "load command 1 starts past the end of the load commands")) {
            try MachOFile(data: writer.build())
        }
    }

    @Test func notesMalformedCommandsAndStreams() throws {
        var writer = MachOWriter()
        var badDylib = ByteWriter()
        badDylib.u32(200); badDylib.u32(0); badDylib.u32(0); badDylib.u32(0) // name offset past the command
        var badStream = Data([0x11, 0x40]) + Data("_unterminated".utf8)
        badStream.append(contentsOf: [UInt8](repeating: 0x41, count: 3))
        writer.commands = [
            .raw(0xc, badDylib.data),
            .dylib(MachOWriter.loadDylib, "/usr/lib/libSystem.B.dylib"),
            .chainedFixups(MachOWriter.chainedFixups([.init(ordinal: 2, name: "_ok"), .init(ordinal: 2, name: "_bad")],
                                                     nameOffsetOverride: [1: 0x7fffff])),
            .dyldInfo(bind: badStream, weakBind: Data(), lazyBind: Data([0x11, 0x40, 0x5f, 0x78, 0x00, 0x90, 0xe7])),
            .raw(0x1d, Data([0xff, 0xff, 0xff, 0x00, 0x10, 0x00, 0x00, 0x00])), // code signature past the end
        ]
        let image = try #require(try MachOFile(data: writer.build()).images.first)
        #expect(image.warnings == ["LC_LOAD_DYLIB at offset 32 is too short", "LC_CODE_SIGNATURE at offset 176 points past the end of the image"])
        #expect(image.dylibs.map(\.ordinal) == [1, 2])
        let imports = image.imports()
        #expect(imports.symbols.map(\.name) == ["_x", "_ok"])
        #expect(imports.symbols.map(\.library) == [nil, "/usr/lib/libSystem.B.dylib"])
        #expect(imports.warnings == [
            "bind opcodes: unterminated symbol name at offset 2",
            "lazy bind opcodes: unknown opcode 0xe7 at offset 7",
            "chained import 1 names offset 8388607, outside the symbol pool",
        ])
        #expect(throws: BinaryFormatError.self) { try image.codeSignature() }
    }

    /// 2,000 chained imports and 2,000 symbol-table entries all naming one 400 KB string: each read the
    /// whole string (1.6 GB read; a gigabyte kept when the ordinals differ). Names are cut at
    /// `maximumStringLength`, as the other string readers cut them.
    @Test func symbolNamesSharingOneLongStringAreCut() throws {
        let long = "_" + String(repeating: "L", count: 400_000)
        let count = 2_000
        var overrides: [Int: UInt32] = [:]
        for index in 1..<count { overrides[index] = 1 }
        var writer = MachOWriter()
        writer.commands = [
            .dylib(MachOWriter.loadDylib, "/usr/lib/libSystem.B.dylib"),
            .chainedFixups(MachOWriter.chainedFixups([.init(ordinal: 1, name: long)]
                + Array(repeating: .init(ordinal: 1, name: ""), count: count - 1), nameOffsetOverride: overrides)),
            .symtab([.init(name: long)] + Array(repeating: .init(name: ""), count: count - 1)),
        ]
        var data = [UInt8](writer.build())
        func u32(_ at: Int) -> Int { Int(data[at]) | Int(data[at + 1]) << 8 | Int(data[at + 2]) << 16 | Int(data[at + 3]) << 24 }
        // Point every symbol-table entry at the long name (offset 2, after the writer's " \0").
        var command = 32
        for _ in 0..<u32(16) {
            if u32(command) == 0x2 {
                let symbols = u32(command + 8)
                for index in 0..<u32(command + 12) {
                    let entry = symbols + index * 16
                    (data[entry], data[entry + 1], data[entry + 2], data[entry + 3]) = (2, 0, 0, 0)
                }
            }
            command += u32(command + 4)
        }
        let image = try #require(try MachOFile(data: Data(data)).images.first)
        let imports = image.imports()
        let cut = String(long.prefix(MachOLimits().maximumStringLength))
        #expect(imports.symbols.map(\.name) == [cut])
        #expect(imports.symbols.first?.sources == [.chainedFixups, .symbolTable])
        #expect(imports.symbols.first?.library == "/usr/lib/libSystem.B.dylib")
    }

    @Test func garbageIsRefused() {
        #expect(throws: BinaryFormatError.self) { try MachOFile(data: Data()) }
        #expect(throws: BinaryFormatError.self) { try MachOFile(data: Data("#!/bin/sh\n".utf8)) }
        #expect(!MachOFile.looksLikeMachO(Data("PK\u{3}\u{4}".utf8)))
    }

    @Test func truncatedAndCorruptedImagesNeverCrash() throws {
        var legacy = MachOWriter()
        legacy.commands = [
            .segment("__TEXT", [.strings("__cstring", ["abc", "def"])]),
            .dylib(MachOWriter.loadDylib, "/usr/lib/libSystem.B.dylib"),
            .dyldInfo(bind: MachOWriter.bindStream([.init(ordinal: 1, name: "_a"), .init(ordinal: 1, name: "_b")]),
                      weakBind: Data(), lazyBind: MachOWriter.bindStream([.init(ordinal: 1, name: "_c")], lazy: true)),
            .symtab([.init(name: "_d", ordinal: 1)]),
        ]
        let thin = Self.modernExecutable().build()
        let fat = MachOWriter.fat([(12 | 0x0100_0000, 0, thin), (12 | 0x0100_0000, 0, legacy.build())], wide: true)
        for data in [thin, legacy.build(), fat] {
            for length in stride(from: 0, to: data.count, by: 7) { Self.exercise(Data(data.prefix(length))) }
            for position in stride(from: 0, to: data.count, by: 7) {
                for value: UInt8 in [0x00, 0xFF, 0x80] {
                    var corrupt = data
                    corrupt[position] = value
                    Self.exercise(corrupt)
                }
            }
        }
    }

    static func exercise(_ data: Data) {
        guard let file = try? MachOFile(data: data) else { return }
        for image in file.images {
            _ = image.imports()
            _ = image.objcClassNames()
            _ = image.objcSelectors()
            _ = image.cStringLiterals()
            if let signature = try? image.codeSignature() {
                _ = try? signature.entitlements(path: "x")
            }
        }
    }
}
