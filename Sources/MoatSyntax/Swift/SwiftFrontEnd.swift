internal import SwiftSyntax
internal import SwiftParser
internal import SwiftOperators

/// Parses Swift source with the toolchain's SwiftParser, folds operators, and lowers the tree into the
/// shared code model. The SwiftSyntax tree is dropped when this returns.
public enum SwiftFrontEnd {
    public static func parse(source: String, path: String) -> CodeFile {
        parse(source: source, path: path, reference: false)
    }

    /// `reference: true` lowers the slow, simple way (SwiftOperators folds every operator sequence,
    /// `trimmedDescription` gives node text, a visitor visits every token for comments): tests compare the
    /// fast path against it.
    public static func parse(source: String, path: String, reference: Bool) -> CodeFile {
        let tree = Parser.parse(source: source)
        let file = tree
        var lowering = SwiftLowering(source: source, reference: reference)
        let (declarations, statements) = lowering.lowerItems(file.statements)
        let collector = SwiftTypeAndCommentCollector(lines: lowering.lines, visitsTokens: reference)
        collector.walk(file)
        let comments = reference ? collector.comments : SwiftCommentScanner.comments(in: tree, bytes: lowering.bytes,
                                                                                     lines: lowering.lines)
        return CodeFile(path: path, language: .swift, source: source, declarations: declarations,
                        statements: statements, comments: comments,
                        typeReferences: collector.typeReferences, imports: collector.imports,
                        diagnostics: tree.hasError ? ["the Swift parser recovered from syntax errors"] : [])
    }
}

/// Finds the comments of a tree without visiting every token: every comment starts with `//` or `/*`, so
/// only the tokens whose extent holds such a pair are looked up, in source order, each once. The result is
/// what a visit of every token's trivia gives, in the same order.
enum SwiftCommentScanner {
    static func comments(in tree: SourceFileSyntax, bytes: [UInt8], lines: LineTable) -> [Comment] {
        var result: [Comment] = []
        var offset = 0
        let count = bytes.count
        while offset + 1 < count {
            let byte = bytes[offset]
            let next = bytes[offset + 1]
            guard byte == UInt8(ascii: "/"), next == UInt8(ascii: "/") || next == UInt8(ascii: "*") else {
                offset += 1
                continue
            }
            guard let token = tree.token(at: AbsolutePosition(utf8Offset: offset)) else {
                offset += 1
                continue
            }
            collect(token.leadingTrivia, start: token.position.utf8Offset, lines: lines, into: &result)
            collect(token.trailingTrivia, start: token.endPositionBeforeTrailingTrivia.utf8Offset, lines: lines,
                    into: &result)
            // Each token once: continue after its end (always past `offset`).
            offset = max(offset + 1, token.endPosition.utf8Offset)
        }
        return result
    }

    static func collect(_ trivia: Trivia, start: Int, lines: LineTable, into comments: inout [Comment]) {
        var offset = start
        for piece in trivia {
            let length = piece.sourceLength.utf8Length
            switch piece {
            case .lineComment(let text), .blockComment(let text), .docLineComment(let text), .docBlockComment(let text):
                comments.append(Comment(text: text, range: lines.range(offset, offset + length)))
            default: break
            }
            offset += length
        }
    }
}

/// UTF-8 offset → line/column, shared by the front ends.
struct LineTable {
    private var starts: [Int] = [0]

    init(_ source: String) {
        self.init(Array(source.utf8))
    }

    init(_ bytes: [UInt8]) {
        var offset = 0
        for byte in bytes {
            offset += 1
            if byte == UInt8(ascii: "\n") { starts.append(offset) }
        }
    }

    func position(_ offset: Int) -> SourcePosition {
        var low = 0
        var high = starts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if starts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return SourcePosition(line: low + 1, column: offset - starts[low] + 1, offset: offset)
    }

    func range(_ start: Int, _ end: Int) -> SourceRange {
        SourceRange(start: position(start), end: position(end))
    }
}

private final class SwiftTypeAndCommentCollector: SyntaxVisitor {
    let lines: LineTable
    /// Comments are collected only when this is set (the reference path); see `SwiftCommentScanner`.
    let visitsTokens: Bool
    var typeReferences: [TypeReference] = []
    var comments: [Comment] = []
    var imports: [String] = []

    init(lines: LineTable, visitsTokens: Bool) {
        self.lines = lines
        self.visitsTokens = visitsTokens
        super.init(viewMode: .sourceAccurate)
    }

