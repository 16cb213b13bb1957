import MoatCore
import MoatSyntax

/// An `http://` literal that becomes a request: `URL(string:)`, `NSURL(string:)`, `URLComponents(string:)`,
/// `[NSURL URLWithString:]`, or a request helper taking a URL string (`AF.request("http://...")`). Literals
/// that never reach such a call (XML namespaces, DTD ids, documentation strings) are not URLs the app
/// loads. Web view loads are MOAT-PLAT-208's; URLs only handed to another app (`open(_:)`, SwiftUI `Link`)
/// are not the app's traffic; nor is a URL built only to read a component (`URL(string: "http://\\(x)")?.user`),
/// nor a placeholder or documentation host (`http://not.required`, `http://example.com`). One finding per
/// line. Local addresses are reported at low severity.
public struct CleartextRequestRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-NET-209", slug: "cleartext-http-request",
        title: "Request to a plain HTTP URL",
        severity: .medium, confidence: .high, evidence: .configuration, cwe: [319],
        masvs: ["MASVS-NETWORK-1"], mastg: ["MASTG-TEST-0065"],
        rationale: "Traffic to an http:// URL is readable and modifiable by anyone on the network path (public Wi-Fi, a compromised router): tokens, personal data and responses the app trusts. App Transport Security blocks it unless an exception allows it, so the code either fails in production or depends on a weakened ATS configuration.",
        fix: "Use https://. For a local development server, keep the URL out of release builds (`#if DEBUG`) or use a locally trusted certificate.",
        references: ["https://developer.apple.com/documentation/security/preventing_insecure_network_connections",
                     "https://mas.owasp.org/MASTG/tests/ios/MASVS-NETWORK/MASTG-TEST-0065/"],
        examples: [
            .triggering("APIClient.swift", """
            let baseURL = ↓"http://api.example.com/v1"
            func fetchProfile(id: String) {
                let url = URL(string: ↓"http://api.example.com/v1/profile/\\(id)")!
                URLSession.shared.dataTask(with: URLRequest(url: url)).resume()
                let endpoint = URL(string: baseURL)
                AF.request(↓"http://api.example.com/v1/feed")
                let debug = URL(string: ↓"http://localhost:8080/mock")
            }
            """, note: "The base URL is reported where it is written; localhost at low severity."),
            .triggering("APIClient.m", """
            - (void)fetchProfile {
                NSURL *url = [NSURL URLWithString:↓@"http://api.example.com/v1/profile"];
                [[[NSURLSession sharedSession] dataTaskWithURL:url] resume];
            }
            """),
            .nonTriggering("APIClient.swift", """
            let svgNamespace = "http://www.w3.org/2000/svg"
            let help = "Our old site was http://example.com"
            func fetchProfile() {
                let url = URL(string: "https://api.example.com/v1/profile")!
                URLSession.shared.dataTask(with: url).resume()
                UIApplication.shared.open(URL(string: "http://example.com/legacy-help")!)
                webView.load(URLRequest(url: URL(string: "http://example.com/page")!))
            }
            """, note: "Namespaces and prose, https, a link opened in Safari, and a web view load (reported by MOAT-PLAT-208)."),
            .nonTriggering("AddressBar.swift", """
            func looksLikeLogin(_ typed: String) -> Bool {
                URL(string: "http://\\(typed)")?.user != nil
            }
            func hostOf(_ typed: String) -> String? {
                URL(string: "http://" + typed)?.host
            }
            enum Placeholders {
                static let reviewURL = URL(string: "http://not.required")!
                static let docsURL = URL(string: "http://example.com")!
            }
            """, note: "A URL built only to read its user or host is parsed, not requested; placeholder and documentation hosts name no server."),
            .triggering("AboutLinks.swift", """
            enum Links {
                static let community = URL(string: ↓"http://forum.example.org/app")!
                static let website = URL(string: "https://www.example.org")!
            }
            struct Credit { let title: String; let url: URL? }
            let credits = [Credit(title: "Icons", url: URL(string: ↓"http://icons.example.org"))]
            """, note: "URLs built in a file that makes no request (links shown to the user, opened elsewhere): reported at low, with low confidence."),
            .nonTriggering("Feed.m", """
            static NSString *const kAtomNamespace = @"http://www.w3.org/2005/Atom";
            - (void)fetch {
                NSURL *url = [NSURL URLWithString:@"https://example.com/feed"];
            }
            """),
        ])

    public init() {}

    /// Names of the APIs that make a request: a file that names none of them only builds URLs (a list of
    /// links for the user, a constant handed to other code), which is no evidence of the app's traffic.
    static let requestNames: Set<String> = [
        "URLSession", "NSURLSession", "URLRequest", "NSURLRequest", "NSMutableURLRequest", "dataTask", "downloadTask",
        "uploadTask", "webSocketTask", "dataTaskWithURL", "dataTaskWithRequest", "downloadTaskWithURL", "contentsOf",
        "dataWithContentsOfURL", "stringWithContentsOfURL", "initWithContentsOfURL", "AF", "Alamofire",
        "NSURLConnection", "sendSynchronousRequest", "WebSocket", "URLSessionConfiguration",
        "request", "requestWithURL", "AFHTTPSessionManager",
    ]

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        guard unit.names.literalsContain(ignoringCase: "http") else { return }
        let makesRequests = unit.names.containsAny(Self.requestNames)
        let cache = LocalValuesCache(file: file)
        let webLoads = RequestURLs.cleartextWebLoads(in: file, cache: cache)
        let webConstructions = Set(webLoads.flatMap(\.urls).map { ObjectIdentifier($0.construction) })
        let opened = RequestURLs.externallyOpened(in: file, cache: cache)
        let parsed = RequestURLs.parsedOnly(in: file)
        var reported = Set<ObjectIdentifier>()
        var reportedLines = Set<Int>()
        for url in RequestURLs.cleartextURLs(in: file, cache: cache) {
            let construction = ObjectIdentifier(url.construction)
            if webConstructions.contains(construction) || opened.contains(construction) || parsed.contains(construction) { continue }
            if RequestURLs.isPlaceholderHost(url.host) { continue }
            guard reported.insert(ObjectIdentifier(url.literal)).inserted,
                  reportedLines.insert(url.literal.range.start.line).inserted else { continue }
            if url.isLocal {
                sink.report("Request to `\(url.text)` uses plain HTTP to a local address: keep development URLs out of release builds.",
                            in: file, at: url.literal.range, severity: .low)
            } else if !makesRequests {
                sink.report("Plain-HTTP URL `\(url.text)`, but this file makes no request (a link shown to the user, a value handed to other code): if it is loaded, anyone on the network path can read and change it. Use https://.",
                            in: file, at: url.literal.range, severity: .low, confidence: .low)
            } else {
                sink.report("Request to `\(url.text)` uses plain HTTP: anyone on the network path can read and change it. Use https://.",
                            in: file, at: url.literal.range)
            }
        }
    }
}
