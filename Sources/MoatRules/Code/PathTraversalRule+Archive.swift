import Foundation
import MoatCore
import MoatFormats
import MoatSyntax

// Zip-slip (issue 14): archive entry names are file names from outside when the archive is. Hand-written
// extraction is reported where an entry name reaches a path (the entry names are `ArchiveEntries` reads);
// a library's one-call extraction that does not check entries is reported for the archive it is given
// (`Sinks+Archive.swift` says which libraries check).
extension PathTraversalRule {
    static let archiveExamples: [RuleExample] = [
        .triggering("ThemeInstaller.swift", """
        import ZIPFoundation

        final class ThemeInstaller {
            func install(from url: URL, into folder: URL) {
                URLSession.shared.downloadTask(with: url) { location, _, _ in
                    guard let location, let archive = Archive(url: location, accessMode: .read) else { return }
                    for entry in archive {
                        let target = folder.appendingPathComponent(entry.path)
                        _ = try? ↓archive.extract(entry, to: target)
                    }
                }.resume()
            }
        }
        """, note: "Hand-written extraction of a downloaded archive: the entry names are the server's."),
        .triggering("ThemeInstaller.swift", """
        import Zip

        func installTheme(from url: URL, into folder: URL) {
            URLSession.shared.downloadTask(with: url) { location, _, _ in
                guard let location else { return }
                try? ↓Zip.unzipFile(location, destination: folder, overwrite: true, password: nil)
            }.resume()
        }
        """, note: "The Zip library appends each entry name to the destination without a containment check."),
        .triggering("Importer.m", """
        #include "unzip.h"

        @implementation Importer
        - (void)documentPicker:(UIDocumentPickerViewController *)controller didPickDocumentsAtURLs:(NSArray<NSURL *> *)urls {
            unzFile zip = unzOpen(urls.firstObject.fileSystemRepresentation);
            char name[512];
            unz_file_info info;
            unzGoToFirstFile(zip);
            unzGetCurrentFileInfo(zip, &info, name, sizeof(name), NULL, 0, NULL, 0);
            NSString *path = [self.folder stringByAppendingPathComponent:[NSString stringWithUTF8String:name]];
            FILE *out = ↓fopen(path.fileSystemRepresentation, "wb");
            fclose(out);
        }
        @end
        """, note: "minizip: the name unzGetCurrentFileInfo fills comes from the picked archive."),
        .triggering("PeerImport.m", """
        #include <archive.h>
        #include <archive_entry.h>

        @implementation PeerImport
        - (void)session:(MCSession *)session didFinishReceivingResourceWithName:(NSString *)resourceName
               fromPeer:(MCPeerID *)peerID atURL:(NSURL *)localURL withError:(NSError *)error {
            struct archive *reader = archive_read_new();
            archive_read_support_format_all(reader);
            archive_read_open_filename(reader, localURL.fileSystemRepresentation, 10240);
            struct archive_entry *entry;
            while (archive_read_next_header(reader, &entry) == ARCHIVE_OK) {
                NSString *name = [NSString stringWithUTF8String:archive_entry_pathname(entry)];
                NSString *path = [NSTemporaryDirectory() stringByAppendingPathComponent:name];
                ↓[[NSData data] writeToFile:path atomically:YES];
            }
        }
        @end
        """, note: "libarchive: a peer sent the archive, and so the names of its entries."),
        .nonTriggering("ThemeInstaller.swift", """
        import ZIPFoundation

        final class ThemeInstaller {
            func install(from url: URL, into folder: URL) {
                URLSession.shared.downloadTask(with: url) { location, _, _ in
                    guard let location, let archive = Archive(url: location, accessMode: .read) else { return }
                    let root = folder.standardizedFileURL
                    for entry in archive {
                        let target = root.appendingPathComponent(entry.path).standardizedFileURL
                        guard target.path.hasPrefix(root.path + "/") else { continue }
                        _ = try? archive.extract(entry, to: target)
                    }
                }.resume()
            }
        }
        """, note: "Each entry's path is standardized and checked to stay inside the folder."),
        .nonTriggering("ThemeInstaller.swift", """
        import ZIPFoundation

        func installTheme(from url: URL, into folder: URL) {
            URLSession.shared.downloadTask(with: url) { location, _, _ in
                guard let location else { return }
                try? FileManager.default.unzipItem(at: location, to: folder)
            }.resume()
        }
        """, note: "ZIPFoundation's unzipItem(at:to:) checks every entry (0.9.18 and later); no lock file says an older version."),
        .nonTriggering("ThemeInstaller.m", """
        #import <SSZipArchive/SSZipArchive.h>

        @implementation ThemeInstaller
        - (void)installFromURL:(NSURL *)url into:(NSString *)folder {
            [[[NSURLSession sharedSession] downloadTaskWithURL:url completionHandler:^(NSURL *location, NSURLResponse *response, NSError *error) {
                [SSZipArchive unzipFileAtPath:location.path toDestination:folder];
            }] resume];
        }
        @end
        """, note: "SSZipArchive sanitizes entry names (2.1.3 and later); no lock file says an older version."),
        .nonTriggering("Starter.swift", """
        import ZIPFoundation

        func installStarterKit(into folder: URL) throws {
            guard let url = Bundle.main.url(forResource: "starter", withExtension: "zip"),
                  let archive = Archive(url: url, accessMode: .read) else { return }
            for entry in archive {
                _ = try archive.extract(entry, to: folder.appendingPathComponent(entry.path))
            }
        }
        """, note: "An archive of the app's bundle: the app chose its entry names."),
        .nonTriggering("Importer.m", """
        #include "unzip.h"

        @implementation Importer
        - (void)documentPicker:(UIDocumentPickerViewController *)controller didPickDocumentsAtURLs:(NSArray<NSURL *> *)urls {
            unzFile zip = unzOpen(urls.firstObject.fileSystemRepresentation);
            char name[512];
            unz_file_info info;
            unzGoToFirstFile(zip);
            unzGetCurrentFileInfo(zip, &info, name, sizeof(name), NULL, 0, NULL, 0);
            NSString *root = [self.folder stringByStandardizingPath];
            NSString *path = [[root stringByAppendingPathComponent:[NSString stringWithUTF8String:name]] stringByStandardizingPath];
            if (![path hasPrefix:[root stringByAppendingString:@"/"]]) {
                return;
            }
            FILE *out = fopen(path.fileSystemRepresentation, "wb");
            fclose(out);
        }
        @end
        """, note: "Standardized, then checked to stay inside the folder."),
        // XMLParser callbacks of a downloaded document (`XMLDocuments`).
        .triggering("FeedParser.swift", """
        final class FeedParser: NSObject, XMLParserDelegate {
            let folder = FileManager.default.temporaryDirectory
            func load(_ url: URL) {
                URLSession.shared.dataTask(with: url) { data, _, _ in
                    guard let data else { return }
                    let parser = XMLParser(data: data)
                    parser.delegate = self
                    parser.parse()
                }.resume()
            }
            func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                        qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
                guard let name = attributeDict["file"] else { return }
                try? ↓Data().write(to: folder.appendingPathComponent(name))
            }
        }
        """, note: "The attributes of a downloaded XML document are the server's."),
        .nonTriggering("FeedParser.swift", """
        final class FeedParser: NSObject, XMLParserDelegate {
            let folder = FileManager.default.temporaryDirectory
            func loadBundled() throws {
                let data = try Data(contentsOf: Bundle.main.url(forResource: "feed", withExtension: "xml")!)
                let parser = XMLParser(data: data)
                parser.delegate = self
                parser.parse()
            }
            func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                        qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
                guard let name = attributeDict["file"] else { return }
                try? Data().write(to: folder.appendingPathComponent(name))
            }
        }
        """, note: "A document of the app's bundle."),
        // One-call extraction of a library version before its fix, as a lock file says (`ArchiveLibraries`).
        RuleExample(files: [
            ExampleFile(name: "Podfile.lock", content: "PODS:\n  - ZIPFoundation (0.9.17)\n\nCOCOAPODS: 1.12.1\n"),
            ExampleFile(name: "App/ThemeInstaller.swift", content: """
            import ZIPFoundation

            func installTheme(from url: URL, into folder: URL) {
                URLSession.shared.downloadTask(with: url) { location, _, _ in
                    guard let location else { return }
                    try? ↓FileManager.default.unzipItem(at: location, to: folder)
                }.resume()
            }
            """),
        ], triggers: true, note: "Podfile.lock locks ZIPFoundation 0.9.17: unzipItem checks entries only since 0.9.18 (CVE-2023-39138)."),
        RuleExample(files: [
            ExampleFile(name: "App.xcodeproj/project.xcworkspace/xcshareddata/swiftpm/Package.resolved", content: """
            {
              "pins" : [
                {
                  "identity" : "ziparchive",
                  "kind" : "remoteSourceControl",
                  "location" : "https://github.com/ZipArchive/ZipArchive.git",
                  "state" : { "revision" : "0123", "version" : "2.1.1" }
                }
              ],
              "version" : 2
            }
            """),
            ExampleFile(name: "App/ThemeInstaller.m", content: """
            #import <SSZipArchive/SSZipArchive.h>

            @implementation ThemeInstaller
            - (void)installFromURL:(NSURL *)url into:(NSString *)folder {
                [[[NSURLSession sharedSession] downloadTaskWithURL:url completionHandler:^(NSURL *location, NSURLResponse *response, NSError *error) {
                    ↓[SSZipArchive unzipFileAtPath:location.path toDestination:folder];
                }] resume];
            }
            @end
            """),
        ], triggers: true, note: "Xcode resolved SSZipArchive 2.1.1: entry names are sanitized only since 2.1.3."),
        RuleExample(files: [
            ExampleFile(name: "Podfile.lock", content: "PODS:\n  - ZIPFoundation (0.9.18)\n\nCOCOAPODS: 1.12.1\n"),
            ExampleFile(name: "App/ThemeInstaller.swift", content: """
            import ZIPFoundation

            func installTheme(from url: URL, into folder: URL) {
                URLSession.shared.downloadTask(with: url) { location, _, _ in
                    guard let location else { return }
                    try? FileManager.default.unzipItem(at: location, to: folder)
                }.resume()
            }
            """),
        ], triggers: false, note: "Podfile.lock locks ZIPFoundation 0.9.18, which checks every entry."),
        // The parse in one file, the delegate type's callbacks in another (`XMLDelegateUse`).
        RuleExample(files: [
            ExampleFile(name: "FeedLoader.swift", content: """
            final class FeedLoader {
                func refresh(from url: URL) {
                    URLSession.shared.dataTask(with: url) { data, _, _ in
                        guard let data else { return }
                        let parser = XMLParser(data: data)
                        parser.delegate = EnclosureParser()
                        parser.parse()
                    }.resume()
                }
            }
            """),
            ExampleFile(name: "EnclosureParser.swift", content: """
            final class EnclosureParser: NSObject, XMLParserDelegate {
                let folder = FileManager.default.temporaryDirectory
                func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                            qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
                    guard let name = attributeDict["file"] else { return }
                    try? ↓Data().write(to: folder.appendingPathComponent(name))
                }
            }
            """),
        ], triggers: true, note: "Another file parses a downloaded document with an EnclosureParser as the delegate."),
        RuleExample(files: [
            ExampleFile(name: "FeedLoader.swift", content: """
            final class FeedLoader {
                func loadStarter() throws {
                    let url = Bundle.main.url(forResource: "starter", withExtension: "xml")!
                    let parser = XMLParser(data: try Data(contentsOf: url))
                    parser.delegate = EnclosureParser()
                    parser.parse()
                }
            }
            """),
            ExampleFile(name: "EnclosureParser.swift", content: """
            final class EnclosureParser: NSObject, XMLParserDelegate {
                let folder = FileManager.default.temporaryDirectory
                func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                            qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
                    guard let name = attributeDict["file"] else { return }
                    try? Data().write(to: folder.appendingPathComponent(name))
                }
            }
            """),
        ], triggers: false, note: "Every parser given an EnclosureParser reads a document of the app's bundle."),
    ]

