// Expressions: C precedence climbing plus Objective-C message sends, literals and blocks.

extension CFamilyParser {
    static let assignmentOperators: Set<String> = ["=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^="]

    static func binaryPrecedence(_ op: String) -> Int? {
        switch op {
        case "||": return 4
        case "&&": return 5
        case "|": return 6
        case "^": return 7
        case "&": return 8
        case "==", "!=": return 9
        case "<", ">", "<=", ">=", "<=>": return 10
        case "<<", ">>": return 11
        case "+", "-": return 12
        case "*", "/", "%": return 13
        case "->*": return 14
        default: return nil
        }
    }

    // MARK: Operators

    /// A full expression; `allowComma` admits the comma operator (statements, `for` headers, parentheses).
    func parseExpression(allowComma: Bool = false) -> Expression {
        let start = peek().start
        var result = parseAssignment()
        guard allowComma else { return result }
        var operands = 1
        while isPunct(",") {
            advance()
            let rhs = parseAssignment()
            operands += 1
            guard operands <= Self.maxChain else { continue }
            result = Expression(kind: .binary(op: ",", lhs: result, rhs: rhs), range: rangeFrom(start))
        }
        return result
    }

    func parseAssignment() -> Expression {
        guard enter() else { return skipAtDepthLimit() }
        defer { leave() }
        let start = peek().start
        let lhs = parseTernary()
        let current = peek()
        if current.kind == .punct, Self.assignmentOperators.contains(current.text) {
            advance()
            let rhs = parseAssignment()
            return Expression(kind: .binary(op: current.text, lhs: lhs, rhs: rhs), range: rangeFrom(start))
        }
        return lhs
    }

    func parseTernary() -> Expression {
        let start = peek().start
        let condition = parseBinary(4)
        guard isPunct("?") else { return condition }
        advance()
        // GNU `a ?: b` keeps the condition as the value.
        let then = isPunct(":") ? condition : parseAssignment()
        expect(":", "in conditional expression")
        let otherwise = parseAssignment()
        return Expression(kind: .ternary(condition: condition, then: then, otherwise: otherwise), range: rangeFrom(start))
    }

    func parseBinary(_ minimum: Int) -> Expression {
        let start = peek().start
        var lhs = parseUnary()
        var operands = 1
        while true {
            let current = peek()
            guard current.kind == .punct, let precedence = Self.binaryPrecedence(current.text), precedence >= minimum else {
                break
            }
            advance()
            let rhs = parseBinary(precedence + 1)
            operands += 1
            guard operands <= Self.maxChain else { continue }
            lhs = Expression(kind: .binary(op: current.text, lhs: lhs, rhs: rhs), range: rangeFrom(start))
        }
        return lhs
    }

    private enum UnaryForm {
        case prefixOperator, parenthesis, keyword, operand
    }

    private func unaryForm() -> UnaryForm {
        let current = peek()
        switch current.kind {
        case .punct:
            switch current.text {
            case "!", "-", "+", "~", "*", "&", "++", "--", "&&": return .prefixOperator
            case "(": return .parenthesis
            default: return .operand
            }
        case .identifier:
            switch current.text {
            case "sizeof", "alignof", "_Alignof", "__alignof__", "__alignof": return .keyword
            case "new", "delete", "throw", "co_await": return cplusplus ? .keyword : .operand
            default: return .operand
            }
        default:
            return .operand
        }
    }

    /// Kept small: every nesting level of an expression passes through here (see `maxDepth`).
    func parseUnary() -> Expression {
        guard enter() else { return skipAtDepthLimit() }
        defer { leave() }
        switch unaryForm() {
        case .prefixOperator:
            return parsePrefixOperation()
        case .parenthesis:
            if let cast = parseCastIfPresent() { return cast }
            return parsePostfix(parsePrimary())
        case .keyword:
            return parseUnaryKeyword()
        case .operand:
            return parsePostfix(parsePrimary())
        }
    }

    private func parsePrefixOperation() -> Expression {
        let operatorToken = advance()
        let operand = parseUnary()
        return Expression(kind: .prefix(op: operatorToken.text, operand: operand), range: rangeFrom(operatorToken.start))
    }

