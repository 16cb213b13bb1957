import Testing
import MoatSyntax

struct SwiftFrontEndTests {
    func parse(_ source: String) -> CodeFile { SwiftFrontEnd.parse(source: source, path: "T.swift") }

    func expressions(_ file: CodeFile) -> [Expression] {
        var result: [Expression] = []
        file.forEachExpression { expression, _ in result.append(expression) }
        return result
    }

    @Test func callsHaveCalleeLabelsAndPositions() throws {
        let file = parse("""
        import Foundation
        func load(_ data: Data) {
            let x = NSKeyedUnarchiver.unarchiveObject(with: data)
        }
        """)
        let call = try #require(expressions(file).first { $0.swiftCallName == "unarchiveObject(with:)" })
        #expect(call.dottedName == "NSKeyedUnarchiver.unarchiveObject")
        #expect(call.range.start.line == 3 && call.range.start.column == 13)
        #expect(call.argument("with")?.name == "data")
        #expect(file.imports == ["Foundation"])
        let function = try #require(file.allFunctions.first?.function)
        #expect(function.fullName == "load(_:)")
        #expect(function.parameters.first?.name == "data" && function.parameters.first?.label == nil)
        #expect(function.nameRange.start.line == 2 && function.nameRange.start.column == 6)
    }

    @Test func assignmentsBecomeAssignmentStatements() throws {
        let file = parse("""
        func f(parser: XMLParser) {
            parser.shouldResolveExternalEntities = true
            count += 1
        }
        """)
        var assignments: [(String, String, Int)] = []
        file.forEachStatement { statement, _ in
            if case .assignment(let target, let op, _) = statement.kind {
                assignments.append((target.nameChain.joined(separator: "."), op, statement.range.start.column))
            }
        }
        #expect(assignments.count == 2)
        #expect(assignments.first?.0 == "parser.shouldResolveExternalEntities" && assignments.first?.1 == "=")
        #expect(assignments.first?.2 == 5)
        #expect(assignments.last?.1 == "+=")
    }

