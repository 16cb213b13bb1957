import Foundation
import MoatCore
import MoatFormats
import MoatSyntax

/// A value of the app's configuration, wherever it really lives: an Info.plist key, or a build setting
/// (`INFOPLIST_KEY_NSCameraUsageDescription`, `CODE_SIGN_ENTITLEMENTS`) in `project.pbxproj` or an
/// `.xcconfig`. Findings about the value are reported at `location`.
public struct ConfiguredValue: Sendable {
    public enum Source: Sendable {
        case plist(PropertyListDocument, PlistNode)
        case buildSetting(XcodeProject, ResolvedBuildSetting)
    }

    /// The Info.plist key (`NSCameraUsageDescription`) or the build setting name (`CODE_SIGN_ENTITLEMENTS`).
    public var key: String
    public var source: Source
    /// Key line of the plist key, or line of the build setting, with its key path.
    public var location: Location
    /// Names of the build configurations that see this value (empty without an Xcode project).
    public var configurations: [String]
    /// The value as written, before `$(VARIABLE)` expansion (nil when it is not a string).
    public var string: String?
    /// The value with build settings expanded, when an Xcode project defines them.
    public var expandedString: String?

    public var plistNode: PlistNode? {
        if case .plist(_, let node) = source { return node }
        return nil
    }

    public var plist: PropertyListDocument? {
        if case .plist(let document, _) = source { return document }
        return nil
    }

    public var bool: Bool? {
        switch source {
        case .plist(_, let node): return node.bool
        case .buildSetting(_, let resolved):
            switch resolved.value.lowercased() {
            case "yes", "true", "1": return true
            case "no", "false", "0": return false
            default: return nil
            }
        }
    }

    /// Short text shown as evidence: the key path, or `NAME = value` for a build setting.
    public var evidence: String {
        switch source {
        case .plist(_, let node): return node.keyPath
        case .buildSetting(_, let resolved): return "\(resolved.setting.name) = \(resolved.setting.value)"
        }
    }

    /// "Info.plist key NSCameraUsageDescription" / "build setting INFOPLIST_KEY_NSCameraUsageDescription".
    public var placeDescription: String {
        switch source {
        case .plist: return "Info.plist key \(key)"
        case .buildSetting(_, let resolved): return "build setting \(resolved.setting.name)"
        }
    }

    static func fromPlist(key: String, node: PlistNode, in document: PropertyListDocument, configurations: [String]) -> ConfiguredValue {
        ConfiguredValue(key: key, source: .plist(document, node),
                        location: Location(path: document.path, line: document.line(of: node), column: 1, keyPath: node.keyPath),
                        configurations: configurations, string: node.string, expandedString: node.string)
    }

    static func fromSetting(key: String, resolved: ResolvedBuildSetting, project: XcodeProject, target: XcodeTarget,
                            configurations: [String], expanded: String?) -> ConfiguredValue {
        let path: String
        if case .configurationFile(let file) = resolved.origin {
            path = project.displayPath(file)
        } else {
            path = target.specPath.map(project.displayPath) ?? project.path
        }
        let location = Location(path: path, line: resolved.setting.line, column: resolved.setting.column,
                                keyPath: XcodeProject.keyPath(target: target.name, origin: resolved.origin, name: resolved.setting.name))
        return ConfiguredValue(key: key, source: .buildSetting(project, resolved), location: location,
                               configurations: configurations, string: resolved.value, expandedString: expanded)
    }
}

/// One build configuration of a unit (`Debug`, `Release`), or the single pseudo-configuration of loose files.
public struct AppConfiguration: Sendable {
    /// nil for loose files (no Xcode project).
    public var name: String?
    /// Whether this configuration builds for debugging (name contains "Debug", or `DEBUG` is a compilation
    /// condition); nil when unknown (loose files).
    public var isDebug: Bool?
    /// The Info.plist files of this configuration (one with a project; every app Info.plist for loose files).
    public var infoPlists: [PropertyListDocument]
    /// `INFOPLIST_KEY_*` settings by Info.plist key, when `GENERATE_INFOPLIST_FILE = YES`.
    public var generatedInfo: [String: ConfiguredValue]
    /// `INFOPLIST_KEY_*` settings Xcode ignores because the configuration does not generate its Info.plist.
    public var ignoredInfoSettings: [String: ConfiguredValue]
    /// Whether every Info.plist key of this configuration is known: its Info.plist was found (or it is
    /// fully generated from build settings) and its `.xcconfig` files were read.
    public var infoIsComplete: Bool
    /// `INFOPLIST_FILE`, when set.
    public var infoPlistSetting: ConfiguredValue?
    /// The entitlements this configuration signs with (`CODE_SIGN_ENTITLEMENTS`); every entitlements file
    /// for loose files.
    public var entitlements: [PropertyListDocument]
    public var entitlementsSetting: ConfiguredValue?
    /// `PRODUCT_BUNDLE_IDENTIFIER`, expanded.
    public var bundleIdentifier: String?
    /// Resolved build settings (empty for loose files).
    public var settings: [String: ResolvedBuildSetting]

    /// The value of an Info.plist key in this configuration: from the Info.plist file first (its values
    /// win over generated ones), else from an `INFOPLIST_KEY_` build setting.
    public func infoValue(forKey key: String) -> ConfiguredValue? {
        for plist in infoPlists {
            if let node = plist.root[key] {
                return ConfiguredValue.fromPlist(key: key, node: node, in: plist, configurations: name.map { [$0] } ?? [])
            }
        }
        return generatedInfo[key]
    }

