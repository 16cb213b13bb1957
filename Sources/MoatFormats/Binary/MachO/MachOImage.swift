import Foundation

/// One Mach-O image (a thin file, or one architecture of a fat file): header, load commands and the
/// facts a security review wants. Heavier facts (imports, strings) are computed by methods on demand.
public struct MachOImage: Sendable {
    public let architecture: MachOArchitecture
    public let is64Bit: Bool
    public let isBigEndian: Bool
    public let fileType: MachOFileType
    public let flags: MachOHeaderFlags
    /// Where the image starts in its file (non-zero for architectures of a fat file), and its size.
    public let fileOffset: Int
    public let size: Int

    public let loadCommands: [MachOLoadCommand]
    public let segments: [MachOSegment]
    public let dylibs: [MachODylib]
    public let rpaths: [String]
    /// `LC_ID_DYLIB` of a dynamic library.
    public let installName: String?
    public let encryption: MachOEncryptionInfo?
    public let buildVersions: [MachOBuildVersion]
    public let codeSignatureRange: MachOLinkeditRange?
    public let dyldInfo: MachODyldInfo?
    public let chainedFixupsRange: MachOLinkeditRange?
    public let exportsTrieRange: MachOLinkeditRange?
    public let symbolTable: MachOSymbolTableInfo?
    public let dynamicSymbolTable: MachODynamicSymbolTableInfo?
    /// `LC_MAIN` entry offset.
    public let entryPointOffset: UInt64?
    public let uuid: UUID?
    /// Load commands that were malformed but did not stop reading.
    public let warnings: [String]

    let limits: MachOLimits
    /// The image's bytes (a slice of the file's data, sharing its storage).
    let data: Data

    // MARK: Header facts

    public var isPIE: Bool { flags.contains(.pie) }
    public var allowsStackExecution: Bool { flags.contains(.allowStackExecution) }
    public var hasNoHeapExecution: Bool { flags.contains(.noHeapExecution) }
    /// An encryption command with a non-zero `cryptid` (an App Store binary not yet decrypted).
    public var isEncrypted: Bool { (encryption?.cryptID ?? 0) != 0 }
    public var hasCodeSignature: Bool { codeSignatureRange.map { $0.size > 0 } ?? false }

    /// The build version for the platform the image targets (the first one).
    public var buildVersion: MachOBuildVersion? { buildVersions.first }

    public var sections: [MachOSection] { segments.flatMap(\.sections) }

    /// The first section with this name, optionally in this segment.
    public func section(_ name: String, segment: String? = nil) -> MachOSection? {
        sections.first { $0.name == name && (segment == nil || $0.segmentName == segment) }
    }

    /// Any `__swift5_*` section: the image contains Swift code.
    public var containsSwift: Bool { sections.contains { $0.name.hasPrefix("__swift5_") } }
    public var swiftSectionNames: [String] { sections.map(\.name).filter { $0.hasPrefix("__swift5_") } }

    // MARK: Parsing

