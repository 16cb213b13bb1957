import Foundation

/// A file of a built app.
public struct BundleFile: Sendable, Hashable {
    /// The path inside the container: the ZIP entry path for an `.ipa`, the path under the input folder
    /// for an `.app` or `.xcarchive`.
    public let path: String
    /// `App.ipa!/Payload/X.app/Info.plist` for archives, `X.app/Info.plist` for folders.
    public let displayPath: String
    /// Declared (archives) or on-disk (folders) size in bytes.
    public let size: UInt64
}

/// A compiled storyboard (`.storyboardc` folder) or nib (`.nib` file or folder).
public struct InterfaceFile: Sendable, Hashable {
    public let path: String
    public let displayPath: String
    /// The compiled files inside (the nib itself when it is a single file).
    public let files: [BundleFile]
}

public enum BundleKind: String, Sendable, Hashable {
    case application, appExtension, framework, watchApplication, appClip
}

/// One bundle of a built app: the app itself, an extension, a framework...
public struct AppBundle: Sendable {
    public let kind: BundleKind
    /// The bundle folder inside the container (`Payload/X.app`; `""` when the input is the `.app` itself).
    public let path: String
    public let displayPath: String
    public let infoPlist: BundleFile?
    /// `CFBundleExecutable` (or the bundle name when the key is missing).
    public let executableName: String?
    public let executable: BundleFile?
    public let provisioningProfile: BundleFile?
    public let privacyManifests: [BundleFile]
    public let interfaceFiles: [InterfaceFile]
    /// Loose dynamic libraries in `Frameworks/`.
    public let dylibs: [BundleFile]
    /// Extensions (`PlugIns/`, `Extensions/`), frameworks, watch apps and App Clips inside this bundle.
    public let nestedBundles: [AppBundle]
    /// Every file of this bundle that belongs to no nested bundle.
    public let files: [BundleFile]
    /// Why the Info.plist or its executable could not be used.
    public let problems: [String]

    public var appExtensions: [AppBundle] { nestedBundles.filter { $0.kind == .appExtension } }
    public var frameworks: [AppBundle] { nestedBundles.filter { $0.kind == .framework } }

    /// This bundle and all bundles nested in it, depth first.
    public var allBundles: [AppBundle] { [self] + nestedBundles.flatMap(\.allBundles) }
}

public struct BuiltAppLimits: Sendable, Hashable {
    public var zip: ZipLimits
    /// Files listed in a folder.
    public var maximumFiles: Int
    /// Folder nesting followed in a folder.
    public var maximumFolderDepth: Int
    /// Largest file read from a folder (files are memory-mapped).
    public var maximumFileSize: UInt64
    /// Bundles nested in bundles (an extension's framework is depth 2).
    public var maximumBundleDepth: Int

    public init(zip: ZipLimits = ZipLimits(), maximumFiles: Int = 200_000, maximumFolderDepth: Int = 64,
                maximumFileSize: UInt64 = 1 << 30, maximumBundleDepth: Int = 4) {
        self.zip = zip
        self.maximumFiles = maximumFiles
        self.maximumFolderDepth = maximumFolderDepth
        self.maximumFileSize = maximumFileSize
        self.maximumBundleDepth = maximumBundleDepth
    }
}

/// A built iOS app read from an `.ipa`, an `.app` folder or an `.xcarchive` folder, as a neutral listing:
/// its bundles, their Info.plists, executables, profiles, privacy manifests and compiled interfaces,
/// and a way to read any file's bytes. Nothing is extracted to disk.
public struct BuiltApp: Sendable {
    public enum Container: String, Sendable {
        case ipa, app, xcarchive
    }

    public struct SkippedItem: Sendable, Hashable {
        public let displayPath: String
        public let reason: String
    }

    public let container: Container
    /// The name display paths start with (`App.ipa`, `X.app`, `X.xcarchive`, or what the caller gave).
    public let displayName: String
    public let mainApp: AppBundle
    /// The `.xcarchive`'s own Info.plist.
    public let archiveInfoPlist: BundleFile?
    /// Files left out (unsafe archive entries, links leaving the folder...) and why.
    public let skipped: [SkippedItem]
    public let warnings: [String]