    private func parseUnaryKeyword() -> Expression {
        let current = peek()
        switch current.text {
        case "sizeof", "alignof", "_Alignof", "__alignof__", "__alignof":
            return parseSizeof()
        case "new":
            return parseNew()
        default:
            advance()
            if isPunct("["), isPunct("]", 1) {
                advance()
                advance()
            }
            if current.text == "throw", isPunct(";") || isPunct(")") { return unknown(current.start) }
            let operand = parseUnary()
            return Expression(kind: .prefix(op: current.text, operand: operand), range: rangeFrom(current.start))
        }
    }

    func skipAtDepthLimit() -> Expression {
        let current = peek()
        diagnose(current.start, "expression nested too deeply")
        if current.kind == .punct, Self.closer(of: current.text) != nil {
            skipBalanced()
        } else if current.kind != .eof {
            advance()
        }
        return unknown(current.start)
    }

    /// Consumes the closer of a group, or skips what is left of the group to it.
    func closeGroup(_ closer: String) {
        if accept(closer) { return }
        diagnose(peek().start, "expected '\(closer)'")
        while true {
            let current = peek()
            if current.kind == .eof { return }
            if current.kind == .punct {
                if current.text == closer {
                    advance()
                    return
                }
                if current.text == ";" || current.text == "}" || current.text == "{" || current.text == ")"
                    || current.text == "]" {
                    return
                }
                if Self.closer(of: current.text) != nil {
                    skipBalanced()
                    continue
                }
            }
            advance()
        }
    }

    // MARK: Postfix

    private enum PostfixForm {
        case member, subscriptAccess, call, increment, none
    }

    private func postfixForm() -> PostfixForm {
        let current = peek()
        guard current.kind == .punct else { return .none }
        switch current.text {
        case ".", "->": return .member
        case "[": return .subscriptAccess
        case "(": return .call
        case "++", "--": return .increment
        default: return .none
        }
    }

    func parsePostfix(_ base: Expression) -> Expression {
        var expression = base
        var links = 0
        while true {
            let next: Expression?
            switch postfixForm() {
            case .member: next = applyMember(to: expression)
            case .subscriptAccess: next = applySubscript(to: expression)
            case .call: next = applyCall(to: expression)
            case .increment: next = applyIncrement(to: expression)
            case .none: next = nil
            }
            guard let next else { return expression }
            links += 1
            if links <= Self.maxChain { expression = next }
        }
    }

    private func applyMember(to base: Expression) -> Expression? {
        let start = base.range.start.offset
        let name = peek(1)
        if name.kind == .identifier {
            advance()
            advance()
            return Expression(kind: .member(base: base, name: name.text), range: rangeFrom(start))
        }
        if cplusplus, name.isPunct("~"), peek(2).kind == .identifier {
            advance()
            advance()
            let destructor = advance()
            return Expression(kind: .member(base: base, name: "~" + destructor.text), range: rangeFrom(start))
        }
        diagnose(name.start, "expected member name")
        return nil
    }

    private func applySubscript(to base: Expression) -> Expression {
        advance()
        let subscriptIndex = parseExpression(allowComma: true)
        closeGroup("]")
        return Expression(kind: .subscriptAccess(base: base, arguments: [Argument(label: nil, value: subscriptIndex)]),
                          range: rangeFrom(base.range.start.offset))
    }

    private func applyCall(to callee: Expression) -> Expression {
        advance()
        let arguments = parseCallArguments()
        return Expression(kind: .call(callee: callee, arguments: arguments, isMessageSend: false),
                          range: rangeFrom(callee.range.start.offset))
    }

    private func applyIncrement(to operand: Expression) -> Expression {
        let operatorToken = advance()
        return Expression(kind: .postfix(op: operatorToken.text, operand: operand), range: rangeFrom(operand.range.start.offset))
    }

    /// Arguments after an already consumed `(`, through the `)`.
    func parseCallArguments() -> [Argument] {
        var arguments: [Argument] = []
        if accept(")") { return arguments }
        while true {
            arguments.append(Argument(label: nil, value: parseAssignment()))
            if accept(",") { continue }
            break
        }
        closeGroup(")")
        return arguments
    }

