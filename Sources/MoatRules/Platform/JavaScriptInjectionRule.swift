import MoatCore
import MoatSyntax

/// Script text built from non-literal values by interpolation, `+`, `String(format:)`,
/// `stringWithFormat:` or appending, passed to a web view or JSContext. Numbers and Booleans (literals,
/// values declared numeric or `Bool`, comparisons, ternaries of literals, `.count`) are not injection;
/// neither are values escaped for script: JSON from `JSONSerialization`/`JSONEncoder` (also through a helper
/// of the same file), percent-encoded text and URLs built by `URLComponents`. Where the dataflow rule
/// (MOAT-PLAT-301) follows untrusted data into the same call, it alone reports it. A pattern: the value
/// may be the app's own, so medium with low confidence.
public struct JavaScriptInjectionRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-PLAT-211", slug: "javascript-injection",
        title: "JavaScript built from non-literal values",
        severity: .medium, confidence: .low, cwe: [94, 79],
        masvs: ["MASVS-PLATFORM-2", "MASVS-CODE-4"], mastg: ["MASTG-TEST-0076", "MASTG-TEST-0078"],
        rationale: "Script text assembled from strings (a user name, a push payload, a server field) runs whatever those strings contain: a quote ends the literal and the rest executes in the page, with access to its cookies, storage and native bridges.",
        fix: "Pass values as arguments instead of splicing them into code: `callAsyncJavaScript(\"show(name)\", arguments: [\"name\": name], in: nil, in: .page)`. Where that is not available, encode the value with JSONSerialization and pass it as a JSON literal.",
        references: ["https://developer.apple.com/documentation/webkit/wkwebview/3656441-callasyncjavascript",
                     "https://mas.owasp.org/MASTG/tests/ios/MASVS-PLATFORM/MASTG-TEST-0076/"],
        examples: [
            .triggering("Greeter.swift", """
            func greet(_ name: String) {
                ↓webView.evaluateJavaScript("showGreeting('\\(name)')")
                let script = "setTitle(\\"" + name + "\\")"
                ↓webView.evaluateJavaScript(script) { _, _ in }
                ↓context.evaluateScript("render(" + payload + ")")
                let userScript = ↓WKUserScript(source: "window.user = '\\(name)'", injectionTime: .atDocumentStart, forMainFrameOnly: true)
            }
            """),
            .triggering("Greeter.m", """
            - (void)greet:(NSString *)name {
                NSString *script = [NSString stringWithFormat:@"showGreeting('%@')", name];
                ↓[self.webView evaluateJavaScript:script completionHandler:nil];
                ↓[self.legacyWebView stringByEvaluatingJavaScriptFromString:[@"setTitle('" stringByAppendingString:name]];
            }
            """),
            .nonTriggering("Greeter.swift", """
            func greet(_ name: String, progress: Double) async throws {
                _ = try await webView.callAsyncJavaScript("showGreeting(name)", arguments: ["name": name], contentWorld: .page)
                webView.evaluateJavaScript("document.title")
                webView.evaluateJavaScript("setProgress(\\(progress))")
                let count = items.count
                webView.evaluateJavaScript("setCount(\\(count))")
                let theme = "dark"
                webView.evaluateJavaScript("setTheme('" + theme + "')")
                webView.evaluateJavaScript("receive('\\(payload.base64EncodedString())')")
            }
            func run(_ script: String) {
                webView.evaluateJavaScript(script)
            }
            """, note: "Arguments passed separately, numbers, constants, and a wrapper that receives finished script."),
            .nonTriggering("Escaped.swift", """
            import WebKit
            func jsStringLiteral(_ value: String) -> String {
                let data = (try? JSONSerialization.data(withJSONObject: [value], options: [.fragmentsAllowed])) ?? Data()
                return String(decoding: data, as: UTF8.self)
            }
            final class ReaderView {
                let webView = WKWebView()
                var isDark = false
                func show(title: String, settings: Settings, host: String) throws {
                    webView.evaluateJavaScript("setTitle(\\(jsStringLiteral(title)))")
                    let encoded = try JSONEncoder().encode(settings)
                    let json = String(data: encoded, encoding: .utf8) ?? "{}"
                    webView.evaluateJavaScript("applySettings(" + json + ")")
                    var components = URLComponents()
                    components.scheme = "https"
                    components.host = host
                    components.queryItems = [URLQueryItem(name: "title", value: title)]
                    let link = components.url?.absoluteString ?? ""
                    webView.evaluateJavaScript("openLink('\\(link)')")
                    webView.evaluateJavaScript("setDark(\\(isDark))")
                    webView.evaluateJavaScript("setMode('\\(isDark ? "dark" : "light")')")
                    webView.evaluateJavaScript("setWide(\\(title.count > 20))")
                }
            }
            """, note: "JSON from JSONSerialization/JSONEncoder (also through a helper of the file), URLs built by URLComponents, Booleans and ternaries of literals are escaped or cannot carry script."),
            .nonTriggering("Providers.swift", """
            import WebKit
            func install(providerScript: String, in controller: WKUserContentController) {
                let wrapped = \"\"\"
                (function() {
                  if (window.isSecureContext) {
                    \\(providerScript)
                  }
                })();
                \"\"\"
                controller.addUserScript(WKUserScript(source: wrapped, injectionTime: .atDocumentStart, forMainFrameOnly: true))
            }
            """, note: "A script the app spliced in as code (a value named as script, outside any JavaScript string): code on purpose, not data."),
            .nonTriggering("WalletScripts.swift", """
            import WebKit
            enum ScriptIDs { static let unique = UUID().uuidString.replacingOccurrences(of: "-", with: "") }
            final class WalletScripts {
                static let namespace = "W\\(ScriptIDs.unique)"
                func install(in controller: WKUserContentController) {
                    let script = "let \\(WalletScripts.namespace) = {}; window.__wallet = \\(WalletScripts.namespace);"
                    controller.addUserScript(WKUserScript(source: script, injectionTime: .atDocumentStart, forMainFrameOnly: true))
                }
            }
            """, note: "A static constant the app makes itself from other static members (a random namespace): no page or user sets it."),
            .nonTriggering("Bridge.swift", """
            import WebKit
            final class SearchBridge: NSObject, WKScriptMessageHandler {
                let webView: WKWebView
                init(webView: WKWebView) { self.webView = webView }
                func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
                    guard let query = message.body as? String else { return }
                    webView.evaluateJavaScript("search('" + query + "')")
                }
            }
            """, note: "Untrusted data followed into the script: MOAT-PLAT-301 reports it, with its path; one weakness, one finding."),
            .nonTriggering("Greeter.m", """
            - (void)refresh {
                [self.webView evaluateJavaScript:@"document.title" completionHandler:nil];
            }
            """),
        ])

    public init() {}

    /// The calls that run a script, from the vocabulary (the same APIs as the dataflow sinks of MOAT-PLAT-301).
    static let evaluations = [APIs.webViewJavaScriptEvaluation, APIs.uiWebViewJavaScriptEvaluation, APIs.javaScriptContextEvaluation]
    static let swiftNames = Set(evaluations.flatMap(\.swiftBaseNames))
    static let selectors = Set(evaluations.selectors + APIs.userScriptCreation.selectors)
    /// The user script type, created with its source (`WKUserScript(source:...)`).
    static let userScriptType = APIs.userScriptCreation.swiftBaseNames[0]

    /// The calls `isScriptSink` accepts (an initializer's selector by its class, `WKUserScript`).
    static let requiredNames = SourceNames.callNames(selectors.filter { !$0.hasPrefix("init") }).union(swiftNames).union([userScriptType])

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        guard unit.names.containsAny(Self.requiredNames) else { return }
        let cache = LocalValuesCache(file: file)
        let encoders = Self.encodingHelpers(in: file)
        let constants = Self.appConstants(in: file)
        // One weakness, one finding: where the dataflow rule follows untrusted data into this call and
        // reports it, it supersedes this rule on that line (PostProcessor); where it follows the data and
        // finds it encoded, allowlisted or from a checked origin, this rule does not report it either.
        let reportedByDataflow = Set(JavaScriptInjectionDataflowRule.reportedFlows(in: unit).map(\.flow.range.start.offset))
        let followed = Set(unit.flows(rule: JavaScriptInjectionDataflowRule.description.id).map(\.range.start.offset))
            .subtracting(reportedByDataflow)
        for (call, context) in file.calls(where: Self.isScriptSink) where !followed.contains(call.range.start.offset) {
            guard let script = call.arguments.first?.value else { continue }
            let values = cache.values(for: context)
            let parts = Self.nonLiteralParts(values.resolve(script), values)
                .filter { !Self.isEncoded($0, values, encoders: encoders) && !Self.isAppConstant($0, constants) }
            guard !parts.isEmpty else { continue }
            let names = parts.map { "`\(Self.shorten(file.text($0.range)))`" }.joined(separator: ", ")
            let api = call.name.map { $0.hasPrefix("init") || $0 == Self.userScriptType ? Self.userScriptType : $0 } ?? "script"
            sink.report("Script passed to `\(api)` is built from \(names): a quote in that value ends the literal and the rest runs as code. Pass values as `callAsyncJavaScript` arguments instead.",
                        in: file, at: call.range)
        }
    }

    /// Static constants of this file's types (`static let namespace = "W\(ScriptLoader.uniqueID)"`) whose
    /// value the app makes itself, once: a string literal whose interpolations are other static members
    /// (`Type.name`), `UUID().uuidString`, or literals. Keyed `Type.name`. No page or user ever sets them.
    static func appConstants(in file: CodeFile) -> Set<String> {
        var result = Set<String>()
        for type in file.allTypes {
            for case .variable(let variable) in type.members where variable.isStatic && variable.isConstant {
                guard let initializer = variable.initializer?.unwrapped, case .stringLiteral(let segments) = initializer.kind else { continue }
                let madeByTheApp = segments.allSatisfy { segment in
                    guard case .interpolation(let value) = segment else { return true }
                    if value.isConstantLiteral { return true }
                    if case .member(_, "uuidString") = value.unwrapped.kind { return true }
                    if case .member(let base?, _) = value.unwrapped.kind, case .identifier(let typeName) = base.unwrapped.kind,
                       typeName.first?.isUppercase == true { return true }
                    return false
                }
                if madeByTheApp { result.insert(type.name + "." + variable.name) }
            }
        }
        return result
    }

    /// `Type.constant` (or `Self.constant`) naming one of `appConstants`.
    static func isAppConstant(_ value: Expression, _ constants: Set<String>) -> Bool {
        guard !constants.isEmpty, case .member(let base?, let name) = value.strippedOfCasts.kind,
              case .identifier(let typeName) = base.unwrapped.kind else { return false }
        if typeName == "Self" { return constants.contains { $0.hasSuffix("." + name) } }
        return constants.contains(typeName + "." + name)
    }

    /// Functions of this file that return JSON-encoded or percent-encoded text (a `jsStringLiteral(_:)`
    /// helper that runs its argument through `JSONSerialization` or `JSONEncoder`), by base name.
    static func encodingHelpers(in file: CodeFile) -> Set<String> {
        var names = Set<String>()
        for (function, _) in file.allFunctions where function.body != nil {
            let body = file.text(function.range)
            if Self.encodingAPIs.contains(where: { body.contains($0) }) { names.insert(function.name) }
        }
        return names
    }

    static let encodingAPIs = ["JSONSerialization", "JSONEncoder", "dataWithJSONObject", "addingPercentEncoding",
                               "stringByAddingPercentEncodingWithAllowedCharacters"]

    /// Values escaped for a script: the output of `JSONSerialization` or `JSONEncoder` (also through a helper
    /// of this file that uses them), percent-encoding, and URLs built by `URLComponents` (`components.url`,
    /// `.string`, `.absoluteString`: percent-encoded; the decoded `queryItems` values are not).
    static func isEncoded(_ value: Expression, _ values: LocalValues, encoders: Set<String>) -> Bool {
        var resolved = values.resolve(value)
        // `encoded ?? "{}"`: the fallback is a literal, the value is what counts.
        while case .binary("??", let lhs, let rhs) = resolved.strippedOfCasts.kind, isSafeValue(rhs, values) {
            resolved = values.resolve(lhs)
        }
        let reachable = values.reachable(from: value)
        for node in [resolved] + reachable {
            guard case .call(let callee, _, _) = node.kind, let name = callee.name else { continue }
            let chain = callee.nameChain
            if chain.contains("JSONSerialization") || chain.contains("JSONEncoder") || name == APIs.jsonSerializationWrite.selectors[0] { return true }
            if APIs.percentEncoding.callNames.contains(name) { return true } // addingPercentEncoding, and its selector
            if encoders.contains(name) { return true }
        }
        if case .member(_, let name) = resolved.strippedOfCasts.kind, ["url", "string", "absoluteString", "URL"].contains(name),
           reachable.contains(where: { $0.name == "URLComponents" || $0.name == "NSURLComponents" }) {
            return true
        }
        return false
    }

    static func isScriptSink(_ call: Expression) -> Bool {
        guard case .call(let callee, let arguments, let isMessageSend) = call.kind, let name = callee.name, !arguments.isEmpty else { return false }
        if isMessageSend { return selectors.contains(name) }
        if name == userScriptType { return arguments.first?.label == "source" }
        guard swiftNames.contains(name) else { return false }
        let label = arguments[0].label
        return label == nil || label == "from"
    }

    /// The parts of a script expression that are neither literals nor numbers.
    static func nonLiteralParts(_ script: Expression, _ values: LocalValues, depth: Int = 0) -> [Expression] {
        guard depth < 6 else { return [] }
        let bare = script.strippedOfCasts
        switch bare.kind {
        case .stringLiteral(let segments):
            var quote: Character?
            var result: [Expression] = []
            for segment in segments {
                switch segment {
                case .text(let text):
                    quote = jsQuoteState(after: text, from: quote)
                case .interpolation(let value):
                    if isSafeValue(value, values) { continue }
                    // Script spliced in as code on purpose (`\(providerScript)` outside any JS string):
                    // the app builds a script from its own scripts.
                    if quote == nil, isScriptCode(value) { continue }
                    result.append(value)
                }
            }
            return result
        case .binary("+", let lhs, let rhs):
            return operandParts(lhs, values, depth) + operandParts(rhs, values, depth)
        case .call(let callee, let arguments, _):
            guard let name = callee.name else { return [] }
            switch name {
            case "String", "NSString", "init":
                if arguments.first?.label == "format" {
                    return arguments.dropFirst().map(\.value).filter { !isSafeValue($0, values) }
                }
                if arguments.count == 1, let only = arguments.first, only.label == nil || only.label == "describing" {
                    return operandParts(only.value, values, depth)
                }
                return []
            case APIs.stringFormat, APIs.localizedStringFormat.selectors[0]:
                return arguments.dropFirst().map(\.value).filter { !isSafeValue($0, values) }
            case "appending", "appendingFormat", APIs.stringAppend:
                let base = callee.receiver.map { operandParts($0, values, depth) } ?? []
                return base + arguments.map(\.value).flatMap { operandParts($0, values, depth) }
            default:
                return []
            }
        default:
            return []
        }
    }

    private static func operandParts(_ operand: Expression, _ values: LocalValues, _ depth: Int) -> [Expression] {
        let resolved = values.resolve(operand)
        if resolved.isConstantLiteral || isSafeValue(operand, values) { return [] }
        switch resolved.strippedOfCasts.kind {
        case .stringLiteral, .binary("+", _, _), .call:
            let inner = nonLiteralParts(resolved, values, depth: depth + 1)
            if case .call = resolved.strippedOfCasts.kind, inner.isEmpty, !isStringBuilder(resolved) { return [operand] }
            return inner
        default:
            return [operand]
        }
    }

    private static func isStringBuilder(_ expression: Expression) -> Bool {
        guard let name = expression.strippedOfCasts.name else { return false }
        return (["String", "NSString", "init", "appending", "appendingFormat"] + APIs.stringFormat.selectors + APIs.stringAppend.selectors)
            .contains(name)
    }

    /// The JavaScript quote a text leaves open (`'`, `"` or a backtick), given the one open before it.
    static func jsQuoteState(after text: String, from start: Character?) -> Character? {
        var quote = start
        var escaped = false
        for character in text {
            if escaped { escaped = false; continue }
            if character == "\\" { escaped = true; continue }
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" || character == "`" {
                quote = character
            }
        }
        return quote
    }

    /// A value named as script code: `providerScript`, `ethJS`, `userScriptSource`, `javaScript`.
    static func isScriptCode(_ value: Expression) -> Bool {
        guard let name = value.strippedOfCasts.nameChain.last.map({ $0.lowercased() }) else { return false }
        return name.hasSuffix("script") || name.hasSuffix("js") || name.hasSuffix("scriptsource") || name == "javascript"
    }

    static let numericTypes: Set<String> = ["Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32",
                                            "UInt64", "Double", "Float", "CGFloat", "Bool", "NSInteger", "NSUInteger",
                                            "BOOL", "int", "long", "float", "double", "TimeInterval", "NSTimeInterval"]

    /// Literals, constants and numbers: values that cannot carry script.
    static func isSafeValue(_ value: Expression, _ values: LocalValues) -> Bool {
        let resolved = values.resolve(value)
        if resolved.isConstantLiteral { return true }
        switch resolved.strippedOfCasts.kind {
        case .integerLiteral, .floatLiteral, .booleanLiteral: return true
        case .member(_, let name) where ["count", "isEmpty", "hashValue", "timeIntervalSince1970", "uuidString"].contains(name): return true
        case .binary("??", let lhs, let rhs): return isSafeValue(lhs, values) && isSafeValue(rhs, values)
        case .binary(let op, _, _) where ["==", "!=", "<", ">", "<=", ">=", "&&", "||", "===", "!=="].contains(op):
            return true // a Bool: prints as true or false
        case .prefix("!", _): return true
        case .ternary(_, let then, let otherwise): return isSafeValue(then, values) && isSafeValue(otherwise, values)
        case .call(let callee, _, _) where APIs.base64Encoding.callNames.contains(callee.name ?? ""):
            // The base64 alphabet has no quotes or backslashes.
            return true
        case .call(let callee, _, _) where ["Int", "Double", "Float", "CGFloat", "Bool"].contains(callee.name ?? ""): return true
        default: break
        }
        if let name = LocalValues.assignableName(value.strippedOfCasts), let type = values.declaredType(of: name) {
            let bare = type.filter { $0 != "?" && $0 != "!" && $0 != " " }
            if numericTypes.contains(bare) { return true }
        }
        return false
    }

    static func shorten(_ text: String) -> String {
        text.count > 40 ? String(text.prefix(37)) + "…" : text
    }
}