    @Test func stringLiteralsKeepTextAndInterpolations() throws {
        let file = parse(#"""
        let a = "plain"
        let b = "js(\(value))"
        """#)
        let strings = expressions(file).filter(\.isStringLiteral)
        #expect(strings.count == 2)
        #expect(strings[0].stringValue == "plain")
        #expect(strings[1].stringValue == nil)
        #expect(strings[1].descendants().contains { $0.name == "value" })
    }

    @Test func codeInCommentsAndStringsIsNotCode() {
        let file = parse("""
        // NSKeyedUnarchiver.unarchiveObject(with: data)
        /* let w = UIWebView() */
        let s = "UIWebView()"
        """)
        #expect(!expressions(file).contains { $0.isCall && $0.name == "unarchiveObject" })
        #expect(!expressions(file).contains { $0.name == "UIWebView" })
        #expect(file.typeReferences.isEmpty)
        #expect(file.comments.count == 2)
        #expect(file.comments[1].range.start.line == 2)
    }

    @Test func typesInheritanceAndTypeReferences() throws {
        let file = parse("""
        class Legacy: UIWebView, WKNavigationDelegate {
            var web: UIWebView?
        }
        extension Legacy: NSSecureCoding {}
        """)
        let types = file.allTypes
        #expect(types.map(\.name) == ["Legacy", "Legacy"])
        #expect(types[0].inherits == ["UIWebView", "WKNavigationDelegate"])
        #expect(types[1].kind == .extension && types[1].inherits == ["NSSecureCoding"])
        let references = file.typeReferences.filter { $0.name == "UIWebView" }
        #expect(references.map(\.range.start.line) == [1, 2])
        #expect(references.map(\.range.start.column) == [15, 14])
        #expect(types[0].variables.first?.name == "web")
    }

    @Test func ifDebugBlocksAreConditional() {
        let file = parse("""
        func configure(web: WKWebView) {
            #if DEBUG
            web.isInspectable = true
            #else
            web.isInspectable = false
            #endif
        }
        """)
        var debugOnly: [Bool] = []
        file.forEachStatement { statement, context in
            if case .assignment = statement.kind { debugOnly.append(context.isDebugOnly) }
        }
        #expect(debugOnly == [true, false])
    }

    @Test func conditionsBindingsAndClosures() throws {
        let file = parse("""
        func handle(url: URL) {
            guard let host = url.host, host == "example.com" else { return }
            items.forEach { item in print(item) }
        }
        """)
        var guardConditions: [Condition] = []
        file.forEachStatement { statement, _ in
            if case .guardStatement(let conditions, _) = statement.kind { guardConditions = conditions }
        }
        #expect(guardConditions.count == 2)
        if case .binding(let names, let value, _) = guardConditions[0] {
            #expect(names == ["host"])
            #expect(value.dottedName == "url.host")
        } else {
            Issue.record("first condition should be an optional binding")
        }
        let closure = expressions(file).first { if case .closure = $0.kind { true } else { false } }
        if case .closure(let parameters, let body)? = closure?.kind {
            #expect(parameters == ["item"])
            #expect(body.statements.count == 1)
        } else {
            Issue.record("trailing closure not lowered")
        }
    }

    @Test func brokenSourceStillLowers() {
        let file = parse("func broken( { let x = [1, 2\n class }")
        #expect(!file.diagnostics.isEmpty)
        _ = file.allFunctions
    }

    @Test func boolValueUnderstandsBothLanguagesSpellings() {
        let file = parse("let a = true; let b = NSNumber(value: true); let c = false")
        let values = expressions(file).compactMap(\.boolValue)
        #expect(values.prefix(2) == [true, true])
        #expect(values.last == false)
    }

    @Test func positionsCountUTF8Bytes() throws {
        let file = parse("let é = 1; let w = UIWebView()")
        let call = try #require(expressions(file).first { $0.name == "UIWebView" && $0.isCall })
        // "let é = 1; let w = " is 19 characters but 20 UTF-8 bytes.
        #expect(call.range.start.column == 21)
        #expect(file.position(ofOffset: call.range.start.offset) == call.range.start)
    }
}

/// Inputs that made SwiftSyntax overflow the stack or take exponential time.
struct SwiftPathologicalInputTests {
    @Test func longOperatorChainsStayFlat() {
        let source = "let s = " + (0..<2000).map { "v\($0)" }.joined(separator: " + ") + "\n"
        let file = SwiftFrontEnd.parse(source: source, path: "Long.swift")
        var names = 0
        file.forEachExpression { expression, _ in if case .identifier = expression.kind { names += 1 } }
        #expect(names == 2000)
    }

    @Test func shortChainsAreStillFolded() {
        let file = SwiftFrontEnd.parse(source: "let s = a + b * c\n", path: "Short.swift")
        var operators: [String] = []
        file.forEachExpression { expression, _ in if case .binary(let op, _, _) = expression.kind { operators.append(op) } }
        #expect(operators == ["+", "*"])
    }

    @Test func deepBracketsAreRefusedBeforeParsing() {
        let deep = "let b = " + String(repeating: "[", count: 30) + String(repeating: "]", count: 30)
        #expect(SwiftFrontEnd.refusalReason(source: deep) == "not analysed: square brackets nested 30 deep (limit 8); the Swift parser takes time exponential in that depth")
        let ordinary = "let m: [[String: [Int]]] = [[\"a\": [1, 2]]] // [[[[[[[[[[[[[[[[[\nlet s = \"[[[[[[[[[[[[[[[[[[\""
        #expect(SwiftFrontEnd.refusalReason(source: ordinary) == nil)
        let nine = String(repeating: "[", count: 9)
        let hidden = "/* /* \(nine) */ \(nine) */ let s = \"\\\"\(nine)\"\n// \(nine)\nlet d = a / b\nlet r = #/[[[[[[[[[[a]]]]]]]]]]/#\nlet `[[[[[[[[[[` = 1"
        #expect(SwiftFrontEnd.refusalReason(source: hidden) == nil)
        #expect(SwiftFrontEnd.refusalReason(source: "x /\(nine)")?.contains("nested 9 deep") == true)
        #expect(SwiftFrontEnd.refusalReason(source: "\(nine)]] /")?.contains("nested 9 deep") == true)
        // Eight is accepted; a closure body starts afresh.
        #expect(SwiftFrontEnd.refusalReason(source: String(repeating: "[", count: 8)) == nil)
        #expect(SwiftFrontEnd.refusalReason(source: String(repeating: "[{", count: 20)) == nil)
        // A single-line literal never ends on its own line here: it holds the brackets.
        #expect(SwiftFrontEnd.refusalReason(source: "\"unterminated \(nine)") == nil)
    }

    /// The lexer's view of literals decides what is code: a single-line literal (plain or raw) ends at its
    /// line's end even unterminated, a multi-line one runs to its delimiter, an interpolation is code.
    @Test func theRefusalLexesLiteralsLikeTheSwiftLexer() {
        let forty = String(repeating: "[", count: 40)
        // The fuzzer's shape, reduced: an unterminated literal, a new line, the brackets.
        for prefix in ["\"\n", "#\"\n", "##\"abc\"#\n", "\"\\\"\n", "\"abc\\(\n", "\"\"\"\n\\(", "\"\"\"\n\"\"\"\n",
                       "#\"\"\"\n\"\"\"#\n", "let s = \"\\(f(\"x\"))\"\n"] {
            #expect(SwiftFrontEnd.refusalReason(source: prefix + forty + "F")?.contains("square brackets nested 40 deep") == true,
                    "\(prefix.debugDescription)")
        }
        // Inside a multi-line or raw multi-line literal that is never closed, brackets are text.
        for prefix in ["\"\"\"\n", "#\"\"\"\n", "\"\"\"\n\\\"\"\"\n", "#\"\"\"\n\"\"\"\n"] {
            #expect(SwiftFrontEnd.refusalReason(source: prefix + forty + "F") == nil, "\(prefix.debugDescription)")
        }
        // Interpolations nest inside brackets and count.
        #expect(SwiftFrontEnd.refusalReason(source: "[" + String(repeating: "\"\\([", count: 12) + "F")?.contains("nested 13 deep") == true)
        // Tuples and function types inside array types.
        let tuples = "let x = " + String(repeating: "[((a, ", count: 6) + "F"
        #expect(SwiftFrontEnd.refusalReason(source: tuples) == "not analysed: brackets and parentheses nested 18 deep (limit 16); the Swift parser takes time exponential in that depth")
        #expect(SwiftFrontEnd.refusalReason(source: "let x = " + String(repeating: "[(a, ", count: 8) + "F") == nil)
        #expect(SwiftFrontEnd.refusalReason(source: String(repeating: "(", count: 64) + "F") == nil)
    }

    @Test func summaryLineTextIsTrimmedOfSpacesAndTabs() {
        let summary = SourceSummary(file: SwiftFrontEnd.parse(source: "func f() {\n \t  foo()  \t\n}\n", path: "T.swift"))
        #expect(summary.lineText[2] == "foo()")
        #expect(summary.lineText[1] == "func f() {")
        // Lines that are not ASCII are trimmed as characters: a space that carries a combining mark stays.
        let source = "func g() {\n\t foo(\"é\") \t\n let s = \"\"\"\n \u{301}x \\(bar())\n \"\"\"\n\tbaz() // x \u{301}\n  qux()\r\n}\n"
        let marked = SourceSummary(file: SwiftFrontEnd.parse(source: source, path: "T.swift"))
        #expect(marked.lineText[2] == "foo(\"é\")")
        #expect(marked.lineText[4] == " \u{301}x \\(bar())")
        #expect(marked.lineText[6] == "baz() // x \u{301}")
        #expect(marked.lineText[7] == "qux()")
    }
}
