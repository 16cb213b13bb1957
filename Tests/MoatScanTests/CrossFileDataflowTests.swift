import Foundation
import Testing
import MoatTestSupport
import MoatCore
@testable import MoatScan

/// Dataflow across files, through the whole scanner: values passed to functions of other files, return
/// summaries of helpers in other files, JSExport protocols declared in headers, the cache.
struct CrossFileDataflowTests {
    static let handler = CrossFileFixtures.handler(cleaner: "NameCleaner.clean")
    static let importer = CrossFileFixtures.importer
    static let safeCleaner = """
    enum NameCleaner {
        static func clean(_ raw: String) -> String {
            let name = (raw as NSString).lastPathComponent
            guard !name.isEmpty, name != ".", name != ".." else { return "untitled" }
            return name
        }
    }
    """
    static let weakCleaner = """
    enum NameCleaner {
        static func clean(_ raw: String) -> String {
            let name = (raw as NSString).lastPathComponent
            guard !name.isEmpty else { return "untitled" }
            return name
        }
    }
    """

    static func pathFindings(_ result: ScanResult) -> [Finding] {
        result.findings.filter { $0.ruleId == "MOAT-CODE-301" }
    }

    @Test func aValuePassedToAnotherFileIsReportedWhereItIsUsedWithThePathAcrossFiles() throws {
        let tree = try TemporaryTree(["App/SceneDelegate.swift": Self.handler, "App/FileImporter.swift": Self.importer,
                                      "App/NameCleaner.swift": Self.weakCleaner])
        defer { tree.remove() }
        let findings = Self.pathFindings(try tree.scan())
        let finding = try #require(findings.first)
        #expect(findings.count == 1)
        #expect(finding.location.path == "App/FileImporter.swift")
        #expect(finding.location.line == 5 && finding.location.column == 14)
        #expect(finding.message.contains("passed to importFile(named:contents:) from SceneDelegate.swift:8"))
        #expect(finding.message.contains("takes lastPathComponent but does not reject \"..\" or \".\""))
        let related = finding.related.map { "\($0.location.path):\($0.location.line) \($0.message)" }
        #expect(related.first?.hasPrefix("App/SceneDelegate.swift:4 untrusted input: the URL contexts") == true, "\(related)")
        #expect(related.contains("App/SceneDelegate.swift:7 passed to clean(_:) (NameCleaner.swift:2)"), "\(related)")
        #expect(related.contains("App/SceneDelegate.swift:8 passed to importFile(named:contents:) as `name`"), "\(related)")
        #expect(related.contains("App/FileImporter.swift:4 put into a file path by appendingPathComponent"), "\(related)")
    }

    @Test func aHelperInAnotherFileThatAppliesTheIdiomKeepsTheCallerQuiet() throws {
        let tree = try TemporaryTree(["App/SceneDelegate.swift": Self.handler, "App/FileImporter.swift": Self.importer,
                                      "App/NameCleaner.swift": Self.safeCleaner])
        defer { tree.remove() }
        #expect(Self.pathFindings(try tree.scan()).isEmpty)
    }

    @Test func editingTheHelperInvalidatesTheCachedResultsOfTheFilesThatDependOnIt() throws {
        let tree = try TemporaryTree(["App/SceneDelegate.swift": Self.handler, "App/FileImporter.swift": Self.importer,
                                      "App/NameCleaner.swift": Self.safeCleaner])
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("moat-cache-\(UUID().uuidString)")
        defer { tree.remove(); try? FileManager.default.removeItem(at: cache) }
        #expect(Self.pathFindings(try tree.scan { $0.cacheDirectory = cache }).isEmpty)
        try Data(Self.weakCleaner.utf8).write(to: tree.root.appendingPathComponent("App/NameCleaner.swift"))
        let edited = try tree.scan { $0.cacheDirectory = cache }
        #expect(Self.pathFindings(edited).map { "\($0.location.path):\($0.location.line)" } == ["App/FileImporter.swift:5"])
        let warm = try tree.scan { $0.cacheDirectory = cache }
        let uncached = try tree.scan()
        #expect(CacheAndParallelTests.signature(warm) == CacheAndParallelTests.signature(edited))
        #expect(CacheAndParallelTests.signature(uncached) == CacheAndParallelTests.signature(edited))
        let one = try tree.scan { $0.jobs = 1 }
        #expect(CacheAndParallelTests.signature(one) == CacheAndParallelTests.signature(edited))
    }

