import Foundation
import MoatFormats

/// What the executables of the built apps given as roots say about hooks: the classes they define, the
/// method names they hold (defined and sent), the C functions they import and the `scheme://` strings
/// they embed. Read again from the app (never extracted), executables of the app and its extensions only.
struct PlanBinaries {
    /// One executable.
    struct Executable {
        /// Display path (`App.ipa!/Payload/App.app/App`).
        var path: String
        /// `CFBundleExecutable`: the best guess for the Swift module name.
        var name: String
        var classNames: Set<String> = []
        /// `__objc_methname`: selectors the code defines or sends.
        var methodNames: Set<String> = []
        /// Imported C symbols without the leading underscore (`SecItemAdd`).
        var imports: Set<String> = []
        /// C strings that look like URLs.
        var urlStrings: [String] = []
    }

    var executables: [Executable] = []

    var isEmpty: Bool { executables.isEmpty }
    var allMethodNames: Set<String> { executables.reduce(into: Set<String>()) { $0.formUnion($1.methodNames) } }
    var allImports: Set<String> { executables.reduce(into: Set<String>()) { $0.formUnion($1.imports) } }
    var allClassNames: Set<String> { executables.reduce(into: Set<String>()) { $0.formUnion($1.classNames) } }

    static let builtAppExtensions: Set<String> = ["ipa", "app", "xcarchive"]

    /// The built apps to read: the roots that are built apps, and those a scanned folder holds (found from
    /// the display paths of the scan's locations, `Folder/App.ipa!/Payload/…`), never outside a root.
    static func builtApps(roots: [String], paths: Set<String>) -> [(url: URL, display: String)] {
        var result: [(URL, String)] = []
        var seen = Set<String>()
        func add(_ url: URL, _ display: String) {
            if seen.insert(url.standardizedFileURL.path).inserted { result.append((url, display)) }
        }
        for root in roots where builtAppExtensions.contains(URL(fileURLWithPath: root).pathExtension.lowercased()) {
            add(URL(fileURLWithPath: root), roots.count > 1 ? SourceFiles.displayPrefix(root) : URL(fileURLWithPath: root).lastPathComponent)
        }
        let containers = Set(paths.compactMap(container(of:)))
        for root in roots {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
            let base = URL(fileURLWithPath: root).resolvingSymlinksInPath().standardizedFileURL
            let prefix = roots.count > 1 ? SourceFiles.displayPrefix(root) + "/" : ""
            for display in containers.sorted() where display.hasPrefix(prefix) {
                let relative = String(display.dropFirst(prefix.count))
                guard !relative.isEmpty, !relative.hasPrefix("/"), !relative.split(separator: "/").contains("..") else { continue }
                let candidate = base.appendingPathComponent(relative).resolvingSymlinksInPath().standardizedFileURL
                guard candidate.path.hasPrefix(base.path + "/"), FileManager.default.fileExists(atPath: candidate.path) else { continue }
                add(candidate, display)
            }
        }
        return result
    }

    /// `Folder/App.ipa` for `Folder/App.ipa!/Payload/App.app/Info.plist`, `X.app` for `X.app/Info.plist`.
    static func container(of path: String) -> String? {
        if let bang = path.range(of: ".ipa!") { return String(path[..<bang.lowerBound]) + ".ipa" }
        for suffix in [".xcarchive/", ".app/"] {
            if let range = path.range(of: suffix) { return String(path[..<range.lowerBound]) + String(suffix.dropLast()) }
        }
        return nil
    }

    init(roots: [String], paths: Set<String> = []) {
        for (url, display) in Self.builtApps(roots: roots, paths: paths) {
            guard let app = try? BuiltApp(url: url, displayName: display) else { continue }
            for bundle in app.mainApp.allBundles where bundle.kind != .framework {
                guard let file = bundle.executable, let data = try? app.read(file),
                      let machO = try? MachOFile(data: data), let image = machO.preferredImage else { continue }
                var executable = Executable(path: file.displayPath, name: bundle.executableName ?? "")
                executable.classNames = Set(image.objcClassNames().strings)
                executable.methodNames = Set(image.objcSelectors().strings)
                executable.imports = Set(image.imports().symbols.map { $0.name.hasPrefix("_") ? String($0.name.dropFirst()) : $0.name })
                executable.urlStrings = image.cStringLiterals().strings.filter { $0.contains("://") && $0.count <= 2048 }
                executables.append(executable)
            }
        }
        executables.sort { $0.path < $1.path }
    }
}
