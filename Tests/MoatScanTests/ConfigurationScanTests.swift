import Foundation
import Testing
import MoatCore
import MoatFormats
import MoatRules
import MoatSyntax
@testable import MoatScan

/// Loads a tree the way the scanner does and builds the app model from it.
func loadApp(_ tree: ScanTree) -> (app: AppModel, errors: [ScanError]) {
    let found = Discovery(includeVendored: false, excludes: []).discover(root: tree.root)
    var plists: [PropertyListDocument] = [], sources: [SourceSummary] = []
    var projects: [XcodeProject] = [], documents: [InterfaceBuilderDocument] = [], models: [CoreDataModel] = []
    var errors = found.errors
    for file in found.files {
        switch Loader().load(file) {
        case .failure(let error): errors.append(error)
        case .success(.code(let code)): sources.append(SourceSummary(file: code))
        case .success(.propertyList(let plist)): plists.append(plist)
        case .success(.xcodeProject(let project)): projects.append(project)
        case .success(.interfaceBuilder(let document)): documents.append(document)
        case .success(.coreDataModel(let model)): models.append(model)
        case .success(.unsupported), .success(.dependencyLock): break
        }
    }
    return (AppModel(plists: plists, sources: sources, projects: projects, interfaceBuilderDocuments: documents,
                     coreDataModels: models), errors)
}

/// Scans a tree with inventory listed as findings (these tests check where inventory entries point too).
func scan(_ tree: ScanTree, rules: [String] = []) throws -> ScanResult {
    var options = ScanOptions(paths: [tree.root.path])
    options.onlyRules = rules
    options.includeInventory = true
    return try Scanner.scan(options).result
}

struct AppModelProjectTests {
    @Test func unitsFollowTheProjectTargets() throws {
        let tree = try ScanTree(ScanFixtures.files)
        let (app, errors) = loadApp(tree)
        #expect(errors.isEmpty, "\(errors)")
        #expect(app.projects.map(\.path) == ["Receipts.xcodeproj/project.pbxproj"])
        #expect(app.units.map(\.name) == ["Receipts", "Widget"])
        let receipts = try #require(app.units.first)
        #expect(!receipts.isLoose && !receipts.isExtension && receipts.isApp)
        #expect(receipts.sources.map(\.path).sorted() == ["Receipts/AppDelegate.swift", "Receipts/Scanner.swift"])
        #expect(receipts.privacyManifests.map(\.path) == ["Receipts/PrivacyInfo.xcprivacy"])
        #expect(receipts.interfaceBuilderDocuments.map(\.path) == ["Receipts/Base.lproj/Main.storyboard"])
        #expect(receipts.configurations.map(\.name) == ["Debug", "Release"])
        #expect(receipts.configurations.map(\.isDebug) == [true, false])
        #expect(receipts.releaseConfigurations.map(\.name) == ["Release"])
        #expect(receipts.configurations.allSatisfy { $0.infoIsComplete })
        #expect(receipts.configurations.map { $0.entitlements.map(\.path) } == [["Receipts/Debug.entitlements"], ["Receipts/Receipts.entitlements"]])
        #expect(receipts.configurations.map(\.bundleIdentifier) == ["com.example.receipts", "com.example.receipts"])
        #expect(receipts.appNames.contains("Receipts"))

        let widget = app.units[1]
        #expect(widget.isExtension)
        #expect(widget.sources.map(\.path) == ["Widget/Provider.swift"])
        #expect(widget.infoPlists.isEmpty)
        #expect(widget.configurations.allSatisfy { $0.infoIsComplete }, "a fully generated Info.plist is known")
    }

