import Foundation
import Testing
@testable import MoatFormats

/// The 1-based line of the only line of `text` that contains `needle` (an oracle independent of the reader).
func lineNumber(of needle: String, in text: String) -> Int {
    let lines = text.components(separatedBy: "\n")
    let matches = lines.indices.filter { lines[$0].contains(needle) }
    precondition(matches.count == 1, "fixture must contain '\(needle)' exactly once, found \(matches.count)")
    return matches[0] + 1
}

struct OpenStepReaderTests {
    @Test func readsKeysValuesAndPositions() throws {
        let text = """
        // !$*UTF8*$!
        {
        \tname = "Quoted \\"value\\"\\n";   /* comment */
        \tlist = (a, "b c", );
        \tdata = <0fbd 77>;
        \tnested = { key = value; };
        }
        """
        let root = try OpenStepReader.read(Data(text.utf8))
        #expect(root["name"]?.string == "Quoted \"value\"\n")
        #expect(root.entry("name")?.line == 3)
        #expect(root.entry("name")?.column == 2)
        #expect(root["list"]?.strings == ["a", "b c"])
        #expect(root.entry("list")?.line == 4)
        if case .data(let bytes) = root["data"]?.value {
            #expect(bytes == [0x0f, 0xbd, 0x77])
        } else {
            Issue.record("data value not read as data")
        }
        #expect(root["nested"]?["key"]?.string == "value")
        #expect(root["nested"]?.entry("key")?.line == 6)
    }

    @Test func bareStringsStopAtCommentsAndPunctuation() throws {
        let root = try OpenStepReader.read(Data("{ a = b/*c*/; d = e.f-g_$h/i; }".utf8))
        #expect(root["a"]?.string == "b")
        #expect(root["d"]?.string == "e.f-g_$h/i")
    }

    @Test(arguments: [
        ("{ a = b; ", "not closed"),
        ("{ a = \"b; }", "unterminated quoted string"),
        ("{ a = b }", "expected ';'"),
        ("{ a = (b c); }", "expected ',' or ')'"),
        ("{ /* never closed", "unterminated /* comment"),
        ("", "empty file"),
        ("{ a = b; } extra", "after the end"),
        ("{ a = <0g>; }", "invalid character in <data>"),
        ("{ = b; }", "expected a key"),
    ])
    func malformedTextIsAnErrorWithALine(text: String, expected: String) {
        do {
            _ = try OpenStepReader.read(Data(text.utf8))
            Issue.record("'\(text)' was accepted")
        } catch let error as OpenStepError {
            #expect(error.message.contains(expected), "message was: \(error.message)")
            #expect(error.line >= 1)
        } catch {
            Issue.record("unexpected error type \(error)")
        }
    }

    @Test func deepNestingIsRefusedNotACrash() {
        let text = String(repeating: "(", count: 5000) + String(repeating: ")", count: 5000)
        #expect(throws: OpenStepError.self) { try OpenStepReader.read(Data(text.utf8)) }
    }

    @Test func invalidUTF8AndControlBytesDoNotTrap() throws {
        var bytes = Array("{ a = \"".utf8)
        bytes += [0xFF, 0xFE, 0x00, 0xC3]
        bytes += Array("\"; b = \\u; }".utf8)
        // Bare `\u` is an ordinary string; the invalid bytes are replaced, not trapped on.
        let root = try OpenStepReader.read(Data(bytes))
        #expect(root["a"]?.string != nil)
        #expect(root["b"]?.string == "\\u")
    }
}

struct XcodeProjectTests {
    /// A temporary folder holding `Notes.xcodeproj/project.pbxproj` (the synchronized-folders fixture), for
    /// tests that put `.xcconfig` files beside it; the caller removes the folder.
    static func synchronizedProject() throws -> (directory: URL, pbxproj: URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("moat-xcconfig-\(UUID().uuidString)")
        let projectFolder = directory.appendingPathComponent("Notes.xcodeproj")
        try FileManager.default.createDirectory(at: projectFolder, withIntermediateDirectories: true)
        let pbxproj = projectFolder.appendingPathComponent("project.pbxproj")
        try Data(ProjectFixtures.synchronized.utf8).write(to: pbxproj)
        return (directory, pbxproj)
    }

