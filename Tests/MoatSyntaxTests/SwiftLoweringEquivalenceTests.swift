import Foundation
import Testing
import MoatSyntax

/// The fast lowering (own operator folding, node text read from the source, comments found from `/`
/// bytes) must give exactly the code model of the reference lowering (SwiftOperators, `trimmedDescription`,
/// a visit of every token).
struct SwiftLoweringEquivalenceTests {
    /// The precedence table written in code is the one SwiftOperators declares (read through SwiftParser).
    @Test func builtInOperatorTableMatchesSwiftOperators() {
        #expect(SwiftFrontEnd.builtInOperatorTableMatchesSwiftOperators)
    }

    func model(_ source: String, reference: Bool) -> String {
        let file = SwiftFrontEnd.parse(source: source, path: "T.swift", reference: reference)
        var text = ""
        dump(file.declarations, to: &text)
        dump(file.statements, to: &text)
        dump(file.comments, to: &text)
        dump(file.typeReferences, to: &text)
        dump(file.imports, to: &text)
        dump(file.diagnostics, to: &text)
        return text
    }

    func expectSame(_ source: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let fast = model(source, reference: false)
        let reference = model(source, reference: true)
        if fast != reference {
            let fastLines = fast.split(separator: "\n", omittingEmptySubsequences: false)
            let referenceLines = reference.split(separator: "\n", omittingEmptySubsequences: false)
            let first = (0..<min(fastLines.count, referenceLines.count)).first { fastLines[$0] != referenceLines[$0] } ?? min(fastLines.count, referenceLines.count)
            let fastLine = first < fastLines.count ? String(fastLines[first]) : "<end>"
            let referenceLine = first < referenceLines.count ? String(referenceLines[first]) : "<end>"
            Issue.record("model differs at dump line \(first): fast \(fastLine) / reference \(referenceLine)\n\(source.prefix(400))",
                         sourceLocation: sourceLocation)
        }
    }

    static let representatives = ["<<", "&>>", "*", "&*", "/", "%", "&", "+", "-", "&+", "|", "^", "..<", "...", "??",
                                  "<", "==", "!=", "===", ">=", "~=", "&&", "||", "=", "+=", "<<=", "|=",
                                  "?:", "as", "as?", "as!", "is", "->", "~>", "<>", "**"]

    func spelled(_ op: String, operand: String) -> String {
        switch op {
        case "?:": return "? t\(operand) : \(operand)"
        case "as", "as?", "as!", "is": return "\(op) T\(operand)"
        default: return "\(op) \(operand)"
        }
    }

    @Test func everyPairOfOperatorsFoldsAsSwiftOperatorsDoes() {
        var source = "func f() {\n"
        for first in Self.representatives {
            for second in Self.representatives {
                source += "    a \(spelled(first, operand: "b")) \(spelled(second, operand: "c"))\n"
                source += "    x = a \(spelled(first, operand: "b")) \(spelled(second, operand: "c")) \(spelled(first, operand: "d"))\n"
            }
        }
        source += "}\n"
        expectSame(source)
    }

    @Test func trickyExpressionsAndTrivia() {
        let sources = [
            "let v = try a + b * c\nlet w = await f() ?? g\nx = try? a ?? b\n",
            "let r = a as Int + b as? Double ?? c is String == d\nlet s = p ? q : r ? s : t\n",
            "x += a << b << c\ny = a < b < c\nz = a ~> b ~> c\n",
            "let q = (a + b) * (c - d) / e % f\nlet k = !a && b || c && !d\n",
            "#!/usr/bin/env swift\n// one\n/* two /* nested */ still */\nlet url = \"https://a.b//c\" // trailing\n/// doc\nfunc f() {}\n/** block doc */\n",
            "let raw = #\"a // b /* c\"#\nlet multi = \"\"\"\n  // not a comment\n  \"\"\"\nlet re = /a\\/\\/b/\n",
            "func f( {\n  let x = a + \n  y = = 3 // broken\n}\n/* unterminated",
            "let v = a +\n // in between\n b * /* inline */ c\n",
            "import Foundation\nimport struct Swift.Int\n@objc(Foo) final class C<T: Equatable>: NSObject, P where T: Hashable {\n  @available(iOS 13, *) var x: [String: Int]? = nil\n  func g(_ a: inout Int, b c: (Int) -> Void) async throws -> Result<Int, Error> { fatalError() }\n}\n",
            "let t = x is Int ? 1 : 2\nlet u = y as! [String] + z\nif case .some(let v) = w, let q = r as? Int, q > 3 { }\n",
            "let deep = " + (0..<300).map { "v\($0)" }.joined(separator: " + ") + "\n",
            "switch x { case let y where y > 1 + 2: break\n case .a, .b: break\n default: break }\n",
            "let f = { (a: Int) -> Int in a * 2 }\nlet g: (Int) -> (Int) -> Int = { a in { b in a + b } }\n",
            "x = #selector(foo(_:)) == y\nlet k = \\Foo.bar.baz\nlet m = a.b?.c!.d ?? e\n",
        ]
        for source in sources { expectSame(source) }
    }

    @Test func exampleAndCorpusFiles() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var files: [URL] = []
        for folder in ["Examples", "Sources/MoatSyntax", "Sources/MoatRules/Platform", "Tests/MoatSyntaxTests"] {
            guard let enumerator = FileManager.default.enumerator(at: root.appendingPathComponent(folder),
                                                                  includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in enumerator where url.pathExtension == "swift" { files.append(url) }
        }
        #expect(files.count > 20)
        for url in files {
            let source = try String(contentsOf: url, encoding: .utf8)
            guard SwiftFrontEnd.refusalReason(source: source) == nil else { continue }
            expectSame(source)
        }
    }
}