    init(bytes: RawBytes, data fileData: Data, fileOffset: Int, limits: MachOLimits) throws {
        guard let magic = bytes.u32(0) else { throw BinaryFormatError(.machO, "too small for a Mach-O header") }
        switch magic {
        case 0xfeed_face: (is64Bit, isBigEndian) = (false, false)
        case 0xfeed_facf: (is64Bit, isBigEndian) = (true, false)
        case 0xcefa_edfe: (is64Bit, isBigEndian) = (false, true)
        case 0xcffa_edfe: (is64Bit, isBigEndian) = (true, true)
        default: throw BinaryFormatError(.machO, "not a Mach-O image (magic 0x\(String(magic, radix: 16)))")
        }
        let big = isBigEndian
        let headerSize = is64Bit ? 32 : 28
        guard let cpuType = bytes.u32(4, bigEndian: big), let cpuSubtype = bytes.u32(8, bigEndian: big),
              let fileType = bytes.u32(12, bigEndian: big), let commandCount = bytes.u32(16, bigEndian: big),
              let commandsSize = bytes.u32(20, bigEndian: big), let flags = bytes.u32(24, bigEndian: big),
              bytes.has(0, headerSize) else {
            throw BinaryFormatError(.machO, "truncated Mach-O header")
        }
        self.architecture = MachOArchitecture(cpuType: Int32(bitPattern: cpuType), cpuSubtype: Int32(bitPattern: cpuSubtype))
        self.fileType = MachOFileType(rawValue: fileType)
        self.flags = MachOHeaderFlags(rawValue: flags)
        self.fileOffset = fileOffset
        self.size = bytes.count
        self.limits = limits
        let start = fileData.startIndex + fileOffset
        self.data = fileData[start..<(start + bytes.count)]

        guard Int(commandCount) <= limits.maximumLoadCommands else {
            throw BinaryFormatError(.machO, "ncmds is \(commandCount) (limit \(limits.maximumLoadCommands))")
        }
        guard Int(commandsSize) <= limits.maximumLoadCommandsSize else {
            throw BinaryFormatError(.machO, "sizeofcmds is \(commandsSize) (limit \(limits.maximumLoadCommandsSize))")
        }
        guard let commandsEnd = RawBytes.add(headerSize, Int(commandsSize)), commandsEnd <= bytes.count else {
            throw BinaryFormatError(.machO, "sizeofcmds (\(commandsSize)) runs past the end of the image (\(bytes.count) bytes)")
        }

        var parser = LoadCommandParser(bytes: bytes, bigEndian: big, is64Bit: is64Bit, imageSize: bytes.count)
        var offset = headerSize
        for index in 0..<Int(commandCount) {
            guard offset + 8 <= commandsEnd, let command = bytes.u32(offset, bigEndian: big),
                  let commandSize32 = bytes.u32(offset + 4, bigEndian: big) else {
                throw BinaryFormatError(.machO, "load command \(index) starts past the end of the load commands")
            }
            let commandSize = Int(commandSize32)
            guard commandSize >= 8, commandSize <= commandsEnd - offset, let body = bytes.slice(offset, commandSize) else {
                throw BinaryFormatError(.machO,
                    "load command \(index) (\(MachOLoadCommandCode.name(of: command))) has size \(commandSize), past the end of the load commands")
            }
            parser.parse(command: command, body: body, at: offset)
            offset += commandSize
        }
        loadCommands = parser.loadCommands
        segments = parser.segments
        dylibs = parser.dylibs
        rpaths = parser.rpaths
        installName = parser.installName
        encryption = parser.encryption
        buildVersions = parser.buildVersions
        codeSignatureRange = parser.codeSignature
        dyldInfo = parser.dyldInfo
        chainedFixupsRange = parser.chainedFixups
        exportsTrieRange = parser.exportsTrie
        symbolTable = parser.symbolTable
        dynamicSymbolTable = parser.dynamicSymbolTable
        entryPointOffset = parser.entryPoint
        uuid = parser.uuid
        warnings = parser.warnings
    }

    // MARK: Raw bytes

    /// The bytes of a linkedit range (code signature, chained fixups...), when inside the image.
    public func bytes(of range: MachOLinkeditRange) -> Data? {
        data.withRawBytes { $0.data(Int(range.offset), Int(range.size)) }
    }

    /// A section's bytes, when it has bytes in the file that lie inside the image.
    public func bytes(of section: MachOSection) -> Data? {
        guard !section.isZeroFill, let length = RawBytes.offset(section.size) else { return nil }
        return data.withRawBytes { $0.data(Int(section.fileOffset), length) }
    }

    /// Whether a section's bytes lie in the encrypted range of an encrypted image.
    public func isEncrypted(_ section: MachOSection) -> Bool {
        guard let encryption, encryption.cryptID != 0 else { return false }
        let start = UInt64(section.fileOffset)
        let end = start &+ section.size
        let cryptStart = UInt64(encryption.cryptOffset)
        let cryptEnd = cryptStart + UInt64(encryption.cryptSize)
        return start < cryptEnd && cryptStart < end
    }
}

/// Reads the load commands one by one; a malformed command is noted and skipped.
private struct LoadCommandParser {
    let bytes: RawBytes
    let bigEndian: Bool
    let is64Bit: Bool
    let imageSize: Int

    var loadCommands: [MachOLoadCommand] = []
    var segments: [MachOSegment] = []
    var dylibs: [MachODylib] = []
    var rpaths: [String] = []
    var installName: String?
    var encryption: MachOEncryptionInfo?
    var buildVersions: [MachOBuildVersion] = []
    var codeSignature: MachOLinkeditRange?
    var dyldInfo: MachODyldInfo?
    var chainedFixups: MachOLinkeditRange?
    var exportsTrie: MachOLinkeditRange?
    var symbolTable: MachOSymbolTableInfo?
    var dynamicSymbolTable: MachODynamicSymbolTableInfo?
    var entryPoint: UInt64?
    var uuid: UUID?
    var warnings: [String] = []

    init(bytes: RawBytes, bigEndian: Bool, is64Bit: Bool, imageSize: Int) {
        self.bytes = bytes
        self.bigEndian = bigEndian
        self.is64Bit = is64Bit
        self.imageSize = imageSize
    }