    /// Every Info.plist key this configuration defines.
    public var infoKeys: Set<String> {
        var keys = Set(generatedInfo.keys)
        for plist in infoPlists { for entry in plist.root.entries ?? [] { keys.insert(entry.key) } }
        return keys
    }

    /// A readable name for messages: `Release`, or "the app" for loose files.
    public var displayName: String { name ?? "the app" }
}

/// One bundle of the app: an app, App Clip or extension target of an Xcode project with its build
/// configurations, or — without a project — everything found loose (Info.plists, entitlements, code).
public struct AppUnit: Sendable {
    public var name: String
    public var project: XcodeProject?
    public var target: XcodeTarget?
    public var configurations: [AppConfiguration]
    /// Code compiled into this unit (all code for loose files).
    public var sources: [SourceSummary]
    public var privacyManifests: [PropertyListDocument]
    /// Privacy manifests found next to the target's files that are not copied into its bundle.
    public var unclaimedPrivacyManifests: [PropertyListDocument]
    public var interfaceBuilderDocuments: [InterfaceBuilderDocument]
    /// Third-party libraries linked into the unit (Swift packages, CocoaPods, vendored frameworks).
    public var thirdPartyDependencies: [String]

    /// True without an Xcode project.
    public var isLoose: Bool { project == nil }
    /// An application target Xcode never puts into an archive (`ProjectMembership.isNeverArchived`): a
    /// showcase or UI-test host app. What is reported about it does not ship.
    public var isNeverArchived: Bool {
        guard let target, let project else { return false }
        return ProjectMembership.isNeverArchived(target, in: project)
    }
    public var isExtension: Bool { target?.isExtension ?? false }

    /// Whether this is known to be an app bundle: an app/extension target, or loose files with an Info.plist.
    public var isApp: Bool { target != nil || configurations.contains { !$0.infoPlists.isEmpty } }

    /// "target App" / "the app".
    public var displayName: String { target != nil ? "target \(name)" : "the app" }

    /// Configurations that ship (not Debug), or all of them when none is known not to be a debug build.
    public var releaseConfigurations: [AppConfiguration] {
        let release = configurations.filter { $0.isDebug == false }
        return release.isEmpty ? configurations.filter { $0.isDebug != true } : release
    }

    /// Every distinct place an Info.plist key is set in this unit, the ones release builds see first.
    public func infoValues(forKey key: String) -> [ConfiguredValue] {
        var result: [ConfiguredValue] = []
        let ordered = releaseConfigurations + configurations.filter { configuration in
            !releaseConfigurations.contains { $0.name == configuration.name }
        }
        for configuration in ordered {
            guard let value = configuration.infoValue(forKey: key) else { continue }
            if let index = result.firstIndex(where: { $0.location == value.location }) {
                result[index].configurations.append(contentsOf: value.configurations)
            } else {
                result.append(value)
            }
        }
        return result
    }

    /// Every Info.plist key of any configuration, sorted.
    public var infoKeys: [String] {
        configurations.reduce(into: Set<String>()) { $0.formUnion($1.infoKeys) }.sorted()
    }

    /// Whether any configuration defines one of these keys.
    public func declaresAny(of keys: [String]) -> Bool {
        configurations.contains { configuration in keys.contains { configuration.infoValue(forKey: $0) != nil } }
    }

    /// Distinct Info.plists of the unit.
    public var infoPlists: [PropertyListDocument] {
        var seen = Set<String>()
        return configurations.flatMap(\.infoPlists).filter { seen.insert($0.path).inserted }
    }

    /// Distinct entitlements files of the unit.
    public var entitlementsDocuments: [PropertyListDocument] {
        var seen = Set<String>()
        return configurations.flatMap(\.entitlements).filter { seen.insert($0.path).inserted }
    }

    /// Names a purpose string could repeat: display name, bundle name, product and target names.
    public var appNames: Set<String> {
        var names = Set<String>()
        if let target {
            names.insert(target.name)
            if let product = target.productName { names.insert(product) }
        }
        for configuration in configurations {
            if let product = configuration.settings["PRODUCT_NAME"]?.value, !product.contains("$") { names.insert(product) }
            for key in ["CFBundleDisplayName", "CFBundleName"] {
                if let value = configuration.infoValue(forKey: key)?.expandedString, !value.contains("$(") { names.insert(value) }
            }
        }
        return names
    }

    // MARK: Building units

    static func units(plists: [PropertyListDocument], sources: [SourceSummary], projects: [XcodeProject],
                      interfaceBuilderDocuments: [InterfaceBuilderDocument], unused: Set<String> = []) -> [AppUnit] {
        var plistsByPath: [String: PropertyListDocument] = [:]
        for plist in plists where plistsByPath[plist.path] == nil { plistsByPath[plist.path] = plist }
        var units: [AppUnit] = []
        for project in projects {
            for target in project.targets where target.isAppOrExtension {
                units.append(unit(for: target, in: project, plistsByPath: plistsByPath, sources: sources,
                                  manifests: plists.filter { $0.kind == .privacyManifest },
                                  interfaceBuilderDocuments: interfaceBuilderDocuments))
            }
        }
        // A file belongs to a project's target only when a target references it; the rest forms units
        // by folder, exactly as when its folder is scanned alone.
        var claimed = Set<String>()
        for unit in units {
            claimed.formUnion(unit.infoPlists.map(\.path))
            claimed.formUnion(unit.entitlementsDocuments.map(\.path))
            claimed.formUnion(unit.privacyManifests.map(\.path))
            claimed.formUnion(unit.sources.map(\.path))
            claimed.formUnion(unit.interfaceBuilderDocuments.map(\.path))
        }
        let membership = projects.map(ProjectMembership.init)
        func referencedByProject(_ path: String) -> Bool {
            claimed.contains(path) || membership.contains { $0.targets(of: path) != .none }
        }
        let loose = LooseFiles(
            plists: plists.filter { !referencedByProject($0.path) && !unused.contains($0.path) },
            sources: sources.filter { !referencedByProject($0.path) },
            interfaceBuilderDocuments: interfaceBuilderDocuments.filter { !referencedByProject($0.path) })
        units += looseUnits(loose, allPlists: plists, projects: projects, hasProjectUnits: !units.isEmpty)
        if units.isEmpty {
            units.append(looseUnit(plists: plists, sources: sources, interfaceBuilderDocuments: interfaceBuilderDocuments))
        }
        return units
    }

