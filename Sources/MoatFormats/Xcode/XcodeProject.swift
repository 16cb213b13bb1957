import Foundation

/// A problem with an Xcode project file.
public struct XcodeProjectError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// One build setting as written: in a configuration of the project or of a target, or in an `.xcconfig`.
public struct BuildSetting: Sendable, Hashable {
    public var name: String
    /// The value as one string (array values joined by spaces).
    public var value: String
    /// Array values element by element (a one-element list for a string).
    public var values: [String]
    /// Where the setting's name is written (1-based).
    public var line: Int
    public var column: Int

    public init(name: String, value: String, values: [String], line: Int, column: Int) {
        self.name = name
        self.value = value
        self.values = values
        self.line = line
        self.column = column
    }

    /// `YES`/`NO` (and `true`/`false`, `1`/`0`), nil for anything else.
    public var bool: Bool? {
        switch value.trimmingCharacters(in: .whitespaces).lowercased() {
        case "yes", "true", "1": return true
        case "no", "false", "0": return false
        default: return nil
        }
    }
}

/// An `XCBuildConfiguration`: a named set of build settings (`Debug`, `Release`...).
public struct BuildConfiguration: Sendable {
    public var id: String
    public var name: String
    public var settings: [String: BuildSetting]
    /// The `.xcconfig` this configuration is based on, relative to the project folder (nil when none
    /// or when it lives outside the project, e.g. in an absolute path).
    public var baseConfigurationPath: String?
    /// True when the configuration names a base `.xcconfig` that could not be located or read: its
    /// settings are then incomplete.
    public var hasUnreadBaseConfiguration: Bool

    public init(id: String, name: String, settings: [String: BuildSetting], baseConfigurationPath: String?,
                hasUnreadBaseConfiguration: Bool = false) {
        self.id = id
        self.name = name
        self.settings = settings
        self.baseConfigurationPath = baseConfigurationPath
        self.hasUnreadBaseConfiguration = hasUnreadBaseConfiguration
    }
}

/// A folder that Xcode 16 keeps in sync with a target (`PBXFileSystemSynchronizedRootGroup`): every file
/// under `path` belongs to the target except the `excluded` ones (relative to `path`).
///
/// A `PBXFileSystemSynchronizedBuildFileExceptionSet` of the folder names a target and lists
/// `membershipExceptions`. For a target that owns the folder (the folder is in its
/// `fileSystemSynchronizedGroups`) the listed files are removed from it; for any other target they are
/// the only files of the folder it has (`only`): Xcode 16 writes such a set when one file of another
/// target's folder is ticked for this target.
public struct SynchronizedFolder: Sendable, Hashable {
    public var path: String
    public var excluded: Set<String>
    /// When set, only these files (and folders) of `path` belong to the target.
    public var only: Set<String>?

    /// Glob patterns (XcodeGen `excludes`, relative to `path`): matching files and folders are left out.
    public var excludedPatterns: [String]
    /// Glob patterns (XcodeGen `includes`): when set, only matching files belong to the target.
    public var includedPatterns: [String]?

    public init(path: String, excluded: Set<String>, only: Set<String>? = nil,
                excludedPatterns: [String] = [], includedPatterns: [String]? = nil) {
        self.path = path
        self.excluded = excluded
        self.only = only
        self.excludedPatterns = excludedPatterns
        self.includedPatterns = includedPatterns
    }

    /// Whether a project-relative path belongs to this folder's target.
    public func contains(_ projectRelativePath: String) -> Bool {
        let prefix = path.isEmpty ? "" : path + "/"
        guard projectRelativePath.hasPrefix(prefix) else { return false }
        let inner = String(projectRelativePath.dropFirst(prefix.count))
        let within: (String) -> Bool = { listed in
            let entry = listed.hasPrefix("/") ? String(listed.dropFirst()) : listed
            return inner == entry || inner.hasPrefix(entry + "/")
        }
        if excludedPatterns.contains(where: { PathGlob.matchesPathOrAncestor($0, inner) }) { return false }
        if let includedPatterns, !includedPatterns.contains(where: { PathGlob.matchesPathOrAncestor($0, inner) }) { return false }
        if let only { return only.contains(where: within) && !excluded.contains(where: within) }
        return !excluded.contains(where: within)
    }
}