    @Test func usageDescriptionsAreFoundWhereTheyLive() throws {
        let tree = try ScanTree(ScanFixtures.files)
        let (app, _) = loadApp(tree)
        let receipts = try #require(app.units.first)
        let values = receipts.infoValues(forKey: "NSCameraUsageDescription")
        #expect(values.count == 2)
        let release = try #require(values.first)
        #expect(release.string == "Camera access")
        #expect(release.configurations == ["Release"])
        #expect(release.location == Location(path: "Receipts.xcodeproj/project.pbxproj",
                                             line: lineNumber(of: "INFOPLIST_KEY_NSCameraUsageDescription = \"Camera access\"", in: ScanFixtures.project),
                                             column: 5, keyPath: "targets.Receipts.buildSettings[Release].INFOPLIST_KEY_NSCameraUsageDescription"))
        #expect(values[1].location.keyPath == "targets.Receipts.buildSettings[Debug].INFOPLIST_KEY_NSCameraUsageDescription")
        // Keys from the Info.plist file keep their key line.
        let name = try #require(receipts.infoValues(forKey: "CFBundleDisplayName").first)
        #expect(name.location == Location(path: "Receipts/Info.plist", line: lineNumber(of: "<key>CFBundleDisplayName</key>", in: ScanFixtures.infoPlist),
                                          column: 1, keyPath: "CFBundleDisplayName"))
        #expect(name.configurations.sorted() == ["Debug", "Release"], "one Info.plist serves both configurations")
        #expect(receipts.infoKeys.contains("NSCameraUsageDescription") && receipts.infoKeys.contains("CFBundleURLTypes"))
    }

    @Test func ignoredGeneratedKeysAndUnreadablePlistsAreTracked() throws {
        let project = ScanFixtures.project
            .replacingOccurrences(of: "GENERATE_INFOPLIST_FILE = YES;\n\t\t\t\tINFOPLIST_FILE = Receipts/Info.plist;\n\t\t\t\tINFOPLIST_KEY_NSCameraUsageDescription = \"Camera access\";",
                                  with: "INFOPLIST_FILE = Receipts/Missing.plist;\n\t\t\t\tINFOPLIST_KEY_NSCameraUsageDescription = \"Camera access\";")
        #expect(project != ScanFixtures.project)
        var files = ScanFixtures.files
        files["Receipts.xcodeproj/project.pbxproj"] = project
        let tree = try ScanTree(files)
        let (app, _) = loadApp(tree)
        let release = try #require(app.units.first?.configurations.last)
        #expect(release.name == "Release")
        #expect(!release.infoIsComplete, "INFOPLIST_FILE names a file that is not in the scan")
        #expect(release.generatedInfo.isEmpty)
        #expect(release.ignoredInfoSettings["NSCameraUsageDescription"]?.string == "Camera access")
        #expect(release.infoValue(forKey: "NSCameraUsageDescription") == nil)
    }

    @Test func conditionalSettingsApplyAsOnAnIOSBuild() throws {
        let project = ScanFixtures.project
            .replacingOccurrences(of: "\t\t\t\tCODE_SIGN_ENTITLEMENTS = Receipts/Receipts.entitlements;\n",
                                  with: "\t\t\t\t\"CODE_SIGN_ENTITLEMENTS[sdk=iphoneos*]\" = Receipts/Receipts.entitlements;\n\t\t\t\t\"CODE_SIGN_ENTITLEMENTS[sdk=macosx*]\" = Receipts/Mac.entitlements;\n")
            .replacingOccurrences(of: "\t\t\t\tINFOPLIST_KEY_NSCameraUsageDescription = \"Camera access\";\n",
                                  with: "\t\t\t\t\"INFOPLIST_KEY_NSCameraUsageDescription[sdk=macosx*]\" = \"Mac camera\";\n")
        #expect(project.contains("[sdk=iphoneos*]") && project.contains("Mac camera"))
        var files = ScanFixtures.files
        files["Receipts.xcodeproj/project.pbxproj"] = project
        let tree = try ScanTree(files)
        let (app, _) = loadApp(tree)
        let release = try #require(app.units.first?.configurations.last)
        #expect(release.entitlements.map(\.path) == ["Receipts/Receipts.entitlements"])
        #expect(release.entitlementsSetting?.location.keyPath == "targets.Receipts.buildSettings[Release].CODE_SIGN_ENTITLEMENTS[sdk=iphoneos*]")
        #expect(release.infoValue(forKey: "NSCameraUsageDescription") == nil, "the macOS-only key does not reach an iOS build")
    }

    @Test func looseFilesWithoutAProjectFormOneUnit() throws {
        let tree = try ScanTree([
            "App/Info.plist": plist("<key>NSCameraUsageDescription</key>\n<string>Scan receipts.</string>"),
            "App/App.entitlements": ScanFixtures.releaseEntitlements,
            "App/Scanner.swift": ScanFixtures.scanner,
            "AppTests/Info.plist": plist("<key>NSContactsUsageDescription</key>\n<string>Test only.</string>"),
            "AppTests/ScannerTests.swift": "import XCTest\n",
        ])
        let (app, _) = loadApp(tree)
        #expect(app.units.count == 1)
        let unit = try #require(app.units.first)
        #expect(unit.isLoose && unit.isApp)
        #expect(unit.infoPlists.map(\.path) == ["App/Info.plist"], "test bundles are not the app")
        #expect(unit.entitlementsDocuments.map(\.path) == ["App/App.entitlements"])
        #expect(unit.configurations.first?.isDebug == nil)
        #expect(unit.infoValues(forKey: "NSCameraUsageDescription").first?.location.keyPath == "NSCameraUsageDescription")
        #expect(app.ownSources(for: unit).map(\.path) == ["App/Scanner.swift"])
        #expect(app.reachableSources(for: unit).count == 2)
    }

    @Test func surfaceListsTheInventories() throws {
        let tree = try ScanTree(ScanFixtures.files)
        let surface = loadApp(tree).app.surface
        #expect(surface.urlSchemes.map(\.value) == ["com.example.receipts"])
        #expect(surface.urlSchemes.first?.detail == "handled by application(_:open:options:)")
        #expect(surface.urlHandlers.map(\.value).contains("application(_:continue:restorationHandler:)"))
        #expect(surface.associatedDomains.map(\.value) == ["applinks:receipts.example.com"])
        #expect(surface.appGroups.map(\.value) == ["group.com.example.receipts"])
        #expect(surface.appGroups.first?.location.path == "Receipts/Receipts.entitlements")
        #expect(surface.usageDescriptions.map(\.value) == ["NSCameraUsageDescription"])
        #expect(surface.usageDescriptions.first?.detail == "Camera access")
        #expect(surface.pinnedDomains.map(\.value) == ["api.example.com"])
        #expect(surface.pinnedDomains.first?.detail == "0 leaf, 1 CA")
        #expect(surface.interfaceBuilderWebViews.map(\.value) == ["WKWebView"])
        #expect(surface.webViews.map { "\($0.value) \($0.kind ?? "") \($0.unit)" } == ["WKWebView Interface Builder Receipts"])
        // The extension target has no Info.plist of its own here: it is listed from the project.
        #expect(surface.extensions.map { "\($0.value) \($0.kind ?? "") \($0.detail ?? "") \($0.location.path):\($0.location.line)" }
                == ["Widget extension target com.apple.product-type.app-extension Receipts.xcodeproj/project.pbxproj:\(lineNumber(of: "TG02 /* Widget */ = {", in: ScanFixtures.project))"])
        #expect(surface.extensions.first?.unit == "Widget")
        #expect(surface.capabilities.map { "\($0.value) \($0.location.path)" }.sorted()
                == ["get-task-allow Receipts/Debug.entitlements", "get-task-allow Receipts/Receipts.entitlements"])
    }
}

