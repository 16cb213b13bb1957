import MoatCore
import MoatSyntax

public struct WebViewJavaScriptWindowsRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-PLAT-204", slug: "webview-javascript-opens-windows",
        title: "Web view lets JavaScript open windows without a user action",
        severity: .low, confidence: .high, evidence: .configuration, cwe: [1021],
        masvs: ["MASVS-PLATFORM-2"], mastg: ["MASTG-TEST-0076"],
        rationale: "With `javaScriptCanOpenWindowsAutomatically` on, any script in the page can call `window.open` without a tap: pop-ups, and new web views the app creates through its UI delegate for pages the user never chose. The default is off.",
        fix: "Leave `javaScriptCanOpenWindowsAutomatically` at false. If links must open new windows, handle `webView(_:createWebViewWith:for:windowFeatures:)` and check the navigation action's user gesture and URL.",
        references: ["https://developer.apple.com/documentation/webkit/wkpreferences/1536573-javascriptcanopenwindowsautomati",
                     "https://mas.owasp.org/MASTG/tests/ios/MASVS-PLATFORM/MASTG-TEST-0076/"],
        examples: [
            .triggering("Browser.swift", """
            func makeWebView() -> WKWebView {
                let configuration = WKWebViewConfiguration()
                ↓configuration.preferences.javaScriptCanOpenWindowsAutomatically = true
                return WKWebView(frame: .zero, configuration: configuration)
            }
            """),
            .triggering("Browser.m", """
            - (WKWebView *)makeWebView {
                WKPreferences *pref = [[WKPreferences alloc] init];
                ↓[pref setJavaScriptCanOpenWindowsAutomatically:YES];
                ↓pref.javaScriptCanOpenWindowsAutomatically = YES;
                return nil;
            }
            """),
            .nonTriggering("Browser.swift", """
            func makeWebView() -> WKWebView {
                let configuration = WKWebViewConfiguration()
                configuration.preferences.javaScriptCanOpenWindowsAutomatically = false
                return WKWebView(frame: .zero, configuration: configuration)
            }
            """),
            .nonTriggering("ViewController.m", """
            - (void)viewDidLoad {
                WKPreferences *pref = [[WKPreferences alloc] init];
                //Disable javascript execution:
                [pref setJavaScriptEnabled:NO];
                [pref setJavaScriptCanOpenWindowsAutomatically:NO];
            }
            """, note: "The MASTG configuration example."),
        ])

    public init() {}

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        guard unit.names.mayWriteProperty(["javaScriptCanOpenWindowsAutomatically"]) else { return }
        for write in file.propertyWrites(named: ["javaScriptCanOpenWindowsAutomatically"]) where write.value.boolValue == true {
            sink.report("`javaScriptCanOpenWindowsAutomatically` is enabled: scripts in the page can open windows without a user tap. Leave it off.",
                        in: file, at: write.range)
        }
    }
}
