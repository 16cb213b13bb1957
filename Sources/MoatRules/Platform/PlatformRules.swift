/// The rules of this group, in id order. Add a new rule's type here.
public enum PlatformRules {
    public static let all: [any Rule.Type] = [UIWebViewRule.self,
                                              WebViewFileAccessRule.self, WebViewBroadReadAccessRule.self,
                                              WebViewHTMLFileBaseURLRule.self, WebViewJavaScriptWindowsRule.self,
                                              WebViewJavaScriptLocalContentRule.self, WebViewInspectableRule.self,
                                              WebViewPhoneNumberDetectionRule.self, WebViewCleartextLoadRule.self,
                                              JavaScriptBridgeInventoryRule.self, JSContextSecretRule.self, ScriptMessageOriginRule.self,
                                              JavaScriptInjectionRule.self,
                                              JavaScriptInjectionDataflowRule.self, WebViewUntrustedURLRule.self,
                                              URLSchemeSensitiveActionRule.self, UntrustedURLOpenRule.self, URLHandlerUnvalidatedInputRule.self,
                                              EntitlementsInventoryRule.self, DebuggableReleaseRule.self,
                                              UniversalLinksWithoutHandlerRule.self, UniversalLinkHandlerWithoutDomainsRule.self,
                                              URLSchemeInventoryRule.self, URLSchemeWithoutHandlerRule.self, DeprecatedURLHandlerRule.self,
                                              GenericURLSchemeRule.self, ExtensionActivationAnythingRule.self, InterfaceBuilderUIWebViewRule.self,
                                              InterfaceBuilderWKWebViewInventoryRule.self, InsecureSecretTextFieldRule.self]
}
