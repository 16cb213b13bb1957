import Foundation

/// A value of an OpenStep ("old-style ASCII") property list, as `project.pbxproj` files are written, with
/// the 1-based line and column (UTF-8 bytes) where it starts. Comments are dropped.
public struct OpenStepNode: Sendable {
    public indirect enum Value: Sendable {
        case string(String)
        case data([UInt8])
        case array([OpenStepNode])
        case dictionary([OpenStepEntry])
    }

    public var value: Value
    public var line: Int
    public var column: Int

    public init(value: Value, line: Int, column: Int) {
        self.value = value
        self.line = line
        self.column = column
    }

    public var string: String? {
        if case .string(let text) = value { return text }
        return nil
    }

    public var array: [OpenStepNode]? {
        if case .array(let elements) = value { return elements }
        return nil
    }

    public var entries: [OpenStepEntry]? {
        if case .dictionary(let entries) = value { return entries }
        return nil
    }

    /// The value of a key of a dictionary (the last one when a key is repeated, as Xcode does).
    public subscript(key: String) -> OpenStepNode? {
        entries?.last { $0.key == key }?.value
    }

    /// The entry (key position included) of a key of a dictionary.
    public func entry(_ key: String) -> OpenStepEntry? {
        entries?.last { $0.key == key }
    }

    /// Strings of an array value, or the string itself.
    public var strings: [String] {
        if let text = string { return [text] }
        return array?.compactMap(\.string) ?? []
    }
}

public struct OpenStepEntry: Sendable {
    public var key: String
    public var line: Int
    public var column: Int
    public var value: OpenStepNode

    public init(key: String, line: Int, column: Int, value: OpenStepNode) {
        self.key = key
        self.line = line
        self.column = column
        self.value = value
    }
}

/// A problem with an OpenStep text, with the line where it was found.
public struct OpenStepError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var line: Int

    public init(_ message: String, line: Int) {
        self.message = message
        self.line = line
    }

    public var description: String { "line \(line): \(message)" }
}

/// A positional reader of OpenStep property lists: `{ key = value; }`, `( a, b, )`, quoted and bare
/// strings, `<hex data>`, `/* */` and `//` comments. Unlike `PropertyListSerialization` it keeps the line
/// of every key and value, so a finding can point at the build setting that causes it. It works on UTF-8
/// bytes, never traps on hostile input and refuses nesting deeper than `maximumDepth`.
public struct OpenStepReader {
    public static let maximumDepth = 128

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Reads one value (normally the root dictionary) followed only by whitespace and comments.
    public static func read(_ data: Data) throws -> OpenStepNode {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var reader = OpenStepReader(bytes: bytes)
        try reader.skipTrivia()
        guard reader.index < reader.bytes.count else { throw OpenStepError("empty file", line: reader.line) }
        let root = try reader.readValue(depth: 0)
        try reader.skipTrivia()
        if reader.index < reader.bytes.count {
            throw OpenStepError("unexpected '\(reader.describeCurrent())' after the end of the property list", line: reader.line)
        }
        return root
    }

