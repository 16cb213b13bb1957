import MoatCore
import MoatSyntax

/// Names that, found together in one source file, show that an API is used: every name of `names`
/// referenced, none of `unless`. Names are what the code model records (type names, Swift base and full
/// call names, member names, Objective-C selectors, C functions and constants), so the same clauses
/// serve Swift, Objective-C and, on imported symbols, binaries.
///
/// The first name is the anchor: a finding about the clause is reported where it first appears, so put
/// the most specific name (the call) first: `APIClause("requestAccess", "AVCaptureDevice", "video")`.
public struct APIClause: Sendable, Hashable, CustomStringConvertible {
    public var names: [String]
    public var unless: [String]

    public init(_ names: String..., unless: [String] = []) {
        self.names = names
        self.unless = unless
    }

    public var anchor: String { names.first ?? "" }

    /// `AVCaptureDevice.requestAccess` style text for messages.
    public var description: String { names.joined(separator: " + ") }

    /// Whether a file's summary satisfies the clause.
    public func matches(_ source: SourceSummary) -> Bool {
        !names.isEmpty && names.allSatisfy { source.referencedNames[$0] != nil }
            && !unless.contains { source.referencedNames[$0] != nil }
    }

    /// Whether a set of names (imported symbols, say) satisfies the clause.
    public func matches(names available: Set<String>) -> Bool {
        !names.isEmpty && names.allSatisfy(available.contains) && !unless.contains(where: available.contains)
    }
}

/// Where a clause matched.
public struct CodeMatch: Sendable {
    public var path: String
    public var position: SourcePosition
    public var clause: APIClause
    /// The text of the matched line, when the summary kept it.
    public var lineText: String?

    public init(path: String, position: SourcePosition, clause: APIClause, lineText: String? = nil) {
        self.path = path
        self.position = position
        self.clause = clause
        self.lineText = lineText
    }

    init(_ source: SourceSummary, _ position: SourcePosition, _ clause: APIClause) {
        self.init(path: source.path, position: position, clause: clause, lineText: source.lineText[position.line])
    }

    public var location: Location { Location(path: path, line: position.line, column: position.column) }
}

extension Array where Element == SourceSummary {
    /// The first match of any clause, in path order then position (deterministic).
    public func firstMatch(of clauses: [APIClause]) -> CodeMatch? {
        var best: CodeMatch?
        for source in self {
            for clause in clauses where clause.matches(source) {
                guard let position = source.referencedNames[clause.anchor] else { continue }
                if let current = best, (current.path, current.position.offset) <= (source.path, position.offset) { continue }
                best = CodeMatch(source, position, clause)
            }
        }
        return best
    }

    /// Whether any clause matches any file.
    public func matchesAny(of clauses: [APIClause]) -> Bool {
        contains { source in clauses.contains { $0.matches(source) } }
    }

    /// Where a function with one of these full names (`application(_:open:options:)`,
    /// `application:openURL:options:`) is defined; path order.
    public func definition(ofAnyOf names: [String]) -> CodeMatch? {
        var best: CodeMatch?
        for source in self {
            for name in names {
                guard let position = source.definedFunctions[name] else { continue }
                if let current = best, (current.path, current.position.offset) <= (source.path, position.offset) { continue }
                best = CodeMatch(source, position, APIClause(name))
            }
        }
        return best
    }

    /// True when there is code to judge, so that "never used" can be said: at least one file, and no
    /// C-family file whose model came out empty (its front end could not read it, so its uses are unknown).
    public var isAnalyzable: Bool {
        !isEmpty && !contains { source in
            source.language.isCFamily && source.referencedNames.isEmpty && source.definedFunctions.isEmpty
                && source.declaredTypes.isEmpty && source.imports.isEmpty
        }
    }
}