struct ConfigurationFindingTests {
    @Test func findingsPointAtBuildSettingsPlistKeysAndCode() throws {
        let tree = try ScanTree(ScanFixtures.files)
        let result = try scan(tree)
        #expect(result.errors.isEmpty, "\(result.errors)")
        #expect(result.appName == "Receipts")
        #expect(result.bundleIdentifier == "com.example.receipts", "from PRODUCT_BUNDLE_IDENTIFIER of the Release configuration")

        let weak = result.findings.filter { $0.ruleId == "MOAT-PRIV-102" }
        #expect(weak.count == 1)
        #expect(weak.first?.location == Location(path: "Receipts.xcodeproj/project.pbxproj",
                                                 line: lineNumber(of: "= \"Camera access\"", in: ScanFixtures.project), column: 5,
                                                 keyPath: "targets.Receipts.buildSettings[Release].INFOPLIST_KEY_NSCameraUsageDescription"))
        #expect(weak.first?.message == "NSCameraUsageDescription (\"Camera access\") only says that the app wants the camera, not what it does with it.")
        #expect(weak.first?.evidence == "INFOPLIST_KEY_NSCameraUsageDescription = Camera access")

        let missing = result.findings.filter { $0.ruleId == "MOAT-PRIV-104" }
        #expect(missing.map(\.location) == [Location(path: "Widget/Provider.swift", line: 3, column: 16)])
        #expect(missing.first?.message == "requestWhenInUseAuthorization (CLLocationManager) reaches location while in use, but the Info.plist of target Widget has no NSLocationWhenInUseUsageDescription: without it iOS ignores the authorization request, so the app never gets location; Apple requires the key of every app that asks for location.")
        #expect(missing.first?.evidence == "func start() { manager.requestWhenInUseAuthorization() }")

        let debuggable = result.findings.filter { $0.ruleId == "MOAT-PLAT-102" }
        #expect(debuggable.map(\.location) == [Location(path: "Receipts/Receipts.entitlements",
                                                        line: lineNumber(of: "<key>get-task-allow</key>", in: ScanFixtures.releaseEntitlements),
                                                        keyPath: "get-task-allow")])
        #expect(debuggable.first?.related.map(\.location) == [Location(path: "Receipts.xcodeproj/project.pbxproj",
                                                                       line: lineNumber(of: "CODE_SIGN_ENTITLEMENTS = Receipts/Receipts.entitlements", in: ScanFixtures.project),
                                                                       column: 5, keyPath: "targets.Receipts.buildSettings[Release].CODE_SIGN_ENTITLEMENTS")])

        // The Debug entitlements are only used by Debug; the widget has no manifest but uses no required-reason API.
        #expect(!result.findings.contains { $0.location.path == "Receipts/Debug.entitlements" && $0.ruleId == "MOAT-PLAT-102" })
        #expect(!result.findings.contains { $0.ruleId == "MOAT-PRIV-108" })
        // Handlers exist for the scheme and the universal links.
        #expect(!result.findings.contains { ["MOAT-PLAT-104", "MOAT-PLAT-107"].contains($0.ruleId) })
        #expect(result.findings.contains { $0.ruleId == "MOAT-PLAT-111" && $0.location == Location(path: "Receipts/Base.lproj/Main.storyboard", line: lineNumber(of: "<wkWebView", in: ScanFixtures.storyboard), column: 29) })
    }
}