    /// A library's one-call extraction of an archive from outside, when the library does not check entries;
    /// for a library that checks them from some version on (`ArchiveLibraries`), only when a lock file of the
    /// project locks an older version.
    func reportExtraction(_ flow: TaintFlow, _ unit: SourceUnit, _ reported: inout Set<Int>, _ sink: inout FindingSink) {
        let file = unit.code
        guard let taint = flow.taints(.archive).first(where: { !$0.isInertString && $0.checks.isDisjoint(with: [.allowlisted, .validated]) }),
              let source = taint.source, !reported.contains(flow.range.start.offset) else { return }
        let folder = flow.arguments[.folder].map { "`\(CodeText.of($0, in: file))`" } ?? "its destination folder"
        let origin = DataflowReporting.capitalized(source.description)
        var message = "\(origin) is extracted by \(flow.calledName), which appends each entry name to \(folder) without checking that the result stays inside it: an entry named \"../…\" is written outside the folder (zip-slip)."
        var related = taint.relatedLocations(in: file)
        if let library = ArchiveLibraries.byAPI[flow.api] {
            guard let (lock, entry, version) = Self.lockedVersion(of: library, in: unit.dependencies),
                  let fixed = DependencyVersion(library.fixedIn), version < fixed else { return }
            let lockName = (lock.path as NSString).lastPathComponent
            message = "\(origin) is extracted by \(flow.calledName) of \(library.library) \(entry.version ?? "\(version)") (locked in \(lockName):\(entry.line)), which before \(library.fixedIn) does not keep entries inside \(folder) (\(library.advisory)): an entry named \"../…\" is written outside the folder (zip-slip). Update \(library.library) to \(library.fixedIn) or later."
            related.append(RelatedLocation(location: Location(path: lock.path, line: entry.line, column: 1),
                                           message: "\(library.library) locked at \(entry.version ?? "\(version)") by \(lock.manager.rawValue)"))
        }
        reported.insert(flow.range.start.offset)
        sink.report(message, in: file, at: flow.range, severity: .high,
                    confidence: Swift.min(Self.description.confidence, source.confidence), related: related)
    }

    /// The version of a library the nearest lock file that names it locks, when it is a release version.
    static func lockedVersion(of library: VersionedExtraction, in locks: [DependencyLock])
        -> (DependencyLock, DependencyLock.Entry, DependencyVersion)? {
        for lock in locks {
            guard let entry = library.names.lazy.compactMap({ lock.entry(named: $0) }).first else { continue }
            guard let text = entry.version, let version = DependencyVersion(text) else { return nil }
            return (lock, entry, version)
        }
        return nil
    }
}
