import MoatCore
import MoatSyntax

public struct WebViewHTMLFileBaseURLRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-PLAT-203", slug: "webview-html-string-file-base-url",
        title: "Dynamic HTML loaded with a file:// base URL",
        severity: .medium, confidence: .low, cwe: [73, 79],
        masvs: ["MASVS-PLATFORM-2"], mastg: ["MASTG-TEST-0077", "MASTG-TEST-0076"],
        rationale: "`loadHTMLString(_:baseURL:)` gives the HTML the origin of its base URL. With a file URL (the bundle, Documents, tmp) the page runs with file:// privileges: if the HTML contains anything from outside (an article body, a server response, a message), injected markup can load and read local files (local file inclusion).",
        fix: "Pass `baseURL: nil` (or the https origin the content belongs to) for HTML that is not a literal, and escape outside data before building HTML. For bundled pages, use `loadFileURL(_:allowingReadAccessTo:)` with the page's own folder.",
        references: ["https://developer.apple.com/documentation/webkit/wkwebview/1415004-loadhtmlstring",
                     "https://mas.owasp.org/MASTG/tests/ios/MASVS-PLATFORM/MASTG-TEST-0076/"],
        examples: [
            .triggering("ArticleView.swift", """
            func render(_ article: Article) {
                let html = "<h1>\\(article.title)</h1>\\(article.body)"
                ↓webView.loadHTMLString(html, baseURL: Bundle.main.bundleURL)
            }
            func show(_ markup: String) {
                let docs = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask).first!
                ↓webView.loadHTMLString(markup, baseURL: docs)
            }
            """),
            .triggering("ViewController.m", """
            - (void)showPage:(NSString *)name {
                NSString *filePath = [[NSBundle mainBundle] pathForResource:name ofType:@"html"];
                NSString *html = [NSString stringWithContentsOfFile:filePath encoding:NSUTF8StringEncoding error:nil];
                ↓[self.webView loadHTMLString:html baseURL:[NSBundle mainBundle].resourceURL];
            }
            - (void)showMessage:(NSString *)body {
                ↓[self.webView loadHTMLString:body baseURL:[NSURL fileURLWithPath:NSTemporaryDirectory()]];
            }
            """, note: "HTML read from a bundled file chosen at run time is reported at low severity (the files ship with the app), the parameter at medium."),
            .nonTriggering("ArticleView.swift", """
            func render(_ article: Article) {
                webView.loadHTMLString(article.html, baseURL: nil)
                webView.loadHTMLString(article.html, baseURL: URL(string: "https://news.example.com/"))
                webView.loadHTMLString("<p>You are offline.</p>", baseURL: Bundle.main.bundleURL)
            }
            """),
            .nonTriggering("ViewController.m", """
            - (void)showMessage:(NSString *)body {
                [self.webView loadHTMLString:body baseURL:nil];
            }
            - (void)viewDidLoad
            {
                [super viewDidLoad];
                NSString *filePath = [[NSBundle mainBundle] pathForResource:@"example_file" ofType:@"html"];
                NSString *html = [NSString stringWithContentsOfFile:filePath encoding:NSUTF8StringEncoding error:nil];
                [self.webView loadHTMLString:html baseURL:[NSBundle mainBundle].resourceURL];
            }
            """, note: "The MASTG chapter's sample: static HTML from a bundled file with a static base URL."),
        ])

    public init() {}

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        guard unit.names.contains("loadHTMLString") else { return }
        let cache = LocalValuesCache(file: file)
        for (call, context) in file.calls(where: Self.isLoadHTMLString) {
            let arguments = call.arguments
            guard arguments.count == 2, let base = arguments.last?.value else { continue }
            let values = cache.values(for: context)
            let html = values.resolve(arguments[0].value)
            if html.isConstantLiteral { continue }
            guard let location = Self.fileLocation(of: base, values) else { continue }
            // Static HTML (a bundled file named by a literal) with a static base URL: the MASTG chapter's
            // own sample. Nothing from outside reaches the page.
            if Self.isStaticBundledFile(html, values), FileLocations.locate(values.resolve(base), values)?.isBuiltFromData != true { continue }
            let fromBundle = Self.isReadFromBundle(html, values)
            let source = fromBundle ? "HTML read from a bundled file" : "HTML built at run time (`\(file.text(arguments[0].value.range))`)"
            sink.report("\(source) is loaded with a file:// base URL in \(location): the page gets file:// privileges, so injected markup can read local files. Use `baseURL: nil` or the content's https origin.",
                        in: file, at: call.range, severity: fromBundle ? .low : nil, confidence: fromBundle ? .low : nil)
        }
    }

    static func isLoadHTMLString(_ call: Expression) -> Bool {
        guard case .call(let callee, let arguments, let isMessageSend) = call.kind, let name = callee.name else { return false }
        if isMessageSend { return APIs.webViewLoadHTML.selectors.contains(name) }
        return APIs.webViewLoadHTML.swiftBaseNames.contains(name) && arguments.count == 2 && arguments[1].label == "baseURL"
    }

    /// A description of where a file base URL points, or nil for nil, web URLs and unknown values.
    static func fileLocation(of base: Expression, _ values: LocalValues) -> String? {
        let resolved = values.resolve(base)
        if resolved.isNilLike { return nil }
        if let location = FileLocations.locate(resolved, values) { return location.base.rawValue }
        if let text = resolved.stringValue ?? Self.urlString(resolved), text.lowercased().hasPrefix("file:") {
            return "`\(text)`"
        }
        return nil
    }

    static func urlString(_ expression: Expression) -> String? {
        guard let argument = RequestURLs.urlStringArgument(of: expression) else { return nil }
        return argument.stringValue
    }

    /// HTML read from a bundled file whose name and folder are literals.
    static func isStaticBundledFile(_ html: Expression, _ values: LocalValues) -> Bool {
        guard isReadFromBundle(html, values), case .call(_, let arguments, _) = html.kind, let source = arguments.first?.value,
              let location = FileLocations.locate(source, values), !location.isBuiltFromData else { return false }
        // The resource's name is a literal too (`pathForResource:@"example_file"`, not `pathForResource:name`).
        let resourceCalls = Set(["url"] + APIs.bundleResourceURL.selectors + APIs.bundleResourcePath.callNames)
        for node in [values.resolve(source)] + values.reachable(from: source) {
            guard case .call(let callee, let arguments, _) = node.kind, let name = callee.name, resourceCalls.contains(name),
                  let first = arguments.first else { continue }
            if !values.resolve(first.value).isConstantLiteral { return false }
        }
        return true
    }

    /// `String(contentsOf: bundleURL)`, `[NSString stringWithContentsOfFile:bundlePath ...]`.
    static func isReadFromBundle(_ html: Expression, _ values: LocalValues) -> Bool {
        guard case .call(let callee, let arguments, _) = html.kind, let name = callee.name else { return false }
        // Strings read with a given encoding, from a path or a URL.
        let readers = Set(["String", "NSString", "init"]
                          + (APIs.stringContentsOfFile.selectors + APIs.contentsOfURL.selectors).filter { $0.hasSuffix(":encoding:error:") })
        guard readers.contains(name), let source = arguments.first?.value,
              arguments.first?.label.map({ $0.hasPrefix("contentsOf") || $0.hasPrefix("stringWithContentsOf") || $0.hasPrefix("initWithContentsOf") }) == true
        else { return false }
        return FileLocations.locate(source, values)?.base == .bundle
    }
}
