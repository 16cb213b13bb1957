import MoatCore
import MoatSyntax

/// Where a file URL or path expression points, as far as the code shows: which well-known container
/// directory it starts from and how many literal path components it adds below it.
public struct FileLocation: Sendable, Equatable {
    public enum Base: String, Sendable {
        case documents = "Documents", library = "Library", applicationSupport = "Application Support"
        case caches = "Caches", temporary = "tmp", bundle = "the app bundle", home = "the app's home folder"
        case root = "the file-system root"

        /// Directories whose content is backed up (iCloud / computer backups).
        public var isBackedUp: Bool { self == .documents || self == .library || self == .applicationSupport }
        /// Directories where persistent user data usually lives.
        public var holdsPersistentData: Bool { self == .documents || self == .applicationSupport || self == .library }
    }

    public var base: Base
    /// Literal components below `base`: 0 is the directory itself, negative is above it.
    public var depth: Int
    /// A component came from a non-literal value (a parameter, user input, a server response).
    public var isBuiltFromData: Bool
    /// The last literal component seen (a file or folder name), for messages and name heuristics.
    public var lastComponent: String?

    public init(base: Base, depth: Int, isBuiltFromData: Bool, lastComponent: String? = nil) {
        self.base = base
        self.depth = depth
        self.isBuiltFromData = isBuiltFromData
        self.lastComponent = lastComponent
    }

    /// The location is the container directory itself (or above it): read access to it exposes everything.
    public var isWholeDirectory: Bool { depth <= 0 }
}

public enum FileLocations {
    /// The selectors that build a file URL from a path alone (not relative to another URL).
    static let pathOnlyFileURLSelectors = Set(APIs.fileURLFromPath.selectors.filter { !$0.contains("relativeToURL") })

    /// The location of a URL or path expression, following local names. Nil when unknown.
    public static func locate(_ expression: Expression, _ values: LocalValues, depth budget: Int = 12) -> FileLocation? {
        guard budget > 0 else { return nil }
        let expression = values.resolve(expression)
        func recurse(_ inner: Expression) -> FileLocation? { locate(inner, values, depth: budget - 1) }

        switch expression.kind {
        case .identifier(let name):
            switch name {
            case APIs.homeDirectoryPath: return FileLocation(base: .home, depth: 0, isBuiltFromData: false)
            case APIs.temporaryDirectoryPath: return FileLocation(base: .temporary, depth: 0, isBuiltFromData: false)
            default: return nil
            }
        case .member(let base, let name):
            if let direct = directoryMember(name, base: base) { return direct }
            // Transparent accessors.
            if ["path", "absoluteURL", "standardized", "standardizedFileURL", "absoluteString", "relativePath",
                "firstObject", "lastObject", "first", "last", "fileURL", "URLByStandardizingPath", "stringByStandardizingPath"].contains(name),
               let base { return recurse(base) }
            return nil
        case .subscriptAccess(let base, _):
            return recurse(base)
        case .stringLiteral(let segments):
            // "\(docs)/web" or "/": the first interpolation gives the base, the text adds components.
            var location: FileLocation?
            var pending = ""
            for segment in segments {
                switch segment {
                case .text(let text): pending += text
                case .interpolation(let inner):
                    if location == nil, pending.isEmpty { location = recurse(inner) } else { location?.isBuiltFromData = true }
                }
            }
            if location == nil, segments.count == 1, case .text(let text) = segments[0], text == "/" {
                return FileLocation(base: .root, depth: 0, isBuiltFromData: false)
            }
            guard var result = location else { return nil }
            appendLiteral(pending, to: &result)
            return result
        case .binary("+", let lhs, let rhs):
            guard var result = recurse(lhs) else { return nil }
            if let text = rhs.stringValue { appendLiteral(text, to: &result) } else { result.isBuiltFromData = true; result.depth += 1 }
            return result
        case .call(let callee, let arguments, _):
            return locateCall(expression, callee: callee, arguments: arguments, values, recurse)
        default:
            return nil
        }
    }

    private static func directoryMember(_ name: String, base: Expression?) -> FileLocation? {
        let mapping: [String: FileLocation.Base] = [
            "documentDirectory": .documents, "documentsDirectory": .documents, "NSDocumentDirectory": .documents,
            "libraryDirectory": .library, "NSLibraryDirectory": .library,
            "applicationSupportDirectory": .applicationSupport, "NSApplicationSupportDirectory": .applicationSupport,
            "cachesDirectory": .caches, "NSCachesDirectory": .caches,
            "temporaryDirectory": .temporary, "homeDirectory": .home, "homeDirectoryForCurrentUser": .home,
            "bundleURL": .bundle, "resourceURL": .bundle, "bundlePath": .bundle, "resourcePath": .bundle,
        ]
        guard let kind = mapping[name] else { return nil }
        // `.documentDirectory` alone is a search-path constant, not a URL; it only counts as an argument
        // of urls(for:in:) (handled by the call case). `URL.documentsDirectory` and `fm.temporaryDirectory`
        // are URLs.
        if base == nil { return nil }
        return FileLocation(base: kind, depth: 0, isBuiltFromData: false)
    }

