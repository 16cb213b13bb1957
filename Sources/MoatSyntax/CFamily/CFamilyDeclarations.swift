// Declarations: file scope, C declarators and functions, Objective-C containers, C/C++ records and enums.

enum CDeclarationContext {
    case topLevel, member, statement, forInit
}

/// What a look-ahead found at the start of a C declaration: its specifiers and where the declarators begin.
struct CDeclarationScan {
    var start: Int
    /// Raw indices of the base type (built-in words and the one user type name with its generic arguments).
    var typeIndices: [Int]
    var modifiers: [String]
    var attributes: [String]
    var isConst: Bool
    /// Raw index where the first declarator starts.
    var declaratorIndex: Int
    /// Raw index of `struct`/`union`/`enum`/`class` when a body follows (a type definition).
    var tagIndex: Int?
}

struct CDeclarator {
    var name: String
    var qualifiedName: String
    var nameRange: SourceRange
    var type: String
    var isConst: Bool
    var parameters: [Parameter]?
    var hasConstructorArguments: Bool
    var attributes: [String]
}

/// A file-scope item: Objective-C files may hold statements at file scope in snippets and examples.
enum CItem {
    case declaration(Declaration)
    case statement(Statement)
}

extension CFamilyParser {
    /// C++ constructs that cannot be mistaken for Objective-C (`namespace`, `template`, `class X {`, `A::b`)
    /// are accepted in headers too, since `.h` files are shared with Objective-C++.
    var acceptsCXXDeclarations: Bool { language != .c }

    // MARK: File scope

    func parseTopLevelItems(untilBrace: Bool) -> [CItem] {
        var items: [CItem] = []
        while parseTopLevelStep(into: &items, untilBrace: untilBrace) {}
        return items
    }

    /// One step of a file-scope list; false at its end.
    private func parseTopLevelStep(into items: inout [CItem], untilBrace: Bool) -> Bool {
        if pos < limit, tokens[pos].kind == .directive {
            if let block = parseConditionalGroup({ $0.parseTopLevelItems(untilBrace: false) }) {
                items.append(contentsOf: Self.split(block))
            }
            return true
        }
        let current = peek()
        if current.kind == .eof { return false }
        if current.isPunct("}") {
            if untilBrace { return false }
            diagnose(current.start, "unbalanced '}'")
            advance()
            return true
        }
        let before = pos
        items.append(contentsOf: parseTopLevelItem())
        if pos == before {
            diagnose(current.start, "unexpected '\(sourceText(current.start, current.end, maximum: 16))'")
            advance()
        }
        return true
    }

    /// Splits a file-scope `#if` group into one for declarations and one for statements.
    static func split(_ block: ConditionalBlock<CItem>) -> [CItem] {
        var declarationClauses: [ConditionalBlock<Declaration>.Clause] = []
        var statementClauses: [ConditionalBlock<Statement>.Clause] = []
        for clause in block.clauses {
            var declarations: [Declaration] = []
            var statements: [Statement] = []
            for item in clause.elements {
                switch item {
                case .declaration(let declaration): declarations.append(declaration)
                case .statement(let statement): statements.append(statement)
                }
            }
            declarationClauses.append(.init(condition: clause.condition, elements: declarations))
            statementClauses.append(.init(condition: clause.condition, elements: statements))
        }
        var result: [CItem] = []
        if declarationClauses.contains(where: { !$0.elements.isEmpty }) {
            result.append(.declaration(.conditional(ConditionalBlock(clauses: declarationClauses, range: block.range))))
        }
        if statementClauses.contains(where: { !$0.elements.isEmpty }) {
            result.append(.statement(Statement(kind: .conditional(ConditionalBlock(clauses: statementClauses, range: block.range)),
                                               range: block.range)))
        }
        return result
    }

    /// Kept small: nested namespaces and `extern "C"` blocks recurse through here (see `maxDepth`).
    func parseTopLevelItem() -> [CItem] {
        guard enter() else {
            diagnose(peek().start, "declaration nested too deeply")
            recoverToStatementEnd()
            return []
        }
        defer { leave() }
        if skipLineAloneMacro() { return [] }
        let kind = peek().kind
        if kind == .atWord, let items = parseTopLevelAtWord() { return items }
        if kind == .punct, let items = parseTopLevelPunctuation() { return items }
        if kind == .identifier, let items = parseTopLevelWord() { return items }
        return parseTopLevelDeclarationOrStatement()
    }

    private func parseTopLevelPunctuation() -> [CItem]? {
        if isPunct(";") {
            advance()
            return []
        }
        if isPunct("-") || isPunct("+"), isPunct("(", 1) {
            // A method outside any @implementation (a snippet, or a lost @end).
            return parseMethod(isImplementation: true).map { [.declaration(.function($0))] } ?? []
        }
        return nil
    }

    private func parseTopLevelDeclarationOrStatement() -> [CItem] {
        let current = peek()
        if current.kind == .identifier, let scan = scanDeclaration(.topLevel) {
            if scan.tagIndex != nil { return parseTagDefinitionItems(scan) }
            return parseDeclarators(scan, .topLevel).map { .declaration($0) }
        }
        if current.kind == .identifier, CVocabulary.isAttributeName(current.text), isPunct("(", 1), skipLeadingAttributeMacros() {
            return []
        }
        return parseStatement().map { .statement($0) }
    }

    /// `API_AVAILABLE(ios(13.0)) NS_SWIFT_NAME(X)` before `@interface`, a method or a declaration on the next line.
    private func skipLeadingAttributeMacros() -> Bool {
        var after = indexAfterGroup(index(1))
        var steps = 0
        while steps < 16, token(at: after).kind == .identifier, CVocabulary.isAttributeName(token(at: after).text),
              token(at: next(after)).isPunct("(") {
            steps += 1
            after = indexAfterGroup(next(after))
        }
        let following = token(at: after)
        guard following.kind == .atWord || following.isPunct("-") || following.isPunct("+")
            || (following.newlineBefore && following.kind == .identifier) else { return false }
        jump(to: after)
        return true
    }

