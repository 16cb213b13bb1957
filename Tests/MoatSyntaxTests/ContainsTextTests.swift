import Testing
import MoatSyntax

struct ContainsTextTests {
    let file = SwiftFrontEnd.parse(source: "let aab = \"CKRecord\" // UIPasteboarX UIPasteboard\nx", path: "T.swift")

    @Test func findsNeedlesAnywhereInTheText() {
        #expect(file.containsText("let"))
        #expect(file.containsText("CKRecord"))
        #expect(file.containsText("UIPasteboard"))
        #expect(file.containsText("ab"))
        #expect(file.containsText("\nx"))
        #expect(file.containsText("x"))
        #expect(file.containsText(""))
    }

    @Test func rejectsNeedlesThatAreAbsentOrOnlyPartlyPresent() {
        #expect(!file.containsText("CKRecordID"))
        #expect(!file.containsText("UIPasteboardX"))
        #expect(!file.containsText("xy"))
        #expect(!file.containsText("aaa"))
        #expect(!file.containsText("Z"))
        #expect(!SwiftFrontEnd.parse(source: "", path: "E.swift").containsText("a"))
        #expect(!SwiftFrontEnd.parse(source: "ab", path: "S.swift").containsText("abc"))
        #expect(SwiftFrontEnd.parse(source: "ab", path: "S.swift").containsText("ab"))
    }
}