    private var column: Int { index - lineStart + 1 }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of file" }
        let byte = bytes[index]
        return byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : String(format: "\\x%02X", byte)
    }

    private mutating func advance() {
        guard index < bytes.count else { return }
        if bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        index += 1
    }

    private mutating func skipTrivia() throws {
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                advance()
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                let startLine = line
                advance()
                advance()
                while true {
                    guard index < bytes.count else { throw OpenStepError("unterminated /* comment", line: startLine) }
                    if bytes[index] == UInt8(ascii: "*"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
                        advance()
                        advance()
                        break
                    }
                    advance()
                }
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { advance() }
            } else {
                return
            }
        }
    }

    private mutating func expect(_ character: UInt8, _ context: String) throws {
        try skipTrivia()
        guard index < bytes.count else {
            throw OpenStepError("unexpected end of file: expected '\(Character(UnicodeScalar(character)))' \(context)", line: line)
        }
        guard bytes[index] == character else {
            throw OpenStepError("expected '\(Character(UnicodeScalar(character)))' \(context), found '\(describeCurrent())'", line: line)
        }
        advance()
    }

    private mutating func readValue(depth: Int) throws -> OpenStepNode {
        guard depth <= Self.maximumDepth else {
            throw OpenStepError("nested deeper than \(Self.maximumDepth) levels", line: line)
        }
        try skipTrivia()
        guard index < bytes.count else { throw OpenStepError("unexpected end of file: expected a value", line: line) }
        let startLine = line
        let startColumn = column
        switch bytes[index] {
        case UInt8(ascii: "{"):
            advance()
            var entries: [OpenStepEntry] = []
            while true {
                try skipTrivia()
                guard index < bytes.count else {
                    throw OpenStepError("unexpected end of file: dictionary opened at line \(startLine) is not closed", line: line)
                }
                if bytes[index] == UInt8(ascii: "}") {
                    advance()
                    break
                }
                let keyLine = line
                let keyColumn = column
                guard let key = try readString() else {
                    throw OpenStepError("expected a key or '}', found '\(describeCurrent())'", line: line)
                }
                try expect(UInt8(ascii: "="), "after key '\(key.prefix(60))'")
                let value = try readValue(depth: depth + 1)
                try expect(UInt8(ascii: ";"), "after the value of '\(key.prefix(60))'")
                entries.append(OpenStepEntry(key: key, line: keyLine, column: keyColumn, value: value))
            }
            return OpenStepNode(value: .dictionary(entries), line: startLine, column: startColumn)
        case UInt8(ascii: "("):
            advance()
            var elements: [OpenStepNode] = []
            while true {
                try skipTrivia()
                guard index < bytes.count else {
                    throw OpenStepError("unexpected end of file: array opened at line \(startLine) is not closed", line: line)
                }
                if bytes[index] == UInt8(ascii: ")") {
                    advance()
                    break
                }
                elements.append(try readValue(depth: depth + 1))
                try skipTrivia()
                guard index < bytes.count else {
                    throw OpenStepError("unexpected end of file: array opened at line \(startLine) is not closed", line: line)
                }
                if bytes[index] == UInt8(ascii: ",") {
                    advance()
                } else if bytes[index] != UInt8(ascii: ")") {
                    throw OpenStepError("expected ',' or ')' in array, found '\(describeCurrent())'", line: line)
                }
            }
            return OpenStepNode(value: .array(elements), line: startLine, column: startColumn)
        case UInt8(ascii: "<"):
            advance()
            var data: [UInt8] = []
            var high: UInt8?
            while true {
                guard index < bytes.count else { throw OpenStepError("unterminated <data>", line: startLine) }
                let byte = bytes[index]
                advance()
                if byte == UInt8(ascii: ">") { break }
                if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") { continue }
                guard let nibble = Self.hexValue(byte) else { throw OpenStepError("invalid character in <data>", line: line) }
                if let first = high {
                    data.append(first << 4 | nibble)
                    high = nil
                } else {
                    high = nibble
                }
            }
            guard high == nil else { throw OpenStepError("odd number of hex digits in <data>", line: startLine) }
            return OpenStepNode(value: .data(data), line: startLine, column: startColumn)
        default:
            guard let text = try readString() else {
                throw OpenStepError("expected a value, found '\(describeCurrent())'", line: line)
            }
            return OpenStepNode(value: .string(text), line: startLine, column: startColumn)
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private static func isBareCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "{"), UInt8(ascii: "}"),
             UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: ";"), UInt8(ascii: ","), UInt8(ascii: "="), UInt8(ascii: "\""),
             UInt8(ascii: "<"), UInt8(ascii: ">"):
            return false
        default:
            return true
        }
    }

    /// A quoted or bare string at the current position, or nil when there is none.
    private mutating func readString() throws -> String? {
        try skipTrivia()
        guard index < bytes.count else { return nil }
        let quote = bytes[index]
        if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
            let startLine = line
            advance()
            var output: [UInt8] = []
            while true {
                guard index < bytes.count else { throw OpenStepError("unterminated quoted string", line: startLine) }
                let byte = bytes[index]
                if byte == quote {
                    advance()
                    break
                }
                if byte == UInt8(ascii: "\\") {
                    advance()
                    guard index < bytes.count else { throw OpenStepError("unterminated quoted string", line: startLine) }
                    let escaped = bytes[index]
                    advance()
                    switch escaped {
                    case UInt8(ascii: "n"): output.append(UInt8(ascii: "\n"))
                    case UInt8(ascii: "t"): output.append(UInt8(ascii: "\t"))
                    case UInt8(ascii: "r"): output.append(UInt8(ascii: "\r"))
                    case UInt8(ascii: "a"): output.append(0x07)
                    case UInt8(ascii: "b"): output.append(0x08)
                    case UInt8(ascii: "f"): output.append(0x0C)
                    case UInt8(ascii: "v"): output.append(0x0B)
                    case UInt8(ascii: "U"), UInt8(ascii: "u"):
                        var scalar: UInt32 = 0
                        var digits = 0
                        while digits < 4, index < bytes.count, let nibble = Self.hexValue(bytes[index]) {
                            scalar = scalar << 4 | UInt32(nibble)
                            digits += 1
                            advance()
                        }
                        let character = UnicodeScalar(scalar).map { String(Character($0)) } ?? "\u{FFFD}"
                        output.append(contentsOf: Array(character.utf8))
                    case UInt8(ascii: "0")...UInt8(ascii: "7"):
                        var value = UInt32(escaped - UInt8(ascii: "0"))
                        var digits = 1
                        while digits < 3, index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "7") {
                            value = value * 8 + UInt32(bytes[index] - UInt8(ascii: "0"))
                            digits += 1
                            advance()
                        }
                        output.append(UInt8(truncatingIfNeeded: value))
                    default:
                        output.append(escaped)
                    }
                    continue
                }
                output.append(byte)
                advance()
            }
            return String(decoding: output, as: UTF8.self)
        }
        guard Self.isBareCharacter(quote), !(quote == UInt8(ascii: "/") && index + 1 < bytes.count
                                               && (bytes[index + 1] == UInt8(ascii: "*") || bytes[index + 1] == UInt8(ascii: "/"))) else {
            return nil
        }
        let start = index
        while index < bytes.count, Self.isBareCharacter(bytes[index]) {
            if bytes[index] == UInt8(ascii: "/"), index + 1 < bytes.count,
               bytes[index + 1] == UInt8(ascii: "*") || bytes[index + 1] == UInt8(ascii: "/") { break }
            advance()
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }
}
