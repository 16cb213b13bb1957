// Objective-C containers: @interface, categories, @implementation, @protocol, their methods and properties.

extension CFamilyParser {
    /// `@interface` / `@implementation` / `@protocol` through `@end`.
    func parseObjCContainer() -> Declaration? {
        let keyword = advance()
        let start = keyword.start
        guard peek().kind == .identifier else {
            diagnose(peek().start, "expected a name after \(keyword.text)")
            recoverToStatementEnd()
            return nil
        }
        let nameToken = advance()
        var kind: TypeKind
        switch keyword.text {
        case "@interface": kind = .objcInterface
        case "@implementation": kind = .objcImplementation
        default: kind = .objcProtocol
        }
        var inherits: [String] = []
        var attributes: [String] = []
        if kind == .objcInterface, isPunct("<"), let after = scanAngleArguments(index()),
           token(at: after).isPunct(":") || token(at: after).isPunct("(") {
            // Generic parameters: `@interface Box<ObjectType> : NSObject`.
            jump(to: after)
        }
        if isPunct("(") {
            advance()
            if peek().kind == .identifier { attributes.append("category:" + advance().text) }
            closeGroup(")")
            if kind == .objcInterface { kind = .objcCategory }
            recordType(name: nameToken.text, start: nameToken.start, end: nameToken.end)
        }
        if accept(":") {
            if peek().kind == .identifier {
                let superclass = advance()
                inherits.append(superclass.text)
                recordType(name: superclass.text, start: superclass.start, end: superclass.end)
                if isPunct("<"), let after = scanAngleArguments(index()),
                   visibleIndices(index(), after).contains(where: { tokens[$0].isPunct("*") }) {
                    // Generic superclass arguments, not protocols: `: Base<NSString *>`.
                    recordTypes(visibleIndices(index(), after))
                    jump(to: after)
                }
            } else {
                diagnose(peek().start, "expected a superclass name")
            }
        }
        if isPunct("<") {
            advance()
            var steps = 0
            while steps < 256, peek().kind == .identifier {
                steps += 1
                let adopted = advance()
                inherits.append(adopted.text)
                recordType(name: adopted.text, start: adopted.start, end: adopted.end)
                if !accept(",") { break }
            }
            closeGroup(">")
        }
        var steps = 0
        while steps < 16, peek().kind == .identifier, CVocabulary.isAttributeName(peek().text), !peek().newlineBefore {
            steps += 1
            attributes.append(advance().text)
            if isPunct("(") { skipBalanced() }
        }
        var members: [Declaration] = []
        if isPunct("{") {
            let open = advance()
            members = parseRecordMembers(className: "", inClause: false)
            if !accept("}") { diagnose(open.start, "unterminated instance variable block") }
        }
        members.append(contentsOf: parseContainerMembers(isImplementation: kind == .objcImplementation, inClause: false))
        return .type(TypeDeclaration(kind: kind, name: nameToken.text, inherits: inherits, attributes: attributes,
                                     members: members, range: rangeFrom(start),
                                     nameRange: range(nameToken.start, nameToken.end)))
    }

    /// Members up to and including `@end` (or the end of an `#if` clause).
    func parseContainerMembers(isImplementation: Bool, inClause: Bool) -> [Declaration] {
        var members: [Declaration] = []
        while true {
            if pos < limit, tokens[pos].kind == .directive {
                if let block = parseConditionalGroup({ $0.parseContainerMembers(isImplementation: isImplementation, inClause: true) }) {
                    members.append(.conditional(block))
                }
                continue
            }
            let current = peek()
            let before = pos
            switch current.kind {
            case .eof:
                if !inClause { diagnose(current.start, "missing @end") }
                return members
            case .atWord:
                switch current.text {
                case "@end":
                    if !inClause { advance() }
                    return members
                case "@property":
                    members.append(contentsOf: parseProperty())
                case "@optional", "@required", "@public", "@private", "@protected", "@package":
                    advance()
                case "@synthesize", "@dynamic", "@class":
                    recoverToStatementEnd()
                case "@interface", "@implementation":
                    diagnose(current.start, "missing @end before \(current.text)")
                    return members
                case "@protocol" where !isPunct("(", 1) && !(isPunct(";", 2) || isPunct(",", 2)):
                    diagnose(current.start, "missing @end before @protocol")
                    return members
                default:
                    collectMemberItems(into: &members)
                }
            case .punct:
                if current.isPunct("-") || current.isPunct("+") {
                    if let method = parseMethod(isImplementation: isImplementation) { members.append(.function(method)) }
                } else if current.isPunct(";") {
                    advance()
                } else if current.isPunct("}") {
                    if inClause { return members }
                    diagnose(current.start, "unbalanced '}'")
                    advance()
                } else {
                    collectMemberItems(into: &members)
                }
            default:
                collectMemberItems(into: &members)
            }
            if pos == before {
                diagnose(current.start, "unexpected token in \(isImplementation ? "@implementation" : "@interface")")
                advance()
            }
        }
    }

