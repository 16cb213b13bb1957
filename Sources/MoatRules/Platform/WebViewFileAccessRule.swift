import MoatCore
import MoatSyntax

public struct WebViewFileAccessRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-PLAT-201", slug: "webview-file-access-from-file-urls",
        title: "Web view lets file:// pages read other files",
        severity: .high, confidence: .high, evidence: .configuration, cwe: [200, 749],
        masvs: ["MASVS-PLATFORM-2"], mastg: ["MASTG-TEST-0077", "MASTG-TEST-0076"],
        rationale: "`allowFileAccessFromFileURLs` lets JavaScript in a file:// page read any other file the app can read; `allowUniversalAccessFromFileURLs` also lets it send them to any origin. Both are off by default in WKWebView and only reachable through key-value coding. A script that reaches such a page (a downloaded HTML file, an injected string) can read the sandbox: tokens, databases, cached responses.",
        fix: "Remove the `setValue(_:forKey:)` call. Load local pages with `loadFileURL(_:allowingReadAccessTo:)` and give read access to the page's own folder only; serve anything else through `WKURLSchemeHandler`.",
        references: ["https://mas.owasp.org/MASTG/tests/ios/MASVS-PLATFORM/MASTG-TEST-0077/",
                     "https://developer.apple.com/documentation/webkit/wkwebview/1414973-loadfileurl"],
        examples: [
            .triggering("WebSetup.swift", """
            func configure(_ webView: WKWebView) {
                ↓webView.configuration.preferences.setValue(true, forKey: "allowFileAccessFromFileURLs")
                ↓webView.configuration.setValue(true, forKey: "allowUniversalAccessFromFileURLs")
            }
            """),
            .triggering("WebSetup.m", """
            - (void)configure {
                ↓[self.webView.configuration.preferences setValue:@YES forKey:@"allowFileAccessFromFileURLs"];
                ↓[configuration setValue:@YES forKey:@"allowUniversalAccessFromFileURLs"];
            }
            """),
            .nonTriggering("WebSetup.swift", """
            func configure(_ webView: WKWebView) {
                webView.configuration.preferences.setValue(false, forKey: "allowFileAccessFromFileURLs")
                let key = "allowUniversalAccessFromFileURLs" // documented, never enabled
                webView.loadFileURL(pageURL, allowingReadAccessTo: pageURL)
            }
            """),
            .nonTriggering("WebSetup.m", """
            - (void)configure {
                [self.webView.configuration.preferences setValue:@NO forKey:@"allowFileAccessFromFileURLs"];
            }
            """),
        ])

    public init() {}

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        let names: Set<String> = ["allowFileAccessFromFileURLs", "allowUniversalAccessFromFileURLs"]
        guard unit.names.mayWriteProperty(names) else { return }
        for write in file.propertyWrites(named: names) where write.value.boolValue == true {
            let consequence = write.property == "allowUniversalAccessFromFileURLs"
                ? "JavaScript in any file:// page can read local files and send them to any origin"
                : "JavaScript in any file:// page can read every other file the app can read"
            sink.report("`\(write.property)` is enabled: \(consequence). Remove it and limit `loadFileURL` read access to the page's folder.",
                        in: file, at: write.range)
        }
    }
}