    let storage: BundleStorage

    /// Reads an `.ipa` (any ZIP file), an `.app` folder or an `.xcarchive` folder. `displayName`
    /// defaults to the last path component of `url`.
    public init(url: URL, displayName: String? = nil, limits: BuiltAppLimits = BuiltAppLimits()) throws {
        let name = displayName ?? url.lastPathComponent
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw BinaryFormatError(.bundle, "\(name) does not exist")
        }
        if !isDirectory.boolValue {
            try self.init(archive: ZipArchive(contentsOf: url, limits: limits.zip), displayName: name, limits: limits)
            return
        }
        guard let realRoot = BundleStorage.realPath(url.path) else {
            throw BinaryFormatError(.bundle, "cannot resolve \(name)")
        }
        let container: Container
        switch url.pathExtension.lowercased() {
        case "app": container = .app
        case "xcarchive": container = .xcarchive
        default: throw BinaryFormatError(.bundle, "\(name) is neither an .app nor an .xcarchive folder")
        }
        let storage = BundleStorage.folder(root: url, realRoot: realRoot, maximumFileSize: limits.maximumFileSize)
        let listing = try BundleStorage.list(folder: url, realRoot: realRoot, maximumFiles: limits.maximumFiles,
                                             maximumDepth: limits.maximumFolderDepth)
        try self.init(container: container, storage: storage, listing: listing, displayName: name, limits: limits)
    }

    /// Reads an `.ipa` held in memory.
    public init(ipaData: Data, displayName: String, limits: BuiltAppLimits = BuiltAppLimits()) throws {
        try self.init(archive: ZipArchive(data: ipaData, limits: limits.zip), displayName: displayName, limits: limits)
    }

    private init(archive: ZipArchive, displayName: String, limits: BuiltAppLimits) throws {
        try self.init(container: .ipa, storage: .archive(archive), listing: BundleStorage.list(archive: archive),
                      displayName: displayName, limits: limits)
    }

    private init(container: Container, storage: BundleStorage, listing: BundleStorage.Listing,
                 displayName: String, limits: BuiltAppLimits) throws {
        self.container = container
        self.storage = storage
        self.displayName = displayName
        let index = DirectoryIndex(files: listing.files)
        var warnings = listing.warnings

        let display: (String) -> String = { path in
            switch container {
            case .ipa: return displayName + "!/" + path
            case .app, .xcarchive: return path.isEmpty ? displayName : displayName + "/" + path
            }
        }

        let appRoot: String
        switch container {
        case .app:
            appRoot = ""
        case .ipa, .xcarchive:
            let parent = container == .ipa ? "Payload" : "Products/Applications"
            let apps = index.folders(in: parent).filter { $0.lowercased().hasSuffix(".app") }
            guard let first = apps.first else {
                throw BinaryFormatError(.bundle, "\(displayName) has no \(parent)/*.app")
            }
            if apps.count > 1 { warnings.append("\(displayName) holds several apps (\(apps.joined(separator: ", "))); reading \(first)") }
            appRoot = parent + "/" + first
        }
        archiveInfoPlist = container == .xcarchive && index.isFile("Info.plist")
            ? BundleFile(path: "Info.plist", displayPath: display("Info.plist"), size: index.files["Info.plist"] ?? 0) : nil

        var builder = BundleBuilder(index: index, storage: storage, display: display, maximumDepth: limits.maximumBundleDepth)
        mainApp = builder.build(root: appRoot, kind: .application)
        warnings += builder.warnings
        self.warnings = warnings
        skipped = listing.skipped.map { SkippedItem(displayPath: $0.path.isEmpty ? displayName : display($0.path), reason: $0.reason) }
    }

    // MARK: Reading

    /// Every bundle of the app, the app first.
    public var allBundles: [AppBundle] { mainApp.allBundles }

    /// The bytes of a file (inflated for archives, memory-mapped for folders).
    public func read(_ file: BundleFile) throws -> Data { try storage.read(file.path) }

    /// The bytes of the file at a container path.
    public func read(path: String) throws -> Data { try storage.read(path) }

    /// A property list file, parsed (Info.plist, PrivacyInfo.xcprivacy...).
    public func propertyList(_ file: BundleFile, kind: PlistKind? = nil) throws -> PropertyListDocument {
        try PropertyListParser.parse(data: read(file), path: file.displayPath, kind: kind)
    }

    /// A bundle's executable, parsed.
    public func machO(of bundle: AppBundle, limits: MachOLimits = MachOLimits()) throws -> MachOFile? {
        guard let executable = bundle.executable else { return nil }
        return try MachOFile(data: read(executable), limits: limits)
    }

    /// A bundle's `embedded.mobileprovision`, parsed.
    public func provisioningProfile(of bundle: AppBundle) throws -> ProvisioningProfile? {
        guard let file = bundle.provisioningProfile else { return nil }
        return try ProvisioningProfile(data: read(file), path: file.displayPath)
    }

    /// Class names referenced by a compiled storyboard or nib, in order of first appearance.
    public func classNames(in interface: InterfaceFile) throws -> [String] {
        var seen = Set<String>()
        var names: [String] = []
        for file in interface.files {
            for name in InterfaceBuilderClassNames.classNames(in: try read(file)) where seen.insert(name).inserted {
                names.append(name)
            }
        }
        return names
    }
}

