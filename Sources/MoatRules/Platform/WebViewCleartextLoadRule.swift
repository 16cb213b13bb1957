import MoatCore
import MoatSyntax

public struct WebViewCleartextLoadRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-PLAT-208", slug: "webview-cleartext-load",
        title: "Web view loads a page over plain HTTP",
        severity: .medium, confidence: .high, evidence: .configuration, cwe: [319],
        masvs: ["MASVS-PLATFORM-2", "MASVS-NETWORK-1"], mastg: ["MASTG-TEST-0076", "MASTG-TEST-0065"],
        rationale: "A page loaded over http:// can be read and rewritten by anyone on the network path: they can inject script into the web view, reach every native bridge it exposes and phish inside the app's own UI. App Transport Security blocks it unless an exception allows it, so the load either fails or relies on a weakened ATS.",
        fix: "Load the page over https://. For development servers on localhost, keep the URL out of release builds.",
        references: ["https://mas.owasp.org/MASTG/tests/ios/MASVS-PLATFORM/MASTG-TEST-0076/",
                     "https://developer.apple.com/documentation/security/preventing_insecure_network_connections"],
        examples: [
            .triggering("NewsViewController.swift", """
            func showNews() {
                ↓webView.load(URLRequest(url: URL(string: "http://news.example.com/today")!))
                let debugURL = URL(string: "http://localhost:8080/debug")!
                ↓webView.load(URLRequest(url: debugURL))
            }
            """, note: "localhost is reported at low severity."),
            .triggering("ViewController.m", """
            - (void)viewDidLoad {
                NSURL *url = [NSURL URLWithString:@"http://www.example.com/"];
                NSURLRequest *request = [NSURLRequest requestWithURL:url];
                WKPreferences *pref = [[WKPreferences alloc] init];
                [pref setJavaScriptEnabled:NO];
                ↓[_webView loadRequest:request];
            }
            """, note: "The MASTG JavaScript-configuration example loads its page over HTTP."),
            .nonTriggering("NewsViewController.swift", """
            func showNews() {
                webView.load(URLRequest(url: URL(string: "https://news.example.com/today")!))
                let label = "Served from http://news.example.com until 2019"
            }
            """),
            .nonTriggering("ViewController.m", """
            - (void)viewDidLoad {
                NSURL *url = [NSURL URLWithString:@"https://www.example.com/"];
                [_webView loadRequest:[NSURLRequest requestWithURL:url]];
            }
            """),
        ])

    public init() {}

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        guard unit.names.literalsContain(ignoringCase: "http") else { return }
        let cache = LocalValuesCache(file: file)
        for load in RequestURLs.cleartextWebLoads(in: file, cache: cache) {
            guard let url = load.urls.first else { continue }
            if url.isLocal {
                sink.report("Web view loads `\(url.text)` over plain HTTP from a local address: keep development URLs out of release builds.",
                            in: file, at: load.call.range, severity: .low)
            } else {
                sink.report("Web view loads `\(url.text)` over plain HTTP: anyone on the network can inject script into the page. Use https://.",
                            in: file, at: load.call.range)
            }
        }
    }
}