/// A `PBXNativeTarget`.
public struct XcodeTarget: Sendable {
    public var id: String
    public var name: String
    public var productName: String?
    /// `com.apple.product-type.application`, `com.apple.product-type.app-extension`, ...
    public var productType: String
    public var configurations: [BuildConfiguration]
    public var defaultConfigurationName: String?
    /// Compiled files (`PBXSourcesBuildPhase`), relative to the project folder.
    public var sourceFiles: [String]
    /// Copied resources (`PBXResourcesBuildPhase`), relative to the project folder.
    public var resourceFiles: [String]
    public var synchronizedFolders: [SynchronizedFolder]
    /// Linked frameworks and libraries that are neither system SDK nor products of this project, Swift
    /// packages, and `CocoaPods` when the Pods integration phases are present.
    public var thirdPartyDependencies: [String]
    /// Targets of this project this one depends on (embedded extensions, frameworks).
    public var dependencyTargetIds: [String]
    /// Where the target's `isa` line is (its definition).
    public var line: Int
    /// For a target read from an XcodeGen spec: the display path of the spec file that defines it, where its
    /// settings and `line` are (nil: the project file).
    public var specPath: String?

    public init(id: String, name: String, productName: String?, productType: String, configurations: [BuildConfiguration],
                defaultConfigurationName: String?, sourceFiles: [String], resourceFiles: [String],
                synchronizedFolders: [SynchronizedFolder], thirdPartyDependencies: [String], dependencyTargetIds: [String],
                line: Int) {
        self.id = id
        self.name = name
        self.productName = productName
        self.productType = productType
        self.configurations = configurations
        self.defaultConfigurationName = defaultConfigurationName
        self.sourceFiles = sourceFiles
        self.resourceFiles = resourceFiles
        self.synchronizedFolders = synchronizedFolders
        self.thirdPartyDependencies = thirdPartyDependencies
        self.dependencyTargetIds = dependencyTargetIds
        self.line = line
    }

    /// Apps, App Clips, watch apps and every kind of app extension: the bundles that carry their own
    /// Info.plist, entitlements and privacy manifest onto a device.
    public var isAppOrExtension: Bool {
        let type = productType
        if type.contains("unit-test") || type.contains("ui-testing") { return false }
        return type.contains("application") || type.contains("extension") || type.contains("app-clip")
    }

    public var isExtension: Bool { productType.contains("extension") }

    /// Whether a project-relative file belongs to this target (compiled, copied or in a synchronized folder).
    public func contains(_ projectRelativePath: String) -> Bool {
        sourceFiles.contains(projectRelativePath) || resourceFiles.contains(projectRelativePath)
            || synchronizedFolders.contains { $0.contains(projectRelativePath) }
    }
}

/// Where a resolved build setting was written.
public enum BuildSettingOrigin: Sendable, Hashable {
    /// In the target's configuration in `project.pbxproj`.
    case target(configuration: String)
    /// In the project's configuration of the same name, inherited by every target.
    case project(configuration: String)
    /// In an `.xcconfig` file (path relative to the project folder).
    case configurationFile(path: String)
}

/// A build setting as a target sees it in one configuration, with the place it comes from.
public struct ResolvedBuildSetting: Sendable {
    public var setting: BuildSetting
    /// The value with `$(inherited)` replaced by the lower level's value.
    public var value: String
    public var origin: BuildSettingOrigin

    public init(setting: BuildSetting, value: String, origin: BuildSettingOrigin) {
        self.setting = setting
        self.value = value
        self.origin = origin
    }
}

/// An `.xcconfig` file: `NAME = value` lines, `#include`, `//` comments. Conditional assignments
/// (`NAME[sdk=iphoneos*] = ...`) are skipped: they apply only to some builds.
public struct ConfigurationFile: Sendable {
    /// Relative to the project folder.
    public var path: String
    public var settings: [String: BuildSetting]
    /// Included files, relative to the project folder, in order.
    public var includes: [String]

    public init(path: String, settings: [String: BuildSetting], includes: [String]) {
        self.path = path
        self.settings = settings
        self.includes = includes
    }

