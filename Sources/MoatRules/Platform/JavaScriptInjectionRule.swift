import MoatCore
import MoatSyntax

/// Script text built from non-literal values by interpolation, `+`, `String(format:)`,
/// `stringWithFormat:` or appending, passed to a web view or JSContext. Numbers (literals, values
/// declared numeric, `.count`) are not injection; values that look JSON-encoded or escaped lower the
/// confidence instead of silencing the finding.
public struct JavaScriptInjectionRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-PLAT-211", slug: "javascript-injection",
        title: "JavaScript built from non-literal values",
        kind: .source, severity: .high, confidence: .medium, cwe: [94, 79],
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
            .nonTriggering("Greeter.m", """
            - (void)refresh {
                [self.webView evaluateJavaScript:@"document.title" completionHandler:nil];
            }
            """),
        ])

    public init() {}

    static let swiftNames: Set<String> = ["evaluateJavaScript", "callAsyncJavaScript", "evaluateScript", "stringByEvaluatingJavaScript"]
    static let selectors: Set<String> = [
        "evaluateJavaScript:completionHandler:", "evaluateJavaScript:inFrame:inContentWorld:completionHandler:",
        "callAsyncJavaScript:arguments:inFrame:inContentWorld:completionHandler:", "stringByEvaluatingJavaScriptFromString:",
        "evaluateScript:", "evaluateScript:withSourceURL:", "initWithSource:injectionTime:forMainFrameOnly:",
        "initWithSource:injectionTime:forMainFrameOnly:inContentWorld:",
    ]

    /// The calls `isScriptSink` accepts (an initializer's selector by its class, `WKUserScript`).
    static let requiredNames = SourceNames.callNames(selectors.filter { !$0.hasPrefix("init") }).union(swiftNames).union(["WKUserScript"])

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        guard unit.names.containsAny(Self.requiredNames) else { return }
        let cache = LocalValuesCache(file: file)
        for (call, context) in file.calls(where: Self.isScriptSink) {
            guard let script = call.arguments.first?.value else { continue }
            let values = cache.values(for: context)
            let parts = Self.nonLiteralParts(values.resolve(script), values)
            guard !parts.isEmpty else { continue }
            let names = parts.map { "`\(Self.shorten(file.text($0.range)))`" }.joined(separator: ", ")
            let escaped = parts.allSatisfy { Self.looksEncoded($0, values) }
            let api = call.name.map { $0.hasPrefix("init") || $0 == "WKUserScript" ? "WKUserScript" : $0 } ?? "script"
            sink.report("Script passed to `\(api)` is built from \(names): a quote in that value ends the literal and the rest runs as code. Pass values as `callAsyncJavaScript` arguments instead.",
                        in: file, at: call.range, confidence: escaped ? .low : nil)
        }
    }

    static func isScriptSink(_ call: Expression) -> Bool {
        guard case .call(let callee, let arguments, let isMessageSend) = call.kind, let name = callee.name, !arguments.isEmpty else { return false }
        if isMessageSend { return selectors.contains(name) }
        if name == "WKUserScript" { return arguments.first?.label == "source" }
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
            return segments.compactMap { segment -> Expression? in
                guard case .interpolation(let value) = segment else { return nil }
                return isSafeValue(value, values) ? nil : value
            }
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
            case "stringWithFormat:", "initWithFormat:", "localizedStringWithFormat:":
                return arguments.dropFirst().map(\.value).filter { !isSafeValue($0, values) }
            case "appending", "appendingFormat", "stringByAppendingString:", "stringByAppendingFormat:":
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
        return ["String", "NSString", "init", "stringWithFormat:", "initWithFormat:", "appending", "appendingFormat",
                "stringByAppendingString:", "stringByAppendingFormat:"].contains(name)
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
        case .call(let callee, _, _) where ["base64EncodedString", "base64EncodedStringWithOptions:"].contains(callee.name ?? ""):
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

    /// JSON-encoded or explicitly escaped values: probably handled, reported with low confidence.
    static func looksEncoded(_ value: Expression, _ values: LocalValues) -> Bool {
        let names = values.reachable(from: value).compactMap(\.name).map { $0.lowercased() }
        return names.contains { $0.contains("json") || $0.contains("escap") || $0.contains("sanitiz") || $0.contains("encod") }
    }

    static func shorten(_ text: String) -> String {
        text.count > 40 ? String(text.prefix(37)) + "…" : text
    }
}
