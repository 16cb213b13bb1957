// Statements inside function, method and block bodies.

extension CFamilyParser {
    /// `{ statements }` at the cursor.
    func parseBlock() -> Block {
        let open = peek()
        let start = open.start
        guard open.isPunct("{") else {
            diagnose(start, "expected '{'")
            return Block(statements: [], range: range(start, start))
        }
        advance()
        let statements = parseStatementList(untilBrace: true)
        if !accept("}") { diagnose(start, "unterminated block") }
        return Block(statements: statements, range: rangeFrom(start))
    }

    /// Statements up to a `}` (not consumed) or the end of the visible tokens.
    func parseStatementList(untilBrace: Bool) -> [Statement] {
        var statements: [Statement] = []
        while parseStatementListItem(into: &statements) {}
        return statements
    }

    /// One step of a statement list; false at its end.
    private func parseStatementListItem(into statements: inout [Statement]) -> Bool {
        if pos < limit, tokens[pos].kind == .directive {
            if let block = parseConditionalGroup({ $0.parseStatementList(untilBrace: false) }) {
                statements.append(Statement(kind: .conditional(block), range: block.range))
            }
            return true
        }
        let current = peek()
        if current.kind == .eof || current.isPunct("}") { return false }
        let before = pos
        statements.append(contentsOf: parseStatement())
        if pos == before {
            diagnose(current.start, "unexpected '\(sourceText(current.start, current.end, maximum: 16))'")
            advance()
        }
        return true
    }

    /// At a raw conditional directive: parses a structural `#if` group clause by clause with `parseClause`,
    /// or steps over a directive that is not the start of one (an inline or stray directive).
    func parseConditionalGroup<Element>(_ parseClause: (CFamilyParser) -> [Element]) -> ConditionalBlock<Element>? {
        let first = tokens[pos]
        guard first.directive == .ifGroup, first.partner > pos, first.partner < limit, depth < Self.maxDepth else {
            pos += 1
            return nil
        }
        depth += 1
        defer { depth -= 1 }
        let savedLimit = limit
        var clauses: [ConditionalBlock<Element>.Clause] = []
        var current = pos
        var groupEnd = first.end
        while true {
            let directive = tokens[current]
            let separator = directive.partner
            guard separator > current, separator < savedLimit else {
                pos = current + 1
                break
            }
            pos = current + 1
            limit = separator
            let elements = parseClause(self)
            if index() < separator { diagnose(tokens[index()].start, "unparsed code in #if clause") }
            limit = savedLimit
            clauses.append(.init(condition: directive.directive == .elseClause ? nil : directive.text, elements: elements))
            pos = separator
            if tokens[separator].directive == .endIf {
                pos = separator + 1
                groupEnd = tokens[separator].end
                break
            }
            current = separator
        }
        lastEnd = max(lastEnd, groupEnd)
        guard clauses.contains(where: { !$0.elements.isEmpty }) else { return nil }
        return ConditionalBlock(clauses: clauses, range: range(first.start, groupEnd))
    }

    /// An all-caps macro alone on its line (`NS_ASSUME_NONNULL_BEGIN`): skipped.
    func skipLineAloneMacro() -> Bool {
        let current = peek()
        guard current.kind == .identifier, current.newlineBefore, CVocabulary.isMacroLike(current.text) else { return false }
        let following = peek(1)
        guard following.kind == .eof || following.newlineBefore else { return false }
        advance()
        return true
    }

    private enum StatementForm {
        case block, empty, atWord, word, other
    }

    private func statementForm() -> StatementForm {
        let current = peek()
        switch current.kind {
        case .punct:
            if current.isPunct("{") { return .block }
            if current.isPunct(";") { return .empty }
            return .other
        case .atWord: return .atWord
        case .identifier: return .word
        default: return .other
        }
    }

    /// Kept small: every nesting level of statements passes through here (see `maxDepth`).
    func parseStatement() -> [Statement] {
        guard enter() else { return skipStatementAtDepthLimit() }
        defer { leave() }
        if skipLineAloneMacro() { return [] }
        switch statementForm() {
        case .block:
            let block = parseBlock()
            return [Statement(kind: .block(block), range: block.range)]
        case .empty:
            advance()
            return []
        case .atWord:
            if let statement = parseAtStatement() { return [statement] }
        case .word:
            if let statements = parseKeywordStatement() { return statements }
            if let statements = parseDeclarationStatement() { return statements }
        case .other:
            break
        }
        return parseExpressionOrSkip()
    }

