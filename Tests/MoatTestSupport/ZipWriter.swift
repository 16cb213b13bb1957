import CZlib
import Foundation

/// Test-only ZIP writer: stored and raw-deflated entries, optional ZIP64 records, and knobs to make
/// the archive lie (sizes, CRC, names, flags, offsets).
struct ZipWriter {
    enum Method { case stored, deflated }

    struct Entry {
        var name: String
        var contents: Data
        var method: Method = .deflated
        /// Overrides of what the headers say.
        var declaredUncompressedSize: UInt64?
        var declaredCRC: UInt32?
        var flags: UInt16 = 0x0800
        var methodCode: UInt16?
        var localName: String?
        var rawName: [UInt8]?
        /// Unix mode (file type and permissions) stored in the external attributes.
        var unixMode: UInt16 = 0o100644
        /// Point this entry's central record at another entry's local header (by index).
        var localHeaderOf: Int?
        /// Bytes stored as the compressed data instead of compressing `contents`.
        var rawPayload: Data?

        init(_ name: String, _ contents: Data, method: Method = .deflated) {
            self.name = name
            self.contents = contents
            self.method = method
        }
    }

    var entries: [Entry] = []
    var zip64 = false
    var comment = Data()
    /// Overrides the entry count in the end record.
    var declaredEntryCount: UInt16?

    mutating func add(_ name: String, _ text: String, method: Method = .deflated) {
        entries.append(Entry(name, Data(text.utf8), method: method))
    }

    mutating func add(_ name: String, _ data: Data, method: Method = .deflated) {
        entries.append(Entry(name, data, method: method))
    }

    static func deflate(_ data: Data) -> Data {
        var stream = z_stream()
        let status = deflateInit2_(&stream, 9, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        precondition(status == Z_OK)
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, UInt(data.count))) + 64
        var output = [UInt8](repeating: 0, count: bound)
        var input = [UInt8](data)
        let produced = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer -> Int in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = UInt32(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = UInt32(outBuffer.count)
                let result = CZlib.deflate(&stream, Z_FINISH)
                precondition(result == Z_STREAM_END)
                return outBuffer.count - Int(stream.avail_out)
            }
        }
        return Data(output.prefix(produced))
    }

    /// zlib-wrapped deflate (for the compressed chained-fixups symbol pool).
    static func zlibCompress(_ data: Data) -> Data {
        var length = compressBound(UInt(data.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let input = [UInt8](data)
        let status = compress(&output, &length, input, UInt(input.count))
        precondition(status == Z_OK)
        return Data(output.prefix(Int(length)))
    }

    static func crc(_ data: Data) -> UInt32 {
        let bytes = [UInt8](data)
        return UInt32(CZlib.crc32(0, bytes, UInt32(bytes.count)))
    }

    func build() -> Data {
        var out = ByteWriter()
        var localOffsets: [UInt64] = []
        var records: [(entry: Entry, crc: UInt32, compressed: UInt64, uncompressed: UInt64, code: UInt16)] = []
        for entry in entries {
            let payload = entry.rawPayload ?? (entry.method == .stored ? entry.contents : Self.deflate(entry.contents))
            let code = entry.methodCode ?? (entry.method == .stored ? 0 : 8)
            let crc = entry.declaredCRC ?? Self.crc(entry.contents)
            let uncompressed = entry.declaredUncompressedSize ?? UInt64(entry.contents.count)
            let compressed = UInt64(payload.count)
            localOffsets.append(UInt64(out.count))
            let name = entry.rawName ?? Array((entry.localName ?? entry.name).utf8)
            out.u32(0x0403_4b50)
            out.u16(zip64 ? 45 : 20)
            out.u16(entry.flags)
            out.u16(code)
            out.u16(0); out.u16(0x21)
            out.u32(crc)
            out.u32(zip64 ? 0xFFFF_FFFF : UInt32(truncatingIfNeeded: compressed))
            out.u32(zip64 ? 0xFFFF_FFFF : UInt32(truncatingIfNeeded: uncompressed))
            out.u16(UInt16(name.count))
            out.u16(zip64 ? 20 : 0)
            out.bytes(name)
            if zip64 {
                out.u16(1); out.u16(16); out.u64(uncompressed); out.u64(compressed)
            }
            out.bytes(payload)
            records.append((entry, crc, compressed, uncompressed, code))
        }
        let directoryStart = UInt64(out.count)
        for (index, record) in records.enumerated() {
            let entry = record.entry
            let name = entry.rawName ?? Array(entry.name.utf8)
            let localOffset = localOffsets[entry.localHeaderOf ?? index]
            out.u32(0x0201_4b50)
            out.u16(0x0300 | 45)
            out.u16(zip64 ? 45 : 20)
            out.u16(entry.flags)
            out.u16(record.code)
            out.u16(0); out.u16(0x21)
            out.u32(record.crc)
            out.u32(zip64 ? 0xFFFF_FFFF : UInt32(truncatingIfNeeded: record.compressed))
            out.u32(zip64 ? 0xFFFF_FFFF : UInt32(truncatingIfNeeded: record.uncompressed))
            out.u16(UInt16(name.count))
            out.u16(zip64 ? 28 : 0)
            out.u16(0)
            out.u16(0)
            out.u16(0)
            out.u32(UInt32(entry.unixMode) << 16)
            out.u32(zip64 ? 0xFFFF_FFFF : UInt32(truncatingIfNeeded: localOffset))
            out.bytes(name)
            if zip64 {
                out.u16(1); out.u16(24); out.u64(record.uncompressed); out.u64(record.compressed); out.u64(localOffset)
            }
        }
        let directorySize = UInt64(out.count) - directoryStart
        let count = UInt64(entries.count)
        if zip64 {
            let recordOffset = UInt64(out.count)
            out.u32(0x0606_4b50); out.u64(44); out.u16(45); out.u16(45); out.u32(0); out.u32(0)
            out.u64(count); out.u64(count); out.u64(directorySize); out.u64(directoryStart)
            out.u32(0x0706_4b50); out.u32(0); out.u64(recordOffset); out.u32(1)
        }
        out.u32(0x0605_4b50)
        out.u16(0); out.u16(0)
        let shortCount = declaredEntryCount ?? (zip64 ? 0xFFFF : UInt16(count))
        out.u16(shortCount); out.u16(shortCount)
        out.u32(zip64 ? 0xFFFF_FFFF : UInt32(directorySize))
        out.u32(zip64 ? 0xFFFF_FFFF : UInt32(directoryStart))
        out.u16(UInt16(comment.count))
        out.bytes(comment)
        return out.data
    }
}
