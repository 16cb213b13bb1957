import Foundation

/// Class names referenced by compiled Interface Builder files.
///
/// - `NIBArchive` files: the class-name table (every object's class is listed there once).
/// - Keyed-archive binary plists (older nibs): every `$classname` value.
/// - Anything else: printable runs that look like class names (start with an upper-case letter, or the
///   `_Tt` of a mangled Swift class; letters, digits, `_`, `.` and `$`).
enum InterfaceBuilderClassNames {
    static let maximumNames = 10_000

    static func classNames(in data: Data) -> [String] {
        if data.starts(with: Array("NIBArchive".utf8)), let names = nibArchiveClassNames(data) { return names }
        if data.starts(with: Array("bplist".utf8)), let names = keyedArchiveClassNames(data) { return names }
        return printableClassNames(data)
    }

    /// The class table of a `NIBArchive`: a header of ten little-endian 32-bit values after the magic
    /// (format and coder versions, then count and offset of objects, keys, values and class names);
    /// each class name entry is a length and an extras count (variable-length integers whose last byte
    /// has the high bit set), four bytes per extra, then the NUL-terminated name.
    static func nibArchiveClassNames(_ data: Data) -> [String]? {
        data.withRawBytes { bytes -> [String]? in
            guard let count32 = bytes.u32(42), let offset32 = bytes.u32(46) else { return nil }
            let count = Int(count32)
            var offset = Int(offset32)
            guard count <= maximumNames, offset <= bytes.count else { return nil }
            func varint() -> Int? {
                var value = 0
                var shift = 0
                while shift < 35, let byte = bytes.u8(offset) {
                    offset += 1
                    value |= Int(byte & 0x7f) << shift
                    if byte & 0x80 != 0 { return value }
                    shift += 7
                }
                return nil
            }
            var names: [String] = []
            for _ in 0..<count {
                guard let length = varint(), let extras = varint(), extras <= 1024,
                      let skipped = RawBytes.add(offset, extras * 4), let nameEnd = RawBytes.add(skipped, length),
                      nameEnd <= bytes.count, let raw = bytes.data(skipped, length) else { return nil }
                offset = nameEnd
                let name = String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                guard isClassName(name) else { return nil }
                names.append(name)
            }
            return names
        }
    }

    static func keyedArchiveClassNames(_ data: Data) -> [String]? {
        guard let document = try? PropertyListParser.parse(data: data, path: "nib", kind: .other) else { return nil }
        var names: [String] = []
        var seen = Set<String>()
        var stack = [document.root]
        var visited = 0
        while let node = stack.popLast(), visited < 1_000_000 {
            visited += 1
            switch node.value {
            case .dictionary(let entries):
                for entry in entries {
                    if entry.key == "$classname", let name = entry.value.string, seen.insert(name).inserted {
                        names.append(name)
                    } else {
                        stack.append(entry.value)
                    }
                }
            case .array(let elements):
                stack.append(contentsOf: elements.reversed())
            default:
                break
            }
            if names.count >= maximumNames { break }
        }
        return names
    }

    static func printableClassNames(_ data: Data) -> [String] {
        data.withRawBytes { bytes in
            var names: [String] = []
            var seen = Set<String>()
            var start = 0
            let buffer = bytes.buffer
            func isNameByte(_ byte: UInt8) -> Bool {
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a)
                    || byte == 0x5f || byte == 0x2e || byte == 0x24
            }
            for index in 0...buffer.count {
                if index < buffer.count && isNameByte(buffer[index]) { continue }
                let length = index - start
                if length >= 3 && length <= 256 {
                    let name = String(decoding: UnsafeRawBufferPointer(rebasing: buffer[start..<index]), as: UTF8.self)
                    if isClassName(name), seen.insert(name).inserted {
                        names.append(name)
                        if names.count >= maximumNames { return names }
                    }
                }
                start = index + 1
            }
            return names
        }
    }

    static func isClassName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, name.utf8.count <= 256 else { return false }
        guard ("A"..."Z").contains(first) || name.hasPrefix("_Tt") else { return false }
        return name.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "_.$".unicodeScalars.contains(scalar))
        }
    }
}