    /// Info.plists, entitlements files and privacy manifests that no target of any Xcode project uses, inside the folder of
    /// the innermost project around them: not named by any target's `INFOPLIST_FILE` or
    /// `CODE_SIGN_ENTITLEMENTS` (project, target or read `.xcconfig`, any configuration, any target kind) nor
    /// copied by a target, while every target's own file of that kind is known. A project whose targets
    /// name a file through an unread `.xcconfig` or an unexpanded `$(VARIABLE)` marks none of that kind;
    /// without a project nothing is marked (loose files keep forming units by folder). Files in test
    /// folders, in bundles (`.framework/`, `.bundle/`, `.app/`...) and in `Pods/` or `Carthage/` are left
    /// as they are.
    ///
    /// A file with code no target compiles in its folder or below is left alone (a loose app's folder beside
    /// the project, or a package's); a privacy manifest is marked only among code the targets compile (at
    /// least one file).
    static func unusedConfigurationPaths(plists: [PropertyListDocument], projects: [XcodeProject],
                                         sources: [SourceSummary] = []) -> [String] {
        guard !projects.isEmpty else { return [] }
        let kinds: [(PlistKind, String)] = [(.infoPlist, "INFOPLIST_FILE"), (.entitlements, "CODE_SIGN_ENTITLEMENTS")]
        var used = Set<String>()
        // Per project (its path) and kind: a target names a file Moat cannot resolve.
        var unresolved = Set<String>()
        for project in projects {
            // A spec include or a configuration file that could not be read may name any file.
            if !project.warnings.isEmpty { for (kind, _) in kinds { unresolved.insert(project.path + "|" + kind.rawValue) } }
            for target in project.targets {
                for configuration in target.configurations {
                    let settings = project.resolvedSettings(of: target, configuration: configuration.name)
                    var complete = project.isComplete(configuration)
                    if let own = project.projectConfigurations.first(where: { $0.name == configuration.name }),
                       !project.isComplete(own) { complete = false }
                    // An app or extension target with neither an Info.plist file nor a generated one names
                    // its file somewhere Moat does not see.
                    let generates = settings["GENERATE_INFOPLIST_FILE"].map { ["yes", "true", "1"].contains($0.value.lowercased()) } ?? false
                    if target.isAppOrExtension, settings["INFOPLIST_FILE"] == nil, !generates {
                        unresolved.insert(project.path + "|" + PlistKind.infoPlist.rawValue)
                    }
                    for (kind, name) in kinds {
                        if !complete { unresolved.insert(project.path + "|" + kind.rawValue) }
                        for (settingName, resolved) in settings where settingName == name || settingName.hasPrefix(name + "[") {
                            let file = project.expand(resolved.value, target: target, settings: settings)
                            if file.isEmpty { continue }
                            if file.contains("$") {
                                unresolved.insert(project.path + "|" + kind.rawValue)
                            } else {
                                used.insert(project.displayPath(file))
                            }
                        }
                    }
                }
            }
        }
        let membership = projects.map(ProjectMembership.init)
        let bundleMarkers = [".framework/", ".xcframework/", ".bundle/", ".app/", ".appex/"]
        var result: [String] = []
        lazy var compiled = Set(projects.flatMap { project in
            project.targets.flatMap { target in sources.map(\.path).filter { path in
                project.projectRelativePath(path).map(target.contains) ?? false
            } }
        })
        for plist in plists where [.infoPlist, .entitlements, .privacyManifest].contains(plist.kind) {
            let path = plist.path
            // Code no target compiles in the file's folder or below: another app's folder (a loose app beside
            // the project), or a package's, which may use the file.
            let folder = Self.folder(of: path)
            let beside = sources.map(\.path).filter { folder.isEmpty || $0.hasPrefix(folder + "/") }
            guard beside.allSatisfy(compiled.contains), plist.kind != .privacyManifest || !beside.isEmpty else { continue }
            guard !used.contains(path), ShippingScope.reason(forPath: path) == nil,
                  !bundleMarkers.contains(where: { path.contains($0) }),
                  !path.split(separator: "/").contains(where: { $0 == "Pods" || $0 == "Carthage" }),
                  !membership.contains(where: { $0.targets(of: path) != .none }) else { continue }
            // The innermost project whose folder holds the file decides; beside no project, nothing is said.
            let around = projects.filter { $0.projectRelativePath(path) != nil && !$0.targets.isEmpty }
            guard let depth = around.map(\.projectDirectory.count).max() else { continue }
            let owners = around.filter { $0.projectDirectory.count == depth }
            guard owners.contains(where: { $0.targets.contains(where: \.isAppOrExtension) }),
                  plist.kind == .privacyManifest
                    || !owners.contains(where: { unresolved.contains($0.path + "|" + plist.kind.rawValue) }) else { continue }
            result.append(path)
        }
        return result.sorted()
    }

