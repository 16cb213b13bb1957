/// The rules of this group, in id order. Add a new rule's type here.
public enum CodeQualityRules {
    public static let all: [any Rule.Type] = [InsecureUnarchivingRule.self, XMLExternalEntitiesRule.self,
                                              InsecureCodingClassRule.self, InsecureUnarchiverConfigurationRule.self,
                                              PathTraversalRule.self, RemoteMessageStateRule.self,
                                              DeserializationAllowlistRule.self, BufferLengthRule.self, IntegerOverflowRule.self,
                                              PredicateFormatInjectionRule.self, SQLInjectionRule.self]
}
