import Foundation
import Testing
@testable import MoatFormats

struct YAMLSubsetTests {
    @Test func readsMappingsSequencesScalarsAndLines() {
        let text = """
        # a comment
        name: Riot   # trailing comment
        options:
          defaultConfig: Release
        include:
          - path: Riot/target.yml
          - Other/target.yml
        targets:
          Riot:
            type: application
            sources:
            - path: ../Modules
              excludes:
              - "**/Test/**"
              - 'Common/Locale.swift'
            - path: .
            preBuildScripts:
            - name: Lint
              script: |
                if [ x ]; then
                  echo "key: value"
                fi
            platform: iOS
        flow: [a, "b c", d]
        map: {x: 1, y: two}
        """
        let root = YAMLSubset.parse(text)
        #expect(root["name"]?.string == "Riot")
        #expect(root["options"]?["defaultConfig"]?.string == "Release")
        #expect(root["include"]?.list?.count == 2)
        #expect(root["include"]?.list?.first?["path"]?.string == "Riot/target.yml")
        #expect(root["include"]?.list?.last?.string == "Other/target.yml")
        let riot = root["targets"]?["Riot"]
        #expect(riot?["type"]?.string == "application")
        #expect(riot?["platform"]?.string == "iOS", "the block scalar's lines are skipped, the next key is read")
        let sources = riot?["sources"]?.list ?? []
        #expect(sources.count == 2)
        #expect(sources.first?["path"]?.string == "../Modules")
        #expect(sources.first?["excludes"]?.list?.compactMap(\.string) == ["**/Test/**", "Common/Locale.swift"])
        #expect(sources.last?["path"]?.string == ".")
        #expect(riot?["preBuildScripts"]?.list?.first?["name"]?.string == "Lint")
        #expect(root["flow"]?.list?.compactMap(\.string) == ["a", "b c", "d"])
        #expect(root["map"]?["y"]?.string == "two")
        #expect(root.entries?.first { $0.key == "targets" }?.line == 8)
        #expect(root["targets"]?.entries?.first?.line == 9)
    }

    @Test func neverFailsOnTextItCannotRead() {
        for text in ["", "---\n", "- a\n- b\n", "key\n  - : :\n\t- x", "a: [unclosed\n", String(repeating: "  ", count: 200) + "a: b",
                     (0..<200).map { String(repeating: " ", count: $0) + "k\($0):" }.joined(separator: "\n")] {
            _ = YAMLSubset.parse(text)
        }
    }
}

struct PathGlobTests {
    @Test func matchesXcodeGenExcludes() {
        #expect(PathGlob.matchesPathOrAncestor("**/MatrixSDK/**", "Room/Recorder/MatrixSDK/Service.swift"))
        #expect(PathGlob.matchesPathOrAncestor("**/MatrixSDK/**", "MatrixSDK/Service.swift"))
        #expect(!PathGlob.matchesPathOrAncestor("**/MatrixSDK/**", "Room/Recorder/View/Service.swift"))
        #expect(PathGlob.matchesPathOrAncestor("Logs", "Logs/a/b.swift"))
        #expect(PathGlob.matchesPathOrAncestor("Templates/*.sh", "Templates/run.sh"))
        #expect(!PathGlob.matchesPathOrAncestor("Templates/*.sh", "Templates/run.swift"))
        #expect(PathGlob.matchesPathOrAncestor("**/*.md", "a/b/README.md"))
        #expect(PathGlob.matchesPathOrAncestor("Common/Locale/LocaleProvider.swift", "Common/Locale/LocaleProvider.swift"))
        #expect(!PathGlob.matchesPathOrAncestor("Common/Locale/LocaleProvider.swift", "Common/Locale/LocaleProviderType.swift"))
    }
}