struct MalformedInputTests {
    @Test func brokenFilesBecomeErrorsNamingTheFileAndTheScanGoesOn() throws {
        let truncated = String(ScanFixtures.project.prefix(ScanFixtures.project.count / 3))
        let tree = try ScanTree([
            "Broken.xcodeproj/project.pbxproj": truncated,
            "App/Info.plist": "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n<key>NSCameraUsageDescription</key>\n</dict>\n</plist>\n",
            "App/Main.storyboard": "this is not XML",
            "App/Empty.xib": "",
            "App/Secrets.entitlements": ScanFixtures.releaseEntitlements,
        ])
        let result = try scan(tree)
        let byPath = Dictionary(grouping: result.errors, by: \.path)
        #expect(byPath.keys.sorted() == ["App/Empty.xib", "App/Info.plist", "App/Main.storyboard", "Broken.xcodeproj/project.pbxproj"])
        #expect(byPath["Broken.xcodeproj/project.pbxproj"]?.first?.message.hasPrefix("malformed project file at line ") == true)
        #expect(byPath["App/Info.plist"]?.first?.message == "malformed XML property list at line 4: key 'NSCameraUsageDescription' has no value")
        #expect(byPath["App/Main.storyboard"]?.first?.message.hasPrefix("malformed Interface Builder document at line 1") == true)
        #expect(byPath["App/Empty.xib"]?.first?.message == "empty Interface Builder document")
        // The readable file is still analyzed.
        #expect(result.findings.contains { $0.ruleId == "MOAT-PLAT-101" && $0.location.path == "App/Secrets.entitlements" })
    }

