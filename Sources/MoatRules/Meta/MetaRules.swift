/// The rules of this group, in id order. Add a new rule's type here.
public enum MetaRules {
    public static let all: [any Rule.Type] = [SuppressionWithoutReasonRule.self, UnusedSuppressionRule.self]
}
