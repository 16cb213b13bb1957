import Foundation

/// Test-only Mach-O writer: a thin image with chosen load commands (their payloads laid out after the
/// commands and offsets filled in), and fat files around thin images.
struct MachOWriter {
    struct Section {
        var name: String
        var contents: Data
        var flags: UInt32 = 0
        init(_ name: String, _ contents: Data, flags: UInt32 = 0) {
            self.name = name
            self.contents = contents
            self.flags = flags
        }
        /// A section of NUL-terminated strings.
        static func strings(_ name: String, _ strings: [String]) -> Section {
            Section(name, Data(strings.map { $0 + "\u{0}" }.joined().utf8), flags: 0x2)
        }
    }

    struct Symbol {
        var name: String
        var type: UInt8 = 0x01   // N_UNDF | N_EXT
        var ordinal: UInt8 = 1
        var weak = false
        var value: UInt64 = 0
    }

    enum Command {
        case segment(String, [Section])
        case dylib(UInt32, String)
        case rpath(String)
        /// `LC_ENCRYPTION_INFO(_64)` covering every section's bytes.
        case encryption(cryptID: UInt32)
        case buildVersion(platform: UInt32, minimumOS: UInt32, sdk: UInt32)
        case versionMin(UInt32, version: UInt32, sdk: UInt32)
        case main(UInt64)
        case uuid([UInt8])
        case codeSignature(Data)
        case chainedFixups(Data)
        case dyldInfo(bind: Data, weakBind: Data, lazyBind: Data)
        case symtab([Symbol])
        /// Anything else, with a raw body after `cmd` and `cmdsize`.
        case raw(UInt32, Data)
    }

    static let loadDylib: UInt32 = 0xc
    static let loadWeakDylib: UInt32 = 0x8000_0018
    static let reexportDylib: UInt32 = 0x8000_001f
    static let lazyLoadDylib: UInt32 = 0x20
    static let pie: UInt32 = 0x200000
    static let noHeapExecution: UInt32 = 0x100_0000
    static let allowStackExecution: UInt32 = 0x20000

    var is64Bit = true
    var bigEndian = false
    var cpuType: Int32 = 12 | 0x0100_0000
    var cpuSubtype: Int32 = 0
    var fileType: UInt32 = 2
    var flags: UInt32 = 0x85 | pie
    var commands: [Command] = []
    /// Overrides of the header's ncmds and sizeofcmds.
    var declaredCommandCount: UInt32?
    var declaredCommandsSize: UInt32?

    static func version(_ major: UInt32, _ minor: UInt32, _ patch: UInt32 = 0) -> UInt32 {
        major << 16 | minor << 8 | patch
    }

    private func commandSize(_ command: Command) -> Int {
        func padded(_ size: Int) -> Int { (size + 7) / 8 * 8 }
        switch command {
        case .segment(_, let sections):
            return (is64Bit ? 72 : 56) + sections.count * (is64Bit ? 80 : 68)
        case .dylib(_, let path): return padded(24 + path.utf8.count + 1)
        case .rpath(let path): return padded(12 + path.utf8.count + 1)
        case .encryption: return is64Bit ? 24 : 20
        case .buildVersion: return 24
        case .versionMin: return 16
        case .main: return 24
        case .uuid: return 24
        case .codeSignature, .chainedFixups: return 16
        case .dyldInfo: return 48
        case .symtab: return 24
        case .raw(_, let body): return 8 + body.count
        }
    }

