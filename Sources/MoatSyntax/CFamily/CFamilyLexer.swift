// The C-family lexer: UTF-8 bytes in, tokens out. Comments, `#import` targets and preprocessor
// conditionals are collected on the way; every other directive (`#define`, `#pragma`...) is dropped with
// its continuation lines. It never fails: unterminated literals and comments end at the line or the file.

enum CTokenKind: UInt8 {
    case identifier
    /// `@interface`, `@YES`, `@selector`: `@` directly followed by a name. Text keeps the `@`.
    case atWord
    case number
    /// A string literal with its prefix (`L"..."`, `u8"..."`, C++ raw strings). Text is empty; the parser
    /// decodes the bytes. `@"..."` is the punctuator `@` followed by this.
    case string
    /// A character literal; text is the literal as written.
    case character
    case punct
    /// `#if`/`#ifdef`/`#ifndef`/`#elif`/`#else`/`#endif`; text is the condition.
    case directive
    case eof
}

enum CDirectiveKind: UInt8 {
    case none, ifGroup, elseIf, elseClause, endIf
}

struct CToken {
    var kind: CTokenKind
    var start: Int
    var end: Int
    var text: String
    /// First token of its line: only whitespace and comments before it.
    var newlineBefore: Bool = false
    var directive: CDirectiveKind = .none
    /// `#ifndef X` directly followed by `#define X`.
    var isHeaderGuard: Bool = false
    /// For a conditional directive kept as structure: the index of the next `#elif`/`#else`/`#endif` of its group.
    var partner: Int = -1

    init(kind: CTokenKind, start: Int, end: Int, text: String, newlineBefore: Bool = false) {
        self.kind = kind
        self.start = start
        self.end = end
        self.text = text
        self.newlineBefore = newlineBefore
    }

    func isPunct(_ value: String) -> Bool { kind == .punct && text == value }
    func isWord(_ value: String) -> Bool { kind == .identifier && text == value }
}

struct CFamilyLexer {
    private let bytes: [UInt8]
    private let cplusplus: Bool
    private var index = 0
    private var atLineStart = true
    private var pendingGuard: (token: Int, name: String)?

    private(set) var tokens: [CToken] = []
    private(set) var comments: [(start: Int, end: Int)] = []
    private(set) var imports: [String] = []
    private(set) var problems: [(offset: Int, message: String)] = []
    /// Object-like macros with a one-line body (`#define kKey @"…"`): the name and the byte range of the body.
    private(set) var defines: [(name: String, nameStart: Int, nameEnd: Int, bodyStart: Int, bodyEnd: Int)] = []

    init(bytes: [UInt8], cplusplus: Bool) {
        self.bytes = bytes
        self.cplusplus = cplusplus
    }

    // MARK: Character classes

