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

    init(roots: [String]) {
        for root in roots {
            let url = URL(fileURLWithPath: root)
            guard Self.builtAppExtensions.contains(url.pathExtension.lowercased()) else { continue }
            let display = roots.count > 1 ? SourceFiles.displayPrefix(root) : url.lastPathComponent
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
