import Testing
import MoatCore
import MoatSyntax
@testable import MoatRules

private typealias Support = DataflowTestSupport

/// Remote content (issue 14): what is read from a URL that is not provably local, and what the network
/// delivers, flows like untrusted input — except into URL loads and opens.
struct RemoteContentTests {
    @Test func contentReadFromAnUnknownURLIsRemoteAndFromALocalURLIsNot() throws {
        let flows = Support.flows("""
        func save(_ receipt: Data, from endpoint: URL, folder: URL) throws {
            let remoteName = try String(contentsOf: endpoint, encoding: .utf8)
            try receipt.write(to: folder.appendingPathComponent(remoteName))
            let bundled = try String(contentsOf: Bundle.main.url(forResource: "name", withExtension: "txt")!, encoding: .utf8)
            try receipt.write(to: folder.appendingPathComponent(bundled))
            let local = try String(contentsOf: URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("name"))
            try receipt.write(to: folder.appendingPathComponent(local))
            let documents = try Data(contentsOf: FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0].appendingPathComponent("n"))
            try receipt.write(to: folder.appendingPathComponent(String(decoding: documents, as: UTF8.self)))
        }
        """, kind: .filePath)
        #expect(flows.map(\.range.start.line) == [3])
        let taint = try #require(flows.first?.taints(.path).first)
        #expect(taint.source?.kind == .remoteContent)
        #expect(taint.source?.kind.flow == .remote)
        #expect(taint.source?.description == "content downloaded from a URL with String(contentsOf:encoding:)")
    }

    @Test func aLocalFileURLKeepsThePathItWasBuiltFrom() {
        // `URL(fileURLWithPath:)` adds the local kind; the untrusted name it was built from still reaches the sink.
        let flows = Support.flows("""
        func handleIncomingFile(_ data: Data, with name: String, from fromID: String) {
            try? data.write(to: URL(fileURLWithPath: NSTemporaryDirectory() + name))
        }
        """, kind: .filePath)
        #expect(flows.count == 1)
        #expect(flows.first?.taints(.path).contains { $0.source?.kind == .remoteHandler } == true)
    }

    @Test func remoteContentIsNotReportedAsAURLToLoadOrOpen() {
        let source = """
        func follow(_ webView: WKWebView) throws {
            let link = try String(contentsOf: URL(string: "https://api.example.com/link")!, encoding: .utf8)
            webView.load(URLRequest(url: URL(string: link)!))
            UIApplication.shared.open(URL(string: link)!)
            webView.loadHTMLString(link, baseURL: nil)
        }
        """
        #expect(Support.flows(source, kind: .openURL).isEmpty)
        #expect(Support.flows(source, kind: .webViewLoad).map(\.range.start.line) == [5])
    }

    @Test func objectiveCReadersStreamsAndConnections() {
        let objc = Support.flows("""
        - (void)connection:(NSURLConnection *)connection didReceiveData:(NSData *)data {
            NSString *script = [[NSString alloc] initWithData:data encoding:NSUTF8StringEncoding];
            [self.webView evaluateJavaScript:script completionHandler:nil];
        }
        - (void)load {
            NSData *data = [NSData dataWithContentsOfURL:[NSURL URLWithString:@"https://example.com/p"]];
            NSString *predicate = [[NSString alloc] initWithData:data encoding:NSUTF8StringEncoding];
            [NSPredicate predicateWithFormat:predicate];
            NSData *local = [NSData dataWithContentsOfURL:[NSURL fileURLWithPath:@"/tmp/p"]];
            [NSPredicate predicateWithFormat:[[NSString alloc] initWithData:local encoding:NSUTF8StringEncoding]];
        }
        """, name: "Test.m")
        #expect(objc.map(\.range.start.line) == [3, 8])
        let stream = Support.flows("""
        func readQuery(_ db: OpaquePointer?) {
            guard let stream = InputStream(url: URL(string: "https://example.com/q")!) else { return }
            var buffer = [UInt8](repeating: 0, count: 512)
            let count = stream.read(&buffer, maxLength: buffer.count)
            sqlite3_exec(db, String(decoding: buffer.prefix(count), as: UTF8.self), nil, nil, nil)
        }
        """, kind: .sqlStatement)
        #expect(stream.map(\.range.start.line) == [5])
    }

    @Test func suggestedFilenameAndAsyncDownloadsAreRemote() {
        let flows = Support.flows("""
        func fetch(_ session: URLSession, into folder: URL) async throws {
            let (location, response) = try await session.download(from: URL(string: "https://example.com/r")!)
            try FileManager.default.moveItem(at: location, to: folder.appendingPathComponent(response.suggestedFilename ?? "r"))
            let (data, _) = try await session.data(from: URL(string: "https://example.com/n")!)
            let json = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            let name = json?["name"] as? String ?? "n"
            try Data().write(to: folder.appendingPathComponent(name))
        }
        """, kind: .filePath)
        #expect(flows.map(\.range.start.line) == [3, 7])
        #expect(flows.allSatisfy { $0.taints(.path).allSatisfy { $0.source?.kind.flow == .remote } })
    }
}