    @Test func aChainThroughThreeFilesIsFollowed() throws {
        let tree = try TemporaryTree([
            "App/Handler.swift": """
            func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
                DeepLinks.route(url)
                return true
            }
            """,
            "App/DeepLinks.swift": """
            enum DeepLinks {
                static func route(_ url: URL) {
                    let name = url.query ?? ""
                    Downloads.store(name: name)
                }
            }
            """,
            "App/Downloads.swift": """
            enum Downloads {
                static func store(name: String) {
                    let path = NSTemporaryDirectory() + "/" + name
                    FileManager.default.createFile(atPath: path, contents: nil)
                }
            }
            """,
        ])
        defer { tree.remove() }
        let findings = Self.pathFindings(try tree.scan())
        #expect(findings.map { "\($0.location.path):\($0.location.line):\($0.location.column)" } == ["App/Downloads.swift:4:9"])
        let related = findings.first?.related.map { "\($0.location.path):\($0.location.line)" } ?? []
        #expect(related.first == "App/Handler.swift:1")
        #expect(related.contains("App/DeepLinks.swift:4"))
    }

    @Test func whatOneCallerPassesDoesNotReachTheFunctionsOtherCallers() throws {
        // Handler.swift passes URL input to `normalize`; its other callers pass constants and stay quiet.
        let tree = try TemporaryTree([
            "App/Handler.swift": """
            func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
                let name = Names.normalize(url.query ?? "")
                return name.isEmpty
            }
            """,
            "App/Names.swift": """
            enum Names {
                static func normalize(_ raw: String) -> String {
                    return raw.lowercased()
                }
                static func createDefault() {
                    let path = NSTemporaryDirectory() + "/" + normalize("Default")
                    FileManager.default.createFile(atPath: path, contents: nil)
                }
            }
            """,
            "App/Other.swift": """
            func makeDefault() {
                let name = Names.normalize("Other")
                FileManager.default.createFile(atPath: NSTemporaryDirectory() + "/" + name, contents: nil)
            }
            """,
        ])
        defer { tree.remove() }
        #expect(Self.pathFindings(try tree.scan()).isEmpty)
    }

    @Test func anAmbiguousCallIsNotFollowed() throws {
        // Two types define `importFile(named:contents:)` and the receiver's type is unknown: the call
        // could be either, so neither gets the value.
        let tree = try TemporaryTree([
            "App/Handler.swift": """
            func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
                let name = url.query ?? ""
                makeImporter().importFile(named: name, contents: Data())
                return true
            }
            """,
            "App/FileImporter.swift": Self.importer,
            "App/SafeImporter.swift": Self.importer.replacingOccurrences(of: "FileImporter", with: "SafeImporter"),
        ])
        defer { tree.remove() }
        #expect(Self.pathFindings(try tree.scan()).isEmpty)
    }

    @Test func theReceiverTypeChoosesAmongFunctionsOfTheSameName() throws {
        let tree = try TemporaryTree([
            "App/Handler.swift": """
            class Handler {
                let importer = FileImporter()
                func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
                    importer.importFile(named: url.query ?? "", contents: Data())
                    return true
                }
            }
            """,
            "App/FileImporter.swift": Self.importer,
            "App/SafeImporter.swift": Self.importer.replacingOccurrences(of: "FileImporter", with: "SafeImporter"),
        ])
        defer { tree.remove() }
        #expect(Self.pathFindings(try tree.scan()).map(\.location.path) == ["App/FileImporter.swift"])
    }

