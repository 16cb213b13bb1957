import Foundation
import Testing
import MoatTestSupport
import MoatCore
@testable import MoatScan

/// XMLParser parse and delegate in different files (issue 14 item 1): a file that parses a document from
/// outside with an instance of a delegate type makes the callbacks of that type sources where the type is
/// implemented; a type only ever given bundled documents stays quiet.
struct XMLDelegateAcrossFilesTests {
    static let loader = """
    final class FeedLoader {
        func refresh(from url: URL) {
            URLSession.shared.dataTask(with: url) { data, _, _ in
                guard let data else { return }
                let parser = XMLParser(data: data)
                parser.delegate = FeedParserDelegate()
                parser.parse()
            }.resume()
        }
    }
    """
    static let bundledLoader = """
    final class FeedLoader {
        func loadStarter() throws {
            let url = Bundle.main.url(forResource: "starter", withExtension: "xml")!
            let parser = XMLParser(data: try Data(contentsOf: url))
            parser.delegate = FeedParserDelegate()
            parser.parse()
        }
    }
    """
    static let delegate = """
    final class FeedParserDelegate: NSObject, XMLParserDelegate {
        let folder = FileManager.default.temporaryDirectory
        var webView: WKWebView?
        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
            guard let name = attributeDict["enclosure"] else { return }
            try? Data().write(to: folder.appendingPathComponent(name))
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) {
            webView?.loadHTMLString(string, baseURL: nil)
        }
    }
    """

    static func found(_ result: ScanResult) -> [String] {
        result.findings.filter { ["MOAT-CODE-301", "MOAT-PLAT-302"].contains($0.ruleId) }
            .map { "\($0.ruleId) \($0.location.path):\($0.location.line):\($0.location.column)" }.sorted()
    }

    @Test func theCallbacksOfADelegateTypeGivenARemoteDocumentInAnotherFileAreSources() throws {
        let tree = try TemporaryTree(["App/FeedLoader.swift": Self.loader, "App/FeedParserDelegate.swift": Self.delegate])
        defer { tree.remove() }
        let result = try tree.scan()
        #expect(Self.found(result) == ["MOAT-CODE-301 App/FeedParserDelegate.swift:7:14", "MOAT-PLAT-302 App/FeedParserDelegate.swift:10:9"])
        let finding = try #require(result.findings.first { $0.ruleId == "MOAT-CODE-301" })
        #expect(finding.message.hasPrefix("The content of an XML document parsed from the response data of a URLSession task (FeedLoader.swift:7)"),
                "\(finding.message)")
        let related = finding.related.map { "\($0.location.path):\($0.location.line) \($0.message)" }
        #expect(related.first?.hasPrefix("App/FeedLoader.swift:3 ") == true, "\(related)")
        #expect(related.contains { $0.hasPrefix("App/FeedLoader.swift:7 parsed with a `FeedParserDelegate` as the delegate") }, "\(related)")
        // The same with one job, and warm from the cache.
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("moat-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let cold = try tree.scan { $0.cacheDirectory = cache }
        let warm = try tree.scan { $0.cacheDirectory = cache }
        let one = try tree.scan { $0.jobs = 1 }
        #expect(CacheAndParallelTests.signature(cold) == CacheAndParallelTests.signature(result))
        #expect(CacheAndParallelTests.signature(warm) == CacheAndParallelTests.signature(result))
        #expect(CacheAndParallelTests.signature(one) == CacheAndParallelTests.signature(result))
    }

    @Test func aDelegateTypeGivenOnlyBundledDocumentsStaysQuiet() throws {
        let tree = try TemporaryTree(["App/FeedLoader.swift": Self.bundledLoader, "App/FeedParserDelegate.swift": Self.delegate])
        defer { tree.remove() }
        #expect(Self.found(try tree.scan()).isEmpty)
    }

    @Test func aParseInTestCodeDoesNotMakeTheShippingDelegateASource() throws {
        let tree = try TemporaryTree(["AppTests/FeedLoaderTests.swift": Self.loader, "App/FeedParserDelegate.swift": Self.delegate])
        defer { tree.remove() }
        #expect(Self.found(try tree.scan()).isEmpty)
    }

    @Test func theDelegateDeclaredAsALocalOrAPropertyIsFollowed() throws {
        let tree = try TemporaryTree([
            "App/FeedLoader.swift": """
            final class FeedLoader {
                let handler = FeedParserDelegate()
                func refresh(from url: URL) async throws {
                    let (data, _) = try await URLSession.shared.data(from: url)
                    let parser = XMLParser(data: data)
                    parser.delegate = handler
                    parser.parse()
                }
            }
            """,
            "App/FeedParserDelegate.swift": Self.delegate,
        ])
        defer { tree.remove() }
        #expect(Self.found(try tree.scan()) == ["MOAT-CODE-301 App/FeedParserDelegate.swift:7:14", "MOAT-PLAT-302 App/FeedParserDelegate.swift:10:9"])
    }

    @Test func objectiveCDelegateClassInAnotherFile() throws {
        let tree = try TemporaryTree([
            "App/LBFeedLoader.m": """
            @implementation LBFeedLoader
            - (void)connection:(NSURLConnection *)connection didReceiveData:(NSData *)data {
                NSXMLParser *parser = [[NSXMLParser alloc] initWithData:data];
                LBFeedDelegate *handler = [[LBFeedDelegate alloc] init];
                [parser setDelegate:handler];
                [parser parse];
            }
            @end
            """,
            "App/LBFeedDelegate.m": """
            @implementation LBFeedDelegate
            - (void)parser:(NSXMLParser *)parser foundCharacters:(NSString *)string {
                [self.webView loadHTMLString:string baseURL:nil];
            }
            @end
            """,
            "App/LBOtherDelegate.m": """
            @implementation LBOtherDelegate
            - (void)parser:(NSXMLParser *)parser foundCharacters:(NSString *)string {
                [self.webView loadHTMLString:string baseURL:nil];
            }
            @end
            """,
        ])
        defer { tree.remove() }
        #expect(Self.found(try tree.scan()) == ["MOAT-PLAT-302 App/LBFeedDelegate.m:3:5"])
    }

    @Test func objectiveCParseWithSelfAsTheDelegate() throws {
        let tree = try TemporaryTree([
            "App/LBFeed.m": """
            @implementation LBFeed
            - (void)connection:(NSURLConnection *)connection didReceiveData:(NSData *)data {
                NSXMLParser *parser = [[NSXMLParser alloc] initWithData:data];
                parser.delegate = self;
                [parser parse];
            }
            @end
            """,
            "App/LBFeed+Parsing.m": """
            @implementation LBFeed (Parsing)
            - (void)parser:(NSXMLParser *)parser foundCharacters:(NSString *)string {
                [self.webView loadHTMLString:string baseURL:nil];
            }
            @end
            """,
        ])
        defer { tree.remove() }
        #expect(Self.found(try tree.scan()) == ["MOAT-PLAT-302 App/LBFeed+Parsing.m:3:5"])
    }
}
