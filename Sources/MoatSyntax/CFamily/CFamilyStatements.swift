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
        while true {
            if pos < limit, tokens[pos].kind == .directive {
                if let block = parseConditionalGroup({ $0.parseStatementList(untilBrace: false) }) {
                    statements.append(Statement(kind: .conditional(block), range: block.range))
                }
                continue
            }
            let current = peek()
            if current.kind == .eof || current.isPunct("}") { break }
            let before = pos
            statements.append(contentsOf: parseStatement())
            if pos == before {
                diagnose(current.start, "unexpected '\(sourceText(current.start, current.end, maximum: 16))'")
                advance()
            }
        }
        return statements
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

    func parseStatement() -> [Statement] {
        let current = peek()
        let start = current.start
        guard enter() else {
            diagnose(start, "statement nested too deeply")
            recoverToStatementEnd()
            return lastEnd > start ? [Statement(kind: .other(sourceText(start, lastEnd)), range: rangeFrom(start))] : []
        }
        defer { leave() }
        if skipLineAloneMacro() { return [] }
        switch current.kind {
        case .punct:
            if current.isPunct("{") {
                let block = parseBlock()
                return [Statement(kind: .block(block), range: block.range)]
            }
            if current.isPunct(";") {
                advance()
                return []
            }
        case .atWord:
            if let statement = parseAtStatement() { return [statement] }
        case .identifier:
            if let statements = parseKeywordStatement() { return statements }
        default:
            break
        }
        if current.kind == .identifier, let scan = scanDeclaration(.statement) {
            if scan.tagIndex != nil {
                return parseTagDefinitionItems(scan).compactMap { item in
                    switch item {
                    case .declaration(let declaration):
                        return Self.statement(from: declaration)
                    case .statement(let statement):
                        return statement
                    }
                }
            }
            return parseDeclarators(scan, .statement).map(Self.statement(from:))
        }
        return [parseExpressionStatement()]
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

    /// Statements introduced by a word; nil when the word starts a declaration or an expression.
    func parseKeywordStatement() -> [Statement]? {
        let current = peek()
        let start = current.start
        switch current.text {
        case "if":
            return [parseIf()]
        case "for":
            return [parseFor()]
        case "while":
            advance()
            let conditions = parseParenthesizedCondition()
            let body = parseBranch()
            return [Statement(kind: .loop(header: conditions.flatMap(\.expressions), variables: [], body: body), range: rangeFrom(start))]
        case "do":
            advance()
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
            return [Statement(kind: .loop(header: header, variables: [], body: body), range: range(start, end))]
        case "switch":
            return [parseSwitch()]
        case "return":
            advance()
            let value: Expression? = isPunct(";") || isPunct("}") ? nil : parseExpression(allowComma: true)
            let end = lastEnd
            finishStatement(start: start)
            return [Statement(kind: .returnStatement(value), range: range(start, end))]
        case "break", "continue":
            advance()
            finishStatement(start: start)
            return [Statement(kind: .other(current.text), range: range(start, current.end))]
        case "goto":
            advance()
            if peek().kind == .identifier { advance() }
            let end = lastEnd
            finishStatement(start: start)
            return [Statement(kind: .other(sourceText(start, end)), range: range(start, end))]
        case "case", "default":
            // A label outside a switch body: skip it.
            diagnose(start, "'\(current.text)' outside switch")
            advance()
            if current.text == "case" { _ = parseAssignment() }
            _ = accept(":")
            return []
        case "else":
            diagnose(start, "'else' without 'if'")
            advance()
            return []
        case "try" where cplusplus:
            return [parseTry()]
        case "throw" where cplusplus:
            advance()
            if accept(";") { return [Statement(kind: .other("throw"), range: rangeFrom(start))] }
            let value = parseExpression(allowComma: true)
            let end = lastEnd
            finishStatement(start: start)
            return [Statement(kind: .throwStatement(value), range: range(start, end))]
        case "typedef":
            return parseTypedef().map(Self.statement(from:))
        case "asm", "__asm__", "__asm":
            recoverToStatementEnd()
            return [Statement(kind: .other(sourceText(start, lastEnd)), range: rangeFrom(start))]
        case "using", "namespace", "static_assert", "_Static_assert", "template":
            recoverToStatementEnd()
            return []
        default:
            // `label:`
            if isPunct(":", 1), !CVocabulary.statementKeywords.contains(current.text) {
                advance()
                advance()
                return parseStatement()
            }
            return nil
        }
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
        guard accept("(") else {
            diagnose(peek().start, "expected '(' after for")
            let body = parseBranch()
            return Statement(kind: .loop(header: [], variables: [], body: body), range: rangeFrom(start))
        }
        if let separator = forInSeparator() {
            // `for (NSString *s in items)`, `for (auto &x : v)`
            let declaration = visibleIndices(index(), separator)
            let nameRaw = declaration.last { tokens[$0].kind == .identifier && !CVocabulary.isNonTypeWord(tokens[$0].text) }
            recordTypes(declaration.filter { $0 != nameRaw })
            jump(to: separator)
            advance()
            let sequence = parseExpression(allowComma: true)
            closeGroup(")")
            let body = parseBranch()
            let variables = nameRaw.map { [tokens[$0].text] } ?? []
            return Statement(kind: .loop(header: [sequence], variables: variables, body: body), range: rangeFrom(start))
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
        let body = parseBranch()
        return Statement(kind: .loop(header: header, variables: variables, body: body), range: rangeFrom(start))
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

    private func parseSwitchBody() -> [SwitchCase] {
        let open = advance()
        var cases: [SwitchCase] = []
        var current: (start: Int, patterns: [Expression], statements: [Statement])?
        func flush() {
            if let finished = current {
                cases.append(SwitchCase(patterns: finished.patterns,
                                        body: Block(statements: finished.statements, range: range(finished.start, lastEnd))))
            }
            current = nil
        }
        while true {
            if pos < limit, tokens[pos].kind == .directive {
                if tokens[pos].directive == .ifGroup, !groupContainsCaseLabel(pos) {
                    let directiveStart = tokens[pos].start
                    if let block = parseConditionalGroup({ $0.parseStatementList(untilBrace: false) }) {
                        if current == nil { current = (directiveStart, [], []) }
                        current?.statements.append(Statement(kind: .conditional(block), range: block.range))
                    }
                } else {
                    pos += 1
                }
                continue
            }
            let token = peek()
            if token.kind == .eof {
                diagnose(open.start, "unterminated switch body")
                break
            }
            if token.isPunct("}") {
                flush()
                advance()
                return cases
            }
            if token.isWord("case") {
                advance()
                var patterns = [parseAssignment()]
                if accept("...") { patterns.append(parseAssignment()) }
                expect(":", "after case pattern")
                if let existing = current, existing.statements.isEmpty, !existing.patterns.isEmpty {
                    current?.patterns.append(contentsOf: patterns)
                } else {
                    flush()
                    current = (token.start, patterns, [])
                }
                continue
            }
            if token.isWord("default"), isPunct(":", 1) {
                advance()
                advance()
                flush()
                current = (token.start, [], [])
                continue
            }
            let before = pos
            let statements = parseStatement()
            if current == nil { current = (token.start, [], []) }
            current?.statements.append(contentsOf: statements)
            if pos == before {
                diagnose(token.start, "unexpected token in switch body")
                advance()
            }
        }
        flush()
        return cases
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
        let current = peek()
        let start = current.start
        switch current.text {
        case "@try":
            return parseTry()
        case "@throw":
            advance()
            if accept(";") { return Statement(kind: .other("@throw"), range: rangeFrom(start)) }
            let value = parseExpression(allowComma: true)
            let end = lastEnd
            finishStatement(start: start)
            return Statement(kind: .throwStatement(value), range: range(start, end))
        case "@autoreleasepool":
            advance()
            let body = parseBlockOrEmpty()
            return Statement(kind: .block(body), range: rangeFrom(start))
        case "@synchronized":
            advance()
            if accept("(") {
                _ = parseExpression(allowComma: true)
                closeGroup(")")
            }
            let body = parseBlockOrEmpty()
            return Statement(kind: .block(body), range: rangeFrom(start))
        case "@catch", "@finally":
            diagnose(start, "'\(current.text)' without '@try'")
            advance()
            if isPunct("(") { skipBalanced() }
            let body = parseBlockOrEmpty()
            return Statement(kind: .block(body), range: rangeFrom(start))
        default:
            return nil
        }
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
