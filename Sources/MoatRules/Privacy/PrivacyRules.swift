/// The rules of this group, in id order. Add a new rule's type here.
public enum PrivacyRules {
    public static let all: [any Rule.Type] = [
        PermissionInventoryRule.self, WeakPurposeStringRule.self, UnusedPermissionRule.self, MissingPurposeStringRule.self,
        RequiredReasonAPIUndeclaredRule.self, RequiredReasonDeclaredUnusedRule.self, TrackingDomainsWithoutTrackingRule.self,
        MissingPrivacyManifestRule.self,
    ]
}