    private func range(_ node: some SyntaxProtocol) -> SourceRange {
        lines.range(node.positionAfterSkippingLeadingTrivia.utf8Offset, node.endPositionBeforeTrailingTrivia.utf8Offset)
    }

    override func visit(_ node: IdentifierTypeSyntax) -> SyntaxVisitorContinueKind {
        typeReferences.append(TypeReference(name: node.name.text, range: range(node)))
        return .visitChildren
    }

    override func visit(_ node: MemberTypeSyntax) -> SyntaxVisitorContinueKind {
        typeReferences.append(TypeReference(name: node.name.text, range: range(node.name)))
        return .visitChildren
    }

    override func visit(_ node: ImportDeclSyntax) -> SyntaxVisitorContinueKind {
        imports.append(node.path.map { $0.name.text }.joined(separator: "."))
        return .skipChildren
    }

    override func visit(_ token: TokenSyntax) -> SyntaxVisitorContinueKind {
        guard visitsTokens else { return .skipChildren }
        SwiftCommentScanner.collect(token.leadingTrivia, start: token.position.utf8Offset, lines: lines, into: &comments)
        SwiftCommentScanner.collect(token.trailingTrivia, start: token.endPositionBeforeTrailingTrivia.utf8Offset,
                                    lines: lines, into: &comments)
        return .skipChildren
    }
}

struct SwiftLowering {
    /// Operator sequences longer than this stay flat: folding `v0 + v1 + ... + v1999` makes a tree 2,000
    /// levels deep, and SwiftSyntax's own recursive traversals overflow the stack on it. They are lowered
    /// as a flat list of their operands.
    static let maximumFoldedElements = 257

    let lines: LineTable
    /// The source's UTF-8 bytes: node text is read from here (see `text`).
    let bytes: [UInt8]
    /// Lower the slow, simple way (see `SwiftFrontEnd.parse(source:path:reference:)`).
    let reference: Bool
    /// Operator sequences are folded one at a time while lowering (cheaper than rewriting the whole tree
    /// first). A folded sequence is a detached tree whose positions start at 0: this is the absolute
    /// offset of the detached tree being lowered.
    private var baseOffset = 0

    init(source: String, reference: Bool = false) {
        bytes = Array(source.utf8)
        lines = LineTable(bytes)
        self.reference = reference
    }

    func range(_ node: some SyntaxProtocol) -> SourceRange {
        lines.range(baseOffset + node.positionAfterSkippingLeadingTrivia.utf8Offset,
                    baseOffset + node.endPositionBeforeTrailingTrivia.utf8Offset)
    }

    /// From the start of `first` to the end of `last` (the range of a node SwiftOperators would make of them).
    func range(from first: some SyntaxProtocol, to last: some SyntaxProtocol) -> SourceRange {
        lines.range(baseOffset + first.positionAfterSkippingLeadingTrivia.utf8Offset,
                    baseOffset + last.endPositionBeforeTrailingTrivia.utf8Offset)
    }

