import MoatCore
import MoatSyntax

public struct WebViewBroadReadAccessRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-PLAT-202", slug: "webview-broad-file-read-access",
        title: "Web view granted read access to a whole container directory",
        severity: .high, confidence: .high, evidence: .configuration, cwe: [22, 200],
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
            .nonTriggering("ReaderViewController.swift", """
            func showReader() {
                guard let bundleURL = Bundle.main.url(forResource: "ReaderResources", withExtension: "bundle"),
                      let resources = Bundle(url: bundleURL),
                      let page = resources.url(forResource: "reader", withExtension: "html") else { return }
                webView.loadFileURL(page, allowingReadAccessTo: resources.bundleURL)
                let template = Bundle.module.url(forResource: "template", withExtension: "html")!
                webView.loadFileURL(template, allowingReadAccessTo: Bundle.module.resourceURL!)
            }
            """, note: "A dedicated resource bundle (a `.bundle` of public page files, a Swift package's `Bundle.module`): only the files shipped for the page are readable."),
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
                var what = location.depth < 0 ? "a folder above \(location.base.rawValue)" : "all of \(location.base.rawValue)"
                if location.base == .bundle {
                    switch Self.bundle(of: readAccess, values, in: file) {
                    case .dedicated: continue
                    case .named(let name):
                        what = location.depth < 0 ? "a folder above the bundle `\(name)`" : "all of the bundle `\(name)`"
                    case .main: break
                    }
                }
                sink.report("`loadFileURL` grants the page read access to \(what) (`\(granted)`): any script in it can read those files. Grant the page's own dedicated folder only.",
                            in: file, at: call.range, severity: location.base == .bundle ? .medium : .high)
            } else if location.isBuiltFromData {
                sink.report("`loadFileURL` read-access URL `\(granted)` under \(location.base.rawValue) is built from a non-literal value: whoever controls it chooses which files the page can read.",
                            in: file, at: call.range, severity: .medium, confidence: .medium)
            }
        }
    }

    enum BundleKind { case main, dedicated, named(String) }

    /// Which bundle a bundle-based URL comes from: the app's main bundle, a dedicated resource bundle
    /// (`Bundle.module` of a Swift package, a `.bundle` opened with `Bundle(url:)`/`Bundle(path:)`), whose
    /// files are shipped for the page and public anyway, or a bundle known only by its name.
    static func bundle(of expression: Expression, _ values: LocalValues, in file: CodeFile) -> BundleKind {
        var receiver: Expression?
        for node in [values.resolve(expression)] + values.reachable(from: expression) {
            switch node.kind {
            case .member(let base?, let name) where ["bundleURL", "resourceURL", "bundlePath", "resourcePath"].contains(name):
                receiver = base
            case .call(let callee, let arguments, _)
                where arguments.contains(where: { ["forResource", "URLForResource", "pathForResource"].contains($0.label ?? "") })
                    || (APIs.bundleResourceURL.selectors + [APIs.bundleResourcePath.selectors[0]]).contains(callee.name ?? ""): // and pathForResource:ofType:
                receiver = callee.receiver
            default:
                continue
            }
            if receiver != nil { break }
        }
        guard let receiver else { return .main }
        let chain = receiver.nameChain
        if chain.contains("main") || chain.contains("mainBundle") { return .main }
        if chain.contains("module") && (chain.contains("Bundle") || chain.contains("NSBundle")) { return .dedicated }
        let resolved = values.resolve(receiver)
        if case .call(let callee, let arguments, _) = resolved.kind, let name = callee.name {
            if ["Bundle", "NSBundle", "init"].contains(name), arguments.contains(where: { $0.label == "url" || $0.label == "path" }) {
                return .dedicated
            }
            if APIs.bundleInit.selectors.contains(name) { return .dedicated }
        }
        if resolved.nameChain.contains("module") && resolved.nameChain.contains("Bundle") { return .dedicated }
        let text = file.text(receiver.range)
        return .named(text.count > 40 ? String(text.prefix(37)) + "…" : text)
    }

    static func isLoadFileURL(_ call: Expression) -> Bool {
        guard case .call(let callee, let arguments, let isMessageSend) = call.kind, let name = callee.name else { return false }
        if isMessageSend { return APIs.webViewLoadFileURL.selectors.contains(name) }
        return APIs.webViewLoadFileURL.swiftBaseNames.contains(name) && arguments.count == 2 && arguments[1].label == "allowingReadAccessTo"
    }
}
