// A compact binary form for what the result cache keeps per file (findings, the file's summary, its
// suppressions and errors, the dataflow facts). Every analyzed file's entry is written on a cold scan and
// read on a warm one; the generic Codable encoders cost more than the rest of storing an entry.
//
// Integers are LEB128 (zigzag for signed values), strings a length and UTF-8 bytes, lists a count and
// their elements, optionals a 0/1 byte then the value, enums their raw value. Reading is bounds-checked:
// a truncated or corrupt form throws `BinaryReader.Malformed`, never crashes. Each form that uses these
// starts with its own magic and version (`FactsCoding`, `ResultCache`), so a changed layout is a miss.

public struct BinaryWriter {
    public var bytes: [UInt8] = []

    @inlinable public init() {}

    @inlinable public mutating func unsigned(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    @inlinable public mutating func int(_ value: Int) {
        let signed = Int64(value)
        unsigned(UInt64(bitPattern: (signed << 1) ^ (signed >> 63)))
    }

    @inlinable public mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }

    @inlinable public mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            unsigned(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    @inlinable public mutating func raw(_ value: [UInt8]) {
        unsigned(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    @inlinable public mutating func optional<T>(_ value: T?, _ write: (inout BinaryWriter, T) -> Void) {
        guard let value else { return bool(false) }
        bool(true)
        write(&self, value)
    }

    @inlinable public mutating func list<T>(_ values: [T], _ write: (inout BinaryWriter, T) -> Void) {
        unsigned(UInt64(values.count))
        for value in values { write(&self, value) }
    }

    /// A dictionary as a count and its pairs (in the dictionary's order: readers must not depend on it).
    @inlinable public mutating func dictionary<Key, Value>(_ values: [Key: Value], _ write: (inout BinaryWriter, Key, Value) -> Void) {
        unsigned(UInt64(values.count))
        for (key, value) in values { write(&self, key, value) }
    }

    @inlinable public mutating func strings(_ values: [String]) {
        unsigned(UInt64(values.count))
        for value in values { string(value) }
    }

    @inlinable public mutating func optionalString(_ value: String?) {
        guard let value else { return bool(false) }
        bool(true)
        string(value)
    }
}

public struct BinaryReader {
    public struct Malformed: Error {
        @inlinable public init() {}
    }

    public let bytes: [UInt8]
    public var offset = 0

    @inlinable public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    @inlinable public var atEnd: Bool { offset == bytes.count }

    /// Whether the bytes start with `prefix` (then reading goes on after it).
    @inlinable public mutating func expect(_ prefix: [UInt8]) -> Bool {
        guard bytes.count >= prefix.count, bytes[0..<prefix.count].elementsEqual(prefix) else { return false }
        offset = prefix.count
        return true
    }

    @inlinable public mutating func byte() throws -> UInt8 {
        guard offset < bytes.count else { throw Malformed() }
        defer { offset += 1 }
        return bytes[offset]
    }

    @inlinable public mutating func unsigned() throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let next = try byte()
            guard shift < 64 else { throw Malformed() }
            result |= UInt64(next & 0x7F) << shift
            if next & 0x80 == 0 { return result }
            shift += 7
        }
    }

    /// A count of items still to read: never more than the bytes left (each item takes at least one).
    @inlinable public mutating func count() throws -> Int {
        let value = try unsigned()
        guard value <= UInt64(bytes.count - offset) else { throw Malformed() }
        return Int(value)
    }

    @inlinable public mutating func int() throws -> Int {
        let raw = try unsigned()
        let value = Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
        guard let result = Int(exactly: value) else { throw Malformed() }
        return result
    }

    @inlinable public mutating func bool() throws -> Bool {
        switch try byte() {
        case 0: return false
        case 1: return true
        default: throw Malformed()
        }
    }

    @inlinable public mutating func string() throws -> String {
        let length = try count()
        defer { offset += length }
        return String(decoding: bytes[offset..<offset + length], as: UTF8.self)
    }

    @inlinable public mutating func raw() throws -> [UInt8] {
        let length = try count()
        defer { offset += length }
        return Array(bytes[offset..<offset + length])
    }

    @inlinable public mutating func optional<T>(_ read: (inout BinaryReader) throws -> T) throws -> T? {
        try bool() ? try read(&self) : nil
    }

    @inlinable public mutating func list<T>(_ read: (inout BinaryReader) throws -> T) throws -> [T] {
        let count = try count()
        var result: [T] = []
        result.reserveCapacity(count)
        for _ in 0..<count { result.append(try read(&self)) }
        return result
    }

    /// A dictionary `BinaryWriter.dictionary` wrote: a count and its pairs.
    @inlinable public mutating func dictionary<Key: Hashable, Value>(_ read: (inout BinaryReader) throws -> (Key, Value)) throws -> [Key: Value] {
        let count = try count()
        var result: [Key: Value] = [:]
        result.reserveCapacity(count)
        for _ in 0..<count {
            let (key, value) = try read(&self)
            result[key] = value
        }
        return result
    }

    @inlinable public mutating func strings() throws -> [String] {
        let count = try count()
        var result: [String] = []
        result.reserveCapacity(count)
        for _ in 0..<count { result.append(try string()) }
        return result
    }

    @inlinable public mutating func optionalString() throws -> String? {
        try bool() ? try string() : nil
    }

    /// A value of a `String`-backed enum, stored as its raw value.
    @inlinable public mutating func rawValue<T: RawRepresentable>(_ type: T.Type) throws -> T where T.RawValue == String {
        guard let value = T(rawValue: try string()) else { throw Malformed() }
        return value
    }
}

// MARK: The core types of a cached entry

extension BinaryWriter {
    public mutating func location(_ value: Location) {
        string(value.path)
        int(value.line)
        int(value.column)
        optionalString(value.keyPath)
        optionalString(value.symbol)
    }