    private func skipStatementAtDepthLimit() -> [Statement] {
        let start = peek().start
        diagnose(start, "statement nested too deeply")
        recoverToStatementEnd()
        return lastEnd > start ? [Statement(kind: .other(sourceText(start, lastEnd)), range: rangeFrom(start))] : []
    }

    private func parseDeclarationStatement() -> [Statement]? {
        guard let scan = scanDeclaration(.statement) else { return nil }
        if scan.tagIndex != nil {
            return parseTagDefinitionItems(scan).map { item in
                switch item {
                case .declaration(let declaration): return Self.statement(from: declaration)
                case .statement(let statement): return statement
                }
            }
        }
        return parseDeclarators(scan, .statement).map(Self.statement(from:))
    }

    private func parseExpressionOrSkip() -> [Statement] {
        let current = peek()
        guard canStartExpression(current) else {
            diagnose(current.start, "unexpected '\(sourceText(current.start, current.end, maximum: 16))'")
            advance()
            return []
        }
        return [parseExpressionStatement()]
    }

    func canStartExpression(_ token: CToken) -> Bool {
        switch token.kind {
        case .identifier, .number, .string, .character, .atWord: return true
        case .punct: return ["(", "[", "@", "^", "{", "!", "-", "+", "~", "*", "&", "++", "--", "&&", "::"].contains(token.text)
        case .directive, .eof: return false
        }
    }

    static func statement(from declaration: Declaration) -> Statement {
        switch declaration {
        case .variable(let variable):
            return Statement(kind: .variable(names: [variable.name], type: variable.type, initializer: variable.initializer,
                                             isConstant: variable.isConstant), range: variable.range)
        case .function(let function):
            return Statement(kind: .declaration(declaration), range: function.range)
        case .type(let type):
            return Statement(kind: .declaration(declaration), range: type.range)
        case .conditional(let block):
            return Statement(kind: .declaration(declaration), range: block.range)
        }
    }

    func parseExpressionStatement() -> Statement {
        let start = peek().start
        let expression = parseExpression(allowComma: true)
        let kind: Statement.Kind
        if case .binary(let op, let lhs, let rhs) = expression.kind, Self.assignmentOperators.contains(op) {
            kind = .assignment(target: lhs, op: op, value: rhs)
        } else {
            kind = .expression(expression)
        }
        let end = lastEnd
        finishStatement(start: start)
        return Statement(kind: kind, range: range(start, end))
    }

    /// A sub-statement used as a branch or loop body, as a block.
    func parseBranch() -> Block {
        if isPunct("{") { return parseBlock() }
        let current = peek()
        let start = current.start
        if current.kind == .eof || current.isPunct("}") {
            diagnose(start, "expected statement")
            return Block(statements: [], range: range(start, start))
        }
        let statements = parseStatement()
        return Block(statements: statements, range: rangeFrom(start))
    }

    func parseBlockOrEmpty() -> Block {
        if isPunct("{") { return parseBlock() }
        let start = peek().start
        diagnose(start, "expected '{'")
        return Block(statements: [], range: range(start, start))
    }

    /// `( condition )` of `if`, `while`, `switch`.
    func parseParenthesizedCondition() -> [Condition] {
        let open = peek()
        guard open.isPunct("(") else {
            diagnose(open.start, "expected '('")
            return []
        }
        advance()
        let first = peek()
        if first.isWord("__builtin_available") || first.kind == .atWord && first.text == "@available" {
            advance()
            if isPunct("(") { skipBalanced() }
            let text = sourceText(first.start, lastEnd)
            let conditionRange = rangeFrom(first.start)
            closeGroup(")")
            return [.other(text, range: conditionRange)]
        }
        let expression = parseExpression(allowComma: true)
        closeGroup(")")
        return [.expression(expression)]
    }

    // MARK: Keyword statements

    private enum StatementKeyword {
        case ifKeyword, forKeyword, whileKeyword, doKeyword, switchKeyword, returnKeyword, jump, label, elseKeyword,
             tryKeyword, throwKeyword, typedefKeyword, assembly, skipped
    }

    private static let statementKeywordTable: [String: StatementKeyword] = [
        "if": .ifKeyword, "for": .forKeyword, "while": .whileKeyword, "do": .doKeyword, "switch": .switchKeyword,
        "return": .returnKeyword, "break": .jump, "continue": .jump, "goto": .jump, "case": .label, "default": .label,
        "else": .elseKeyword, "try": .tryKeyword, "throw": .throwKeyword, "typedef": .typedefKeyword, "asm": .assembly,
        "__asm__": .assembly, "__asm": .assembly, "using": .skipped, "namespace": .skipped, "static_assert": .skipped,
        "_Static_assert": .skipped, "template": .skipped,
    ]