    private func parseTopLevelAtWord() -> [CItem]? {
        let current = peek()
        switch current.text {
        case "@interface", "@implementation", "@protocol":
            if current.text == "@protocol" {
                if isPunct("(", 1) { return nil }
                if peek(1).kind == .identifier, isPunct(";", 2) || isPunct(",", 2) {
                    advance()
                    recoverToStatementEnd()
                    return []
                }
            }
            return parseObjCContainer().map { [.declaration($0)] } ?? []
        case "@class", "@compatibility_alias", "@synthesize", "@dynamic":
            recoverToStatementEnd()
            return []
        case "@import":
            advance()
            var name = ""
            while peek().kind == .identifier || isPunct(".") { name += advance().text }
            if !name.isEmpty { moduleImports.append((current.start, name)) }
            finishStatement(start: current.start)
            return []
        case "@end":
            diagnose(current.start, "@end without a container")
            advance()
            return []
        case "@property":
            return parseProperty().map { .declaration($0) }
        case "@optional", "@required", "@public", "@private", "@protected", "@package":
            advance()
            return []
        default:
            return nil
        }
    }

    private enum TopLevelKeyword {
        case namespace, inlineNamespace, externLinkage, template, skipped, typedef
    }

    private func topLevelKeyword() -> TopLevelKeyword? {
        switch peek().text {
        case "namespace": return acceptsCXXDeclarations ? .namespace : nil
        case "inline": return acceptsCXXDeclarations && isWord("namespace", 1) ? .inlineNamespace : nil
        case "extern": return peek(1).kind == .string ? .externLinkage : nil
        case "template": return acceptsCXXDeclarations ? .template : nil
        case "using", "static_assert", "_Static_assert": return .skipped
        case "typedef": return .typedef
        default: return nil
        }
    }

    private func parseTopLevelWord() -> [CItem]? {
        guard let keyword = topLevelKeyword() else { return parseTopLevelMacroOrConstructor() }
        switch keyword {
        case .namespace:
            return parseNamespace()
        case .inlineNamespace:
            advance()
            return parseNamespace()
        case .externLinkage:
            return parseExternLinkage()
        case .template:
            advance()
            skipTemplateHeader()
            return parseTopLevelItem()
        case .skipped:
            recoverToStatementEnd()
            return []
        case .typedef:
            return parseTypedef().map { .declaration($0) }
        }
    }

    private func parseTopLevelMacroOrConstructor() -> [CItem]? {
        let current = peek()
        if CVocabulary.enumMacros.contains(current.text), isPunct("(", 1) {
            return parseEnumMacro(start: current.start).map { [.declaration(.type($0))] } ?? []
        }
        if acceptsCXXDeclarations, let function = parseQualifiedConstructor() {
            return [.declaration(.function(function))]
        }
        return nil
    }

    /// `extern "C" { ... }` (flattened) or `extern "C"` before one declaration.
    private func parseExternLinkage() -> [CItem] {
        advance()
        advance()
        guard isPunct("{") else { return parseTopLevelItem() }
        let open = advance()
        let items = parseTopLevelItems(untilBrace: true)
        if !accept("}") { diagnose(open.start, "unterminated extern block") }
        return items
    }

    private func parseNamespace() -> [CItem] {
        let keyword = advance()
        var steps = 0
        while steps < 64, peek().kind == .identifier || isPunct("::") {
            steps += 1
            advance()
        }
        if accept("=") {
            recoverToStatementEnd()
            return []
        }
        guard isPunct("{") else {
            recoverToStatementEnd()
            return []
        }
        advance()
        let items = parseTopLevelItems(untilBrace: true)
        if !accept("}") { diagnose(keyword.start, "unterminated namespace") }
        return items
    }

    /// After `template`: the `<...>` parameter list (which may hold `=` and `>>`).
    func skipTemplateHeader() {
        guard isPunct("<") else { return }
        advance()
        var level = 1
        var steps = 0
        while level > 0, steps < 512 {
            steps += 1
            let current = peek()
            if current.kind == .eof || current.isPunct("{") || current.isPunct(";") { return }
            if current.kind == .punct, current.text == "(" || current.text == "[" {
                skipBalanced()
                continue
            }
            advance()
            switch current.text {
            case "<": level += 1
            case ">": level -= 1
            case ">>": level -= 2
            default: break
            }
        }
    }

    // MARK: Declaration look-ahead