    // MARK: Primary

    private enum PrimaryForm {
        case identifier, number, string, character, atWord, parenthesis, bracket, atLiteral, block, braces, globalName,
             invalid
    }

    private func primaryForm() -> PrimaryForm {
        let current = peek()
        switch current.kind {
        case .identifier: return .identifier
        case .number: return .number
        case .string: return .string
        case .character: return .character
        case .atWord: return .atWord
        case .punct:
            switch current.text {
            case "(": return .parenthesis
            case "[": return .bracket
            case "@": return .atLiteral
            case "^": return .block
            case "{": return .braces
            case "::": return cplusplus && peek(1).kind == .identifier ? .globalName : .invalid
            default: return .invalid
            }
        case .directive, .eof:
            return .invalid
        }
    }

    func parsePrimary() -> Expression {
        switch primaryForm() {
        case .identifier: return parseIdentifierPrimary()
        case .number, .character: return parseNumberOrCharacter()
        case .string: return parseStringLiterals()
        case .atWord: return parseAtWord()
        case .parenthesis: return parseParenthesized()
        case .bracket: return parseBracket()
        case .atLiteral: return parseAtLiteral()
        case .block: return parseBlockLiteral()
        case .braces: return parseBraceList()
        case .globalName:
            advance()
            return parseIdentifierPrimary()
        case .invalid: return missingExpression()
        }
    }

    private func parseNumberOrCharacter() -> Expression {
        let current = advance()
        if current.kind == .character { return makeExpression(.integerLiteral(current.text), current.start) }
        return makeExpression(Self.isFloatLiteral(current.text) ? .floatLiteral(current.text) : .integerLiteral(current.text),
                              current.start)
    }

    private func missingExpression() -> Expression {
        let current = peek()
        diagnose(current.start, current.kind == .eof ? "unexpected end of input" : "expected expression")
        return Expression(kind: .unknown(""), range: range(current.start, current.start))
    }

    static func isFloatLiteral(_ text: String) -> Bool {
        let lower = text.lowercased()
        let isHex = lower.hasPrefix("0x")
        return lower.contains(".") || (isHex ? lower.contains("p") : lower.contains("e"))
    }

    func parseIdentifierPrimary() -> Expression {
        let word = advance()
        let start = word.start
        switch word.text {
        case "YES", "true":
            return makeExpression(.booleanLiteral(true), start)
        case "NO", "false":
            return makeExpression(.booleanLiteral(false), start)
        case "nil", "NULL", "Nil", "nullptr", "__null":
            return makeExpression(.nilLiteral, start)
        case "static_cast", "dynamic_cast", "reinterpret_cast", "const_cast":
            if cplusplus, let after = scanAngleArguments(index()) { return parseNamedCast(word, typeEnd: after) }
        default:
            break
        }
        var expression = makeExpression(.identifier(word.text), start)
        guard cplusplus else { return expression }
        var steps = 0
        while steps < 64 {
            steps += 1
            if isPunct("<"), let after = scanAngleArguments(index()),
               token(at: after).isPunct("(") || token(at: after).isPunct("::") || token(at: after).isPunct("{") {
                recordTypes(visibleIndices(index(), after))
                jump(to: after)
                continue
            }
            if isPunct("::") {
                let name = peek(1)
                if name.kind == .identifier {
                    advance()
                    advance()
                    expression = makeExpression(.member(base: expression, name: name.text), start)
                    continue
                }
                if name.isPunct("~"), peek(2).kind == .identifier {
                    advance()
                    advance()
                    let destructor = advance()
                    expression = makeExpression(.member(base: expression, name: "~" + destructor.text), start)
                    continue
                }
            }
            break
        }
        return expression
    }

    private func parseNamedCast(_ word: CToken, typeEnd after: Int) -> Expression {
        let indices = Array(visibleIndices(next(index()), after).dropLast())
        jump(to: after)
        recordTypes(indices)
        let type = typeText(indices)
        guard accept("(") else { return unknown(word.start) }
        let operand = parseExpression(allowComma: true)
        closeGroup(")")
        return makeExpression(.cast(operand: operand, type: type, op: word.text), word.start)
    }