    @Test func aSourceReturnedByAFunctionOfAnotherFileIsFollowed() throws {
        let tree = try TemporaryTree([
            "App/Clipboard.swift": """
            enum Clipboard {
                static func pastedName() -> String? {
                    UIPasteboard.general.string
                }
            }
            """,
            "App/Export.swift": """
            func exportDocument(_ data: Data) {
                guard let name = Clipboard.pastedName() else { return }
                let url = FileManager.default.temporaryDirectory.appendingPathComponent(name)
                try? data.write(to: url)
            }
            """,
        ])
        defer { tree.remove() }
        let findings = Self.pathFindings(try tree.scan())
        #expect(findings.map { "\($0.location.path):\($0.location.line)" } == ["App/Export.swift:4"])
        #expect(findings.first?.related.first.map { "\($0.location.path):\($0.location.line)" } == "App/Clipboard.swift:3")
    }

    @Test func aJSExportProtocolDeclaredInAHeaderMakesTheImplementationsParametersUntrusted() throws {
        let header = """
        @protocol NoteExports <JSExport>
        - (void)saveNote:(NSString *)fileName text:(NSString *)text;
        @end

        @interface NoteBridge : NSObject <NoteExports>
        @end
        """
        let implementation = """
        #import "NoteBridge.h"

        @implementation NoteBridge
        - (void)saveNote:(NSString *)fileName text:(NSString *)text {
            NSString *path = [NSTemporaryDirectory() stringByAppendingPathComponent:fileName];
            [text writeToFile:path atomically:YES encoding:NSUTF8StringEncoding error:nil];
        }
        - (void)internalSave:(NSString *)fileName text:(NSString *)text {
            NSString *path = [NSTemporaryDirectory() stringByAppendingPathComponent:fileName];
            [text writeToFile:path atomically:YES encoding:NSUTF8StringEncoding error:nil];
        }
        @end
        """
        let tree = try TemporaryTree(["App/NoteBridge.h": header, "App/NoteBridge.m": implementation])
        defer { tree.remove() }
        let findings = Self.pathFindings(try tree.scan())
        #expect(findings.map { "\($0.location.path):\($0.location.line):\($0.location.column)" } == ["App/NoteBridge.m:6:5"])
        #expect(findings.first?.message.contains("a parameter of the JSExport method saveNote:text:") == true)
    }

    @Test func objectiveCMessagesAndCFunctionsAreFollowedAcrossFiles() throws {
        let tree = try TemporaryTree([
            "App/LBLinkHandler.m": """
            @implementation LBLinkHandler
            - (BOOL)application:(UIApplication *)app openURL:(NSURL *)url options:(NSDictionary *)options {
                NSString *name = url.query;
                [[LBReceiptStore sharedStore] saveReceiptNamed:name];
                return YES;
            }
            @end
            """,
            "App/LBReceiptStore.m": """
            @implementation LBReceiptStore
            - (void)saveReceiptNamed:(NSString *)name {
                NSString *path = [NSTemporaryDirectory() stringByAppendingPathComponent:name];
                [[NSFileManager defaultManager] createFileAtPath:path contents:nil attributes:nil];
            }
            @end
            """,
            "App/net.c": """
            int handle_record(const unsigned char *buf, size_t len);
            void read_loop(int fd) {
                unsigned char buf[512];
                ssize_t n = recv(fd, buf, sizeof(buf), 0);
                if (n > 0) handle_record(buf, (size_t)n);
            }
            """,
            "App/record.c": """
            struct header { unsigned int kind; unsigned int size; };
            int handle_record(const unsigned char *buf, size_t len) {
                struct header h;
                memcpy(&h, buf, len);
                return (int)h.kind;
            }
            """,
        ])
        defer { tree.remove() }
        let findings = try tree.scan().findings.filter { $0.ruleId.hasPrefix("MOAT-CODE-30") }
        #expect(findings.map { "\($0.ruleId) \($0.location.path):\($0.location.line)" }
                == ["MOAT-CODE-301 App/LBReceiptStore.m:4", "MOAT-CODE-304 App/record.c:4"])
        #expect(findings.first?.message.contains("passed to saveReceiptNamed: from LBLinkHandler.m:4") == true)
        #expect(findings.last?.message.contains("by recv, passed to handle_record from net.c:5") == true)
    }
}