    mutating func parse(command: UInt32, body: RawBytes, at offset: Int) {
        typealias Code = MachOLoadCommandCode
        loadCommands.append(MachOLoadCommand(command: command, offset: offset, size: body.count))
        let name = Code.name(of: command)
        func u32(_ at: Int) -> UInt32? { body.u32(at, bigEndian: bigEndian) }
        func u64(_ at: Int) -> UInt64? { body.u64(at, bigEndian: bigEndian) }
        func truncated() { warnings.append("\(name) at offset \(offset) is too short") }
        func lcString(_ fieldOffset: Int) -> String? {
            guard let stringOffset = u32(fieldOffset).flatMap(RawBytes.offset), stringOffset >= fieldOffset + 4,
                  stringOffset < body.count else { return nil }
            return body.cString(stringOffset, limit: body.count - stringOffset)
        }
        func linkedit() -> MachOLinkeditRange? {
            guard let dataOffset = u32(8), let dataSize = u32(12) else { truncated(); return nil }
            let range = MachOLinkeditRange(offset: dataOffset, size: dataSize)
            checkInImage(range, name: name, at: offset)
            return range
        }

        switch command {
        case Code.segment, Code.segment64:
            parseSegment(body, name: name, at: offset)
        case Code.loadDylib, Code.loadWeakDylib, Code.reexportDylib, Code.lazyLoadDylib, Code.loadUpwardDylib:
            let kind: MachODylibKind
            switch command {
            case Code.loadWeakDylib: kind = .weak
            case Code.reexportDylib: kind = .reexport
            case Code.lazyLoadDylib: kind = .lazy
            case Code.loadUpwardDylib: kind = .upward
            default: kind = .load
            }
            // The ordinal counts every dylib command, even a malformed one, so later ordinals stay right.
            let ordinal = dylibs.count + 1
            guard let path = lcString(8), let current = u32(16), let compatibility = u32(20) else {
                truncated()
                dylibs.append(MachODylib(kind: kind, path: "", currentVersion: MachOVersion(rawValue: 0),
                                         compatibilityVersion: MachOVersion(rawValue: 0), ordinal: ordinal))
                return
            }
            dylibs.append(MachODylib(kind: kind, path: path, currentVersion: MachOVersion(rawValue: current),
                                     compatibilityVersion: MachOVersion(rawValue: compatibility), ordinal: ordinal))
        case Code.idDylib:
            installName = lcString(8)
        case Code.rpath:
            guard let path = lcString(8) else { truncated(); return }
            rpaths.append(path)
        case Code.codeSignature:
            codeSignature = linkedit()
        case Code.dyldChainedFixups:
            chainedFixups = linkedit()
        case Code.dyldExportsTrie:
            exportsTrie = linkedit()
        case Code.encryptionInfo, Code.encryptionInfo64:
            guard let cryptOffset = u32(8), let cryptSize = u32(12), let cryptID = u32(16) else { truncated(); return }
            encryption = MachOEncryptionInfo(cryptOffset: cryptOffset, cryptSize: cryptSize, cryptID: cryptID)
        case Code.buildVersion:
            guard let platform = u32(8), let minimum = u32(12), let sdk = u32(16) else { truncated(); return }
            buildVersions.append(MachOBuildVersion(platform: MachOPlatform(rawValue: platform), minimumOS: MachOVersion(rawValue: minimum),
                                                   sdk: MachOVersion(rawValue: sdk), fromVersionMinCommand: false))
        case Code.versionMinIPhoneOS, Code.versionMinMacOS, Code.versionMinTVOS, Code.versionMinWatchOS:
            guard let minimum = u32(8), let sdk = u32(12) else { truncated(); return }
            let platform: MachOPlatform
            switch command {
            case Code.versionMinMacOS: platform = .macOS
            case Code.versionMinTVOS: platform = .tvOS
            case Code.versionMinWatchOS: platform = .watchOS
            default: platform = .iOS
            }
            buildVersions.append(MachOBuildVersion(platform: platform, minimumOS: MachOVersion(rawValue: minimum),
                                                   sdk: MachOVersion(rawValue: sdk), fromVersionMinCommand: true))
        case Code.dyldInfo, Code.dyldInfoOnly:
            var ranges: [MachOLinkeditRange] = []
            for field in 0..<5 {
                guard let start = u32(8 + field * 8), let size = u32(12 + field * 8) else { truncated(); return }
                let range = MachOLinkeditRange(offset: start, size: size)
                checkInImage(range, name: name, at: offset)
                ranges.append(range)
            }
            dyldInfo = MachODyldInfo(rebase: ranges[0], bind: ranges[1], weakBind: ranges[2], lazyBind: ranges[3],
                                     export: ranges[4], isOnly: command == Code.dyldInfoOnly)
        case Code.symtab:
            guard let symbolOffset = u32(8), let count = u32(12), let stringOffset = u32(16), let stringSize = u32(20) else {
                truncated(); return
            }
            symbolTable = MachOSymbolTableInfo(symbolOffset: symbolOffset, symbolCount: count,
                                               stringOffset: stringOffset, stringSize: stringSize)
            checkInImage(MachOLinkeditRange(offset: stringOffset, size: stringSize), name: name, at: offset)
        case Code.dysymtab:
            guard let localIndex = u32(8), let localCount = u32(12), let definedIndex = u32(16), let definedCount = u32(20),
                  let undefinedIndex = u32(24), let undefinedCount = u32(28) else { truncated(); return }
            dynamicSymbolTable = MachODynamicSymbolTableInfo(localSymbolIndex: localIndex, localSymbolCount: localCount,
                                                             externalDefinedIndex: definedIndex, externalDefinedCount: definedCount,
                                                             undefinedIndex: undefinedIndex, undefinedCount: undefinedCount)
        case Code.main:
            guard let entry = u64(8) else { truncated(); return }
            entryPoint = entry
        case Code.uuid:
            guard let raw = body.data(8, 16) else { truncated(); return }
            let b = [UInt8](raw)
            uuid = UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
                               b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
        default:
            break
        }
    }

