/// The rules of this group, in id order. Add a new rule's type here.
public enum StorageRules {
    public static let all: [any Rule.Type] = [RealmWithoutEncryptionRule.self, CoreDataFileProtectionRule.self,
                                              SecretInUserDefaultsRule.self, SecretFileWithoutProtectionRule.self,
                                              FileProtectionNoneRule.self, SensitiveStoreBackupRule.self,
                                              KeychainAccessibleAlwaysRule.self, KeychainItemMigratableRule.self,
                                              CoreDataSecretAttributeRule.self,
                                              SecretInDatabaseRule.self, SecretInLogRule.self, SecretOnPasteboardRule.self]
}
