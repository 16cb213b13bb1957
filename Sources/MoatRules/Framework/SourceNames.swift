import MoatSyntax

/// The names one source file mentions, from one pass over its bytes: every identifier of its code
/// (types, functions, members, constants, keywords, Objective-C selector parts, code inside Swift string
/// interpolations), and apart from them the words inside its string literals. Comments are skipped.
///
/// Rules use it as a gate before walking the code model: a rule declares the API names it matches, as
/// data, and skips a file that mentions none of them (`unit.names.containsAny(Self.requiredNames)`). A gate only
/// lets a rule skip files that cannot match; it never decides a finding. It answers for whole names, so
/// a rule lists every spelling it matches (`kSecAttrAccessibleAlways` and `.always`...).
public struct SourceNames: Sendable {
    /// Identifiers of the code.
    public let identifiers: Set<String>
    /// Words (runs of letters, digits and `_`) inside string literals.
    public let literalWords: Set<String>

    /// Answers yes to every question: the gates open, for checking that no gate ever decides a finding.
    private let everything: Bool

    /// An index under which every gate opens (see `SourceUnit(code:context:names:)`).
    public static let unrestricted = SourceNames(identifiers: [], literalWords: [], everything: true)

    private init(identifiers: Set<String>, literalWords: Set<String>, everything: Bool) {
        self.identifiers = identifiers
        self.literalWords = literalWords
        self.everything = everything
    }

    public init(_ file: CodeFile) {
        var lexer = NameLexer(swift: file.language == .swift)
        if file.source.utf8.withContiguousStorageIfAvailable({ lexer.run($0) }) == nil {
            Array(file.source.utf8).withUnsafeBufferPointer { lexer.run($0) }
        }
        identifiers = lexer.identifiers
        literalWords = lexer.literalWords
        everything = false
    }

    /// Whether the code mentions this name (not in a comment, not only in a string literal).
    public func contains(_ name: String) -> Bool {
        everything || identifiers.contains(name)
    }

    /// Whether the code mentions any of these names.
    public func containsAny<Names: Sequence<String>>(_ names: Names) -> Bool {
        everything || names.contains { identifiers.contains($0) }
    }

    /// Whether the code mentions a name the rule's own test accepts (`ChallengeHandler.isChallengeType`).
    public func containsName(where test: (String) -> Bool) -> Bool {
        everything || identifiers.contains(where: test)
    }

    /// The names to look for to find these calls or functions: base names as they are, Swift full names
    /// and Objective-C selectors by their first part (`load(_:)` → `load`, `initWithURL:` → `initWithURL`).
    public static func callNames<Names: Sequence<String>>(_ names: Names) -> Set<String> {
        Set(names.map { name in name.firstIndex { $0 == ":" || $0 == "(" }.map { String(name[..<$0]) } ?? name })
    }

    /// Whether the code or a string literal mentions any of these names: dictionary keys, which may be
    /// written as constants or as strings (`DictionaryEntries.keyName`).
    public func containsAnywhere<Names: Sequence<String>>(_ names: Names) -> Bool {
        everything || names.contains { identifiers.contains($0) || literalWords.contains($0) }
    }

    /// Whether the file can write one of these properties in a form `CodeFile.propertyWrites` reads:
    /// `object.name = value`, `[object setName:value]`, `setValue(value, forKey: "name")`.
    public func mayWriteProperty<Names: Sequence<String>>(_ names: Names) -> Bool {
        everything || names.contains { name in
            identifiers.contains(name) || literalWords.contains(name)
                || identifiers.contains("set" + name.prefix(1).uppercased() + name.dropFirst())
        }
    }

    /// Whether a string literal contains any of these words.
    public func literalsContainAny<Words: Sequence<String>>(_ words: Words) -> Bool {
        everything || words.contains { literalWords.contains($0) }
    }

    /// Whether a string literal has this word in any case (`http` for `"HTTP://…"`).
    public func literalsContain(ignoringCase word: String) -> Bool {
        let lowered = word.lowercased()
        return everything || literalWords.contains { $0.utf8.count == lowered.utf8.count && $0.lowercased() == lowered }
    }