    /// The node's source text without its leading and trailing trivia: `trimmedDescription`, read from the
    /// source instead of from a trimmed copy of the tree (which SwiftSyntax builds for every call). A node
    /// with missing or unexpected tokens takes the slow path, so that recovered trees read the same.
    func text(_ node: some SyntaxProtocol) -> String {
        if reference || node.hasError { return node.trimmedDescription }
        let start = baseOffset + node.positionAfterSkippingLeadingTrivia.utf8Offset
        let end = baseOffset + node.endPositionBeforeTrailingTrivia.utf8Offset
        guard start >= 0, start <= end, end <= bytes.count else { return node.trimmedDescription }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// Folds `expr` when it is a short enough operator sequence and lowers the result with `body`, keeping
    /// positions absolute. Returns nil when `expr` is not such a sequence.
    private mutating func withFolded<T>(_ expr: ExprSyntax, _ body: (inout SwiftLowering, ExprSyntax) -> T) -> T? {
        guard let sequence = expr.as(SequenceExprSyntax.self),
              sequence.elements.count <= Self.maximumFoldedElements else { return nil }
        let folded = OperatorTable.standardOperators.foldSingle(sequence) { _ in }
        guard !folded.is(SequenceExprSyntax.self) else { return nil }
        let saved = baseOffset
        baseOffset += sequence.position.utf8Offset
        defer { baseOffset = saved }
        return body(&self, folded)
    }

    // MARK: Items, declarations

    mutating func lowerItems(_ items: CodeBlockItemListSyntax) -> ([Declaration], [Statement]) {
        var declarations: [Declaration] = []
        var statements: [Statement] = []
        for item in items {
            switch item.item {
            case .decl(let decl):
                if let declaration = lowerDeclaration(decl) { declarations.append(declaration) }
                else if let ifConfig = decl.as(IfConfigDeclSyntax.self) {
                    // A top-level #if: declarations and statements are split by clause.
                    let (conditionalDeclarations, conditionalStatements) = lowerTopLevelIfConfig(ifConfig)
                    declarations.append(contentsOf: conditionalDeclarations)
                    statements.append(contentsOf: conditionalStatements)
                }
            case .stmt(let stmt):
                statements.append(lowerStatement(stmt))
            case .expr(let expr):
                statements.append(lowerExpressionStatement(expr))
            @unknown default:
                break
            }
        }
        return (declarations, statements)
    }

    private mutating func lowerTopLevelIfConfig(_ node: IfConfigDeclSyntax) -> ([Declaration], [Statement]) {
        var declarationClauses: [ConditionalBlock<Declaration>.Clause] = []
        var statementClauses: [ConditionalBlock<Statement>.Clause] = []
        for clause in node.clauses {
            let condition = clauseCondition(clause)
            var declarations: [Declaration] = []
            var statements: [Statement] = []
            if case .statements(let items) = clause.elements {
                (declarations, statements) = lowerItems(items)
            }
            declarationClauses.append(.init(condition: condition, elements: declarations))
            statementClauses.append(.init(condition: condition, elements: statements))
        }
        let blockRange = range(node)
        var declarations: [Declaration] = []
        var statements: [Statement] = []
        if declarationClauses.contains(where: { !$0.elements.isEmpty }) {
            declarations.append(.conditional(ConditionalBlock(clauses: declarationClauses, range: blockRange)))
        }
        if statementClauses.contains(where: { !$0.elements.isEmpty }) {
            statements.append(Statement(kind: .conditional(ConditionalBlock(clauses: statementClauses, range: blockRange)),
                                        range: blockRange))
        }
        return (declarations, statements)
    }

    private func clauseCondition(_ clause: IfConfigClauseSyntax) -> String? {
        if clause.poundKeyword.tokenKind == .poundElse { return nil }
        return clause.condition.map { text($0) }
    }

    mutating func lowerDeclaration(_ decl: DeclSyntax) -> Declaration? {
        if let node = decl.as(ClassDeclSyntax.self) {
            return .type(typeDeclaration(.class, node.name, node.inheritanceClause, node.attributes, node.memberBlock, node))
        }
        if let node = decl.as(StructDeclSyntax.self) {
            return .type(typeDeclaration(.struct, node.name, node.inheritanceClause, node.attributes, node.memberBlock, node))
        }
        if let node = decl.as(EnumDeclSyntax.self) {
            return .type(typeDeclaration(.enum, node.name, node.inheritanceClause, node.attributes, node.memberBlock, node))
        }
        if let node = decl.as(ActorDeclSyntax.self) {
            return .type(typeDeclaration(.actor, node.name, node.inheritanceClause, node.attributes, node.memberBlock, node))
        }
        if let node = decl.as(ProtocolDeclSyntax.self) {
            return .type(typeDeclaration(.protocol, node.name, node.inheritanceClause, node.attributes, node.memberBlock, node))
        }
        if let node = decl.as(ExtensionDeclSyntax.self) {
            let members = lowerMembers(node.memberBlock.members)
            let inherits = node.inheritanceClause?.inheritedTypes.map { text($0.type) } ?? []
            return .type(TypeDeclaration(kind: .extension, name: text(node.extendedType), inherits: inherits,
                                         attributes: attributes(node.attributes), members: members,
                                         range: range(node), nameRange: range(node.extendedType)))
        }
        if let node = decl.as(FunctionDeclSyntax.self) {
            return .function(function(name: node.name.text, signature: node.signature, attributes: node.attributes,
                                      modifiers: node.modifiers, body: node.body, node: node, nameNode: Syntax(node.name)))
        }
        if let node = decl.as(InitializerDeclSyntax.self) {
            return .function(function(name: "init", signature: node.signature, attributes: node.attributes,
                                      modifiers: node.modifiers, body: node.body, node: node, nameNode: Syntax(node.initKeyword)))
        }
        if let node = decl.as(DeinitializerDeclSyntax.self) {
            let body = node.body.map { lowerBlock($0) }
            return .function(FunctionDeclaration(name: "deinit", fullName: "deinit", parameters: [], returnType: nil,
                                                 attributes: attributes(node.attributes), modifiers: [], isStatic: false,
                                                 body: body, range: range(node), nameRange: range(node.deinitKeyword)))
        }
        if let node = decl.as(VariableDeclSyntax.self) {
            // Several bindings (`var a = 1, b = 2`) become a conditional-free sequence; the first is returned
            // here and the rest by `lowerVariableBindings`.
            return lowerVariableBindings(node).first.map { .variable($0) }
        }
        return nil
    }

    mutating func lowerVariableBindings(_ node: VariableDeclSyntax) -> [VariableDeclaration] {
        let isConstant = node.bindingSpecifier.tokenKind == .keyword(.let)
        let modifierNames = node.modifiers.map { $0.name.text }
        let isStatic = modifierNames.contains("static") || modifierNames.contains("class")
        let attributeNames = attributes(node.attributes)
        var result: [VariableDeclaration] = []
        for binding in node.bindings {
            let name = text(binding.pattern)
            let type = binding.typeAnnotation.map { text($0.type) }
            let initializer = binding.initializer.map { lowerExpression($0.value) }
            var accessors: [Block] = []
            if let accessorBlock = binding.accessorBlock {
                switch accessorBlock.accessors {
                case .accessors(let list):
                    for accessor in list { if let body = accessor.body { accessors.append(lowerBlock(body)) } }
                case .getter(let items):
                    accessors.append(Block(statements: lowerStatements(items), range: range(items)))
                @unknown default:
                    break
                }
            }
            result.append(VariableDeclaration(name: name, type: type, initializer: initializer, isConstant: isConstant,
                                              isStatic: isStatic, attributes: attributeNames, accessors: accessors,
                                              range: range(node), nameRange: range(binding.pattern)))
        }
        return result
    }

    private func attributes(_ list: AttributeListSyntax) -> [String] {
        list.compactMap { element in
            if case .attribute(let attribute) = element { return text(attribute.attributeName) }
            return nil
        }
    }

    private mutating func typeDeclaration(_ kind: TypeKind, _ name: TokenSyntax, _ inheritance: InheritanceClauseSyntax?,
                                          _ attributeList: AttributeListSyntax, _ memberBlock: MemberBlockSyntax,
                                          _ node: some SyntaxProtocol) -> TypeDeclaration {
        let inherits = inheritance?.inheritedTypes.map { text($0.type) } ?? []
        return TypeDeclaration(kind: kind, name: name.text, inherits: inherits, attributes: attributes(attributeList),
                               members: lowerMembers(memberBlock.members), range: range(node), nameRange: range(name))
    }

    private mutating func lowerMembers(_ members: MemberBlockItemListSyntax) -> [Declaration] {
        var result: [Declaration] = []
        for member in members {
            let decl = member.decl
            if let variable = decl.as(VariableDeclSyntax.self) {
                result.append(contentsOf: lowerVariableBindings(variable).map { .variable($0) })
            } else if let ifConfig = decl.as(IfConfigDeclSyntax.self) {
                var clauses: [ConditionalBlock<Declaration>.Clause] = []
                for clause in ifConfig.clauses {
                    var elements: [Declaration] = []
                    if case .decls(let nested) = clause.elements { elements = lowerMembers(nested) }
                    clauses.append(.init(condition: clauseCondition(clause), elements: elements))
                }
                result.append(.conditional(ConditionalBlock(clauses: clauses, range: range(ifConfig))))
            } else if let declaration = lowerDeclaration(decl) {
                result.append(declaration)
            }
        }
        return result
    }

    private mutating func function(name: String, signature: FunctionSignatureSyntax, attributes attributeList: AttributeListSyntax,
                                   modifiers: DeclModifierListSyntax, body: CodeBlockSyntax?, node: some SyntaxProtocol,
                                   nameNode: Syntax) -> FunctionDeclaration {
        var parameters: [Parameter] = []
        for parameter in signature.parameterClause.parameters {
            let first = parameter.firstName.text
            let label: String? = first == "_" ? nil : first
            let inner = parameter.secondName?.text ?? first
            parameters.append(Parameter(label: label, name: inner, type: text(parameter.type),
                                        defaultValue: parameter.defaultValue.map { lowerExpression($0.value) }))
        }
        let fullName = name + "(" + parameters.map { ($0.label ?? "_") + ":" }.joined() + ")"
        let modifierNames = modifiers.map { $0.name.text }
        return FunctionDeclaration(
            name: name, fullName: fullName, parameters: parameters,
            returnType: signature.returnClause.map { text($0.type) }, attributes: attributes(attributeList),
            modifiers: modifierNames, isStatic: modifierNames.contains("static") || modifierNames.contains("class"),
            body: body.map { lowerBlock($0) }, range: range(node), nameRange: range(nameNode))
    }

    // MARK: Statements

    mutating func lowerBlock(_ block: CodeBlockSyntax) -> Block {
        Block(statements: lowerStatements(block.statements), range: range(block))
    }

    mutating func lowerStatements(_ items: CodeBlockItemListSyntax) -> [Statement] {
        var result: [Statement] = []
        for item in items {
            switch item.item {
            case .decl(let decl):
                if let variable = decl.as(VariableDeclSyntax.self) {
                    for binding in lowerVariableBindings(variable) {
                        result.append(Statement(kind: .variable(names: bindingNames(binding.name), type: binding.type,
                                                                initializer: binding.initializer, isConstant: binding.isConstant),
                                                range: binding.range))
                    }
                } else if let ifConfig = decl.as(IfConfigDeclSyntax.self) {
                    result.append(lowerStatementIfConfig(ifConfig))
                } else if let declaration = lowerDeclaration(decl) {
                    result.append(Statement(kind: .declaration(declaration), range: range(decl)))
                }
            case .stmt(let stmt):
                result.append(lowerStatement(stmt))
            case .expr(let expr):
                result.append(lowerExpressionStatement(expr))
            @unknown default:
                break
            }
        }
        return result
    }

    private func bindingNames(_ pattern: String) -> [String] {
        // `(a, b)` → [a, b]; `x` → [x]
        let trimmed = pattern.filter { $0 != "(" && $0 != ")" && $0 != " " }
        return trimmed.split(separator: ",").map { String($0.split(separator: ":").first ?? $0) }
    }

    private mutating func lowerStatementIfConfig(_ node: IfConfigDeclSyntax) -> Statement {
        var clauses: [ConditionalBlock<Statement>.Clause] = []
        for clause in node.clauses {
            var elements: [Statement] = []
            if case .statements(let items) = clause.elements { elements = lowerStatements(items) }
            clauses.append(.init(condition: clauseCondition(clause), elements: elements))
        }
        let blockRange = range(node)
        return Statement(kind: .conditional(ConditionalBlock(clauses: clauses, range: blockRange)), range: blockRange)
    }

    mutating func lowerExpressionStatement(_ expr: ExprSyntax) -> Statement {
        if let sequence = expr.as(SequenceExprSyntax.self), let folded = fastFold(sequence) {
            return lowerFoldedStatement(folded)
        }
        if let statement = withFolded(expr, { lowering, folded in lowering.lowerExpressionStatement(folded) }) {
            return statement
        }
        if let ifExpr = expr.as(IfExprSyntax.self) { return lowerIf(ifExpr) }
        if let switchExpr = expr.as(SwitchExprSyntax.self) { return lowerSwitch(switchExpr) }
        if let infix = expr.as(InfixOperatorExprSyntax.self) {
            if infix.operator.is(AssignmentExprSyntax.self) {
                return Statement(kind: .assignment(target: lowerExpression(infix.leftOperand), op: "=",
                                                   value: lowerExpression(infix.rightOperand)), range: range(expr))
            }
            if let op = infix.operator.as(BinaryOperatorExprSyntax.self), isCompoundAssignment(op.operator.text) {
                return Statement(kind: .assignment(target: lowerExpression(infix.leftOperand), op: op.operator.text,
                                                   value: lowerExpression(infix.rightOperand)), range: range(expr))
            }
        }
        return Statement(kind: .expression(lowerExpression(expr)), range: range(expr))
    }

    func isCompoundAssignment(_ op: String) -> Bool {
        ["+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^=", "&+=", "&-=", "&*="].contains(op)
    }

    mutating func lowerStatement(_ stmt: StmtSyntax) -> Statement {
        let stmtRange = range(stmt)
        if let node = stmt.as(ExpressionStmtSyntax.self) { return lowerExpressionStatement(node.expression) }
        if let node = stmt.as(GuardStmtSyntax.self) {
            return Statement(kind: .guardStatement(conditions: lowerConditions(node.conditions), elseBody: lowerBlock(node.body)),
                             range: stmtRange)
        }
        if let node = stmt.as(ForStmtSyntax.self) {
            var header = [lowerExpression(node.sequence)]
            if let whereClause = node.whereClause { header.append(lowerExpression(whereClause.condition)) }
            return Statement(kind: .loop(header: header, variables: bindingNames(text(node.pattern)),
                                         body: lowerBlock(node.body)), range: stmtRange)
        }
        if let node = stmt.as(WhileStmtSyntax.self) {
            let header = lowerConditions(node.conditions).flatMap(\.expressions)
            return Statement(kind: .loop(header: header, variables: [], body: lowerBlock(node.body)), range: stmtRange)
        }
        if let node = stmt.as(RepeatStmtSyntax.self) {
            return Statement(kind: .loop(header: [lowerExpression(node.condition)], variables: [], body: lowerBlock(node.body)),
                             range: stmtRange)
        }
        if let node = stmt.as(ReturnStmtSyntax.self) {
            return Statement(kind: .returnStatement(node.expression.map { lowerExpression($0) }), range: stmtRange)
        }
        if let node = stmt.as(ThrowStmtSyntax.self) {
            return Statement(kind: .throwStatement(lowerExpression(node.expression)), range: stmtRange)
        }
        if let node = stmt.as(DoStmtSyntax.self) {
            let catches = node.catchClauses.map { CatchClause(body: lowerBlock($0.body)) }
            return Statement(kind: .doStatement(body: lowerBlock(node.body), catches: catches), range: stmtRange)
        }
        if let node = stmt.as(DeferStmtSyntax.self) {
            return Statement(kind: .deferStatement(lowerBlock(node.body)), range: stmtRange)
        }
        if let node = stmt.as(LabeledStmtSyntax.self) { return lowerStatement(node.statement) }
        return Statement(kind: .other(text(stmt)), range: stmtRange)
    }

    private mutating func lowerIf(_ node: IfExprSyntax) -> Statement {
        var elseBlock: Block?
        switch node.elseBody {
        case .ifExpr(let nested):
            let nestedStatement = lowerIf(nested)
            elseBlock = Block(statements: [nestedStatement], range: nestedStatement.range)
        case .codeBlock(let block):
            elseBlock = lowerBlock(block)
        case nil:
            elseBlock = nil
        @unknown default:
            elseBlock = nil
        }
        return Statement(kind: .ifStatement(conditions: lowerConditions(node.conditions), then: lowerBlock(node.body),
                                            elseBranch: elseBlock), range: range(node))
    }

    private mutating func lowerSwitch(_ node: SwitchExprSyntax) -> Statement {
        var cases: [SwitchCase] = []
        func lowerCaseList(_ list: SwitchCaseListSyntax, into cases: inout [SwitchCase], lowering: inout SwiftLowering) {
            for element in list {
                switch element {
                case .switchCase(let switchCase):
                    var patterns: [Expression] = []
                    if case .case(let label) = switchCase.label {
                        for item in label.caseItems {
                            if let expressionPattern = item.pattern.as(ExpressionPatternSyntax.self) {
                                patterns.append(lowering.lowerExpression(expressionPattern.expression))
                            } else {
                                patterns.append(Expression(kind: .unknown(lowering.text(item.pattern)),
                                                           range: lowering.range(item.pattern)))
                            }
                        }
                    }
                    let body = Block(statements: lowering.lowerStatements(switchCase.statements), range: lowering.range(switchCase))
                    cases.append(SwitchCase(patterns: patterns, body: body))
                case .ifConfigDecl(let ifConfig):
                    for clause in ifConfig.clauses {
                        if case .switchCases(let nested) = clause.elements { lowerCaseList(nested, into: &cases, lowering: &lowering) }
                    }
                @unknown default:
                    break
                }
            }
        }
        lowerCaseList(node.cases, into: &cases, lowering: &self)
        return Statement(kind: .switchStatement(subject: lowerExpression(node.subject), cases: cases), range: range(node))
    }

    mutating func lowerConditions(_ conditions: ConditionElementListSyntax) -> [Condition] {
        conditions.map { element in
            switch element.condition {
            case .expression(let expr):
                return .expression(lowerExpression(expr))
            case .optionalBinding(let binding):
                let names = bindingNames(text(binding.pattern))
                let value: Expression
                if let initializer = binding.initializer {
                    value = lowerExpression(initializer.value)
                } else {
                    value = Expression(kind: .identifier(text(binding.pattern)), range: range(binding.pattern))
                }
                return .binding(names: names, value: value, range: range(binding))
            case .matchingPattern(let matching):
                return .pattern(pattern: text(matching.pattern), value: lowerExpression(matching.initializer.value),
                                range: range(matching))
            default:
                return .other(text(element), range: range(element))
            }
        }
    }

    // MARK: Expressions

    mutating func lowerExpression(_ expr: ExprSyntax) -> Expression {
        if let sequence = expr.as(SequenceExprSyntax.self), let folded = fastFold(sequence) {
            return lowerFolded(folded, folded.root)
        }
        if let lowered = withFolded(expr, { lowering, folded in lowering.lowerExpression(folded) }) { return lowered }
        let exprRange = range(expr)
        func make(_ kind: Expression.Kind) -> Expression { Expression(kind: kind, range: exprRange) }

        if let node = expr.as(DeclReferenceExprSyntax.self) {
            return make(.identifier(node.baseName.text))
        }
        if let node = expr.as(MemberAccessExprSyntax.self) {
            return make(.member(base: node.base.map { lowerExpression($0) }, name: node.declName.baseName.text))
        }
        if let node = expr.as(FunctionCallExprSyntax.self) {
            var arguments = node.arguments.map { Argument(label: $0.label?.text, value: lowerExpression($0.expression)) }
            if let trailing = node.trailingClosure {
                arguments.append(Argument(label: nil, value: lowerExpression(ExprSyntax(trailing))))
            }
            for extra in node.additionalTrailingClosures {
                arguments.append(Argument(label: extra.label.text, value: lowerExpression(ExprSyntax(extra.closure))))
            }
            return make(.call(callee: lowerExpression(node.calledExpression), arguments: arguments, isMessageSend: false))
        }
        if let node = expr.as(SubscriptCallExprSyntax.self) {
            let arguments = node.arguments.map { Argument(label: $0.label?.text, value: lowerExpression($0.expression)) }
            return make(.subscriptAccess(base: lowerExpression(node.calledExpression), arguments: arguments))
        }
        if let node = expr.as(StringLiteralExprSyntax.self) {
            return make(.stringLiteral(lowerSegments(node.segments)))
        }
        if let node = expr.as(IntegerLiteralExprSyntax.self) { return make(.integerLiteral(node.literal.text)) }
        if let node = expr.as(FloatLiteralExprSyntax.self) { return make(.floatLiteral(node.literal.text)) }
        if let node = expr.as(BooleanLiteralExprSyntax.self) {
            return make(.booleanLiteral(node.literal.tokenKind == .keyword(.true)))
        }
        if expr.is(NilLiteralExprSyntax.self) { return make(.nilLiteral) }
        if let node = expr.as(ArrayExprSyntax.self) {
            return make(.arrayLiteral(node.elements.map { lowerExpression($0.expression) }))
        }
        if let node = expr.as(DictionaryExprSyntax.self) {
            var pairs: [(key: Expression, value: Expression)] = []
            if case .elements(let elements) = node.content {
                for element in elements { pairs.append((lowerExpression(element.key), lowerExpression(element.value))) }
            }
            return make(.dictionaryLiteral(pairs))
        }
        if let node = expr.as(ClosureExprSyntax.self) {
            var parameters: [String] = []
            if let signature = node.signature, let clause = signature.parameterClause {
                switch clause {
                case .simpleInput(let list): parameters = list.map { $0.name.text }
                case .parameterClause(let list): parameters = list.parameters.map { ($0.secondName ?? $0.firstName).text }
                @unknown default: break
                }
            }
            return make(.closure(parameters: parameters, body: Block(statements: lowerStatements(node.statements), range: exprRange)))
        }
        if let node = expr.as(InfixOperatorExprSyntax.self) {
            let lhs = lowerExpression(node.leftOperand)
            let rhs = lowerExpression(node.rightOperand)
            if node.operator.is(AssignmentExprSyntax.self) { return make(.binary(op: "=", lhs: lhs, rhs: rhs)) }
            let op = node.operator.as(BinaryOperatorExprSyntax.self)?.operator.text ?? text(node.operator)
            return make(.binary(op: op, lhs: lhs, rhs: rhs))
        }
        if let node = expr.as(PrefixOperatorExprSyntax.self) {
            return make(.prefix(op: node.operator.text, operand: lowerExpression(node.expression)))
        }
        if let node = expr.as(PostfixOperatorExprSyntax.self) {
            return make(.postfix(op: node.operator.text, operand: lowerExpression(node.expression)))
        }
        if let node = expr.as(ForceUnwrapExprSyntax.self) {
            return make(.postfix(op: "!", operand: lowerExpression(node.expression)))
        }
        if let node = expr.as(OptionalChainingExprSyntax.self) {
            return make(.postfix(op: "?", operand: lowerExpression(node.expression)))
        }
        if let node = expr.as(TryExprSyntax.self) {
            return make(.wrapped(op: "try" + (node.questionOrExclamationMark?.text ?? ""), operand: lowerExpression(node.expression)))
        }
        if let node = expr.as(AwaitExprSyntax.self) { return make(.wrapped(op: "await", operand: lowerExpression(node.expression))) }
        if let node = expr.as(InOutExprSyntax.self) { return make(.prefix(op: "&", operand: lowerExpression(node.expression))) }
        if let node = expr.as(TupleExprSyntax.self) {
            if node.elements.count == 1, let only = node.elements.first, only.label == nil {
                return make(.wrapped(op: "()", operand: lowerExpression(only.expression)))
            }
            return make(.tuple(node.elements.map { Argument(label: $0.label?.text, value: lowerExpression($0.expression)) }))
        }
        if let node = expr.as(TernaryExprSyntax.self) {
            return make(.ternary(condition: lowerExpression(node.condition), then: lowerExpression(node.thenExpression),
                                 otherwise: lowerExpression(node.elseExpression)))
        }
        if let node = expr.as(AsExprSyntax.self) {
            return make(.cast(operand: lowerExpression(node.expression), type: text(node.type),
                              op: "as" + (node.questionOrExclamationMark?.text ?? "")))
        }
        if let node = expr.as(IsExprSyntax.self) {
            return make(.cast(operand: lowerExpression(node.expression), type: text(node.type), op: "is"))
        }
        if let node = expr.as(TypeExprSyntax.self) { return make(.typeValue(text(node.type))) }
        if expr.is(SuperExprSyntax.self) { return make(.identifier("super")) }
        if let node = expr.as(GenericSpecializationExprSyntax.self) { return lowerExpression(node.expression) }
        if let node = expr.as(MacroExpansionExprSyntax.self) {
            if node.macroName.text == "selector" { return make(.typeValue(text(node.arguments))) }
            let arguments = node.arguments.map { Argument(label: $0.label?.text, value: lowerExpression($0.expression)) }
            return make(.call(callee: Expression(kind: .identifier("#" + node.macroName.text), range: range(node.macroName)),
                              arguments: arguments, isMessageSend: false))
        }
        if let node = expr.as(IfExprSyntax.self) {
            // `let x = if c { a } else { b }`: keep the branches' values reachable as a closure-free tuple.
            let statement = lowerIf(node)
            return make(.closure(parameters: [], body: Block(statements: [statement], range: exprRange)))
        }
        if let node = expr.as(SwitchExprSyntax.self) {
            let statement = lowerSwitch(node)
            return make(.closure(parameters: [], body: Block(statements: [statement], range: exprRange)))
        }
        if let node = expr.as(KeyPathExprSyntax.self) { return make(.typeValue(text(node))) }
        if let node = expr.as(SequenceExprSyntax.self) {
            // Too long to fold (see maximumFoldedElements): keep the operands, flat.
            let operands = node.elements.filter { !$0.is(BinaryOperatorExprSyntax.self) && !$0.is(AssignmentExprSyntax.self) }
            return make(.tuple(operands.map { Argument(label: nil, value: lowerExpression($0)) }))
        }
        return make(.unknown(text(expr)))
    }

    private mutating func lowerSegments(_ segments: StringLiteralSegmentListSyntax) -> [StringSegment] {
        var result: [StringSegment] = []
        for segment in segments {
            switch segment {
            case .stringSegment(let text):
                result.append(.text(text.content.text))
            case .expressionSegment(let interpolation):
                for element in interpolation.expressions {
                    result.append(.interpolation(lowerExpression(element.expression)))
                }
            @unknown default:
                break
            }
        }
        return result
    }
}

extension SwiftFrontEnd {
    /// Parses with SwiftParser alone and returns the number of tokens: the baseline the benchmark compares
    /// full analysis against.
    public static func parseOnly(source: String) -> Int {
        let tree = Parser.parse(source: source)
        return tree.totalLength.utf8Length
    }
}