    /// Looks ahead for `specifiers declarator`. Nil when the tokens read as an expression.
    func scanDeclaration(_ context: CDeclarationContext) -> CDeclarationScan? {
        var cursor = index()
        guard cursor < limit else { return nil }
        let start = tokens[cursor].start
        var words: [(indices: [Int], isUser: Bool)] = []
        var modifiers: [String] = []
        var attributes: [String] = []
        var isConst = false
        var functionNameIndex: Int?
        var steps = 0
        scan: while cursor < limit, steps < 64 {
            steps += 1
            let current = tokens[cursor]
            if cplusplus, current.isPunct("["), token(at: next(cursor)).isPunct("[") {
                let inner = next(next(cursor))
                let afterInner = token(at: next(inner))
                if token(at: inner).kind == .identifier,
                   afterInner.isPunct("]") || afterInner.isPunct("(") || afterInner.isPunct(",") || afterInner.isPunct("::") {
                    cursor = indexAfterGroup(cursor)
                    continue
                }
                break
            }
            guard current.kind == .identifier else { break }
            let word = current.text
            let following = next(cursor)
            if CVocabulary.storage.contains(word) {
                modifiers.append(word)
                cursor = following
                continue
            }
            if CVocabulary.qualifiers.contains(word) {
                if word == "const" { isConst = true }
                cursor = following
                continue
            }
            if CVocabulary.knownAttributes.contains(word) {
                attributes.append(word)
                cursor = token(at: following).isPunct("(") ? indexAfterGroup(following) : following
                continue
            }
            if ["struct", "union", "enum"].contains(word)
                || (acceptsCXXDeclarations && word == "class" && (cplusplus || token(at: following).kind == .identifier)) {
                var tagCursor = following
                var attributeSteps = 0
                while attributeSteps < 8, token(at: tagCursor).kind == .identifier,
                      CVocabulary.isAttributeName(token(at: tagCursor).text) {
                    attributeSteps += 1
                    let afterWord = next(tagCursor)
                    tagCursor = token(at: afterWord).isPunct("(") ? indexAfterGroup(afterWord) : afterWord
                }
                var indices = [cursor]
                let nameToken = token(at: tagCursor)
                if nameToken.kind == .identifier, !CVocabulary.statementKeywords.contains(nameToken.text) {
                    indices.append(tagCursor)
                    tagCursor = next(tagCursor)
                    while acceptsCXXDeclarations, token(at: tagCursor).isPunct("::"), token(at: next(tagCursor)).kind == .identifier {
                        indices.append(contentsOf: [tagCursor, next(tagCursor)])
                        tagCursor = next(next(tagCursor))
                    }
                    if token(at: tagCursor).isWord("final") { tagCursor = next(tagCursor) }
                } else if word == "class" {
                    break scan
                }
                let after = token(at: tagCursor)
                if after.isPunct("{") || (after.isPunct(":") && (word != "struct" || acceptsCXXDeclarations)) {
                    return CDeclarationScan(start: start, typeIndices: indices, modifiers: modifiers, attributes: attributes,
                                            isConst: isConst, declaratorIndex: tagCursor, tagIndex: cursor)
                }
                words.append((indices, false))
                cursor = tagCursor
                continue
            }
            if CVocabulary.typeofWords.contains(word), token(at: following).isPunct("(") {
                let after = indexAfterGroup(following)
                words.append((visibleIndices(cursor, after), false))
                cursor = after
                continue
            }
            if CVocabulary.builtinTypes.contains(word) {
                if language != .c, token(at: following).isPunct("<"), let after = scanAngleArguments(following) {
                    // `id<NSCoding>`
                    words.append((visibleIndices(cursor, after), false))
                    cursor = after
                    continue
                }
                words.append(([cursor], false))
                cursor = following
                continue
            }
            if word == "operator", !words.isEmpty {
                break scan
            }
            if CVocabulary.statementKeywords.contains(word) { break }
            if context == .forInit, word == "in" { break }
            if token(at: following).isPunct("(") {
                let inside = token(at: next(following))
                if inside.isPunct("^") || inside.isPunct("*") {
                    // `BOOL (^check)(id)`, `MyType (*callback)(void)`: a type word before a pointer declarator.
                    words.append(([cursor], true))
                    cursor = following
                    break
                }
                if CVocabulary.isMacroLike(word) {
                    let after = indexAfterGroup(following)
                    let afterToken = token(at: after)
                    if (afterToken.kind == .identifier && !CVocabulary.statementKeywords.contains(afterToken.text))
                        || afterToken.kind == .atWord {
                        attributes.append(word)
                        cursor = after
                        continue
                    }
                }
                // `void foo(...)`: the word is the declarator's name, unless a name came before it
                // (`CGFloat height API_AVAILABLE(ios(10))`).
                if !words.isEmpty, !(words.count >= 2 && CVocabulary.isMacroLike(word)) { functionNameIndex = cursor }
                break
            }
            var indices = [cursor]
            var wordEnd = following
            var partSteps = 0
            while partSteps < 32 {
                partSteps += 1
                if acceptsCXXDeclarations, token(at: wordEnd).isPunct("::") {
                    let part = next(wordEnd)
                    if token(at: part).kind == .identifier {
                        indices.append(contentsOf: [wordEnd, part])
                        wordEnd = next(part)
                        continue
                    }
                    if token(at: part).isPunct("~"), token(at: next(part)).kind == .identifier {
                        indices.append(contentsOf: [wordEnd, part, next(part)])
                        wordEnd = next(next(part))
                        continue
                    }
                    break
                }
                if language != .c, token(at: wordEnd).isPunct("<"), let after = scanAngleArguments(wordEnd) {
                    indices.append(contentsOf: visibleIndices(wordEnd, after))
                    wordEnd = after
                    continue
                }
                break
            }
            words.append((indices, true))
            cursor = wordEnd
        }
        guard !words.isEmpty else { return nil }

        var pointerCursor = cursor
        var hasPointer = false
        var pointerSteps = 0
        while pointerCursor < limit, pointerSteps < 32 {
            pointerSteps += 1
            let current = tokens[pointerCursor]
            if current.isPunct("*") || current.isPunct("&") || current.isPunct("&&") {
                hasPointer = true
                pointerCursor = next(pointerCursor)
                continue
            }
            if current.kind == .identifier, CVocabulary.qualifiers.contains(current.text) {
                pointerCursor = next(pointerCursor)
                continue
            }
            if current.kind == .identifier, CVocabulary.isAttributeName(current.text), token(at: next(pointerCursor)).isPunct("(") {
                pointerCursor = indexAfterGroup(next(pointerCursor))
                continue
            }
            break
        }
        var typeWords = words
        var declaratorIndex = cursor
        let nameToken = token(at: pointerCursor)
        let opensPointerDeclarator = nameToken.isPunct("(")
            && (token(at: next(pointerCursor)).isPunct("*") || token(at: next(pointerCursor)).isPunct("^")
                || token(at: next(pointerCursor)).isPunct("&"))
        if let functionNameIndex {
            declaratorIndex = functionNameIndex
        } else if nameToken.isWord("operator") {
            // `bool operator==(...)`: the name is handled by the declarator parser.
        } else if hasPointer {
            if nameToken.kind == .identifier, !CVocabulary.statementKeywords.contains(nameToken.text) {
                var afterName = next(pointerCursor)
                while acceptsCXXDeclarations, token(at: afterName).isPunct("::"), token(at: next(afterName)).kind == .identifier {
                    afterName = next(next(afterName))
                }
                guard isDeclaratorFollower(token(at: afterName), context) else { return nil }
            } else if !opensPointerDeclarator {
                return nil
            }
        } else if opensPointerDeclarator {
            // `void (^handler)(NSData *)`, `int (*compare)(int, int)`
        } else {
            guard words.count >= 2, let last = words.last, last.isUser,
                  let lastRaw = last.indices.last, tokens[lastRaw].kind == .identifier,
                  isDeclaratorFollower(nameToken, context) else { return nil }
            typeWords.removeLast()
            declaratorIndex = last.indices[0]
        }
        let lastUser = typeWords.lastIndex { $0.isUser }
        var typeIndices: [Int] = []
        for (offset, word) in typeWords.enumerated() {
            if word.isUser, offset != lastUser {
                attributes.append(tokens[word.indices[0]].text)
                continue
            }
            typeIndices.append(contentsOf: word.indices)
        }
        guard !typeIndices.isEmpty else { return nil }
        return CDeclarationScan(start: start, typeIndices: typeIndices, modifiers: modifiers, attributes: attributes,
                                isConst: isConst, declaratorIndex: declaratorIndex, tagIndex: nil)
    }