    public static func parse(_ text: String, path: String) -> (file: ConfigurationFile, includes: [(path: String, optional: Bool)]) {
        var settings: [String: BuildSetting] = [:]
        var includes: [(String, Bool)] = []
        let directory = (path as NSString).deletingLastPathComponent
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = Substring(rawLine)
            if let comment = line.range(of: "//") { line = line[..<comment.lowerBound] }
            let trimmed = line.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "\r")))
            if trimmed.isEmpty { continue }
            if trimmed.hasPrefix("#include") {
                let optional = trimmed.hasPrefix("#include?")
                guard let open = trimmed.firstIndex(of: "\""), let close = trimmed.lastIndex(of: "\""), open < close else { continue }
                let target = String(trimmed[trimmed.index(after: open)..<close])
                let joined = target.hasPrefix("/") ? target : XcodeProject.normalize(directory.isEmpty ? target : directory + "/" + target)
                includes.append((joined, optional))
                continue
            }
            guard let equals = trimmed.firstIndex(of: "=") else { continue }
            let name = trimmed[..<equals].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, !name.contains("["), name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { continue }
            var value = trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.hasSuffix(";") { value.removeLast() }
            let column = (rawLine.range(of: name).map { rawLine.distance(from: rawLine.startIndex, to: $0.lowerBound) } ?? 0) + 1
            settings[name] = BuildSetting(name: name, value: value, values: [value], line: offset + 1, column: column)
        }
        return (ConfigurationFile(path: path, settings: settings, includes: includes.map(\.0)), includes)
    }
}

/// An Xcode project (`project.pbxproj`) read with positions: its targets, their build configurations and
/// settings (with the line of each), the files each target compiles and copies, and the `.xcconfig`
/// files its configurations are based on.
public final class XcodeProject: @unchecked Sendable {
    /// Largest project file read.
    public static let maximumSize = 64 * 1024 * 1024

    /// Display path of the `project.pbxproj` (relative to the scanned root).
    public let path: String
    /// Display path of the folder the project's files are relative to (`SRCROOT`): the folder that holds
    /// the `.xcodeproj`, plus `projectDirPath`. Empty for the scanned root itself.
    public let projectDirectory: String
    public let targets: [XcodeTarget]
    /// Project-level configurations; targets inherit settings from the one with the same name.
    public let projectConfigurations: [BuildConfiguration]
    public let defaultConfigurationName: String?
    /// Remote and local Swift packages the project references (URLs or paths).
    public let packageReferences: [String]
    /// `.xcconfig` files read, keyed by project-relative path.
    public private(set) var configurationFiles: [String: ConfigurationFile] = [:]
    /// Non-fatal problems (an `.xcconfig` that could not be read...).
    public private(set) var warnings: [String] = []
    /// The parsed tree, for readers that need more than the model (empty for an XcodeGen spec).
    public let root: OpenStepNode
    /// The `name` of an XcodeGen spec (nil for a `project.pbxproj`).
    public let specName: String?
    /// Whether the project was read from an XcodeGen spec (`project.yml`) rather than a `project.pbxproj`.
    public var isXcodeGenSpec: Bool { !path.hasSuffix(".pbxproj") }

    init(path: String, projectDirectory: String, targets: [XcodeTarget], projectConfigurations: [BuildConfiguration],
         defaultConfigurationName: String?, packageReferences: [String], root: OpenStepNode, specName: String? = nil) {
        self.specName = specName
        self.path = path
        self.projectDirectory = projectDirectory
        self.targets = targets
        self.projectConfigurations = projectConfigurations
        self.defaultConfigurationName = defaultConfigurationName
        self.packageReferences = packageReferences
        self.root = root
    }

    // MARK: Reading

    /// Reads a `project.pbxproj` file and the `.xcconfig` files its configurations name.
    public static func load(fileAt url: URL, path: String) throws -> XcodeProject {
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        if let size = (attributes?[.size] as? NSNumber)?.intValue, size > maximumSize {
            throw XcodeProjectError("project file is \(size) bytes, larger than the \(maximumSize)-byte limit")
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw XcodeProjectError("cannot read project file: permission denied or unreadable")
        }
        return try load(data: data, url: url, path: path)
    }

    /// Parses project text read from `url` (the `project.pbxproj` on disk), then reads the `.xcconfig`
    /// files its configurations name, relative to the project folder.
    public static func load(data: Data, url: URL, path: String) throws -> XcodeProject {
        let project = try parse(data: data, path: path)
        // SRCROOT on disk: the folder holding the .xcodeproj, plus projectDirPath.
        let xcodeproj = url.deletingLastPathComponent()
        var sourceRoot = xcodeproj.deletingLastPathComponent()
        if let directory = project.root["objects"]?[project.root["rootObject"]?.string ?? ""]?["projectDirPath"]?.string,
           !directory.isEmpty, !directory.hasPrefix("/") {
            sourceRoot = sourceRoot.appendingPathComponent(directory)
        }
        project.readConfigurationFiles(sourceRoot: sourceRoot)
        return project
    }

