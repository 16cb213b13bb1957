import MoatCore
import MoatSyntax

/// Info-level advice, decided per type (a class and its extensions in the file, or the file's top-level
/// code): the type loads web content only from local sources (`loadFileURL`, `loadHTMLString`, a request
/// for a file URL), never loads a remote or unknown request, never turns JavaScript off
/// (`allowsContentJavaScript` / `javaScriptEnabled` set to false), and never uses script itself (no
/// `evaluateJavaScript`, `callAsyncJavaScript`, user scripts or script message handlers, which would show
/// that the pages need JavaScript). Then JavaScript is probably not needed, and leaving it on only helps
/// injected markup. Reported once per type, at its first local load.
public struct WebViewJavaScriptLocalContentRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-PLAT-205", slug: "webview-javascript-enabled-for-local-content",
        title: "JavaScript left enabled for a web view that shows only local content",
        severity: .info, confidence: .medium, cwe: [749],
        masvs: ["MASVS-PLATFORM-2"], mastg: ["MASTG-TEST-0076"],
        rationale: "WKWebView runs JavaScript by default. A screen that only shows bundled or generated HTML (licences, help, receipts) rarely needs it, and with it on, any markup that slips into the content (a user name, a server string) can run script. This is advice, not a defect: it is reported at info level.",
        fix: "Set `configuration.defaultWebpagePreferences.allowsContentJavaScript = false` (iOS 14+) or `preferences.javaScriptEnabled = false` for web views that only show local or static content.",
        references: ["https://developer.apple.com/documentation/webkit/wkwebpagepreferences/3552422-allowscontentjavascript",
                     "https://mas.owasp.org/MASTG/tests/ios/MASVS-PLATFORM/MASTG-TEST-0076/"],
        examples: [
            .triggering("LicensesViewController.swift", """
            final class LicensesViewController: UIViewController {
                let webView = WKWebView()
                override func viewDidLoad() {
                    super.viewDidLoad()
                    let page = Bundle.main.url(forResource: "licenses", withExtension: "html", subdirectory: "Licenses")!
                    ↓webView.loadFileURL(page, allowingReadAccessTo: page.deletingLastPathComponent())
                    webView.loadHTMLString("<p>Loading…</p>", baseURL: nil)
                }
            }
            """),
            .triggering("LicensesViewController.m", """
            @implementation LicensesViewController
            - (void)viewDidLoad {
                [super viewDidLoad];
                NSURL *page = [[NSBundle mainBundle] URLForResource:@"licenses" withExtension:@"html" subdirectory:@"Licenses"];
                ↓[self.webView loadFileURL:page allowingReadAccessToURL:[page URLByDeletingLastPathComponent]];
            }
            @end
            """),
            .nonTriggering("LicensesViewController.swift", """
            final class LicensesViewController: UIViewController {
                let webView: WKWebView = {
                    let configuration = WKWebViewConfiguration()
                    configuration.defaultWebpagePreferences.allowsContentJavaScript = false
                    return WKWebView(frame: .zero, configuration: configuration)
                }()
                func show(_ page: URL) {
                    webView.loadFileURL(page, allowingReadAccessTo: page.deletingLastPathComponent())
                }
            }
            """),
            .nonTriggering("HelpCenter.swift", """
            final class HelpCenter {
                let webView = WKWebView()
                func showOffline() {
                    webView.loadHTMLString(offlineHTML, baseURL: nil)
                }
                func showArticle(_ url: URL) {
                    webView.load(URLRequest(url: url))
                }
            }
            final class Checkout {
                let webView = WKWebView()
                func start() {
                    webView.configuration.userContentController.add(self, name: "pay")
                    webView.loadFileURL(pageURL, allowingReadAccessTo: pageURL)
                }
            }
            """, note: "A web view that also loads remote pages, and one whose page talks to native code, need JavaScript."),
        ])

    public init() {}

    struct Scope {
        var firstLocalLoad: (Expression, String)?
        var hasRemoteLoad = false
        var usesScript = false
        var disablesScript = false
    }

    /// The local loads it looks for: `loadFileURL`, `loadHTMLString`, and requests for bundled or file URLs.
    static let requiredNames: Set<String> = [APIs.webViewLoadFileURL, APIs.webViewLoadHTML].swiftBaseNames
        .union([APIs.fileURLFromPath, APIs.bundleResourceURL].selectorHeads).union(APIs.bundleResourceURL.swiftFirstLabels)

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        guard unit.names.containsAny(Self.requiredNames) else { return }
        let cache = LocalValuesCache(file: file)
        var scopes: [String: Scope] = [:]
        var order: [String] = []
        func update(_ key: String, _ change: (inout Scope) -> Void) {
            if scopes[key] == nil { order.append(key) }
            change(&scopes[key, default: Scope()])
        }
        for write in file.propertyWrites(named: ["allowsContentJavaScript", "javaScriptEnabled"]) where write.value.boolValue == false {
            update(write.context.type?.name ?? "") { $0.disablesScript = true }
        }
        file.forEachExpression { expression, context in
            guard case .call(let callee, let arguments, let isMessageSend) = expression.kind, let name = callee.name else { return }
            let key = context.type?.name ?? ""
            if Self.scriptNames.contains(name) || (name == "add" && arguments.count == 2 && arguments[1].label == "name")
                || APIs.userScriptCreation.swiftBaseNames.contains(name) {
                update(key) { $0.usesScript = true }
                return
            }
            if WebViewBroadReadAccessRule.isLoadFileURL(expression) || WebViewHTMLFileBaseURLRule.isLoadHTMLString(expression) {
                let loadFileURL = APIs.webViewLoadFileURL.swiftBaseNames[0]
                let api = name.hasPrefix(loadFileURL) ? loadFileURL : APIs.webViewLoadHTML.swiftBaseNames[0]
                update(key) { if $0.firstLocalLoad == nil { $0.firstLocalLoad = (expression, api) } }
                return
            }
            let isRequestLoad = isMessageSend ? APIs.webViewLoadRequest.selectors.contains(name)
                : (APIs.webViewLoadRequest.swiftBaseNames.contains(name) && arguments.count == 1 && arguments[0].label == nil)
            guard isRequestLoad, let request = arguments.first?.value else { return }
            let values = cache.values(for: context)
            if let url = RequestURLs.requestURL(of: request, values), FileLocations.locate(url, values) != nil {
                update(key) { if $0.firstLocalLoad == nil { $0.firstLocalLoad = (expression, APIs.webViewLoadRequest.swiftBaseNames[0]) } }
            } else {
                update(key) { $0.hasRemoteLoad = true }
            }
        }
        for key in order {
            guard let scope = scopes[key], let (load, api) = scope.firstLocalLoad,
                  !scope.hasRemoteLoad, !scope.usesScript, !scope.disablesScript else { continue }
            let owner = key.isEmpty ? "This file" : "`\(key)`"
            sink.report("\(owner) shows only local web content (`\(api)`) and never turns JavaScript off: if the pages need no script, set `defaultWebpagePreferences.allowsContentJavaScript = false`.",
                        in: file, at: load.range)
        }
    }

    /// Calls that run or expose script (Swift `add(_:name:)` is matched apart, by its arguments).
    static let scriptNames: Set<String> = APIs.webViewJavaScriptEvaluation.callNames
        .union(APIs.userScriptAddition.callNames)
        .union(APIs.scriptMessageHandlerRegistration.callNames.subtracting(["add"]))
}
