/// The rules of this group, in id order. Add a new rule's type here.
public enum CryptoRules {
    public static let all: [any Rule.Type] = [HardcodedCredentialFormatRule.self, HardcodedCryptoKeyRule.self,
                                              HardcodedSecretRule.self, ConstantIVRule.self]
}
