// The shallow C-family parser: a token cursor, recovery helpers, type text and type references.
// Declarations, statements and expressions live in extensions in the neighbouring files.
//
// Conditional directives kept as structure stay in the token array. The cursor steps over them as if
// they were whitespace; only the list parsers (file scope, members, statements) look at them, and while a
// clause is parsed `limit` stops the cursor at the clause's end, so nothing can run past it.

final class CFamilyParser {
    let bytes: [UInt8]
    let tokens: [CToken]
    let lines: CLineIndex
    let language: SourceLanguage
    let cplusplus: Bool

    /// Raw index of the next token (directives included).
    var pos = 0
    /// Exclusive end of the tokens the parser may see (the current `#if` clause, or all).
    var limit: Int
    /// End offset of the last consumed token.
    var lastEnd = 0
    var depth = 0
    static let maxDepth = 100
    /// Links of one postfix chain (`a.b().c[0]++…`) and operands of one left-deep operator chain (`a + b + …`,
    /// `a, b, …`) kept in the tree; the tokens past them are consumed but not kept. The loops that read
    /// chains do not recurse, but the tree they build is as deep as the chain, and the walkers and queries
    /// over it recurse: without this bound a few hundred kilobytes of `a++++…` overflow the stack.
    static let maxChain = 128

    var diagnostics: [String] = []
    private var droppedDiagnostics = 0
    var typeReferences: [TypeReference] = []
    var moduleImports: [(offset: Int, name: String)] = []
    /// Statements found where only declarations belong (inside `@implementation`); kept at file scope.
    var strayStatements: [Statement] = []

    init(bytes: [UInt8], tokens: [CToken], lines: CLineIndex, language: SourceLanguage) {
        self.bytes = bytes
        self.tokens = tokens
        self.lines = lines
        self.language = language
        self.cplusplus = language == .cPlusPlus || language == .objectiveCPlusPlus
        self.limit = tokens.count
    }

    // MARK: Cursor

    /// Raw index of the `lookahead`-th visible token from the cursor, or `limit`.
    func index(_ lookahead: Int = 0) -> Int {
        var cursor = pos
        var remaining = lookahead
        while cursor < limit {
            if tokens[cursor].kind != .directive {
                if remaining == 0 { return cursor }
                remaining -= 1
            }
            cursor += 1
        }
        return limit
    }

    /// The visible token after raw index `raw`.
    func next(_ raw: Int) -> Int {
        var cursor = raw + 1
        while cursor < limit, tokens[cursor].kind == .directive { cursor += 1 }
        return min(cursor, limit)
    }

    func token(at raw: Int) -> CToken {
        if raw >= 0, raw < limit { return tokens[raw] }
        let offset = raw >= 0 && raw < tokens.count ? tokens[raw].start : bytes.count
        return CToken(kind: .eof, start: offset, end: offset, text: "")
    }

    func peek(_ lookahead: Int = 0) -> CToken { token(at: index(lookahead)) }

    var atEnd: Bool { index() >= limit }

    @discardableResult
    func advance() -> CToken {
        let raw = index()
        guard raw < limit else { return token(at: raw) }
        pos = raw + 1
        lastEnd = tokens[raw].end
        return tokens[raw]
    }

    /// Moves the cursor forward to a raw index found by a look-ahead scan.
    func jump(to raw: Int) {
        let target = min(raw, limit)
        guard target > pos else { return }
        var cursor = target - 1
        while cursor >= pos, tokens[cursor].kind == .directive { cursor -= 1 }
        if cursor >= pos { lastEnd = tokens[cursor].end }
        pos = target
    }

    func isPunct(_ value: String, _ lookahead: Int = 0) -> Bool { peek(lookahead).isPunct(value) }
    func isWord(_ value: String, _ lookahead: Int = 0) -> Bool { peek(lookahead).isWord(value) }

    func accept(_ punct: String) -> Bool {
        guard isPunct(punct) else { return false }
        advance()
        return true
    }

    @discardableResult
    func expect(_ punct: String, _ context: String) -> Bool {
        if accept(punct) { return true }
        diagnose(peek().start, "expected '\(punct)' \(context)")
        return false
    }

    // MARK: Depth