    static func searchPathBase(_ expression: Expression) -> FileLocation.Base? {
        let name: String?
        switch expression.unwrapped.kind {
        case .member(_, let member): name = member
        case .identifier(let identifier): name = identifier
        default: name = nil
        }
        switch name {
        case "documentDirectory", "NSDocumentDirectory": return .documents
        case "libraryDirectory", "NSLibraryDirectory": return .library
        case "applicationSupportDirectory", "NSApplicationSupportDirectory": return .applicationSupport
        case "cachesDirectory", "NSCachesDirectory": return .caches
        default: return nil
        }
    }

    private static func locateCall(_ call: Expression, callee: Expression, arguments: [Argument], _ values: LocalValues,
                                   _ recurse: (Expression) -> FileLocation?) -> FileLocation? {
        guard let name = callee.name else { return nil }
        let receiver = callee.receiver
        switch name {
        case APIs.containerDirectoryLookup, APIs.systemDirectoryForVolume, APIs.searchPathDirectories:
            if let first = arguments.first, let base = searchPathBase(first.value) {
                return FileLocation(base: base, depth: 0, isBuiltFromData: false)
            }
            if name == "url", let receiver { return bundleResource(receiver: receiver, arguments: arguments, recurse) }
            return nil
        case APIs.homeDirectoryPath:
            return FileLocation(base: .home, depth: 0, isBuiltFromData: false)
        case APIs.temporaryDirectoryPath:
            return FileLocation(base: .temporary, depth: 0, isBuiltFromData: false)
        case APIs.pathAppending, "appendingPathComponent:", "appendingPathComponent:isDirectory:":
            guard let receiver, var result = recurse(receiver) else { return nil }
            guard let argument = arguments.first?.value else { return result }
            if let text = argument.stringValue { appendLiteral(text, to: &result) } else {
                result.isBuiltFromData = true
                result.depth += 1
            }
            return result
        case "deletingLastPathComponent", "URLByDeletingLastPathComponent", "stringByDeletingLastPathComponent":
            guard let receiver, var result = recurse(receiver) else { return nil }
            result.depth -= 1
            result.lastComponent = nil
            return result
        case "standardized", "resolvingSymlinksInPath", "standardizingPath", "absoluteURL", "URLByResolvingSymlinksInPath":
            return receiver.flatMap(recurse)
        case "URL", "NSURL", "init", _ where pathOnlyFileURLSelectors.contains(name):
            if let path = arguments.first(where: { $0.label == "fileURLWithPath" || $0.label == "filePath" })?.value {
                return recurse(path)
            }
            return nil
        case APIs.bundleResourceURL, APIs.bundleResourcePath:
            // (`url` and `urls` of a bundle are read by the first case.)
            guard let receiver else { return nil }
            return bundleResource(receiver: receiver, arguments: arguments, recurse)
        case APIs.arrayElementRead.selectors[0], "firstObject", "lastObject", "UTF8String", "fileSystemRepresentation", APIs.stringCString.selectors[0]:
            return receiver.flatMap(recurse)
        default:
            return nil
        }
    }

    /// `Bundle.main.url(forResource:withExtension:subdirectory:)` and friends: a file in the bundle, one level
    /// below the root unless a subdirectory is named.
    private static func bundleResource(receiver: Expression, arguments: [Argument], _ recurse: (Expression) -> FileLocation?) -> FileLocation? {
        let isBundle = receiver.nameChain.contains { $0 == "Bundle" || $0 == "NSBundle" || $0 == "main" || $0 == "mainBundle" }
            || receiver.nameChain.last?.lowercased().hasSuffix("bundle") == true
        guard isBundle, arguments.contains(where: { $0.label == "forResource" || $0.label == "URLForResource" || $0.label == "pathForResource" })
        else { return nil }
        var result = FileLocation(base: .bundle, depth: 1, isBuiltFromData: false)
        if let folder = arguments.first(where: { ["subdirectory", "inDirectory"].contains($0.label ?? "") })?.value {
            if let text = folder.stringValue { result.depth += components(text) } else if !folder.isNilLike { result.isBuiltFromData = true }
        }
        return result
    }

    static func components(_ text: String) -> Int {
        var count = 0
        for part in text.split(separator: "/") where !part.isEmpty && part != "." {
            count += part == ".." ? -1 : 1
        }
        return count
    }

    static func appendLiteral(_ text: String, to location: inout FileLocation) {
        location.depth += components(text)
        if let last = text.split(separator: "/").last(where: { !$0.isEmpty }) { location.lastComponent = String(last) }
    }
}

extension Expression {
    /// `nil`, `NULL`, `Nil`, `nullptr`.
    public var isNilLike: Bool {
        switch unwrapped.kind {
        case .nilLiteral: return true
        case .identifier(let name): return name == "NULL" || name == "Nil" || name == "nullptr" || name == "nil"
        default: return false
        }
    }
}
