/// How bad a finding is. Ordered from least to most severe so `>=` reads as "at least as severe".
public enum Severity: String, Codable, Sendable, CaseIterable, Comparable {
    case info, low, medium, high, critical

    private var rank: Int {
        switch self {
        case .info: 0
        case .low: 1
        case .medium: 2
        case .high: 3
        case .critical: 4
        }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }

    /// The GitHub code-scanning `security-severity` score (CVSS-like, 0.0–10.0) for this level.
    public var securityScore: String {
        switch self {
        case .critical: "9.5"
        case .high: "8.0"
        case .medium: "5.5"
        case .low: "3.0"
        case .info: "0.0"
        }
    }
}

/// How sure the rule is that this occurrence is a real problem, not merely a suspicious pattern.
public enum Confidence: String, Codable, Sendable, CaseIterable, Comparable {
    case low, medium, high

    private var rank: Int {
        switch self {
        case .low: 0
        case .medium: 1
        case .high: 2
        }
    }

    public static func < (lhs: Confidence, rhs: Confidence) -> Bool { lhs.rank < rhs.rank }
}