    /// Parses project text. `path` is the display path of the `project.pbxproj`.
    public static func parse(data: Data, path: String) throws -> XcodeProject {
        guard data.count <= maximumSize else {
            throw XcodeProjectError("project file is \(data.count) bytes, larger than the \(maximumSize)-byte limit")
        }
        if data.starts(with: Array("bplist".utf8)) || data.starts(with: Array("<?xml".utf8)) {
            throw XcodeProjectError("project file is not in the OpenStep text format Xcode writes")
        }
        let root: OpenStepNode
        do {
            root = try OpenStepReader.read(data)
        } catch let error as OpenStepError {
            throw XcodeProjectError("malformed project file at line \(error.line): \(error.message)")
        }
        return try build(root: root, path: path)
    }

    private static func build(root: OpenStepNode, path: String) throws -> XcodeProject {
        // Id lists are read without repeats: a target (or phase, file, configuration) listed 1,000 times
        // was built 1,000 times, each build scanning the object list (12 s for a 2.6 KB file).
        guard root.entries != nil else { throw XcodeProjectError("malformed project file: the root is not a dictionary") }
        guard let objects = root["objects"], let objectEntries = objects.entries else {
            throw XcodeProjectError("malformed project file: no 'objects' dictionary")
        }
        var table: [String: OpenStepNode] = [:]
        for entry in objectEntries where entry.value.entries != nil { table[entry.key] = entry.value }
        guard let rootId = root["rootObject"]?.string, let project = table[rootId], project["isa"]?.string == "PBXProject" else {
            throw XcodeProjectError("malformed project file: 'rootObject' does not name a PBXProject")
        }
        let resolver = PathResolver(objects: table, mainGroup: project["mainGroup"]?.string)

        // The display folder that holds the .xcodeproj, plus projectDirPath.
        var components = path.split(separator: "/").map(String.init)
        if components.count >= 2 { components.removeLast(2) } else { components.removeAll() }
        var projectDirectory = components.joined(separator: "/")
        if let directory = project["projectDirPath"]?.string, !directory.isEmpty, !directory.hasPrefix("/") {
            projectDirectory = normalize(projectDirectory.isEmpty ? directory : projectDirectory + "/" + directory)
        }

        func configurations(listId: String?) -> (configurations: [BuildConfiguration], defaultName: String?) {
            guard let listId, let list = table[listId] else { return ([], nil) }
            var result: [BuildConfiguration] = []
            for id in uniqueIds(list["buildConfigurations"]) {
                guard let configuration = table[id], let name = configuration["name"]?.string else { continue }
                var settings: [String: BuildSetting] = [:]
                for entry in configuration["buildSettings"]?.entries ?? [] {
                    let values = entry.value.strings
                    settings[entry.key] = BuildSetting(name: entry.key, value: values.joined(separator: " "), values: values,
                                                       line: entry.line, column: entry.column)
                }
                var basePath: String?
                var unread = false
                if let reference = configuration["baseConfigurationReference"]?.string {
                    basePath = resolver.path(of: reference)
                    unread = basePath == nil
                }
                result.append(BuildConfiguration(id: id, name: name, settings: settings, baseConfigurationPath: basePath,
                                                 hasUnreadBaseConfiguration: unread))
            }
            return (result, list["defaultConfigurationName"]?.string)
        }

        let productIds = Set(table.values.compactMap { $0["isa"]?.string == "PBXNativeTarget" ? $0["productReference"]?.string : nil })
        let synchronizedGroups = objectEntries.filter { $0.value["isa"]?.string == "PBXFileSystemSynchronizedRootGroup" }
            .map { (key: $0.key, value: $0.value) }
        var targets: [XcodeTarget] = []
        for targetId in uniqueIds(project["targets"]) {
            guard let target = table[targetId], target["isa"]?.string == "PBXNativeTarget" else { continue }
            let name = target["name"]?.string ?? targetId
            let (targetConfigurations, defaultName) = configurations(listId: target["buildConfigurationList"]?.string)
            var sources: [String] = []
            var resources: [String] = []
            var thirdParty: [String] = []
            for phaseId in uniqueIds(target["buildPhases"]) {
                guard let phase = table[phaseId], let isa = phase["isa"]?.string else { continue }
                if isa == "PBXShellScriptBuildPhase" {
                    let label = (phase["name"]?.string ?? "") + " " + (phase["shellScript"]?.string ?? "")
                    if label.contains("Pods-") || label.contains("[CP]") { thirdParty.append("CocoaPods") }
                    continue
                }
                for buildFileId in uniqueIds(phase["files"]) {
                    guard let buildFile = table[buildFileId] else { continue }
                    if let product = buildFile["productRef"]?.string, isa == "PBXFrameworksBuildPhase" {
                        thirdParty.append(table[product]?["productName"]?.string ?? product)
                        continue
                    }
                    guard let reference = buildFile["fileRef"]?.string else { continue }
                    switch isa {
                    case "PBXSourcesBuildPhase":
                        sources.append(contentsOf: resolver.paths(ofFileOrGroup: reference))
                    case "PBXResourcesBuildPhase":
                        resources.append(contentsOf: resolver.paths(ofFileOrGroup: reference))
                    case "PBXFrameworksBuildPhase":
                        guard !productIds.contains(reference), let file = table[reference] else { continue }
                        let tree = file["sourceTree"]?.string ?? "<group>"
                        if tree == "SDKROOT" || tree == "DEVELOPER_DIR" { continue }
                        let label = file["name"]?.string ?? file["path"]?.string ?? reference
                        if label.hasPrefix("Pods_") || label.hasPrefix("libPods") {
                            thirdParty.append("CocoaPods")
                        } else {
                            thirdParty.append((label as NSString).lastPathComponent)
                        }
                    default:
                        break
                    }
                }
            }
            for product in target["packageProductDependencies"]?.strings ?? [] {
                thirdParty.append(table[product]?["productName"]?.string ?? product)
            }
            var folders: [SynchronizedFolder] = []
            let ownGroups = target["fileSystemSynchronizedGroups"]?.strings ?? []
            for groupId in ownGroups {
                guard let group = table[groupId], let folder = resolver.path(of: groupId) else { continue }
                var excluded = Set<String>()
                for exceptionId in group["exceptions"]?.strings ?? [] {
                    guard let exception = table[exceptionId], exception["target"]?.string == targetId else { continue }
                    excluded.formUnion(exception["membershipExceptions"]?.strings ?? [])
                }
                folders.append(SynchronizedFolder(path: folder, excluded: excluded))
            }
            // Files of other targets' synchronized folders added to this one by an exception set.
            for (groupId, group) in synchronizedGroups where !ownGroups.contains(groupId) {
                guard let folder = resolver.path(of: groupId) else { continue }
                var added = Set<String>()
                for exceptionId in group["exceptions"]?.strings ?? [] {
                    guard let exception = table[exceptionId], exception["target"]?.string == targetId,
                          exception["isa"]?.string == "PBXFileSystemSynchronizedBuildFileExceptionSet" else { continue }
                    added.formUnion(exception["membershipExceptions"]?.strings ?? [])
                }
                if !added.isEmpty { folders.append(SynchronizedFolder(path: folder, excluded: [], only: added)) }
            }
            let dependencies = (target["dependencies"]?.strings ?? []).compactMap { table[$0]?["target"]?.string }
            var seen = Set<String>()
            targets.append(XcodeTarget(
                id: targetId, name: name, productName: target["productName"]?.string,
                productType: target["productType"]?.string ?? "", configurations: targetConfigurations,
                defaultConfigurationName: defaultName, sourceFiles: sources, resourceFiles: resources,
                synchronizedFolders: folders, thirdPartyDependencies: thirdParty.filter { seen.insert($0).inserted },
                dependencyTargetIds: dependencies, line: objectEntries.first { $0.key == targetId }?.line ?? target.line))
        }
        let (projectConfigurations, projectDefault) = configurations(listId: project["buildConfigurationList"]?.string)
        let packages = (project["packageReferences"]?.strings ?? []).compactMap { id -> String? in
            table[id]?["repositoryURL"]?.string ?? table[id]?["relativePath"]?.string
        }
        return XcodeProject(path: path, projectDirectory: projectDirectory, targets: targets,
                            projectConfigurations: projectConfigurations, defaultConfigurationName: projectDefault,
                            packageReferences: packages, root: root)
    }