    let text = ProjectFixtures.twoTargets

    func project() throws -> XcodeProject {
        try XcodeProject.parse(data: Data(text.utf8), path: "MyApp.xcodeproj/project.pbxproj")
    }

    @Test func readsAppAndExtensionTargets() throws {
        let project = try project()
        #expect(project.targets.map(\.name) == ["MyApp", "ShareExtension"])
        let app = try #require(project.targets.first)
        #expect(app.productType == "com.apple.product-type.application")
        #expect(app.isAppOrExtension && !app.isExtension)
        #expect(project.targets[1].isExtension)
        #expect(app.line == lineNumber(of: "T10000000000000000000001 /* MyApp */ = {", in: text))
        #expect(project.projectDirectory == "")
        #expect(project.projectName == "MyApp")
        #expect(project.defaultConfigurationName == "Release")
        #expect(project.packageReferences == ["https://github.com/Alamofire/Alamofire.git"])
    }

    @Test func resolvesSourceAndResourcePathsThroughGroups() throws {
        let project = try project()
        let app = try #require(project.targets.first)
        #expect(app.sourceFiles == ["MyApp/AppDelegate.swift", "MyApp/Scanner/ScannerViewController.swift", "Shared/Shared.swift"])
        #expect(app.resourceFiles == ["MyApp/Base.lproj/Main.storyboard", "MyApp/PrivacyInfo.xcprivacy"])
        #expect(project.targets[1].sourceFiles == ["ShareExtension/ShareViewController.swift", "Shared/Shared.swift"])
        #expect(app.contains("Shared/Shared.swift"))
        #expect(!app.contains("ShareExtension/ShareViewController.swift"))
    }

    @Test func recordsThirdPartyCodeAndDependencies() throws {
        let project = try project()
        let app = try #require(project.targets.first)
        // The SDK framework is not third-party; the package appears once.
        #expect(app.thirdPartyDependencies == ["Alamofire"])
        #expect(app.dependencyTargetIds == ["T10000000000000000000002"])
    }

    /// A target id listed 1,000 times was built 1,000 times (12 s for 2.6 KB); the same for repeated phases,
    /// build files and configurations. Each id list is read once per id, in order.
    @Test func repeatedObjectIdsAreReadOnce() throws {
        func repeated(_ line: String, _ count: Int) -> String {
            String(repeating: line + "\n", count: count)
        }
        var hostile = text
        for (line, count) in [
            ("\t\t\t\tT10000000000000000000001 /* MyApp */,", 1_000),
            ("\t\t\t\tC10000000000000000000002 /* Sources */,", 300),
            ("\t\t\t\tB10000000000000000000001 /* AppDelegate.swift in Sources */,", 300),
            ("\t\t\t\tE10000000000000000000002 /* Release */,", 300),
        ] {
            let once = line + "\n"
            #expect(hostile.contains(once))
            hostile = hostile.replacingOccurrences(of: once, with: repeated(line, count))
        }
        let project = try XcodeProject.parse(data: Data(hostile.utf8), path: "MyApp.xcodeproj/project.pbxproj")
        let normal = try self.project()
        #expect(project.targets.map(\.name) == ["MyApp", "ShareExtension"])
        #expect(project.targets.map(\.sourceFiles) == normal.targets.map(\.sourceFiles))
        #expect(project.targets.map(\.resourceFiles) == normal.targets.map(\.resourceFiles))
        #expect(project.targets.map { $0.configurations.map(\.name) } == normal.targets.map { $0.configurations.map(\.name) })
        #expect(project.projectConfigurations.map(\.name) == normal.projectConfigurations.map(\.name))
        #expect(uniqueIds(try OpenStepReader.read(Data("(b, a, b, c, a)".utf8))) == ["b", "a", "c"])
    }

