import Foundation
import Testing
@testable import MoatCore
@testable import MoatScan
@testable import MoatRules

/// Shipping versus non-shipping code (issue 15.5), one decision one finding (15.3), findings that do not
/// depend on the folder scanned (15.6).
struct ShippingScopeTests {
    static let unarchive = "let x = NSKeyedUnarchiver.unarchiveObject(with: data)"

    @Test func pathsAreClassifiedByOneDefinition() {
        let cases: [(String, NonShippingReason?)] = [
            ("AppTests/LoginTests.swift", .test), ("App/Specs/A.swift", .test), ("Specs/A.swift", .test),
            ("App/LoginSpec.swift", .test), ("Tests/A.swift", .test), ("AppUITests/A.swift", .test),
            ("App/Mocks/Session.swift", .mock), ("App/MockURLSession.swift", .mock), ("App/SessionMock.swift", .mock),
            ("App/Fixtures/user.plist", .fixture), ("App/Preview Content/Sample.swift", .preview),
            ("App/Mockingbird.swift", nil), ("App/Contests/A.swift", nil), ("App/Login.swift", nil),
            ("App/Latest/A.swift", nil), ("App/ABTest.swift", nil), ("UITestsFoundation/Screens/Login.swift", .test),
            ("Networking/NetworkingTestSupport/Stub.swift", .test), ("App/UIText/A.swift", nil),
        ]
        for (path, reason) in cases {
            #expect(ShippingScope.reason(forPath: path) == reason, "\(path)")
        }
        #expect(Discovery.isTestPath("App/Specs/A.swift"))
        #expect(!Discovery.isTestPath("App/Mocks/A.swift"))
    }

    /// An ASCII path is read as bytes: the answers are the character-by-character ones.
    @Test func asciiPathsGetTheCharacterAnswers() {
        let folders = ["Tests", "tests", "TESTS", "Test", "Specs", "spec", "UITests", "UITestX", "UITes", "MyTestSupport",
                       "XTestHelpers", "Mocks", "MOCK", "Stubs", "fakes", "Fixtures", "fixture", "Preview Content",
                       "preview content", "Contests", "Latest", "A", ".", "..", "Mockingbird", "averyveryverylongfolder",
                       "Preview Contents", "Tests.bundle"]
        let names = ["LoginTests.swift", "LoginSpec.m", "ASpecs.h", "MockURL.swift", "Mockingbird.swift", "Mock.swift",
                     "SessionMock.swift", "XMocks.swift", ".hidden.swift", "..Tests.swift", "...", "Mocka.swift", "a.b.Tests",
                     "Mock", "MockA", "Tests", "Spec.", ".Spec", "Login.swift", "Mock\r\nA.swift"]
        var paths: [String] = names + ["", "/", "//", "a//b/Tests/", "/Tests", "Tests/"]
        for folder in folders {
            for name in names {
                paths += ["\(folder)/\(name)", "App/\(folder)/\(name)", "/\(folder)//x/\(name)", "\(folder)/\(folder)/\(name)"]
            }
        }
        var answers: [NonShippingReason?] = []
        for path in paths {
            let reason = ShippingScope.reason(forPath: path)
            #expect(reason == ShippingScope.characterReason(forPath: path), "\(path)")
            answers.append(reason)
        }
        // The cases cover every answer.
        #expect(Set(answers.compactMap { $0 }) == [.test, .mock, .fixture, .preview])
        #expect(answers.contains(nil))
        // A path that is not ASCII is read as characters.
        #expect(ShippingScope.reason(forPath: "Tést/\u{212A}Tests/A.swift") == .test)
        #expect(ShippingScope.reason(forPath: "App/MockÉcran.swift") == .mock)
    }

