import Foundation
import MoatCore
import MoatFormats

/// What a discovered file is, decided by its name.
public enum ArtifactKind: String, Sendable, Codable {
    case swift, cFamily, propertyList, xcodeProject, interfaceBuilder
    /// A Core Data model's `contents` file (inside `*.xcdatamodel`).
    case coreDataModel
    /// A built app: an `.ipa` file, or an `.app` or `.xcarchive` folder (read whole, never walked as source).
    case builtApp
    /// A Mach-O binary on its own: a `.dylib` or `.so` in a folder, or any Mach-O file given as a root.
    case machO
    /// A dependency manager's lock file (`Podfile.lock`, `Package.resolved`, `Cartfile.resolved`): read
    /// before the source files, for the rules that judge a library by its version (`DependencyLocks`).
    case dependencyLock
}

public struct DiscoveredFile: Sendable, Hashable {
    public var url: URL
    /// Relative to the scanned root, `/`-separated (prefixed by the root's name when several roots are scanned).
    public var path: String
    public var kind: ArtifactKind
    /// Why the file does not ship, by its path (`ShippingScope`): test, mock, fixture or preview content.
    public var nonShipping: NonShippingReason?
    public var isTestCode: Bool { nonShipping == .test }

    public init(url: URL, path: String, kind: ArtifactKind, nonShipping: NonShippingReason?) {
        self.url = url
        self.path = path
        self.kind = kind
        self.nonShipping = nonShipping
    }

    /// A file whose non-shipping reason is decided by its path (the `isTestCode` argument is implied by it).
    public init(url: URL, path: String, kind: ArtifactKind, isTestCode: Bool) {
        self.init(url: url, path: path, kind: kind,
                  nonShipping: ShippingScope.reason(forPath: path) ?? (isTestCode ? .test : nil))
    }
}

/// Walks the scanned folders. Never follows a symbolic link to a folder, and only follows a link to a
/// file when the target stays inside the root. Skips vendored and generated code unless asked.
public struct Discovery {
    /// Folders that hold other people's or generated code.
    public static let vendoredFolders: Set<String> = ["Pods", "Carthage", ".build", "checkouts", "DerivedData", "Vendor",
                                                      "ThirdParty", "External", "node_modules", "SourcePackages"]
    /// Folders never entered, vendored or not.
    public static let ignoredFolders: Set<String> = [".git", ".svn", ".hg", ".moat-cache", "xcuserdata"]
    /// Bounds that keep a hostile tree from exhausting the scanner.
    public static let maximumDepth = 64
    public static let maximumFiles = 500_000

    public var includeVendored: Bool
    public var excludes: [String]

    public init(includeVendored: Bool, excludes: [String]) {
        self.includeVendored = includeVendored
        self.excludes = excludes
    }

    public static func kind(ofFileNamed name: String) -> ArtifactKind? {
        let lower = name.lowercased()
        if lower == "project.pbxproj" || XcodeGenSpec.isSpecFileName(lower) { return .xcodeProject }
        guard let dot = lower.lastIndex(of: ".") else { return nil }
        switch lower[lower.index(after: dot)...] {
        case "swift": return .swift
        case "m", "mm", "h", "c", "cc", "cpp", "cxx", "hpp", "hh": return .cFamily
        case "plist", "entitlements", "xcprivacy": return .propertyList
        case "storyboard", "xib": return .interfaceBuilder
        case "ipa": return .builtApp
        case "dylib", "so": return .machO
        default: return nil
        }
    }

    /// The kind of a file by its path: its name, or for a Core Data model's `contents` the folder it is in.
    public static func kind(ofPath path: String) -> ArtifactKind? {
        if CoreDataModel.isModelContents(path: path) { return .coreDataModel }
        if DependencyLock.isLockFile(path: path) { return .dependencyLock }
        if path.lowercased().hasSuffix(".json") { return isResourceJSON(path) ? .propertyList : nil }
        return kind(ofFileNamed: (path as NSString).lastPathComponent)
    }

    /// JSON files of the tooling around an app, never bundled configuration: package manifests, editor
    /// and CI settings.
    static let toolingJSONNames: Set<String> = ["package.json", "package-lock.json", "tsconfig.json", "jsconfig.json",
                                                "composer.json", ".eslintrc.json", "lerna.json", "renovate.json",
                                                "firebase.json", ".prettierrc.json", "app.json", "bower.json"]

