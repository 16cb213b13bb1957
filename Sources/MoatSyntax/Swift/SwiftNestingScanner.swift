extension SwiftFrontEnd {
    /// Deepest `[` nesting (inside one closure body) handed to the parser. SwiftParser looks ahead at each
    /// `[` to decide between an array type and an array literal, and the look-ahead at one level repeats
    /// the levels inside it: the time doubles or worse with each level (`[[[…`, `[(a, [(a, …`, `[() -> [`,
    /// `[@a [`, `[A<[`), most steeply when the brackets are never closed. Measured with the toolchain's
    /// release SwiftParser: 16 unclosed `[` take 1 s, 30 hours; `[() -> [` ten deep 11 s; `[(a, [` eight deep
    /// 2 s, ten deep more than 20 s. Real code stays far below eight. The per-file budget (`--file-timeout`)
    /// bounds whatever shape this misses.
    public static let maximumBracketNesting = 8

    /// Deepest nesting of `[` and `(` together (inside one closure body, with at least one `[`) handed to the
    /// parser: tuples and function types inside array types multiply the look-ahead.
    public static let maximumCollectionNesting = 16

    /// Why a source file must not be handed to the parser, or nil: a linear scan that lexes string literals
    /// (single-line ones end at the line's end, multi-line and raw ones at their own delimiter,
    /// interpolations nest), comments (block comments nest), raw identifiers and regex literals the way the
    /// Swift lexer does, and measures how deep brackets nest.
    public static func refusalReason(source: String) -> String? {
        var source = source
        let nesting = source.withUTF8 { SwiftNestingScanner.deepest($0) }
        if nesting.square > maximumBracketNesting {
            return "not analysed: square brackets nested \(nesting.square) deep (limit \(maximumBracketNesting)); the Swift parser takes time exponential in that depth"
        }
        if nesting.mixed > maximumCollectionNesting {
            return "not analysed: brackets and parentheses nested \(nesting.mixed) deep (limit \(maximumCollectionNesting)); the Swift parser takes time exponential in that depth"
        }
        return nil
    }
}

/// The deepest bracket nesting of a Swift source, counted the way the parser sees it: outside comments and
/// string literals, inside interpolations, and afresh inside each `{ … }` (a closure or body ends the parser's
/// type look-ahead).
enum SwiftNestingScanner {
    struct Nesting: Equatable {
        /// `[` levels.
        var square = 0
        /// `[` and `(` levels, counted only where at least one `[` is open.
        var mixed = 0
    }

    private enum Opener {
        case square, paren, brace
        /// `\(` in a string literal with this many `#` delimiters; its `)` resumes the string.
        case interpolation(hashes: Int, multiline: Bool)
    }

    private struct Entry {
        var opener: Opener
        /// The nesting with this entry open.
        var nesting: Nesting
    }

    private static let quote = UInt8(ascii: "\""), hash = UInt8(ascii: "#"), slash = UInt8(ascii: "/")
    private static let star = UInt8(ascii: "*"), backslash = UInt8(ascii: "\\"), newline = UInt8(ascii: "\n")
    private static let backtick = UInt8(ascii: "`"), carriageReturn = UInt8(ascii: "\r")

    static func deepest(_ bytes: UnsafeBufferPointer<UInt8>) -> Nesting {
        var scanner = State(bytes: bytes)
        scanner.run()
        return scanner.deepest
    }

    private struct State {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        var stack: [Entry] = []
        var deepest = Nesting()

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        var count: Int { bytes.count }
        var current: Nesting { stack.last?.nesting ?? Nesting() }

        func byte(at offset: Int) -> UInt8? { offset < count ? bytes[offset] : nil }