    /// Reads the `.xcconfig` files (and their includes) that configurations are based on. Paths that
    /// leave the project folder's parent are not followed.
    func readConfigurationFiles(sourceRoot: URL) {
        let names = Set((projectConfigurations + targets.flatMap(\.configurations)).compactMap(\.baseConfigurationPath))
        var pending = names.sorted().map { ($0, false, 0) }
        var visited = Set<String>()
        while let (relative, optional, depth) = pending.first {
            pending.removeFirst()
            guard visited.insert(relative).inserted, visited.count <= 64, depth <= 8 else { continue }
            guard !relative.hasPrefix("/"), !relative.hasPrefix("../..") else {
                if !optional { warnings.append("configuration file '\(relative)' is outside the project and was not read") }
                continue
            }
            let url = sourceRoot.appendingPathComponent(relative)
            let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
            guard let size = (attributes?[.size] as? NSNumber)?.intValue, size <= 1024 * 1024,
                  let data = FileManager.default.contents(atPath: url.path),
                  let text = String(data: data, encoding: .utf8) else {
                if !optional { warnings.append("cannot read configuration file '\(relative)'") }
                continue
            }
            let (file, includes) = ConfigurationFile.parse(text, path: relative)
            configurationFiles[relative] = file
            pending.append(contentsOf: includes.map { ($0.path, $0.optional, depth + 1) })
        }
    }

