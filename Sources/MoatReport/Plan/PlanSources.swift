import Foundation
import MoatCore
import MoatSyntax

/// The source files a test plan looks into again — the files of surface entries, their handlers and the
/// findings — parsed once each into the code model, read through `SourceFiles` (never outside a root).
final class PlanSources {
    /// Files parsed for one plan, at most.
    static let maximumFiles = 400

    private let files: SourceFiles
    private var parsed: [String: CodeFile?] = [:]

    init(roots: [String]) {
        files = SourceFiles(roots: roots)
    }

    /// The parsed file at a scan path, or nil when it is not source or cannot be read.
    func file(_ path: String) -> CodeFile? {
        if let cached = parsed[path] { return cached }
        var result: CodeFile?
        let name = (path as NSString).lastPathComponent
        if parsed.count < Self.maximumFiles, let language = SourceLanguage.of(fileName: name),
           let lines = files.lines(of: path) {
            let source = lines.joined(separator: "\n")
            result = language == .swift ? SwiftFrontEnd.parse(source: source, path: path)
                                        : CFamilyFrontEnd.parse(source: source, path: path, language: language)
        }
        parsed[path] = result
        return result
    }

    /// A method of a class, with what the hook needs.
    struct Method: Hashable {
        /// The class (or the type an extension or category extends).
        var className: String
        var typeKind: TypeKind?
        var isSwift: Bool
        /// nil when no Objective-C selector exists (a C function, an operator, a closure).
        var selector: String?
        var isClassMethod: Bool
        /// The Swift full name or the selector, as the code model names it.
        var name: String
        var location: Location
        /// The Swift type can have Objective-C methods: a class (or an extension of one) rather than a
        /// struct or enum.
        var isObjCVisible: Bool
    }

    /// The function whose name starts on `location`'s line (or, failing that, the one whose body holds
    /// it), with its owner. `name` narrows the search when given.
    func method(at location: Location, named name: String? = nil) -> Method? {
        guard let file = file(location.path) else { return nil }
        let candidates = file.allFunctions.filter { name == nil || $0.function.fullName == name }
        let exact = candidates.first { $0.function.nameRange.start.line == location.line }
            ?? candidates.first { $0.function.range.start.line <= location.line && location.line <= $0.function.range.end.line }
        guard let (function, owner) = exact else { return nil }
        return method(function, owner: owner, in: file)
    }

    func method(_ function: FunctionDeclaration, owner: TypeDeclaration?, in file: CodeFile) -> Method? {
        guard let owner else { return nil }
        let className = Self.typeName(owner.name)
        guard !className.isEmpty else { return nil }
        let declarationText = file.text(SourceRange(start: function.range.start, end: function.nameRange.start))
        let selector = ObjCNames.selector(of: function, language: file.language,
                                          explicit: ObjCNames.explicitObjCName(Substring(declarationText)))
        var kind: TypeKind? = owner.kind
        if owner.kind == .extension { kind = declaredKind(of: className, in: file) }
        let visible: Bool
        switch kind {
        case .struct?, .enum?, .protocol?: visible = false
        default: visible = true
        }
        return Method(className: className, typeKind: kind, isSwift: file.language == .swift, selector: selector,
                      isClassMethod: function.isStatic, name: function.fullName,
                      location: Location(path: file.path, line: function.nameRange.start.line, column: function.nameRange.start.column),
                      isObjCVisible: visible || file.language.isCFamily)
    }

    /// The kind of a type declared in the file (for extensions); nil when it is declared elsewhere.
    private func declaredKind(of name: String, in file: CodeFile) -> TypeKind? {
        file.allTypes.first { $0.name == name && $0.kind != .extension }?.kind
    }

    /// `LBClass` for `LBClass (Category)` and `Outer.Inner` → `Inner`.
    static func typeName(_ name: String) -> String {
        var result = name
        if let paren = result.firstIndex(of: "(") { result = String(result[..<paren]) }
        result = result.trimmingCharacters(in: .whitespaces)
        if let dot = result.lastIndex(of: ".") { result = String(result[result.index(after: dot)...]) }
        if let angle = result.firstIndex(of: "<") { result = String(result[..<angle]) }
        return result
    }

    /// Every method of the file named one of `names` (Swift full names or selectors).
    func methods(in path: String, named names: Set<String>) -> [Method] {
        guard let file = file(path) else { return [] }
        return file.allFunctions.filter { names.contains($0.function.fullName) }
            .compactMap { method($0.function, owner: $0.owner, in: file) }
    }