    /// Enters one level of recursion; false when the bound is reached (the caller then skips).
    func enter() -> Bool {
        guard depth < Self.maxDepth else { return false }
        depth += 1
        return true
    }

    func leave() { depth -= 1 }

    // MARK: Positions and text

    func range(_ start: Int, _ end: Int) -> SourceRange {
        SourceRange(start: lines.position(start), end: lines.position(max(start, end)))
    }

    func rangeFrom(_ start: Int) -> SourceRange { range(start, lastEnd) }

    func sourceText(_ start: Int, _ end: Int, maximum: Int = 512) -> String {
        let lower = min(max(0, start), bytes.count)
        let upper = min(max(lower, end), bytes.count, lower + maximum)
        return String(decoding: bytes[lower..<upper], as: UTF8.self)
    }

    func diagnose(_ offset: Int, _ message: String) {
        guard diagnostics.count < 200 else {
            droppedDiagnostics += 1
            return
        }
        let position = lines.position(offset)
        diagnostics.append("\(position.line):\(position.column): \(message)")
    }

    func finishDiagnostics() -> [String] {
        droppedDiagnostics > 0 ? diagnostics + ["\(droppedDiagnostics) more problems not listed"] : diagnostics
    }

    func makeExpression(_ kind: Expression.Kind, _ start: Int) -> Expression {
        Expression(kind: kind, range: rangeFrom(start))
    }

    func unknown(_ start: Int) -> Expression {
        Expression(kind: .unknown(sourceText(start, lastEnd)), range: rangeFrom(start))
    }

    // MARK: Skipping

    static func closer(of opener: String) -> String? {
        switch opener {
        case "(": return ")"
        case "[": return "]"
        case "{": return "}"
        default: return nil
        }
    }

    /// Consumes an opener and everything to its matching closer (or one token if not at an opener).
    func skipBalanced() {
        let first = advance()
        guard first.kind == .punct, let firstCloser = Self.closer(of: first.text) else { return }
        var expected: [String] = [firstCloser]
        while !expected.isEmpty {
            let current = peek()
            if current.kind == .eof {
                diagnose(first.start, "unbalanced '\(first.text)'")
                return
            }
            advance()
            guard current.kind == .punct else { continue }
            if let closer = Self.closer(of: current.text) {
                expected.append(closer)
            } else if current.text == expected.last {
                expected.removeLast()
            } else if current.text == "}" {
                while let last = expected.popLast(), last != "}" {}
            }
        }
    }

    /// Raw index just after the group opened at raw index `raw` (look-ahead only, bounded by `limit`).
    func indexAfterGroup(_ raw: Int) -> Int {
        guard raw < limit, tokens[raw].kind == .punct, let firstCloser = Self.closer(of: tokens[raw].text) else {
            return next(raw)
        }
        var expected: [String] = [firstCloser]
        var cursor = next(raw)
        while cursor < limit {
            let current = tokens[cursor]
            if current.kind == .punct {
                if let closer = Self.closer(of: current.text) {
                    expected.append(closer)
                } else if current.text == expected.last {
                    expected.removeLast()
                    if expected.isEmpty { return next(cursor) }
                } else if current.text == "}" {
                    while let last = expected.popLast(), last != "}" {}
                    if expected.isEmpty { return next(cursor) }
                }
            }
            cursor = next(cursor)
        }
        return limit
    }

    /// After a parse error: skips to just after `;`, or to just before `}`, or past one `{...}` group.
    func recoverToStatementEnd() {
        while true {
            let current = peek()
            if current.kind == .eof || startsObjCDeclaration(current) { return }
            if current.kind == .punct {
                switch current.text {
                case ";":
                    advance()
                    return
                case "}":
                    return
                case "{":
                    skipBalanced()
                    return
                case "(", "[":
                    skipBalanced()
                    continue
                default:
                    break
                }
            }
            advance()
        }
    }

    /// Tokens no statement can contain: recovery stops before them (`@interface`, `@end`, a method's `-` or `+`).
    func startsObjCDeclaration(_ current: CToken) -> Bool {
        switch current.kind {
        case .atWord:
            switch current.text {
            case "@interface", "@implementation", "@end", "@property": return true
            case "@protocol": return !isPunct("(", 1)
            default: return false
            }
        case .punct:
            return current.newlineBefore && (current.text == "-" || current.text == "+") && isPunct("(", 1)
                && (peek(2).kind == .identifier)
        default:
            return false
        }
    }