    /// Whether a word of a string literal starts with any of these prefixes (`AKIA` for AWS key ids).
    public func literalsContainAny(prefixes: [String]) -> Bool {
        everything || literalWords.contains { word in prefixes.contains { word.hasPrefix($0) } }
    }
}

/// The single pass behind `SourceNames`: Swift (nested block comments, multi-line and raw strings,
/// interpolations) or the C family (block comments, string and character literals, `@"..."`).
private struct NameLexer {
    let swift: Bool
    var identifiers: Set<String> = []
    var literalWords: Set<String> = []
    /// The identifiers recorded so far, by their place in the file's bytes, in an open-addressing table
    /// keyed by a hash of their bytes: most identifiers repeat (`self`, `let`, a type's name), and a repeat
    /// is found without building a String and hashing it for the set (the index's largest cost).
    private var seen: [(hash: UInt64, start: Int, length: Int)] = []
    private var seenCount = 0

    init(swift: Bool) {
        self.swift = swift
    }

    /// Records the identifier `bytes[start..<end]` (not empty) in `identifiers`, once.
    private mutating func recordIdentifier(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for index in start..<end { hash = (hash ^ UInt64(bytes[index])) &* 0x0000_0100_0000_01b3 }
        if seen.isEmpty { seen = Array(repeating: (0, 0, 0), count: 256) }
        let length = end - start
        let mask = seen.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while seen[slot].length != 0 {
            let entry = seen[slot]
            if entry.hash == hash && entry.length == length && Self.sameBytes(bytes, entry.start, start, length) { return }
            slot = (slot + 1) & mask
        }
        identifiers.insert(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
        seen[slot] = (hash, start, length)
        seenCount += 1
        if seenCount * 2 > seen.count {
            var larger = Array(repeating: (hash: UInt64(0), start: 0, length: 0), count: seen.count * 2)
            let largerMask = larger.count - 1
            for entry in seen where entry.length != 0 {
                var index = Int(truncatingIfNeeded: entry.hash) & largerMask
                while larger[index].length != 0 { index = (index + 1) & largerMask }
                larger[index] = entry
            }
            seen = larger
        }
    }

    private static func sameBytes(_ bytes: UnsafeBufferPointer<UInt8>, _ first: Int, _ second: Int, _ length: Int) -> Bool {
        for offset in 0..<length where bytes[first + offset] != bytes[second + offset] { return false }
        return true
    }

    // Bytes compared with plain integer operators (transparent even in debug builds, unlike range
    // patterns), since every byte of every file goes through here.
    private static let slash: UInt8 = 0x2F          // /
    private static let star: UInt8 = 0x2A           // *
    private static let quote: UInt8 = 0x22          // "
    private static let apostrophe: UInt8 = 0x27     // '
    private static let backslash: UInt8 = 0x5C      // \
    private static let hash: UInt8 = 0x23           // #
    private static let newline: UInt8 = 0x0A
    private static let openParen: UInt8 = 0x28      // (
    private static let closeParen: UInt8 = 0x29     // )

    @inline(__always)
    static func isWordByte(_ byte: UInt8) -> Bool {
        // Letters, digits, `_`, `$` and every byte of a non-ASCII character (Swift identifiers).
        let folded = byte | 0x20
        return (folded >= 0x61 && folded <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F || byte == 0x24 || byte >= 0x80
    }

    mutating func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        var index = 0
        code(bytes, &index, untilParen: false)
    }

    /// Code up to the end, or (inside an interpolation) up to the parenthesis closing it.
    private mutating func code(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int, untilParen: Bool) {
        let count = bytes.count
        var depth = 0
        while index < count {
            let byte = bytes[index]
            let folded = byte | 0x20
            if (folded >= 0x61 && folded <= 0x7A) || byte == 0x5F || byte == 0x24 || byte >= 0x80 {
                let start = index
                index += 1
                while index < count && Self.isWordByte(bytes[index]) { index += 1 }
                recordIdentifier(bytes, start, index)
                continue
            }
            if byte >= 0x30 && byte <= 0x39 {
                // A number (`0x1F`, `1e5`): not a name.
                while index < count && Self.isWordByte(bytes[index]) { index += 1 }
                continue
            }
            if byte == Self.slash && index + 1 < count && bytes[index + 1] == Self.slash {
                while index < count && bytes[index] != Self.newline { index += 1 }
            } else if byte == Self.slash && index + 1 < count && bytes[index + 1] == Self.star {
                blockComment(bytes, &index)
            } else if byte == Self.quote {
                string(bytes, &index, hashes: 0)
            } else if byte == Self.apostrophe && !swift {
                characterLiteral(bytes, &index)
            } else if byte == Self.hash && swift {
                // `#"..."#` raw strings; otherwise `#if`, `#selector`... (the name is read next).
                var end = index
                while end < count && bytes[end] == Self.hash { end += 1 }
                if end < count && bytes[end] == Self.quote {
                    let hashes = end - index
                    index = end
                    string(bytes, &index, hashes: hashes)
                } else {
                    index = end
                }
            } else if byte == Self.openParen {
                depth += 1
                index += 1
            } else if byte == Self.closeParen {
                index += 1
                if untilParen {
                    if depth == 0 { return }
                    depth -= 1
                } else if depth > 0 {
                    depth -= 1
                }
            } else {
                index += 1
            }
        }
    }

    /// `/* ... */`, nested in Swift.
    private func blockComment(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) {
        let count = bytes.count
        var nesting = 0
        while index < count {
            if bytes[index] == Self.slash && index + 1 < count && bytes[index + 1] == Self.star {
                if nesting == 0 || swift { nesting += 1 }
                index += 2
            } else if bytes[index] == Self.star && index + 1 < count && bytes[index + 1] == Self.slash {
                nesting -= 1
                index += 2
                if nesting == 0 { return }
            } else {
                index += 1
            }
        }
    }

    /// A string literal from its opening quote (after any `#`s): its words are recorded apart, the code
    /// of its interpolations as code.
    private mutating func string(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int, hashes: Int) {
        let count = bytes.count
        let multiline = swift && index + 2 < count && bytes[index + 1] == Self.quote && bytes[index + 2] == Self.quote
        index += multiline ? 3 : 1
        var wordStart: Int?
        func endWord(_ end: Int, _ words: inout Set<String>) {
            if let start = wordStart {
                words.insert(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
                wordStart = nil
            }
        }
        /// Whether `hashes` `#`s follow position `at`.
        func hashesFollow(_ at: Int) -> Bool {
            guard at + hashes <= count else { return false }
            for offset in 0..<hashes where bytes[at + offset] != Self.hash { return false }
            return true
        }
        while index < count {
            let byte = bytes[index]
            if Self.isWordByte(byte) {
                if wordStart == nil { wordStart = index }
                index += 1
                continue
            }
            endWord(index, &literalWords)
            if byte == Self.quote {
                if multiline {
                    if index + 2 < count && bytes[index + 1] == Self.quote && bytes[index + 2] == Self.quote && hashesFollow(index + 3) {
                        index += 3 + hashes
                        return
                    }
                } else if hashesFollow(index + 1) {
                    index += 1 + hashes
                    return
                }
                index += 1
            } else if byte == Self.backslash && hashesFollow(index + 1) {
                index += 1 + hashes
                guard index < count else { return }
                if swift && bytes[index] == Self.openParen {
                    index += 1
                    code(bytes, &index, untilParen: true)
                } else if hashes == 0 {
                    // An escaped character (`\"`, `\\`, `\n`): its letter is not part of a word.
                    index += 1
                }
            } else if byte == Self.newline && !multiline {
                // An unterminated literal ends at its line.
                index += 1
                return
            } else {
                index += 1
            }
        }
        endWord(index, &literalWords)
    }

    /// `'a'`, `'\''` in the C family.
    private func characterLiteral(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) {
        let count = bytes.count
        index += 1
        while index < count {
            switch bytes[index] {
            case Self.backslash: index += 2
            case Self.apostrophe: index += 1; return
            case Self.newline: return
            default: index += 1
            }
        }
    }
}
