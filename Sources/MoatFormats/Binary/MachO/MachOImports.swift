import Foundation

extension MachOImage {
    /// Imported symbols from every source the image has: the classic bind, weak-bind and lazy-bind
    /// opcode streams, the chained-fixups imports table, and undefined external symbols of the symbol
    /// table. Merged by (name, library ordinal). Computed on each call.
    public func imports() -> MachOImports {
        data.withRawBytes { bytes in
            var collector = ImportCollector(dylibs: dylibs, limit: limits.maximumImports,
                                            maximumNameLength: limits.maximumStringLength)
            if let dyldInfo {
                collector.readBindStream(bytes, range: dyldInfo.bind, kind: .bind, bigEndian: isBigEndian)
                collector.readBindStream(bytes, range: dyldInfo.weakBind, kind: .weakBind, bigEndian: isBigEndian)
                collector.readBindStream(bytes, range: dyldInfo.lazyBind, kind: .lazyBind, bigEndian: isBigEndian)
            }
            if let chainedFixupsRange {
                collector.readChainedFixups(bytes, range: chainedFixupsRange, bigEndian: isBigEndian,
                                            poolLimit: limits.maximumSymbolPoolSize)
            }
            if let symbolTable {
                collector.readSymbolTable(bytes, table: symbolTable, is64Bit: is64Bit, bigEndian: isBigEndian,
                                          limit: limits.maximumSymbols)
            }
            return MachOImports(symbols: collector.symbols(), warnings: collector.warnings)
        }
    }
}

private struct ImportCollector {
    struct Key: Hashable {
        var name: String
        var ordinal: Int
    }

    let dylibs: [MachODylib]
    let limit: Int
    /// Longest symbol name read (`MachOLimits.maximumStringLength`): many entries may name one long string.
    let maximumNameLength: Int
    private var order: [Key] = []
    private var found: [Key: (weak: Bool, sources: MachOImportSources)] = [:]
    var warnings: [String] = []
    private var limitReported = false

    init(dylibs: [MachODylib], limit: Int, maximumNameLength: Int) {
        self.dylibs = dylibs
        self.limit = limit
        self.maximumNameLength = maximumNameLength
    }

    mutating func add(_ name: String, ordinal: Int, weak: Bool, source: MachOImportSources) {
        guard !name.isEmpty else { return }
        let key = Key(name: name, ordinal: ordinal)
        if let existing = found[key] {
            found[key] = (existing.weak || weak, existing.sources.union(source))
            return
        }
        guard order.count < limit else {
            if !limitReported { warnings.append("more than \(limit) imports; the rest were not read") }
            limitReported = true
            return
        }
        order.append(key)
        found[key] = (weak, source)
    }

    func symbols() -> [MachOImportedSymbol] {
        order.compactMap { key in
            guard let value = found[key] else { return nil }
            let path = key.ordinal >= 1 && key.ordinal <= dylibs.count ? dylibs[key.ordinal - 1].path : ""
            let library = path.isEmpty ? nil : path
            return MachOImportedSymbol(name: key.name, libraryOrdinal: key.ordinal, library: library,
                                       isWeak: value.weak, sources: value.sources)
        }
    }

    // MARK: Classic bind opcodes

