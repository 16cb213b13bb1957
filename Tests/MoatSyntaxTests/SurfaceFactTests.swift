import Testing
import MoatSyntax

/// The per-file facts the attack-surface inventory reads: exact values and positions, and what stays out.
struct SurfaceFactTests {
    static func facts(_ file: CodeFile) -> [String] {
        SourceSummary(file: file).surfaceFacts.map { "\($0.kind.rawValue) \($0.value) \($0.position.line):\($0.position.column)" }
    }

    @Test func swiftURLLiteralsDecodersPasteboardAndConformances() {
        let source = """
        let a = "https://user:pw@API.example.com:8443/v1"
        let b = "https://\\(tenant).example.com/x"
        let c = "https://cdn.example.com/\\(path)"
        let d = "http://www.w3.org/2000/svg"
        let e = "ftp://files.example.com"
        let f = "https://"
        // "https://comment.example.com"
        let g = decoder.decode(Config.self, from: data)
        let h = cache.decode(key, from: data)
        let i = PropertyListDecoder().decode([String].self, from: data)
        let j = try JSONSerialization.jsonObject(with: data)
        pasteboard.string = "x"
        let k = UIPasteboard.general.hasStrings
        UIPasteboard.general.setValue(v, forPasteboardType: "t")
        let l = UIPasteboard(name: n, create: true)?.items
        final class Doc: NSObject, NSSecureCoding {}
        let m = "https://bad_host.example.com/"
        """
        let file = SwiftFrontEnd.parse(source: source, path: "Facts.swift")
        #expect(Self.facts(file) == [
            "urlLiteral https://api.example.com:8443 1:9",
            "urlLiteral https://cdn.example.com 3:9",
            "deserialization Decoder.decode(_:from:) 8:9",
            "deserialization PropertyListDecoder.decode(_:from:) 10:9",
            "deserialization JSONSerialization.jsonObject(with:) 11:13",
            "pasteboardWrite UIPasteboard.string 12:1",
            "pasteboardWrite UIPasteboard.general.setValue(_:forPasteboardType:) 14:1",
            "pasteboardRead UIPasteboard.items 15:9",
            "namedPasteboard n 15:9",
            "conformance Doc: NSSecureCoding 16:13",
        ])
    }

    @Test func namedPasteboardsWithTheirNames() {
        let swift = SwiftFrontEnd.parse(source: """
        let a = UIPasteboard(name: UIPasteboard.Name("com.example.shared"), create: true)
        let b = UIPasteboard(name: .init(rawValue: "com.example.other"), create: false)
        let c = UIPasteboard(name: Constants.pasteboardName, create: true)
        let d = UIPasteboard.withUniqueName()
        let e = Pasteboard(name: "x", create: true)
        let f = UIPasteboard.init(name: sharedName, create: true)
        """, path: "Named.swift")
        #expect(Self.facts(swift) == [
            "namedPasteboard \"com.example.shared\" 1:9",
            "namedPasteboard \"com.example.other\" 2:9",
            "namedPasteboard Constants.pasteboardName 3:9",
            "namedPasteboard (unique name) 4:9",
            "namedPasteboard sharedName 6:9",
        ])
        let objectiveC = CFamilyFrontEnd.parse(source: """
        void f(void) {
            UIPasteboard *p = [UIPasteboard pasteboardWithName:@"com.example.shared" create:YES];
            UIPasteboard *q = [UIPasteboard pasteboardWithUniqueName];
        }
        """, path: "Named.m", language: .objectiveC)
        #expect(Self.facts(objectiveC) == [
            "namedPasteboard \"com.example.shared\" 2:23",
            "namedPasteboard (unique name) 3:23",
        ])
    }

    @Test func objectiveCLiteralsDecodersAndPasteboard() {
        let source = """
        void f(NSData *d, NSString *s) {
            NSString *u = @"https://objc.example.com/path";
            id o = [NSJSONSerialization JSONObjectWithData:d options:0 error:nil];
            [[UIPasteboard generalPasteboard] setString:s];
            NSString *p = [[UIPasteboard generalPasteboard] string];
            id x = [[NSKeyedUnarchiver alloc] initForReadingFromData:d error:nil];
            id y = [[Other alloc] initForReadingFromData:d error:nil];
        }
        @interface Payee : NSObject <NSCoding>
        @end
        """
        let file = CFamilyFrontEnd.parse(source: source, path: "Facts.m", language: .objectiveC)
        #expect(Self.facts(file) == [
            "urlLiteral https://objc.example.com 2:19",
            "deserialization NSJSONSerialization JSONObjectWithData:options:error: 3:12",
            "pasteboardWrite UIPasteboard.general setString: 4:5",
            "pasteboardRead UIPasteboard.general string 5:19",
            "deserialization NSKeyedUnarchiver initForReadingFromData:error: 6:12",
            "conformance Payee: NSCoding 9:12",
        ])
    }

    /// Reads by type, in both languages, with the spellings the vocabulary declares (the item-set read
    /// only in Swift, where it is declared).
    @Test func pasteboardReadsByType() {
        let swift = """
        let a = UIPasteboard.general.data(forPasteboardType: "public.png")
        let b = pasteboard.value(forPasteboardType: "public.text")
        let c = UIPasteboard.general.data(forPasteboardType: "public.png", inItemSet: nil)
        let d = store.data(forPasteboardType: "x")
        """
        #expect(Self.facts(SwiftFrontEnd.parse(source: swift, path: "Read.swift")) == [
            "pasteboardRead UIPasteboard.general.data(forPasteboardType:) 1:9",
            "pasteboardRead UIPasteboard.value(forPasteboardType:) 2:9",
            "pasteboardRead UIPasteboard.general.data(forPasteboardType:inItemSet:) 3:9",
        ])
        let objectiveC = """
        void f(void) {
            NSData *a = [[UIPasteboard generalPasteboard] dataForPasteboardType:@"public.png"];
            id b = [pasteboard valueForPasteboardType:@"public.text"];
            id c = [[UIPasteboard generalPasteboard] dataForPasteboardType:@"public.png" inItemSet:nil];
        }
        """
        #expect(Self.facts(CFamilyFrontEnd.parse(source: objectiveC, path: "Read.m", language: .objectiveC)) == [
            "pasteboardRead UIPasteboard.general dataForPasteboardType: 2:17",
            "pasteboardRead UIPasteboard valueForPasteboardType: 3:12",
        ])
    }

    @Test func factsAreBounded() {
        let source = (0..<(SurfaceFact.limit + 50)).map { "let u\($0) = \"https://h\($0).example.com\"" }.joined(separator: "\n")
        let file = SwiftFrontEnd.parse(source: source, path: "Many.swift")
        #expect(SourceSummary(file: file).surfaceFacts.count == SurfaceFact.limit)
    }
}