    @Test func swiftRegionsThatDoNotShipAreMarkedAndNeverFailTheScan() throws {
        let source = """
        func load(data: Data, configuration: Configuration) {
            \(Self.unarchive)
        #if DEBUG
            \(Self.unarchive)
        #else
            \(Self.unarchive)
        #endif
        #if targetEnvironment(simulator)
            \(Self.unarchive)
        #elseif !DEBUG
            \(Self.unarchive)
        #endif
        #if !DEBUG
            \(Self.unarchive)
        #else
            \(Self.unarchive)
        #endif
            if configuration == .debug {
                \(Self.unarchive)
            } else {
                \(Self.unarchive)
            }
        }
        struct Content_Previews: PreviewProvider {
            static var previews: some View {
                let x = NSKeyedUnarchiver.unarchiveObject(with: data)
            }
        }
        """
        let tree = try TemporaryTree(["App/Loader.swift": source])
        defer { tree.remove() }
        let result = try tree.scan()
        let byLine = Dictionary(uniqueKeysWithValues: result.findings.filter { $0.ruleId == "MOAT-CODE-001" }
            .map { ($0.location.line, $0.nonShippingReason) })
        #expect(byLine.count == 10)
        #expect(byLine[2] == .some(nil))
        #expect(byLine[4] == .debugOnly)
        #expect(byLine[6] == .some(nil), "the #else of #if DEBUG ships")
        #expect(byLine[9] == .simulatorOnly)
        #expect(byLine[11] == .some(nil))
        #expect(byLine[14] == .some(nil))
        #expect(byLine[16] == .debugOnly, "the #else of #if !DEBUG is debug-only")
        #expect(byLine[19] == .debugOnly)
        #expect(byLine[21] == .some(nil), "the else of a debug-configuration check ships")
        #expect(byLine[26] == .preview)
        let failing = result.findings(atOrAbove: .medium).map(\.location.line).sorted()
        #expect(failing == [2, 6, 11, 14, 21])
        let debug = result.findings.first { $0.location.line == 4 }
        #expect(debug?.isTestCode == false)
        #expect(debug?.isNonShipping == true)
    }

    @Test func previewMacroBodiesAreNotAnalyzed() throws {
        let tree = try TemporaryTree(["App/ContentView.swift": """
        #Preview {
            let x = NSKeyedUnarchiver.unarchiveObject(with: data)
            ContentView()
        }
        #Preview("Dark") { ContentView() }
        func load() { \(Self.unarchive) }
        """])
        defer { tree.remove() }
        #expect(try tree.scan().findings.map { "\($0.ruleId):\($0.location.line)" } == ["MOAT-CODE-001:6"])
    }

    @Test func objectiveCDebugBranchesDoNotShip() throws {
        let source = """
        - (void)load:(NSData *)data {
        #ifdef DEBUG
            id a = [NSKeyedUnarchiver unarchiveObjectWithData:data];
        #endif
        #ifndef DEBUG
            id b = [NSKeyedUnarchiver unarchiveObjectWithData:data];
        #else
            id c = [NSKeyedUnarchiver unarchiveObjectWithData:data];
        #endif
        #if defined(DEBUG) && DEBUG == 1 // local builds
            id d = [NSKeyedUnarchiver unarchiveObjectWithData:data];
        #endif
        #if TARGET_OS_SIMULATOR
            id e = [NSKeyedUnarchiver unarchiveObjectWithData:data];
        #endif
        /*
        #if DEBUG
        */
            id f = [NSKeyedUnarchiver unarchiveObjectWithData:data];
        }
        """
        let tree = try TemporaryTree(["App/Loader.m": source])
        defer { tree.remove() }
        let findings = try tree.scan().findings.filter { $0.ruleId == "MOAT-CODE-001" }
        let byLine = Dictionary(uniqueKeysWithValues: findings.map { ($0.location.line, $0.nonShippingReason) })
        #expect(byLine[3] == .debugOnly)
        #expect(byLine[6] == .some(nil))
        #expect(byLine[8] == .debugOnly)
        #expect(byLine[11] == .debugOnly)
        #expect(byLine[14] == .simulatorOnly)
        #expect(byLine[19] == .some(nil), "a directive inside a comment is not a directive")
    }

