import Testing
import MoatSyntax
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

struct AccessPathTests {
    @Test func rootNameIsTheFirstComponentOfTheAccessPath() {
        let swift = DataflowTestSupport.parse("""
        func f(components: URLComponents, session: Session) {
            let a = components.host
            let b = self.state.value
            let c = (url as NSURL).path
            let d = self
            let e = value!.count
            let g = items[0].name
            h(components.queryItems?.first?.value, session.peers.count)
        }
        """)
        let objc = DataflowTestSupport.parse("""
        - (void)f:(NSData *)data {
            NSUInteger n = [data length];
            id x = [[self session] peers];
            memcpy(&_uuid, data.bytes, data.length);
        }
        """, name: "F.m")
        var checked = 0
        for file in [swift, objc] {
            file.forEachExpression { expression, _ in
                let expected = expression.accessPath.map { String($0.split(separator: ".").first ?? Substring($0)) }
                #expect(expression.rootName == expected, "\(expression.accessPath ?? "nil")")
                if expected != nil { checked += 1 }
            }
        }
        #expect(checked > 15)

    }

    @Test func hasTextFindsBytes() {
        #expect("CKRecord *".hasText("CKRecord *") && "[CKRecord]".hasText("CKRecord") && !"CKRecordID".hasText("CKRecord *"))
        #expect("abc".hasText("") && !"".hasText("a") && "aab".hasText("ab") && !"ab".hasText("abc"))
        #expect("réseau/é".hasText("/é") && "handleIncoming".lowercased().hasText("incoming"))
    }
}