    struct LooseFiles {
        var plists: [PropertyListDocument]
        var sources: [SourceSummary]
        var interfaceBuilderDocuments: [InterfaceBuilderDocument]

        var isEmpty: Bool { plists.isEmpty && sources.isEmpty && interfaceBuilderDocuments.isEmpty }

        func under(_ folder: String) -> LooseFiles {
            func inside(_ path: String) -> Bool { folder.isEmpty || path.hasPrefix(folder + "/") }
            return LooseFiles(plists: plists.filter { inside($0.path) }, sources: sources.filter { inside($0.path) },
                              interfaceBuilderDocuments: interfaceBuilderDocuments.filter { inside($0.path) })
        }

        func outside(_ folders: [String]) -> LooseFiles {
            func inside(_ path: String) -> Bool { folders.contains { $0.isEmpty || path.hasPrefix($0 + "/") } }
            return LooseFiles(plists: plists.filter { !inside($0.path) }, sources: sources.filter { !inside($0.path) },
                              interfaceBuilderDocuments: interfaceBuilderDocuments.filter { !inside($0.path) })
        }
    }

    /// The folder of a path ("" for a file at the root).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    /// An app's Info.plist (not an extension's, a framework's or a test bundle's, not in test code): the file
    /// that marks where an app's folder is. `CFBundlePackageType` `APPL` says so; when the type is not
    /// written literally, a key only apps have (launch screen, scenes, main storyboard, orientations,
    /// `LSRequiresIPhoneOS`, URL types) does.
    static func isAppInfoPlist(_ plist: PropertyListDocument) -> Bool {
        guard plist.kind == .infoPlist, ShippingScope.reason(forPath: plist.path) == nil, plist.root["NSExtension"] == nil,
              plist.root["EXAppExtensionAttributes"] == nil else { return false }
        if let type = plist.root["CFBundlePackageType"]?.string, !type.contains("$(") { return type == "APPL" }
        return appOnlyKeys.contains { plist.root[$0] != nil }
    }

    static let appOnlyKeys = ["UILaunchScreen", "UILaunchStoryboardName", "UIApplicationSceneManifest", "UIMainStoryboardFile",
                              "UISupportedInterfaceOrientations", "LSRequiresIPhoneOS", "CFBundleURLTypes",
                              "UIApplicationSupportsIndirectInputEvents"]

    /// Units of the files no project target references. Each loose app Info.plist roots a unit at the
    /// highest folder above it that holds no other app (no other app Info.plist, no Xcode project): the
    /// folder the app would be scanned as alone. Loose files under that folder belong to that unit.
    /// Loose files under no app folder form one more unit (as all loose files did before) when there is no
    /// Xcode project unit and they hold property lists; beside project units they stay reachable code.
    static func looseUnits(_ loose: LooseFiles, allPlists: [PropertyListDocument], projects: [XcodeProject],
                           hasProjectUnits: Bool) -> [AppUnit] {
        let appPlists = loose.plists.filter(isAppInfoPlist)
        // Without a loose app, loose files stay code any unit may reach (a local package, a framework).
        guard !appPlists.isEmpty else { return [] }
        // Where other apps are: every app Info.plist, and the folder of every Xcode project.
        let markerPlists = allPlists.filter(isAppInfoPlist).map(\.path)
        let projectFolders = projects.map { $0.isXcodeGenSpec ? folder(of: $0.path) : folder(of: folder(of: $0.path)) }
        func holdsOtherApp(_ candidate: String, besides own: String) -> Bool {
            func inside(_ path: String) -> Bool { candidate.isEmpty || path.hasPrefix(candidate + "/") }
            if markerPlists.contains(where: { $0 != own && inside($0) }) { return true }
            return projectFolders.contains { $0 == candidate || inside($0) }
        }
        var roots: [String] = []
        for plist in appPlists {
            var root = folder(of: plist.path)
            var candidate = root
            while !candidate.isEmpty {
                candidate = folder(of: candidate)
                if holdsOtherApp(candidate, besides: plist.path) { break }
                root = candidate
            }
            if !roots.contains(root) { roots.append(root) }
        }
        // Nested roots (an app folder inside another's, which can only happen when both sit in one folder)
        // keep the innermost files with the innermost root.
        roots.sort { ($0.count, $0) > ($1.count, $1) }
        var remaining = loose
        var units: [(String, AppUnit)] = []
        for root in roots {
            let files = remaining.under(root)
            remaining = remaining.outside([root])
            units.append((root, looseUnit(plists: files.plists, sources: files.sources,
                                          interfaceBuilderDocuments: files.interfaceBuilderDocuments)))
        }
        var result = units.sorted { $0.0 < $1.0 }.map(\.1)
        if !hasProjectUnits, remaining.plists.contains(where: { $0.kind != .other && ShippingScope.reason(forPath: $0.path) == nil }) {
            result.append(looseUnit(plists: remaining.plists, sources: remaining.sources,
                                    interfaceBuilderDocuments: remaining.interfaceBuilderDocuments))
        }
        return result
    }