    mutating func readBindStream(_ bytes: RawBytes, range: MachOLinkeditRange, kind: MachOImportSources, bigEndian: Bool) {
        guard range.size > 0 else { return }
        let label = kind == .bind ? "bind" : kind == .weakBind ? "weak bind" : "lazy bind"
        guard let stream = bytes.slice(Int(range.offset), Int(range.size)) else {
            warnings.append("\(label) opcodes lie outside the image")
            return
        }
        var offset = 0
        let end = stream.count
        var ordinal = 0
        var symbol: String?
        var symbolFlags: UInt8 = 0
        func fail(_ why: String) -> Bool {
            warnings.append("\(label) opcodes: \(why) at offset \(offset)")
            return false
        }
        func skipULEB() -> Bool {
            stream.uleb128(&offset, end: end) != nil || fail("malformed ULEB128")
        }
        func bind() {
            guard let symbol else { return }
            // Weak-bind entries flagged as strong definitions are not imports.
            if kind == .weakBind && symbolFlags & 0x8 != 0 { return }
            add(symbol, ordinal: ordinal, weak: symbolFlags & 0x1 != 0, source: kind)
        }
        loop: while offset < end, let byte = stream.u8(offset) {
            offset += 1
            let immediate = byte & 0x0f
            switch byte & 0xf0 {
            case 0x00: // DONE
                if kind != .lazyBind { break loop }
            case 0x10: // SET_DYLIB_ORDINAL_IMM
                ordinal = Int(immediate)
            case 0x20: // SET_DYLIB_ORDINAL_ULEB
                guard let value = stream.uleb128(&offset, end: end) else { _ = fail("malformed ULEB128"); break loop }
                ordinal = Int(clamping: value)
            case 0x30: // SET_DYLIB_SPECIAL_IMM
                ordinal = immediate == 0 ? 0 : Int(Int8(bitPattern: 0xf0 | immediate))
            case 0x40: // SET_SYMBOL_TRAILING_FLAGS_IMM
                symbolFlags = immediate
                var stop = offset
                while stop < end, stream.u8(stop) != 0 { stop += 1 }
                guard stop < end else { _ = fail("unterminated symbol name"); break loop }
                symbol = stream.cString(offset, limit: min(stop - offset, maximumNameLength))
                offset = stop + 1
            case 0x50: // SET_TYPE_IMM
                break
            case 0x60: // SET_ADDEND_SLEB
                guard stream.sleb128(&offset, end: end) != nil else { _ = fail("malformed SLEB128"); break loop }
            case 0x70, 0x80: // SET_SEGMENT_AND_OFFSET_ULEB, ADD_ADDR_ULEB
                guard skipULEB() else { break loop }
            case 0x90, 0xb0: // DO_BIND, DO_BIND_ADD_ADDR_IMM_SCALED
                bind()
            case 0xa0: // DO_BIND_ADD_ADDR_ULEB
                guard skipULEB() else { break loop }
                bind()
            case 0xc0: // DO_BIND_ULEB_TIMES_SKIPPING_ULEB
                guard skipULEB(), skipULEB() else { break loop }
                bind()
            case 0xd0: // THREADED
                if immediate == 0x00 { guard skipULEB() else { break loop } } // SET_BIND_ORDINAL_TABLE_SIZE_ULEB
                else if immediate != 0x01 { _ = fail("unknown threaded sub-opcode \(immediate)"); break loop } // APPLY
            default:
                _ = fail("unknown opcode 0x\(String(byte, radix: 16))")
                break loop
            }
        }
    }

    // MARK: Chained fixups

    mutating func readChainedFixups(_ bytes: RawBytes, range: MachOLinkeditRange, bigEndian: Bool, poolLimit: Int) {
        guard let blob = bytes.slice(Int(range.offset), Int(range.size)) else {
            warnings.append("chained fixups lie outside the image")
            return
        }
        func u32(_ at: Int) -> UInt32? { blob.u32(at, bigEndian: bigEndian) }
        guard let version = u32(0), let importsOffset32 = u32(8), let symbolsOffset32 = u32(12),
              let count32 = u32(16), let format = u32(20), let symbolsFormat = u32(24) else {
            warnings.append("chained fixups header is truncated")
            return
        }
        if version != 0 { warnings.append("chained fixups version \(version) is unknown; reading anyway") }
        let entrySize: Int
        switch format {
        case 1: entrySize = 4   // DYLD_CHAINED_IMPORT
        case 2: entrySize = 8   // DYLD_CHAINED_IMPORT_ADDEND
        case 3: entrySize = 16  // DYLD_CHAINED_IMPORT_ADDEND64
        default:
            warnings.append("chained fixups imports format \(format) is unknown")
            return
        }
        let importsOffset = Int(importsOffset32)
        let symbolsOffset = Int(symbolsOffset32)
        var count = Int(count32)
        guard let tableSize = RawBytes.multiply(count, entrySize), blob.has(importsOffset, tableSize) else {
            warnings.append("chained fixups imports table (\(count) entries) lies outside its data")
            return
        }
        guard symbolsOffset <= blob.count, let rawPool = blob.slice(symbolsOffset, blob.count - symbolsOffset) else {
            warnings.append("chained fixups symbol pool lies outside its data")
            return
        }
        var inflatedPool: Data?
        if symbolsFormat == 1 {
            inflatedPool = inflateSymbolPool(rawPool, limit: poolLimit)
            guard inflatedPool != nil else { return }
        } else if symbolsFormat != 0 {
            warnings.append("chained fixups symbols format \(symbolsFormat) is unknown")
            return
        }
        if count > limit {
            warnings.append("chained fixups list \(count) imports; only \(limit) were read")
            count = limit
        }
        let table = ImportTable(blob: blob, offset: importsOffset, count: count, entrySize: entrySize,
                                format: format, bigEndian: bigEndian)
        if let inflatedPool {
            inflatedPool.withRawBytes { readImports(table, pool: $0) }
        } else {
            readImports(table, pool: rawPool)
        }
    }

