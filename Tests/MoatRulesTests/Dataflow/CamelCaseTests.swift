import Testing
@testable import MoatRules

struct CamelCaseTests {
    @Test func splitsAsciiIdentifiersAtCaseChangesDigitsAndSeparators() {
        #expect(CamelCase.words("didReceiveData") == ["did", "Receive", "Data"])
        #expect(CamelCase.words("MCPeerID") == ["MC", "Peer", "ID"])
        #expect(CamelCase.words("URLSession") == ["URL", "Session"])
        #expect(CamelCase.words("from_id") == ["from", "id"])
        #expect(CamelCase.words("sha256Hash") == ["sha256", "Hash"])
        #expect(CamelCase.words("v2API") == ["v2", "API"])
        #expect(CamelCase.words("a\r\nB") == ["a", "B"])
        #expect(CamelCase.words("application:openURL:options:") == ["application", "open", "URL", "options"])
        #expect(CamelCase.words("") == [])
        #expect(CamelCase.words("__") == [])
    }

    @Test func splitsNonAsciiIdentifiersTheSameWay() {
        #expect(CamelCase.words("überPeerÉtat") == ["über", "Peer", "État"])
        #expect(CamelCase.words("dataΣData") == ["data", "Σ", "Data"])
        #expect(CamelCase.words("café_id") == ["café", "id"])
    }
}
