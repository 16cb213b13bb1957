import Foundation

/// Little helper for building binary fixtures in tests.
struct ByteWriter {
    var data = Data()

    var count: Int { data.count }

    mutating func u8(_ value: UInt8) { data.append(value) }
    mutating func u16(_ value: UInt16, bigEndian: Bool = false) {
        withUnsafeBytes(of: bigEndian ? value.bigEndian : value.littleEndian) { data.append(contentsOf: $0) }
    }
    mutating func u32(_ value: UInt32, bigEndian: Bool = false) {
        withUnsafeBytes(of: bigEndian ? value.bigEndian : value.littleEndian) { data.append(contentsOf: $0) }
    }
    mutating func u64(_ value: UInt64, bigEndian: Bool = false) {
        withUnsafeBytes(of: bigEndian ? value.bigEndian : value.littleEndian) { data.append(contentsOf: $0) }
    }
    mutating func bytes(_ bytes: Data) { data.append(bytes) }
    mutating func bytes(_ bytes: [UInt8]) { data.append(contentsOf: bytes) }
    mutating func string(_ text: String, nul: Bool = false) {
        data.append(contentsOf: Array(text.utf8))
        if nul { data.append(0) }
    }
    /// A string in a fixed-width NUL-padded field.
    mutating func fixed(_ text: String, width: Int) {
        var field = Array(text.utf8.prefix(width))
        field += [UInt8](repeating: 0, count: width - field.count)
        data.append(contentsOf: field)
    }
    mutating func pad(to alignment: Int) {
        while data.count % alignment != 0 { data.append(0) }
    }
    mutating func zeros(_ count: Int) { data.append(contentsOf: [UInt8](repeating: 0, count: count)) }

    static func uleb(_ value: UInt64) -> [UInt8] {
        var value = value
        var out: [UInt8] = []
        repeat {
            var byte = UInt8(value & 0x7f)
            value >>= 7
            if value != 0 { byte |= 0x80 }
            out.append(byte)
        } while value != 0
        return out
    }

    static func sleb(_ value: Int64) -> [UInt8] {
        var value = value
        var out: [UInt8] = []
        while true {
            let byte = UInt8(value & 0x7f)
            value >>= 7
            let done = (value == 0 && byte & 0x40 == 0) || (value == -1 && byte & 0x40 != 0)
            out.append(done ? byte : byte | 0x80)
            if done { return out }
        }
    }

    /// Patches a little- or big-endian UInt32 at an offset.
    mutating func patch32(_ offset: Int, _ value: UInt32, bigEndian: Bool = false) {
        let v = bigEndian ? value.bigEndian : value.littleEndian
        withUnsafeBytes(of: v) { raw in
            for index in 0..<4 { data[offset + index] = raw[index] }
        }
    }
}
