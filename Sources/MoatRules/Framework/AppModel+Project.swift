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
        if case .configurationFile(let file) = resolved.origin { path = project.displayPath(file) } else { path = project.path }
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
                      interfaceBuilderDocuments: [InterfaceBuilderDocument]) -> [AppUnit] {
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
        if units.isEmpty {
            units.append(looseUnit(plists: plists, sources: sources, interfaceBuilderDocuments: interfaceBuilderDocuments))
        }
        return units
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

    /// Test folders and files (`AppTests/`, `FooTests.swift`), which are not part of the shipped app.
    static func isTestPath(_ path: String) -> Bool {
        let components = path.split(separator: "/")
        for component in components.dropLast() where component == "Tests" || component.hasSuffix("Tests") || component.hasSuffix("UITests") {
            return true
        }
        return false
    }
}

extension AppModel {
    /// Code that may run in a unit: its own files, plus files that no app or extension target compiles
    /// (framework targets, local packages, files outside any project). All code for loose files. Use it to
    /// decide that something is *never* used: it errs on the side of "used".
    public func reachableSources(for unit: AppUnit) -> [SourceSummary] {
        guard !unit.isLoose else { return sources }
        let claimed = Set(units.flatMap { $0.sources.map(\.path) })
        let own = Set(unit.sources.map(\.path))
        return sources.filter { own.contains($0.path) || !claimed.contains($0.path) }
    }

    /// Code compiled into the unit itself, test code excluded. Use it to decide that the unit *needs*
    /// something (a usage description, a privacy manifest entry).
    public func ownSources(for unit: AppUnit) -> [SourceSummary] {
        unit.sources.filter { !AppUnit.isTestPath($0.path) }
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