    private func isDeclaratorFollower(_ token: CToken, _ context: CDeclarationContext) -> Bool {
        switch token.kind {
        case .punct:
            switch token.text {
            case "=", ";", ",", "[", "(": return true
            case ")": return context == .forInit
            case ":": return context == .member || context == .forInit
            case "{": return cplusplus
            default: return false
            }
        case .identifier:
            if context == .forInit, token.text == "in" { return true }
            return CVocabulary.isAttributeName(token.text) || CVocabulary.qualifiers.contains(token.text)
                || ["override", "final", "noexcept", "const", "throw"].contains(token.text)
        case .eof:
            return context == .topLevel || context == .member
        default:
            return false
        }
    }

    // MARK: Declarators

    /// Parses the declarators after a scan, through the `;`. Functions with a body end the declaration.
    func parseDeclarators(_ scan: CDeclarationScan, _ context: CDeclarationContext) -> [Declaration] {
        jump(to: scan.declaratorIndex)
        recordTypes(scan.typeIndices)
        let baseType = typeText(scan.typeIndices)
        var result: [Declaration] = []
        var declarationStart = scan.start
        var steps = 0
        while steps < 4096 {
            steps += 1
            guard let declarator = parseDeclarator(baseType: baseType, context: context) else {
                diagnose(peek().start, "expected a declarator")
                recoverToStatementEnd()
                return result
            }
            if declarator.parameters != nil {
                let function = parseFunctionRest(declarator, scan, context, declarationStart)
                result.append(.function(function))
                if function.body != nil { return result }
            } else {
                result.append(.variable(parseVariableRest(declarator, scan, context, declarationStart)))
            }
            if accept(",") {
                declarationStart = peek().start
                continue
            }
            if context == .forInit, isWord("in") || isPunct(":") { return result }
            finishStatement(start: scan.start)
            return result
        }
        return result
    }

    private func parseFunctionRest(_ declarator: CDeclarator, _ scan: CDeclarationScan, _ context: CDeclarationContext,
                                   _ start: Int) -> FunctionDeclaration {
        let body = parseFunctionTail()
        return FunctionDeclaration(
            name: declarator.name, fullName: declarator.qualifiedName, parameters: declarator.parameters ?? [],
            returnType: declarator.type, attributes: scan.attributes + declarator.attributes, modifiers: scan.modifiers,
            isStatic: context == .member && scan.modifiers.contains("static"), body: body,
            range: range(start, lastEnd), nameRange: declarator.nameRange)
    }

    private func parseVariableRest(_ declarator: CDeclarator, _ scan: CDeclarationScan, _ context: CDeclarationContext,
                                   _ start: Int) -> VariableDeclaration {
        var initializer: Expression?
        if accept("=") {
            initializer = isPunct("{") ? parseBraceList() : parseAssignment()
        } else if cplusplus, isPunct("{") {
            initializer = parseBraceList()
        } else if context == .member, isPunct(":") {
            advance()
            _ = parseAssignment()
        } else if declarator.hasConstructorArguments, accept("(") {
            let arguments = parseCallArguments()
            let typeName = scan.typeIndices.last.map { tokens[$0].text } ?? ""
            let callee = Expression(kind: .identifier(typeName), range: declarator.nameRange)
            initializer = Expression(kind: .call(callee: callee, arguments: arguments, isMessageSend: false),
                                     range: range(declarator.nameRange.start.offset, lastEnd))
        }
        return VariableDeclaration(
            name: declarator.name, type: declarator.type, initializer: initializer, isConstant: scan.isConst || declarator.isConst,
            isStatic: scan.modifiers.contains("static"), attributes: scan.modifiers + scan.attributes + declarator.attributes,
            accessors: [], range: range(start, lastEnd), nameRange: declarator.nameRange)
    }