    /// When a statement or declaration lacks its `;`: recover on the same line, or leave the next line alone.
    func finishStatement(start: Int) {
        if accept(";") { return }
        let current = peek()
        if current.kind == .eof || current.isPunct("}") { return }
        diagnose(current.start, "expected ';'")
        if !current.newlineBefore { recoverToStatementEnd() }
    }

    /// Raw index after a `<...>` generic or template argument list starting at raw index `raw`, or nil when the
    /// tokens do not look like type arguments (so `a < b` stays a comparison).
    func scanAngleArguments(_ raw: Int) -> Int? {
        guard raw < limit, tokens[raw].isPunct("<") else { return nil }
        var depthCount = 1
        var parentheses = 0
        var cursor = next(raw)
        var steps = 0
        while cursor < limit, steps < 128 {
            steps += 1
            let current = tokens[cursor]
            switch current.kind {
            case .identifier, .number:
                break
            case .punct:
                switch current.text {
                case "<": depthCount += 1
                case ">":
                    depthCount -= 1
                    if depthCount == 0 { return next(cursor) }
                case ">>":
                    depthCount -= 2
                    if depthCount <= 0 { return next(cursor) }
                case "(": parentheses += 1
                case ")":
                    parentheses -= 1
                    if parentheses < 0 { return nil }
                case "*", "&", "&&", ",", "::", "^", "...", "[", "]":
                    break
                default:
                    return nil
                }
            default:
                return nil
            }
            cursor = next(cursor)
        }
        return nil
    }

    // MARK: Types

    /// Type text from raw token indices: qualifiers and attributes dropped, spacing normalised
    /// (`NSString *`, `NSArray<NSString *> *`, `void (^)(BOOL)`, `unsigned long`).
    func typeText(_ indices: [Int], keepMethodQualifiers: Bool = true) -> String {
        var pieces: [String] = []
        var cursor = 0
        while cursor < indices.count {
            let current = tokens[indices[cursor]]
            if current.kind == .identifier {
                let word = current.text
                if CVocabulary.isAttributeName(word), cursor + 1 < indices.count, tokens[indices[cursor + 1]].isPunct("(") {
                    cursor = Self.skipGroup(in: indices, from: cursor + 1, tokens: tokens)
                    continue
                }
                if CVocabulary.isNonTypeWord(word) || (!keepMethodQualifiers && CVocabulary.methodQualifiers.contains(word)) {
                    cursor += 1
                    continue
                }
            }
            pieces.append(current.kind == .string ? sourceText(current.start, current.end) : current.text)
            cursor += 1
        }
        return Self.joinTypePieces(pieces)
    }

    /// Index in `indices` just after the parenthesised group starting at `from`.
    static func skipGroup(in indices: [Int], from: Int, tokens: [CToken]) -> Int {
        var level = 0
        var cursor = from
        while cursor < indices.count {
            let current = tokens[indices[cursor]]
            if current.isPunct("(") { level += 1 }
            if current.isPunct(")") {
                level -= 1
                if level <= 0 { return cursor + 1 }
            }
            cursor += 1
        }
        return cursor
    }

    static func joinTypePieces(_ pieces: [String]) -> String {
        var result = ""
        var previous = ""
        for (offset, piece) in pieces.enumerated() {
            if !result.isEmpty {
                let previousIsWord = isWordLike(previous)
                var space = false
                if previousIsWord && isWordLike(piece) { space = true }
                if ["*", "&", "&&"].contains(piece) && (previousIsWord || previous == ">") { space = true }
                if piece == "(" && previousIsWord, offset + 1 < pieces.count, ["^", "*", "&"].contains(pieces[offset + 1]) {
                    space = true
                }
                if previous == "," { space = true }
                if space { result += " " }
            }
            result += piece
            previous = piece
        }
        return result
    }

    private static func isWordLike(_ piece: String) -> Bool {
        guard let first = piece.utf8.first else { return false }
        return CFamilyLexer.isIdentifierBody(first) || first == UInt8(ascii: "\"")
    }