/// Finds the bundles under a root and hands each file to the innermost bundle holding it.
private struct BundleBuilder {
    let index: DirectoryIndex
    let storage: BundleStorage
    let display: (String) -> String
    let maximumDepth: Int
    var warnings: [String] = []

    /// Nested bundle folders and their kinds.
    static let nestedLocations: [(folder: String, suffix: String, kind: BundleKind)] = [
        ("PlugIns", ".appex", .appExtension),
        ("Extensions", ".appex", .appExtension),
        ("Frameworks", ".framework", .framework),
        ("Watch", ".app", .watchApplication),
        ("AppClips", ".app", .appClip),
    ]

    init(index: DirectoryIndex, storage: BundleStorage, display: @escaping (String) -> String, maximumDepth: Int) {
        self.index = index
        self.storage = storage
        self.display = display
        self.maximumDepth = maximumDepth
    }

    private func file(_ path: String) -> BundleFile? {
        index.files[path].map { BundleFile(path: path, displayPath: display(path), size: $0) }
    }

    mutating func build(root: String, kind: BundleKind) -> AppBundle {
        var roots: [String: BundleKind] = [root: kind]
        discover(root, depth: 0, into: &roots)

        // Each file goes to the innermost bundle root that contains it.
        var filesByRoot: [String: [String]] = [:]
        for path in index.files.keys.sorted() {
            var candidate = path
            var owner: String?
            while let slash = candidate.lastIndex(of: "/") {
                candidate = String(candidate[..<slash])
                if roots[candidate] != nil { owner = candidate; break }
            }
            if owner == nil && roots[""] != nil { owner = "" }
            if let owner { filesByRoot[owner, default: []].append(path) }
        }
        return assemble(root, kind: kind, roots: roots, filesByRoot: filesByRoot)
    }

    private mutating func discover(_ root: String, depth: Int, into roots: inout [String: BundleKind]) {
        for location in Self.nestedLocations {
            let folder = DirectoryIndex.join(root, location.folder)
            for name in index.folders(in: folder) where name.lowercased().hasSuffix(location.suffix) {
                let nested = DirectoryIndex.join(folder, name)
                guard depth + 1 <= maximumDepth else {
                    warnings.append("\(display(nested)) is nested more than \(maximumDepth) bundles deep; not read as a bundle")
                    continue
                }
                roots[nested] = location.kind
                discover(nested, depth: depth + 1, into: &roots)
            }
        }
    }