    // MARK: Literals

    /// One or more adjacent string literals (`"a" "b"`, `@"a" @"b"`), concatenated.
    func parseStringLiterals() -> Expression {
        let start = peek().start
        var text = ""
        var first = true
        while true {
            var raw = first ? index() : pos
            first = false
            guard raw < limit else { break }
            if tokens[raw].isPunct("@"), raw + 1 < limit, tokens[raw + 1].kind == .string {
                advance()
                raw = pos
            }
            guard raw < limit, tokens[raw].kind == .string else { break }
            text += decodeString(tokens[raw])
            advance()
        }
        return makeExpression(.stringLiteral([.text(text)]), start)
    }

    func decodeString(_ token: CToken) -> String {
        var cursor = token.start
        let end = min(token.end, bytes.count)
        var isRaw = false
        while cursor < end, bytes[cursor] != UInt8(ascii: "\"") {
            if bytes[cursor] == UInt8(ascii: "R") { isRaw = true }
            cursor += 1
        }
        guard cursor < end else { return "" }
        cursor += 1
        if isRaw {
            guard let open = bytes[cursor..<end].firstIndex(of: UInt8(ascii: "(")) else { return "" }
            let delimiterLength = open - cursor
            let contentEnd = max(open + 1, end - delimiterLength - 2)
            return String(decoding: bytes[(open + 1)..<contentEnd], as: UTF8.self)
        }
        let contentEnd = end > cursor && bytes[end - 1] == UInt8(ascii: "\"") ? end - 1 : end
        return Self.decodeEscapes(bytes, cursor, contentEnd)
    }