    /// Records the type names among raw token indices of a type (generic arguments included).
    func recordTypes(_ indices: [Int]) {
        var parenthesisLevel = 0
        var skipUntilLevel: Int?
        for (offset, raw) in indices.enumerated() {
            let current = tokens[raw]
            if current.kind == .punct {
                if current.text == "(" { parenthesisLevel += 1 }
                if current.text == ")" {
                    parenthesisLevel -= 1
                    if let level = skipUntilLevel, parenthesisLevel <= level { skipUntilLevel = nil }
                }
                continue
            }
            guard current.kind == .identifier, skipUntilLevel == nil else { continue }
            let word = current.text
            let following = offset + 1 < indices.count ? tokens[indices[offset + 1]] : nil
            if CVocabulary.typeofWords.contains(word) || CVocabulary.isAttributeName(word) {
                if following?.isPunct("(") == true { skipUntilLevel = parenthesisLevel }
                continue
            }
            if CVocabulary.builtinTypes.contains(word) || CVocabulary.isNonTypeWord(word)
                || CVocabulary.methodQualifiers.contains(word) || CVocabulary.statementKeywords.contains(word)
                || ["struct", "union", "enum", "class", "typename"].contains(word) {
                continue
            }
            if following?.isPunct("::") == true { continue }
            if parenthesisLevel > 0, following == nil || following?.isPunct(",") == true || following?.isPunct(")") == true,
               offset > 0 {
                var previousOffset = offset - 1
                while previousOffset > 0, tokens[indices[previousOffset]].kind == .identifier,
                      CVocabulary.qualifiers.contains(tokens[indices[previousOffset]].text) {
                    previousOffset -= 1
                }
                let previous = tokens[indices[previousOffset]]
                let previousIsName = previous.kind == .identifier && !CVocabulary.isNonTypeWord(previous.text)
                    && !["struct", "union", "enum", "class"].contains(previous.text)
                if previous.isPunct("*") || previous.isPunct("&") || previousIsName { continue }
            }
            typeReferences.append(TypeReference(name: word, range: range(current.start, current.end)))
        }
    }

    func recordType(name: String, start: Int, end: Int) {
        typeReferences.append(TypeReference(name: name, range: range(start, end)))
    }

    /// Raw indices of the visible tokens in `[from, to)`.
    func visibleIndices(_ from: Int, _ to: Int) -> [Int] {
        var result: [Int] = []
        var cursor = from
        while cursor < to, cursor < limit {
            if tokens[cursor].kind != .directive { result.append(cursor) }
            cursor += 1
        }
        return result
    }

    /// Collects the visible tokens up to the closer matching an already consumed opener, consuming the closer.
    func collectUntilCloser(_ closer: String) -> [Int] {
        var collected: [Int] = []
        var expected: [String] = [closer]
        while true {
            let raw = index()
            guard raw < limit else { return collected }
            let current = tokens[raw]
            if current.kind == .punct {
                if let nested = Self.closer(of: current.text) {
                    expected.append(nested)
                } else if current.text == expected.last {
                    expected.removeLast()
                    if expected.isEmpty {
                        advance()
                        return collected
                    }
                } else if current.text == "}" || current.text == ";" && expected.count == 1 {
                    return collected
                }
            }
            collected.append(raw)
            advance()
        }
    }
}

/// UTF-8 offset → 1-based line and column, as `CodeFile.position(ofOffset:)` computes them. Nodes are built
/// mostly in source order, so the line of the previous lookup is tried first.
final class CLineIndex {
    private let starts: [Int]
    private var hint = 0

    init(_ bytes: [UInt8]) {
        var starts = [0]
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { starts.append(offset + 1) }
        self.starts = starts
    }

    func position(_ offset: Int) -> SourcePosition {
        let line = lineIndex(offset)
        return SourcePosition(line: line + 1, column: offset - starts[line] + 1, offset: offset)
    }

    func range(_ start: Int, _ end: Int) -> SourceRange {
        SourceRange(start: position(start), end: position(end))
    }

    private func lineIndex(_ offset: Int) -> Int {
        let count = starts.count
        if hint < count, starts[hint] <= offset, hint + 1 >= count || offset < starts[hint + 1] { return hint }
        if hint + 1 < count, starts[hint + 1] <= offset, hint + 2 >= count || offset < starts[hint + 2] {
            hint += 1
            return hint
        }
        var low = 0
        var high = count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        hint = low
        return low
    }
}
