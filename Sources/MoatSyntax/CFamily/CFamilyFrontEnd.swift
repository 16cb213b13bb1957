/// Objective-C, Objective-C++, C and C++ front end: a lexer and a shallow, recovering parser that lower a
/// source file into the shared code model, following the conventions of the Swift front end.
///
/// Pipeline: `CFamilyLexer` (tokens, comments, `#import`s, conditional directives) → `CConditionalResolver`
/// (which `#if` groups become structure) → `CFamilyParser` (declarations, statements, expressions).
/// Macros are not expanded and headers are not read, so types and macros are told apart by shape.
/// Every input yields a `CodeFile`; what the parser had to skip is listed in `diagnostics`.
public enum CFamilyFrontEnd {
    public static func parse(source: String, path: String, language: SourceLanguage) -> CodeFile {
        let bytes = Array(source.utf8)
        let cplusplus = language == .cPlusPlus || language == .objectiveCPlusPlus
        var lexer = CFamilyLexer(bytes: bytes, cplusplus: cplusplus)
        lexer.tokenize()
        var problems = lexer.problems
        let tokens = CConditionalResolver.resolve(lexer.tokens, problems: &problems)
        let lines = CLineIndex(bytes)
        let parser = CFamilyParser(bytes: bytes, tokens: tokens, lines: lines, language: language)
        for problem in problems.sorted(by: { $0.offset < $1.offset }) { parser.diagnose(problem.offset, problem.message) }

        var declarations: [Declaration] = []
        var statements: [Statement] = []
        for item in parser.parseTopLevelItems(untilBrace: false) {
            switch item {
            case .declaration(let declaration): declarations.append(declaration)
            case .statement(let statement): statements.append(statement)
            }
        }
        statements.append(contentsOf: parser.strayStatements)

        let comments = lexer.comments.map { comment in
            Comment(text: String(decoding: bytes[comment.start..<comment.end], as: UTF8.self),
                    range: lines.range(comment.start, comment.end))
        }
        var imports = lexer.imports
        imports.append(contentsOf: parser.moduleImports.map(\.name))
        let typeReferences = parser.typeReferences.enumerated()
            .sorted { ($0.element.range.start.offset, $0.offset) < ($1.element.range.start.offset, $1.offset) }
            .map(\.element)
        return CodeFile(path: path, language: language, source: source, declarations: declarations, statements: statements,
                        comments: comments, typeReferences: typeReferences, imports: imports,
                        diagnostics: parser.finishDiagnostics(),
                        macros: macros(lexer.defines, bytes: bytes, lines: lines, language: language, cplusplus: cplusplus))
    }

    /// At most this many macros a file (generated headers of thousands of defines).
    static let maximumMacros = 2000

    /// Object-like macros whose body parses as one expression, as constant globals.
    static func macros(_ defines: [(name: String, nameStart: Int, nameEnd: Int, bodyStart: Int, bodyEnd: Int)], bytes: [UInt8],
                       lines: CLineIndex, language: SourceLanguage, cplusplus: Bool) -> [VariableDeclaration] {
        var result: [VariableDeclaration] = []
        for define in defines.prefix(maximumMacros) {
            let tokens = CFamilyLexer.tokens(of: bytes, from: define.bodyStart, to: define.bodyEnd, cplusplus: cplusplus)
            guard !tokens.isEmpty else { continue }
            let parser = CFamilyParser(bytes: bytes, tokens: tokens, lines: lines, language: language)
            let value = parser.parseAssignment()
            // A body that is not one expression (`{`, a statement, two expressions) is not a constant.
            guard parser.atEnd, parser.diagnostics.isEmpty else { continue }
            result.append(VariableDeclaration(
                name: define.name, type: nil, initializer: value, isConstant: true, isStatic: true, attributes: ["#define"],
                accessors: [], range: lines.range(define.nameStart, define.bodyEnd), nameRange: lines.range(define.nameStart, define.nameEnd)))
        }
        return result
    }
}