    /// Statements introduced by a word; nil when the word starts a declaration or an expression.
    func parseKeywordStatement() -> [Statement]? {
        guard let keyword = Self.statementKeywordTable[peek().text] else { return parseLabeledStatement() }
        switch keyword {
        case .ifKeyword: return [parseIf()]
        case .forKeyword: return [parseFor()]
        case .whileKeyword: return [parseWhile()]
        case .doKeyword: return [parseDoWhile()]
        case .switchKeyword: return [parseSwitch()]
        case .returnKeyword: return [parseReturn()]
        case .jump: return [parseJump()]
        case .label: return parseStrayLabel()
        case .elseKeyword: return parseStrayElse()
        case .tryKeyword: return cplusplus ? [parseTry()] : nil
        case .throwKeyword: return cplusplus ? [parseCxxThrow()] : nil
        case .typedefKeyword: return parseTypedef().map(Self.statement(from:))
        case .assembly: return [parseAssembly()]
        case .skipped:
            recoverToStatementEnd()
            return []
        }
    }

    private func parseStrayElse() -> [Statement] {
        let current = advance()
        diagnose(current.start, "'else' without 'if'")
        return []
    }

    private func parseAssembly() -> Statement {
        let start = peek().start
        recoverToStatementEnd()
        return Statement(kind: .other(sourceText(start, lastEnd)), range: rangeFrom(start))
    }

    private func parseWhile() -> Statement {
        let start = advance().start
        let conditions = parseParenthesizedCondition()
        let body = parseBranch()
        return Statement(kind: .loop(header: conditions.flatMap(\.expressions), variables: [], body: body), range: rangeFrom(start))
    }

    private func parseDoWhile() -> Statement {
        let start = advance().start
        let body = parseBranch()
        var header: [Expression] = []
        if isWord("while") {
            advance()
            header = parseParenthesizedCondition().flatMap(\.expressions)
        } else {
            diagnose(peek().start, "expected 'while' after do body")
        }
        let end = lastEnd
        finishStatement(start: start)
        return Statement(kind: .loop(header: header, variables: [], body: body), range: range(start, end))
    }

    private func parseReturn() -> Statement {
        let start = advance().start
        let value: Expression? = isPunct(";") || isPunct("}") ? nil : parseExpression(allowComma: true)
        let end = lastEnd
        finishStatement(start: start)
        return Statement(kind: .returnStatement(value), range: range(start, end))
    }

    /// `break`, `continue`, `goto label`.
    private func parseJump() -> Statement {
        let keyword = advance()
        if keyword.text == "goto", peek().kind == .identifier { advance() }
        let end = lastEnd
        finishStatement(start: keyword.start)
        return Statement(kind: .other(sourceText(keyword.start, end)), range: range(keyword.start, end))
    }

    /// A `case`/`default` label outside a switch body: skipped.
    private func parseStrayLabel() -> [Statement] {
        let label = advance()
        diagnose(label.start, "'\(label.text)' outside switch")
        if label.text == "case" { _ = parseAssignment() }
        _ = accept(":")
        return []
    }

    private func parseCxxThrow() -> Statement {
        let start = advance().start
        if accept(";") { return Statement(kind: .other("throw"), range: rangeFrom(start)) }
        let value = parseExpression(allowComma: true)
        let end = lastEnd
        finishStatement(start: start)
        return Statement(kind: .throwStatement(value), range: range(start, end))
    }

    /// `label: statement` (the label is dropped); nil when the word is not a label.
    private func parseLabeledStatement() -> [Statement]? {
        guard isPunct(":", 1), !CVocabulary.statementKeywords.contains(peek().text) else { return nil }
        advance()
        advance()
        return parseStatement()
    }

    func parseIf() -> Statement {
        let start = advance().start
        if isWord("constexpr") { advance() }
        let conditions = parseParenthesizedCondition()
        let then = parseBranch()
        var elseBranch: Block?
        if isWord("else") {
            advance()
            if isPunct("{") {
                elseBranch = parseBlock()
            } else {
                let elseStart = peek().start
                let statements = parseStatement()
                elseBranch = Block(statements: statements, range: rangeFrom(elseStart))
            }
        }
        return Statement(kind: .ifStatement(conditions: conditions, then: then, elseBranch: elseBranch), range: rangeFrom(start))
    }