    static func decodeEscapes(_ bytes: [UInt8], _ start: Int, _ end: Int) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(end - start)
        func appendScalar(_ value: UInt32) {
            if value < 0x80 {
                output.append(UInt8(value))
            } else if let scalar = Unicode.Scalar(value) {
                output.append(contentsOf: Array(String(Character(scalar)).utf8))
            } else {
                output.append(contentsOf: [0xEF, 0xBF, 0xBD])
            }
        }
        func hexValue(_ byte: UInt8) -> UInt32? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
        }
        var cursor = start
        while cursor < end {
            let current = bytes[cursor]
            guard current == UInt8(ascii: "\\"), cursor + 1 < end else {
                output.append(current)
                cursor += 1
                continue
            }
            let escaped = bytes[cursor + 1]
            cursor += 2
            switch escaped {
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "a"): output.append(0x07)
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "v"): output.append(0x0B)
            case UInt8(ascii: "e"): output.append(0x1B)
            case UInt8(ascii: "\n"): break
            case UInt8(ascii: "\r"):
                if cursor < end, bytes[cursor] == UInt8(ascii: "\n") { cursor += 1 }
            case UInt8(ascii: "x"):
                var value: UInt32 = 0
                var digits = 0
                while cursor < end, digits < 8, let digit = hexValue(bytes[cursor]) {
                    value = value &* 16 &+ digit
                    cursor += 1
                    digits += 1
                }
                appendScalar(digits == 0 ? UInt32(UInt8(ascii: "x")) : min(value, 0xFF))
            case UInt8(ascii: "u"), UInt8(ascii: "U"):
                let wanted = escaped == UInt8(ascii: "u") ? 4 : 8
                var value: UInt32 = 0
                var digits = 0
                while cursor < end, digits < wanted, let digit = hexValue(bytes[cursor]) {
                    value = value &* 16 &+ digit
                    cursor += 1
                    digits += 1
                }
                appendScalar(digits == 0 ? UInt32(escaped) : value)
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                var value = UInt32(escaped - UInt8(ascii: "0"))
                var digits = 1
                while cursor < end, digits < 3, bytes[cursor] >= UInt8(ascii: "0"), bytes[cursor] <= UInt8(ascii: "7") {
                    value = value * 8 + UInt32(bytes[cursor] - UInt8(ascii: "0"))
                    cursor += 1
                    digits += 1
                }
                appendScalar(min(value, 0xFF))
            default:
                output.append(escaped)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `@YES`, `@selector(...)`, `@protocol(...)`, `@encode(...)`, `@available(...)`.
    func parseAtWord() -> Expression {
        let word = advance()
        let start = word.start
        switch word.text {
        case "@YES", "@true", "@NO", "@false":
            let inner = Expression(kind: .booleanLiteral(word.text == "@YES" || word.text == "@true"),
                                   range: range(start + 1, word.end))
            return makeExpression(.wrapped(op: "@", operand: inner), start)
        case "@selector":
            guard accept("(") else { return unknown(start) }
            let indices = collectUntilCloser(")")
            let selector = indices.map { tokens[$0].text }.joined()
            return makeExpression(.typeValue(selector), start)
        case "@protocol":
            guard accept("(") else { return unknown(start) }
            let indices = collectUntilCloser(")")
            recordTypes(indices)
            return makeExpression(.typeValue(indices.map { tokens[$0].text }.joined()), start)
        case "@encode":
            guard accept("(") else { return unknown(start) }
            let indices = collectUntilCloser(")")
            recordTypes(indices)
            return makeExpression(.typeValue(typeText(indices)), start)
        default:
            if isPunct("(") { skipBalanced() }
            if word.text != "@available" { diagnose(start, "unexpected '\(word.text)' in expression") }
            return unknown(start)
        }
    }

    /// `@"..."`, `@[...]`, `@{...}`, `@(...)`, `@42`.
    func parseAtLiteral() -> Expression {
        let following = peek(1)
        if following.kind == .string { return parseStringLiterals() }
        let start = advance().start
        switch following.kind {
        case .number, .character:
            return parseBoxed(start)
        case .punct:
            switch following.text {
            case "[": return parseArrayLiteral(start)
            case "{": return parseDictionaryLiteral(start)
            case "(": return parseBoxedExpression(start)
            case "-", "+": return parseBoxed(start)
            default: break
            }
        default:
            break
        }
        diagnose(start, "unexpected '@'")
        return unknown(start)
    }

    private func parseBoxed(_ start: Int) -> Expression {
        let literal = parseUnary()
        return makeExpression(.wrapped(op: "@", operand: literal), start)
    }

    private func parseBoxedExpression(_ start: Int) -> Expression {
        advance()
        let inner = parseExpression(allowComma: true)
        closeGroup(")")
        return makeExpression(.wrapped(op: "@", operand: inner), start)
    }

    private func parseArrayLiteral(_ start: Int) -> Expression {
        advance()
        var elements: [Expression] = []
        while !isPunct("]"), !atEnd {
            elements.append(parseAssignment())
            if !accept(",") { break }
        }
        closeGroup("]")
        return makeExpression(.arrayLiteral(elements), start)
    }

    private func parseDictionaryLiteral(_ start: Int) -> Expression {
        advance()
        var pairs: [(key: Expression, value: Expression)] = []
        while !isPunct("}"), !atEnd {
            let key = parseAssignment()
            guard expect(":", "in dictionary literal") else { break }
            let value = parseAssignment()
            pairs.append((key, value))
            if !accept(",") { break }
        }
        closeGroup("}")
        return makeExpression(.dictionaryLiteral(pairs), start)
    }

    /// A brace initializer `{1, 2, .x = 3}` as an array literal of its values.
    func parseBraceList() -> Expression {
        let start = advance().start
        var elements: [Expression] = []
        while !isPunct("}"), !atEnd {
            if isPunct("."), peek(1).kind == .identifier, isPunct("=", 2) {
                advance()
                advance()
                advance()
            } else if isPunct("["), !cplusplus || !looksLikeLambda() {
                let after = indexAfterGroup(index())
                if token(at: after).isPunct("=") {
                    jump(to: after)
                    advance()
                }
            }
            elements.append(parseAssignment())
            if !accept(",") { break }
        }
        closeGroup("}")
        return makeExpression(.arrayLiteral(elements), start)
    }

    // MARK: Parentheses and casts

    func parseParenthesized() -> Expression {
        let start = advance().start
        if isPunct("{") {
            // GNU statement expression `({ ... })`.
            let body = parseBlock()
            closeGroup(")")
            return makeExpression(.closure(parameters: [], body: body), start)
        }
        let inner = parseExpression(allowComma: true)
        closeGroup(")")
        return makeExpression(.wrapped(op: "()", operand: inner), start)
    }

    /// Raw indices inside `( ... )` at the cursor when they could be a type, and the index after `)`.
    func parenthesizedTypeIndices() -> (indices: [Int], after: Int)? {
        let open = index()
        guard token(at: open).isPunct("(") else { return nil }
        var cursor = next(open)
        var collected: [Int] = []
        var level = 0
        var angle = 0
        var steps = 0
        while cursor < limit, steps < 96 {
            steps += 1
            let current = tokens[cursor]
            switch current.kind {
            case .identifier:
                if level == 0, CVocabulary.statementKeywords.contains(current.text) { return nil }
            case .punct:
                switch current.text {
                case "*", "^", "&", "&&", "::", "...":
                    break
                case "<":
                    angle += 1
                case ">":
                    angle -= 1
                    if angle < 0 { return nil }
                case ">>":
                    angle -= 2
                    if angle < 0 { return nil }
                case ",":
                    if angle == 0, level == 0 { return nil }
                case "(":
                    level += 1
                case ")":
                    if level == 0 { return collected.isEmpty ? nil : (collected, next(cursor)) }
                    level -= 1
                case "[", "]":
                    if level == 0 { return nil }
                default:
                    return nil
                }
            default:
                return nil
            }
            collected.append(cursor)
            cursor = next(cursor)
        }
        return nil
    }

    /// The type tokens of a cast at the cursor and the index after its `)`, or nil for a parenthesised expression.
    private func castCandidate() -> (indices: [Int], after: Int)? {
        guard let (indices, after) = parenthesizedTypeIndices(), let firstRaw = indices.first, let lastRaw = indices.last else {
            return nil
        }
        let first = tokens[firstRaw]
        let last = tokens[lastRaw]
        guard first.kind == .identifier else { return nil }
        var isType = false
        var strong = false
        let hasParenthesis = indices.contains { tokens[$0].isPunct("(") }
        if hasParenthesis {
            // Block and function pointer types: `(void (^)(BOOL))`, `(BOOL (*)(id, SEL))`.
            isType = indices.enumerated().contains { offset, raw in
                tokens[raw].isPunct("(") && offset + 1 < indices.count
                    && (tokens[indices[offset + 1]].isPunct("^") || tokens[indices[offset + 1]].isPunct("*"))
            }
            strong = isType
        } else if last.isPunct("*") || last.isPunct("&") || last.isPunct("&&") || last.isPunct(">") {
            isType = true
            strong = true
        } else if indices.allSatisfy({ tokens[$0].kind == .identifier }) {
            if indices.count >= 2 {
                isType = true
                strong = true
            } else {
                isType = CVocabulary.looksLikeTypeName(first.text)
                strong = CVocabulary.builtinTypes.contains(first.text) || first.text.hasSuffix("_t")
            }
        } else if indices.allSatisfy({ tokens[$0].kind == .identifier || tokens[$0].isPunct("::") }) {
            isType = true
        }
        guard isType else { return nil }
        let following = token(at: after)
        var startsOperand = false
        switch following.kind {
        case .identifier, .number, .string, .character, .atWord:
            startsOperand = !(following.kind == .identifier && ["in", "and", "or"].contains(following.text))
        case .punct:
            startsOperand = ["(", "[", "@", "^", "!", "~", "{"].contains(following.text)
                || (strong && ["-", "+", "*", "&", "++", "--", "::"].contains(following.text))
                || (["-", "+"].contains(following.text) && token(at: next(after)).kind == .number)
        default:
            startsOperand = false
        }
        return startsOperand ? (indices, after) : nil
    }

    func parseCastIfPresent() -> Expression? {
        guard let candidate = castCandidate() else { return nil }
        let start = advance().start
        jump(to: candidate.after)
        recordTypes(candidate.indices)
        let type = typeText(candidate.indices)
        let operand = isPunct("{") ? parseBraceList() : parseUnary()
        return makeExpression(.cast(operand: operand, type: type, op: "()"), start)
    }

    func parseSizeof() -> Expression {
        let keyword = advance()
        let start = keyword.start
        let callee = Expression(kind: .identifier(keyword.text), range: range(keyword.start, keyword.end))
        if isPunct("(") {
            if let (indices, after) = parenthesizedTypeIndices(), let firstRaw = indices.first, let lastRaw = indices.last,
               isSizeofType(indices) {
                jump(to: after)
                recordTypes(indices)
                let argument = Expression(kind: .typeValue(typeText(indices)),
                                          range: range(tokens[firstRaw].start, tokens[lastRaw].end))
                return makeExpression(.call(callee: callee, arguments: [Argument(label: nil, value: argument)],
                                            isMessageSend: false), start)
            }
            advance()
            let inner = parseExpression(allowComma: true)
            closeGroup(")")
            return makeExpression(.call(callee: callee, arguments: [Argument(label: nil, value: inner)], isMessageSend: false), start)
        }
        let operand = parseUnary()
        return makeExpression(.call(callee: callee, arguments: [Argument(label: nil, value: operand)], isMessageSend: false), start)
    }

    private func isSizeofType(_ indices: [Int]) -> Bool {
        guard let firstRaw = indices.first, let lastRaw = indices.last else { return false }
        let first = tokens[firstRaw]
        let last = tokens[lastRaw]
        if last.isPunct("*") || last.isPunct(">") || last.isPunct(")") { return true }
        if ["struct", "union", "enum", "class", "const", "unsigned", "signed"].contains(first.text) { return true }
        if indices.count == 1 { return CVocabulary.looksLikeTypeName(first.text) }
        return indices.allSatisfy { tokens[$0].kind == .identifier }
    }

    func parseNew() -> Expression {
        let start = advance().start
        if isPunct("(") { skipBalanced() }
        var typeIndices: [Int] = []
        var steps = 0
        while steps < 64 {
            steps += 1
            let raw = index()
            guard raw < limit else { break }
            let current = tokens[raw]
            if current.kind == .identifier || current.isPunct("::") || current.isPunct("*") {
                typeIndices.append(raw)
                advance()
            } else if current.isPunct("<"), let after = scanAngleArguments(raw) {
                typeIndices.append(contentsOf: visibleIndices(raw, after))
                jump(to: after)
            } else {
                break
            }
        }
        recordTypes(typeIndices)
        let typeName = typeText(typeIndices)
        let calleeStart = typeIndices.first.map { tokens[$0].start } ?? start
        let callee = Expression(kind: .identifier(typeName), range: range(calleeStart, lastEnd))
        var arguments: [Argument] = []
        if accept("(") {
            arguments = parseCallArguments()
        } else if isPunct("[") {
            advance()
            arguments = [Argument(label: nil, value: parseExpression(allowComma: true))]
            closeGroup("]")
        } else if isPunct("{") {
            arguments = [Argument(label: nil, value: parseBraceList())]
        }
        let call = Expression(kind: .call(callee: callee, arguments: arguments, isMessageSend: false), range: range(calleeStart, lastEnd))
        return makeExpression(.wrapped(op: "new", operand: call), start)
    }

    // MARK: Message sends, blocks, lambdas

    func parseBracket() -> Expression {
        if cplusplus, looksLikeLambda() { return parseLambda() }
        return parseMessageSend()
    }

    private func parseMessageSend() -> Expression {
        let start = advance().start
        if isPunct("]") {
            advance()
            return unknown(start)
        }
        let receiver = parseMessageReceiver()
        guard let selector = parseSelector(receiver: receiver) else {
            closeGroup("]")
            return unknown(start)
        }
        closeGroup("]")
        return makeExpression(.call(callee: selector.callee, arguments: selector.arguments, isMessageSend: true), start)
    }

    private func parseMessageReceiver() -> Expression {
        let first = peek()
        let receiver: Expression
        if first.kind == .identifier, isPunct("<", 1), let after = scanAngleArguments(index(1)),
           token(at: after).kind == .identifier {
            // `[NSMutableArray<NSString *> array]`
            advance()
            recordTypes(visibleIndices(index(), after))
            jump(to: after)
            receiver = Expression(kind: .identifier(first.text), range: range(first.start, first.end))
        } else {
            receiver = parseUnary()
        }
        if case .identifier(let name) = receiver.kind, CVocabulary.startsUppercase(name) {
            recordType(name: name, start: receiver.range.start.offset, end: receiver.range.end.offset)
        }
        return receiver
    }

    /// The selector pieces and arguments of a message send, up to (not including) the `]`.
    private func parseSelector(receiver: Expression) -> (callee: Expression, arguments: [Argument])? {
        var pieces: [String] = []
        var arguments: [Argument] = []
        var selectorEnd = receiver.range.end.offset
        while let label = parseSelectorLabel() {
            selectorEnd = lastEnd
            let value = parseAssignment()
            pieces.append(label)
            arguments.append(Argument(label: label.isEmpty ? nil : label, value: value))
        }
        let selector: String
        if pieces.isEmpty {
            let current = peek()
            guard current.kind == .identifier else {
                diagnose(current.start, "expected selector in message send")
                return nil
            }
            advance()
            selectorEnd = lastEnd
            selector = current.text
        } else {
            while accept(",") { arguments.append(Argument(label: nil, value: parseAssignment())) }
            selector = pieces.map { $0 + ":" }.joined()
        }
        let callee = Expression(kind: .member(base: receiver, name: selector),
                                range: range(receiver.range.start.offset, selectorEnd))
        return (callee, arguments)
    }

    /// `label:` or a bare `:`; nil when the next tokens are not a selector piece.
    private func parseSelectorLabel() -> String? {
        let current = peek()
        if current.kind == .identifier, isPunct(":", 1) {
            advance()
            advance()
            return current.text
        }
        if current.isPunct(":") {
            advance()
            return ""
        }
        return nil
    }

    /// In C++ modes, `[` that opens a lambda capture list rather than a message send.
    func looksLikeLambda() -> Bool {
        let first = peek(1)
        let second = peek(2)
        if first.isPunct("]") { return true }
        if first.isPunct("=") || first.isPunct("&") {
            return second.isPunct("]") || second.isPunct(",") || second.kind == .identifier
        }
        if first.isWord("this") { return true }
        if first.kind == .identifier, second.isPunct("]") || second.isPunct(",") { return true }
        return false
    }

    func parseLambda() -> Expression {
        let start = peek().start
        skipBalanced()
        var parameters: [String] = []
        if isPunct("(") { parameters = parseParameterList().map(\.name).filter { !$0.isEmpty } }
        var steps = 0
        while !isPunct("{"), steps < 64 {
            let current = peek()
            if current.kind == .eof || current.isPunct(";") || current.isPunct(")") || current.isPunct(",") { break }
            if current.kind == .punct, Self.closer(of: current.text) != nil { skipBalanced() } else { advance() }
            steps += 1
        }
        guard isPunct("{") else { return unknown(start) }
        let body = parseBlock()
        return makeExpression(.closure(parameters: parameters, body: body), start)
    }

    /// `^{ ... }`, `^(NSData *d) { ... }`, `^BOOL(id x) { ... }`.
    func parseBlockLiteral() -> Expression {
        let start = advance().start
        let parameters = parseBlockSignature()
        guard isPunct("{") else {
            diagnose(peek().start, "expected block body")
            return unknown(start)
        }
        let body = parseBlock()
        return makeExpression(.closure(parameters: parameters, body: body), start)
    }

    /// Return type, parameter names and attributes between `^` and `{`.
    private func parseBlockSignature() -> [String] {
        var returnType: [Int] = []
        var steps = 0
        while !isPunct("("), !isPunct("{"), steps < 32 {
            steps += 1
            let raw = index()
            guard raw < limit else { break }
            let current = tokens[raw]
            guard current.kind == .identifier || current.isPunct("*") || current.isPunct("<") || current.isPunct(">")
                || current.isPunct(",") else { break }
            returnType.append(raw)
            advance()
        }
        recordTypes(returnType)
        var parameters: [String] = []
        if isPunct("(") { parameters = parseParameterList().map(\.name).filter { !$0.isEmpty } }
        steps = 0
        while !isPunct("{"), steps < 16, peek().kind == .identifier {
            steps += 1
            advance()
            if isPunct("(") { skipBalanced() }
        }
        return parameters
    }
}