struct XcodeGenSpecTests {
    /// Writes files under a fresh temporary folder and returns it.
    static func tree(_ files: [String: String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("moat-xcodegen-\(UUID().uuidString)")
        for (name, content) in files {
            let url = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(content.utf8).write(to: url)
        }
        return root
    }

    static let files: [String: String] = [
        "project.yml": """
        name: Chat
        configs:
          Debug: debug
          Release: release
        include:
          - path: App/target.yml
          - path: Showcase/target.yml
          - path: ../outside.yml
        """,
        "App/target.yml": """
        targets:
          Chat:
            type: application
            platform: iOS
            configFiles:
              Debug: Debug.xcconfig
              Release: Debug.xcconfig
            sources:
            - path: ../Showcase/Modules
              excludes:
              - "**/Test/**"
            - path: .
            dependencies:
            - package: PostHog
            - target: Widgets
        """,
        "App/Debug.xcconfig": "#include \"Common.xcconfig\"\n",
        "App/Common.xcconfig": "INFOPLIST_FILE = App/Info.plist\nPRODUCT_BUNDLE_IDENTIFIER = org.example.chat\n",
        "App/AppDelegate.swift": "class AppDelegate {}\n",
        "App/Info.plist": "<plist/>",
        "Showcase/target.yml": """
        targets:
          Showcase:
            type: application
            platform: iOS
            info:
              path: Info.plist
            sources:
            - path: .
              excludes:
              - "**/Service/**"
              - "**/Test/**"
            - path: ../App/AppDelegate.swift
          Widgets:
            type: framework
            sources: [Widgets]
        """,
        "Showcase/Info.plist": "<plist/>",
        "Showcase/Modules/Voice/Service/Recorder.swift": "import AVFoundation\n",
        "Showcase/Modules/Voice/View/RecorderView.swift": "struct RecorderView {}\n",
        "Showcase/Modules/Voice/Test/RecorderTests.swift": "struct RecorderTests {}\n",
        "Showcase/Widgets/Widget.swift": "struct Widget {}\n",
    ]

    @Test func readsTargetsSourcesAndInfoPlistsAsTheGeneratedProjectWould() throws {
        let root = try Self.tree(Self.files)
        defer { try? FileManager.default.removeItem(at: root) }
        let url = root.appendingPathComponent("project.yml")
        let project = try #require(try XcodeGenSpec.load(data: try Data(contentsOf: url), url: url, path: "Chat/project.yml"))
        #expect(project.isXcodeGenSpec)
        #expect(project.projectDirectory == "Chat")
        #expect(project.projectName == "Chat")
        #expect(project.targets.map(\.name) == ["Chat", "Showcase", "Widgets"])
        #expect(project.warnings.contains("included spec '../outside.yml' is outside the project folder and was not read"))
        let chat = try #require(project.targets.first { $0.name == "Chat" })
        #expect(chat.productType == "com.apple.product-type.application")
        #expect(chat.isAppOrExtension)
        #expect(chat.specPath == "App/target.yml")
        #expect(chat.line == 2)
        #expect(chat.thirdPartyDependencies == ["PostHog"])
        #expect(chat.dependencyTargetIds == ["Widgets"])
        #expect(chat.configurations.map(\.name) == ["Debug", "Release"])
        // The app compiles the showcase's service (not its tests) and its own folder.
        #expect(chat.contains("Showcase/Modules/Voice/Service/Recorder.swift"))
        #expect(!chat.contains("Showcase/Modules/Voice/Test/RecorderTests.swift"))
        #expect(chat.contains("App/AppDelegate.swift"))
        #expect(!chat.contains("Showcase/Widgets/Widget.swift"))
        // INFOPLIST_FILE comes from the configFiles' xcconfig (and its include), relative to the project folder.
        let settings = project.resolvedSettings(of: chat, configuration: "Release")
        #expect(settings["INFOPLIST_FILE"]?.value == "App/Info.plist")
        #expect(settings["INFOPLIST_FILE"]?.origin == .configurationFile(path: "App/Common.xcconfig"))
        #expect(settings["SDKROOT"]?.value == "iphoneos")
        let showcase = try #require(project.targets.first { $0.name == "Showcase" })
        #expect(!showcase.contains("Showcase/Modules/Voice/Service/Recorder.swift"))
        #expect(showcase.contains("Showcase/Modules/Voice/View/RecorderView.swift"))
        #expect(showcase.sourceFiles == ["App/AppDelegate.swift"])
        let showcaseSettings = project.resolvedSettings(of: showcase, configuration: "Debug")
        #expect(showcaseSettings["INFOPLIST_FILE"]?.value == "Showcase/Info.plist")
        #expect(showcaseSettings["INFOPLIST_FILE"]?.setting.line == 6)
        #expect(project.targets.first { $0.name == "Widgets" }?.isAppOrExtension == false)
    }

    @Test func aSpecBesideItsGeneratedProjectOrOfAnotherToolIsNotRead() throws {
        var files = Self.files
        files["Chat.xcodeproj/project.pbxproj"] = "// !$*UTF8*$!\n{}"
        let root = try Self.tree(files)
        defer { try? FileManager.default.removeItem(at: root) }
        let url = root.appendingPathComponent("project.yml")
        #expect(try XcodeGenSpec.load(data: try Data(contentsOf: url), url: url, path: "project.yml") == nil)
        let other = try Self.tree(["project.yml": "version: 2\nservices:\n  web: {}\n"])
        defer { try? FileManager.default.removeItem(at: other) }
        let otherURL = other.appendingPathComponent("project.yml")
        #expect(try XcodeGenSpec.load(data: try Data(contentsOf: otherURL), url: otherURL, path: "project.yml") == nil)
    }
}