    /// A JSON file that may be a bundled resource (read as a property-list-like tree for the resource
    /// rules): not in test, mock or fixture folders (`ShippingScope`), not an asset catalog's `Contents.json`, not in a hidden folder (`.github`, `.vscode`,
    /// `.swiftpm`), not a tooling file.
    static func isResourceJSON(_ path: String) -> Bool {
        // Test, mock and fixture data (API responses by the hundred) is never bundled into the app.
        guard ShippingScope.reason(forPath: path) == nil else { return false }
        let components = path.split(separator: "/")
        guard let name = components.last, !toolingJSONNames.contains(name.lowercased()) else { return false }
        return !components.dropLast().contains { component in
            let lower = component.lowercased()
            return lower.hasPrefix(".") || lower.hasSuffix(".xcassets") || lower.hasSuffix(".xcstickers")
                || lower.hasSuffix(".imageset") || lower.hasSuffix(".appiconset") || lower.hasSuffix(".colorset")
        }
    }

    /// Test code is scanned, and its findings are marked. The one definition is `ShippingScope`.
    public static func isTestPath(_ path: String) -> Bool {
        ShippingScope.isTestPath(path)
    }

    /// Discovers the files under one root (a folder or a single file). `prefix` is prepended to paths.
    public func discover(root: URL, prefix: String = "") -> (files: [DiscoveredFile], errors: [ScanError]) {
        var files: [DiscoveredFile] = []
        var errors: [ScanError] = []
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: root.path, isDirectory: &isDirectory) else {
            return ([], [ScanError(path: root.path, message: "no such file or folder")])
        }
        if isDirectory.boolValue, Self.isBuiltAppFolder(root.lastPathComponent) {
            let name = root.standardizedFileURL.lastPathComponent
            let path = prefix.isEmpty ? name : prefix
            return ([DiscoveredFile(url: root, path: path, kind: .builtApp, nonShipping: ShippingScope.reason(forPath: path))], [])
        }
        if !isDirectory.boolValue {
            let name = root.lastPathComponent
            if Self.kind(ofFileNamed: name) == .machO || Self.kind(ofFileNamed: name) == nil, Self.startsLikeMachO(root) {
                let path = prefix.isEmpty ? name : prefix + "/" + name
                files.append(DiscoveredFile(url: root, path: path, kind: .machO, nonShipping: ShippingScope.reason(forPath: path)))
            } else if Self.kind(ofFileNamed: name) == .machO {
                errors.append(ScanError(path: root.path, message: "not a Mach-O binary"))
            } else if let kind = Self.kind(ofPath: root.standardizedFileURL.path) {
                let path = prefix.isEmpty ? name : prefix + "/" + name
                files.append(DiscoveredFile(url: root, path: path, kind: kind, nonShipping: ShippingScope.reason(forPath: path)))
            } else {
                errors.append(ScanError(path: root.path, message: "not a file kind Moat reads (Swift, Objective-C/C, property list, Xcode project, storyboard/xib, .ipa, Mach-O)"))
            }
            return (files, errors)
        }
        let realRoot = root.resolvingSymlinksInPath().standardizedFileURL.path
        var stack: [(url: URL, relative: String, depth: Int)] = [(root, "", 0)]
        while let (folder, relative, depth) = stack.popLast() {
            let entries: [String]
            do {
                entries = try fileManager.contentsOfDirectory(atPath: folder.path).sorted()
            } catch {
                errors.append(ScanError(path: display(relative, prefix: prefix, fallback: "."), message: "cannot read folder: permission denied or unreadable"))
                continue
            }
            var subfolders: [(URL, String, Int)] = []
            for name in entries {
                let url = folder.appendingPathComponent(name)
                let childRelative = relative.isEmpty ? name : relative + "/" + name
                guard let attributes = try? fileManager.attributesOfItem(atPath: url.path),
                      let type = attributes[.type] as? FileAttributeType else {
                    errors.append(ScanError(path: display(childRelative, prefix: prefix, fallback: name), message: "cannot read file attributes"))
                    continue
                }
                if excludes.contains(where: { Glob.matches($0, path: childRelative) }) { continue }
                switch type {
                case .typeDirectory:
                    if Self.ignoredFolders.contains(name) { continue }
                    if !includeVendored && (Self.vendoredFolders.contains(name) || name.hasSuffix(".framework")) { continue }
                    if Self.isBuiltAppFolder(name) {
                        // A built app is read whole by the built-app reader, never walked as source.
                        let path = display(childRelative, prefix: prefix, fallback: name)
                        files.append(DiscoveredFile(url: url, path: path, kind: .builtApp, nonShipping: ShippingScope.reason(forPath: path)))
                        continue
                    }
                    if name.hasSuffix(".xcodeproj") || name.hasSuffix(".xcworkspace") {
                        // Only the project file inside matters, and the packages Xcode resolved for it.
                        let project = url.appendingPathComponent("project.pbxproj")
                        if fileManager.fileExists(atPath: project.path) {
                            let path = display(childRelative + "/project.pbxproj", prefix: prefix, fallback: "")
                            files.append(DiscoveredFile(url: project, path: path, kind: .xcodeProject, nonShipping: ShippingScope.reason(forPath: path)))
                        }
                        let resolved = (name.hasSuffix(".xcodeproj") ? "project.xcworkspace/" : "") + "xcshareddata/swiftpm/Package.resolved"
                        let lock = url.appendingPathComponent(resolved)
                        if (try? fileManager.attributesOfItem(atPath: lock.path)[.type] as? FileAttributeType) == .typeRegular {
                            let path = display(childRelative + "/" + resolved, prefix: prefix, fallback: "")
                            files.append(DiscoveredFile(url: lock, path: path, kind: .dependencyLock, nonShipping: ShippingScope.reason(forPath: path)))
                        }
                        continue
                    }
                    guard depth + 1 <= Self.maximumDepth else {
                        errors.append(ScanError(path: display(childRelative, prefix: prefix, fallback: name), message: "skipped: folders nested deeper than \(Self.maximumDepth) levels"))
                        continue
                    }
                    subfolders.append((url, childRelative, depth + 1))
                case .typeSymbolicLink:
                    // Follow a link only to a regular file that stays inside the root.
                    let target = url.resolvingSymlinksInPath().standardizedFileURL
                    var targetIsDirectory: ObjCBool = false
                    guard target.path.hasPrefix(realRoot + "/"),
                          fileManager.fileExists(atPath: target.path, isDirectory: &targetIsDirectory),
                          !targetIsDirectory.boolValue, let kind = Self.kind(ofPath: childRelative) else { continue }
                    let path = display(childRelative, prefix: prefix, fallback: name)
                    files.append(DiscoveredFile(url: target, path: path, kind: kind, nonShipping: ShippingScope.reason(forPath: path)))
                case .typeRegular:
                    guard let kind = Self.kind(ofPath: childRelative) else { continue }
                    let path = display(childRelative, prefix: prefix, fallback: name)
                    files.append(DiscoveredFile(url: url, path: path, kind: kind, nonShipping: ShippingScope.reason(forPath: path)))
                default:
                    continue
                }
                if files.count >= Self.maximumFiles {
                    errors.append(ScanError(path: display(relative, prefix: prefix, fallback: "."), message: "stopped discovering after \(Self.maximumFiles) files"))
                    return (files, errors)
                }
            }
            stack.append(contentsOf: subfolders.reversed())
        }
        files.sort { $0.path < $1.path }
        return (files, errors)
    }

    /// `.app` and `.xcarchive` folders are built apps.
    public static func isBuiltAppFolder(_ name: String) -> Bool {
        let lower = name.lowercased()
        return lower.hasSuffix(".app") || lower.hasSuffix(".xcarchive")
    }

    /// Whether a file starts with a Mach-O or fat magic number.
    static func startsLikeMachO(_ url: URL) -> Bool {
        // Regular files only: opening a FIFO or a device would block or read forever.
        let real = url.resolvingSymlinksInPath()
        guard (try? FileManager.default.attributesOfItem(atPath: real.path))?[.type] as? FileAttributeType == .typeRegular,
              let handle = try? FileHandle(forReadingFrom: real) else { return false }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 4), head.count == 4 else { return false }
        return MachOFile.looksLikeMachO(head)
    }

    private func display(_ relative: String, prefix: String, fallback: String) -> String {
        let path = relative.isEmpty ? fallback : relative
        return prefix.isEmpty ? path : prefix + "/" + path
    }
}
