import Foundation

/// Reads `bplist00` binary property lists into `PlistNode` trees, with every offset, count and reference
/// checked. Moat does not hand attacker-made binary plists to Foundation: its bridging crashed on
/// crafted input during fuzzing (a set object), and a binary plist can encode cycles and exponential
/// sharing. Limits: nesting depth, total nodes produced, and references that must point backwards into
/// the object table or at least not to an object already on the current path.
struct BinaryPlistReader {
    static let maximumNodes = 200_000

    private let bytes: [UInt8]
    private let offsetSize: Int
    private let referenceSize: Int
    private let objectCount: Int
    private let topObject: Int
    private let offsetTableStart: Int
    private var producedNodes = 0
    /// Strings and data already decoded, by object: an object referenced from many places (up to
    /// `maximumNodes` in a DAG) is decoded once and its storage shared, not copied per reference.
    private var decoded: [Int: PlistNode.Value] = [:]

    static func read(_ data: Data) throws -> PlistNode {
        var reader = try BinaryPlistReader(bytes: [UInt8](data))
        var path = Set<Int>()
        return try reader.object(reader.topObject, keyPath: "", depth: 0, path: &path)
    }

    private init(bytes: [UInt8]) throws {
        self.bytes = bytes
        guard bytes.count >= 8 + 32, bytes.starts(with: Array("bplist0".utf8)) else {
            throw PropertyListError("malformed binary property list: too short")
        }
        let trailer = bytes.count - 32
        offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        guard [1, 2, 4, 8].contains(offsetSize), [1, 2, 4, 8].contains(referenceSize) else {
            throw PropertyListError("malformed binary property list: bad offset or reference size")
        }
        let count = Self.bigEndian(bytes, at: trailer + 8, size: 8)
        let top = Self.bigEndian(bytes, at: trailer + 16, size: 8)
        let tableStart = Self.bigEndian(bytes, at: trailer + 24, size: 8)
        guard count > 0, count <= UInt64(bytes.count), top < count, tableStart >= 8, tableStart < UInt64(trailer) else {
            throw PropertyListError("malformed binary property list: trailer out of range")
        }
        let (tableBytes, overflow) = count.multipliedReportingOverflow(by: UInt64(offsetSize))
        guard !overflow, tableStart + tableBytes <= UInt64(trailer) else {
            throw PropertyListError("malformed binary property list: offset table past the end")
        }
        objectCount = Int(count)
        topObject = Int(top)
        offsetTableStart = Int(tableStart)
    }

    private static func bigEndian(_ bytes: [UInt8], at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in 0..<size { value = value << 8 | UInt64(bytes[offset + index]) }
        return value
    }

    private func offset(of object: Int) throws -> Int {
        let entry = offsetTableStart + object * offsetSize
        let value = Self.bigEndian(bytes, at: entry, size: offsetSize)
        guard value >= 8, value < UInt64(offsetTableStart) else {
            throw PropertyListError("malformed binary property list: object \(object) outside the object area")
        }
        return Int(value)
    }

    private func need(_ start: Int, _ length: Int) throws {
        guard length >= 0, start >= 0, start <= offsetTableStart, length <= offsetTableStart - start else {
            throw PropertyListError("malformed binary property list: object runs past the object area")
        }
    }

    /// The count in a marker's low nibble, or in the integer object that follows when the nibble is 0xF.
    private func count(at position: Int, marker: UInt8) throws -> (count: Int, start: Int) {
        let nibble = Int(marker & 0x0F)
        if nibble != 0x0F { return (nibble, position + 1) }
        try need(position + 1, 1)
        let intMarker = bytes[position + 1]
        guard intMarker & 0xF0 == 0x10 else { throw PropertyListError("malformed binary property list: bad length") }
        let size = 1 << Int(intMarker & 0x0F)
        guard size <= 8 else { throw PropertyListError("malformed binary property list: length too large") }
        try need(position + 2, size)
        let value = Self.bigEndian(bytes, at: position + 2, size: size)
        guard value <= UInt64(bytes.count) else { throw PropertyListError("malformed binary property list: length too large") }
        return (Int(value), position + 2 + size)
    }

    private func reference(at position: Int) throws -> Int {
        try need(position, referenceSize)
        let value = Self.bigEndian(bytes, at: position, size: referenceSize)
        guard value < UInt64(objectCount) else { throw PropertyListError("malformed binary property list: reference out of range") }
        return Int(value)
    }