    static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || byte == 0x5F || byte == 0x24 || byte >= 0x80
    }

    static func isIdentifierBody(_ byte: UInt8) -> Bool {
        isIdentifierStart(byte) || isDigit(byte)
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private func byte(_ offset: Int) -> UInt8? {
        offset >= 0 && offset < bytes.count ? bytes[offset] : nil
    }

    private func text(_ start: Int, _ end: Int) -> String {
        String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// Length of a backslash-newline at `offset` (2 or 3 with `\r\n`), or 0.
    private func continuationLength(at offset: Int) -> Int {
        guard byte(offset) == UInt8(ascii: "\\") else { return 0 }
        if byte(offset + 1) == UInt8(ascii: "\n") { return 2 }
        if byte(offset + 1) == UInt8(ascii: "\r"), byte(offset + 2) == UInt8(ascii: "\n") { return 3 }
        return 0
    }

    private mutating func emit(_ kind: CTokenKind, _ start: Int, _ end: Int, _ value: String) {
        tokens.append(CToken(kind: kind, start: start, end: end, text: value, newlineBefore: atLineStart))
        atLineStart = false
    }

    private mutating func problem(_ offset: Int, _ message: String) {
        problems.append((offset, message))
    }

    // MARK: Main loop

    mutating func tokenize() {
        let count = bytes.count
        if count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        while index < count {
            let current = bytes[index]
            switch current {
            case UInt8(ascii: "\n"):
                index += 1
                atLineStart = true
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), 0x0B, 0x0C, 0x00:
                index += 1
            case UInt8(ascii: "\\"):
                let length = continuationLength(at: index)
                if length > 0 { index += length } else { punctuator() }
            case UInt8(ascii: "/"):
                if byte(index + 1) == UInt8(ascii: "/") { lineComment() }
                else if byte(index + 1) == UInt8(ascii: "*") { blockComment() }
                else { punctuator() }
            case UInt8(ascii: "#"):
                if atLineStart { directive() } else { punctuator() }
            case UInt8(ascii: "\""):
                quoted(start: index, quoteAt: index, kind: .string)
            case UInt8(ascii: "'"):
                quoted(start: index, quoteAt: index, kind: .character)
            case UInt8(ascii: "."):
                if let next = byte(index + 1), Self.isDigit(next) { number() } else { punctuator() }
            case UInt8(ascii: "@"):
                if let next = byte(index + 1), Self.isIdentifierStart(next) { atWord() } else { punctuator() }
            default:
                if Self.isDigit(current) { number() }
                else if Self.isIdentifierStart(current) { identifierOrPrefixedLiteral() }
                else { punctuator() }
            }
        }
    }

    // MARK: Comments

    private mutating func lineComment() {
        let start = index
        let count = bytes.count
        while index < count, bytes[index] != UInt8(ascii: "\n") {
            let length = continuationLength(at: index)
            index += length > 0 ? length : 1
        }
        var end = index
        if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        comments.append((start, end))
    }

    private mutating func blockComment() {
        let start = index
        let count = bytes.count
        index += 2
        while index + 1 < count, !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/")) {
            index += 1
        }
        if index + 1 < count {
            index += 2
        } else {
            index = count
            problem(start, "unterminated comment")
        }
        comments.append((start, index))
    }

    // MARK: Literals, names, punctuators

    private mutating func quoted(start: Int, quoteAt quoteIndex: Int, kind: CTokenKind) {
        let quote = bytes[quoteIndex]
        let count = bytes.count
        var cursor = quoteIndex + 1
        var closed = false
        while cursor < count {
            let current = bytes[cursor]
            if current == quote {
                cursor += 1
                closed = true
                break
            }
            if current == UInt8(ascii: "\\") {
                let length = continuationLength(at: cursor)
                cursor += length > 0 ? length : min(2, count - cursor)
                continue
            }
            if current == UInt8(ascii: "\n") { break }
            cursor += 1
        }
        if !closed { problem(start, kind == .string ? "unterminated string literal" : "unterminated character literal") }
        index = cursor
        emit(kind, start, cursor, kind == .character ? text(start, cursor) : "")
    }

    /// C++ `R"delim( ... )delim"`. Returns false when the delimiter is malformed.
    private mutating func rawString(start: Int, quoteAt quoteIndex: Int) -> Bool {
        let count = bytes.count
        var cursor = quoteIndex + 1
        var delimiter: [UInt8] = []
        while cursor < count, bytes[cursor] != UInt8(ascii: "(") {
            let current = bytes[cursor]
            if delimiter.count >= 16 || current == UInt8(ascii: " ") || current == UInt8(ascii: ")")
                || current == UInt8(ascii: "\\") || current == UInt8(ascii: "\n") || current == UInt8(ascii: "\"") {
                return false
            }
            delimiter.append(current)
            cursor += 1
        }
        guard cursor < count else { return false }
        cursor += 1
        let closing = [UInt8(ascii: ")")] + delimiter + [UInt8(ascii: "\"")]
        while cursor < count {
            if bytes[cursor] == UInt8(ascii: ")"), cursor + closing.count <= count,
               bytes[cursor..<(cursor + closing.count)].elementsEqual(closing) {
                index = cursor + closing.count
                emit(.string, start, index, "")
                return true
            }
            cursor += 1
        }
        problem(start, "unterminated raw string literal")
        index = count
        emit(.string, start, index, "")
        return true
    }

    private mutating func identifierOrPrefixedLiteral() {
        let start = index
        let count = bytes.count
        var cursor = index
        while cursor < count, Self.isIdentifierBody(bytes[cursor]) { cursor += 1 }
        if cursor < count, bytes[cursor] == UInt8(ascii: "\"") || bytes[cursor] == UInt8(ascii: "'") {
            let prefix = text(start, cursor)
            let quote = bytes[cursor]
            if ["L", "u", "U", "u8"].contains(prefix) {
                quoted(start: start, quoteAt: cursor, kind: quote == UInt8(ascii: "\"") ? .string : .character)
                return
            }
            if cplusplus, quote == UInt8(ascii: "\""), ["R", "LR", "uR", "UR", "u8R"].contains(prefix) {
                if rawString(start: start, quoteAt: cursor) { return }
                quoted(start: start, quoteAt: cursor, kind: .string)
                return
            }
        }
        index = cursor
        emit(.identifier, start, cursor, text(start, cursor))
    }

    private mutating func atWord() {
        let start = index
        let count = bytes.count
        var cursor = index + 1
        while cursor < count, Self.isIdentifierBody(bytes[cursor]) { cursor += 1 }
        index = cursor
        emit(.atWord, start, cursor, text(start, cursor))
    }

    private mutating func number() {
        let start = index
        let count = bytes.count
        var cursor = index + 1
        while cursor < count {
            let current = bytes[cursor]
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") {
                let previous = bytes[cursor - 1] | 0x20
                let isHex = cursor - start >= 2 && (bytes[start + 1] | 0x20) == UInt8(ascii: "x") && bytes[start] == UInt8(ascii: "0")
                if previous == UInt8(ascii: "p") || (previous == UInt8(ascii: "e") && !isHex) {
                    cursor += 1
                    continue
                }
                break
            }
            if Self.isIdentifierBody(current) || current == UInt8(ascii: ".") {
                cursor += 1
                continue
            }
            if cplusplus, current == UInt8(ascii: "'"), let next = byte(cursor + 1), Self.isIdentifierBody(next) {
                cursor += 2
                continue
            }
            break
        }
        index = cursor
        emit(.number, start, cursor, text(start, cursor))
    }

    private static let threeCharacterPunctuators: Set<String> = ["...", "<<=", ">>=", "->*", "<=>"]
    private static let twoCharacterPunctuators: Set<String> = [
        "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
        "::", "##",
    ]

    private mutating func punctuator() {
        let start = index
        let count = bytes.count
        // Only ASCII reaches here (non-ASCII bytes are identifier characters).
        if start + 3 <= count {
            let candidate = text(start, start + 3)
            if Self.threeCharacterPunctuators.contains(candidate) {
                index += 3
                emit(.punct, start, index, candidate)
                return
            }
        }
        if start + 2 <= count {
            let candidate = text(start, start + 2)
            if Self.twoCharacterPunctuators.contains(candidate) {
                index += 2
                emit(.punct, start, index, candidate)
                return
            }
        }
        index += 1
        emit(.punct, start, index, text(start, index))
    }

    // MARK: Preprocessor

    private mutating func directive() {
        let start = index
        let count = bytes.count
        let tokenIndexBefore = tokens.count
        index += 1
        skipDirectiveSpace()
        let nameStart = index
        while index < count, Self.isIdentifierBody(bytes[index]) { index += 1 }
        let name = text(nameStart, index)
        if name == "define" { noteDefine(from: index) }
        var rest: [UInt8] = []
        lineLoop: while index < count {
            let current = bytes[index]
            switch current {
            case UInt8(ascii: "\n"):
                break lineLoop
            case UInt8(ascii: "\\"):
                let length = continuationLength(at: index)
                if length > 0 {
                    rest.append(UInt8(ascii: " "))
                    index += length
                } else {
                    rest.append(current)
                    index += 1
                }
            case UInt8(ascii: "/") where byte(index + 1) == UInt8(ascii: "/"):
                lineComment()
                break lineLoop
            case UInt8(ascii: "/") where byte(index + 1) == UInt8(ascii: "*"):
                blockComment()
                rest.append(UInt8(ascii: " "))
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                rest.append(current)
                index += 1
                while index < count, bytes[index] != current, bytes[index] != UInt8(ascii: "\n") {
                    if bytes[index] == UInt8(ascii: "\\"), index + 1 < count, bytes[index + 1] != UInt8(ascii: "\n") {
                        rest.append(bytes[index])
                        index += 1
                    }
                    rest.append(bytes[index])
                    index += 1
                }
                if index < count, bytes[index] == current {
                    rest.append(current)
                    index += 1
                }
            default:
                rest.append(current)
                index += 1
            }
        }
        var end = index
        while end > start, bytes[end - 1] == UInt8(ascii: "\r") || bytes[end - 1] == UInt8(ascii: " ") { end -= 1 }
        let argument = Self.collapseWhitespace(rest)
        let firstWord = Self.leadingIdentifier(argument)

        switch name {
        case "if":
            emitDirective(.ifGroup, start, end, argument)
        case "ifdef":
            emitDirective(.ifGroup, start, end, firstWord)
        case "ifndef":
            emitDirective(.ifGroup, start, end, "!" + firstWord)
            pendingGuard = (tokens.count - 1, firstWord)
            return
        case "elif":
            emitDirective(.elseIf, start, end, argument)
        case "elifdef":
            emitDirective(.elseIf, start, end, firstWord)
        case "elifndef":
            emitDirective(.elseIf, start, end, "!" + firstWord)
        case "else":
            emitDirective(.elseClause, start, end, "")
        case "endif":
            emitDirective(.endIf, start, end, "")
        case "import", "include", "include_next", "import_next":
            if let target = Self.includeTarget(argument) { imports.append(target) }
        case "define":
            if let pending = pendingGuard, pending.token == tokenIndexBefore - 1, pending.token < tokens.count,
               !pending.name.isEmpty, firstWord == pending.name {
                tokens[pending.token].isHeaderGuard = true
            }
        default:
            break
        }
        pendingGuard = nil
    }

    /// Records an object-like macro whose body is on its line (`#define NAME body`, no parameters, no
    /// continuation): the body ends at the line's end or a comment.
    private mutating func noteDefine(from offset: Int) {
        let count = bytes.count
        var cursor = offset
        while cursor < count, bytes[cursor] == UInt8(ascii: " ") || bytes[cursor] == UInt8(ascii: "\t") { cursor += 1 }
        guard cursor < count, Self.isIdentifierStart(bytes[cursor]) else { return }
        let nameStart = cursor
        while cursor < count, Self.isIdentifierBody(bytes[cursor]) { cursor += 1 }
        let nameEnd = cursor
        // `#define NAME(x)`: a function-like macro.
        guard cursor < count, bytes[cursor] == UInt8(ascii: " ") || bytes[cursor] == UInt8(ascii: "\t") else { return }
        while cursor < count, bytes[cursor] == UInt8(ascii: " ") || bytes[cursor] == UInt8(ascii: "\t") { cursor += 1 }
        let bodyStart = cursor
        var quote: UInt8?
        while cursor < count {
            let current = bytes[cursor]
            if current == UInt8(ascii: "\n") || current == UInt8(ascii: "\r") { break }
            if let open = quote {
                if current == UInt8(ascii: "\\") { cursor += 2; continue }
                if current == open { quote = nil }
            } else if current == UInt8(ascii: "\"") || current == UInt8(ascii: "'") {
                quote = current
            } else if current == UInt8(ascii: "/"), byte(cursor + 1) == UInt8(ascii: "/") || byte(cursor + 1) == UInt8(ascii: "*") {
                break
            } else if current == UInt8(ascii: "\\") {
                // A continued body: not recorded.
                return
            }
            cursor += 1
        }
        var bodyEnd = min(cursor, count)
        while bodyEnd > bodyStart, bytes[bodyEnd - 1] == UInt8(ascii: " ") || bytes[bodyEnd - 1] == UInt8(ascii: "\t") { bodyEnd -= 1 }
        guard bodyEnd > bodyStart, bodyEnd - bodyStart <= 4096 else { return }
        defines.append((text(nameStart, nameEnd), nameStart, nameEnd, bodyStart, bodyEnd))
    }

    /// The tokens of a macro body, at their places in the file.
    static func tokens(of bytes: [UInt8], from start: Int, to end: Int, cplusplus: Bool) -> [CToken] {
        var lexer = CFamilyLexer(bytes: Array(bytes[start..<end]), cplusplus: cplusplus)
        lexer.tokenize()
        return lexer.tokens.compactMap { token in
            guard token.kind != .directive else { return nil }
            var shifted = token
            shifted.start += start
            shifted.end += start
            return shifted
        }
    }

    private mutating func skipDirectiveSpace() {
        let count = bytes.count
        while index < count {
            let current = bytes[index]
            if current == UInt8(ascii: " ") || current == UInt8(ascii: "\t") {
                index += 1
            } else if continuationLength(at: index) > 0 {
                index += continuationLength(at: index)
            } else if current == UInt8(ascii: "/"), byte(index + 1) == UInt8(ascii: "*") {
                blockComment()
            } else {
                return
            }
        }
    }

    private mutating func emitDirective(_ kind: CDirectiveKind, _ start: Int, _ end: Int, _ condition: String) {
        var token = CToken(kind: .directive, start: start, end: max(start, end), text: condition, newlineBefore: true)
        token.directive = kind
        tokens.append(token)
        atLineStart = false
    }

    static func collapseWhitespace(_ raw: [UInt8]) -> String {
        var result: [UInt8] = []
        var pendingSpace = false
        for current in raw {
            if current == UInt8(ascii: " ") || current == UInt8(ascii: "\t") || current == UInt8(ascii: "\r")
                || current == 0x0B || current == 0x0C {
                pendingSpace = !result.isEmpty
            } else {
                if pendingSpace { result.append(UInt8(ascii: " ")) }
                pendingSpace = false
                result.append(current)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    static func leadingIdentifier(_ value: String) -> String {
        var result = ""
        for character in value.unicodeScalars {
            guard character.value < 0x80 ? isIdentifierBody(UInt8(character.value)) : true else { break }
            result.unicodeScalars.append(character)
        }
        return result
    }

    static func includeTarget(_ argument: String) -> String? {
        let utf8 = Array(argument.utf8)
        guard let first = utf8.first else { return nil }
        let closing: UInt8
        switch first {
        case UInt8(ascii: "<"): closing = UInt8(ascii: ">")
        case UInt8(ascii: "\""): closing = UInt8(ascii: "\"")
        default: return nil
        }
        guard let end = utf8.dropFirst().firstIndex(of: closing) else { return nil }
        let target = String(decoding: utf8[1..<end], as: UTF8.self)
        return target.isEmpty ? nil : target
    }
}
