import MoatCore
import MoatSyntax

public struct WebViewPhoneNumberDetectionRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-PLAT-207", slug: "webview-phone-number-detection",
        title: "Web view turns phone numbers into tel: links",
        severity: .low, confidence: .medium, evidence: .configuration, cwe: [749],
        masvs: ["MASVS-PLATFORM-2"], mastg: ["MASTG-TEST-0077"],
        rationale: "`dataDetectorTypes` with phone numbers (or `.all`) turns numbers in web content into tel: links that start a call when tapped, and the app's navigation delegate is not consulted for them. Remote or injected content can place premium-rate numbers under innocuous text; the MASTG lists tel: among the protocol handlers a web view should not offer.",
        fix: "Drop `.phoneNumber` / `.all` from `dataDetectorTypes` (use `.link` or none). If calls are a feature, render them as explicit links and confirm the number in the app before opening it.",
        references: ["https://developer.apple.com/documentation/webkit/wkwebviewconfiguration/1641942-datadetectortypes",
                     "https://mas.owasp.org/MASTG/tests/ios/MASVS-PLATFORM/MASTG-TEST-0077/"],
        examples: [
            .triggering("WebFactory.swift", """
            func makeConfiguration() -> WKWebViewConfiguration {
                let configuration = WKWebViewConfiguration()
                ↓configuration.dataDetectorTypes = [.phoneNumber, .link]
                return configuration
            }
            func legacy(_ webView: WKWebView) {
                ↓webView.configuration.dataDetectorTypes = .all
            }
            """),
            .triggering("WebFactory.m", """
            - (WKWebViewConfiguration *)makeConfiguration {
                WKWebViewConfiguration *configuration = [[WKWebViewConfiguration alloc] init];
                ↓configuration.dataDetectorTypes = WKDataDetectorTypePhoneNumber | WKDataDetectorTypeLink;
                ↓[configuration setDataDetectorTypes:WKDataDetectorTypeAll];
                return configuration;
            }
            """),
            .nonTriggering("WebFactory.swift", """
            func makeConfiguration() -> WKWebViewConfiguration {
                let configuration = WKWebViewConfiguration()
                configuration.dataDetectorTypes = [.link]
                // A text view is not web content: the system asks before calling.
                notesView.dataDetectorTypes = .phoneNumber
                return configuration
            }
            """),
            .nonTriggering("WebFactory.m", """
            - (void)setUp {
                self.configuration.dataDetectorTypes = WKDataDetectorTypeNone;
            }
            """),
        ])

    public init() {}

    static let phoneNames: Set<String> = ["phoneNumber", "all", "WKDataDetectorTypePhoneNumber", "WKDataDetectorTypeAll",
                                          "UIDataDetectorTypePhoneNumber", "UIDataDetectorTypeAll"]

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        guard unit.names.mayWriteProperty(["dataDetectorTypes"]) else { return }
        let cache = LocalValuesCache(file: file)
        for write in file.propertyWrites(named: ["dataDetectorTypes"]) {
            guard let object = write.object, Self.isWebObject(object, cache.values(for: write.context)) else { continue }
            let enabled = write.value.descendants().compactMap { expression -> String? in
                switch expression.kind {
                case .member(_, let name) where Self.phoneNames.contains(name): return name
                case .identifier(let name) where Self.phoneNames.contains(name): return name
                default: return nil
                }
            }
            guard let first = enabled.first else { continue }
            sink.report("`dataDetectorTypes` includes `\(first)`: numbers in web content become tel: links that start calls without the app's say. Use `.link` or none.",
                        in: file, at: write.range)
        }
    }

    /// A web view or its configuration, by name or declared type (not a UITextView).
    static func isWebObject(_ object: Expression, _ values: LocalValues) -> Bool {
        let chain = object.nameChain.map { $0.lowercased() }
        if chain.contains(where: { $0.contains("web") || $0.contains("configuration") || $0 == "config" }) { return true }
        if let last = object.nameChain.last, let type = values.declaredType(of: last) {
            return type.contains("WKWebView") || type.contains("UIWebView")
        }
        return false
    }
}
