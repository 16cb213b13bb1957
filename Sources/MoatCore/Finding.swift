/// One reported problem (or inventory entry), built for SARIF: rule metadata, an occurrence-specific
/// message, a primary location, optional related locations (a dataflow path), redacted evidence and a
/// fingerprint that survives unrelated line moves.
public struct Finding: Codable, Sendable, Hashable {
    public var ruleId: String
    public var slug: String
    public var title: String
    public var severity: Severity
    public var confidence: Confidence
    public var message: String
    public var location: Location
    public var related: [RelatedLocation]
    public var cwe: [Int]
    public var masvs: [String]
    public var mastg: [String]
    public var fix: String
    public var fingerprint: String
    /// True when the finding is in test code (`nonShippingReason == .test`); kept for compatibility.
    public var isTestCode: Bool
    /// Set when the finding is in code that does not ship (tests, mocks, fixtures, previews, debug-only or
    /// simulator-only branches): such findings never fail the scan. See `NonShippingReason`.
    public var nonShippingReason: NonShippingReason?
    /// The source line or value the finding points at, with secrets redacted. Never the raw secret.
    public var evidence: String?
    /// Set when an inline `moat:ignore` comment covers this finding; reporters show it as suppressed.
    public var suppression: Suppression?
    /// Set on the findings of inventory rules: the typed entry the attack surface is built from.
    public var inventory: InventoryItem?
    /// Set to `.experimental` on the findings of an experimental rule (`RuleSuite`): reported when that
    /// suite was asked for, never failing a gate. Nil for the default suite.
    public var suite: RuleSuite?

    public init(ruleId: String, slug: String, title: String, severity: Severity, confidence: Confidence,
                message: String, location: Location, related: [RelatedLocation] = [], cwe: [Int],
                masvs: [String], mastg: [String], fix: String, fingerprint: String = "",
                isTestCode: Bool = false, nonShippingReason: NonShippingReason? = nil, evidence: String? = nil,
                suppression: Suppression? = nil, inventory: InventoryItem? = nil) {
        self.ruleId = ruleId
        self.slug = slug
        self.title = title
        self.severity = severity
        self.confidence = confidence
        self.message = message
        self.location = location
        self.related = related
        self.cwe = cwe
        self.masvs = masvs
        self.mastg = mastg
        self.fix = fix
        self.fingerprint = fingerprint
        self.isTestCode = isTestCode || nonShippingReason == .test
        self.nonShippingReason = nonShippingReason ?? (isTestCode ? .test : nil)
        self.evidence = evidence
        self.suppression = suppression
        self.inventory = inventory
    }

    /// Whether the finding's place does not ship (test code included): it never fails the scan.
    public var isNonShipping: Bool { nonShippingReason != nil || isTestCode }

    /// Whether the finding can fail a gate: it ships and its rule is in the default suite.
    public var gates: Bool { !isNonShipping && suite != .experimental }

    /// Marks the finding as being in non-shipping code (`isTestCode` follows for tests).
    public mutating func markNonShipping(_ reason: NonShippingReason) {
        nonShippingReason = reason
        isTestCode = reason == .test
    }

    /// Findings are reported sorted by path, line, rule id, then column and message.
    public static func reportOrder(_ lhs: Finding, _ rhs: Finding) -> Bool {
        let left = lhs.location
        let right = rhs.location
        if left.path != right.path { return left.path < right.path }
        if left.line != right.line { return left.line < right.line }
        if lhs.ruleId != rhs.ruleId { return lhs.ruleId < rhs.ruleId }
        if left != right { return left < right }
        return lhs.message < rhs.message
    }
}

/// An inline suppression that matched a finding.
public struct Suppression: Codable, Sendable, Hashable {
    public var reason: String
    public var location: Location

    public init(reason: String, location: Location) {
        self.reason = reason
        self.location = location
    }
}

/// A file (or archive entry) that could not be read or parsed. The scan goes on without it.
public struct ScanError: Codable, Sendable, Hashable, Error, CustomStringConvertible {
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}
