import Foundation

/// Reads a JSON file (a configuration bundled as a resource) into the same `PlistNode` tree as property
/// lists, with the line of every key, so resource rules read JSON and plists alike. RFC 8259 JSON plus the
/// two extensions hand-written configuration files use (and `JSONSerialization`'s JSON5 mode reads):
/// `//` and `/* */` comments and trailing commas; anything else is an error naming the line. Bounded: at most
/// `PropertyListParser.maximumDepth` levels of nesting. `null` values are left out of the tree (objects
/// and arrays keep their other members; array indexes count only the kept elements).
public enum JSONDocumentReader {
    public static func parse(data: Data, path: String) throws -> PropertyListDocument {
        guard data.count <= PropertyListParser.maximumSize else {
            throw PropertyListError("JSON file is \(data.count) bytes, larger than the \(PropertyListParser.maximumSize)-byte limit")
        }
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        guard String(validating: bytes, as: UTF8.self) != nil else { throw PropertyListError("JSON file is not valid UTF-8") }
        var parser = Parser(bytes: bytes)
        parser.skipWhitespace()
        guard parser.index < bytes.count else { throw PropertyListError("empty JSON file") }
        guard let root = try parser.value(keyPath: "", line: parser.line, depth: 0) else {
            throw PropertyListError("JSON file holds only null")
        }
        parser.skipWhitespace()
        if parser.index < bytes.count { throw parser.error("unexpected text after the JSON value") }
        return PropertyListDocument(path: path, format: .json, kind: .other, root: root)
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0
        var line = 1

        init(bytes: [UInt8]) { self.bytes = bytes }

        func error(_ message: String) -> PropertyListError {
            PropertyListError("malformed JSON at line \(line): \(message)")
        }

        /// Skips whitespace and comments (an unterminated `/*` comment runs to the end, where the value is
        /// then missing).
        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x0A: line += 1; index += 1
                case 0x20, 0x09, 0x0D: index += 1
                case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/"):
                    while index < bytes.count, bytes[index] != 0x0A { index += 1 }
                case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "*"):
                    index += 2
                    while index < bytes.count, !(bytes[index] == UInt8(ascii: "*") && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/")) {
                        if bytes[index] == 0x0A { line += 1 }
                        index += 1
                    }
                    index = min(index + 2, bytes.count)
                default: return
                }
            }
        }

        mutating func expect(_ byte: UInt8) throws {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == byte else {
                throw error("expected '\(Character(Unicode.Scalar(byte)))'")
            }
            index += 1
        }

        /// A value; nil for `null`.
        mutating func value(keyPath: String, line valueLine: Int, depth: Int) throws -> PlistNode? {
            guard depth < PropertyListParser.maximumDepth else {
                throw error("nested deeper than \(PropertyListParser.maximumDepth) levels")
            }
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file") }
            let startLine = line
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var entries: [PlistEntry] = []
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return PlistNode(value: .dictionary([]), keyPath: keyPath, line: startLine)
                }
                while true {
                    skipWhitespace()
                    // A trailing comma before the closing brace.
                    if index < bytes.count, bytes[index] == UInt8(ascii: "}"), !entries.isEmpty { index += 1; break }
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a key in quotes") }
                    let keyLine = line
                    let key = try string()
                    try expect(UInt8(ascii: ":"))
                    let childPath = PlistNode.keyPath(keyPath, key: key)
                    if let child = try value(keyPath: childPath, line: keyLine, depth: depth + 1) {
                        entries.append(PlistEntry(key: key, keyLine: keyLine, value: child))
                    }
                    skipWhitespace()
                    guard index < bytes.count else { throw error("unexpected end of file in an object") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    if bytes[index] == UInt8(ascii: "}") { index += 1; break }
                    throw error("expected ',' or '}'")
                }
                return PlistNode(value: .dictionary(entries), keyPath: keyPath, line: valueLine)
            case UInt8(ascii: "["):
                index += 1
                var elements: [PlistNode] = []
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return PlistNode(value: .array([]), keyPath: keyPath, line: valueLine)
                }
                var sawElement = false
                while true {
                    skipWhitespace()
                    // A trailing comma before the closing bracket.
                    if index < bytes.count, bytes[index] == UInt8(ascii: "]"), sawElement { index += 1; break }
                    sawElement = true
                    let elementLine = line
                    if let element = try value(keyPath: PlistNode.keyPath(keyPath, index: elements.count), line: elementLine, depth: depth + 1) {
                        elements.append(element)
                    }
                    skipWhitespace()
                    guard index < bytes.count else { throw error("unexpected end of file in an array") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    if bytes[index] == UInt8(ascii: "]") { index += 1; break }
                    throw error("expected ',' or ']'")
                }
                return PlistNode(value: .array(elements), keyPath: keyPath, line: valueLine)
            case UInt8(ascii: "\""):
                return PlistNode(value: .string(try string()), keyPath: keyPath, line: valueLine)
            case UInt8(ascii: "t"):
                try word("true")
                return PlistNode(value: .bool(true), keyPath: keyPath, line: valueLine)
            case UInt8(ascii: "f"):
                try word("false")
                return PlistNode(value: .bool(false), keyPath: keyPath, line: valueLine)
            case UInt8(ascii: "n"):
                try word("null")
                return nil
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return PlistNode(value: try number(), keyPath: keyPath, line: valueLine)
            default:
                throw error("unexpected character '\(Character(Unicode.Scalar(bytes[index])))'")
            }
        }

        mutating func word(_ text: String) throws {
            let expected = Array(text.utf8)
            guard bytes.count - index >= expected.count, Array(bytes[index..<(index + expected.count)]) == expected else {
                throw error("unexpected word")
            }
            index += expected.count
        }

        mutating func number() throws -> PlistNode.Value {
            let start = index
            var isInteger = true
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            func digits() -> Int {
                let first = index
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
                return index - first
            }
            guard digits() > 0 else { throw error("malformed number") }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                isInteger = false
                index += 1
                guard digits() > 0 else { throw error("malformed number") }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                isInteger = false
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard digits() > 0 else { throw error("malformed number") }
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            if isInteger, let integer = Int64(text) { return .integer(integer) }
            return .real(Double(text) ?? 0)
        }

        /// A string at `"`, escapes decoded.
        mutating func string() throws -> String {
            index += 1
            var scalars = String.UnicodeScalarView()
            var run = index
            var text = ""
            func flush(_ end: Int) {
                if end > run { text += String(decoding: bytes[run..<end], as: UTF8.self) }
            }
            while true {
                guard index < bytes.count else { throw error("unterminated string") }
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    flush(index)
                    index += 1
                    break
                }
                if byte < 0x20 { throw error("control character in a string") }
                if byte != UInt8(ascii: "\\") {
                    index += 1
                    continue
                }
                flush(index)
                index += 1
                guard index < bytes.count else { throw error("unterminated string") }
                let escape = bytes[index]
                index += 1
                scalars.removeAll()
                switch escape {
                case UInt8(ascii: "\""): text += "\""
                case UInt8(ascii: "\\"): text += "\\"
                case UInt8(ascii: "/"): text += "/"
                case UInt8(ascii: "b"): text += "\u{8}"
                case UInt8(ascii: "f"): text += "\u{C}"
                case UInt8(ascii: "n"): text += "\n"
                case UInt8(ascii: "r"): text += "\r"
                case UInt8(ascii: "t"): text += "\t"
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800...0xDBFF).contains(code), bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"),
                       bytes[index + 1] == UInt8(ascii: "u") {
                        index += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid surrogate pair") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
                    scalars.append(scalar)
                    text += String(scalars)
                default:
                    throw error("invalid escape")
                }
                run = index
            }
            return text
        }

        mutating func hex4() throws -> UInt32 {
            guard bytes.count - index >= 4 else { throw error("short \\u escape") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
                default: throw error("invalid \\u escape")
                }
                value = value * 16 + digit
                index += 1
            }
            return value
        }
    }
}
