import MoatCore
import MoatSyntax

/// WWDC anti-pattern 1: a file name from outside the app becomes part of a local path.
public struct PathTraversalRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-CODE-301", slug: "untrusted-file-name-in-path", title: "Untrusted file name used in a file path",
        severity: .high, confidence: .high, evidence: .dataflow, cwe: [22, 23],
        masvs: ["MASVS-CODE-4", "MASVS-PLATFORM-1"], mastg: [],
        rationale: "A name that comes from a peer, a URL, a message or a record can contain `../` or be `..` itself. Appended to a local folder, it makes the app write, move or delete files outside that folder (path traversal): overwrite databases or preferences, plant files the app later loads, or delete user data. `lastPathComponent` alone is not enough: the last component of `..` is `..`. The entry names of an archive from outside (a download, remote content, a picked or received file) are such names: joined to the extraction folder without a containment check, an entry named `../…` is written outside it (zip-slip). Of the common unzip libraries, ZIPFoundation's `FileManager.unzipItem(at:to:)` checks every entry (bypassable up to 0.9.17, CVE-2023-39138; fixed in 0.9.18) and SSZipArchive sanitizes entry names since 2.1.3, so neither call is reported; ZIPFoundation's `Archive.extract(_:to:)` writes wherever it is told, and the Zip library's `Zip.unzipFile(_:destination:overwrite:password:)` appends each entry name to the destination unchecked, so an outside archive given to it is reported.",
        fix: "Reduce the name to one component and reject the special ones before building the path: `guard case let name = name.lastPathComponent, !name.isEmpty, name != \".\", name != \"..\" else { return }`. Or standardize the final URL and check that it is still inside the folder: `dest.standardizedFileURL.path.hasPrefix(folder.standardizedFileURL.path + \"/\")` — the check every archive entry needs before it is written (or extract with ZIPFoundation's `unzipItem(at:to:)` 0.9.18+ or SSZipArchive 2.1.3+, which make it).",
        references: ["https://developer.apple.com/videos/play/wwdc2022/10060/", "https://cwe.mitre.org/data/definitions/22.html"],
        examples: [
            .triggering("IncomingFile.swift", """
            func handleIncomingFile(_ incomingResourceURL: URL, with name: String, from fromID: String) {
                let destinationFileURL = URL(fileURLWithPath: NSTemporaryDirectory())
                                             .appendingPathComponent(name)

                // Copy the file into a temporary directory
                try! ↓FileManager.default.copyItem(at: incomingResourceURL, to: destinationFileURL)

            }
            """, note: "The WWDC snippet without its guard."),
            .triggering("IncomingFile.swift", """
            func handleIncomingFile(_ incomingResourceURL: URL, with name: String, from fromID: String) {
                guard
                     case let safeFileName = name.lastPathComponent,
                     safeFileName.count > 0 else { return }

                let destinationFileURL = URL(fileURLWithPath: NSTemporaryDirectory())
                                             .appendingPathComponent(safeFileName)
                try! ↓FileManager.default.copyItem(at: incomingResourceURL, to: destinationFileURL)
            }
            """, note: "lastPathComponent of \"..\" is \"..\"."),
            .triggering("PeerSession.swift", """
            import MultipeerConnectivity
            final class PeerReceiver: NSObject, MCSessionDelegate {
                func session(_ session: MCSession, didFinishReceivingResourceWithName resourceName: String,
                             fromPeer peerID: MCPeerID, at localURL: URL?, withError error: Error?) {
                    guard let localURL else { return }
                    store(localURL, named: resourceName)
                }
                func store(_ url: URL, named name: String) {
                    let inbox = FileManager.default.temporaryDirectory.appendingPathComponent("Inbox")
                    try? ↓FileManager.default.moveItem(at: url, to: inbox.appendingPathComponent(name))
                }
            }
            """),
            .triggering("Export.swift", """
            func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
                guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
                      let name = components.queryItems?.first(where: { $0.name == "file" })?.value else { return false }
                let folder = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
                let destination = folder.appendingPathComponent(name)
                guard destination.path.hasPrefix(folder.path) else { return false }
                try? ↓Data("exported".utf8).write(to: destination)
                return true
            }
            """, note: "hasPrefix on a path that still contains \"..\" proves nothing."),
            .triggering("IncomingFile.m", """
            - (void)handleIncomingFile:(NSURL *)incomingResourceURL withName:(NSString *)name fromID:(NSString *)fromID {
                NSURL *destinationFileURL = [[NSURL fileURLWithPath:NSTemporaryDirectory()] URLByAppendingPathComponent:name];
                ↓[[NSFileManager defaultManager] copyItemAtURL:incomingResourceURL toURL:destinationFileURL error:nil];
            }
            """),
            .triggering("Receipts.swift", """
            func saveLatestReceipt(_ receipt: Data) throws {
                let endpoint = URL(string: "https://receipts.example.com/latest/name")!
                let name = try String(contentsOf: endpoint, encoding: .utf8)
                let folder = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
                try ↓receipt.write(to: folder.appendingPathComponent(name))
            }
            """, note: "Remote content: the server (or anyone on the path) chooses the name."),
            .triggering("Download.swift", """
            func saveDownload(_ data: Data, response: URLResponse) {
                guard let name = response.suggestedFilename else { return }
                let folder = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
                try? ↓data.write(to: folder.appendingPathComponent(name))
            }
            """, note: "suggestedFilename comes from the server's Content-Disposition header."),
            .triggering("Receipts.m", """
            - (void)saveLatestReceipt:(NSData *)receipt {
                NSURL *endpoint = [NSURL URLWithString:@"https://receipts.example.com/latest/name"];
                NSString *name = [NSString stringWithContentsOfURL:endpoint encoding:NSUTF8StringEncoding error:nil];
                NSString *path = [NSTemporaryDirectory() stringByAppendingPathComponent:name];
                ↓[receipt writeToFile:path atomically:YES];
            }
            """),
            .nonTriggering("Receipts.swift", """
            func saveDefaultReceipt(_ receipt: Data) throws {
                guard let nameURL = Bundle.main.url(forResource: "receipt-name", withExtension: "txt") else { return }
                let name = try String(contentsOf: nameURL, encoding: .utf8)
                let folder = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
                try receipt.write(to: folder.appendingPathComponent(name))
            }
            """, note: "A file of the app's bundle is not remote content."),
            .nonTriggering("Receipts.swift", """
            func saveLatestReceipt(_ receipt: Data) throws {
                let endpoint = URL(string: "https://receipts.example.com/latest/name")!
                let name = try String(contentsOf: endpoint, encoding: .utf8)
                guard case let safeName = name.lastPathComponent, !safeName.isEmpty, safeName != ".", safeName != ".." else { return }
                let folder = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
                try receipt.write(to: folder.appendingPathComponent(safeName))
            }
            """, note: "The WWDC file-name idiom applied to the downloaded name."),
            .nonTriggering("Download.swift", """
            func saveDownload(_ data: Data, response: URLResponse) {
                guard let suggested = response.suggestedFilename else { return }
                let name = (suggested as NSString).lastPathComponent
                guard !name.isEmpty, name != ".", name != ".." else { return }
                let folder = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
                try? data.write(to: folder.appendingPathComponent(name))
            }
            """),
            .nonTriggering("Receipts.m", """
            - (void)saveDefaultReceipt:(NSData *)receipt {
                NSURL *nameURL = [[NSBundle mainBundle] URLForResource:@"receipt-name" withExtension:@"txt"];
                NSString *name = [NSString stringWithContentsOfURL:nameURL encoding:NSUTF8StringEncoding error:nil];
                NSString *path = [NSTemporaryDirectory() stringByAppendingPathComponent:name];
                [receipt writeToFile:path atomically:YES];
            }
            """, note: "A file of the app's bundle is not remote content."),
            .nonTriggering("IncomingFile.swift", """
            func handleIncomingFile(_ incomingResourceURL: URL, with name: String, from fromID: String) {
                guard
                     case let safeFileName = name.lastPathComponent,
                     safeFileName.count > 0,
                     safeFileName != "..", safeFileName != "." else { return }

                let destinationFileURL = URL(fileURLWithPath: NSTemporaryDirectory())
                                             .appendingPathComponent(safeFileName)

                // Copy the file into a temporary directory
                try! FileManager.default.copyItem(at: incomingResourceURL, to: destinationFileURL)

            }
            """, note: "The WWDC snippet as written."),
            .nonTriggering("Import.swift", """
            func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
                guard let scratch = try? FileManager.default.url(for: .itemReplacementDirectory, in: .userDomainMask,
                                                                 appropriateFor: url, create: true) else { return false }
                defer { try? FileManager.default.removeItem(at: scratch) }
                return importArchive(at: url, using: scratch)
            }
            """, note: "The system names the replacement folder; the opened URL only picks its volume."),
            .nonTriggering("SafeName.swift", """
            func safeLocalFileName(_ name: String) -> String? {
                let candidate = (name as NSString).lastPathComponent
                guard !candidate.isEmpty, candidate != ".", candidate != ".." else { return nil }
                return candidate
            }
            func handleIncomingFile(_ incomingResourceURL: URL, with name: String, from fromID: String) {
                guard let safeName = safeLocalFileName(name) else { return }
                let destination = FileManager.default.temporaryDirectory.appendingPathComponent(safeName)
                try? FileManager.default.copyItem(at: incomingResourceURL, to: destination)
            }
            """, note: "The idiom in a helper, followed through its summary."),
            .nonTriggering("Export.swift", """
            func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
                guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
                      let name = components.queryItems?.first(where: { $0.name == "file" })?.value else { return false }
                let folder = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0].standardizedFileURL
                let destination = folder.appendingPathComponent(name).standardizedFileURL
                guard destination.path.hasPrefix(folder.path + "/") else { return false }
                try? Data("exported".utf8).write(to: destination)
                return true
            }
            """, note: "Standardized, then checked to be inside the folder."),
            .nonTriggering("Picker.swift", """
            func documentPicker(_ controller: UIDocumentPickerViewController, didPickDocumentsAt urls: [URL]) {
                for url in urls {
                    let destination = FileManager.default.temporaryDirectory.appendingPathComponent(url.lastPathComponent)
                    try? FileManager.default.copyItem(at: url, to: destination)
                }
            }
            """, note: "Picked files are real files: their last path component is a real name."),
            .nonTriggering("OpenIn.swift", """
            func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
                let inbox = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
                try? FileManager.default.moveItem(at: url, to: inbox.appendingPathComponent(url.lastPathComponent))
                return true
            }
            """, note: "A file opened in the app: moving it only works if it is a real file, with a real name."),
            .nonTriggering("Themes.swift", """
            let allowedThemes: Set<String> = ["dark.css", "light.css"]
            func handleThemeMessage(_ theme: String, from peerID: String) {
                guard allowedThemes.contains(theme) else { return }
                let url = FileManager.default.temporaryDirectory.appendingPathComponent(theme)
                try? Data().write(to: url)
            }
            """),
            .nonTriggering("IncomingFile.m", """
            - (void)handleIncomingFile:(NSURL *)incomingResourceURL withName:(NSString *)name fromID:(NSString *)fromID {
                NSString *safeFileName = name.lastPathComponent;
                if (safeFileName.length == 0 || [safeFileName isEqualToString:@".."] || [safeFileName isEqualToString:@"."]) {
                    return;
                }
                NSURL *destinationFileURL = [[NSURL fileURLWithPath:NSTemporaryDirectory()] URLByAppendingPathComponent:safeFileName];
                [[NSFileManager defaultManager] copyItemAtURL:incomingResourceURL toURL:destinationFileURL error:nil];
            }
            """),
            RuleExample(files: [
                ExampleFile(name: "SceneDelegate.swift", content: """
                class SceneDelegate: UIResponder, UIWindowSceneDelegate {
                    let importer = FileImporter()

                    func scene(_ scene: UIScene, openURLContexts URLContexts: Set<UIOpenURLContext>) {
                        guard let url = URLContexts.first?.url,
                              let name = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first?.value else { return }
                        importer.importFile(named: name, contents: Data())
                    }
                }
                """),
                ExampleFile(name: "FileImporter.swift", content: """
                final class FileImporter {
                    func importFile(named name: String, contents: Data) {
                        let folder = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
                        try? ↓contents.write(to: folder.appendingPathComponent(name))
                    }
                }
                """),
            ], triggers: true, note: "Across files: the URL handler passes the name to a method of another file, reported where the path is used."),
            RuleExample(files: [
                ExampleFile(name: "SceneDelegate.swift", content: """
                class SceneDelegate: UIResponder, UIWindowSceneDelegate {
                    let importer = FileImporter()

                    func scene(_ scene: UIScene, openURLContexts URLContexts: Set<UIOpenURLContext>) {
                        guard let url = URLContexts.first?.url,
                              let name = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first?.value,
                              let safeName = FileNames.singleComponent(name) else { return }
                        importer.importFile(named: safeName, contents: Data())
                    }
                }
                """),
                ExampleFile(name: "FileNames.swift", content: """
                enum FileNames {
                    static func singleComponent(_ name: String) -> String? {
                        let safeFileName = (name as NSString).lastPathComponent
                        guard !safeFileName.isEmpty, safeFileName != ".", safeFileName != ".." else { return nil }
                        return safeFileName
                    }
                }
                """),
                ExampleFile(name: "FileImporter.swift", content: """
                final class FileImporter {
                    func importFile(named name: String, contents: Data) {
                        let folder = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
                        try? contents.write(to: folder.appendingPathComponent(name))
                    }
                }
                """),
            ], triggers: false, note: "Across files: the name goes through the WWDC idiom in a helper of a third file first."),
            RuleExample(files: [
                ExampleFile(name: "NoteBridge.h", content: """
                @protocol NoteBridgeExports <JSExport>
                - (void)saveNote:(NSString *)fileName text:(NSString *)text;
                @end

                @interface NoteBridge : NSObject <NoteBridgeExports>
                @end
                """),
                ExampleFile(name: "NoteBridge.m", content: """
                @implementation NoteBridge
                - (void)saveNote:(NSString *)fileName text:(NSString *)text {
                    NSString *path = [NSTemporaryDirectory() stringByAppendingPathComponent:fileName];
                    ↓[text writeToFile:path atomically:YES encoding:NSUTF8StringEncoding error:nil];
                }
                @end
                """),
            ], triggers: true, note: "A JSExport protocol declared in the header: page JavaScript chooses the name."),
            RuleExample(files: [
                ExampleFile(name: "NoteBridge.h", content: """
                @protocol NoteBridgeExports <JSExport>
                - (void)saveNote:(NSString *)fileName text:(NSString *)text;
                @end

                @interface NoteBridge : NSObject <NoteBridgeExports>
                @end
                """),
                ExampleFile(name: "NoteBridge.m", content: """
                @implementation NoteBridge
                - (void)saveNote:(NSString *)fileName text:(NSString *)text {
                    NSString *safeFileName = fileName.lastPathComponent;
                    if (safeFileName.length == 0 || [safeFileName isEqualToString:@".."] || [safeFileName isEqualToString:@"."]) {
                        return;
                    }
                    NSString *path = [NSTemporaryDirectory() stringByAppendingPathComponent:safeFileName];
                    [text writeToFile:path atomically:YES encoding:NSUTF8StringEncoding error:nil];
                }
                @end
                """),
            ], triggers: false),
            .nonTriggering("Router.swift", """
            enum Route { case open(URL), share(URL), close }
            final class Router {
                var coordinator: RouteCoordinator?
                func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
                    coordinator?.handle(.open(url))
                    return true
                }
            }
            """, note: "`.open(url)` is an enum case (an implicit member of the type `handle` expects), not the C function `open(2)`: sinks are resolved calls, not names."),
            .triggering("Importer.swift", """
            import Darwin
            func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
                guard let name = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first?.value else { return false }
                let path = NSTemporaryDirectory() + name
                let descriptor = ↓open(path, O_WRONLY | O_CREAT, 0o600)
                close(descriptor)
                return true
            }
            """, note: "The C function, called bare."),
        ] + readExamples + archiveExamples)

    /// Reads, listings and opens by path (`TaintSinks.pathReads`): a name from outside joined to a folder of
    /// the app picks the file read (medium) or the database opened (high); a URL the input is whole is a
    /// download, and a file the system created is a real file.
    static let readExamples: [RuleExample] = [
        .triggering("Attachments.swift", """
        func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
            guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
                  let name = components.queryItems?.first(where: { $0.name == "attachment" })?.value else { return false }
            let folder = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
            let text = try? ↓String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            show(text)
            return true
        }
        """, note: "A read: the link picks which file of the container is shown (\"../Library/Preferences/…\")."),
        .triggering("PeerStore.swift", """
        import MultipeerConnectivity
        import SQLite3
        final class PeerImporter: NSObject, MCSessionDelegate {
            var db: OpaquePointer?
            func session(_ session: MCSession, didFinishReceivingResourceWithName resourceName: String,
                         fromPeer peerID: MCPeerID, at localURL: URL?, withError error: Error?) {
                let path = NSTemporaryDirectory() + resourceName
                ↓sqlite3_open(path, &db)
            }
        }
        """, note: "A database opened where a peer says: the app then reads and writes a store of the peer's choosing."),
        RuleExample(files: [
            ExampleFile(name: "NoteReader.h", content: """
            @protocol NoteReaderExports <JSExport>
            - (NSString *)readNote:(NSString *)fileName;
            @end

            @interface NoteReader : NSObject <NoteReaderExports>
            @end
            """),
            ExampleFile(name: "NoteReader.m", content: """
            @implementation NoteReader
            - (NSString *)readNote:(NSString *)fileName {
                NSString *path = [NSTemporaryDirectory() stringByAppendingPathComponent:fileName];
                return ↓[NSString stringWithContentsOfFile:path encoding:NSUTF8StringEncoding error:nil];
            }
            @end
            """),
        ], triggers: true, note: "Page JavaScript names the file the bridge reads back to it."),
        RuleExample(files: [
            ExampleFile(name: "SceneDelegate.swift", content: """
            import UIKit
            final class SceneDelegate: UIResponder, UIWindowSceneDelegate {
                let library = Library()
                func scene(_ scene: UIScene, openURLContexts URLContexts: Set<UIOpenURLContext>) {
                    guard let url = URLContexts.first?.url, let folder = url.host else { return }
                    library.list(folder)
                }
            }
            """),
            ExampleFile(name: "Library.swift", content: """
            import Foundation
            final class Library {
                func list(_ folder: String) {
                    let root = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
                    let names = try? ↓FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)
                    print(names ?? [])
                }
            }
            """),
        ], triggers: true, note: "Across files: the handler passes the link's host to a listing in another file."),
        .nonTriggering("Attachments.swift", """
        func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
            guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
                  let name = components.queryItems?.first(where: { $0.name == "attachment" })?.value else { return false }
            guard case let safeName = name.lastPathComponent, !safeName.isEmpty, safeName != ".", safeName != ".." else { return false }
            let folder = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
            let text = try? String(contentsOf: folder.appendingPathComponent(safeName), encoding: .utf8)
            show(text)
            return true
        }
        """, note: "The WWDC idiom: one component, the special names rejected."),
        .nonTriggering("Feed.swift", """
        func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
            guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
                  let link = components.queryItems?.first(where: { $0.name == "feed" })?.value,
                  let feed = URL(string: link) else { return false }
            let data = try? Data(contentsOf: feed)
            show(data)
            return true
        }
        """, note: "The link is the whole URL: a download (other rules judge it), not a path in a folder of the app."),
        .nonTriggering("Picker.swift", """
        func documentPicker(_ controller: UIDocumentPickerViewController, didPickDocumentsAt urls: [URL]) {
            guard let picked = urls.first else { return }
            let data = try? Data(contentsOf: picked)
            show(data)
        }
        """, note: "A file the system created (the picked document): its path is no name the sender chose."),
        .nonTriggering("Help.swift", """
        func showHelp(page: String) {
            let url = Bundle.main.url(forResource: "help", withExtension: "html")!
            let html = try? String(contentsOf: url, encoding: .utf8)
            show(html)
        }
        """, note: "A resource of the app's bundle, no input in the path."),
    ]

    public init() {}

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        var reported = Set<Int>()
        for flow in unit.flows(rule: Self.description.id) {
            if flow.kind == .archiveExtraction {
                reportExtraction(flow, unit, &reported, &sink)
                continue
            }
            var worst: (Taint, String, Severity)?
            // Copying or moving the untrusted URL itself: it is a real file (the operation fails otherwise),
            // so its last path component is a real name.
            let movedFiles = Set(flow.taints(.source).filter { !$0.checks.contains(.lastPathComponent) }.compactMap(\.source))
            // A read, a listing or an open by path: only a path that starts in a folder of the app (it also
            // carries a `localFile` taint) is a path an outside name is joined to; a URL that is the input
            // whole is a download (`TaintSinks.pathReads`). A read discloses, an open lets the store or code
            // at that path in: medium and high at most.
            let isRead = flow.kind == .fileRead || flow.kind == .storeOpen
            let pathTaints = flow.taints(.path)
            if isRead && !pathTaints.contains(where: { $0.source?.kind.flow == .localFile }) { continue }
            for taint in pathTaints where taint.source?.kind.flow != .localFile {
                if let source = taint.source, movedFiles.contains(source), taint.checks.contains(.lastPathComponent) { continue }
                guard let (missing, found) = Self.missingChecks(taint) else { continue }
                let severity = flow.kind == .fileRead ? min(found, .medium) : found
                if let current = worst, current.2 >= severity { continue }
                worst = (taint, missing, severity)
            }
            guard let (taint, missing, severity) = worst, reported.insert(flow.range.start.offset).inserted,
                  let source = taint.source else { continue }
            let path = CodeText.of(flow.arguments[.path], in: file)
            let message = taint.checks.contains(.archiveEntry)
                ? "An archive entry name, read from \(source.description), is used in the path `\(path)` of \(flow.calledName) without a containment check: \(missing) (zip-slip)."
                : "\(DataflowReporting.capitalized(source.description)) reaches \(flow.calledName) as the path `\(path)`: \(missing)."
            DataflowReporting.report(message, flow: flow, taint: taint, in: file, severity: severity,
                                     confidence: Self.description.confidence, &sink)
        }
    }

    /// What the path of this taint lacks, or nil when it is safe.
    static func missingChecks(_ taint: Taint) -> (String, Severity)? {
        // A file the system created has a real name, but the names of the entries of an archive in it do not.
        guard let source = taint.source, !source.isSystemFileURL || taint.checks.contains(.archiveEntry), !taint.isInertString else { return nil }
        let checks = taint.checks
        if !checks.isDisjoint(with: [.allowlisted, .validated]) { return nil }
        if checks.contains(.prefixChecked) && checks.contains(.standardized) { return nil }
        if checks.contains(.lastPathComponent) {
            var rejected: [String] = []
            if !checks.contains(.rejectsDotDot) { rejected.append("\"..\"") }
            if !checks.contains(.rejectsDot) { rejected.append("\".\"") }
            if !checks.contains(.rejectsEmpty) { rejected.append("the empty name") }
            if rejected.isEmpty { return nil }
            let list = rejected.count == 1 ? rejected[0] : rejected.dropLast().joined(separator: ", ") + " or " + (rejected.last ?? "")
            if checks.contains(.rejectsDotDot) {
                return ("it takes lastPathComponent but does not reject \(list), so the destination can be the folder itself", .low)
            }
            return ("it takes lastPathComponent but does not reject \(list), so \"..\" still leaves the folder", .high)
        }
        if checks.contains(.prefixChecked) {
            return ("it is checked with hasPrefix but not standardized first, so \"../\" passes the check and leaves the folder", .high)
        }
        if checks.contains(.archiveEntry) {
            return ("nothing checks that the joined path stays inside the destination folder (standardize it, then check that it starts with the folder's path), so an entry named \"../…\" is written outside it", .high)
        }
        return ("nothing reduces it to one path component (lastPathComponent, then rejecting \"..\", \".\" and the empty name), so \"../\" leaves the folder", .high)
    }
}