    func build() -> Data {
        let headerSize = is64Bit ? 32 : 28
        let commandsSize = commands.reduce(0) { $0 + commandSize($1) }
        // Lay out payloads after the load commands.
        var payload = ByteWriter()
        let payloadStart = (headerSize + commandsSize + 15) / 16 * 16
        func place(_ data: Data) -> Int {
            payload.pad(to: 16)
            let offset = payloadStart + payload.count
            payload.bytes(data)
            return offset
        }
        var sectionOffsets: [[Int]] = []
        var sectionsStart = Int.max
        var sectionsEnd = 0
        for command in commands {
            if case .segment(_, let sections) = command {
                sectionOffsets.append(sections.map { section in
                    let offset = place(section.contents)
                    sectionsStart = min(sectionsStart, offset)
                    sectionsEnd = max(sectionsEnd, offset + section.contents.count)
                    return offset
                })
            }
        }
        var out = ByteWriter()
        let big = bigEndian
        out.u32(is64Bit ? 0xfeed_facf : 0xfeed_face, bigEndian: big)
        out.u32(UInt32(bitPattern: cpuType), bigEndian: big)
        out.u32(UInt32(bitPattern: cpuSubtype), bigEndian: big)
        out.u32(fileType, bigEndian: big)
        out.u32(declaredCommandCount ?? UInt32(commands.count), bigEndian: big)
        out.u32(declaredCommandsSize ?? UInt32(commandsSize), bigEndian: big)
        out.u32(flags, bigEndian: big)
        if is64Bit { out.u32(0) }

        var segmentIndex = 0
        for command in commands {
            let size = commandSize(command)
            let start = out.count
            func header(_ cmd: UInt32) {
                out.u32(cmd, bigEndian: big)
                out.u32(UInt32(size), bigEndian: big)
            }
            func word(_ value: UInt64) { is64Bit ? out.u64(value, bigEndian: big) : out.u32(UInt32(value), bigEndian: big) }
            switch command {
            case .segment(let name, let sections):
                let offsets = sectionOffsets[segmentIndex]
                segmentIndex += 1
                header(is64Bit ? 0x19 : 0x1)
                out.fixed(name, width: 16)
                let fileStart = offsets.first ?? 0
                let fileEnd = zip(offsets, sections).map { $0 + $1.contents.count }.max() ?? 0
                let base: UInt64 = is64Bit ? 0x1_0000_0000 : 0x1000
                word(base + UInt64(fileStart)); word(UInt64(fileEnd - fileStart))
                word(UInt64(fileStart)); word(UInt64(fileEnd - fileStart))
                out.u32(5, bigEndian: big); out.u32(5, bigEndian: big)
                out.u32(UInt32(sections.count), bigEndian: big); out.u32(0, bigEndian: big)
                for (section, offset) in zip(sections, offsets) {
                    out.fixed(section.name, width: 16)
                    out.fixed(name, width: 16)
                    word(base + UInt64(offset)); word(UInt64(section.contents.count))
                    out.u32(UInt32(offset), bigEndian: big)
                    out.u32(0, bigEndian: big); out.u32(0, bigEndian: big); out.u32(0, bigEndian: big)
                    out.u32(section.flags, bigEndian: big)
                    out.u32(0, bigEndian: big); out.u32(0, bigEndian: big)
                    if is64Bit { out.u32(0, bigEndian: big) }
                }
            case .dylib(let cmd, let path):
                header(cmd)
                out.u32(24, bigEndian: big); out.u32(2, bigEndian: big)
                out.u32(Self.version(1, 2, 3), bigEndian: big); out.u32(Self.version(1, 0), bigEndian: big)
                out.string(path, nul: true)
            case .rpath(let path):
                header(0x8000_001c)
                out.u32(12, bigEndian: big)
                out.string(path, nul: true)
            case .encryption(let cryptID):
                header(is64Bit ? 0x2c : 0x21)
                let startOffset = sectionsStart == Int.max ? 0 : sectionsStart
                out.u32(UInt32(startOffset), bigEndian: big)
                out.u32(UInt32(max(0, sectionsEnd - startOffset)), bigEndian: big)
                out.u32(cryptID, bigEndian: big)
                if is64Bit { out.u32(0, bigEndian: big) }
            case .buildVersion(let platform, let minimumOS, let sdk):
                header(0x32)
                out.u32(platform, bigEndian: big); out.u32(minimumOS, bigEndian: big); out.u32(sdk, bigEndian: big)
                out.u32(0, bigEndian: big)
            case .versionMin(let cmd, let version, let sdk):
                header(cmd)
                out.u32(version, bigEndian: big); out.u32(sdk, bigEndian: big)
            case .main(let entry):
                header(0x8000_0028)
                out.u64(entry, bigEndian: big); out.u64(0, bigEndian: big)
            case .uuid(let bytes):
                header(0x1b)
                out.bytes(bytes)
            case .codeSignature(let blob):
                header(0x1d)
                out.u32(UInt32(place(blob)), bigEndian: big); out.u32(UInt32(blob.count), bigEndian: big)
            case .chainedFixups(let blob):
                header(0x8000_0034)
                out.u32(UInt32(place(blob)), bigEndian: big); out.u32(UInt32(blob.count), bigEndian: big)
            case .dyldInfo(let bind, let weakBind, let lazyBind):
                header(0x8000_0022)
                out.u32(0, bigEndian: big); out.u32(0, bigEndian: big)
                for stream in [bind, weakBind, lazyBind] {
                    out.u32(stream.isEmpty ? 0 : UInt32(place(stream)), bigEndian: big)
                    out.u32(UInt32(stream.count), bigEndian: big)
                }
                out.u32(0, bigEndian: big); out.u32(0, bigEndian: big)
            case .symtab(let symbols):
                header(0x2)
                var strings = ByteWriter()
                strings.u8(0x20); strings.u8(0)
                var table = ByteWriter()
                for symbol in symbols {
                    table.u32(UInt32(strings.count), bigEndian: big)
                    strings.string(symbol.name, nul: true)
                    table.u8(symbol.type); table.u8(0)
                    table.u16(UInt16(symbol.ordinal) << 8 | (symbol.weak ? 0x40 : 0), bigEndian: big)
                    is64Bit ? table.u64(symbol.value, bigEndian: big) : table.u32(UInt32(symbol.value), bigEndian: big)
                }
                out.u32(UInt32(place(table.data)), bigEndian: big); out.u32(UInt32(symbols.count), bigEndian: big)
                out.u32(UInt32(place(strings.data)), bigEndian: big); out.u32(UInt32(strings.count), bigEndian: big)
            case .raw(let cmd, let body):
                header(cmd)
                out.bytes(body)
            }
            while out.count - start < size { out.u8(0) }
            precondition(out.count - start == size, "command size mismatch for \(command)")
        }
        while out.count < payloadStart { out.u8(0) }
        out.bytes(payload.data)
        return out.data
    }