    func addWarning(_ warning: String) { warnings.append(warning) }

    /// Adds an already-parsed configuration file (tests, archives).
    public func addConfigurationFile(_ file: ConfigurationFile) {
        configurationFiles[file.path] = file
    }

    // MARK: Settings

    /// Most includes merged while flattening one `.xcconfig` (each file and depth is flattened once).
    static let maximumIncludeExpansions = 4_096

    /// The settings of one `.xcconfig` with its includes applied (later lines win).
    private func flattenedSettings(ofConfigurationFile path: String) -> [String: (BuildSetting, String)] {
        var memo: [FlattenKey: [String: (BuildSetting, String)]] = [:]
        var budget = Self.maximumIncludeExpansions
        return flattenedSettings(ofConfigurationFile: path, depth: 0, memo: &memo, budget: &budget)
    }

    private struct FlattenKey: Hashable {
        var path: String
        var depth: Int
    }

    /// Bounded: a file's result at one depth is computed once (six `#include` lines of the file itself
    /// cost 6^9 merges before), an include repeated in a file is merged once at its last place (merging
    /// the same settings again where it last appears gives the same result), and at most
    /// `maximumIncludeExpansions` includes are merged in all.
    private func flattenedSettings(ofConfigurationFile path: String, depth: Int,
                                   memo: inout [FlattenKey: [String: (BuildSetting, String)]],
                                   budget: inout Int) -> [String: (BuildSetting, String)] {
        guard depth <= 8, let file = configurationFiles[path] else { return [:] }
        let key = FlattenKey(path: path, depth: depth)
        if let known = memo[key] { return known }
        var result: [String: (BuildSetting, String)] = [:]
        var seen = Set<String>()
        let includes = file.includes.reversed().filter { seen.insert($0).inserted }.reversed()
        for include in includes {
            guard budget > 0 else { break }
            budget -= 1
            for (name, value) in flattenedSettings(ofConfigurationFile: include, depth: depth + 1, memo: &memo, budget: &budget) {
                result[name] = value
            }
        }
        for (name, setting) in file.settings { result[name] = (setting, path) }
        memo[key] = result
        return result
    }

    /// Whether a configuration's settings could be read completely (its `.xcconfig`, if any, was found).
    public func isComplete(_ configuration: BuildConfiguration) -> Bool {
        if configuration.hasUnreadBaseConfiguration { return false }
        guard let base = configuration.baseConfigurationPath else { return true }
        return configurationFiles[base] != nil
    }

