/// The rules of this group, in id order. Add a new rule's type here.
public enum NetworkRules {
    public static let all: [any Rule.Type] = [ATSArbitraryLoadsRule.self, ATSInsecureHTTPExceptionRule.self,
                                              ATSWeakTLSVersionRule.self,
                                              ServerTrustAcceptedRule.self, DeprecatedTrustEvaluateRule.self,
                                              TrustResultUnspecifiedOnlyRule.self, ChallengeAnsweredTwiceRule.self,
                                              SystemAnchorsReenabledRule.self, PinningInventoryRule.self,
                                              TLSValidationDisabledRule.self, WeakTLSVersionRule.self,
                                              CleartextRequestRule.self,
                                              ATSLocalNetworkingRule.self, ATSForwardSecrecyDisabledRule.self,
                                              ATSCertificateTransparencyRule.self, ATSPinnedDomainsInventoryRule.self,
                                              ATSPinnedInsecureDomainRule.self,
                                              SecretInURLRule.self]
}