    static func looseUnit(plists: [PropertyListDocument], sources: [SourceSummary],
                          interfaceBuilderDocuments: [InterfaceBuilderDocument]) -> AppUnit {
        let infoPlists = plists.filter { $0.kind == .infoPlist && !isTestPath($0.path) }
        let entitlements = plists.filter { $0.kind == .entitlements && !isTestPath($0.path) }
        let configuration = AppConfiguration(
            name: nil, isDebug: nil, infoPlists: infoPlists, generatedInfo: [:], ignoredInfoSettings: [:],
            infoIsComplete: !infoPlists.isEmpty, infoPlistSetting: nil, entitlements: entitlements, entitlementsSetting: nil,
            bundleIdentifier: infoPlists.lazy.compactMap { $0.root["CFBundleIdentifier"]?.string }.first { !$0.contains("$(") },
            settings: [:])
        let name = infoPlists.lazy.compactMap { $0.root["CFBundleDisplayName"]?.string ?? $0.root["CFBundleName"]?.string }
            .first { !$0.contains("$(") } ?? "App"
        return AppUnit(name: name, project: nil, target: nil, configurations: [configuration], sources: sources,
                       privacyManifests: plists.filter { $0.kind == .privacyManifest && !isTestPath($0.path) },
                       unclaimedPrivacyManifests: [], interfaceBuilderDocuments: interfaceBuilderDocuments,
                       thirdPartyDependencies: [])
    }

    static func unit(for target: XcodeTarget, in project: XcodeProject, plistsByPath: [String: PropertyListDocument],
                     sources: [SourceSummary], manifests: [PropertyListDocument],
                     interfaceBuilderDocuments: [InterfaceBuilderDocument]) -> AppUnit {
        let names = target.configurations.map(\.name) + project.projectConfigurations.map(\.name).filter { name in
            !target.configurations.contains { $0.name == name }
        }
        var configurations: [AppConfiguration] = []
        for name in names {
            let settings = Self.iOSSettings(project.resolvedSettings(of: target, configuration: name), configuration: name)
            func expanded(_ value: String) -> String { project.expand(value, target: target, settings: settings) }
            func value(_ key: String, settingName: String) -> ConfiguredValue? {
                guard let resolved = settings[settingName] else { return nil }
                return ConfiguredValue.fromSetting(key: key, resolved: resolved, project: project, target: target,
                                                   configurations: [name], expanded: expanded(resolved.value))
            }
            var complete = project.isComplete(target.configurations.first { $0.name == name }
                                               ?? BuildConfiguration(id: "", name: name, settings: [:], baseConfigurationPath: nil))
            if let projectConfiguration = project.projectConfigurations.first(where: { $0.name == name }),
               !project.isComplete(projectConfiguration) { complete = false }
            // Info.plist: a file, generated keys, or both.
            let generates = settings["GENERATE_INFOPLIST_FILE"].map { ["yes", "true", "1"].contains($0.value.lowercased()) } ?? false
            var generated: [String: ConfiguredValue] = [:]
            for (settingName, _) in settings where settingName.hasPrefix("INFOPLIST_KEY_") {
                let key = String(settingName.dropFirst("INFOPLIST_KEY_".count))
                if let configured = value(key, settingName: settingName) { generated[key] = configured }
            }
            var infoPlists: [PropertyListDocument] = []
            let infoPlistSetting = value("INFOPLIST_FILE", settingName: "INFOPLIST_FILE")
            if let file = infoPlistSetting?.expandedString, !file.isEmpty {
                if !file.contains("$"), let document = plistsByPath[project.displayPath(file)] {
                    infoPlists.append(document)
                } else {
                    complete = false
                }
            } else if !generates {
                complete = false
            }
            let entitlementsSetting = value("CODE_SIGN_ENTITLEMENTS", settingName: "CODE_SIGN_ENTITLEMENTS")
            var entitlements: [PropertyListDocument] = []
            if let file = entitlementsSetting?.expandedString, !file.isEmpty, !file.contains("$"),
               let document = plistsByPath[project.displayPath(file)] {
                entitlements.append(document)
            }
            let bundleId = settings["PRODUCT_BUNDLE_IDENTIFIER"].map { expanded($0.value) }
            configurations.append(AppConfiguration(
                name: name, isDebug: isDebugConfiguration(name: name, settings: settings),
                infoPlists: infoPlists, generatedInfo: generates ? generated : [:], ignoredInfoSettings: generates ? [:] : generated,
                infoIsComplete: complete, infoPlistSetting: infoPlistSetting, entitlements: entitlements,
                entitlementsSetting: entitlementsSetting, bundleIdentifier: bundleId, settings: settings))
        }
        // Membership of code, documents and manifests.
        let sourceSet = Set(target.sourceFiles)
        let resourceSet = Set(target.resourceFiles)
        func member(_ displayPath: String, compiled: Bool) -> Bool {
            guard let relative = project.projectRelativePath(displayPath) else { return false }
            if compiled ? sourceSet.contains(relative) : resourceSet.contains(relative) { return true }
            return target.synchronizedFolders.contains { $0.contains(relative) }
        }
        let unitSources = sources.filter { member($0.path, compiled: true) }
        let documents = interfaceBuilderDocuments.filter { member($0.path, compiled: false) }
        let ownManifests = manifests.filter { member($0.path, compiled: false) }
        // A manifest in the folder of the target's code but not copied into the bundle.
        let codeFolders = Set(unitSources.map { ($0.path as NSString).deletingLastPathComponent })
        let unclaimed = manifests.filter { manifest in
            !ownManifests.contains { $0.path == manifest.path } && !isTestPath(manifest.path)
                && codeFolders.contains((manifest.path as NSString).deletingLastPathComponent)
        }
        return AppUnit(name: target.name, project: project, target: target, configurations: configurations,
                       sources: unitSources, privacyManifests: ownManifests, unclaimedPrivacyManifests: unclaimed,
                       interfaceBuilderDocuments: documents,
                       thirdPartyDependencies: target.thirdPartyDependencies)
    }

