#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A language-neutral model of one Swift, Objective-C or C-family source file.
///
/// The Swift front end lowers a SwiftParser tree into this model; the C-family front end builds it from
/// its own lexer and shallow parser. Rules and the dataflow engine read only this model, so one rule
/// serves both languages and no rule module needs SwiftSyntax. Comments and string contents never
/// become code here, which is why a rule cannot fire inside a comment or a literal.

public enum SourceLanguage: String, Sendable, Codable, CaseIterable {
    case swift
    case objectiveC
    case objectiveCPlusPlus
    case c
    case cPlusPlus

    public var isCFamily: Bool { self != .swift }

    /// The language a file name implies, or nil for a file that is not source.
    public static func of(fileName: String) -> SourceLanguage? {
        guard let dot = fileName.lastIndex(of: ".") else { return nil }
        switch fileName[fileName.index(after: dot)...].lowercased() {
        case "swift": return .swift
        case "m", "h": return .objectiveC
        case "mm": return .objectiveCPlusPlus
        case "c": return .c
        case "cc", "cpp", "cxx", "hpp", "hh": return .cPlusPlus
        default: return nil
        }
    }
}

/// A 1-based line and column (UTF-8 bytes) plus the UTF-8 offset into the file.
public struct SourcePosition: Sendable, Hashable, Comparable, Codable {
    public var line: Int
    public var column: Int
    public var offset: Int

    public init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool { lhs.offset < rhs.offset }
}

public struct SourceRange: Sendable, Hashable, Codable {
    public var start: SourcePosition
    public var end: SourcePosition

    public init(start: SourcePosition, end: SourcePosition) {
        self.start = start
        self.end = end
    }

    public func contains(_ other: SourceRange) -> Bool {
        start.offset <= other.start.offset && other.end.offset <= end.offset
    }
}

/// A comment, kept for inline suppressions (`// moat:ignore RULE -- reason`) and `#if` bookkeeping.
public struct Comment: Sendable, Hashable {
    public var text: String
    public var range: SourceRange

    public init(text: String, range: SourceRange) {
        self.text = text
        self.range = range
    }
}

/// One parsed source file.
public final class CodeFile: Sendable {
    public let path: String
    public let language: SourceLanguage
    public let source: String
    /// Declarations at file scope (types, functions, extensions, global variables).
    public let declarations: [Declaration]
    /// Top-level statements (Swift `main.swift`, scripts).
    public let statements: [Statement]
    public let comments: [Comment]
    /// Every place a type is named: annotations, inheritance clauses, casts, `UIWebView()`, `[UIWebView alloc]`.
    public let typeReferences: [TypeReference]
    /// `#import` / `import` targets.
    public let imports: [String]
    /// Problems the front end recovered from (unbalanced braces...). Not fatal.
    public let diagnostics: [String]
    /// Objective-C and C object-like macros whose one-line body is an expression (`#define kKey @"…"`), as
    /// constant globals (`isConstant`, attribute `#define`). Kept apart from `declarations`: only what
    /// follows constants (`ConstantResolver`, `ConstantExporter`) reads them; nothing is expanded.
    public let macros: [VariableDeclaration]
    private let lineStarts: [Int]

    public init(path: String, language: SourceLanguage, source: String, declarations: [Declaration],
                statements: [Statement], comments: [Comment], typeReferences: [TypeReference],
                imports: [String], diagnostics: [String] = [], macros: [VariableDeclaration] = []) {
        self.macros = macros
        self.path = path
        self.language = language
        self.source = source
        self.declarations = declarations
        self.statements = statements
        self.comments = comments
        self.typeReferences = typeReferences
        self.imports = imports
        self.diagnostics = diagnostics
        var starts = [0]
        var offset = 0
        for byte in source.utf8 {
            offset += 1
            if byte == UInt8(ascii: "\n") { starts.append(offset) }
        }
        self.lineStarts = starts
    }

    public var lineCount: Int { lineStarts.count }

    /// The text of a 1-based line, without its newline.
    public func line(_ number: Int) -> String {
        guard number >= 1, number <= lineStarts.count else { return "" }
        // Native source: the line's bytes without carriage returns at either end (what trimming "\r" from
        // the decoded line gives: a 0x0D byte is always a carriage return of its own in UTF-8), without
        // Foundation's trimming (asked for each line a summary or a finding shows).
        let start = lineStarts[number - 1]
        let fast: String? = source.utf8.withContiguousStorageIfAvailable { bytes in
            var lower = min(start, bytes.count)
            var upper = lower
            while upper < bytes.count, bytes[upper] != UInt8(ascii: "\n") { upper += 1 }
            while lower < upper, bytes[lower] == UInt8(ascii: "\r") { lower += 1 }
            while upper > lower, bytes[upper - 1] == UInt8(ascii: "\r") { upper -= 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[lower..<upper]), as: UTF8.self)
        }
        if let fast { return fast }
        return characterLine(number)
    }

    /// `line(_:)` read through the string's UTF-8 view and Foundation's trimming (a source that is not
    /// stored as contiguous UTF-8).
    func characterLine(_ number: Int) -> String {
        guard number >= 1, number <= lineStarts.count else { return "" }
        let utf8 = source.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: lineStarts[number - 1])
        var end = start
        while end != utf8.endIndex, utf8[end] != UInt8(ascii: "\n") { end = utf8.index(after: end) }
        return String(decoding: utf8[start..<end], as: UTF8.self).trimmingCharacters(in: "\r")
    }

    /// The source text covered by a range.
    public func text(_ range: SourceRange) -> String {
        let utf8 = source.utf8
        let count = utf8.count
        let lower = min(max(0, range.start.offset), count)
        let upper = min(max(lower, range.end.offset), count)
        let start = utf8.index(utf8.startIndex, offsetBy: lower)
        let end = utf8.index(start, offsetBy: upper - lower)
        return String(decoding: utf8[start..<end], as: UTF8.self)
    }

    /// Converts a UTF-8 offset to a position.
    public func position(ofOffset offset: Int) -> SourcePosition {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return SourcePosition(line: low + 1, column: offset - lineStarts[low] + 1, offset: offset)
    }
}

private extension String {
    func trimmingCharacters(in character: Character) -> String {
        var copy = self
        while copy.last == character { copy.removeLast() }
        return copy
    }
}

public struct TypeReference: Sendable, Hashable {
    public var name: String
    public var range: SourceRange

    public init(name: String, range: SourceRange) {
        self.name = name
        self.range = range
    }
}

extension CodeFile {
    /// Whether the raw source text contains these bytes (comments and strings included): a cheap
    /// pre-filter for rules, much faster than `String.contains` (which goes through Foundation on Linux).
    public func containsText(_ needle: String) -> Bool {
        let pattern = Array(needle.utf8)
        guard let first = pattern.first else { return true }
        let search = { (haystack: UnsafeBufferPointer<UInt8>) -> Bool in
            let count = haystack.count
            let length = pattern.count
            guard count >= length, let base = haystack.baseAddress else { return false }
            var index = 0
            let last = count - length
            // memchr finds the candidate first bytes (vectorized by the C library).
            while index <= last {
                guard let hit = memchr(base + index, Int32(first), last - index + 1) else { return false }
                let position = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
                var matched = 1
                while matched < length && haystack[position + matched] == pattern[matched] { matched += 1 }
                if matched == length { return true }
                index = position + 1
            }
            return false
        }
        if let found = source.utf8.withContiguousStorageIfAvailable(search) { return found }
        return Array(source.utf8).withUnsafeBufferPointer(search)
    }
}
