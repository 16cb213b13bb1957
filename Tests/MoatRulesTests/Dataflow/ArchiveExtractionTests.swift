import Testing
import MoatCore
import MoatSyntax
@testable import MoatRules

private typealias Support = DataflowTestSupport

/// Zip-slip (issue 14): entry names of an archive from outside reach file paths without a containment check.
struct ArchiveExtractionTests {
    @Test func anEntryNameOfADownloadedArchiveIsReportedWhereItIsWritten() throws {
        let findings = Support.findings(PathTraversalRule.self, """
        import ZIPFoundation
        func install(from url: URL, into folder: URL) {
            URLSession.shared.downloadTask(with: url) { location, _, _ in
                guard let location, let archive = Archive(url: location, accessMode: .read) else { return }
                for entry in archive {
                    let target = folder.appendingPathComponent(entry.path)
                    _ = try? archive.extract(entry, to: target)
                    try? Data().write(to: folder.appendingPathComponent(entry.path))
                }
            }.resume()
        }
        """)
        #expect(findings.map(\.location.line) == [7, 8])
        let first = try #require(findings.first)
        #expect(first.severity == .high)
        #expect(first.message == "An archive entry name, read from the file a URLSession download task saved, is used in the path `target` of extract(_:to:) without a containment check: nothing checks that the joined path stays inside the destination folder (standardize it, then check that it starts with the folder's path), so an entry named \"../…\" is written outside it (zip-slip).")
        #expect(first.related.contains { $0.message.hasPrefix("entry name read from the archive with entry.path") })
    }

    @Test func aContainmentCheckABundledArchiveOrAnUnknownArchiveStayQuiet() {
        let findings = Support.findings(PathTraversalRule.self, """
        import ZIPFoundation
        func install(from url: URL, into folder: URL) {
            URLSession.shared.downloadTask(with: url) { location, _, _ in
                guard let location, let archive = Archive(url: location, accessMode: .read) else { return }
                for entry in archive {
                    let target = folder.appendingPathComponent(entry.path).standardizedFileURL
                    guard target.path.hasPrefix(folder.standardizedFileURL.path + "/") else { continue }
                    _ = try? archive.extract(entry, to: target)
                }
                for entry in archive {
                    let target = folder.appendingPathComponent(entry.path)
                    guard target.isContained(in: folder) else { continue }
                    _ = try? archive.extract(entry, to: target)
                }
            }.resume()
        }
        func installStarterKit(into folder: URL) throws {
            guard let url = Bundle.main.url(forResource: "starter", withExtension: "zip"),
                  let archive = Archive(url: url, accessMode: .read) else { return }
            for entry in archive { _ = try archive.extract(entry, to: folder.appendingPathComponent(entry.path)) }
        }
        func unpack(_ archive: Archive, into folder: URL) throws {
            for entry in archive { _ = try archive.extract(entry, to: folder.appendingPathComponent(entry.path)) }
        }
        """)
        #expect(findings.isEmpty)
    }

    @Test func aCallerThatPassesAnOutsideArchiveMakesTheHelperAFlow() throws {
        let findings = Support.findings(PathTraversalRule.self, """
        import ZIPFoundation
        func unpack(_ url: URL, into folder: URL) throws {
            guard let archive = Archive(url: url, accessMode: .read) else { return }
            for entry in archive { _ = try archive.extract(entry, to: folder.appendingPathComponent(entry.path)) }
        }
        func documentPicker(_ controller: UIDocumentPickerViewController, didPickDocumentsAt urls: [URL]) {
            try? unpack(urls[0], into: FileManager.default.temporaryDirectory)
        }
        """)
        #expect(findings.map(\.location.line) == [4])
        #expect(findings.first?.message.hasPrefix("An archive entry name, read from the documents picked in a UIDocumentPickerViewController,") == true)
    }

    @Test func minizipInSwiftAndFopen() {
        let findings = Support.findings(PathTraversalRule.self, """
        import Minizip
        func unzipReceived(_ data: Data, at path: String, to destination: URL, from peerID: String) {
            let zip = unzOpen64(path)
            var info = unz_file_info64()
            let fileName = UnsafeMutablePointer<CChar>.allocate(capacity: 512)
            unzGetCurrentFileInfo64(zip, &info, fileName, 512, nil, 0, nil, 0)
            let fullPath = destination.appendingPathComponent(String(cString: fileName)).path
            let file = fopen(fullPath, "wb")
            fclose(file)
        }
        """)
        #expect(findings.map(\.location.line) == [8])
    }

    @Test func oneCallExtractionIsReportedOnlyForLibrariesThatDoNotCheck() throws {
        let findings = Support.findings(PathTraversalRule.self, """
        import Zip
        import ZIPFoundation
        func installTheme(from url: URL, into folder: URL) {
            URLSession.shared.downloadTask(with: url) { location, _, _ in
                guard let location else { return }
                try? Zip.unzipFile(location, destination: folder, overwrite: true, password: nil)
                try? FileManager.default.unzipItem(at: location, to: folder)
                SSZipArchive.unzipFile(atPath: location.path, toDestination: folder.path)
            }.resume()
            let bundled = Bundle.main.url(forResource: "starter", withExtension: "zip")!
            try? Zip.unzipFile(bundled, destination: folder, overwrite: true, password: nil)
        }
        """)
        #expect(findings.map(\.location.line) == [6])
        let finding = try #require(findings.first)
        #expect(finding.severity == .high)
        #expect(finding.message == "The file a URLSession download task saved is extracted by unzipFile(_:destination:overwrite:password:), which appends each entry name to `folder` without checking that the result stays inside it: an entry named \"../…\" is written outside the folder (zip-slip).")
    }