    @Test func binaryInfoPlistFeedsTheAppRules() throws {
        let tree = try ScanTree(["App/Scanner.swift": ScanFixtures.scanner])
        let data = try PropertyListSerialization.data(fromPropertyList: ["NSCameraUsageDescription": "", "CFBundleName": "Receipts"],
                                                      format: .binary, options: 0)
        try tree.write("App/Info.plist", data)
        let result = try scan(tree)
        #expect(result.errors.isEmpty)
        let weak = try #require(result.findings.first { $0.ruleId == "MOAT-PRIV-102" })
        #expect(weak.location == Location(path: "App/Info.plist", line: 1, keyPath: "NSCameraUsageDescription"))
        #expect(weak.message == "NSCameraUsageDescription is empty: iOS asks for the camera without any explanation, and App Review requires a purpose string that explains the use (Guideline 5.1.1).")
        #expect(!result.findings.contains { $0.ruleId == "MOAT-PRIV-104" }, "the key is present, even if empty")
    }

    @Test func hostileProjectValuesDoNotTrap() throws {
        // Cycles in groups, configuration lists naming missing objects, settings of the wrong type.
        let text = """
        { objects = {
            G1 = { isa = PBXGroup; children = (G1, F1); path = a; };
            F1 = { isa = PBXFileReference; path = "../../../../etc/passwd"; sourceTree = "<group>"; };
            B1 = { isa = PBXBuildFile; fileRef = F1; };
            P1 = { isa = PBXSourcesBuildPhase; files = (B1, MISSING); };
            T1 = { isa = PBXNativeTarget; name = App; buildConfigurationList = L1; buildPhases = (P1, NOPE);
                   productType = "com.apple.product-type.application"; fileSystemSynchronizedGroups = (G1); };
            L1 = { isa = XCConfigurationList; buildConfigurations = (C1, C2); };
            C1 = { isa = XCBuildConfiguration; name = Release; baseConfigurationReference = F1;
                   buildSettings = { INFOPLIST_FILE = ( a, b ); CODE_SIGN_ENTITLEMENTS = { x = y; }; PRODUCT_NAME = "$(PRODUCT_NAME)";
                                     INFOPLIST_KEY_NSCameraUsageDescription = "$(A)"; A = "$(B)"; B = "$(A)";
                                     INFOPLIST_KEY_NSMotionUsageDescription = "$(C)"; C = "$(C)$(C)$(C)$(C)$(C)$(C)$(C)$(C)$(C)$(C)"; }; };
            R = { isa = PBXProject; mainGroup = G1; targets = (T1, T1); buildConfigurationList = L9; };
          }; rootObject = R; }
        """
        let tree = try ScanTree(["App.xcodeproj/project.pbxproj": text, "a/x.swift": "let x = 1\n"])
        let result = try scan(tree)
        #expect(result.errors.isEmpty, "\(result.errors)")
        let (app, _) = loadApp(tree)
        // `targets = (T1, T1)` lists one target: ids are read once.
        #expect(app.units.count == 1)
        #expect(app.units.first?.configurations.first?.infoIsComplete == false)
    }
}