    /// A fat file around thin images (fat_arch or fat_arch_64 entries, big-endian unless `cigam`).
    static func fat(_ images: [(cpuType: Int32, cpuSubtype: Int32, data: Data)], wide: Bool = false, cigam: Bool = false,
                    declaredCount: UInt32? = nil) -> Data {
        var out = ByteWriter()
        let big = !cigam
        out.u32(wide ? 0xcafe_babf : 0xcafe_babe, bigEndian: big)
        out.u32(declaredCount ?? UInt32(images.count), bigEndian: big)
        let entrySize = wide ? 32 : 20
        var offset = (8 + images.count * entrySize + 255) / 256 * 256
        var offsets: [Int] = []
        for image in images {
            offsets.append(offset)
            offset = (offset + image.data.count + 255) / 256 * 256
        }
        for (image, start) in zip(images, offsets) {
            out.u32(UInt32(bitPattern: image.cpuType), bigEndian: big)
            out.u32(UInt32(bitPattern: image.cpuSubtype), bigEndian: big)
            if wide {
                out.u64(UInt64(start), bigEndian: big); out.u64(UInt64(image.data.count), bigEndian: big)
                out.u32(8, bigEndian: big); out.u32(0, bigEndian: big)
            } else {
                out.u32(UInt32(start), bigEndian: big); out.u32(UInt32(image.data.count), bigEndian: big)
                out.u32(8, bigEndian: big)
            }
        }
        for (image, start) in zip(images, offsets) {
            while out.count < start { out.u8(0) }
            out.bytes(image.data)
        }
        return out.data
    }

    // MARK: Linkedit payloads