    /// C declarations between methods (static functions, globals, typedefs) stay members; statements go to file scope.
    private func collectMemberItems(into members: inout [Declaration]) {
        for item in parseTopLevelItem() {
            switch item {
            case .declaration(let declaration): members.append(declaration)
            case .statement(let statement): strayStatements.append(statement)
            }
        }
    }

    /// `- (BOOL)application:(UIApplication *)app openURL:(NSURL *)url { ... }`, `+ (instancetype)shared;`.
    func parseMethod(isImplementation: Bool) -> FunctionDeclaration? {
        let sign = advance()
        let start = sign.start
        var returnType = "id"
        if accept("(") {
            let indices = collectUntilCloser(")")
            recordTypes(indices)
            returnType = typeText(indices, keepMethodQualifiers: false)
        }
        var attributeSteps = 0
        while attributeSteps < 8, peek().kind == .identifier, CVocabulary.isAttributeName(peek().text), isPunct("(", 1) {
            attributeSteps += 1
            advance()
            skipBalanced()
        }
        let first = peek()
        guard first.kind == .identifier || first.isPunct(":") else {
            diagnose(first.start, "expected a selector")
            recoverToStatementEnd()
            return nil
        }
        let nameRange = range(first.start, first.end)
        var parameters: [Parameter] = []
        var pieces: [String] = []
        var name = first.text
        if first.kind == .identifier, !isPunct(":", 1) {
            advance()
        } else {
            var steps = 0
            while steps < 256 {
                steps += 1
                var label = ""
                if peek().kind == .identifier, isPunct(":", 1) {
                    label = advance().text
                    advance()
                } else if isPunct(":") {
                    advance()
                } else {
                    break
                }
                var type: String?
                if accept("(") {
                    let indices = collectUntilCloser(")")
                    recordTypes(indices)
                    type = typeText(indices, keepMethodQualifiers: false)
                }
                var skips = 0
                while skips < 8, peek().kind == .identifier, CVocabulary.isNonTypeWord(peek().text) {
                    skips += 1
                    advance()
                }
                var parameterName = ""
                if peek().kind == .identifier {
                    parameterName = advance().text
                } else {
                    diagnose(peek().start, "expected a parameter name")
                }
                pieces.append(label)
                parameters.append(Parameter(label: label.isEmpty ? nil : label, name: parameterName, type: type))
            }
            name = pieces.first ?? ""
            if isPunct(","), isPunct("...", 1) {
                advance()
                advance()
            }
        }
        let fullName = pieces.isEmpty ? name : pieces.map { $0 + ":" }.joined()
        var attributes: [String] = []
        var steps = 0
        while steps < 16, peek().kind == .identifier {
            steps += 1
            attributes.append(advance().text)
            if isPunct("(") { skipBalanced() }
        }
        var body: Block?
        if accept(";") {
            if isImplementation, isPunct("{") { body = parseBlock() }
        } else if isPunct("{") {
            body = parseBlock()
        } else {
            diagnose(peek().start, "expected ';' or '{' after method declaration")
        }
        return FunctionDeclaration(name: name, fullName: fullName, parameters: parameters, returnType: returnType,
                                   attributes: attributes, modifiers: [], isStatic: sign.text == "+", body: body,
                                   range: rangeFrom(start), nameRange: nameRange)
    }

    /// `@property (nonatomic, copy) NSString *name;` — one variable per declarator, attributes as written.
    func parseProperty() -> [Declaration] {
        let start = advance().start
        var attributes: [String] = []
        if accept("(") {
            var currentAttribute = ""
            var steps = 0
            while steps < 256 {
                steps += 1
                let current = peek()
                if current.kind == .eof || current.isPunct(";") || current.isPunct("}") { break }
                advance()
                if current.isPunct(")") { break }
                if current.isPunct(",") {
                    if !currentAttribute.isEmpty { attributes.append(currentAttribute) }
                    currentAttribute = ""
                    continue
                }
                currentAttribute += current.kind == .string ? sourceText(current.start, current.end) : current.text
            }
            if !currentAttribute.isEmpty { attributes.append(currentAttribute) }
        }
        guard peek().kind == .identifier, let scan = scanDeclaration(.member) else {
            diagnose(peek().start, "expected a property declaration")
            recoverToStatementEnd()
            return []
        }
        let declarations = parseDeclarators(scan, .member)
        let end = lastEnd
        return declarations.compactMap { declaration in
            guard case .variable(let variable) = declaration else { return nil }
            return .variable(VariableDeclaration(name: variable.name, type: variable.type, initializer: nil, isConstant: false,
                                                 isStatic: attributes.contains("class"), attributes: attributes, accessors: [],
                                                 range: range(start, end), nameRange: variable.nameRange))
        }
    }
}