    /// The settings a target sees in one configuration, lowest to highest priority: the project's
    /// `.xcconfig`, the project's settings, the target's `.xcconfig`, the target's settings.
    /// `$(inherited)` is replaced by the value of the level below.
    public func resolvedSettings(of target: XcodeTarget, configuration name: String) -> [String: ResolvedBuildSetting] {
        var result: [String: ResolvedBuildSetting] = [:]
        func apply(_ setting: BuildSetting, _ origin: BuildSettingOrigin) {
            var value = setting.value
            if value.contains("$(inherited)") || value.contains("${inherited}") {
                let lower = result[setting.name]?.value ?? ""
                value = value.replacingOccurrences(of: "$(inherited)", with: lower)
                    .replacingOccurrences(of: "${inherited}", with: lower).trimmingCharacters(in: .whitespaces)
            }
            result[setting.name] = ResolvedBuildSetting(setting: setting, value: value, origin: origin)
        }
        func applyLevel(_ configuration: BuildConfiguration?, _ origin: BuildSettingOrigin) {
            guard let configuration else { return }
            if let base = configuration.baseConfigurationPath {
                for (_, (setting, file)) in flattenedSettings(ofConfigurationFile: base).sorted(by: { $0.key < $1.key }) {
                    apply(setting, .configurationFile(path: file))
                }
            }
            for (_, setting) in configuration.settings.sorted(by: { $0.key < $1.key }) { apply(setting, origin) }
        }
        applyLevel(projectConfigurations.first { $0.name == name }, .project(configuration: name))
        applyLevel(target.configurations.first { $0.name == name }, .target(configuration: name))
        return result
    }

    /// A setting's value with `$(NAME)`/`${NAME}` references expanded from the other settings and the
    /// built-in names Xcode defines (`TARGET_NAME`, `PRODUCT_NAME`, `SRCROOT`...). Unknown names stay as
    /// they are, so callers can tell an unresolved value.
    public func expand(_ value: String, target: XcodeTarget, settings: [String: ResolvedBuildSetting]) -> String {
        var builtins: [String: String] = [
            "TARGET_NAME": target.name, "SRCROOT": ".", "PROJECT_DIR": ".", "SOURCE_ROOT": ".",
            "PROJECT_NAME": projectName, "PLATFORM_NAME": "iphoneos", "EFFECTIVE_PLATFORM_NAME": "-iphoneos",
        ]
        builtins["PRODUCT_NAME"] = settings["PRODUCT_NAME"]?.value ?? target.productName ?? target.name
        return Self.expand(value, depth: 0) { name in
            if let setting = settings[name] { return setting.value }
            return builtins[name]
        }
    }

    /// The project's name (`App` for `App.xcodeproj`).
    public var projectName: String {
        if let specName { return specName }
        let components = path.split(separator: "/")
        guard components.count >= 2 else { return "" }
        let folder = String(components[components.count - 2])
        return folder.hasSuffix(".xcodeproj") ? String(folder.dropLast(".xcodeproj".count)) : folder
    }

    /// Expands references. Bounded: at most 8 levels deep, 256 substitutions and 16 KB of output, so a
    /// hostile project (`A = "$(A)$(A)"`) cannot make it blow up.
    static func expand(_ value: String, depth: Int, lookup: (String) -> String?) -> String {
        var budget = 256
        return expand(value, depth: depth, budget: &budget, lookup: lookup)
    }

    private static func expand(_ value: String, depth: Int, budget: inout Int, lookup: (String) -> String?) -> String {
        guard depth < 8, value.contains("$") else { return value }
        var output = ""
        var index = value.startIndex
        // Closers known to be missing from the rest of the value: looking again for each later `$(` was
        // quadratic (8,000 unclosed `$(`: 36 s).
        var missing = Set<Character>()
        while index < value.endIndex {
            guard output.utf8.count < 16_384 else { break }
            let character = value[index]
            let next = value.index(after: index)
            if character == "$", next < value.endIndex, value[next] == "(" || value[next] == "{", budget > 0 {
                let close: Character = value[next] == "(" ? ")" : "}"
                if missing.contains(close) {
                    // Nothing to expand: copied as it is, below.
                } else if let end = value[next...].firstIndex(of: close) {
                    let inner = String(value[value.index(after: next)..<end])
                    let parts = inner.split(separator: ":", maxSplits: 1).map(String.init)
                    let name = parts.first ?? inner
                    if let found = lookup(name) {
                        budget -= 1
                        var replacement = expand(found, depth: depth + 1, budget: &budget, lookup: lookup)
                        if parts.count == 2 { replacement = applyOperators(parts[1], to: replacement) }
                        output += replacement
                    } else {
                        output += value[index...end]
                    }
                    index = value.index(after: end)
                    continue
                } else {
                    missing.insert(close)
                }
            }
            output.append(character)
            index = next
        }
        return output
    }