    private struct ImportTable {
        let blob: RawBytes
        let offset: Int
        let count: Int
        let entrySize: Int
        let format: UInt32
        let bigEndian: Bool
    }

    private mutating func readImports(_ table: ImportTable, pool: RawBytes) {
        for index in 0..<table.count {
            let at = table.offset + index * table.entrySize
            let ordinal: Int
            let weak: Bool
            let nameOffset: Int
            if table.format == 3 {
                guard let raw = table.blob.u64(at, bigEndian: table.bigEndian) else { return }
                let rawOrdinal = UInt16(truncatingIfNeeded: raw)
                ordinal = rawOrdinal > 0xfff0 ? Int(Int16(bitPattern: rawOrdinal)) : Int(rawOrdinal)
                weak = (raw >> 16) & 1 != 0
                nameOffset = Int(raw >> 32)
            } else {
                guard let raw = table.blob.u32(at, bigEndian: table.bigEndian) else { return }
                let rawOrdinal = UInt8(truncatingIfNeeded: raw)
                ordinal = rawOrdinal > 0xf0 ? Int(Int8(bitPattern: rawOrdinal)) : Int(rawOrdinal)
                weak = (raw >> 8) & 1 != 0
                nameOffset = Int(raw >> 9)
            }
            guard nameOffset < pool.count, let name = pool.cString(nameOffset, limit: min(pool.count - nameOffset, maximumNameLength)) else {
                warnings.append("chained import \(index) names offset \(nameOffset), outside the symbol pool")
                continue
            }
            add(name, ordinal: ordinal, weak: weak, source: .chainedFixups)
        }
    }

    private mutating func inflateSymbolPool(_ pool: RawBytes, limit: Int) -> Data? {
        for wrapper in [Inflater.Wrapper.zlib, .raw] {
            switch try? Inflater.inflate(pool, wrapper: wrapper, limit: limit) {
            case .complete(let data, _)?: return data
            case .exceedsLimit?:
                warnings.append("compressed chained-fixups symbol pool inflates past \(limit) bytes")
                return nil
            case nil: continue
            }
        }
        warnings.append("compressed chained-fixups symbol pool could not be inflated")
        return nil
    }

    // MARK: Symbol table

    mutating func readSymbolTable(_ bytes: RawBytes, table: MachOSymbolTableInfo, is64Bit: Bool, bigEndian: Bool, limit: Int) {
        let entrySize = is64Bit ? 16 : 12
        var count = Int(table.symbolCount)
        let start = Int(table.symbolOffset)
        guard let size = RawBytes.multiply(count, entrySize), bytes.has(start, size) else {
            warnings.append("symbol table (\(count) symbols at offset \(start)) lies outside the image")
            return
        }
        guard let strings = bytes.slice(Int(table.stringOffset), Int(table.stringSize)) else {
            warnings.append("string table lies outside the image")
            return
        }
        if count > limit {
            warnings.append("symbol table lists \(count) symbols; only \(limit) were read")
            count = limit
        }
        for index in 0..<count {
            let at = start + index * entrySize
            guard let type = bytes.u8(at + 4), let desc = bytes.u16(at + 6, bigEndian: bigEndian) else { return }
            // Undefined external, not a debugging entry.
            guard type & 0xe0 == 0, type & 0x0e == 0, type & 0x01 != 0 else { continue }
            let value = is64Bit ? bytes.u64(at + 8, bigEndian: bigEndian) : bytes.u32(at + 8, bigEndian: bigEndian).map(UInt64.init)
            guard value == 0 else { continue } // a common symbol, not an import
            guard let stringIndex = bytes.u32(at, bigEndian: bigEndian).map(Int.init), stringIndex < strings.count,
                  let name = strings.cString(stringIndex, limit: min(strings.count - stringIndex, maximumNameLength)) else { continue }
            let rawOrdinal = UInt8(truncatingIfNeeded: desc >> 8)
            let ordinal: Int
            switch rawOrdinal {
            case 0xfe: ordinal = -2 // DYNAMIC_LOOKUP_ORDINAL
            case 0xff: ordinal = -1 // EXECUTABLE_ORDINAL
            default: ordinal = Int(rawOrdinal)
            }
            add(name, ordinal: ordinal, weak: desc & 0x40 != 0, source: .symbolTable)
        }
    }
}