    private mutating func assemble(_ root: String, kind: BundleKind, roots: [String: BundleKind],
                                   filesByRoot: [String: [String]]) -> AppBundle {
        var problems: [String] = []
        let infoPlist = file(DirectoryIndex.join(root, "Info.plist"))
        var executableName: String?
        if let infoPlist {
            do {
                let data = try storage.read(infoPlist.path)
                let document = try PropertyListParser.parse(data: data, path: infoPlist.displayPath, kind: .infoPlist)
                executableName = document.root["CFBundleExecutable"]?.string
                if executableName == nil { problems.append("Info.plist has no CFBundleExecutable") }
            } catch {
                problems.append("Info.plist unreadable: \(error)")
            }
        } else {
            problems.append("no Info.plist")
        }
        if let name = executableName, name.isEmpty || name.contains("/") || name == "." || name == ".." || name.contains("\u{0}") {
            problems.append("CFBundleExecutable \(name.debugDescription) is not a file name; ignored")
            executableName = nil
        }
        let bundleName = root.split(separator: "/").last.map(String.init) ?? display("")
        let baseName = (bundleName as NSString).deletingPathExtension
        if executableName == nil, !baseName.isEmpty, index.isFile(DirectoryIndex.join(root, baseName)) {
            executableName = baseName
        }
        let executable = executableName.flatMap { file(DirectoryIndex.join(root, $0)) }
        if let executableName, executable == nil { problems.append("executable \(executableName) not found") }

        let ownFiles = (filesByRoot[root] ?? []).compactMap(file)
        let prefix = root.isEmpty ? "" : root + "/"
        let privacyManifests = ownFiles.filter { $0.path.hasSuffix("/PrivacyInfo.xcprivacy") || $0.path == "PrivacyInfo.xcprivacy" }
        let frameworksFolder = prefix + "Frameworks/"
        let dylibs = ownFiles.filter {
            $0.path.hasPrefix(frameworksFolder) && $0.path.lowercased().hasSuffix(".dylib")
                && !$0.path.dropFirst(frameworksFolder.count).contains("/")
        }

        var nested: [AppBundle] = []
        for location in Self.nestedLocations {
            let folder = DirectoryIndex.join(root, location.folder)
            for name in index.folders(in: folder) {
                let path = DirectoryIndex.join(folder, name)
                if let nestedKind = roots[path] {
                    nested.append(assemble(path, kind: nestedKind, roots: roots, filesByRoot: filesByRoot))
                }
            }
        }
        return AppBundle(kind: kind, path: root, displayPath: display(root), infoPlist: infoPlist, executableName: executableName,
                         executable: executable, provisioningProfile: file(prefix + "embedded.mobileprovision"),
                         privacyManifests: privacyManifests, interfaceFiles: interfaces(in: ownFiles, prefix: prefix),
                         dylibs: dylibs, nestedBundles: nested, files: ownFiles, problems: problems)
    }

    /// Groups compiled interface files: each `.storyboardc` folder is one interface; a `.nib` (file or
    /// folder) outside a storyboard is another.
    private func interfaces(in files: [BundleFile], prefix: String) -> [InterfaceFile] {
        var order: [String] = []
        var members: [String: [BundleFile]] = [:]
        for file in files {
            let components = file.path.dropFirst(prefix.count).split(separator: "/")
            var interfaceEnd: Int?
            for (position, component) in components.enumerated() {
                let lower = component.lowercased()
                if lower.hasSuffix(".storyboardc") || lower.hasSuffix(".nib") { interfaceEnd = position; break }
            }
            guard let interfaceEnd else { continue }
            let path = prefix + components[...interfaceEnd].joined(separator: "/")
            // Inside a storyboard, only the compiled nibs are interesting (not its Info.plist).
            let isNib = file.path.lowercased().hasSuffix(".nib") || file.path.lowercased().contains(".nib/")
            if path != file.path && !isNib { continue }
            if members[path] == nil { order.append(path) }
            members[path, default: []].append(file)
        }
        return order.map { InterfaceFile(path: $0, displayPath: display($0), files: members[$0] ?? []) }
    }
}
