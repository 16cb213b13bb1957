import Foundation
import Testing
import MoatTestSupport
import MoatCore
@testable import MoatScan

/// One-call extraction judged by the library version a lock file gives (issue 14 item 1): ZIPFoundation
/// `unzipItem` before 0.9.18 (CVE-2023-39138) and SSZipArchive before 2.1.3 are reported; a fixed version, a
/// branch or no lock file at all keep them quiet; a malformed lock file is an error and the scan goes on.
struct ArchiveLibraryVersionTests {
    static let installer = """
    import ZIPFoundation

    func installTheme(from url: URL, into folder: URL) {
        URLSession.shared.downloadTask(with: url) { location, _, _ in
            guard let location else { return }
            try? FileManager.default.unzipItem(at: location, to: folder)
        }.resume()
    }
    """
    static let objcInstaller = """
    #import <SSZipArchive/SSZipArchive.h>

    @implementation ThemeInstaller
    - (void)installFromURL:(NSURL *)url into:(NSString *)folder {
        [[[NSURLSession sharedSession] downloadTaskWithURL:url completionHandler:^(NSURL *location, NSURLResponse *response, NSError *error) {
            [SSZipArchive unzipFileAtPath:location.path toDestination:folder];
        }] resume];
    }
    @end
    """

    static func pods(_ version: String) -> String {
        "PODS:\n  - Alamofire (5.8.0)\n  - ZIPFoundation (\(version))\n\nCOCOAPODS: 1.12.1\n"
    }

    static func extractions(_ result: ScanResult) -> [Finding] {
        result.findings.filter { $0.ruleId == "MOAT-CODE-301" }
    }

    @Test func zipFoundationBeforeTheFixIsReportedWithTheVersionAndTheFix() throws {
        let tree = try TemporaryTree(["App/ThemeInstaller.swift": Self.installer, "Podfile.lock": Self.pods("0.9.17")])
        defer { tree.remove() }
        let result = try tree.scan()
        let findings = Self.extractions(result)
        #expect(findings.map { "\($0.location.path):\($0.location.line):\($0.location.column)" } == ["App/ThemeInstaller.swift:6:14"])
        let finding = try #require(findings.first)
        #expect(finding.severity == .high)
        #expect(finding.message.contains("is extracted by unzipItem(at:to:) of ZIPFoundation 0.9.17 (locked in Podfile.lock:3), which before 0.9.18 does not keep entries inside `folder` (CVE-2023-39138)"), "\(finding.message)")
        #expect(finding.message.hasSuffix("Update ZIPFoundation to 0.9.18 or later."))
        #expect(finding.related.contains { $0.location.path == "Podfile.lock" && $0.location.line == 3 && $0.message == "ZIPFoundation locked at 0.9.17 by CocoaPods" },
                "\(finding.related)")
        #expect(result.errors.isEmpty)
    }

    @Test func aFixedVersionABranchOrNoLockFileStaysQuiet() throws {
        for lock: [String: String] in [["Podfile.lock": Self.pods("0.9.18")], ["Podfile.lock": Self.pods("0.9.19")], [:],
                                       ["Cartfile.resolved": "github \"weichsel/ZIPFoundation\" \"1a2b3c4d5e\"\n"]] {
            let tree = try TemporaryTree(lock.merging(["App/ThemeInstaller.swift": Self.installer]) { $1 })
            defer { tree.remove() }
            #expect(Self.extractions(try tree.scan()).isEmpty, "\(lock)")
        }
    }

    @Test func aBundledArchiveStaysQuietWhateverTheVersion() throws {
        let tree = try TemporaryTree([
            "App/Starter.swift": """
            import ZIPFoundation

            func installStarter(into folder: URL) throws {
                let url = Bundle.main.url(forResource: "starter", withExtension: "zip")!
                try FileManager.default.unzipItem(at: url, to: folder)
            }
            """,
            "Podfile.lock": Self.pods("0.9.11"),
        ])
        defer { tree.remove() }
        #expect(Self.extractions(try tree.scan()).isEmpty)
    }

    @Test func ssZipArchiveLockedByXcodeInTheProject() throws {
        func resolved(_ version: String) -> String {
            """
            {
              "pins" : [
                {
                  "identity" : "ziparchive",
                  "kind" : "remoteSourceControl",
                  "location" : "https://github.com/ZipArchive/ZipArchive.git",
                  "state" : { "revision" : "0123", "version" : "\(version)" }
                }
              ],
              "version" : 2
            }
            """
        }
        let lockPath = "App.xcodeproj/project.xcworkspace/xcshareddata/swiftpm/Package.resolved"
        let old = try TemporaryTree(["App/ThemeInstaller.m": Self.objcInstaller, lockPath: resolved("2.1.1")])
        defer { old.remove() }
        let findings = Self.extractions(try old.scan())
        #expect(findings.map { "\($0.location.path):\($0.location.line)" } == ["App/ThemeInstaller.m:6"])
        #expect(findings.first?.message.contains("of SSZipArchive 2.1.1 (locked in Package.resolved:4), which before 2.1.3") == true,
                "\(findings.first?.message ?? "")")
        #expect(findings.first?.related.last?.location.path == lockPath)
        let fixed = try TemporaryTree(["App/ThemeInstaller.m": Self.objcInstaller, lockPath: resolved("2.1.3")])
        defer { fixed.remove() }
        #expect(Self.extractions(try fixed.scan()).isEmpty)
    }

    @Test func theNearestLockFileDecides() throws {
        let tree = try TemporaryTree([
            "Reader/ThemeInstaller.swift": Self.installer,
            "Reader/Cartfile.resolved": "github \"weichsel/ZIPFoundation\" \"0.9.19\"\n",
            "Writer/ThemeInstaller.swift": Self.installer,
            "Podfile.lock": Self.pods("0.9.16"),
        ])
        defer { tree.remove() }
        #expect(Self.extractions(try tree.scan()).map(\.location.path) == ["Writer/ThemeInstaller.swift"])
    }

    @Test func aMalformedLockFileIsAnErrorNamingItAndTheScanGoesOn() throws {
        let tree = try TemporaryTree([
            "App/ThemeInstaller.swift": Self.installer,
            "App/Quick.swift": """
            import Zip

            func quick(from url: URL) {
                URLSession.shared.downloadTask(with: url) { location, _, _ in
                    guard let location else { return }
                    _ = try? Zip.quickUnzipFile(location)
                }.resume()
            }
            """,
            "Podfile.lock": "PODS:\n  - ZIPFoundation\n",
        ])
        defer { tree.remove() }
        let result = try tree.scan()
        #expect(result.errors.map { "\($0.path): \($0.message)" }
                == ["Podfile.lock: malformed Podfile.lock at line 2: a pod without a version in parentheses"])
        #expect(Self.extractions(result).map(\.location.path) == ["App/Quick.swift"])
    }

    @Test func editingTheLockFileChangesTheCachedResult() throws {
        let tree = try TemporaryTree(["App/ThemeInstaller.swift": Self.installer, "Podfile.lock": Self.pods("0.9.18")])
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("moat-cache-\(UUID().uuidString)")
        defer { tree.remove(); try? FileManager.default.removeItem(at: cache) }
        #expect(Self.extractions(try tree.scan { $0.cacheDirectory = cache }).isEmpty)
        try Data(Self.pods("0.9.17").utf8).write(to: tree.root.appendingPathComponent("Podfile.lock"))
        #expect(Self.extractions(try tree.scan { $0.cacheDirectory = cache }).count == 1)
        #expect(Self.extractions(try tree.scan { $0.cacheDirectory = cache; $0.jobs = 1 }).count == 1)
    }
}