    func parseFor() -> Statement {
        let start = advance().start
        let (header, variables) = parseForHeader()
        let body = parseBranch()
        return Statement(kind: .loop(header: header, variables: variables, body: body), range: rangeFrom(start))
    }

    /// `(init; condition; step)` or `(Type *x in collection)` / `(auto &x : v)`, through the `)`.
    private func parseForHeader() -> (header: [Expression], variables: [String]) {
        guard accept("(") else {
            diagnose(peek().start, "expected '(' after for")
            return ([], [])
        }
        if let separator = forInSeparator() {
            let declaration = visibleIndices(index(), separator)
            let nameRaw = declaration.last { tokens[$0].kind == .identifier && !CVocabulary.isNonTypeWord(tokens[$0].text) }
            recordTypes(declaration.filter { $0 != nameRaw })
            jump(to: separator)
            advance()
            let sequence = parseExpression(allowComma: true)
            closeGroup(")")
            return ([sequence], nameRaw.map { [tokens[$0].text] } ?? [])
        }
        var header: [Expression] = []
        var variables: [String] = []
        if !accept(";") {
            if peek().kind == .identifier, let scan = scanDeclaration(.forInit) {
                for declaration in parseDeclarators(scan, .forInit) {
                    if case .variable(let variable) = declaration {
                        variables.append(variable.name)
                        if let initializer = variable.initializer { header.append(initializer) }
                    }
                }
            } else {
                header.append(parseExpression(allowComma: true))
                expect(";", "in for header")
            }
        }
        if !isPunct(";"), !isPunct(")") { header.append(parseExpression(allowComma: true)) }
        if !accept(";") { diagnose(peek().start, "expected ';' in for header") }
        if !isPunct(")") { header.append(parseExpression(allowComma: true)) }
        closeGroup(")")
        return (header, variables)
    }

    /// Raw index of `in` (fast enumeration) or `:` (range-based for) inside a `for (` header, or nil.
    private func forInSeparator() -> Int? {
        var cursor = index()
        var level = 0
        var sawQuestion = false
        var steps = 0
        while cursor < limit, steps < 256 {
            steps += 1
            let current = tokens[cursor]
            if current.kind == .punct {
                switch current.text {
                case "(", "[", "{": level += 1
                case ")", "]", "}":
                    if level == 0 { return nil }
                    level -= 1
                case ";": if level == 0 { return nil }
                case "?": if level == 0 { sawQuestion = true }
                case ":": if level == 0, !sawQuestion { return cursor }
                default: break
                }
            } else if current.isWord("in"), level == 0, steps > 1 {
                return cursor
            }
            cursor = next(cursor)
        }
        return nil
    }

    func parseSwitch() -> Statement {
        let start = advance().start
        let subjectStart = peek().start
        let subject = parseParenthesizedCondition().first?.expressions.first
            ?? Expression(kind: .unknown(""), range: range(subjectStart, subjectStart))
        var cases: [SwitchCase] = []
        if isPunct("{") {
            cases = parseSwitchBody()
        } else {
            cases = [SwitchCase(patterns: [], body: parseBranch())]
        }
        return Statement(kind: .switchStatement(subject: subject, cases: cases), range: rangeFrom(start))
    }

    /// The cases being collected while a switch body is parsed.
    private struct SwitchBuilder {
        var cases: [SwitchCase] = []
        var current: (start: Int, patterns: [Expression], statements: [Statement])?
    }

    private func parseSwitchBody() -> [SwitchCase] {
        let open = advance()
        var builder = SwitchBuilder()
        while parseSwitchBodyStep(&builder) {}
        if !accept("}") { diagnose(open.start, "unterminated switch body") }
        flushCase(&builder)
        return builder.cases
    }

    private func flushCase(_ builder: inout SwitchBuilder) {
        if let finished = builder.current {
            builder.cases.append(SwitchCase(patterns: finished.patterns,
                                            body: Block(statements: finished.statements, range: range(finished.start, lastEnd))))
        }
        builder.current = nil
    }

    /// One label, directive or statement of a switch body; false at the `}` or the end.
    private func parseSwitchBodyStep(_ builder: inout SwitchBuilder) -> Bool {
        if pos < limit, tokens[pos].kind == .directive {
            parseSwitchDirective(&builder)
            return true
        }
        let token = peek()
        if token.kind == .eof || token.isPunct("}") { return false }
        if token.isWord("case") {
            parseCaseLabel(&builder)
            return true
        }
        if token.isWord("default"), isPunct(":", 1) {
            advance()
            advance()
            flushCase(&builder)
            builder.current = (token.start, [], [])
            return true
        }
        parseSwitchStatement(&builder)
        return true
    }

