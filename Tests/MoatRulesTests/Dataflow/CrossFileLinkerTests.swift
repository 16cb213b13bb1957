import Foundation
import Testing
import MoatCore
import MoatSyntax
@testable import MoatRules

/// The facts each file's analysis leaves, and how the linker turns them into contexts.
struct CrossFileLinkerTests {
    static func facts(_ files: [(String, String)]) -> [DataflowFacts?] {
        files.map { name, source in
            let file = DataflowTestSupport.parse(source, name: name)
            let unit = SourceUnit(code: file)
            _ = unit.flows
            return unit.factsIfAnalyzed
        }
    }

    @Test func factsListSignaturesReturnSummariesAndCallsCarryingUntrustedData() throws {
        let facts = try #require(Self.facts([("Handler.swift", """
        class Handler {
            let store = ReceiptStore()
            func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
                store.save(named: url.query ?? "", count: 1)
                show("opened")
                return true
            }
            func identity(_ value: String) -> String { value }
            func clean(_ value: String) -> String? {
                guard value != ".." else { return nil }
                return value
            }
        }
        """)]).first ?? nil)
        let functions = facts.functions.map { "\($0.signature.owner ?? "-").\($0.signature.fullName) \($0.returns == nil ? "as is" : "summarized")" }
        #expect(functions == ["Handler.application(_:open:options:) summarized", "Handler.identity(_:) as is", "Handler.clean(_:) summarized"])
        #expect(facts.calledNames.contains("save") && facts.calledNames.contains("show"))
        #expect(facts.taintedCalls == ["save"])
        let call = try #require(facts.outgoing.first)
        #expect(call.call.name == "save" && call.call.swiftName == "save(named:count:)" && call.call.receiverType == "ReceiptStore")
        #expect(call.location.line == 4)
        #expect(call.arguments.map(\.index) == [0])
        #expect(call.arguments.first?.taints.first?.source?.location.line == 3)
    }

    @Test func aJSExportProtocolOfAHeaderReachesTheImplementationOnly() {
        let header = """
        @protocol NoteExports <JSExport>
        - (void)saveNote:(NSString *)name;
        @end
        @interface NoteBridge : NSObject <NoteExports>
        @end
        """
        let implementation = """
        @implementation NoteBridge
        - (void)saveNote:(NSString *)name { }
        @end
        """
        let local = """
        @protocol LocalExports <JSExport>
        - (void)run:(NSString *)name;
        @end
        @interface LocalBridge : NSObject <LocalExports>
        @end
        @implementation LocalBridge
        - (void)run:(NSString *)name { }
        @end
        """
        let contexts = CrossFileLinker(facts: Self.facts([("NoteBridge.h", header), ("NoteBridge.m", implementation), ("Local.m", local)]),
                                       paths: ["NoteBridge.h", "NoteBridge.m", "Local.m"]).contexts()
        #expect(contexts.keys.sorted() == [1])
        #expect(contexts[1]?.javaScriptExports == [JavaScriptProtocolFact(name: "NoteBridge", methods: ["saveNote:"])])
    }

    @Test func resolutionNeedsExactlyOneFittingFunction() {
        func signature(_ owner: String?, _ fullName: String, _ labels: [String?]) -> FunctionSignature {
            FunctionSignature(style: .swift, name: String(fullName.prefix { $0 != "(" }), fullName: fullName, labels: labels, owner: owner)
        }
        let candidates = [signature("FileStore", "save(named:)", ["named"]), signature("CloudStore", "save(named:)", ["named"]),
                          signature(nil, "save(named:)", ["named"])]
        func call(receiver type: String?, hasReceiver: Bool, enclosing: String? = nil) -> CallShape {
            CallShape(style: .swift, name: "save", swiftName: "save(named:)", labels: ["named"], receiverType: type,
                      hasReceiver: hasReceiver, enclosingType: enclosing)
        }
        #expect(CrossFileResolver.resolve(call(receiver: "CloudStore", hasReceiver: true), among: candidates)?.0 == 1)
        #expect(CrossFileResolver.resolve(call(receiver: "Unrelated", hasReceiver: true), among: candidates) == nil)
        #expect(CrossFileResolver.resolve(call(receiver: nil, hasReceiver: true), among: candidates) == nil, "two methods fit")
        #expect(CrossFileResolver.resolve(call(receiver: nil, hasReceiver: false), among: candidates)?.0 == 2, "the global function")
        // Defaulted parameters: `save(named:)` reaches `save(named:overwrite:)`, parameter 0 ← argument 0.
        let defaulted = [signature("FileStore", "save(named:overwrite:)", ["named", "overwrite"])]
        let resolved = CrossFileResolver.resolve(call(receiver: "FileStore", hasReceiver: true), among: defaulted)
        #expect(resolved?.0 == 0 && resolved?.1 == [0: 0])
    }

    @Test func lightFactsForFilesTheLinkerDoesNotNeedGiveTheSameContexts() throws {
        let files = [
            ("Handler.swift", """
            class Handler {
                let importer = FileImporter()
                func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
                    let name = NameCleaner.clean(url.query ?? "")
                    importer.importFile(named: name)
                    return true
                }
            }
            """),
            ("FileImporter.swift", """
            final class FileImporter {
                func importFile(named name: String) {
                    try? Data().write(to: URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(name))
                }
            }
            """),
            ("NameCleaner.swift", """
            enum NameCleaner {
                static func clean(_ raw: String) -> String {
                    guard raw != ".." else { return "untitled" }
                    return raw
                }
            }
            """),
            ("Unrelated.swift", """
            struct Formatter {
                func format(_ value: Double) -> String { String(value) }
                func importFile(named name: String, overwrite: Bool) { }
            }
            """),
        ]
        let facts = Self.facts(files)
        let paths = files.map(\.0)
        let needed = CrossFileLinker.neededFiles(facts.map { $0.map(DataflowFactsIndex.init) })
        #expect(needed == [0, 1, 2, 3], "Unrelated.swift also defines importFile(named:...): a candidate")
        let full = CrossFileLinker(facts: facts, paths: paths).contexts()
        #expect(full[1]?.seeds.map { "\($0.function.fullName) \($0.parameter) \($0.call.path):\($0.call.line)" }
                == ["importFile(named:) 0 Handler.swift:5"])
        #expect(full[1]?.seeds.first?.taint.source?.location.path == "Handler.swift")
        #expect(full[0]?.functions.map { "\($0.signature.fullName) \($0.location.path)" } == ["clean(_:) NameCleaner.swift"])
        // The same call made from test code seeds nothing: a test is not a way into the app.
        var testPaths = paths
        testPaths[0] = "AppTests/Handler.swift"
        let fromTests = CrossFileLinker(facts: facts, paths: testPaths).contexts()
        #expect(fromTests[1]?.seeds.isEmpty ?? true)
        // Without the formatter's namesake, Unrelated.swift is not needed, and light facts give the same.
        var renamed = facts
        renamed[3] = Self.facts([("Unrelated.swift", "struct Formatter { func format(_ value: Double) -> String { String(value) } }")])[0]
        let neededAfter = CrossFileLinker.neededFiles(renamed.map { $0.map(DataflowFactsIndex.init) })
        #expect(neededAfter == [0, 1, 2])
        let mixed = renamed.enumerated().map { index, facts in
            neededAfter.contains(index) ? facts : facts.map { DataflowFacts(light: DataflowFactsIndex($0)) }
        }
        #expect(CrossFileLinker(facts: mixed, paths: paths).contexts() == CrossFileLinker(facts: renamed, paths: paths).contexts())
    }

    @Test func factsSurviveEncoding() throws {
        let facts = try #require(Self.facts([("Handler.swift", """
        class Handler {
            let store = ReceiptStore()
            func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
                let name = url.lastPathComponent
                store.save(named: name, count: 1)
                return true
            }
            func clean(_ value: String) -> String? {
                guard value != ".." else { return nil }
                return value
            }
        }
        """)]).first ?? nil)
        #expect(!facts.outgoing.isEmpty && facts.functions.contains { $0.returns != nil })
        let decoded = try JSONDecoder().decode(DataflowFacts.self, from: JSONEncoder().encode(facts))
        #expect(decoded == facts)
        let encoded = FactsCoding.encode(facts)
        #expect(FactsCoding.decode(encoded) == facts)
        #expect(FactsCoding.decodeIndex(encoded) == DataflowFactsIndex(facts))
        // Truncated or altered forms are refused, never trusted or crashed on.
        for length in stride(from: 0, to: encoded.count, by: 7) {
            #expect(FactsCoding.decode(Array(encoded.prefix(length))) == nil, "prefix of \(length) bytes")
        }
        var altered = encoded
        altered[4] = 0xFF
        #expect(FactsCoding.decode(altered + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]) == nil)
        #expect(FactsCoding.decode(encoded + [0]) == nil, "trailing bytes")
        // Random single-byte changes: decoded or refused, never a trap.
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<500 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            var mutated = encoded
            mutated[Int(seed >> 33) % mutated.count] = UInt8(truncatingIfNeeded: seed >> 17)
            _ = FactsCoding.decode(mutated)
            _ = FactsCoding.decodeIndex(mutated)
        }
        let odd = ExternalLocation(path: "a:b/c d.swift", line: 12, column: 3)
        #expect(try JSONDecoder().decode(ExternalLocation.self, from: JSONEncoder().encode(odd)) == odd)
    }

    @Test func aNameDefinedByTooManyFilesIsNotResolved() {
        let handler = ("Handler.swift", """
        func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
            return check(url.query ?? "").isEmpty
        }
        """)
        func definers(_ count: Int) -> [(String, String)] {
            (0..<count).map { ("Check\($0).swift", "func check(_ value: String) -> String { (value as NSString).lastPathComponent }") }
        }
        let few = Self.facts([handler] + definers(2))
        #expect(CrossFileLinker(facts: few, paths: Array(repeating: "F.swift", count: few.count)).contexts()[0]?.functions.count == 2)
        let many = Self.facts([handler] + definers(CrossFileLinker.maximumCandidates + 1))
        #expect(CrossFileLinker(facts: many, paths: Array(repeating: "F.swift", count: many.count)).contexts().isEmpty)
    }
}