    /// One declarator: pointers, the name (or `(^name)` / `(*name)`), array and parameter suffixes, attributes.
    func parseDeclarator(baseType: String, context: CDeclarationContext) -> CDeclarator? {
        var pointers: [String] = []
        var isConst = false
        var attributes: [String] = []
        var steps = 0
        while steps < 32 {
            steps += 1
            let current = peek()
            if current.isPunct("*") || current.isPunct("&") || current.isPunct("&&") {
                pointers.append(current.text)
                advance()
            } else if current.kind == .identifier, CVocabulary.qualifiers.contains(current.text) {
                if current.text == "const" { isConst = true }
                advance()
            } else if current.kind == .identifier, CVocabulary.isAttributeName(current.text), isPunct("(", 1) {
                attributes.append(current.text)
                advance()
                skipBalanced()
            } else {
                break
            }
        }
        var type = pointers.isEmpty ? baseType : baseType + " " + pointers.joined()
        var name = ""
        var qualifiers: [String] = []
        var nameStart = peek().start
        var nameEnd = nameStart
        var parameters: [Parameter]?
        var hasConstructorArguments = false
        var isPointerDeclarator = false

        if isPunct("("), isPunct("*", 1) || isPunct("^", 1) || isPunct("&", 1) {
            isPointerDeclarator = true
            advance()
            var inner: [String] = ["("]
            var innerSteps = 0
            while innerSteps < 16 {
                innerSteps += 1
                let current = peek()
                if current.isPunct("*") || current.isPunct("^") || current.isPunct("&") {
                    inner.append(current.text)
                    advance()
                } else if current.kind == .identifier, CVocabulary.qualifiers.contains(current.text) {
                    advance()
                } else {
                    break
                }
            }
            if peek().kind == .identifier {
                let nameToken = advance()
                name = nameToken.text
                nameStart = nameToken.start
                nameEnd = nameToken.end
            }
            while isPunct("[") { skipBalanced() }
            closeGroup(")")
            inner.append(")")
            var suffix = ""
            if isPunct("(") {
                let open = index()
                let after = indexAfterGroup(open)
                let indices = visibleIndices(open, after)
                recordTypes(indices)
                suffix = typeText(indices)
                jump(to: after)
            }
            type = type + " " + Self.joinTypePieces(inner) + suffix
        } else if peek().kind == .identifier {
            let nameToken = advance()
            name = nameToken.text
            nameStart = nameToken.start
            var qualifierSteps = 0
            while acceptsCXXDeclarations, qualifierSteps < 32 {
                qualifierSteps += 1
                if isPunct("<"), let after = scanAngleArguments(index()), token(at: after).isPunct("::") {
                    jump(to: after)
                }
                guard isPunct("::") else { break }
                if peek(1).kind == .identifier {
                    advance()
                    qualifiers.append(name)
                    name = advance().text
                } else if isPunct("~", 1), peek(2).kind == .identifier {
                    advance()
                    advance()
                    qualifiers.append(name)
                    name = "~" + advance().text
                } else {
                    break
                }
            }
            if name == "operator" {
                var operatorSteps = 0
                if isPunct("("), isPunct(")", 1) {
                    advance()
                    advance()
                    name += "()"
                }
                while !isPunct("("), operatorSteps < 8, !atEnd, !isPunct(";"), !isPunct("{") {
                    operatorSteps += 1
                    let piece = advance()
                    name += piece.kind == .identifier ? " " + piece.text : piece.text
                }
            }
            nameEnd = lastEnd
        } else {
            return nil
        }

        var suffixSteps = 0
        while suffixSteps < 16 {
            suffixSteps += 1
            if isPunct("[") {
                skipBalanced()
                type += "[]"
            } else if isPunct("("), parameters == nil, !isPointerDeclarator {
                if context == .statement, cplusplus {
                    // `Widget w(1, 2);`: arguments, parsed with the initializer.
                    hasConstructorArguments = true
                    break
                }
                parameters = parseParameterList()
            } else {
                break
            }
        }
        var trailingSteps = 0
        while trailingSteps < 32 {
            trailingSteps += 1
            let current = peek()
            if current.kind == .identifier {
                if current.text == "const" || current.text == "volatile" {
                    advance()
                    continue
                }
                if CVocabulary.isAttributeName(current.text) || CVocabulary.qualifiers.contains(current.text)
                    || ["override", "final", "noexcept", "throw", "__unused"].contains(current.text) {
                    advance()
                    if isPunct("(") { skipBalanced() }
                    if !CVocabulary.qualifiers.contains(current.text) { attributes.append(current.text) }
                    continue
                }
            } else if parameters != nil, cplusplus, current.isPunct("&") || current.isPunct("&&") {
                advance()
                continue
            } else if parameters != nil, cplusplus, current.isPunct("->") {
                advance()
                var typeSteps = 0
                while typeSteps < 64, !isPunct("{"), !isPunct(";"), !isPunct("="), !atEnd {
                    typeSteps += 1
                    if isPunct("(") || isPunct("[") { skipBalanced() } else { advance() }
                }
                continue
            }
            break
        }
        let qualifiedName = (qualifiers + [name]).joined(separator: "::")
        return CDeclarator(name: name, qualifiedName: qualifiedName, nameRange: range(nameStart, max(nameEnd, nameStart)),
                           type: type, isConst: isConst, parameters: parameters,
                           hasConstructorArguments: hasConstructorArguments, attributes: attributes)
    }

    /// After a function declarator: a C++ constructor initializer list, `= default`/`= 0`, then a body or `;`.
    /// Returns the body, nil for a prototype. Leaves `,`/`;` handling to the caller when there is no body.
    func parseFunctionTail() -> Block? {
        if acceptsCXXDeclarations, isPunct(":"), !isPunct(":", 1) {
            advance()
            var steps = 0
            while steps < 128 {
                steps += 1
                var nameSteps = 0
                while nameSteps < 32, peek().kind == .identifier || isPunct("::") {
                    nameSteps += 1
                    advance()
                }
                if isPunct("<"), let after = scanAngleArguments(index()) { jump(to: after) }
                if isPunct("(") || isPunct("{") { skipBalanced() } else { break }
                if !accept(",") { break }
            }
        }
        if isPunct("{") { return parseBlock() }
        if cplusplus, isPunct("=") {
            advance()
            if peek().kind != .eof, !isPunct(";") { advance() }
        }
        return nil
    }

    // MARK: Parameters

    /// A C parameter list at `(`, through the `)`.
    func parseParameterList() -> [Parameter] {
        guard isPunct("(") else { return [] }
        let open = advance()
        var parameters: [Parameter] = []
        var slice: [Int] = []
        var expected: [String] = []
        func finish() {
            if let parameter = analyzeParameter(slice) { parameters.append(parameter) }
            slice = []
        }
        while true {
            let raw = index()
            guard raw < limit else {
                diagnose(open.start, "unterminated parameter list")
                finish()
                return parameters
            }
            let current = tokens[raw]
            if current.kind == .punct {
                if current.text == "{", expected.isEmpty, !(slice.last.map { tokens[$0].isPunct("=") } ?? false) {
                    diagnose(current.start, "expected ')'")
                    finish()
                    return parameters
                }
                if let closer = Self.closer(of: current.text) {
                    expected.append(closer)
                } else if current.text == ")", expected.isEmpty {
                    advance()
                    finish()
                    return parameters
                } else if current.text == expected.last {
                    expected.removeLast()
                } else if current.text == ",", expected.isEmpty {
                    advance()
                    finish()
                    continue
                } else if (current.text == ";" && expected.isEmpty) || (current.text == "}" && !expected.contains("}")) {
                    diagnose(current.start, "expected ')'")
                    finish()
                    return parameters
                }
            }
            slice.append(raw)
            advance()
        }
    }