    private func parseSwitchDirective(_ builder: inout SwitchBuilder) {
        guard tokens[pos].directive == .ifGroup, !groupContainsCaseLabel(pos) else {
            pos += 1
            return
        }
        let directiveStart = tokens[pos].start
        guard let block = parseConditionalGroup({ $0.parseStatementList(untilBrace: false) }) else { return }
        if builder.current == nil { builder.current = (directiveStart, [], []) }
        builder.current?.statements.append(Statement(kind: .conditional(block), range: block.range))
    }

    private func parseCaseLabel(_ builder: inout SwitchBuilder) {
        let label = advance()
        var patterns = [parseAssignment()]
        if accept("...") { patterns.append(parseAssignment()) }
        expect(":", "after case pattern")
        if let existing = builder.current, existing.statements.isEmpty, !existing.patterns.isEmpty {
            builder.current?.patterns.append(contentsOf: patterns)
        } else {
            flushCase(&builder)
            builder.current = (label.start, patterns, [])
        }
    }

    private func parseSwitchStatement(_ builder: inout SwitchBuilder) {
        let before = pos
        let start = peek().start
        let statements = parseStatement()
        if builder.current == nil { builder.current = (start, [], []) }
        builder.current?.statements.append(contentsOf: statements)
        if pos == before {
            diagnose(start, "unexpected token in switch body")
            advance()
        }
    }

    /// Whether a structural `#if` group in a switch body holds `case`/`default` labels of its own level.
    private func groupContainsCaseLabel(_ raw: Int) -> Bool {
        var end = raw
        var guardSteps = 0
        while end < tokens.count, tokens[end].partner > end, guardSteps < 1024 {
            guardSteps += 1
            end = tokens[end].partner
            if tokens[end].directive == .endIf { break }
        }
        var level = 0
        var cursor = raw + 1
        while cursor < end, cursor < tokens.count {
            let current = tokens[cursor]
            if current.isPunct("{") { level += 1 }
            if current.isPunct("}") { level -= 1 }
            if level == 0, current.isWord("case") || current.isWord("default") { return true }
            cursor += 1
        }
        return false
    }

    // MARK: Objective-C statements

    private func parseAtStatement() -> Statement? {
        switch peek().text {
        case "@try": return parseTry()
        case "@throw": return parseObjCThrow()
        case "@autoreleasepool", "@synchronized", "@catch", "@finally": return parseScopedBlock()
        default: return nil
        }
    }

    private func parseObjCThrow() -> Statement {
        let start = advance().start
        if accept(";") { return Statement(kind: .other("@throw"), range: rangeFrom(start)) }
        let value = parseExpression(allowComma: true)
        let end = lastEnd
        finishStatement(start: start)
        return Statement(kind: .throwStatement(value), range: range(start, end))
    }

    /// `@autoreleasepool { }`, `@synchronized (x) { }`, and a stray `@catch`/`@finally` block: a plain block.
    private func parseScopedBlock() -> Statement {
        let keyword = advance()
        switch keyword.text {
        case "@synchronized":
            if accept("(") {
                _ = parseExpression(allowComma: true)
                closeGroup(")")
            }
        case "@catch", "@finally":
            diagnose(keyword.start, "'\(keyword.text)' without '@try'")
            if isPunct("(") { skipBalanced() }
        default:
            break
        }
        let body = parseBlockOrEmpty()
        return Statement(kind: .block(body), range: rangeFrom(keyword.start))
    }

    /// `@try { } @catch (NSException *e) { } @finally { }` and C++ `try { } catch (...) { }`.
    /// `@finally` becomes one more catch clause so its body stays visible.
    func parseTry() -> Statement {
        let start = advance().start
        let body = parseBlockOrEmpty()
        var catches: [CatchClause] = []
        while true {
            let current = peek()
            if (current.kind == .atWord && current.text == "@catch") || (cplusplus && current.isWord("catch")) {
                advance()
                if accept("(") {
                    let indices = collectUntilCloser(")")
                    _ = analyzeParameter(indices)
                }
                catches.append(CatchClause(body: parseBlockOrEmpty()))
            } else if current.kind == .atWord && current.text == "@finally" {
                advance()
                catches.append(CatchClause(body: parseBlockOrEmpty()))
            } else {
                break
            }
        }
        return Statement(kind: .doStatement(body: body, catches: catches), range: rangeFrom(start))
    }
}