    /// 8,000 `$(` without a `)`: each looked for one through the rest of the value (36 s). A missing
    /// closer is looked for once.
    @Test func unclosedReferencesAreLookedAtOnce() {
        let unclosed = String(repeating: "$(", count: 8_000)
        let values = ["A": "x", "B": "y"]
        #expect(XcodeProject.expand("$(A)-" + unclosed + "${B}", depth: 0) { values[$0] } == "x-" + unclosed + "y")
        #expect(XcodeProject.expand(unclosed + "$(A", depth: 0) { values[$0] } == unclosed + "$(A")
        // The first `$(` reaches the only `)`, and what it names is unknown: copied as it is.
        #expect(XcodeProject.expand("${A" + unclosed + "$(B)", depth: 0) { values[$0] } == "${A" + unclosed + "$(B)")
    }

    @Test func readsBuildSettingsWithTheirLines() throws {
        let project = try project()
        let app = try #require(project.targets.first)
        #expect(app.configurations.map(\.name) == ["Debug", "Release"])
        let release = try #require(app.configurations.last)
        let camera = try #require(release.settings["INFOPLIST_KEY_NSCameraUsageDescription"])
        #expect(camera.value == "Scan a receipt so it can be attached to your expense report.")
        #expect(camera.line == lineNumber(of: "INFOPLIST_KEY_NSCameraUsageDescription = \"Scan", in: text))
        #expect(camera.column == 5)
        let debug = try #require(app.configurations.first)
        #expect(debug.settings["INFOPLIST_KEY_NSCameraUsageDescription"]?.line == lineNumber(of: "= \"We need the camera\"", in: text))
        #expect(debug.settings["CODE_SIGN_ENTITLEMENTS"]?.value == "MyApp/MyApp.entitlements")
        #expect(release.settings["GENERATE_INFOPLIST_FILE"]?.bool == true)
        let projectDebug = try #require(project.projectConfigurations.first)
        #expect(projectDebug.settings["GCC_PREPROCESSOR_DEFINITIONS"]?.values == ["DEBUG=1", "$(inherited)"])
    }