        mutating func run() {
            while index < count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case slash:
                    if self.byte(at: index) == slash {
                        skipLine()
                    } else if self.byte(at: index) == star {
                        index += 1
                        skipBlockComment()
                    }
                case hash:
                    var hashes = 1
                    while self.byte(at: index) == hash { hashes += 1; index += 1 }
                    if self.byte(at: index) == quote {
                        index += 1
                        startString(hashes: hashes)
                    } else if self.byte(at: index) == slash {
                        index += 1
                        skipRegex(hashes: hashes)
                    }
                case quote:
                    startString(hashes: 0)
                case backtick:
                    // A raw identifier: to the closing backtick on the same line.
                    while index < count, bytes[index] != backtick, bytes[index] != newline { index += 1 }
                    if index < count, bytes[index] == backtick { index += 1 }
                case UInt8(ascii: "["):
                    var nesting = current
                    nesting.square += 1
                    nesting.mixed += 1
                    push(.square, nesting)
                case UInt8(ascii: "("):
                    var nesting = current
                    if nesting.square > 0 { nesting.mixed += 1 }
                    push(.paren, nesting)
                case UInt8(ascii: "{"):
                    push(.brace, Nesting())
                case UInt8(ascii: "]"):
                    close { if case .square = $0 { return true } else { return false } }
                case UInt8(ascii: ")"):
                    close {
                        switch $0 {
                        case .paren, .interpolation: return true
                        default: return false
                        }
                    }
                case UInt8(ascii: "}"):
                    close { if case .brace = $0 { return true } else { return false } }
                default:
                    break
                }
            }
        }

        mutating func push(_ opener: Opener, _ nesting: Nesting) {
            stack.append(Entry(opener: opener, nesting: nesting))
            deepest.square = max(deepest.square, nesting.square)
            deepest.mixed = max(deepest.mixed, nesting.mixed)
        }

        /// Pops to the nearest opener `matches` accepts, never past an interpolation (whose string would be
        /// lost); a closer with nothing to close is ignored. Closing an interpolation resumes its string.
        mutating func close(_ matches: (Opener) -> Bool) {
            var position = stack.count - 1
            while position >= 0 {
                let opener = stack[position].opener
                if matches(opener) {
                    stack.removeSubrange(position...)
                    if case .interpolation(let hashes, let multiline) = opener { scanString(hashes: hashes, multiline: multiline) }
                    return
                }
                if case .interpolation = opener { return }
                position -= 1
            }
        }

        mutating func skipLine() {
            while index < count, bytes[index] != newline { index += 1 }
        }

        /// After `/*`: to the matching `*/` (block comments nest), or the end.
        mutating func skipBlockComment() {
            var level = 1
            while level > 0, index < count {
                let byte = bytes[index]
                index += 1
                if byte == slash, self.byte(at: index) == star { level += 1; index += 1 }
                else if byte == star, self.byte(at: index) == slash { level -= 1; index += 1 }
            }
        }

        /// After `#/`: an extended regex literal, to `/` followed by as many `#`, or the end.
        mutating func skipRegex(hashes: Int) {
            while index < count {
                let byte = bytes[index]
                index += 1
                if byte == slash, closes(hashes: hashes, at: index) { index += hashes; return }
            }
        }

        func closes(hashes: Int, at offset: Int) -> Bool {
            guard offset + hashes <= count else { return false }
            for position in offset..<(offset + hashes) where bytes[position] != hash { return false }
            return true
        }

        /// After the opening `"` (and its `#`s): a multi-line literal when two more quotes follow.
        mutating func startString(hashes: Int) {
            if byte(at: index) == quote, byte(at: index + 1) == quote {
                index += 2
                scanString(hashes: hashes, multiline: true)
            } else {
                scanString(hashes: hashes, multiline: false)
            }
        }

        /// Inside a string literal: to its closing delimiter, or, for a single-line one, the line's end (where
        /// the lexer ends an unterminated literal), or into an interpolation (`\(`, `\#(` for raw strings),
        /// which is code until its `)`.
        mutating func scanString(hashes: Int, multiline: Bool) {
            while index < count {
                let byte = bytes[index]
                index += 1
                if byte == backslash, closes(hashes: hashes, at: index) {
                    let after = index + hashes
                    if self.byte(at: after) == UInt8(ascii: "(") {
                        index = after + 1
                        var nesting = current
                        if nesting.square > 0 { nesting.mixed += 1 }
                        push(.interpolation(hashes: hashes, multiline: multiline), nesting)
                        return
                    }
                    // An escaped character (a quote, a backslash, …), never a delimiter; a line's end ends the
                    // single-line literal all the same.
                    if after < count, bytes[after] != newline || multiline { index = after + 1 }
                } else if byte == quote {
                    if multiline {
                        if self.byte(at: index) == quote, self.byte(at: index + 1) == quote, closes(hashes: hashes, at: index + 2) {
                            index += 2 + hashes
                            return
                        }
                    } else if closes(hashes: hashes, at: index) {
                        index += hashes
                        return
                    }
                } else if !multiline, byte == newline || byte == carriageReturn {
                    return
                }
            }
        }
    }
}
