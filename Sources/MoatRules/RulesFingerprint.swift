import MoatCore

/// Names the rule set of this build: a short hash over every rule's id, slug, input kind, severity,
/// confidence and inventory flag, in id order. It changes when a rule is added, removed or renamed, or when
/// its severity or confidence changes (`CHANGELOG.md` records each such change); `moat --version` prints it,
/// every report carries it, and the result cache is keyed by it.
public enum RulesFingerprint {
    /// The fingerprint of these rules (any order): 12 hex digits of a SHA-256.
    public static func of(_ rules: [RuleDescription]) -> String {
        var hasher = SHA256()
        hasher.update("moat-rules/v1\n")
        for rule in rules.sorted(by: { $0.id < $1.id }) {
            hasher.update([rule.id, rule.slug, rule.kind?.rawValue ?? "", rule.severity.rawValue, rule.confidence.rawValue,
                           rule.isInventory ? "inventory" : "finding"].joined(separator: "|") + "\n")
        }
        return hasher.finalize().prefix(6).map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
        }.joined()
    }

    /// The fingerprint of every rule this build knows.
    public static let current: String = of(RuleRegistry.descriptions)

    /// How many rules this build knows.
    public static var ruleCount: Int { RuleRegistry.all.count }

    /// `moat --version`'s line: `moat 0.1.0 (rules 3f2a9c1d04be, 91 rules)`.
    public static var versionLine: String {
        "\(MoatVersion.name) \(MoatVersion.current) (rules \(current), \(ruleCount) rules)"
    }
}