    public mutating func finding(_ value: Finding) {
        string(value.ruleId)
        string(value.slug)
        string(value.title)
        string(value.severity.rawValue)
        string(value.confidence.rawValue)
        string(value.message)
        location(value.location)
        list(value.related) { writer, related in
            writer.location(related.location)
            writer.string(related.message)
        }
        list(value.cwe) { $0.int($1) }
        strings(value.masvs)
        strings(value.mastg)
        string(value.fix)
        string(value.fingerprint)
        bool(value.isTestCode)
        optional(value.nonShippingReason) { $0.string($1.rawValue) }
        optionalString(value.evidence)
        optional(value.suppression) { writer, suppression in
            writer.string(suppression.reason)
            writer.location(suppression.location)
        }
        optional(value.inventory) { writer, item in
            writer.string(item.kind.rawValue)
            writer.string(item.name)
            writer.optionalString(item.detail)
        }
        optional(value.suite) { $0.string($1.rawValue) }
    }

    public mutating func scanError(_ value: ScanError) {
        string(value.path)
        string(value.message)
    }

    public mutating func nonShippingRegion(_ value: NonShippingRegion) {
        int(value.startLine)
        int(value.startColumn)
        int(value.endLine)
        int(value.endColumn)
        string(value.reason.rawValue)
        optionalString(value.condition)
    }
}

extension BinaryReader {
    /// A location exactly as written (`Location.init` would raise a line or column below 1).
    public mutating func findingLocation() throws -> Location {
        let path = try string()
        let line = try int()
        let column = try int()
        var location = Location(path: path, line: line, column: column, keyPath: try optionalString(), symbol: try optionalString())
        location.line = line
        location.column = column
        return location
    }

    /// A finding exactly as written (the test-code flag and the non-shipping reason are not derived again).
    public mutating func finding() throws -> Finding {
        let ruleId = try string()
        let slug = try string()
        let title = try string()
        let severity = try rawValue(Severity.self)
        let confidence = try rawValue(Confidence.self)
        let message = try string()
        let location = try findingLocation()
        let related = try list { RelatedLocation(location: try $0.findingLocation(), message: try $0.string()) }
        let cwe = try list { try $0.int() }
        let masvs = try strings()
        let mastg = try strings()
        let fix = try string()
        let fingerprint = try string()
        let isTestCode = try bool()
        let nonShippingReason = try optional { try $0.rawValue(NonShippingReason.self) }
        let evidence = try optionalString()
        let suppression = try optional { Suppression(reason: try $0.string(), location: try $0.findingLocation()) }
        let inventory = try optional { reader in
            InventoryItem(try reader.rawValue(InventoryItem.Kind.self), name: try reader.string(), detail: try reader.optionalString())
        }
        let suite = try optional { try $0.rawValue(RuleSuite.self) }
        var finding = Finding(ruleId: ruleId, slug: slug, title: title, severity: severity, confidence: confidence, message: message,
                              location: location, related: related, cwe: cwe, masvs: masvs, mastg: mastg, fix: fix,
                              fingerprint: fingerprint, evidence: evidence, suppression: suppression, inventory: inventory)
        finding.isTestCode = isTestCode
        finding.nonShippingReason = nonShippingReason
        finding.suite = suite
        return finding
    }

    public mutating func scanError() throws -> ScanError {
        ScanError(path: try string(), message: try string())
    }

    public mutating func nonShippingRegion() throws -> NonShippingRegion {
        NonShippingRegion(startLine: try int(), startColumn: try int(), endLine: try int(), endColumn: try int(),
                          reason: try rawValue(NonShippingReason.self), condition: try optionalString())
    }
}
