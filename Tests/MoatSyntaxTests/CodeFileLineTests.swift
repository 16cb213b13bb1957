import Testing
import MoatSyntax

/// `CodeFile.line(_:)` reads a native source's bytes; it answers what the UTF-8 view and Foundation's
/// trimming of carriage returns answered (the expected lines below are those answers).
@Suite struct CodeFileLineTests {
    @Test func linesAreTheTrimmedTextWhateverTheLineEndings() {
        let source = "let a = 1\r\n\r\rlet b = \"é\u{301}\"\r\r\n\tlet c = 3 \r\n\nlast line without newline\u{1F512}"
        let file = CodeFile(path: "A.swift", language: .swift, source: source, declarations: [], statements: [], comments: [],
                            typeReferences: [], imports: [])
        #expect(file.line(1) == "let a = 1")
        #expect(file.line(2) == "let b = \"é\u{301}\"", "carriage returns at both ends go, as before")
        #expect(file.line(3) == "\tlet c = 3 ")
        #expect(file.line(4) == "")
        #expect(file.line(5) == "last line without newline\u{1F512}")
        #expect(file.line(0) == "" && file.line(6) == "")
    }
}
