import Foundation

/// A bounds-checked view over raw bytes, valid only inside the `withUnsafeBytes` closure that made it.
/// Every read returns nil instead of trapping when it would leave the buffer; offsets are `Int` and
/// callers convert file-supplied values with `RawBytes.offset(_:)` first.
struct RawBytes {
    let buffer: UnsafeRawBufferPointer

    init(_ buffer: UnsafeRawBufferPointer) { self.buffer = buffer }

    var count: Int { buffer.count }

    /// Whether `length` bytes starting at `offset` lie inside the buffer.
    func has(_ offset: Int, _ length: Int) -> Bool {
        offset >= 0 && length >= 0 && offset <= buffer.count && length <= buffer.count - offset
    }

    func u8(_ offset: Int) -> UInt8? {
        guard has(offset, 1) else { return nil }
        return buffer[offset]
    }

    func u16(_ offset: Int, bigEndian: Bool = false) -> UInt16? {
        guard has(offset, 2) else { return nil }
        let raw = buffer.loadUnaligned(fromByteOffset: offset, as: UInt16.self)
        return bigEndian ? UInt16(bigEndian: raw) : UInt16(littleEndian: raw)
    }

    func u32(_ offset: Int, bigEndian: Bool = false) -> UInt32? {
        guard has(offset, 4) else { return nil }
        let raw = buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        return bigEndian ? UInt32(bigEndian: raw) : UInt32(littleEndian: raw)
    }

    func u64(_ offset: Int, bigEndian: Bool = false) -> UInt64? {
        guard has(offset, 8) else { return nil }
        let raw = buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        return bigEndian ? UInt64(bigEndian: raw) : UInt64(littleEndian: raw)
    }

    /// A copy of the bytes (a fresh, zero-based `Data`).
    func data(_ offset: Int, _ length: Int) -> Data? {
        guard has(offset, length) else { return nil }
        guard length > 0, let base = buffer.baseAddress else { return Data() }
        return Data(bytes: base + offset, count: length)
    }

    /// A view of part of the buffer, with offsets starting again at zero.
    func slice(_ offset: Int, _ length: Int) -> RawBytes? {
        guard has(offset, length) else { return nil }
        return RawBytes(UnsafeRawBufferPointer(rebasing: buffer[offset..<(offset + length)]))
    }

    func bytesEqual(_ offset: Int, _ expected: [UInt8]) -> Bool {
        guard has(offset, expected.count) else { return false }
        for (index, byte) in expected.enumerated() where buffer[offset + index] != byte { return false }
        return true
    }

    /// The NUL-terminated string at `offset`, reading at most `limit` bytes (and never past the buffer).
    /// A string that runs into the limit or the end without a NUL is returned as far as it goes.
    /// Invalid UTF-8 is repaired with U+FFFD.
    func cString(_ offset: Int, limit: Int) -> String? {
        guard has(offset, 0), limit >= 0 else { return nil }
        let end = offset + min(limit, buffer.count - offset)
        var stop = offset
        while stop < end && buffer[stop] != 0 { stop += 1 }
        return String(decoding: UnsafeRawBufferPointer(rebasing: buffer[offset..<stop]), as: UTF8.self)
    }

    /// A fixed-width field holding a string padded with NULs (Mach-O segment and section names).
    func fixedString(_ offset: Int, _ length: Int) -> String? {
        guard has(offset, length) else { return nil }
        return cString(offset, limit: length)
    }

    /// ULEB128 at `offset`; nil when it runs past `end` or does not fit 64 bits.
    func uleb128(_ offset: inout Int, end: Int) -> UInt64? {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while offset < end, let byte = u8(offset) {
            offset += 1
            let bits = UInt64(byte & 0x7f)
            if shift >= 64 || (shift == 63 && bits > 1) { return nil }
            result |= bits << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
        return nil
    }

    /// SLEB128 at `offset`; nil when it runs past `end` or does not fit 64 bits.
    func sleb128(_ offset: inout Int, end: Int) -> Int64? {
        var result: Int64 = 0
        var shift: Int64 = 0
        while offset < end, let byte = u8(offset) {
            offset += 1
            if shift >= 64 { return nil }
            result |= Int64(byte & 0x7f) << shift
            shift += 7
            if byte & 0x80 == 0 {
                if shift < 64 && byte & 0x40 != 0 { result |= Int64(-1) << shift }
                return result
            }
        }
        return nil
    }

    /// A file-supplied offset or length as an `Int`, when it fits.
    static func offset<T: BinaryInteger>(_ value: T) -> Int? { Int(exactly: value) }

    /// `a + b` when it does not overflow.
    static func add(_ a: Int, _ b: Int) -> Int? {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? nil : sum
    }

    /// `a * b` when it does not overflow.
    static func multiply(_ a: Int, _ b: Int) -> Int? {
        let (product, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? nil : product
    }
}

extension Data {
    /// Runs `body` with a bounds-checked view of the bytes.
    func withRawBytes<Result>(_ body: (RawBytes) throws -> Result) rethrows -> Result {
        try withUnsafeBytes { try body(RawBytes($0)) }
    }
}
