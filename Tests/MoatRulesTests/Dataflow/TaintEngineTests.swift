import Testing
import MoatCore
import MoatScan
import MoatSyntax
@testable import MoatRules

/// Unit tests of the dataflow engine: sources, propagation, checks, summaries and the reported path.
enum DataflowTestSupport {
    static func parse(_ source: String, name: String = "Test.swift") -> CodeFile {
        if name.hasSuffix(".swift") { return SwiftFrontEnd.parse(source: source, path: name) }
        let language = SourceLanguage.of(fileName: name) ?? .objectiveC
        return CFamilyFrontEnd.parse(source: source, path: name, language: language)
    }

    static func flows(_ source: String, name: String = "Test.swift", kind: SinkKind? = nil) -> [TaintFlow] {
        let flows = TaintEngine(file: parse(source, name: name)).run().flows
        return kind.map { kind in flows.filter { $0.kind == kind } } ?? flows
    }

    static func findings(_ rule: any SourceRule.Type, _ source: String, name: String = "Test.swift") -> [Finding] {
        let file = parse(source, name: name)
        var sink = FindingSink(rule: rule.description)
        rule.init().check(SourceUnit(code: file), &sink)
        return sink.findings
    }
}

private typealias Support = DataflowTestSupport

struct TaintSourceTests {
    @Test func urlSchemeParameterIsASource() throws {
        let flows = Support.flows("""
        func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any]) -> Bool {
            webView.evaluateJavaScript(url.absoluteString)
            return true
        }
        """, kind: .javaScript)
        let flow = try #require(flows.first)
        #expect(flows.count == 1)
        #expect(flow.range.start.line == 2 && flow.range.start.column == 5)
        let taint = try #require(flow.taints(.script).first)
        #expect(taint.source?.kind == .urlScheme)
        #expect(taint.source?.description == "the URL opened through application(_:open:options:)")
    }

    @Test func latentParameterActivatesOnlyThroughItsMember() {
        let source = """
        func application(_ application: UIApplication, continue userActivity: NSUserActivity,
                         restorationHandler: @escaping ([UIUserActivityRestoring]?) -> Void) -> Bool {
            webView.evaluateJavaScript(userActivity.activityType)
            webView.evaluateJavaScript(userActivity.webpageURL!.query!)
            return true
        }
        """
        let flows = Support.flows(source, kind: .javaScript)
        #expect(flows.map(\.range.start.line) == [4])
        #expect(flows.first?.taints(.script).first?.source?.kind == .universalLink)
    }

    @Test func scriptMessageBodyAndPasteboardAndPeerData() {
        let source = """
        final class Handler: NSObject, WKScriptMessageHandler, MCSessionDelegate {
            func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
                webView.evaluateJavaScript(message.name)
                webView.evaluateJavaScript(message.body as! String)
            }
            func paste() {
                webView.evaluateJavaScript(UIPasteboard.general.string ?? "")
            }
            func session(_ session: MCSession, didReceive data: Data, fromPeer peerID: MCPeerID) {
                webView.evaluateJavaScript(String(decoding: data, as: UTF8.self))
            }
        }
        """
        let flows = Support.flows(source, kind: .javaScript)
        #expect(flows.map(\.range.start.line) == [4, 7, 10])
        #expect(flows.compactMap { $0.taints(.script).first?.source?.kind } == [.scriptMessage, .pasteboard, .peerToPeer])
    }