    /// The protocol declared at (or around) a location, with the selectors of its members.
    func protocolMembers(at location: Location, named name: String?) -> (name: String, isSwift: Bool, selectors: [String])? {
        guard let file = file(location.path) else { return nil }
        let protocols = file.allTypes.filter { $0.kind == .protocol || $0.kind == .objcProtocol }
        let match = protocols.first { name != nil && $0.name == name }
            ?? protocols.first { $0.range.start.line <= location.line && location.line <= $0.range.end.line }
        guard let declaration = match else { return nil }
        var selectors: [String] = []
        for member in declaration.members {
            for function in member.flattenedFunctions {
                let text = file.text(SourceRange(start: function.range.start, end: function.nameRange.start))
                if let selector = ObjCNames.selector(of: function, language: file.language,
                                                     explicit: ObjCNames.explicitObjCName(Substring(text))) {
                    selectors.append((function.isStatic ? "+ " : "- ") + selector)
                }
            }
        }
        return (declaration.name, file.language == .swift, Array(Set(selectors)).sorted())
    }

    // MARK: URL vocabulary

    /// What a URL handler compares the URL's parts with: the hosts, paths and query parameter names it
    /// looks for, from string literals compared with `host`, `path`, `pathComponents`, `lastPathComponent`
    /// and query items' `name` (`==`, `!=`, `switch`, `isEqualToString:`, `hasPrefix`...).
    struct URLVocabulary: Equatable {
        var hosts = Set<String>()
        var paths = Set<String>()
        var parameters = Set<String>()

        mutating func formUnion(_ other: URLVocabulary) {
            hosts.formUnion(other.hosts)
            paths.formUnion(other.paths)
            parameters.formUnion(other.parameters)
        }

        var isEmpty: Bool { hosts.isEmpty && paths.isEmpty && parameters.isEmpty }
    }

    static let comparisonCalls: Set<String> = Set(APIs.stringComparison.selectors + APIs.objectEquality.selectors.prefix(1) + [
        "hasPrefix", "hasSuffix", "contains", "starts", "elementsEqual", "caseInsensitiveCompare", "compare", "localizedCaseInsensitiveCompare",
    ])
    /// Calls that read a URL's parameter by name: the app's own helpers, and the keyed lookups of a
    /// dictionary (the `objectForKey:` family, which `NSDictionary` shares with `CKRecord`).
    static let parameterLookups: Set<String> = Set(["queryItem", "queryItems", "queryValue", "value", "parameter", "param"]
                                                   + APIs.recordFieldRead.selectors)

    /// The vocabulary of one handler file.
    func urlVocabulary(_ path: String) -> URLVocabulary {
        guard let file = file(path) else { return URLVocabulary() }
        var vocabulary = URLVocabulary()
        let readsQuery = file.containsText("queryItems") || file.containsText("query")
        func note(_ subject: MoatSyntax.Expression, _ literal: String) {
            let value = literal.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !value.isEmpty, value.count <= 200, !value.contains(where: { $0.isNewline }) else { return }
            let subject = subject.unwrapped
            if case .subscriptAccess(let base, _) = subject.kind, base.nameChain.last == "pathComponents" {
                vocabulary.paths.insert(value.hasPrefix("/") ? value : "/" + value)
                return
            }
            switch subject.nameChain.last {
            case "host"?: vocabulary.hosts.insert(value)
            case "path"?, "relativePath"?, "pathComponents"?, "lastPathComponent"?:
                vocabulary.paths.insert(value.hasPrefix("/") ? value : "/" + value)
            case "name"? where readsQuery && Self.isParameterName(value): vocabulary.parameters.insert(value)
            default: break
            }
        }
        file.walk { node, _ in
            switch node {
            case .expression(let expression):
                switch expression.kind {
                case .binary(let op, let lhs, let rhs) where op == "==" || op == "!=" || op == "~=" || op == "===":
                    if let literal = rhs.stringValue { note(lhs, literal) }
                    if let literal = lhs.stringValue { note(rhs, literal) }
                case .call(let callee, let arguments, _):
                    guard let name = callee.name else { return }
                    if Self.comparisonCalls.contains(name), let receiver = callee.receiver {
                        if let literal = arguments.first?.value.stringValue { note(receiver, literal) }
                        if let literal = receiver.stringValue, let other = arguments.first?.value { note(other, literal) }
                    } else if readsQuery, Self.parameterLookups.contains(name) || name.lowercased().contains("queryitem"),
                              let literal = arguments.first?.value.stringValue, Self.isParameterName(literal) {
                        vocabulary.parameters.insert(literal)
                    }
                case .subscriptAccess(let base, let arguments):
                    let chain = base.nameChain.joined(separator: ".").lowercased()
                    if readsQuery, chain.contains("query") || chain.contains("param"),
                       let literal = arguments.first?.value.stringValue, Self.isParameterName(literal) {
                        vocabulary.parameters.insert(literal)
                    }
                default:
                    break
                }
            case .statement(let statement):
                if case .switchStatement(let subject, let cases) = statement.kind {
                    for item in cases {
                        for pattern in item.patterns {
                            if let literal = pattern.stringValue { note(subject, literal) }
                        }
                    }
                }
            case .declaration:
                break
            }
        }
        return vocabulary
    }

    static func isParameterName(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 64 && text.allSatisfy { $0.isLetter || $0.isNumber || "_-.[]".contains($0) }
    }
}
