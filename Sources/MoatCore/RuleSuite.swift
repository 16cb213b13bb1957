/// Which suite a rule belongs to. The default suite holds the rules whose findings have proven right on
/// real apps; a rule whose measured precision is below 50 % over ten or more judged findings is
/// `experimental`: it runs only when asked for (`--include experimental`, `"include": ["experimental"]`,
/// or naming the rule), and its findings never fail a gate. It goes back to the default suite when a
/// new check half shows it at 80 % or more (`RulePrecision.promoted`).
public enum RuleSuite: String, Codable, Sendable, CaseIterable, Comparable {
    case `default`
    case experimental

    public static func < (lhs: RuleSuite, rhs: RuleSuite) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// What the corpus verdicts (`Corpus/verdicts/*.tsv`, every round and both halves) say about a rule's
/// findings: precision is TP / (TP + FP), with the debatable ones counted beside it (`../TRIAGE.md`).
public struct MeasuredPrecision: Codable, Sendable, Equatable {
    public var truePositives: Int
    public var falsePositives: Int
    public var debatable: Int

    public init(truePositives: Int, falsePositives: Int, debatable: Int) {
        self.truePositives = truePositives
        self.falsePositives = falsePositives
        self.debatable = debatable
    }

    /// Findings judged at all (TP, FP and debatable).
    public var judged: Int { truePositives + falsePositives + debatable }

    /// TP / (TP + FP); nil when no finding was called either.
    public var precision: Double? {
        let decided = truePositives + falsePositives
        return decided == 0 ? nil : Double(truePositives) / Double(decided)
    }

    /// The fewest judged findings on which a precision moves a rule out of the default suite.
    public static let minimumJudged = 10
    /// Below this precision (over `minimumJudged` findings or more) a rule is experimental.
    public static let defaultSuiteFloor = 0.5
    /// The precision a new check half must show to bring an experimental rule back.
    public static let promotionFloor = 0.8

    /// The suite this measurement puts a rule in: experimental when below the floor over enough findings.
    public var suite: RuleSuite {
        guard judged >= Self.minimumJudged, let precision else { return .default }
        return precision < Self.defaultSuiteFloor ? .experimental : .default
    }

    /// "12 % (58 judged)", as the catalogue shows it.
    public var summary: String {
        guard let precision else { return "— (\(judged) judged)" }
        return "\(Int((precision * 100).rounded())) % (\(judged) judged)"
    }
}