    struct Import {
        var ordinal: Int
        var name: String
        var weak = false
    }

    /// An `LC_DYLD_CHAINED_FIXUPS` blob with an imports table in the given format (1, 2 or 3).
    static func chainedFixups(_ imports: [Import], format: UInt32 = 1, compressedNames: Bool = false,
                              nameOffsetOverride: [Int: UInt32] = [:]) -> Data {
        var pool = ByteWriter()
        pool.u8(0)
        var nameOffsets: [UInt32] = []
        for item in imports {
            nameOffsets.append(UInt32(pool.count))
            pool.string(item.name, nul: true)
        }
        var table = ByteWriter()
        for (index, item) in imports.enumerated() {
            let nameOffset = nameOffsetOverride[index] ?? nameOffsets[index]
            switch format {
            case 3:
                let ordinal = UInt64(UInt16(truncatingIfNeeded: item.ordinal))
                table.u64(ordinal | (item.weak ? 1 << 16 : 0) | UInt64(nameOffset) << 32)
                table.u64(0)
            default:
                let ordinal = UInt32(UInt8(truncatingIfNeeded: item.ordinal))
                table.u32(ordinal | (item.weak ? 1 << 8 : 0) | nameOffset << 9)
                if format == 2 { table.u32(0) }
            }
        }
        let poolData = compressedNames ? ZipWriter.zlibCompress(pool.data) : pool.data
        var out = ByteWriter()
        let startsOffset: UInt32 = 28
        let importsOffset: UInt32 = 32
        let symbolsOffset = importsOffset + UInt32(table.count)
        out.u32(0); out.u32(startsOffset); out.u32(importsOffset); out.u32(symbolsOffset)
        out.u32(UInt32(imports.count)); out.u32(format); out.u32(compressedNames ? 1 : 0)
        out.u32(0) // dyld_chained_starts_in_image with no segments
        out.bytes(table.data)
        out.bytes(poolData)
        return out.data
    }

    /// A classic bind opcode stream binding each import once (lazy streams end each entry with DONE).
    static func bindStream(_ imports: [Import], lazy: Bool = false, flags: UInt8 = 0) -> Data {
        var out = ByteWriter()
        for (index, item) in imports.enumerated() {
            if item.ordinal <= 0 {
                out.u8(0x30 | UInt8(item.ordinal & 0x0f)) // SET_DYLIB_SPECIAL_IMM
            } else if item.ordinal < 16 {
                out.u8(0x10 | UInt8(item.ordinal))        // SET_DYLIB_ORDINAL_IMM
            } else {
                out.u8(0x20); out.bytes(ByteWriter.uleb(UInt64(item.ordinal)))
            }
            out.u8(0x40 | (item.weak ? 1 : 0) | flags)    // SET_SYMBOL_TRAILING_FLAGS_IMM
            out.string(item.name, nul: true)
            out.u8(0x51)                                  // SET_TYPE_IMM pointer
            out.u8(0x72); out.bytes(ByteWriter.uleb(UInt64(index * 8))) // SET_SEGMENT_AND_OFFSET_ULEB
            switch index % 4 {
            case 0: out.u8(0x90)                                                       // DO_BIND
            case 1: out.u8(0x60); out.bytes(ByteWriter.sleb(-8)); out.u8(0xa0); out.bytes(ByteWriter.uleb(16)) // addend, DO_BIND_ADD_ADDR_ULEB
            case 2: out.u8(0xb1)                                                       // DO_BIND_ADD_ADDR_IMM_SCALED
            default: out.u8(0xc0); out.bytes(ByteWriter.uleb(3)); out.bytes(ByteWriter.uleb(8)) // DO_BIND_ULEB_TIMES_SKIPPING_ULEB
            }
            if lazy { out.u8(0x00) }
        }
        out.u8(0x00)
        return out.data
    }
}