    /// Applies conditional settings (`NAME[sdk=iphoneos*]`, `NAME[config=Release]`) the way an iOS device
    /// build sees them: a condition that holds for it replaces the plain setting; settings for other
    /// platforms (`[sdk=macosx*]`) are dropped. The entry keeps its own line, so findings point at it.
    static func iOSSettings(_ settings: [String: ResolvedBuildSetting], configuration: String) -> [String: ResolvedBuildSetting] {
        var result: [String: ResolvedBuildSetting] = [:]
        var conditional: [(String, ResolvedBuildSetting)] = []
        for (name, setting) in settings {
            guard let open = name.firstIndex(of: "[") else {
                result[name] = setting
                continue
            }
            let base = String(name[..<open])
            let conditions = name[open...].split(whereSeparator: { $0 == "[" || $0 == "]" }).filter { !$0.isEmpty }
            let holds = conditions.allSatisfy { condition in
                let parts = condition.split(separator: "=", maxSplits: 1).map { String($0).trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2 else { return false }
                switch parts[0] {
                case "sdk": return parts[1] == "*" || parts[1].hasPrefix("iphoneos")
                case "config": return parts[1] == configuration || parts[1] == "*"
                case "arch": return true
                default: return false
                }
            }
            if holds { conditional.append((base, setting)) }
        }
        for (base, setting) in conditional.sorted(by: { $0.0 < $1.0 }) { result[base] = setting }
        return result
    }

    /// A configuration is a debug build when its name says so or `DEBUG` is a compilation condition.
    static func isDebugConfiguration(name: String, settings: [String: ResolvedBuildSetting]) -> Bool {
        if name.lowercased().contains("debug") { return true }
        let conditions = settings["SWIFT_ACTIVE_COMPILATION_CONDITIONS"]?.value.split(separator: " ").map(String.init) ?? []
        if conditions.contains("DEBUG") { return true }
        let definitions = settings["GCC_PREPROCESSOR_DEFINITIONS"]?.value.split(separator: " ").map(String.init) ?? []
        return definitions.contains { $0 == "DEBUG" || $0 == "DEBUG=1" || $0 == "\"DEBUG=1\"" }
    }

    /// Files that are not part of the shipped app: tests, mocks, fixtures, preview content. The one
    /// definition is `ShippingScope` (MoatCore); the name is kept for its callers.
    static func isTestPath(_ path: String) -> Bool {
        ShippingScope.reason(forPath: path) != nil
    }
}

extension AppModel {
    /// Code that may run in a unit: its own files, plus files that no app or extension target compiles
    /// (framework targets, local packages, files outside any project). All code for loose files. Use it to
    /// decide that something is *never* used: it errs on the side of "used".
    public func reachableSources(for unit: AppUnit) -> [SourceSummary] {
        if units.count == 1 && unit.isLoose { return sources }
        // Code of another app's folder (a loose app unit) is never reachable from this one.
        let claimed = Set(units.filter { !$0.isLoose || $0.isApp }.flatMap { $0.sources.map(\.path) })
        let own = Set(unit.sources.map(\.path))
        // Unclaimed code (local packages, framework targets) is reachable only inside the unit's app folder:
        // another app's package code scanned in the same run is not this app's.
        let folder = appFolder(of: unit)
        func inside(_ path: String) -> Bool { folder.map { $0.isEmpty || path.hasPrefix($0 + "/") } ?? true }
        return sources.filter { own.contains($0.path) || (!claimed.contains($0.path) && inside($0.path)) }
    }

    /// The folder an app would be scanned as alone: the highest folder above the unit's project (or its
    /// Info.plist, for loose files) that holds no other app — no other project with app targets, no app
    /// Info.plist of another unit. nil when the unit has no place to start from.
    func appFolder(of unit: AppUnit) -> String? {
        func folder(_ path: String) -> String { AppUnit.folder(of: path) }
        let start: String
        if let project = unit.project {
            start = project.isXcodeGenSpec ? folder(project.path) : folder(folder(project.path))
        } else if let plist = unit.infoPlists.first {
            start = folder(plist.path)
        } else {
            return nil
        }
        var markers: [String] = []
        for other in units where other.isApp {
            if let project = unit.project, other.project === project { continue }
            if unit.project == nil, other.project == nil, other.infoPlists.map(\.path) == unit.infoPlists.map(\.path) { continue }
            if let project = other.project { markers.append(project.path) }
            markers += other.infoPlists.map(\.path)
        }
        func holdsOtherApp(_ candidate: String) -> Bool {
            markers.contains { candidate.isEmpty || $0.hasPrefix(candidate + "/") }
        }
        var root = start
        var candidate = start
        while !candidate.isEmpty {
            candidate = folder(candidate)
            if holdsOtherApp(candidate) { break }
            root = candidate
        }
        return root
    }

    /// Code compiled into the unit itself, non-shipping files (tests, mocks, fixtures, previews) excluded. Use it to decide that the unit *needs*
    /// something (a usage description, a privacy manifest entry).
    public func ownSources(for unit: AppUnit) -> [SourceSummary] {
        unit.sources.filter { $0.nonShipping == nil }
    }

    /// Source files that only test targets of the Xcode projects compile (not in a test folder by name).
    public var testTargetOnlyPaths: [String] {
        guard !projects.isEmpty else { return [] }
        let membership = projects.map(ProjectMembership.init)
        return sources.map(\.path).filter { path in
            let kinds = membership.map { $0.targets(of: path) }
            return kinds.contains(.testsOnly) && !kinds.contains(.shipping)
        }
    }