    @Test func targetsInheritProjectSettingsPerConfiguration() throws {
        let project = try project()
        let app = try #require(project.targets.first)
        let release = project.resolvedSettings(of: app, configuration: "Release")
        let microphone = try #require(release["INFOPLIST_KEY_NSMicrophoneUsageDescription"])
        #expect(microphone.origin == .project(configuration: "Release"))
        #expect(microphone.setting.line == lineNumber(of: "INFOPLIST_KEY_NSMicrophoneUsageDescription", in: text))
        #expect(release["INFOPLIST_KEY_NSCameraUsageDescription"]?.origin == .target(configuration: "Release"))
        #expect(XcodeProject.keyPath(target: "MyApp", origin: .target(configuration: "Release"), name: "INFOPLIST_KEY_NSCameraUsageDescription")
                == "targets.MyApp.buildSettings[Release].INFOPLIST_KEY_NSCameraUsageDescription")
        // Debug has no microphone key at either level.
        #expect(project.resolvedSettings(of: app, configuration: "Debug")["INFOPLIST_KEY_NSMicrophoneUsageDescription"] == nil)
        #expect(project.expand("$(PRODUCT_NAME).app", target: app, settings: release) == "MyApp.app")
        #expect(project.expand("$(UNKNOWN_SETTING)/x", target: app, settings: release) == "$(UNKNOWN_SETTING)/x")
    }

    @Test func synchronizedFoldersAndConfigurationFiles() throws {
        let (directory, pbxproj) = try Self.synchronizedProject()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("// Shared\n#include? \"Missing.xcconfig\"\nOTHER_SWIFT_FLAGS = -DBASE\nSWIFT_VERSION = 5.0\nFLAG[sdk=iphoneos*] = YES\n".utf8)
            .write(to: directory.appendingPathComponent("Config.xcconfig"))

        let project = try XcodeProject.load(fileAt: pbxproj, path: "ios/Notes.xcodeproj/project.pbxproj")
        #expect(project.projectDirectory == "ios")
        #expect(project.targets.map(\.name) == ["Notes", "Widget", "NotesTests"])
        #expect(project.targets.map(\.isAppOrExtension) == [true, true, false])
        let notes = project.targets[0], widget = project.targets[1]
        #expect(notes.contains("Notes/ContentView.swift"))
        #expect(!notes.contains("Widget/Provider.swift"))
        #expect(widget.contains("Widget/Provider.swift"))
        #expect(!widget.contains("Widget/Info.plist"))
        #expect(!widget.contains("Widget/Legacy/Old.swift"))
        // An exception set of the Notes folder naming the Widget target, which does not own the folder, adds
        // those files to the Widget; the folder's own target keeps them.
        #expect(widget.contains("Notes/PrivacyInfo.xcprivacy"))
        #expect(widget.contains("Notes/Shared/Model.swift"))
        #expect(!widget.contains("Notes/ContentView.swift"))
        #expect(!widget.contains("Notes/PrivacyInfo.xcprivacy.bak"))
        #expect(notes.contains("Notes/PrivacyInfo.xcprivacy"))
        #expect(notes.contains("Notes/Shared/Model.swift"))
        #expect(project.displayPath("Notes/ContentView.swift") == "ios/Notes/ContentView.swift")
        #expect(project.projectRelativePath("ios/Notes/ContentView.swift") == "Notes/ContentView.swift")

        let settings = project.resolvedSettings(of: notes, configuration: "Release")
        #expect(settings["OTHER_SWIFT_FLAGS"]?.value == "-DBASE -DPROJECT")
        #expect(settings["SWIFT_VERSION"]?.origin == .configurationFile(path: "Config.xcconfig"))
        #expect(settings["SWIFT_VERSION"]?.setting.line == 4)
        #expect(settings["FLAG"] == nil, "conditional assignments apply only to some builds")
        #expect(project.isComplete(project.projectConfigurations[0]))
        #expect(project.warnings.isEmpty, "an optional include that is missing is not a problem: \(project.warnings)")
        let bundleId = try #require(settings["PRODUCT_BUNDLE_IDENTIFIER"])
        #expect(project.expand(bundleId.value, target: notes, settings: settings) == "com.example.Notes-Pro")
    }

    @Test func missingConfigurationFileMakesSettingsIncomplete() throws {
        let (directory, pbxproj) = try Self.synchronizedProject()
        defer { try? FileManager.default.removeItem(at: directory) }
        let project = try XcodeProject.load(fileAt: pbxproj, path: "Notes.xcodeproj/project.pbxproj")
        #expect(!project.isComplete(project.projectConfigurations[0]))
        #expect(project.warnings == ["cannot read configuration file 'Config.xcconfig'"])
    }

    /// Six `#include` lines of the file itself (and two files including each other six times) cost 6^9
    /// flattenings before each file and depth was flattened once (45 s for 132 bytes).
    @Test func repeatedAndCyclicIncludesAreFlattenedOnce() throws {
        let (directory, pbxproj) = try Self.synchronizedProject()
        defer { try? FileManager.default.removeItem(at: directory) }
        let selfIncludes = String(repeating: "#include \"Config.xcconfig\"\n", count: 6)
        try Data((selfIncludes + "#include \"A.xcconfig\"\nOTHER_SWIFT_FLAGS = -DBASE\n").utf8)
            .write(to: directory.appendingPathComponent("Config.xcconfig"))
        let includesB = String(repeating: "#include \"B.xcconfig\"\n", count: 6)
        let includesA = String(repeating: "#include \"A.xcconfig\"\n", count: 6)
        try Data((includesB + "SWIFT_VERSION = 5.0\nOTHER_SWIFT_FLAGS = -DA\n").utf8).write(to: directory.appendingPathComponent("A.xcconfig"))
        try Data((includesA + "SWIFT_VERSION = 6.0\nTOOL = b\n").utf8).write(to: directory.appendingPathComponent("B.xcconfig"))

        let project = try XcodeProject.load(fileAt: pbxproj, path: "Notes.xcodeproj/project.pbxproj")
        let settings = project.resolvedSettings(of: project.targets[0], configuration: "Release")
        // Later assignments win: a file's own lines over what it includes.
        #expect(settings["OTHER_SWIFT_FLAGS"]?.value == "-DBASE -DPROJECT")
        #expect(settings["OTHER_SWIFT_FLAGS"]?.origin == .project(configuration: "Release"))
        #expect(settings["SWIFT_VERSION"]?.value == "5.0")
        #expect(settings["SWIFT_VERSION"]?.origin == .configurationFile(path: "A.xcconfig"))
        #expect(settings["TOOL"]?.value == "b")
        #expect(settings["TOOL"]?.origin == .configurationFile(path: "B.xcconfig"))
    }

    @Test func truncatedProjectIsAnErrorNamingTheLine() {
        let lines = text.components(separatedBy: "\n")
        let truncated = lines.prefix(150).joined(separator: "\n")
        do {
            _ = try XcodeProject.parse(data: Data(truncated.utf8), path: "MyApp.xcodeproj/project.pbxproj")
            Issue.record("truncated project accepted")
        } catch let error as XcodeProjectError {
            #expect(error.message == "malformed project file at line 150: unexpected end of file: dictionary opened at line \(lineNumber(of: "R10000000000000000000001 /* Project object */ = {", in: text)) is not closed")
        } catch {
            Issue.record("unexpected error \(error)")
        }
        // Cut anywhere (inside a string, a comment, a key): always an error, never a trap.
        for length in stride(from: 1, to: text.utf8.count, by: 97) {
            let prefix = Data(text.utf8.prefix(length))
            #expect(throws: XcodeProjectError.self) { try XcodeProject.parse(data: prefix, path: "p") }
        }
    }

    @Test(arguments: [
        ("( a, b )", "the root is not a dictionary"),
        ("{ archiveVersion = 1; }", "no 'objects' dictionary"),
        ("{ objects = { }; rootObject = R; }", "'rootObject' does not name a PBXProject"),
        ("bplist00", "not in the OpenStep text format"),
    ])
    func structurallyWrongProjectsAreErrors(text: String, expected: String) {
        do {
            _ = try XcodeProject.parse(data: Data(text.utf8), path: "X.xcodeproj/project.pbxproj")
            Issue.record("accepted")
        } catch let error as XcodeProjectError {
            #expect(error.message.contains(expected), "\(error.message)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func cyclicGroupsDoNotHang() throws {
        let text = """
        { objects = {
            G1 = { isa = PBXGroup; children = (G2); path = a; };
            G2 = { isa = PBXGroup; children = (G1, F1); path = b; };
            F1 = { isa = PBXFileReference; path = x.swift; sourceTree = "<group>"; };
            B1 = { isa = PBXBuildFile; fileRef = F1; };
            P1 = { isa = PBXSourcesBuildPhase; files = (B1); };
            T1 = { isa = PBXNativeTarget; name = App; buildPhases = (P1); productType = "com.apple.product-type.application"; };
            R = { isa = PBXProject; mainGroup = G1; targets = (T1); };
          }; rootObject = R; }
        """
        let project = try XcodeProject.parse(data: Data(text.utf8), path: "X.xcodeproj/project.pbxproj")
        #expect(project.targets.first?.sourceFiles.isEmpty == true, "a file in a group cycle has no path")
    }

    @Test func normalizesPaths() {
        #expect(XcodeProject.normalize("a/./b/../c") == "a/c")
        #expect(XcodeProject.normalize("../Shared/x.swift") == "../Shared/x.swift")
        #expect(XcodeProject.normalize("ios/../Shared//x.swift") == "Shared/x.swift")
    }
}
