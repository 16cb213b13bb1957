/// Rules that only read built apps and binaries (ids 4xx in every group), in id order. Rules that read
/// source and also judge binaries (UIWebView, insecure unarchiving...) stay in their own group's list and
/// adopt `BinaryRule` in `Binary/ReusedRules.swift`.
public enum BinaryRules {
    public static let all: [any Rule.Type] = [
        BinaryNotPIERule.self, MissingStackCanariesRule.self, ObjectiveCWithoutARCRule.self, UnsafeCStringFunctionRule.self,
        EmbeddedFrameworkInventoryRule.self,
        WeakHashImportRule.self, CommonCryptoCipherInventoryRule.self, InsecureRandomImportRule.self,
        CleartextURLStringRule.self,
        EntitlementNotInProfileRule.self, ProvisioningProfileInventoryRule.self, ExpiredProvisioningProfileRule.self,
        DevelopmentProfileInReleaseRule.self,
        BinaryInventoryRule.self,
    ]
}