    /// Files that only application targets Xcode never archives compile or use (their code, Info.plist,
    /// entitlements), and no shipping target: a showcase app's own screens (`ProjectMembership.isNeverArchived`).
    public var neverArchivedOnlyPaths: [String] {
        let neverArchived = units.filter(\.isNeverArchived)
        guard !neverArchived.isEmpty else { return [] }
        let membership = projects.map(ProjectMembership.init)
        var usedElsewhere = Set<String>()
        for unit in units where !unit.isNeverArchived {
            usedElsewhere.formUnion(unit.infoPlists.map(\.path))
            usedElsewhere.formUnion(unit.entitlementsDocuments.map(\.path))
        }
        var seen = Set<String>()
        var result: [String] = []
        for unit in neverArchived {
            for path in unit.sources.map(\.path) + unit.infoPlists.map(\.path) + unit.entitlementsDocuments.map(\.path) {
                guard seen.insert(path).inserted, !usedElsewhere.contains(path),
                      !membership.contains(where: { $0.targets(of: path) == .shipping }) else { continue }
                result.append(path)
            }
        }
        return result
    }

    /// Source files named as a template or demo copy (`SPCredentials-demo.swift`, `Secrets.example.swift`,
    /// `Keys-sample.m`) that sit in the folder of an Xcode project and that no target of any project
    /// compiles: the targets compile the file a setup script copies them to, so the copy kept in the
    /// repository (placeholder or public demo values) does not ship.
    public var uncompiledTemplatePaths: [String] {
        guard !projects.isEmpty else { return [] }
        let membership = projects.map(ProjectMembership.init)
        let compiled = Set(units.filter { !$0.isLoose }.flatMap { $0.sources.map(\.path) })
        return sources.map(\.path).filter { path in
            guard Self.isTemplateName(path), !compiled.contains(path) else { return false }
            return projects.contains { $0.projectRelativePath(path) != nil } && membership.allSatisfy { $0.targets(of: path) == .none }
        }
    }

    static let templateSuffixes = ["demo", "example", "sample", "template"].flatMap { word in ["-", "_", "."].map { $0 + word } }

    /// `SPCredentials-demo.swift`, `Secrets.example.swift`, `ApiKeys_template.h`.
    static func isTemplateName(_ path: String) -> Bool {
        let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension.lowercased()
        return templateSuffixes.contains { name.hasSuffix($0) }
    }

    /// The app units (apps, App Clips, extensions, or loose files with an Info.plist).
    public var appUnits: [AppUnit] { units.filter(\.isApp) }
}

extension AppModel {
    /// The app's name and bundle identifier from its Xcode project (first app target, release
    /// configuration), with build settings expanded; nil without a project app target.
    public var projectIdentity: (name: String?, bundleId: String?)? {
        guard let unit = units.first(where: { !$0.isLoose && !$0.isExtension }), let project = unit.project, let target = unit.target,
              let configuration = unit.releaseConfigurations.first ?? unit.configurations.first else { return nil }
        func resolved(_ text: String?) -> String? { text.flatMap { $0.contains("$(") || $0.isEmpty ? nil : $0 } }
        let name = resolved(configuration.infoValue(forKey: "CFBundleDisplayName")?.expandedString)
            ?? resolved(configuration.infoValue(forKey: "CFBundleName")?.expandedString)
            ?? resolved(configuration.settings["PRODUCT_NAME"].map { project.expand($0.value, target: target, settings: configuration.settings) })
            ?? unit.name
        let bundleId = resolved(configuration.infoValue(forKey: "CFBundleIdentifier")?.expandedString) ?? resolved(configuration.bundleIdentifier)
        return (name, bundleId)
    }
}

/// Which targets of a project reference a file, computed once per project (sets, not a scan per file).
struct ProjectMembership {
    /// `neverArchived`: only application targets Xcode never archives (and maybe tests) reference the file.
    enum Targets: Equatable { case none, testsOnly, neverArchived, shipping }

    /// Whether Xcode never puts this target into an archive: an application (not an extension, App Clip or
    /// watch app) whose every release configuration sets `SKIP_INSTALL = YES` — the Archive action installs
    /// only products with `SKIP_INSTALL = NO`, so nothing of it can be uploaded — and that no other target
    /// depends on (a target that embeds it would ship it). Element's RiotSwiftUI, the app that renders
    /// screens for UI tests, sets it in its `.xcconfig`; a shipping app never does. Test targets that depend
    /// on the app (it is their test host) do not embed it.
    static func isNeverArchived(_ target: XcodeTarget, in project: XcodeProject) -> Bool {
        guard target.productType == "com.apple.product-type.application" else { return false }
        // A test target that depends on the app runs in it (its test host); any other dependent embeds it.
        guard !project.targets.contains(where: { other in
            other.id != target.id && other.dependencyTargetIds.contains(target.id)
                && !other.productType.contains("unit-test") && !other.productType.contains("ui-testing")
        }) else { return false }
        let names = target.configurations.map(\.name)
        let release = names.filter { !$0.lowercased().contains("debug") }
        guard !release.isEmpty else { return false }
        return release.allSatisfy { name in
            guard let value = project.resolvedSettings(of: target, configuration: name)["SKIP_INSTALL"]?.value.lowercased() else { return false }
            return ["yes", "true", "1"].contains(value)
        }
    }

    let project: XcodeProject
    let testFiles: Set<String>
    let otherFiles: Set<String>
    let testFolders: [SynchronizedFolder]
    let otherFolders: [SynchronizedFolder]
    let neverArchivedFiles: Set<String>
    let neverArchivedFolders: [SynchronizedFolder]