    /// Name and type of one C parameter from its tokens; records its type references.
    func analyzeParameter(_ slice: [Int]) -> Parameter? {
        var indices = slice
        if let equals = indices.firstIndex(where: { tokens[$0].isPunct("=") }) { indices = Array(indices[..<equals]) }
        guard !indices.isEmpty else { return nil }
        if indices.count == 1, tokens[indices[0]].isWord("void") || tokens[indices[0]].isPunct("...") { return nil }
        var nameRaw: Int?
        if let open = indices.firstIndex(where: { tokens[$0].isPunct("(") }) {
            var probe = open + 1
            var sawPointer = false
            while probe < indices.count {
                let current = tokens[indices[probe]]
                if current.isPunct("*") || current.isPunct("^") || current.isPunct("&") {
                    sawPointer = true
                } else if !(current.kind == .identifier && CVocabulary.qualifiers.contains(current.text)) {
                    break
                }
                probe += 1
            }
            if sawPointer, probe < indices.count, tokens[indices[probe]].kind == .identifier { nameRaw = indices[probe] }
        } else {
            var end = indices.count
            while end > 0, tokens[indices[end - 1]].isPunct("]") {
                var level = 0
                var probe = end - 1
                while probe >= 0 {
                    if tokens[indices[probe]].isPunct("]") { level += 1 }
                    if tokens[indices[probe]].isPunct("[") {
                        level -= 1
                        if level == 0 { break }
                    }
                    probe -= 1
                }
                guard probe >= 0 else { break }
                end = probe
            }
            while end > 0, tokens[indices[end - 1]].kind == .identifier, CVocabulary.isNonTypeWord(tokens[indices[end - 1]].text) {
                end -= 1
            }
            if end >= 2 {
                let last = tokens[indices[end - 1]]
                let hasType = indices[..<(end - 1)].contains { raw in
                    tokens[raw].kind == .identifier && !CVocabulary.isNonTypeWord(tokens[raw].text)
                }
                if last.kind == .identifier, hasType, !CVocabulary.builtinTypes.contains(last.text),
                   !CVocabulary.isNonTypeWord(last.text) {
                    nameRaw = indices[end - 1]
                }
            }
        }
        let typeIndices = indices.filter { $0 != nameRaw }
        recordTypes(typeIndices)
        let type = typeText(typeIndices)
        return Parameter(label: nil, name: nameRaw.map { tokens[$0].text } ?? "", type: type.isEmpty ? nil : type)
    }

    // MARK: C++ constructors outside their class

    /// `Foo::Foo(int x) : a(x) { }` and `Foo::~Foo() { }`.
    private func parseQualifiedConstructor() -> FunctionDeclaration? {
        var cursor = index()
        guard token(at: cursor).kind == .identifier else { return nil }
        var parts = [tokens[cursor].text]
        var nameRaw = cursor
        cursor = next(cursor)
        var steps = 0
        while token(at: cursor).isPunct("::"), steps < 16 {
            steps += 1
            let part = next(cursor)
            if token(at: part).kind == .identifier {
                parts.append(tokens[part].text)
                nameRaw = part
                cursor = next(part)
            } else if token(at: part).isPunct("~"), token(at: next(part)).kind == .identifier {
                parts.append("~" + tokens[next(part)].text)
                nameRaw = next(part)
                cursor = next(next(part))
            } else {
                return nil
            }
        }
        guard parts.count >= 2, token(at: cursor).isPunct("("),
              let last = parts.last, last == parts[parts.count - 2] || last == "~" + parts[parts.count - 2] else { return nil }
        let start = peek().start
        let nameRange = range(tokens[nameRaw].start, tokens[nameRaw].end)
        jump(to: cursor)
        let parameters = parseParameterList()
        var attributes: [String] = []
        while peek().kind == .identifier, ["noexcept", "override", "final", "const"].contains(peek().text)
            || CVocabulary.isAttributeName(peek().text) {
            attributes.append(advance().text)
            if isPunct("(") { skipBalanced() }
        }
        let body = parseFunctionTail()
        if body == nil { finishStatement(start: start) }
        return FunctionDeclaration(name: last, fullName: parts.joined(separator: "::"), parameters: parameters, returnType: nil,
                                   attributes: attributes, modifiers: [], isStatic: false, body: body,
                                   range: rangeFrom(start), nameRange: nameRange)
    }

    // MARK: typedef, enums, records

    func parseTypedef() -> [Declaration] {
        let start = advance().start
        var steps = 0
        while steps < 16, peek().kind == .identifier, CVocabulary.isNonTypeWord(peek().text) {
            steps += 1
            advance()
        }
        let current = peek()
        if CVocabulary.enumMacros.contains(current.text), isPunct("(", 1) {
            return parseEnumMacro(start: start).map { [.type($0)] } ?? []
        }
        if current.kind == .identifier, let scan = scanDeclaration(.topLevel), scan.tagIndex != nil {
            return parseTagDefinitionItems(scan, typedefStart: start).compactMap { item in
                if case .declaration(let declaration) = item { return declaration }
                return nil
            }
        }
        recoverToStatementEnd()
        return []
    }

    /// `NS_ENUM(NSInteger, Name) { A, B = 2 }` (with or without `typedef`).
    func parseEnumMacro(start: Int) -> TypeDeclaration? {
        let macro = advance()
        guard accept("(") else { return nil }
        let arguments = collectUntilCloser(")")
        var base: [Int] = []
        var nameRaw: Int?
        if let comma = arguments.firstIndex(where: { tokens[$0].isPunct(",") }) {
            base = Array(arguments[..<comma])
            nameRaw = arguments[(comma + 1)...].last { tokens[$0].kind == .identifier }
        } else {
            base = arguments
        }
        recordTypes(base)
        var steps = 0
        while steps < 16, peek().kind == .identifier, !isPunct("{") {
            steps += 1
            advance()
            if isPunct("(") { skipBalanced() }
        }
        var members: [Declaration] = []
        if isPunct("{") { members = parseEnumBody() }
        let end = lastEnd
        finishStatement(start: start)
        guard let nameRaw else { return nil }
        let baseType = typeText(base)
        return TypeDeclaration(kind: .enum, name: tokens[nameRaw].text, inherits: baseType.isEmpty ? [] : [baseType],
                               attributes: [macro.text], members: members, range: range(start, end),
                               nameRange: range(tokens[nameRaw].start, tokens[nameRaw].end))
    }