    @Test func objectiveCReadersOfEntryNames() {
        let findings = Support.findings(PathTraversalRule.self, """
        @implementation Importer
        - (void)importArchive:(NSURL *)url {
            NSData *data = [NSData dataWithContentsOfURL:url];
            ZZArchive *archive = [ZZArchive archiveWithData:data error:nil];
            for (ZZArchiveEntry *item in archive.entries) {
                NSString *path = [self.folder stringByAppendingPathComponent:item.fileName];
                [[item newDataWithError:nil] writeToFile:path atomically:YES];
            }
        }
        @end
        """, name: "Importer.m")
        #expect(findings.map(\.location.line) == [7])
    }
}

/// Decoders keep what they read (issue 14 item 1): remote data decoded is remote.
struct DecoderTransferTests {
    @Test func decodedRemoteDataStaysRemote() {
        let flows = Support.flows("""
        struct Manifest: Decodable { let name: String }
        func sync(folder: URL) async throws {
            let (data, _) = try await URLSession.shared.data(from: URL(string: "https://example.com/m")!)
            let manifest = try JSONDecoder().decode(Manifest.self, from: data)
            try Data().write(to: folder.appendingPathComponent(manifest.name))
            let object = try JSONSerialization.jsonObject(with: data) as? [String: String]
            try Data().write(to: folder.appendingPathComponent(object?["name"] ?? ""))
            let plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil) as? [String: String]
            try Data().write(to: folder.appendingPathComponent(plist?["name"] ?? ""))
            let decoded = try PropertyListDecoder().decode(Manifest.self, from: data)
            try Data().write(to: folder.appendingPathComponent(decoded.name))
            let local = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: Bundle.main.url(forResource: "m", withExtension: "json")!))
            try Data().write(to: folder.appendingPathComponent(local.name))
        }
        """, kind: .filePath)
        #expect(flows.map(\.range.start.line) == [5, 7, 9, 11])
        #expect(flows.allSatisfy { $0.taints(.path).first?.source?.kind.flow == .remote })
    }

    @Test func decodersAreTableEntriesThatPassTheirInputThrough() {
        let decoders = Transfers.resultIndex.rules.filter { $0.effect == .passesThrough }
        #expect(decoders.map(\.name) == ["JSON and property-list serialization read", "Codable decoder"])
        #expect(decoders.allSatisfy { $0.precedence < (Transfers.results.map(\.precedence).min() ?? 0) })
    }
}

/// A download's suggested file name is the server's (issue 14 item 8).
struct SuggestedFilenameTests {
    @Test func suggestedFilenameInADownloadTaskAndInObjectiveC() {
        let swift = Support.findings(PathTraversalRule.self, """
        func fetch(_ url: URL, into folder: URL) {
            URLSession.shared.downloadTask(with: url) { location, response, _ in
                guard let location, let name = response?.suggestedFilename else { return }
                try? FileManager.default.moveItem(at: location, to: folder.appendingPathComponent(name))
            }.resume()
        }
        """)
        #expect(swift.map(\.location.line) == [4])
        #expect(swift.first?.message.hasPrefix("The file name a server suggested (URLResponse.suggestedFilename) reaches moveItem(at:to:)") == true)
        let objc = Support.findings(PathTraversalRule.self, """
        - (void)URLSession:(NSURLSession *)session downloadTask:(NSURLSessionDownloadTask *)task didFinishDownloadingToURL:(NSURL *)location {
            NSString *name = task.response.suggestedFilename;
            NSString *path = [self.folder stringByAppendingPathComponent:name];
            [[NSFileManager defaultManager] moveItemAtURL:location toURL:[NSURL fileURLWithPath:path] error:nil];
            NSString *other = [self.folder stringByAppendingPathComponent:[task.response suggestedFilename]];
            [[NSData data] writeToFile:other atomically:YES];
        }
        """, name: "Downloads.m")
        #expect(objc.map(\.location.line) == [4, 6])
    }

    @Test func theFileNameIdiomKeepsItQuiet() {
        let findings = Support.findings(PathTraversalRule.self, """
        func fetch(_ url: URL, into folder: URL) {
            URLSession.shared.downloadTask(with: url) { location, response, _ in
                guard let location, let suggested = response?.suggestedFilename else { return }
                let name = (suggested as NSString).lastPathComponent
                guard !name.isEmpty, name != ".", name != ".." else { return }
                try? FileManager.default.moveItem(at: location, to: folder.appendingPathComponent(name))
            }.resume()
        }
        """)
        #expect(findings.isEmpty)
    }
}