    init(_ project: XcodeProject) {
        self.project = project
        var testFiles = Set<String>()
        var otherFiles = Set<String>()
        var testFolders: [SynchronizedFolder] = []
        var otherFolders: [SynchronizedFolder] = []
        var neverArchivedFiles = Set<String>()
        var neverArchivedFolders: [SynchronizedFolder] = []
        for target in project.targets {
            let isTest = target.productType.contains("unit-test") || target.productType.contains("ui-testing")
            if !isTest, Self.isNeverArchived(target, in: project) {
                neverArchivedFiles.formUnion(target.sourceFiles)
                neverArchivedFiles.formUnion(target.resourceFiles)
                neverArchivedFolders += target.synchronizedFolders
            } else if isTest {
                testFiles.formUnion(target.sourceFiles)
                testFiles.formUnion(target.resourceFiles)
                testFolders += target.synchronizedFolders
            } else {
                otherFiles.formUnion(target.sourceFiles)
                otherFiles.formUnion(target.resourceFiles)
                otherFolders += target.synchronizedFolders
            }
        }
        self.testFiles = testFiles
        self.otherFiles = otherFiles
        self.testFolders = testFolders
        self.otherFolders = otherFolders
        self.neverArchivedFiles = neverArchivedFiles
        self.neverArchivedFolders = neverArchivedFolders
    }

    /// Whether targets of this project reference the file (display path), and which kind.
    func targets(of displayPath: String) -> Targets {
        guard let relative = project.projectRelativePath(displayPath) else { return .none }
        if otherFiles.contains(relative) || otherFolders.contains(where: { $0.contains(relative) }) { return .shipping }
        if neverArchivedFiles.contains(relative) || neverArchivedFolders.contains(where: { $0.contains(relative) }) { return .neverArchived }
        if testFiles.contains(relative) || testFolders.contains(where: { $0.contains(relative) }) { return .testsOnly }
        return .none
    }
}

// MARK: Which app a configuration place belongs to

/// Which app each configuration place (an Info.plist, an entitlements file, a project's or an `.xcconfig`'s
/// build setting) belongs to, as the units decide it: one Xcode project (its app, extension and watch app
/// targets), or one loose app folder. A configuration decision is grouped only within one app, so an app's
/// findings do not depend on which other apps sit in the folder scanned.
public struct AppPlaces: Sendable {
    public struct Place: Sendable, Hashable {
        /// Identifies the app within one scan: the project's path, or the loose unit.
        public var app: String
        /// The main app's own place (an application target, a loose app's Info.plist), not an extension's,
        /// an App Clip's or a watch app's.
        public var isMainApp: Bool
    }

    var byPath: [String: Place] = [:]
    /// Per project file, its application targets' names.
    var applicationTargets: [String: Set<String>] = [:]

    public init() {}

    public init(units: [AppUnit]) {
        func add(_ path: String, _ place: Place) {
            if let known = byPath[path] {
                // A file shared by two apps is grouped with the first; it is the main place if it is any app's.
                if known.app == place.app, place.isMainApp { byPath[path]?.isMainApp = true }
            } else {
                byPath[path] = place
            }
        }
        for (index, unit) in units.enumerated() {
            // Code: which app compiles it (source findings a rule groups stay within one app too).
            let app = unit.project.map { "project:" + $0.path } ?? "folder:\(index)"
            for source in unit.sources { add(source.path, Place(app: app, isMainApp: false)) }
            if let project = unit.project, let target = unit.target {
                // A watch app built as a plain application target is told apart by its SDK or its Info.plist.
                let sdks = unit.configurations.compactMap { $0.settings["SDKROOT"]?.value.lowercased() }
                let isApplication = target.productType == "com.apple.product-type.application"
                    && sdks.allSatisfy { $0.contains("iphone") || $0.contains("$(") }
                    && !unit.infoPlists.contains(where: AppPlaces.isWatchInfoPlist)
                let place = Place(app: "project:" + project.path, isMainApp: isApplication)
                add(project.path, Place(app: place.app, isMainApp: false))
                if isApplication { applicationTargets[project.path, default: []].insert(target.name) }
                for document in unit.infoPlists + unit.entitlementsDocuments { add(document.path, place) }
                for configuration in unit.configurations {
                    for resolved in configuration.settings.values {
                        if case .configurationFile(let file) = resolved.origin { add(project.displayPath(file), place) }
                    }
                }
            } else {
                let app = "folder:\(index)"
                for document in unit.infoPlists {
                    let isExtension = document.root["NSExtension"] != nil || document.root["EXAppExtensionAttributes"] != nil
                    add(document.path, Place(app: app, isMainApp: !isExtension && !Self.isWatchInfoPlist(document)))
                }
                for document in unit.entitlementsDocuments { add(document.path, Place(app: app, isMainApp: false)) }
            }
        }
    }

    static func isWatchInfoPlist(_ document: PropertyListDocument) -> Bool {
        document.root["WKWatchKitApp"] != nil || document.root["WKApplication"] != nil
            || document.root["WKCompanionAppBundleIdentifier"] != nil
    }

    /// The app a finding's place belongs to, nil for a file no unit uses.
    public func place(of location: Location) -> Place? {
        guard var place = byPath[location.path] else { return nil }
        if let targets = applicationTargets[location.path], let keyPath = location.keyPath {
            if keyPath.hasPrefix("project.") {
                place.isMainApp = true
            } else if keyPath.hasPrefix("targets."), let end = keyPath.range(of: ".buildSettings[") {
                let name = String(keyPath[keyPath.index(keyPath.startIndex, offsetBy: "targets.".count)..<end.lowerBound])
                place.isMainApp = targets.contains(name)
            }
        }
        return place
    }
}

extension AppModel {
    /// Which app each configuration place belongs to (see `AppPlaces`).
    public var places: AppPlaces { AppPlaces(units: units) }
}
