import Foundation

/// Bounds on the work a Mach-O file may ask for.
public struct MachOLimits: Sendable, Hashable {
    /// Architectures in a fat header; more is refused.
    public var maximumArchitectures: Int
    /// `ncmds`; more is refused.
    public var maximumLoadCommands: Int
    /// `sizeofcmds`; more is refused.
    public var maximumLoadCommandsSize: Int
    /// Symbol table entries examined for undefined symbols.
    public var maximumSymbols: Int
    /// Imported symbols collected from bind streams and chained fixups.
    public var maximumImports: Int
    /// Strings returned from one C-string section.
    public var maximumStringsPerSection: Int
    /// Longest string kept (longer ones are cut).
    public var maximumStringLength: Int
    /// Inflated size of a compressed chained-fixups symbol pool.
    public var maximumSymbolPoolSize: Int

    public init(maximumArchitectures: Int = 32, maximumLoadCommands: Int = 8192,
                maximumLoadCommandsSize: Int = 16 << 20, maximumSymbols: Int = 4_000_000,
                maximumImports: Int = 1_000_000, maximumStringsPerSection: Int = 2_000_000,
                maximumStringLength: Int = 16 * 1024, maximumSymbolPoolSize: Int = 64 << 20) {
        self.maximumArchitectures = maximumArchitectures
        self.maximumLoadCommands = maximumLoadCommands
        self.maximumLoadCommandsSize = maximumLoadCommandsSize
        self.maximumSymbols = maximumSymbols
        self.maximumImports = maximumImports
        self.maximumStringsPerSection = maximumStringsPerSection
        self.maximumStringLength = maximumStringLength
        self.maximumSymbolPoolSize = maximumSymbolPoolSize
    }
}

/// CPU type and subtype, with the name Apple tools use.
public struct MachOArchitecture: Sendable, Hashable, CustomStringConvertible {
    public let cpuType: Int32
    public let cpuSubtype: Int32

    public static let cpuTypeARM: Int32 = 12
    public static let cpuTypeARM64: Int32 = 12 | 0x0100_0000
    public static let cpuTypeARM64_32: Int32 = 12 | 0x0200_0000
    public static let cpuTypeX86: Int32 = 7
    public static let cpuTypeX86_64: Int32 = 7 | 0x0100_0000

    public init(cpuType: Int32, cpuSubtype: Int32) {
        self.cpuType = cpuType
        self.cpuSubtype = cpuSubtype
    }

    public var name: String {
        let subtype = cpuSubtype & 0x00FF_FFFF
        switch cpuType {
        case Self.cpuTypeARM64: return subtype == 2 ? "arm64e" : "arm64"
        case Self.cpuTypeARM64_32: return "arm64_32"
        case Self.cpuTypeARM:
            switch subtype {
            case 9: return "armv7"
            case 11: return "armv7s"
            case 12: return "armv7k"
            case 6: return "armv6"
            default: return "arm"
            }
        case Self.cpuTypeX86_64: return "x86_64"
        case Self.cpuTypeX86: return "i386"
        default: return "cpu(\(cpuType),\(cpuSubtype))"
        }
    }

    public var description: String { name }
}

/// `MH_EXECUTE`, `MH_DYLIB`...
public struct MachOFileType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let object = MachOFileType(rawValue: 0x1)
    public static let execute = MachOFileType(rawValue: 0x2)
    public static let dylib = MachOFileType(rawValue: 0x6)
    public static let dylinker = MachOFileType(rawValue: 0x7)
    public static let bundle = MachOFileType(rawValue: 0x8)
    public static let dsym = MachOFileType(rawValue: 0xa)
    public static let kextBundle = MachOFileType(rawValue: 0xb)
    public static let fileset = MachOFileType(rawValue: 0xc)

    public var description: String {
        switch self {
        case .object: return "MH_OBJECT"
        case .execute: return "MH_EXECUTE"
        case .dylib: return "MH_DYLIB"
        case .dylinker: return "MH_DYLINKER"
        case .bundle: return "MH_BUNDLE"
        case .dsym: return "MH_DSYM"
        case .kextBundle: return "MH_KEXT_BUNDLE"
        case .fileset: return "MH_FILESET"
        default: return "filetype(\(rawValue))"
        }
    }
}

