import Foundation

/// One ASN.1 element (tag, length, content) found by `DERReader`.
public struct DERElement: Sendable, Hashable {
    public enum TagClass: UInt8, Sendable {
        case universal = 0, application = 1, contextSpecific = 2, privateUse = 3
    }

    public let tagClass: TagClass
    public let isConstructed: Bool
    public let tagNumber: UInt32
    /// Offset of the tag byte.
    public let offset: Int
    public let contentOffset: Int
    public let contentLength: Int
    /// BER indefinite length (content ends with an end-of-contents marker, not counted in the length).
    public let isIndefinite: Bool

    /// Offset just past the element (its end-of-contents marker included).
    public var endOffset: Int { contentOffset + contentLength + (isIndefinite ? 2 : 0) }

    public func isUniversal(_ number: UInt32) -> Bool { tagClass == .universal && tagNumber == number }
    public func isContextSpecific(_ number: UInt32) -> Bool { tagClass == .contextSpecific && tagNumber == number }

    public static let sequence: UInt32 = 16
    public static let set: UInt32 = 17
    public static let objectIdentifier: UInt32 = 6
    public static let octetString: UInt32 = 4
    public static let integer: UInt32 = 2
}

/// A bounds-checked reader of DER (and the BER indefinite lengths some CMS writers use).
/// Lengths are checked against the enclosing element, long-form lengths may use at most four bytes,
/// and nesting and element counts are capped.
public struct DERReader: Sendable {
    public static let maximumDepth = 64
    public static let maximumLengthBytes = 4
    public static let maximumElements = 1_000_000

    public let data: Data

    public init(data: Data) { self.data = data }

    /// The element starting at `offset`, which must end by `end` (the enclosing content's end).
    public func element(at offset: Int, end: Int? = nil, depth: Int = 0) throws -> DERElement {
        try data.withRawBytes { try element(in: $0, at: offset, end: end ?? $0.count, depth: depth) }
    }

    /// The elements inside a constructed element.
    public func children(of parent: DERElement, depth: Int = 0) throws -> [DERElement] {
        try data.withRawBytes { try children(in: $0, of: parent, depth: depth) }
    }

    /// The content bytes of an element (a fresh copy).
    public func content(of element: DERElement) -> Data {
        data.withRawBytes { $0.data(element.contentOffset, element.contentLength) } ?? Data()
    }

    /// Walks the whole tree under the element at `offset`, checking every length, the depth cap and
    /// the element-count cap. Returns the number of elements.
    @discardableResult
    public func validate(at offset: Int = 0) throws -> Int {
        try data.withRawBytes { bytes in
            var count = 0
            func walk(_ element: DERElement, depth: Int) throws {
                count += 1
                guard count <= Self.maximumElements else {
                    throw BinaryFormatError(.der, "more than \(Self.maximumElements) elements")
                }
                guard element.isConstructed else { return }
                for child in try children(in: bytes, of: element, depth: depth) { try walk(child, depth: depth + 1) }
            }
            try walk(try element(in: bytes, at: offset, end: bytes.count, depth: 0), depth: 0)
            return count
        }
    }

    // MARK: Parsing

    func element(in bytes: RawBytes, at offset: Int, end: Int, depth: Int) throws -> DERElement {
        guard depth <= Self.maximumDepth else {
            throw BinaryFormatError(.der, "nested deeper than \(Self.maximumDepth) levels")
        }
        let limit = min(end, bytes.count)
        guard offset >= 0, offset < limit, let first = bytes.u8(offset) else {
            throw BinaryFormatError(.der, "element at offset \(offset) starts past the end")
        }
        var cursor = offset + 1
        var number = UInt32(first & 0x1f)
        if number == 0x1f {
            // High tag number: base-128, at most four bytes.
            number = 0
            var steps = 0
            while true {
                guard cursor < limit, let byte = bytes.u8(cursor), steps < 4 else {
                    throw BinaryFormatError(.der, "malformed tag at offset \(offset)")
                }
                number = number << 7 | UInt32(byte & 0x7f)
                cursor += 1
                steps += 1
                if byte & 0x80 == 0 { break }
            }
        }
        let tagClass = DERElement.TagClass(rawValue: first >> 6) ?? .universal
        let constructed = first & 0x20 != 0
        guard cursor < limit, let lengthByte = bytes.u8(cursor) else {
            throw BinaryFormatError(.der, "missing length at offset \(offset)")
        }
        cursor += 1
        var length = 0
        if lengthByte == 0x80 {
            guard constructed else { throw BinaryFormatError(.der, "indefinite length on a primitive element at offset \(offset)") }
            let contentOffset = cursor
            // Walk the children to find the end-of-contents marker.
            var position = contentOffset
            var elements = 0
            while true {
                guard position + 2 <= limit else {
                    throw BinaryFormatError(.der, "indefinite-length element at offset \(offset) has no end marker")
                }
                if bytes.u8(position) == 0 && bytes.u8(position + 1) == 0 { break }
                let child = try element(in: bytes, at: position, end: limit, depth: depth + 1)
                position = child.endOffset
                elements += 1
                guard elements <= Self.maximumElements else { throw BinaryFormatError(.der, "too many elements") }
            }
            return DERElement(tagClass: tagClass, isConstructed: true, tagNumber: number, offset: offset,
                              contentOffset: contentOffset, contentLength: position - contentOffset, isIndefinite: true)
        } else if lengthByte & 0x80 == 0 {
            length = Int(lengthByte)
        } else {
            let count = Int(lengthByte & 0x7f)
            guard count <= Self.maximumLengthBytes else {
                throw BinaryFormatError(.der, "length of \(count) bytes at offset \(offset) (limit \(Self.maximumLengthBytes))")
            }
            for _ in 0..<count {
                guard cursor < limit, let byte = bytes.u8(cursor) else {
                    throw BinaryFormatError(.der, "truncated length at offset \(offset)")
                }
                length = length << 8 | Int(byte)
                cursor += 1
            }
        }
        guard length <= limit - cursor else {
            throw BinaryFormatError(.der, "length \(length) at offset \(offset) runs past the end (\(limit - cursor) bytes left)")
        }
        return DERElement(tagClass: tagClass, isConstructed: constructed, tagNumber: number, offset: offset,
                          contentOffset: cursor, contentLength: length, isIndefinite: false)
    }

    func children(in bytes: RawBytes, of parent: DERElement, depth: Int) throws -> [DERElement] {
        guard parent.isConstructed else { return [] }
        var result: [DERElement] = []
        var position = parent.contentOffset
        let end = parent.contentOffset + parent.contentLength
        while position < end {
            let child = try element(in: bytes, at: position, end: end, depth: depth + 1)
            result.append(child)
            guard result.count <= Self.maximumElements else { throw BinaryFormatError(.der, "too many elements") }
            position = child.endOffset
        }
        return result
    }
}