/// Test-only code-signature writer: a super-blob with a code directory, entitlements and more.
enum CodeSignatureWriter {
    static func codeDirectory(identifier: String, teamID: String?, flags: UInt32 = 0, version: UInt32 = 0x20400,
                              hashType: UInt8 = 2) -> Data {
        var out = ByteWriter()
        let headerSize = 88
        let identOffset = headerSize
        let teamOffset = teamID == nil ? 0 : identOffset + identifier.utf8.count + 1
        let hashOffset = headerSize + identifier.utf8.count + 1 + (teamID.map { $0.utf8.count + 1 } ?? 0)
        let length = hashOffset + 32
        out.u32(0xfade_0c02, bigEndian: true); out.u32(UInt32(length), bigEndian: true)
        out.u32(version, bigEndian: true); out.u32(flags, bigEndian: true)
        out.u32(UInt32(hashOffset), bigEndian: true); out.u32(UInt32(identOffset), bigEndian: true)
        out.u32(0, bigEndian: true); out.u32(1, bigEndian: true); out.u32(0x4000, bigEndian: true)
        out.u8(32); out.u8(hashType); out.u8(0); out.u8(12)
        out.u32(0, bigEndian: true)                     // spare2
        out.u32(0, bigEndian: true)                     // scatterOffset
        out.u32(UInt32(teamOffset), bigEndian: true)    // teamOffset
        out.u32(0, bigEndian: true)                     // spare3
        out.u64(0, bigEndian: true)                     // codeLimit64
        out.u64(0, bigEndian: true); out.u64(0x4000, bigEndian: true); out.u64(1, bigEndian: true) // execSeg base, limit, flags
        precondition(out.count == headerSize)
        out.string(identifier, nul: true)
        if let teamID { out.string(teamID, nul: true) }
        out.zeros(32)
        return out.data
    }

    static func blob(_ magic: UInt32, _ payload: Data) -> Data {
        var out = ByteWriter()
        out.u32(magic, bigEndian: true); out.u32(UInt32(payload.count + 8), bigEndian: true)
        out.bytes(payload)
        return out.data
    }

    static func superBlob(_ blobs: [(slot: UInt32, data: Data)], declaredCount: UInt32? = nil,
                          offsetOverride: [Int: UInt32] = [:]) -> Data {
        var out = ByteWriter()
        let indexEnd = 12 + blobs.count * 8
        var offsets: [Int] = []
        var offset = indexEnd
        for blob in blobs {
            offsets.append(offset)
            offset += blob.data.count
        }
        out.u32(0xfade_0cc0, bigEndian: true); out.u32(UInt32(offset), bigEndian: true)
        out.u32(declaredCount ?? UInt32(blobs.count), bigEndian: true)
        for (index, (blob, start)) in zip(blobs, offsets).enumerated() {
            out.u32(blob.slot, bigEndian: true)
            out.u32(offsetOverride[index] ?? UInt32(start), bigEndian: true)
        }
        for blob in blobs { out.bytes(blob.data) }
        return out.data
    }

    static let entitlementsPlist = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
    \t<key>application-identifier</key>
    \t<string>ABCDE12345.com.example.app</string>
    \t<key>get-task-allow</key>
    \t<true/>
    \t<key>keychain-access-groups</key>
    \t<array>
    \t\t<string>ABCDE12345.*</string>
    \t</array>
    </dict>
    </plist>
    """

    /// A typical development signature: code directory, requirements, entitlements (XML and DER), CMS.
    static func sample(identifier: String = "com.example.app", teamID: String? = "ABCDE12345",
                       entitlements: String = entitlementsPlist) -> Data {
        superBlob([
            (0, codeDirectory(identifier: identifier, teamID: teamID, flags: 0x10000)),
            (2, blob(0xfade_0c01, Data([0, 0, 0, 0]))),
            (5, blob(0xfade_7171, Data(entitlements.utf8))),
            (7, blob(0xfade_7172, Data([0x70, 0x03, 0x02, 0x01, 0x01]))),
            (0x1000, codeDirectory(identifier: identifier, teamID: teamID, flags: 0x10000, hashType: 1)),
            (0x10000, blob(0xfade_0b01, Data([0x30, 0x00]))),
        ])
    }
}