/// Mach header flags.
public struct MachOHeaderFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let noUndefinedSymbols = MachOHeaderFlags(rawValue: 0x1)
    public static let dyldLink = MachOHeaderFlags(rawValue: 0x4)
    public static let twoLevel = MachOHeaderFlags(rawValue: 0x80)
    public static let weakDefines = MachOHeaderFlags(rawValue: 0x8000)
    public static let bindsToWeak = MachOHeaderFlags(rawValue: 0x10000)
    /// `MH_ALLOW_STACK_EXECUTION`
    public static let allowStackExecution = MachOHeaderFlags(rawValue: 0x20000)
    public static let rootSafe = MachOHeaderFlags(rawValue: 0x40000)
    public static let setuidSafe = MachOHeaderFlags(rawValue: 0x80000)
    public static let noReexportedDylibs = MachOHeaderFlags(rawValue: 0x100000)
    /// `MH_PIE`
    public static let pie = MachOHeaderFlags(rawValue: 0x200000)
    public static let deadStrippableDylib = MachOHeaderFlags(rawValue: 0x400000)
    public static let hasTLVDescriptors = MachOHeaderFlags(rawValue: 0x800000)
    /// `MH_NO_HEAP_EXECUTION`
    public static let noHeapExecution = MachOHeaderFlags(rawValue: 0x100_0000)
    public static let appExtensionSafe = MachOHeaderFlags(rawValue: 0x200_0000)
    public static let simulatorSupport = MachOHeaderFlags(rawValue: 0x800_0000)
}

/// A version packed as `xxxx.yy.zz` (minimum OS, SDK, dylib versions).
public struct MachOVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public var major: Int { Int(rawValue >> 16) }
    public var minor: Int { Int((rawValue >> 8) & 0xff) }
    public var patch: Int { Int(rawValue & 0xff) }

    public var description: String { patch == 0 ? "\(major).\(minor)" : "\(major).\(minor).\(patch)" }

    public static func < (lhs: MachOVersion, rhs: MachOVersion) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The platform of `LC_BUILD_VERSION` (and the one implied by `LC_VERSION_MIN_*`).
public struct MachOPlatform: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let macOS = MachOPlatform(rawValue: 1)
    public static let iOS = MachOPlatform(rawValue: 2)
    public static let tvOS = MachOPlatform(rawValue: 3)
    public static let watchOS = MachOPlatform(rawValue: 4)
    public static let bridgeOS = MachOPlatform(rawValue: 5)
    public static let macCatalyst = MachOPlatform(rawValue: 6)
    public static let iOSSimulator = MachOPlatform(rawValue: 7)
    public static let tvOSSimulator = MachOPlatform(rawValue: 8)
    public static let watchOSSimulator = MachOPlatform(rawValue: 9)
    public static let driverKit = MachOPlatform(rawValue: 10)
    public static let visionOS = MachOPlatform(rawValue: 11)
    public static let visionOSSimulator = MachOPlatform(rawValue: 12)

    public var description: String {
        switch rawValue {
        case 1: return "macOS"
        case 2: return "iOS"
        case 3: return "tvOS"
        case 4: return "watchOS"
        case 5: return "bridgeOS"
        case 6: return "macCatalyst"
        case 7: return "iOSSimulator"
        case 8: return "tvOSSimulator"
        case 9: return "watchOSSimulator"
        case 10: return "driverKit"
        case 11: return "visionOS"
        case 12: return "visionOSSimulator"
        default: return "platform(\(rawValue))"
        }
    }
}

/// `LC_BUILD_VERSION`, or the equivalent read from an `LC_VERSION_MIN_*` command.
public struct MachOBuildVersion: Sendable, Hashable {
    public let platform: MachOPlatform
    public let minimumOS: MachOVersion
    public let sdk: MachOVersion
    /// True when this came from `LC_VERSION_MIN_*` rather than `LC_BUILD_VERSION`.
    public let fromVersionMinCommand: Bool
}

/// One load command as found: its `cmd`, name, and where it is in the image.
public struct MachOLoadCommand: Sendable, Hashable {
    public let command: UInt32
    public let offset: Int
    public let size: Int

    public var name: String { MachOLoadCommandCode.name(of: command) }
}

public struct MachOSection: Sendable, Hashable {
    public let segmentName: String
    public let name: String
    public let address: UInt64
    public let size: UInt64
    /// Offset of the section's bytes from the start of the image (0 for zero-fill sections).
    public let fileOffset: UInt32
    public let flags: UInt32

