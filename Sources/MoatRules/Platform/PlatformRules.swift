/// The rules of this group, in id order. Add a new rule's type here.
public enum PlatformRules {
    public static let all: [any Rule.Type] = [UIWebViewRule.self, JavaScriptInjectionDataflowRule.self, WebViewUntrustedURLRule.self,
                                              URLSchemeSensitiveActionRule.self, UntrustedURLOpenRule.self]
}
