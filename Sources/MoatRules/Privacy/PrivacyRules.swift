/// The rules of this group, in id order. Add a new rule's type here.
public enum PrivacyRules {
    public static let all: [any Rule.Type] = []
}