    @Test func mocksFixturesAndTestTargetsAreNonShippingFiles() throws {
        let tree = try TemporaryTree([
            "App/Mocks/Session.swift": Self.unarchive,
            "App/MockStore.swift": Self.unarchive,
            "App/Fixtures/Sample.swift": Self.unarchive,
            "App/Preview Content/Sample.swift": Self.unarchive,
            "App/Specs/LoginBehaviour.swift": Self.unarchive,
            "App/Store.swift": Self.unarchive,
        ])
        defer { tree.remove() }
        let result = try tree.scan()
        let reasons = Dictionary(uniqueKeysWithValues: result.findings.map { ($0.location.path, $0.nonShippingReason) })
        #expect(reasons["App/Mocks/Session.swift"] == .mock)
        #expect(reasons["App/MockStore.swift"] == .mock)
        #expect(reasons["App/Fixtures/Sample.swift"] == .fixture)
        #expect(reasons["App/Preview Content/Sample.swift"] == .preview)
        #expect(reasons["App/Specs/LoginBehaviour.swift"] == .test)
        #expect(reasons["App/Store.swift"] == .some(nil))
        #expect(result.findings(atOrAbove: .medium).map(\.location.path) == ["App/Store.swift"])
        #expect(result.nonShippingCounts().map { "\($0.reason.countLabel) \($0.count)" }
                == ["tests 1", "mocks 2", "fixtures 1", "previews 1"])
    }

    // MARK: One decision, one finding

    static func infoPlist(_ extra: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
            <key>CFBundleIdentifier</key>
            <string>com.example.app</string>
        \(extra)
            <key>NSAppTransportSecurity</key>
            <dict>
                <key>NSAllowsArbitraryLoads</key>
                <true/>
            </dict>
        </dict>
        </plist>
        """
    }

    @Test func oneConfigurationValueRepeatedAcrossBundlesIsOneFinding() throws {
        let extensionKeys = "    <key>NSExtension</key>\n    <dict><key>NSExtensionPointIdentifier</key><string>com.apple.share-services</string></dict>"
        let tree = try TemporaryTree([
            "App/Info.plist": Self.infoPlist(""),
            "Share/Info.plist": Self.infoPlist(extensionKeys),
            "Widget/Info.plist": Self.infoPlist(extensionKeys),
        ])
        defer { tree.remove() }
        let findings = try tree.scan().findings.filter { $0.ruleId == "MOAT-NET-001" }
        #expect(findings.count == 1)
        let finding = try #require(findings.first)
        #expect(finding.location.path == "App/Info.plist")
        #expect(finding.location.line == 9)
        #expect(finding.location.keyPath == "NSAppTransportSecurity.NSAllowsArbitraryLoads")
        #expect(finding.related.map(\.location.path) == ["Share/Info.plist", "Widget/Info.plist"])
        #expect(finding.related.map(\.location.line) == [10, 10])
        #expect(finding.related.first?.message == "Same value also set in Share/Info.plist (NSAppTransportSecurity.NSAllowsArbitraryLoads).")
        #expect(finding.message.hasSuffix(" The same value is set in 2 other places (related locations)."))
    }

    /// NET-001 findings as `path:line message | related path:line...`, paths relative to `folder`.
    static func groupedRows(_ result: ScanResult, under folder: String) -> [String] {
        let prefix = folder.isEmpty ? "" : folder + "/"
        func relative(_ path: String) -> String { String(path.dropFirst(prefix.count)) }
        return result.findings.filter { $0.ruleId == "MOAT-NET-001" && $0.location.path.hasPrefix(prefix) }.map { finding in
            let related = finding.related.map { "\(relative($0.location.path)):\($0.location.line)" }.joined(separator: " ")
            return "\(relative(finding.location.path)):\(finding.location.line) \(finding.message.replacingOccurrences(of: prefix, with: "")) | \(related)"
        }.sorted()
    }

    @Test func repeatedValuesAreGroupedPerAppNeverAcrossAppsScannedTogether() throws {
        let extensionKeys = "    <key>NSExtension</key>\n    <dict><key>NSExtensionPointIdentifier</key><string>com.apple.share-services</string></dict>"
        let appKeys = "    <key>UILaunchScreen</key>\n    <dict/>"
        let watchKeys = "    <key>WKApplication</key>\n    <true/>"
        // The extension and the watch app sort before the app: the finding still sits at the app's plist.
        let alpha = [
            "Main/Info.plist": Self.infoPlist(appKeys),
            "Extension/Info.plist": Self.infoPlist(extensionKeys),
            "AWatch/Info.plist": Self.infoPlist(watchKeys),
        ]
        let beta = ["Info.plist": Self.infoPlist(appKeys)]
        var both: [String: String] = [:]
        for (path, content) in alpha { both["Alpha/" + path] = content }
        for (path, content) in beta { both["Beta/" + path] = content }
        let together = try TemporaryTree(both)
        defer { together.remove() }
        let alphaAlone = try TemporaryTree(alpha)
        defer { alphaAlone.remove() }
        let betaAlone = try TemporaryTree(beta)
        defer { betaAlone.remove() }
        let result = try together.scan()
        let findings = result.findings.filter { $0.ruleId == "MOAT-NET-001" }
        #expect(findings.map(\.location.path).sorted() == ["Alpha/Main/Info.plist", "Beta/Info.plist"])
        let alphaFinding = try #require(findings.first { $0.location.path == "Alpha/Main/Info.plist" })
        #expect(alphaFinding.location.line == 10)
        #expect(alphaFinding.related.map(\.location.path) == ["Alpha/AWatch/Info.plist", "Alpha/Extension/Info.plist"])
        #expect(alphaFinding.related.map(\.location.line) == [10, 10])
        #expect(alphaFinding.message.hasSuffix(" The same value is set in 2 other places (related locations)."))
        let betaFinding = try #require(findings.first { $0.location.path == "Beta/Info.plist" })
        #expect(betaFinding.location.line == 10)
        #expect(betaFinding.related.isEmpty)
        #expect(!betaFinding.message.contains("other place"))
        // Each app alone: the same rows, paths relative to its folder.
        let alphaRows = Self.groupedRows(try alphaAlone.scan(), under: "")
        #expect(alphaRows.count == 1)
        #expect(alphaRows.first?.hasPrefix("Main/Info.plist:10 ") == true)
        #expect(alphaRows.first?.hasSuffix(" | AWatch/Info.plist:10 Extension/Info.plist:10") == true)
        #expect(Self.groupedRows(result, under: "Alpha") == alphaRows)
        let betaRows = Self.groupedRows(try betaAlone.scan(), under: "")
        #expect(betaRows.count == 1)
        #expect(Self.groupedRows(result, under: "Beta") == betaRows)
    }

    @Test func theApplicationTargetHoldsTheGroupedFindingAndOtherProjectsStayApart() {
        func finding(_ path: String, _ keyPath: String, line: Int) -> Finding {
            Finding(ruleId: "MOAT-PRIV-102", slug: "weak-purpose-string", title: "t", severity: .medium, confidence: .high,
                    message: "Weak purpose string.", location: Location(path: path, line: line, keyPath: keyPath),
                    cwe: [], masvs: [], mastg: [], fix: "f")
        }
        var places = AppPlaces()
        places.byPath["Casts.xcodeproj/project.pbxproj"] = AppPlaces.Place(app: "project:Casts", isMainApp: false)
        places.applicationTargets["Casts.xcodeproj/project.pbxproj"] = ["Casts"]
        places.byPath["Other.xcodeproj/project.pbxproj"] = AppPlaces.Place(app: "project:Other", isMainApp: false)
        places.applicationTargets["Other.xcodeproj/project.pbxproj"] = ["Other"]
        let key = "buildSettings[Release].INFOPLIST_KEY_NSCameraUsageDescription"
        let watch = finding("Casts.xcodeproj/project.pbxproj", "targets.Casts Watch App.\(key)", line: 10)
        let app = finding("Casts.xcodeproj/project.pbxproj", "targets.Casts.\(key)", line: 50)
        let other = finding("Other.xcodeproj/project.pbxproj", "targets.Other.\(key)", line: 5)
        let grouped = PostProcessor.groupingRepeatedValues([watch, app, other], places: places).sorted(by: Finding.reportOrder)
        #expect(grouped.map { "\($0.location.path):\($0.location.line)" }
                == ["Casts.xcodeproj/project.pbxproj:50", "Other.xcodeproj/project.pbxproj:5"])
        #expect(grouped[0].related.map(\.location.line) == [10])
        #expect(grouped[0].message == "Weak purpose string. The same value is set in 1 other place (related locations).")
        #expect(grouped[1].related.isEmpty)
        #expect(grouped[1].message == "Weak purpose string.")
        // Without app places (a file no unit uses), each file stays apart too.
        #expect(PostProcessor.groupingRepeatedValues([watch, other]).count == 2)
    }

    @Test func oneBuildSettingRepeatedAcrossConfigurationsIsOneFinding() {
        func finding(_ keyPath: String, line: Int, message: String = "Weak purpose string.") -> Finding {
            Finding(ruleId: "MOAT-PRIV-102", slug: "weak-purpose-string", title: "t", severity: .medium, confidence: .high,
                    message: message, location: Location(path: "App.xcodeproj/project.pbxproj", line: line, keyPath: keyPath),
                    cwe: [], masvs: [], mastg: [], fix: "f")
        }
        let debug = finding("targets.App.buildSettings[Debug].INFOPLIST_KEY_NSCameraUsageDescription", line: 40)
        let release = finding("targets.App.buildSettings[Release].INFOPLIST_KEY_NSCameraUsageDescription", line: 80)
        let other = finding("targets.App.buildSettings[Release].INFOPLIST_KEY_NSCameraUsageDescription", line: 81, message: "Other text.")
        let grouped = PostProcessor.groupingRepeatedValues([release, other, debug]).sorted(by: Finding.reportOrder)
        #expect(grouped.map(\.location.line) == [40, 81])
        #expect(grouped[0].related.map(\.location.line) == [80])
        #expect(grouped[0].related.first?.message == "Same value also set in App.xcodeproj/project.pbxproj (targets.App.buildSettings[Release].INFOPLIST_KEY_NSCameraUsageDescription).")
        #expect(grouped[0].message == "Weak purpose string. The same value is set in 1 other place (related locations).")
        #expect(grouped[1].related.isEmpty)
        // Source findings are never grouped.
        var code = debug
        code.ruleId = "MOAT-CODE-001"
        #expect(PostProcessor.groupingRepeatedValues([code, code]).count == 2)
    }

    @Test func aRuleThatSupersedesAnotherOnTheSameLineWins() throws {
        let source = """
        func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
            guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
                  let greeting = components.queryItems?.first(where: { $0.name == "greeting" })?.value else { return false }
            webView.evaluateJavaScript("showGreeting('\\(greeting)')")
            return true
        }
        func show(_ name: String) {
            webView.evaluateJavaScript("showName('\\(name)')")
        }
        """
        let tree = try TemporaryTree(["App/Greeting.swift": source])
        defer { tree.remove() }
        let rows = try tree.scan().findings.filter { $0.ruleId.hasPrefix("MOAT-PLAT-") }.map { "\($0.ruleId):\($0.location.line)" }
        #expect(rows == ["MOAT-PLAT-301:4", "MOAT-PLAT-211:8"])
        // Each rule alone still reports its line.
        let patternOnly = try tree.scan { $0.onlyRules = ["MOAT-PLAT-211"] }.findings.map(\.location.line)
        #expect(patternOnly == [4, 8])
    }

    // MARK: Findings do not depend on the folder scanned

    static let tinyPlist = """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0">
    <dict>
        <key>CFBundlePackageType</key>
        <string>APPL</string>
        <key>CFBundleDisplayName</key>
        <string>Tiny</string>
        <key>NSLocationWhenInUseUsageDescription</key>
        <string>Shows the branches near you on the map.</string>
    </dict>
    </plist>
    """
    static let otherPlist = """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0">
    <dict>
        <key>UILaunchScreen</key>
        <dict/>
        <key>CFBundleDisplayName</key>
        <string>Other</string>
    </dict>
    </plist>
    """
    static let locationCode = """
    import CoreLocation
    final class Locator {
        let manager = CLLocationManager()
        func start() { manager.requestWhenInUseAuthorization() }
    }
    """

    /// Findings under `folder`, as `RULE path:line message` with paths relative to that folder.
    static func rows(_ result: ScanResult, under folder: String) -> [String] {
        let prefix = folder.isEmpty ? "" : folder + "/"
        return result.findings.filter { $0.location.path.hasPrefix(prefix) }.map { finding in
            "\(finding.ruleId) \(finding.location.path.dropFirst(prefix.count)):\(finding.location.line) \(finding.message)"
        }.sorted()
    }

    @Test func anAppScansTheSameAloneAndBesideAnotherLooseApp() throws {
        let tiny = ["Info.plist": Self.tinyPlist, "Sources/Tiny.swift": "struct Tiny {}\n"]
        let other = ["Info.plist": Self.otherPlist, "Sources/Locator.swift": Self.locationCode]
        let alone = try TemporaryTree(tiny)
        defer { alone.remove() }
        var both: [String: String] = [:]
        for (path, content) in tiny { both["Tiny/" + path] = content }
        for (path, content) in other { both["Other/" + path] = content }
        let monorepo = try TemporaryTree(both)
        defer { monorepo.remove() }
        let aloneRows = Self.rows(try alone.scan(), under: "")
        #expect(aloneRows.contains { $0.hasPrefix("MOAT-PRIV-103 Info.plist:8 ") }, "\(aloneRows)")
        let together = try monorepo.scan()
        #expect(Self.rows(together, under: "Tiny") == aloneRows)
        // The other app's code needs its own usage description, and does not use Tiny's.
        #expect(Self.rows(together, under: "Other").contains { $0.hasPrefix("MOAT-PRIV-104 Sources/Locator.swift:4 ") })
    }

    @Test func aLooseAppBesideAnUnrelatedXcodeProjectKeepsItsFindings() throws {
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/LeakyBank")
        let alone = try TemporaryTree(["Info.plist": Self.tinyPlist, "Sources/Tiny.swift": "struct Tiny {}\n"])
        defer { alone.remove() }
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("moat-scope-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: example, to: parent)
        defer { try? FileManager.default.removeItem(at: parent) }
        let bankAlone = try Scanner.scan(ScanOptions(paths: [parent.path])).result
        try FileManager.default.createDirectory(at: parent.appendingPathComponent("Tiny/Sources"), withIntermediateDirectories: true)
        try Data(Self.tinyPlist.utf8).write(to: parent.appendingPathComponent("Tiny/Info.plist"))
        try Data("struct Tiny {}\n".utf8).write(to: parent.appendingPathComponent("Tiny/Sources/Tiny.swift"))
        let together = try Scanner.scan(ScanOptions(paths: [parent.path])).result
        let aloneRows = Self.rows(try alone.scan(), under: "")
        #expect(!aloneRows.isEmpty)
        #expect(Self.rows(together, under: "Tiny") == aloneRows)
        // The project's own findings do not change either.
        #expect(together.findings.filter { !$0.location.path.hasPrefix("Tiny/") }.map { "\($0.ruleId) \($0.location.path):\($0.location.line) \($0.message)" }
                == bankAlone.findings.map { "\($0.ruleId) \($0.location.path):\($0.location.line) \($0.message)" })
    }
}
