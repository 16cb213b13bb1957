import Foundation
import MoatCore
import MoatSyntax

/// An inline suppression: `// moat:ignore MOAT-NET-001 -- reason` (several ids separated by commas or
/// spaces). It covers findings of those rules on its own line and on the line below.
public struct SuppressionDirective: Sendable, Hashable, Codable {
    public static let keyword = "moat:ignore"

    public var path: String
    public var line: Int
    public var column: Int
    public var ruleIds: [String]
    public var reason: String?

    public init(path: String, line: Int, column: Int, ruleIds: [String], reason: String?) {
        self.path = path
        self.line = line
        self.column = column
        self.ruleIds = ruleIds
        self.reason = reason
    }

    /// Parses every directive in a code file's comments.
    public static func directives(in file: CodeFile) -> [SuppressionDirective] {
        file.comments.compactMap { parse($0, path: file.path) }
    }

    public static func parse(_ comment: Comment, path: String) -> SuppressionDirective? {
        // The directive must open the comment: `// moat:ignore ...` or `/* moat:ignore ... */`.
        var body = Substring(comment.text)
        while let first = body.first, first == "/" || first == "*" || first == "!" { body.removeFirst() }
        body = body.drop { $0 == " " || $0 == "\t" }
        guard body.hasPrefix(keyword) else { return nil }
        var rest = String(body.dropFirst(keyword.count))
        if rest.hasSuffix("*/") { rest.removeLast(2) }
        var reason: String?
        if let separator = rest.range(of: "--") {
            let text = rest[separator.upperBound...].trimmingCharacters(in: .whitespaces)
            reason = text.isEmpty ? nil : text
            rest = String(rest[..<separator.lowerBound])
        }
        let ids = rest.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }).map { String($0).uppercased() }
            .filter { !$0.isEmpty }
        return SuppressionDirective(path: path, line: comment.range.start.line, column: comment.range.start.column,
                                    ruleIds: ids, reason: reason)
    }

    public func covers(_ finding: Finding) -> Bool {
        finding.location.path == path && (finding.location.line == line || finding.location.line == line + 1)
            && (ruleIds.contains(finding.ruleId.uppercased()) || ruleIds.contains(finding.slug.uppercased()))
    }
}
