import Foundation

/// Where a built app's files live: entries of a ZIP archive (an `.ipa`), or files under a folder.
/// Paths are `/`-separated and relative: the entry path for archives, the path under the folder for
/// folders. Folder reads never leave the folder, even through symbolic links.
enum BundleStorage: Sendable {
    case archive(ZipArchive)
    case folder(root: URL, realRoot: String, maximumFileSize: UInt64)

    /// A file found while listing, or a reason it was left out.
    struct Listing {
        var files: [String: UInt64] = [:]
        var skipped: [(path: String, reason: String)] = []
        var warnings: [String] = []
    }

    static func list(archive: ZipArchive) -> Listing {
        var listing = Listing()
        for entry in archive.entries where !entry.isDirectory {
            if entry.isSymbolicLink {
                listing.skipped.append((entry.path, "symbolic link not followed"))
            } else {
                listing.files[entry.path] = entry.uncompressedSize
            }
        }
        for skipped in archive.skipped { listing.skipped.append((skipped.path, skipped.reason.description)) }
        listing.warnings += archive.warnings
        return listing
    }

    /// Lists the regular files under `root`. Symbolic links are kept only when they resolve to a regular
    /// file inside the folder; links to directories are not followed.
    static func list(folder root: URL, realRoot: String, maximumFiles: Int, maximumDepth: Int) throws -> Listing {
        var listing = Listing()
        let manager = FileManager.default
        var stack: [(relative: String, depth: Int)] = [("", 0)]
        var count = 0
        var limitReported = false
        while let (relative, depth) = stack.popLast() {
            let absolute = relative.isEmpty ? root.path : root.path + "/" + relative
            let names: [String]
            do {
                names = try manager.contentsOfDirectory(atPath: absolute).sorted()
            } catch {
                listing.skipped.append((relative, "cannot list folder: \(error.localizedDescription)"))
                continue
            }
            for name in names {
                let childRelative = relative.isEmpty ? name : relative + "/" + name
                let childAbsolute = absolute + "/" + name
                guard count < maximumFiles else {
                    if !limitReported { listing.skipped.append(("", "more than \(maximumFiles) files; the rest were not listed")) }
                    limitReported = true
                    return listing
                }
                guard let attributes = try? manager.attributesOfItem(atPath: childAbsolute),
                      let type = attributes[.type] as? FileAttributeType else {
                    listing.skipped.append((childRelative, "cannot read file attributes"))
                    continue
                }
                switch type {
                case .typeDirectory:
                    if depth + 1 > maximumDepth {
                        listing.skipped.append((childRelative, "nested deeper than \(maximumDepth) folders"))
                    } else {
                        stack.append((childRelative, depth + 1))
                    }
                case .typeRegular:
                    count += 1
                    listing.files[childRelative] = (attributes[.size] as? NSNumber)?.uint64Value ?? 0
                case .typeSymbolicLink:
                    guard let real = realPath(childAbsolute) else {
                        listing.skipped.append((childRelative, "dangling symbolic link"))
                        continue
                    }
                    guard isInside(real, realRoot) else {
                        listing.skipped.append((childRelative, "symbolic link points outside the bundle"))
                        continue
                    }
                    guard let target = try? manager.attributesOfItem(atPath: real),
                          target[.type] as? FileAttributeType == .typeRegular else {
                        listing.skipped.append((childRelative, "symbolic link to a folder or special file not followed"))
                        continue
                    }
                    count += 1
                    listing.files[childRelative] = (target[.size] as? NSNumber)?.uint64Value ?? 0
                default:
                    listing.skipped.append((childRelative, "not a regular file"))
                }
            }
        }
        return listing
    }

    func read(_ path: String) throws -> Data {
        switch self {
        case .archive(let archive):
            guard let entry = archive.entry(path) else { throw BinaryFormatError(.bundle, "no file \(path)") }
            guard !entry.isSymbolicLink else { throw BinaryFormatError(.bundle, "\(path) is a symbolic link; not followed") }
            return try archive.read(entry)
        case .folder(let root, let realRoot, let maximumFileSize):
            let components = path.split(separator: "/", omittingEmptySubsequences: false)
            guard !path.isEmpty, !path.hasPrefix("/"), !components.contains(where: { $0 == ".." || $0 == "." || $0.isEmpty }) else {
                throw BinaryFormatError(.bundle, "refused path \(path)")
            }
            guard let real = Self.realPath(root.path + "/" + path), Self.isInside(real, realRoot) else {
                throw BinaryFormatError(.bundle, "\(path) resolves outside the bundle")
            }
            let attributes = try? FileManager.default.attributesOfItem(atPath: real)
            guard attributes?[.type] as? FileAttributeType == .typeRegular else {
                throw BinaryFormatError(.bundle, "\(path) is not a regular file")
            }
            if let size = (attributes?[.size] as? NSNumber)?.uint64Value, size > maximumFileSize {
                throw BinaryFormatError(.bundle, "\(path) is \(size) bytes, above the \(maximumFileSize)-byte limit")
            }
            do {
                return try Data(contentsOf: URL(fileURLWithPath: real), options: .alwaysMapped)
            } catch {
                throw BinaryFormatError(.bundle, "cannot read \(path): \(error.localizedDescription)")
            }
        }
    }

    /// The canonical absolute path (symbolic links resolved), or nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func isInside(_ path: String, _ root: String) -> Bool {
        path == root || path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }
}

/// Parent → children index over a flat list of file paths (folders are implied by the paths).
struct DirectoryIndex {
    private(set) var childFolders: [String: Set<String>] = [:]
    private(set) var childFiles: [String: Set<String>] = [:]
    let files: [String: UInt64]

    init(files: [String: UInt64]) {
        self.files = files
        for path in files.keys {
            var components = path.split(separator: "/").map(String.init)
            guard let name = components.popLast() else { continue }
            var parent = ""
            for component in components {
                childFolders[parent, default: []].insert(component)
                parent = parent.isEmpty ? component : parent + "/" + component
            }
            childFiles[parent, default: []].insert(name)
        }
    }

    func isFolder(_ path: String) -> Bool { path.isEmpty || childFolders[path] != nil || childFiles[path] != nil }
    func isFile(_ path: String) -> Bool { files[path] != nil }
    func folders(in path: String) -> [String] { (childFolders[path] ?? []).sorted() }
    func fileNames(in path: String) -> [String] { (childFiles[path] ?? []).sorted() }

    static func join(_ parent: String, _ name: String) -> String { parent.isEmpty ? name : parent + "/" + name }
}
