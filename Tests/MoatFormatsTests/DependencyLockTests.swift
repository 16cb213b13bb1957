import Foundation
import Testing
@testable import MoatFormats

/// Lock files of CocoaPods, SwiftPM (formats 1, 2 and 3) and Carthage, and which source files they cover.
struct DependencyLockTests {
    static func read(_ text: String, _ path: String) throws -> DependencyLock {
        try DependencyLock.read(data: Data(text.utf8), path: path)
    }

    @Test func podfileLockListsEachPodOnceWithItsLine() throws {
        let lock = try Self.read("""
        PODS:
          - "GoogleUtilities/Environment (7.10.0)":
            - PromisesObjC (< 3.0, >= 1.2)
          - SSZipArchive (2.1.1)
          - ZIPFoundation (0.9.11):
            - Foo (~> 1.0)

        DEPENDENCIES:
          - SSZipArchive (~> 2.1)

        SPEC REPOS:
          trunk:
            - SSZipArchive

        PODFILE CHECKSUM: 1234abcd

        COCOAPODS: 1.12.1
        """, "App/Podfile.lock")
        #expect(lock.manager == .cocoaPods)
        #expect(lock.entries.map { "\($0.name) \($0.version ?? "-") \($0.line)" }
                == ["GoogleUtilities 7.10.0 2", "SSZipArchive 2.1.1 4", "ZIPFoundation 0.9.11 5"])
    }

    @Test func packageResolvedInItsThreeFormats() throws {
        let v1 = try Self.read("""
        {
          "object": {
            "pins": [
              {
                "package": "ZIPFoundation",
                "repositoryURL": "https://github.com/weichsel/ZIPFoundation.git",
                "state": { "branch": null, "revision": "abc", "version": "0.9.17" }
              },
              {
                "package": "Kingfisher",
                "repositoryURL": "https://github.com/onevcat/Kingfisher.git",
                "state": { "branch": "master", "revision": "def", "version": null }
              }
            ]
          },
          "version": 1
        }
        """, "App.xcodeproj/project.xcworkspace/xcshareddata/swiftpm/Package.resolved")
        #expect(v1.entries.map { "\($0.name) \($0.version ?? "-") \($0.line)" } == ["ZIPFoundation 0.9.17 5", "Kingfisher - 10"])
        for format in [2, 3] {
            let lock = try Self.read("""
            {
              "originHash" : "0123",
              "pins" : [
                {
                  "identity" : "ziparchive",
                  "kind" : "remoteSourceControl",
                  "location" : "https://github.com/ZipArchive/ZipArchive.git",
                  "state" : { "revision" : "abc", "version" : "2.4.3" }
                }
              ],
              "version" : \(format)
            }
            """, "Package.resolved")
            #expect(lock.entries.map { "\($0.name) \($0.version ?? "-") \($0.line)" } == ["ZipArchive 2.4.3 5"])
            #expect(lock.entry(named: "ziparchive")?.version == "2.4.3")
        }
    }

    @Test func cartfileResolved() throws {
        let lock = try Self.read("""
        # resolved by Carthage
        github "weichsel/ZIPFoundation" "0.9.17"
        github "ZipArchive/ZipArchive" "v2.1.1"
        git "https://example.com/tools/Helpers.git" "1a2b3c4d"
        binary "https://example.com/Sdk.json" "3.0.0"
        """, "Cartfile.resolved")
        #expect(lock.entries.map { "\($0.name) \($0.version ?? "-") \($0.line)" }
                == ["ZIPFoundation 0.9.17 2", "ZipArchive v2.1.1 3", "Helpers - 4", "Sdk 3.0.0 5"])
    }

    @Test func malformedLockFilesAreErrorsNamingTheLine() {
        let cases: [(String, String, String)] = [
            ("Podfile.lock", "PODS:\n  - ZIPFoundation\n", "malformed Podfile.lock at line 2"),
            ("Podfile.lock", "DEPENDENCIES:\n  - Foo\n", "malformed Podfile.lock: no `PODS:` section"),
            ("Package.resolved", "{ \"pins\": [ { \"identity\": ", "malformed Package.resolved"),
            ("Package.resolved", "{ \"version\": 2 }", "malformed Package.resolved: no `pins` list"),
            ("Cartfile.resolved", "github weichsel/ZIPFoundation 0.9.17\n", "malformed Cartfile.resolved at line 1"),
        ]
        for (path, text, message) in cases {
            do {
                _ = try Self.read(text, path)
                Issue.record("\(path) read: \(text)")
            } catch let error as DependencyLockError {
                #expect(error.message.hasPrefix(message), "\(error.message)")
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    @Test func versionsCompareNumberByNumber() throws {
        func version(_ text: String) throws -> DependencyVersion { try #require(DependencyVersion(text)) }
        #expect(try version("0.9.17") < version("0.9.18"))
        #expect(try version("0.9.9") < version("0.9.18"))
        #expect(try version("v2.1.1") < version("2.1.3"))
        #expect(try version("2.1.3-beta") < version("2.1.3"))
        #expect(try !(version("2.1.3") < version("2.1.3.0")))
        #expect(try version("2.2") > version("2.1.3"))
        #expect(DependencyVersion("master") == nil && DependencyVersion("1a2b3c4d") == nil && DependencyVersion("") == nil)
    }

    @Test func aLockCoversTheFolderOfItsProjectNearestFirst() throws {
        let root = try Self.read("PODS:\n  - ZIPFoundation (0.9.11)\n", "Podfile.lock")
        let app = try Self.read("github \"weichsel/ZIPFoundation\" \"0.9.19\"\n", "Apps/Reader/Cartfile.resolved")
        let project = try Self.read("{\"pins\": [{\"identity\": \"zipfoundation\", \"location\": \"https://github.com/weichsel/ZIPFoundation.git\", \"state\": {\"version\": \"0.9.18\"}}], \"version\": 2}",
                                    "Apps/Writer/Writer.xcodeproj/project.xcworkspace/xcshareddata/swiftpm/Package.resolved")
        let unrelated = try Self.read("PODS:\n  - Alamofire (5.0.0)\n", "Apps/Reader/Podfile.lock")
        let locks = DependencyLocks([root, app, project, unrelated])
        #expect(DependencyLocks.scope(of: project.path) == "Apps/Writer")
        #expect(locks.locks(covering: "Apps/Reader/Sources/Unzip.swift", libraries: ["ZIPFoundation"]).map(\.path)
                == ["Apps/Reader/Cartfile.resolved", "Podfile.lock"])
        #expect(locks.locks(covering: "Apps/Writer/Sources/Unzip.swift", libraries: ["ZIPFoundation"]).map(\.path)
                == [project.path, "Podfile.lock"])
        #expect(locks.locks(covering: "Apps/ReaderKit/Unzip.swift", libraries: ["ZIPFoundation"]).map(\.path) == ["Podfile.lock"])
        #expect(locks.locks(covering: "Apps/Reader/Sources/Unzip.swift", libraries: ["SSZipArchive"]).isEmpty)
    }
}