    /// `{ A, B = 1 << 2, C API_AVAILABLE(ios(13)) }` at the cursor, through the `}`.
    func parseEnumBody() -> [Declaration] {
        let open = advance()
        let members = parseEnumerators(inClause: false)
        if !accept("}") { diagnose(open.start, "unterminated enum body") }
        return members
    }

    private func parseEnumerators(inClause: Bool) -> [Declaration] {
        var members: [Declaration] = []
        while true {
            if pos < limit, tokens[pos].kind == .directive {
                if let block = parseConditionalGroup({ $0.parseEnumerators(inClause: true) }) {
                    members.append(.conditional(block))
                }
                continue
            }
            let current = peek()
            if current.kind == .eof || current.isPunct("}") { break }
            let before = pos
            if current.kind == .identifier {
                advance()
                var attributeSteps = 0
                while attributeSteps < 8, peek().kind == .identifier, CVocabulary.isAttributeName(peek().text) {
                    attributeSteps += 1
                    advance()
                    if isPunct("(") { skipBalanced() }
                }
                let initializer = accept("=") ? parseAssignment() : nil
                members.append(.variable(VariableDeclaration(
                    name: current.text, type: nil, initializer: initializer, isConstant: true, isStatic: true, attributes: [],
                    accessors: [], range: rangeFrom(current.start), nameRange: range(current.start, current.end))))
            }
            if accept(",") { continue }
            if isPunct("}") || atEnd { break }
            diagnose(peek().start, "unexpected token in enum body")
            while !isPunct(","), !isPunct("}"), !atEnd {
                if isPunct("(") || isPunct("[") || isPunct("{") { skipBalanced() } else { advance() }
            }
            _ = accept(",")
            if pos == before { advance() }
        }
        return members
    }

    private struct TagHeader {
        var keyword: CToken
        var name: String
        var nameRange: SourceRange
        var inherits: [String]
        var kind: TypeKind
    }

    /// `struct X { ... } x;`, `enum E : int { ... };`, `class C : public B { ... };` with any declarators after
    /// the body. With `typedefStart`, the first declarator names the type.
    func parseTagDefinitionItems(_ scan: CDeclarationScan, typedefStart: Int? = nil) -> [CItem] {
        guard let tagIndex = scan.tagIndex else { return [] }
        jump(to: tagIndex)
        let header = parseTagHeader()
        let members = parseTagBody(header)
        return finishTagDefinition(scan, header, members, typedefStart: typedefStart)
    }

    private func parseTagHeader() -> TagHeader {
        let keyword = advance()
        var attributeSteps = 0
        while attributeSteps < 8, peek().kind == .identifier, CVocabulary.isAttributeName(peek().text), isPunct("(", 1) {
            attributeSteps += 1
            advance()
            skipBalanced()
        }
        var name = ""
        var nameRange = range(keyword.start, keyword.end)
        if peek().kind == .identifier {
            let nameToken = advance()
            name = nameToken.text
            nameRange = range(nameToken.start, nameToken.end)
            var steps = 0
            while isPunct("::"), peek(1).kind == .identifier, steps < 16 {
                steps += 1
                advance()
                let part = advance()
                name = part.text
                nameRange = range(part.start, part.end)
            }
            if isWord("final") { advance() }
        }
        var inherits: [String] = []
        if accept(":") {
            var steps = 0
            while steps < 32 {
                steps += 1
                while peek().kind == .identifier, ["public", "private", "protected", "virtual"].contains(peek().text) { advance() }
                var baseIndices: [Int] = []
                while peek().kind == .identifier || isPunct("::") {
                    baseIndices.append(index())
                    advance()
                }
                if isPunct("<"), let after = scanAngleArguments(index()) {
                    baseIndices.append(contentsOf: visibleIndices(index(), after))
                    jump(to: after)
                }
                if !baseIndices.isEmpty {
                    recordTypes(baseIndices)
                    inherits.append(typeText(baseIndices))
                }
                if !accept(",") { break }
            }
        }
        let kind: TypeKind
        switch keyword.text {
        case "enum": kind = .enum
        case "class": kind = .class
        default: kind = .struct
        }
        return TagHeader(keyword: keyword, name: name, nameRange: nameRange, inherits: inherits, kind: kind)
    }

    private func parseTagBody(_ header: TagHeader) -> [Declaration] {
        guard isPunct("{") else { return [] }
        if header.kind == .enum { return parseEnumBody() }
        let open = advance()
        let members = parseRecordMembers(className: header.name, inClause: false)
        if !accept("}") { diagnose(open.start, "unterminated '\(header.keyword.text)' body") }
        return members
    }