    @Test func networkClosuresAndRecordFields() {
        let source = """
        import CloudKit
        func load(_ connection: NWConnection, record: CKRecord) {
            connection.receive(minimumIncompleteLength: 1, maximumLength: 64) { content, _, _, _ in
                guard let content else { return }
                sqlite3_exec(db, String(decoding: content, as: UTF8.self), nil, nil, nil)
            }
            URLSession.shared.dataTask(with: url) { data, response, error in
                sqlite3_exec(db, String(decoding: data!, as: UTF8.self), nil, nil, nil)
            }.resume()
            sqlite3_exec(db, record["query"] as! String, nil, nil, nil)
            sqlite3_exec(db, record.object(forKey: "query") as! String, nil, nil, nil)
        }
        """
        let flows = Support.flows(source, kind: .sqlStatement)
        #expect(flows.map(\.range.start.line) == [5, 8, 10, 11])
        #expect(flows.compactMap { $0.taints(.sql).first?.source?.description } == [
            "data received on an NWConnection or a WebSocket", "the response data of a URLSession task",
            "the CKRecord field \"query\"", "the CKRecord field \"query\"",
        ])
    }

    @Test func objectiveCRecordAndCLibrarySources() {
        let objc = Support.flows("""
        - (void)unpack:(CKRecord *)record {
            NSString *query = [record objectForKey:@"query"];
            sqlite3_exec(db, query.UTF8String, NULL, NULL, NULL);
        }
        """, name: "Record.m", kind: .sqlStatement)
        #expect(objc.map(\.range.start.line) == [3])
        #expect(objc.first?.taints(.sql).first?.source?.kind == .cloudRecord)

        let c = Support.flows("""
        void serve(int fd) {
            char buffer[256];
            recv(fd, buffer, sizeof(buffer), 0);
            sqlite3_exec(db, buffer, NULL, NULL, NULL);
            sqlite3_exec(db, getenv("QUERY"), NULL, NULL, NULL);
        }
        """, name: "server.c", kind: .sqlStatement)
        #expect(c.map(\.range.start.line) == [4, 5])
        #expect(c.compactMap { $0.taints(.sql).first?.source?.kind } == [.cLibrary, .cLibrary])
    }

    @Test func javaScriptExportAndContextBlocks() {
        let source = """
        @objc protocol NotesExports: JSExport {
            func save(_ title: String)
        }
        final class Notes: NSObject, NotesExports {
            func save(_ title: String) {
                sqlite3_exec(db, "INSERT INTO notes VALUES ('\\(title)')", nil, nil, nil)
            }
            func install(in context: JSContext) {
                let block: @convention(block) (String) -> Void = { name in
                    sqlite3_exec(db, name, nil, nil, nil)
                }
                context.setObject(block, forKeyedSubscript: "run" as NSString)
            }
        }
        """
        let flows = Support.flows(source, kind: .sqlStatement)
        #expect(flows.map(\.range.start.line) == [6, 10])
        #expect(flows.compactMap { $0.taints(.sql).first?.source?.kind } == [.javaScriptBridge, .javaScriptBridge])
    }

    @Test func objectiveCBridgesPasteboardNetworkShareAndUniversalLinks() {
        let flows = Support.flows("""
        @protocol LBNotesExports <JSExport>
        - (void)saveNote:(NSString *)title;
        @end
        @interface LBNotes : NSObject <LBNotesExports>
        @end
        @implementation LBNotes
        - (void)saveNote:(NSString *)title {
            sqlite3_exec(db, title.UTF8String, NULL, NULL, NULL);
        }
        - (void)installIn:(JSContext *)context {
            context[@"run"] = ^(NSString *query) {
                sqlite3_exec(db, query.UTF8String, NULL, NULL, NULL);
            };
        }
        - (void)paste {
            NSString *text = [[UIPasteboard generalPasteboard] string];
            sqlite3_exec(db, text.UTF8String, NULL, NULL, NULL);
        }
        - (void)fetch:(NSURL *)url {
            [[[NSURLSession sharedSession] dataTaskWithURL:url completionHandler:^(NSData *data, NSURLResponse *response, NSError *error) {
                NSString *body = [[NSString alloc] initWithData:data encoding:NSUTF8StringEncoding];
                sqlite3_exec(db, body.UTF8String, NULL, NULL, NULL);
            }] resume];
        }
        - (void)share {
            NSItemProvider *provider = [self.extensionContext.inputItems.firstObject attachments].firstObject;
            [provider loadItemForTypeIdentifier:@"public.plain-text" options:nil completionHandler:^(id item, NSError *error) {
                sqlite3_exec(db, [(NSString *)item UTF8String], NULL, NULL, NULL);
            }];
        }
        - (BOOL)application:(UIApplication *)application continueUserActivity:(NSUserActivity *)userActivity
                 restorationHandler:(void (^)(NSArray *))restorationHandler {
            sqlite3_exec(db, userActivity.activityType.UTF8String, NULL, NULL, NULL);
            sqlite3_exec(db, userActivity.webpageURL.query.UTF8String, NULL, NULL, NULL);
            return YES;
        }
        @end
        """, name: "Notes.m", kind: .sqlStatement)
        #expect(flows.map(\.range.start.line) == [8, 12, 17, 22, 28, 34])
        #expect(flows.compactMap { $0.taints(.sql).first?.source?.kind } == [
            .javaScriptBridge, .javaScriptBridge, .pasteboard, .network, .shareExtension, .universalLink,
        ])
    }

    @Test func remoteHandlerHeuristicIsMediumConfidence() throws {
        let flows = Support.flows("""
        func handleIncomingNote(_ note: String, from peerID: String) {
            sqlite3_exec(db, note, nil, nil, nil)
        }
        func format(_ note: String, from template: String) -> String {
            sqlite3_exec(db, note, nil, nil, nil)
            return note
        }
        """, kind: .sqlStatement)
        let flow = try #require(flows.first)
        #expect(flows.count == 1, "a `from` label without a sender name is not a remote handler")
        #expect(flow.taints(.sql).first?.source?.confidence == .medium)
        #expect(flow.taints(.sql).first?.source?.kind == .remoteHandler)
    }

    @Test func pickedDocumentsAreSystemFileURLs() throws {
        let flows = Support.flows("""
        func documentPicker(_ controller: UIDocumentPickerViewController, didPickDocumentsAt urls: [URL]) {
            for url in urls {
                try? FileManager.default.copyItem(at: url, to: inbox.appendingPathComponent(url.lastPathComponent))
            }
        }
        """, kind: .filePath)
        let taint = try #require(flows.first?.taints(.path).first)
        #expect(taint.source?.isSystemFileURL == true)
        #expect(Support.findings(PathTraversalRule.self, """
        func documentPicker(_ controller: UIDocumentPickerViewController, didPickDocumentsAt urls: [URL]) {
            for url in urls {
                try? FileManager.default.copyItem(at: url, to: inbox.appendingPathComponent(url.lastPathComponent))
            }
        }
        """).isEmpty)
    }
}

struct TaintPropagationTests {
    @Test func assignmentsBindingsInterpolationConcatenationAndCasts() throws {
        let flows = Support.flows("""
        func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any]) -> Bool {
            guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
                  let items = components.queryItems else { return false }
            let first = items[0]
            if let value = first.value as? String {
                var script = "show('"
                script += value
                let wrapped = "\\(script)')"
                webView.evaluateJavaScript(wrapped + ";")
            }
            return true
        }
        """, kind: .javaScript)
        let flow = try #require(flows.first)
        #expect(flow.range.start.line == 9)
        let steps = try #require(flow.taints(.script).first?.steps)
        #expect(steps.map(\.message).contains("bound to `components`"))
        #expect(steps.map(\.message).contains("flows into `script`"))
        #expect(steps.map(\.message).contains("interpolated into a string"))
    }

    @Test func tuplesLoopsSwitchesAndHigherOrderClosures() {
        let flows = Support.flows("""
        func load(_ url: URL) async throws {
            let (data, _) = try await URLSession.shared.data(from: url)
            let lines = String(decoding: data, as: UTF8.self).split(separator: "\\n")
            for line in lines {
                sqlite3_exec(db, String(line), nil, nil, nil)
            }
            lines.forEach { sqlite3_exec(db, String($0), nil, nil, nil) }
            switch lines.first {
            case .some(let first): sqlite3_exec(db, String(first), nil, nil, nil)
            case .none: break
            }
        }
        """, kind: .sqlStatement)
        #expect(flows.map(\.range.start.line) == [5, 7, 9])
    }

    @Test func numbersAndSizesDoNotCarryStrings() {
        let flows = Support.flows("""
        func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any]) -> Bool {
            let page = Int(url.query ?? "") ?? 0
            webView.evaluateJavaScript("show(\\(page))")
            webView.evaluateJavaScript("show(\\(url.absoluteString.count))")
            return true
        }
        """, kind: .javaScript)
        #expect(flows.allSatisfy { $0.taints(.script).allSatisfy(\.isInertString) })
        #expect(Support.findings(JavaScriptInjectionDataflowRule.self, """
        func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any]) -> Bool {
            let page = Int(url.query ?? "") ?? 0
            webView.evaluateJavaScript("show(\\(page))")
            return true
        }
        """).isEmpty)
    }

    @Test func untaintedValuesAndOverwrittenVariablesAreQuiet() {
        let flows = Support.flows("""
        func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any]) -> Bool {
            var script = url.absoluteString
            script = "constant()"
            webView.evaluateJavaScript(script)
            let lookup = handlers[url.host ?? ""]
            webView.evaluateJavaScript(lookup ?? "")
            return true
        }
        """, kind: .javaScript)
        #expect(flows.isEmpty, "a strong update clears the taint; a lookup keyed by input returns app data")
    }
}

struct TaintCheckTests {
    @Test func fileNameIdiomChecksAreTracked() throws {
        let flows = Support.flows("""
        func handleIncomingFile(_ incomingResourceURL: URL, with name: String, from fromID: String) {
            guard
                 case let safeFileName = name.lastPathComponent,
                 safeFileName.count > 0,
                 safeFileName != "..", safeFileName != "." else { return }
            let destination = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(safeFileName)
            try! FileManager.default.copyItem(at: incomingResourceURL, to: destination)
        }
        """, kind: .filePath)
        let taint = try #require(flows.first?.taints(.path).first)
        #expect(taint.checks.isSuperset(of: [.lastPathComponent, .rejectsEmpty, .rejectsDot, .rejectsDotDot]))
    }

    @Test func aCheckOnOnlyOnePathLeavesTheOtherPathUnchecked() throws {
        let findings = Support.findings(PathTraversalRule.self, """
        func handleIncomingFile(_ url: URL, with name: String, from fromID: String) {
            var destination = folder.appendingPathComponent("default")
            if strict {
                let last = name.lastPathComponent
                guard last != "..", last != ".", !last.isEmpty else { return }
                destination = folder.appendingPathComponent(last)
            } else {
                destination = folder.appendingPathComponent(name)
            }
            try? FileManager.default.moveItem(at: url, to: destination)
        }
        """)
        let finding = try #require(findings.first)
        #expect(findings.count == 1)
        #expect(finding.location.line == 10)
        #expect(finding.message.contains("nothing reduces it to one path component"))
    }

    @Test func sinkInsideTheIfThatChecksIsQuiet() {
        #expect(Support.findings(PathTraversalRule.self, """
        func handleIncomingFile(_ url: URL, with name: String, from fromID: String) {
            let destination = folder.appendingPathComponent(name).standardizedFileURL
            if destination.path.hasPrefix(folder.path + "/") {
                try? FileManager.default.moveItem(at: url, to: destination)
            }
        }
        """).isEmpty)
    }

    @Test func objectiveCLengthTypeAndOverflowChecks() throws {
        let flows = Support.flows("""
        @implementation TeaClub
        - (BOOL)unpackTeaClubRecord:(CKRecord *)record {
            NSData *data = [record objectForKey:@"uuid"];
            if (data == nil ||
                ![data isKindOfClass:[NSData class]] ||
                data.length != sizeof(_uuid)) {
                return NO;
            }
            memcpy(&_uuid, data.bytes, data.length);
            NSData *name = [record objectForKey:@"name"];
            int32_t count = [[record objectForKey:@"nameCount"] unsignedIntegerValue];
            int32_t byteCount = 0;
            if (os_mul_overflow(count, sizeof(unichar), &byteCount) || name.length != byteCount) {
                return NO;
            }
            _name = [[NSString alloc] initWithCharacters:name.bytes length:count];
            return YES;
        }
        @end
        """, name: "TeaClub.m")
        let copy = try #require(flows.first { $0.kind == .memoryCopy })
        #expect(copy.fixedDestination)
        let length = try #require(copy.taints(.length).first)
        #expect(length.checks.isSuperset(of: [.typeChecked, .upperBounded, .lowerBounded, .measuredSize]))
        let string = try #require(flows.first { $0.kind == .stringFromBuffer })
        #expect(string.taints(.count).first?.checks.contains(.overflowChecked) == true)
        #expect(string.taints(.count).first?.checks.contains(.numeric) == true)
        #expect(string.taints(.buffer).first?.checks.contains(.upperBounded) == true)
    }

    @Test func allowlistsInSwiftAndObjectiveC() {
        let swift = Support.flows("""
        func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any]) -> Bool {
            guard let action = url.host, allowedActions.contains(action) else { return false }
            webView.evaluateJavaScript(action)
            return true
        }
        """, kind: .javaScript)
        #expect(swift.first?.taints(.script).first?.checks.contains(.allowlisted) == true)
        let objc = Support.flows("""
        - (BOOL)application:(UIApplication *)app openURL:(NSURL *)url options:(NSDictionary *)options {
            NSString *action = url.host;
            if (![self.allowedActions containsObject:action]) {
                return NO;
            }
            [self.webView evaluateJavaScript:action completionHandler:nil];
            return YES;
        }
        """, name: "App.m", kind: .javaScript)
        #expect(objc.first?.taints(.script).first?.checks.contains(.allowlisted) == true)
    }

    @Test func productsRememberWhetherTheCountWasChecked() throws {
        let flows = Support.flows("""
        void *items(int fd) {
            uint32_t count = 0;
            recv(fd, &count, sizeof(count), 0);
            void *unchecked = malloc(count * 16);
            uint32_t bytes = 0;
            if (os_mul_overflow(count, 16, &bytes)) return NULL;
            void *checked = malloc(count * 16);
            return checked;
        }
        """, name: "items.c", kind: .allocation)
        let products = flows.flatMap { $0.taints(.size) }.compactMap(\.product)
        #expect(products.map(\.range.start.line) == [4, 7])
        #expect(products.map(\.checked) == [false, true])
    }
}

struct TaintSummaryTests {
    @Test func parameterToReturnSummaryCarriesTheChecks() {
        #expect(Support.findings(PathTraversalRule.self, """
        func safeName(_ name: String) -> String? {
            let last = (name as NSString).lastPathComponent
            guard !last.isEmpty, last != ".", last != ".." else { return nil }
            return last
        }
        func handleIncomingFile(_ url: URL, with name: String, from fromID: String) {
            guard let name = safeName(name) else { return }
            try? FileManager.default.moveItem(at: url, to: folder.appendingPathComponent(name))
        }
        """).isEmpty)
        let unsafe = Support.findings(PathTraversalRule.self, """
        func lastName(_ name: String) -> String {
            return (name as NSString).lastPathComponent
        }
        func handleIncomingFile(_ url: URL, with name: String, from fromID: String) {
            try? FileManager.default.moveItem(at: url, to: folder.appendingPathComponent(lastName(name)))
        }
        """)
        #expect(unsafe.map(\.location.line) == [5])
        #expect(unsafe.first?.message.contains("takes lastPathComponent but does not reject \"..\"") == true)
    }

    @Test func parameterToSinkSummaryReportsInTheCalleeWithTheCallInThePath() throws {
        let findings = Support.findings(PathTraversalRule.self, """
        import MultipeerConnectivity
        final class Receiver: NSObject, MCSessionDelegate {
            func session(_ session: MCSession, didStartReceivingResourceWithName resourceName: String,
                         fromPeer peerID: MCPeerID, with progress: Progress) {
                prepare(resourceName)
            }
            func prepare(_ name: String) {
                write(Data(), named: name)
            }
            func write(_ data: Data, named name: String) {
                try? data.write(to: folder.appendingPathComponent(name))
            }
        }
        """)
        let finding = try #require(findings.first)
        #expect(findings.count == 1)
        #expect(finding.location.line == 11 && finding.location.column == 14)
        #expect(finding.confidence == .high)
        #expect(finding.message.hasPrefix("The resource name a nearby peer chose (MCSession didReceiveResource) reaches write(to:)"))
        #expect(finding.related.map(\.location.line) == [3, 5, 8, 11])
        #expect(finding.related.map(\.message) == [
            "untrusted input: the resource name a nearby peer chose (MCSession didReceiveResource)",
            "passed to prepare(_:) as `name`",
            "passed to write(_:named:) as `name`",
            "put into a file path by appendingPathComponent",
        ])
    }

    @Test func thePathSurvivesTheScanPipeline() throws {
        let result = try RuleExampleHarness.scan(files: [("Sources/Receiver.swift", """
        import MultipeerConnectivity
        final class Receiver: NSObject, MCSessionDelegate {
            func session(_ session: MCSession, didStartReceivingResourceWithName resourceName: String,
                         fromPeer peerID: MCPeerID, with progress: Progress) {
                let name = resourceName
                try? Data().write(to: FileManager.default.temporaryDirectory.appendingPathComponent(name))
            }
        }
        """)])
        let finding = try #require(result.findings.first { $0.ruleId == "MOAT-CODE-301" })
        #expect(finding.location.path == "Sources/Receiver.swift" && finding.location.line == 6)
        #expect(finding.related.map(\.location.path) == ["Sources/Receiver.swift", "Sources/Receiver.swift", "Sources/Receiver.swift"])
        #expect(finding.related.map(\.location.line) == [3, 5, 6])
        #expect(finding.related.map(\.message) == [
            "untrusted input: the resource name a nearby peer chose (MCSession didReceiveResource)",
            "flows into `name`",
            "put into a file path by appendingPathComponent",
        ])
    }

    @Test func objectiveCMessageSummaries() throws {
        let findings = Support.findings(SQLInjectionRule.self, """
        @implementation Notes
        - (void)runQuery:(NSString *)query {
            sqlite3_exec(self.db, query.UTF8String, NULL, NULL, NULL);
        }
        - (void)session:(MCSession *)session didReceiveData:(NSData *)data fromPeer:(MCPeerID *)peerID {
            NSString *text = [[NSString alloc] initWithData:data encoding:NSUTF8StringEncoding];
            [self runQuery:text];
        }
        @end
        """, name: "Notes.m")
        let finding = try #require(findings.first)
        #expect(finding.location.line == 3 && finding.location.column == 5)
        #expect(finding.related.map(\.message).contains("passed to runQuery: as `query`"))
    }

    @Test func recursionTerminates() {
        let flows = Support.flows("""
        func a(_ x: String, from peerID: String) -> String { return b(x, from: peerID) }
        func b(_ y: String, from peerID: String) -> String {
            sqlite3_exec(db, y, nil, nil, nil)
            return a(y, from: peerID)
        }
        func handleNote(_ note: String, from peerID: String) { _ = a(note, from: peerID) }
        """, kind: .sqlStatement)
        #expect(flows.contains { $0.range.start.line == 3 })
    }
}

struct TaintRobustnessTests {
    @Test func deepNestingAndLongChainsDoNotExhaustTheStack() {
        // (The Swift parser itself overflows the stack past ~2000 terms; 1000 stays within it.)
        let chain = (0..<1000).map { "v\($0)" }.joined(separator: " + ")
        let nested = String(repeating: "if c {\n", count: 150) + "sqlite3_exec(db, url.absoluteString, nil, nil, nil)\n" + String(repeating: "}\n", count: 150)
        let loops = String(repeating: "for x in xs {\n", count: 40) + "sqlite3_exec(db, url.absoluteString, nil, nil, nil)\n" + String(repeating: "}\n", count: 40)
        let source = """
        func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any]) -> Bool {
            let s = url.absoluteString + \(chain)
            webView.evaluateJavaScript(s)
            \(nested)
            \(loops)
            return true
        }
        """
        let flows = Support.flows(source)
        #expect(flows.contains { $0.kind == .sqlStatement }, "the sinks inside the nesting limits are still found")
        let objc = "- (void)f:(NSString *)s fromPeer:(MCPeerID *)p {\n" + String(repeating: "if (x) {\n", count: 300) + "sqlite3_exec(db, s, NULL, NULL, NULL);\n" + String(repeating: "}\n", count: 300) + "}\n"
        _ = Support.flows(objc, name: "Deep.m")
    }
}