    private mutating func object(_ index: Int, keyPath: String, depth: Int, path: inout Set<Int>) throws -> PlistNode {
        guard depth <= PropertyListParser.maximumDepth else {
            throw PropertyListError("property list nested deeper than \(PropertyListParser.maximumDepth) levels")
        }
        producedNodes += 1
        guard producedNodes <= Self.maximumNodes else {
            throw PropertyListError("binary property list expands to more than \(Self.maximumNodes) values")
        }
        guard path.insert(index).inserted else { throw PropertyListError("malformed binary property list: reference cycle") }
        defer { path.remove(index) }
        let position = try offset(of: index)
        try need(position, 1)
        let marker = bytes[position]
        func node(_ value: PlistNode.Value) -> PlistNode { PlistNode(value: value, keyPath: keyPath, line: nil) }
        if let known = decoded[index] { return node(known) }
        func shared(_ value: PlistNode.Value) -> PlistNode {
            decoded[index] = value
            return node(value)
        }
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x08: return node(.bool(false))
            case 0x09: return node(.bool(true))
            default: throw PropertyListError("malformed binary property list: unsupported value 0x\(String(marker, radix: 16))")
            }
        case 0x1:
            let size = 1 << Int(marker & 0x0F)
            guard size <= 16 else { throw PropertyListError("malformed binary property list: integer too large") }
            try need(position + 1, size)
            let value = Self.bigEndian(bytes, at: position + 1 + max(0, size - 8), size: min(size, 8))
            return node(.integer(Int64(bitPattern: value)))
        case 0x2:
            let size = 1 << Int(marker & 0x0F)
            try need(position + 1, size)
            if size == 4 { return node(.real(Double(Float(bitPattern: UInt32(Self.bigEndian(bytes, at: position + 1, size: 4)))))) }
            if size == 8 { return node(.real(Double(bitPattern: Self.bigEndian(bytes, at: position + 1, size: 8)))) }
            throw PropertyListError("malformed binary property list: bad real size")
        case 0x3:
            try need(position + 1, 8)
            let seconds = Double(bitPattern: Self.bigEndian(bytes, at: position + 1, size: 8))
            return node(.date(Date(timeIntervalSinceReferenceDate: seconds.isFinite ? seconds : 0)))
        case 0x4:
            let (length, start) = try count(at: position, marker: marker)
            try need(start, length)
            return shared(.data(Data(bytes[start..<(start + length)])))
        case 0x5:
            let (length, start) = try count(at: position, marker: marker)
            try need(start, length)
            return shared(.string(String(decoding: bytes[start..<(start + length)], as: UTF8.self)))
        case 0x6:
            let (length, start) = try count(at: position, marker: marker)
            let (byteLength, overflow) = length.multipliedReportingOverflow(by: 2)
            guard !overflow else { throw PropertyListError("malformed binary property list: string too long") }
            try need(start, byteLength)
            var units: [UInt16] = []
            units.reserveCapacity(length)
            for unit in 0..<length { units.append(UInt16(bytes[start + 2 * unit]) << 8 | UInt16(bytes[start + 2 * unit + 1])) }
            return shared(.string(String(decoding: units, as: UTF16.self)))
        case 0x8:
            let size = Int(marker & 0x0F) + 1
            try need(position + 1, size)
            return node(.integer(Int64(bitPattern: Self.bigEndian(bytes, at: position + 1, size: min(size, 8)))))
        case 0xA, 0xC:
            let (length, start) = try count(at: position, marker: marker)
            let (byteLength, overflow) = length.multipliedReportingOverflow(by: referenceSize)
            guard !overflow else { throw PropertyListError("malformed binary property list: array too long") }
            try need(start, byteLength)
            var elements: [PlistNode] = []
            for element in 0..<length {
                let child = try reference(at: start + element * referenceSize)
                elements.append(try object(child, keyPath: PlistNode.keyPath(keyPath, index: element), depth: depth + 1, path: &path))
            }
            return node(.array(elements))
        case 0xD:
            let (length, start) = try count(at: position, marker: marker)
            let (byteLength, overflow) = length.multipliedReportingOverflow(by: referenceSize * 2)
            guard !overflow else { throw PropertyListError("malformed binary property list: dictionary too long") }
            try need(start, byteLength)
            var entries: [PlistEntry] = []
            for entry in 0..<length {
                let keyReference = try reference(at: start + entry * referenceSize)
                let valueReference = try reference(at: start + (length + entry) * referenceSize)
                let keyNode = try object(keyReference, keyPath: keyPath, depth: depth + 1, path: &path)
                guard let key = keyNode.string else { throw PropertyListError("malformed binary property list: a dictionary key is not a string") }
                let childPath = PlistNode.keyPath(keyPath, key: key)
                entries.append(PlistEntry(key: key, keyLine: nil,
                                          value: try object(valueReference, keyPath: childPath, depth: depth + 1, path: &path)))
            }
            return node(.dictionary(entries))
        default:
            throw PropertyListError("malformed binary property list: unknown object type 0x\(String(marker, radix: 16))")
        }
    }
}
