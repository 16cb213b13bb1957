import Testing
import MoatCore
import MoatSyntax
@testable import MoatRules

private typealias Support = DataflowTestSupport

/// XMLParser callbacks of a parser whose document is remote receive remote content (issue 14 item 1).
struct XMLParserCallbackTests {
    @Test func callbacksOfARemoteDocumentAreSources() throws {
        let source = """
        final class FeedParser: NSObject, XMLParserDelegate {
            var folder: URL
            func load() {
                URLSession.shared.dataTask(with: URL(string: "https://example.com/feed.xml")!) { data, _, _ in
                    guard let data else { return }
                    let parser = XMLParser(data: data)
                    parser.delegate = self
                    parser.parse()
                }.resume()
            }
            func parser(_ parser: XMLParser, foundCharacters string: String) {
                try? Data().write(to: folder.appendingPathComponent(string))
            }
            func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                        qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
                webView.evaluateJavaScript(attributeDict["onload"] ?? "")
            }
        }
        """
        let paths = Support.flows(source, kind: .filePath)
        #expect(paths.map(\.range.start.line) == [12])
        let taint = try #require(paths.first?.taints(.path).first)
        #expect(taint.source?.description == "the content of an XML document parsed from the response data of a URLSession task")
        #expect(taint.source?.kind.flow == .remote)
        #expect(Support.flows(source, kind: .javaScript).map(\.range.start.line) == [16])
    }

    @Test func aBundledOrUnseenDocumentMakesNoSource() {
        let flows = Support.flows("""
        final class FeedParser: NSObject, XMLParserDelegate {
            var folder: URL
            func loadBundled() throws {
                let data = try Data(contentsOf: Bundle.main.url(forResource: "feed", withExtension: "xml")!)
                let parser = XMLParser(data: data)
                parser.delegate = self
                parser.parse()
            }
            func parse(_ data: Data) {
                let parser = XMLParser(data: data)
                parser.delegate = self
                parser.parse()
            }
            func parser(_ parser: XMLParser, foundCharacters string: String) {
                try? Data().write(to: folder.appendingPathComponent(string))
            }
        }
        """, kind: .filePath)
        #expect(flows.isEmpty)
    }

    @Test func objectiveCCallbacks() {
        let flows = Support.flows("""
        @implementation FeedParser
        - (void)connection:(NSURLConnection *)connection didReceiveData:(NSData *)data {
            NSXMLParser *parser = [[NSXMLParser alloc] initWithData:data];
            parser.delegate = self;
            [parser parse];
        }
        - (void)parser:(NSXMLParser *)parser foundCharacters:(NSString *)string {
            [self.webView evaluateJavaScript:string completionHandler:nil];
        }
        @end
        """, name: "FeedParser.m", kind: .javaScript)
        #expect(flows.map(\.range.start.line) == [8])
    }
}