    /// `S_ZEROFILL`-like sections take no bytes in the file.
    public var isZeroFill: Bool {
        let type = flags & 0xff
        return type == 0x1 || type == 0xc || type == 0x12
    }
}

public struct MachOSegment: Sendable, Hashable {
    public let name: String
    public let vmAddress: UInt64
    public let vmSize: UInt64
    public let fileOffset: UInt64
    public let fileSize: UInt64
    public let maximumProtection: Int32
    public let initialProtection: Int32
    public let flags: UInt32
    public let sections: [MachOSection]
}

/// How a dynamic library is linked.
public enum MachODylibKind: String, Sendable, Hashable {
    case load = "LC_LOAD_DYLIB"
    case weak = "LC_LOAD_WEAK_DYLIB"
    case reexport = "LC_REEXPORT_DYLIB"
    case lazy = "LC_LAZY_LOAD_DYLIB"
    case upward = "LC_LOAD_UPWARD_DYLIB"
}

public struct MachODylib: Sendable, Hashable {
    public let kind: MachODylibKind
    public let path: String
    public let currentVersion: MachOVersion
    public let compatibilityVersion: MachOVersion
    /// The 1-based ordinal binds and imports use to refer to this library.
    public let ordinal: Int
}

/// `LC_ENCRYPTION_INFO(_64)`.
public struct MachOEncryptionInfo: Sendable, Hashable {
    public let cryptOffset: UInt32
    public let cryptSize: UInt32
    /// Non-zero when the range is encrypted (App Store FairPlay).
    public let cryptID: UInt32
}

/// A `linkedit_data_command` range (code signature, chained fixups, exports trie...).
public struct MachOLinkeditRange: Sendable, Hashable {
    public let offset: UInt32
    public let size: UInt32
}

/// `LC_DYLD_INFO(_ONLY)` streams, as offset/size pairs from the start of the image.
public struct MachODyldInfo: Sendable, Hashable {
    public let rebase: MachOLinkeditRange
    public let bind: MachOLinkeditRange
    public let weakBind: MachOLinkeditRange
    public let lazyBind: MachOLinkeditRange
    public let export: MachOLinkeditRange
    public let isOnly: Bool
}

public struct MachOSymbolTableInfo: Sendable, Hashable {
    public let symbolOffset: UInt32
    public let symbolCount: UInt32
    public let stringOffset: UInt32
    public let stringSize: UInt32
}

public struct MachODynamicSymbolTableInfo: Sendable, Hashable {
    public let localSymbolIndex: UInt32
    public let localSymbolCount: UInt32
    public let externalDefinedIndex: UInt32
    public let externalDefinedCount: UInt32
    public let undefinedIndex: UInt32
    public let undefinedCount: UInt32
}

/// Where an imported symbol was seen.
public struct MachOImportSources: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let bind = MachOImportSources(rawValue: 1)
    public static let weakBind = MachOImportSources(rawValue: 2)
    public static let lazyBind = MachOImportSources(rawValue: 4)
    public static let chainedFixups = MachOImportSources(rawValue: 8)
    public static let symbolTable = MachOImportSources(rawValue: 16)
}

public struct MachOImportedSymbol: Sendable, Hashable {
    /// The symbol as the linker spells it (C symbols keep their leading underscore: `_objc_release`).
    public let name: String
    /// 1-based index into `MachOImage.dylibs`, or 0 (self), -1 (main executable), -2 (flat lookup),
    /// -3 (weak lookup).
    public let libraryOrdinal: Int
    /// The install name of the library, when the ordinal names one.
    public let library: String?
    public let isWeak: Bool
    public let sources: MachOImportSources
}

/// The imports of an image, from every source it has, merged by name and library.
public struct MachOImports: Sendable {
    public let symbols: [MachOImportedSymbol]
    /// Problems met while decoding (a truncated stream, an unknown opcode); what was read before stays.
    public let warnings: [String]
    public let names: Set<String>

    init(symbols: [MachOImportedSymbol], warnings: [String]) {
        self.symbols = symbols
        self.warnings = warnings
        self.names = Set(symbols.map(\.name))
    }

    public func contains(_ name: String) -> Bool { names.contains(name) }