    private func finishTagDefinition(_ scan: CDeclarationScan, _ header: TagHeader, _ members: [Declaration],
                                     typedefStart: Int?) -> [CItem] {
        let start = typedefStart ?? scan.start
        let bodyEnd = lastEnd
        var name = header.name
        var nameRange = header.nameRange
        var items: [CItem] = []
        if typedefStart != nil {
            // `typedef struct { ... } Name, *NameRef;`
            var steps = 0
            while steps < 8, isPunct("*") || (peek().kind == .identifier && CVocabulary.isNonTypeWord(peek().text)) {
                steps += 1
                advance()
            }
            if peek().kind == .identifier {
                let typedefName = advance()
                name = typedefName.text
                nameRange = range(typedefName.start, typedefName.end)
            }
            recoverToStatementEnd()
            if !name.isEmpty {
                items.append(.declaration(.type(TypeDeclaration(kind: header.kind, name: name, inherits: header.inherits,
                                                                attributes: [], members: members,
                                                                range: range(start, bodyEnd), nameRange: nameRange))))
            }
            return items
        }
        if !name.isEmpty {
            items.append(.declaration(.type(TypeDeclaration(kind: header.kind, name: name, inherits: header.inherits,
                                                            attributes: [], members: members, range: range(start, bodyEnd),
                                                            nameRange: nameRange))))
        }
        if accept(";") { return items }
        if peek().kind == .identifier || isPunct("*") || isPunct("&") {
            // `struct point { ... } origin, *cursor;`
            let keyword = header.keyword.text
            let variables = CDeclarationScan(start: start, typeIndices: scan.tagIndex.map { [$0] } ?? [], modifiers: scan.modifiers,
                                             attributes: scan.attributes, isConst: scan.isConst, declaratorIndex: index(),
                                             tagIndex: nil)
            let typeText = name.isEmpty ? keyword : keyword + " " + name
            for declaration in parseDeclarators(variables, .topLevel) {
                guard case .variable(let variable) = declaration else {
                    items.append(.declaration(declaration))
                    continue
                }
                let pointers = variable.type.map { String($0.dropFirst(keyword.count)) } ?? ""
                items.append(.declaration(.variable(VariableDeclaration(
                    name: variable.name, type: typeText + pointers, initializer: variable.initializer,
                    isConstant: variable.isConstant, isStatic: variable.isStatic, attributes: variable.attributes, accessors: [],
                    range: variable.range, nameRange: variable.nameRange))))
            }
            return items
        }
        finishStatement(start: start)
        return items
    }

    /// Members of a C struct/union or C++ class, after its `{`, up to the `}` (not consumed).
    func parseRecordMembers(className: String, inClause: Bool) -> [Declaration] {
        var members: [Declaration] = []
        while true {
            if pos < limit, tokens[pos].kind == .directive {
                if let block = parseConditionalGroup({ $0.parseRecordMembers(className: className, inClause: true) }) {
                    members.append(.conditional(block))
                }
                continue
            }
            let current = peek()
            if current.kind == .eof || current.isPunct("}") { break }
            let before = pos
            members.append(contentsOf: parseRecordMember(className: className))
            if pos == before {
                diagnose(current.start, "unexpected token in type body")
                advance()
            }
        }
        return members
    }

    private func parseRecordMember(className: String) -> [Declaration] {
        guard enter() else {
            recoverToStatementEnd()
            return []
        }
        defer { leave() }
        if let handled = parseRecordMemberPrefix(className: className) { return handled }
        if peek().kind == .identifier, let scan = scanDeclaration(.member) {
            return parseMemberDeclaration(scan)
        }
        if isPunct("~"), isWord(className, 1), let destructor = parseInClassConstructor(className: className) {
            return [.function(destructor)]
        }
        diagnose(peek().start, "unrecognised member")
        recoverToStatementEnd()
        return []
    }

    private func parseMemberDeclaration(_ scan: CDeclarationScan) -> [Declaration] {
        guard scan.tagIndex != nil else { return parseDeclarators(scan, .member) }
        return parseTagDefinitionItems(scan).compactMap { item in
            if case .declaration(let declaration) = item { return declaration }
            return nil
        }
    }

    /// Access specifiers, `friend`/`using`/`typedef`, templates and constructors; nil for ordinary declarations.
    private func parseRecordMemberPrefix(className: String) -> [Declaration]? {
        let current = peek()
        if skipLineAloneMacro() { return [] }
        if current.isPunct(";") {
            advance()
            return []
        }
        if current.kind == .atWord {
            // `@public` and friends in Objective-C instance variable blocks.
            advance()
            return []
        }
        guard current.kind == .identifier else { return nil }
        if ["public", "private", "protected", "signals", "slots"].contains(current.text), isPunct(":", 1) {
            advance()
            advance()
            return []
        }
        if ["public", "private", "protected", "Q_SLOTS"].contains(current.text), peek(1).kind == .identifier, isPunct(":", 2) {
            advance()
            advance()
            advance()
            return []
        }
        switch current.text {
        case "typedef":
            return parseTypedef()
        case "friend", "using", "static_assert", "_Static_assert":
            recoverToStatementEnd()
            return []
        case "template":
            advance()
            skipTemplateHeader()
            return parseRecordMember(className: className)
        default:
            if let constructor = parseInClassConstructor(className: className) { return [.function(constructor)] }
            return nil
        }
    }

    /// `Foo(int x) : a(x) { }`, `explicit Foo(...)`, `virtual ~Foo()` inside `class Foo`.
    private func parseInClassConstructor(className: String) -> FunctionDeclaration? {
        guard !className.isEmpty else { return nil }
        var lookahead = 0
        var modifiers: [String] = []
        while peek(lookahead).kind == .identifier, ["explicit", "virtual", "inline", "constexpr"].contains(peek(lookahead).text) {
            modifiers.append(peek(lookahead).text)
            lookahead += 1
        }
        var name = className
        var nameLookahead = lookahead
        if isPunct("~", lookahead) {
            name = "~" + className
            nameLookahead += 1
        }
        guard isWord(className, nameLookahead), isPunct("(", nameLookahead + 1) else { return nil }
        let start = peek().start
        let nameToken = peek(nameLookahead)
        for _ in 0...nameLookahead { advance() }
        let nameRange = range(nameToken.start, nameToken.end)
        let parameters = parseParameterList()
        var attributes: [String] = []
        while peek().kind == .identifier, ["noexcept", "override", "final"].contains(peek().text) || CVocabulary.isAttributeName(peek().text) {
            attributes.append(advance().text)
            if isPunct("(") { skipBalanced() }
        }
        let body = parseFunctionTail()
        if body == nil { finishStatement(start: start) }
        return FunctionDeclaration(name: name, fullName: name, parameters: parameters, returnType: nil, attributes: attributes,
                                   modifiers: modifiers, isStatic: false, body: body, range: rangeFrom(start), nameRange: nameRange)
    }
}
