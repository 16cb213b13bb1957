import MoatCore
import MoatSyntax

public struct WebViewBroadReadAccessRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-PLAT-202", slug: "webview-broad-file-read-access",
        title: "Web view granted read access to a whole container directory",
        kind: .source, severity: .high, confidence: .high, cwe: [22, 200],
        masvs: ["MASVS-PLATFORM-2"], mastg: ["MASTG-TEST-0077", "MASTG-TEST-0076"],
        rationale: "`loadFileURL(_:allowingReadAccessTo:)` lets the loaded page read every file below the second URL. Granting Documents, Library, Caches, tmp, the home folder, `/` or the bundle root lets any script in the page (or in a page it navigates to) read databases, tokens and cached responses; a folder built from outside data lets an attacker choose what becomes readable.",
        fix: "Put local web content in a dedicated folder and grant read access to that folder only (`pageURL.deletingLastPathComponent()` of a page that lives in its own subfolder), or to the page file itself.",
        references: ["https://developer.apple.com/documentation/webkit/wkwebview/1414973-loadfileurl",
                     "https://mas.owasp.org/MASTG/tests/ios/MASVS-PLATFORM/MASTG-TEST-0077/"],
        examples: [
            .triggering("HelpViewController.swift", """
            func showHelp() {
                let docs = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
                let page = docs.appendingPathComponent("help/index.html")
                ↓webView.loadFileURL(page, allowingReadAccessTo: docs)
            }
            """),
            .triggering("Pages.swift", """
            func show(named name: String) {
                let page = Bundle.main.url(forResource: "index", withExtension: "html")!
                ↓webView.loadFileURL(page, allowingReadAccessTo: Bundle.main.bundleURL)
                ↓webView.loadFileURL(page, allowingReadAccessTo: page.deletingLastPathComponent())
                ↓webView.loadFileURL(page, allowingReadAccessTo: URL(fileURLWithPath: NSHomeDirectory()))
                ↓webView.loadFileURL(page, allowingReadAccessTo: FileManager.default.temporaryDirectory.appendingPathComponent(name))
                ↓webview.loadFileURL(url, allowingReadAccessTo: bundle.resourceURL!)
            }
            """, note: "The bundle root is broad too: a page at the top of the bundle has the bundle root as its folder."),
            .triggering("HelpViewController.m", """
            - (void)showHelp {
                NSURL *docs = [[[NSFileManager defaultManager] URLsForDirectory:NSDocumentDirectory inDomains:NSUserDomainMask] firstObject];
                NSURL *page = [docs URLByAppendingPathComponent:@"help.html"];
                ↓[self.webView loadFileURL:page allowingReadAccessToURL:docs];
            }
            """),
            .nonTriggering("HelpViewController.swift", """
            func showHelp() {
                let page = Bundle.main.url(forResource: "index", withExtension: "html", subdirectory: "help")!
                webView.loadFileURL(page, allowingReadAccessTo: page.deletingLastPathComponent())
                webView.loadFileURL(page, allowingReadAccessTo: page)
                let docs = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
                let site = docs.appendingPathComponent("OfflineSite", isDirectory: true)
                webView.loadFileURL(site.appendingPathComponent("index.html"), allowingReadAccessTo: site)
            }
            """, note: "Read access to the page itself or to a folder dedicated to the site."),
            .nonTriggering("HelpViewController.m", """
            - (void)showHelp {
                NSURL *page = [[NSBundle mainBundle] URLForResource:@"index" withExtension:@"html" subdirectory:@"help"];
                [self.webView loadFileURL:page allowingReadAccessToURL:[page URLByDeletingLastPathComponent]];
            }
            """),
        ])

    public init() {}

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        guard unit.names.contains("loadFileURL") else { return }
        let cache = LocalValuesCache(file: file)
        for (call, context) in file.calls(where: Self.isLoadFileURL) {
            let arguments = call.arguments
            guard arguments.count == 2, let readAccess = arguments.last?.value else { continue }
            let page = arguments[0].value
            if file.text(page.strippedOfCasts.range) == file.text(readAccess.strippedOfCasts.range) { continue }
            let values = cache.values(for: context)
            guard let location = FileLocations.locate(readAccess, values) else { continue }
            let granted = file.text(readAccess.range)
            if location.isWholeDirectory {
                let what = location.depth < 0 ? "a folder above \(location.base.rawValue)" : "all of \(location.base.rawValue)"
                sink.report("`loadFileURL` grants the page read access to \(what) (`\(granted)`): any script in it can read those files. Grant the page's own dedicated folder only.",
                            in: file, at: call.range, severity: location.base == .bundle ? .medium : .high)
            } else if location.isBuiltFromData {
                sink.report("`loadFileURL` read-access URL `\(granted)` under \(location.base.rawValue) is built from a non-literal value: whoever controls it chooses which files the page can read.",
                            in: file, at: call.range, severity: .medium, confidence: .medium)
            }
        }
    }

    static func isLoadFileURL(_ call: Expression) -> Bool {
        guard case .call(let callee, let arguments, let isMessageSend) = call.kind, let name = callee.name else { return false }
        if isMessageSend { return name == "loadFileURL:allowingReadAccessToURL:" }
        return name == "loadFileURL" && arguments.count == 2 && arguments[1].label == "allowingReadAccessTo"
    }
}