    /// `___stack_chk_guard` or `___stack_chk_fail` is imported: built with stack protection.
    public var usesStackProtector: Bool { contains("___stack_chk_guard") || contains("___stack_chk_fail") }

    /// `_objc_release`, `_objc_retain` or `_swift_release` is imported: built with ARC (or Swift).
    public var usesAutomaticReferenceCounting: Bool {
        contains("_objc_release") || contains("_objc_retain") || contains("_swift_release")
    }
}

enum MachOLoadCommandCode {
    static let requiresDyld: UInt32 = 0x8000_0000
    static let segment: UInt32 = 0x1
    static let symtab: UInt32 = 0x2
    static let dysymtab: UInt32 = 0xb
    static let loadDylib: UInt32 = 0xc
    static let idDylib: UInt32 = 0xd
    static let loadDylinker: UInt32 = 0xe
    static let loadWeakDylib: UInt32 = 0x18 | requiresDyld
    static let segment64: UInt32 = 0x19
    static let uuid: UInt32 = 0x1b
    static let rpath: UInt32 = 0x1c | requiresDyld
    static let codeSignature: UInt32 = 0x1d
    static let reexportDylib: UInt32 = 0x1f | requiresDyld
    static let lazyLoadDylib: UInt32 = 0x20
    static let encryptionInfo: UInt32 = 0x21
    static let dyldInfo: UInt32 = 0x22
    static let dyldInfoOnly: UInt32 = 0x22 | requiresDyld
    static let loadUpwardDylib: UInt32 = 0x23 | requiresDyld
    static let versionMinMacOS: UInt32 = 0x24
    static let versionMinIPhoneOS: UInt32 = 0x25
    static let functionStarts: UInt32 = 0x26
    static let main: UInt32 = 0x28 | requiresDyld
    static let dataInCode: UInt32 = 0x29
    static let sourceVersion: UInt32 = 0x2a
    static let encryptionInfo64: UInt32 = 0x2c
    static let versionMinTVOS: UInt32 = 0x2f
    static let versionMinWatchOS: UInt32 = 0x30
    static let buildVersion: UInt32 = 0x32
    static let dyldExportsTrie: UInt32 = 0x33 | requiresDyld
    static let dyldChainedFixups: UInt32 = 0x34 | requiresDyld

    static func name(of command: UInt32) -> String {
        switch command {
        case segment: return "LC_SEGMENT"
        case symtab: return "LC_SYMTAB"
        case dysymtab: return "LC_DYSYMTAB"
        case loadDylib: return "LC_LOAD_DYLIB"
        case idDylib: return "LC_ID_DYLIB"
        case loadDylinker: return "LC_LOAD_DYLINKER"
        case loadWeakDylib: return "LC_LOAD_WEAK_DYLIB"
        case segment64: return "LC_SEGMENT_64"
        case uuid: return "LC_UUID"
        case rpath: return "LC_RPATH"
        case codeSignature: return "LC_CODE_SIGNATURE"
        case reexportDylib: return "LC_REEXPORT_DYLIB"
        case lazyLoadDylib: return "LC_LAZY_LOAD_DYLIB"
        case encryptionInfo: return "LC_ENCRYPTION_INFO"
        case dyldInfo: return "LC_DYLD_INFO"
        case dyldInfoOnly: return "LC_DYLD_INFO_ONLY"
        case loadUpwardDylib: return "LC_LOAD_UPWARD_DYLIB"
        case versionMinMacOS: return "LC_VERSION_MIN_MACOSX"
        case versionMinIPhoneOS: return "LC_VERSION_MIN_IPHONEOS"
        case functionStarts: return "LC_FUNCTION_STARTS"
        case main: return "LC_MAIN"
        case dataInCode: return "LC_DATA_IN_CODE"
        case sourceVersion: return "LC_SOURCE_VERSION"
        case encryptionInfo64: return "LC_ENCRYPTION_INFO_64"
        case versionMinTVOS: return "LC_VERSION_MIN_TVOS"
        case versionMinWatchOS: return "LC_VERSION_MIN_WATCHOS"
        case buildVersion: return "LC_BUILD_VERSION"
        case dyldExportsTrie: return "LC_DYLD_EXPORTS_TRIE"
        case dyldChainedFixups: return "LC_DYLD_CHAINED_FIXUPS"
        default: return "LC(0x\(String(command, radix: 16)))"
        }
    }
}
