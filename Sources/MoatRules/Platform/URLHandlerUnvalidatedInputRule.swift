import MoatCore
import MoatSyntax

/// MASTG "Testing Custom URL Schemes": "Security issues arise when an app processes calls to its URL scheme
/// without properly validating the URL and its parameters". A URL handler stores a value from the URL,
/// fetches a URL it names or shows a screen built from it, with no check of the value and no look at the
/// app that opened the URL. Sensitive actions (calls, payments, deletions) are MOAT-PLAT-303. A handler
/// that only opens a screen built from the URL's values (a profile, a post, a pre-filled search) is
/// reported at low severity: that is what deep links are for.
public struct URLHandlerUnvalidatedInputRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-PLAT-305", slug: "url-handler-unvalidated-input", title: "URL handler acts on the URL's values without validating them",
        severity: .medium, confidence: .medium, evidence: .dataflow, cwe: [20, 939],
        masvs: ["MASVS-PLATFORM-1", "MASVS-CODE-4"], mastg: ["MASTG-TEST-0075"],
        rationale: "Any web page or app can open your URL scheme, and any page can link to your universal links, with the values it likes. A handler that stores a value from the URL as a setting (a server address, an account, a flag), makes the app fetch a URL it names (with the app's cookies and headers), or builds the screen it shows from it, without checking the value or who sent it, lets whoever wrote the link decide what the app stores, requests or displays.",
        fix: "Validate each value against what the handler accepts (an allowlist of hosts or values, a format, a number) before acting on it, check `options[.sourceApplication]` when only known apps may send it, and ask the user before storing anything that changes how the app behaves.",
        references: ["https://mas.owasp.org/MASTG/tests/ios/MASVS-PLATFORM/MASTG-TEST-0075/"],
        examples: [
            .triggering("ServerLink.swift", """
            func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
                guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
                      let server = components.queryItems?.first(where: { $0.name == "server" })?.value else { return false }
                ↓UserDefaults.standard.set(server, forKey: "apiServer")
                return true
            }
            """, note: "The link chooses the server the app talks to from now on."),
            .triggering("FeedLink.m", """
            - (BOOL)application:(UIApplication *)app openURL:(NSURL *)url options:(NSDictionary *)options {
                NSURLComponents *components = [NSURLComponents componentsWithURL:url resolvingAgainstBaseURL:NO];
                NSURL *feed = [NSURL URLWithString:components.queryItems.firstObject.value];
                ↓[[NSURLSession sharedSession] dataTaskWithURL:feed];
                return YES;
            }
            """, note: "The app requests whatever the link names."),
            .triggering("NoteLink.swift", """
            class SceneDelegate: UIResponder, UIWindowSceneDelegate {
                var window: UIWindow?
                func scene(_ scene: UIScene, openURLContexts URLContexts: Set<UIOpenURLContext>) {
                    guard let url = URLContexts.first?.url,
                          let text = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first?.value else { return }
                    ↓window?.rootViewController?.present(MessageViewController(text: text), animated: true)
                }
            }
            """, note: "Only what the user sees: low severity and confidence (text shown as if the app wrote it)."),
            .nonTriggering("ServerLink.swift", """
            func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
                guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
                      let server = components.queryItems?.first(where: { $0.name == "server" })?.value,
                      ["eu.example.com", "us.example.com"].contains(server) else { return false }
                UserDefaults.standard.set(server, forKey: "apiServer")
                return true
            }
            """, note: "Only the servers the app knows (an allowlist)."),
            .nonTriggering("FeedLink.m", """
            - (BOOL)application:(UIApplication *)app openURL:(NSURL *)url options:(NSDictionary *)options {
                NSURLComponents *components = [NSURLComponents componentsWithURL:url resolvingAgainstBaseURL:NO];
                NSURL *feed = [NSURL URLWithString:components.queryItems.firstObject.value];
                if (![feed.host isEqualToString:@"feeds.example.com"]) {
                    return NO;
                }
                [[NSURLSession sharedSession] dataTaskWithURL:feed];
                return YES;
            }
            """, note: "The host is checked."),
            .nonTriggering("ServerLink.swift", """
            func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
                guard let sender = options[.sourceApplication] as? String, sender == "com.example.admin" else { return false }
                guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
                      let server = components.queryItems?.first(where: { $0.name == "server" })?.value else { return false }
                UserDefaults.standard.set(server, forKey: "apiServer")
                return true
            }
            """, note: "Only the app named in `sourceApplication` can send it."),
            .nonTriggering("ServerLink.swift", """
            func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
                guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
                      let server = components.queryItems?.first(where: { $0.name == "server" })?.value else { return false }
                let alert = UIAlertController(title: "Use \\(server)?", message: nil, preferredStyle: .alert)
                alert.addAction(UIAlertAction(title: "Use", style: .default) { _ in
                    UserDefaults.standard.set(server, forKey: "apiServer")
                })
                app.windows.first?.rootViewController?.present(alert, animated: true)
                return true
            }
            """, note: "The user confirms."),
            RuleExample(files: [
                ExampleFile(name: "SceneDelegate.swift", content: """
                class SceneDelegate: UIResponder, UIWindowSceneDelegate {
                    func scene(_ scene: UIScene, openURLContexts URLContexts: Set<UIOpenURLContext>) {
                        guard let url = URLContexts.first?.url,
                              let server = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first?.value,
                              ServerPolicy.isAllowedServer(server) else { return }
                        UserDefaults.standard.set(server, forKey: "apiServer")
                    }
                }
                """),
                ExampleFile(name: "ServerPolicy.swift", content: """
                enum ServerPolicy {
                    static let known: Set<String> = ["eu.example.com", "us.example.com"]
                    static func isAllowedServer(_ host: String) -> Bool { known.contains(host) }
                }
                """),
            ], triggers: false, note: "Across files: a validation helper of another file checks the value."),
        ])

    public init() {}

    /// Checks that make a value from the URL safe to act on.
    static let validations: Set<TaintCheck> = [.allowlisted, .validated, .hostChecked, .prefixChecked, .comparedWithValue, .typeChecked]

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        let flows = unit.flows(rule: Self.description.id)
        guard !flows.isEmpty else { return }
        let cache = LocalValuesCache(file: file)
        var reported = Set<Int>()
        for flow in flows where !flow.confirmed {
            for taint in flow.allTaints {
                guard let source = taint.source, source.kind.isOpenedURL, taint.checks.isDisjoint(with: Self.validations),
                      !taint.isInertString else { continue }
                // A universal link's own URL is on the app's associated domains; its parts are the sender's.
                if source.kind == .universalLink && !taint.checks.contains(.urlPart) { continue }
                if URLSchemeSensitiveActionRule.checksSourceApplication(before: flow, taint: taint, in: file, cache) { continue }
                guard reported.insert(flow.range.start.offset).inserted else { break }
                let uiOnly = flow.kind == .urlNavigation
                let what = uiOnly ? "shows a screen built from" : (flow.api.hasPrefix("URLSession") ? "fetches" : "stores")
                let message = "A URL handler \(what) a value from \(source.description) (\(flow.calledName)) without validating it or checking which app opened the URL: whoever writes the link decides what the app \(uiOnly ? "shows" : (what == "fetches" ? "requests" : "stores"))."
                // Opening a screen (a profile, a post, a pre-filled search) is what deep links are for: only what
                // the user sees, at most low. Storing a value or fetching a URL the link names is the weakness.
                DataflowReporting.report(message, flow: flow, taint: taint, in: file, severity: uiOnly ? .low : nil,
                                         confidence: uiOnly ? .low : Self.description.confidence, &sink)
                break
            }
        }
    }
}