    private mutating func checkInImage(_ range: MachOLinkeditRange, name: String, at offset: Int) {
        if range.size > 0 && !bytes.has(Int(range.offset), Int(range.size)) {
            warnings.append("\(name) at offset \(offset) points past the end of the image")
        }
    }

    private mutating func parseSegment(_ body: RawBytes, name: String, at offset: Int) {
        let big = bigEndian
        let wide = body.u32(0, bigEndian: big) == MachOLoadCommandCode.segment64
        let headerSize = wide ? 72 : 56
        let sectionSize = wide ? 80 : 68
        guard body.has(0, headerSize), let segmentName = body.fixedString(8, 16) else {
            warnings.append("\(name) at offset \(offset) is too short")
            return
        }
        func word(_ at: Int) -> UInt64 {
            wide ? body.u64(at, bigEndian: big) ?? 0 : UInt64(body.u32(at, bigEndian: big) ?? 0)
        }
        let step = wide ? 8 : 4
        let vmAddress = word(24)
        let vmSize = word(24 + step)
        let fileOffset = word(24 + 2 * step)
        let fileSize = word(24 + 3 * step)
        let tail = 24 + 4 * step
        let maximumProtection = Int32(bitPattern: body.u32(tail, bigEndian: big) ?? 0)
        let initialProtection = Int32(bitPattern: body.u32(tail + 4, bigEndian: big) ?? 0)
        var sectionCount = Int(body.u32(tail + 8, bigEndian: big) ?? 0)
        let flags = body.u32(tail + 12, bigEndian: big) ?? 0
        let room = (body.count - headerSize) / sectionSize
        if sectionCount > room {
            warnings.append("\(name) \(segmentName) claims \(sectionCount) sections, room for \(room)")
            sectionCount = room
        }
        var sections: [MachOSection] = []
        for index in 0..<sectionCount {
            let at = headerSize + index * sectionSize
            let sectionName = body.fixedString(at, 16) ?? ""
            let owner = body.fixedString(at + 16, 16) ?? segmentName
            let address = wide ? body.u64(at + 32, bigEndian: big) ?? 0 : UInt64(body.u32(at + 32, bigEndian: big) ?? 0)
            let size = wide ? body.u64(at + 40, bigEndian: big) ?? 0 : UInt64(body.u32(at + 36, bigEndian: big) ?? 0)
            let fieldBase = wide ? at + 48 : at + 40
            let sectionOffset = body.u32(fieldBase, bigEndian: big) ?? 0
            let sectionFlags = body.u32(fieldBase + 16, bigEndian: big) ?? 0
            sections.append(MachOSection(segmentName: owner, name: sectionName, address: address, size: size,
                                         fileOffset: sectionOffset, flags: sectionFlags))
        }
        if let fileEnd = RawBytes.offset(fileOffset).flatMap({ start in RawBytes.offset(fileSize).flatMap { RawBytes.add(start, $0) } }),
           fileEnd <= imageSize {
            // In bounds.
        } else {
            warnings.append("segment \(segmentName) (file offset \(fileOffset), size \(fileSize)) lies outside the image")
        }
        segments.append(MachOSegment(name: segmentName, vmAddress: vmAddress, vmSize: vmSize, fileOffset: fileOffset,
                                     fileSize: fileSize, maximumProtection: maximumProtection,
                                     initialProtection: initialProtection, flags: flags, sections: sections))
    }
}