    private static func applyOperators(_ operators: String, to value: String) -> String {
        var result = value
        for op in operators.split(separator: ",") {
            switch op {
            case "rfc1034identifier":
                result = String(result.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." ? $0 : "-" })
            case "c99extidentifier", "identifier":
                result = String(result.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
            case "lower": result = result.lowercased()
            case "upper": result = result.uppercased()
            default: break
            }
        }
        return result
    }

    // MARK: Paths

    /// Display path (relative to the scanned root) of a project-relative path.
    public func displayPath(_ projectRelative: String) -> String {
        Self.normalize(projectDirectory.isEmpty ? projectRelative : projectDirectory + "/" + projectRelative)
    }

    /// The project-relative form of a display path, or nil when it is not under the project folder.
    public func projectRelativePath(_ displayPath: String) -> String? {
        if projectDirectory.isEmpty { return displayPath }
        let prefix = projectDirectory + "/"
        return displayPath.hasPrefix(prefix) ? String(displayPath.dropFirst(prefix.count)) : nil
    }

    /// `a/./b/../c` → `a/c`. Leading `..` that leave the base are kept.
    public static func normalize(_ path: String) -> String {
        var parts: [Substring] = []
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            if component == "." { continue }
            if component == "..", let last = parts.last, last != ".." {
                parts.removeLast()
                continue
            }
            parts.append(component)
        }
        return parts.joined(separator: "/")
    }

    /// The key path used in findings for a setting of a target: `targets.App.buildSettings[Release].NAME`.
    public static func keyPath(target: String, origin: BuildSettingOrigin, name: String) -> String {
        switch origin {
        case .target(let configuration): return "targets.\(target).buildSettings[\(configuration)].\(name)"
        case .project(let configuration): return "project.buildSettings[\(configuration)].\(name)"
        case .configurationFile: return name
        }
    }
}

/// The ids of an id list (or a single id) in order, each once: Xcode never repeats one, and a hostile file
/// that does would make every reader of the list do its work again per copy.
func uniqueIds(_ node: OpenStepNode?) -> [String] {
    var seen = Set<String>()
    return (node?.strings ?? []).filter { seen.insert($0).inserted }
}

/// Resolves file references and groups to paths relative to the project folder, following the group
/// hierarchy (`sourceTree = "<group>"`), `SOURCE_ROOT`, and synchronized folders. References to the SDK,
/// the build folder or absolute paths have no project-relative path.
struct PathResolver {
    let objects: [String: OpenStepNode]
    let mainGroup: String?
    private var parents: [String: String] = [:]

    init(objects: [String: OpenStepNode], mainGroup: String?) {
        self.objects = objects
        self.mainGroup = mainGroup
        for (id, object) in objects {
            for child in object["children"]?.strings ?? [] where parents[child] == nil { parents[child] = id }
        }
    }

    func path(of id: String) -> String? {
        path(of: id, depth: 0)
    }

    private func path(of id: String, depth: Int) -> String? {
        guard depth < 64, let object = objects[id] else { return nil }
        let own = object["path"]?.string
        switch object["sourceTree"]?.string ?? "<group>" {
        case "<group>":
            let base: String
            if let parent = parents[id] {
                guard let parentPath = path(of: parent, depth: depth + 1) else { return nil }
                base = parentPath
            } else {
                base = ""
            }
            guard let own, !own.isEmpty else { return base }
            if own.hasPrefix("/") { return nil }
            return XcodeProject.normalize(base.isEmpty ? own : base + "/" + own)
        case "SOURCE_ROOT":
            guard let own else { return "" }
            return own.hasPrefix("/") ? nil : XcodeProject.normalize(own)
        default:
            return nil
        }
    }

    /// The path of a file, or of every file of a variant group (localized resources).
    func paths(ofFileOrGroup id: String) -> [String] {
        guard let object = objects[id] else { return [] }
        if object["isa"]?.string == "PBXVariantGroup" || object["isa"]?.string == "XCVersionGroup" {
            return uniqueIds(object["children"]).compactMap { path(of: $0) }
        }
        return path(of: id).map { [$0] } ?? []
    }
}
