import Foundation
import MoatCore
import MoatFormats
import MoatSyntax

/// Collects what a rule reports while it runs. Rules say what and where; metadata, evidence and
/// fingerprints are filled in by the framework from the rule's description.
public struct FindingSink {
    public let rule: RuleDescription
    public private(set) var findings: [Finding] = []

    public init(rule: RuleDescription) {
        self.rule = rule
    }

    /// Reports at a location in a code file. `severity`/`confidence` override the rule's defaults for
    /// this occurrence (a suspicious-only pattern gets lower confidence).
    public mutating func report(_ message: String, in file: CodeFile, at range: SourceRange,
                                severity: Severity? = nil, confidence: Confidence? = nil,
                                related: [RelatedLocation] = [], evidence: String? = nil) {
        let location = Location(path: file.path, line: range.start.line, column: range.start.column)
        let line = evidence ?? file.line(range.start.line).trimmingCharacters(in: .whitespaces)
        report(message, at: location, severity: severity, confidence: confidence, related: related, evidence: line)
    }

    /// Reports at a property list node (the line of its key).
    public mutating func report(_ message: String, in plist: PropertyListDocument, at node: PlistNode,
                                severity: Severity? = nil, confidence: Confidence? = nil, evidence: String? = nil) {
        let location = Location(path: plist.path, line: plist.line(of: node), column: 1, keyPath: node.keyPath)
        report(message, at: location, severity: severity, confidence: confidence, evidence: evidence ?? node.keyPath)
    }

    /// Reports at any location.
    public mutating func report(_ message: String, at location: Location, severity: Severity? = nil,
                                confidence: Confidence? = nil, related: [RelatedLocation] = [], evidence: String? = nil) {
        findings.append(Finding(
            ruleId: rule.id, slug: rule.slug, title: rule.title, severity: severity ?? rule.severity,
            confidence: confidence ?? rule.confidence, message: message, location: location, related: related,
            cwe: rule.cwe, masvs: rule.masvs, mastg: rule.mastg, fix: rule.fix, evidence: evidence.map(Redaction.redact)))
    }

    /// Reports an inventory entry: `item` is what the attack surface reads, `message` the finding that
    /// describes it when inventory is listed among the findings.
    public mutating func inventory(_ item: InventoryItem, _ message: String, in file: CodeFile, at range: SourceRange) {
        report(message, in: file, at: range)
        findings[findings.count - 1].inventory = item
    }

    /// Reports an inventory entry at any location (see `inventory(_:_:in:at:)`).
    public mutating func inventory(_ item: InventoryItem, _ message: String, at location: Location, evidence: String? = nil) {
        report(message, at: location, evidence: evidence)
        findings[findings.count - 1].inventory = item
    }

    /// Reports an inventory entry at a property list node (see `inventory(_:_:in:at:)`).
    public mutating func inventory(_ item: InventoryItem, _ message: String, in plist: PropertyListDocument, at node: PlistNode) {
        report(message, in: plist, at: node)
        findings[findings.count - 1].inventory = item
    }

    /// Attaches `item` to the finding reported last (for inventory reported through another `report`).
    public mutating func attach(_ item: InventoryItem) {
        guard !findings.isEmpty else { return }
        findings[findings.count - 1].inventory = item
    }

    /// A related location inside a code file, for dataflow paths.
    public static func related(_ message: String, in file: CodeFile, at range: SourceRange) -> RelatedLocation {
        RelatedLocation(location: Location(path: file.path, line: range.start.line, column: range.start.column), message: message)
    }
}

