import MoatCore
import MoatSyntax

/// A script message handler acts on `message.body` (or a value taken from it) without any `if`/`guard`
/// on the path that looks at where the message came from: `message.frameInfo` (`securityOrigin`,
/// `isMainFrame`, `request`), the web view's URL host, or a helper that receives the message itself.
/// Taking values out of the body (`guard let body = message.body as? [String: Any]`) is not acting;
/// the first statement that does something with them is, and is where the finding is reported.
/// Handlers that only receive numbers or Booleans (every read of the body is cast to one, or the body is a
/// dictionary whose every field is cast to one: a height, a progress for the UI) stay quiet, and
/// so do handlers reached only through a wrapper handler of the same file that checks the frame or
/// origin before forwarding the message.
public struct ScriptMessageOriginRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-PLAT-210", slug: "script-message-origin-unchecked",
        title: "Script message handler trusts messages from any origin",
        severity: .medium, confidence: .low, cwe: [346, 940],
        masvs: ["MASVS-PLATFORM-2", "MASVS-CODE-4"], mastg: ["MASTG-TEST-0078"],
        rationale: "Every frame of every page loaded in the web view can post to a registered handler: an iframe from an ad network, a page the user navigated to, script injected over the network. A handler that acts on `message.body` without checking `message.frameInfo.securityOrigin` (or `isMainFrame`, or the web view's current host) performs native actions for whoever sends the message.",
        fix: "Before using the body, check `message.frameInfo.isMainFrame` and that `message.frameInfo.securityOrigin` has the https protocol and the host you expect; ignore the message otherwise. Also validate the body's fields.",
        references: ["https://developer.apple.com/documentation/webkit/wkscriptmessage/1417395-frameinfo",
                     "https://mas.owasp.org/MASTG/tests/ios/MASVS-PLATFORM/MASTG-TEST-0078/"],
        examples: [
            .triggering("PaymentHandler.swift", """
            extension PaymentViewController: WKScriptMessageHandler {
                func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage) {
                    guard let body = message.body as? [String: Any], let amount = body["amount"] as? Int else { return }
                    ↓pay(amount: amount, to: body["recipient"] as? String)
                }
            }
            final class Bridge: NSObject, WKScriptMessageHandler {
                func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
                    switch message.name {
                    case "open": ↓router.open(message.body as? String ?? "")
                    default: break
                    }
                }
            }
            """),
            .triggering("PaymentHandler.m", """
            @implementation PaymentHandler
            - (void)userContentController:(WKUserContentController *)userContentController didReceiveScriptMessage:(WKScriptMessage *)message {
                NSDictionary *body = message.body;
                ↓[self payAmount:body[@"amount"]];
            }
            @end
            """),
            .nonTriggering("PaymentHandler.swift", """
            extension PaymentViewController: WKScriptMessageHandler {
                func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage) {
                    guard message.frameInfo.isMainFrame, message.frameInfo.securityOrigin.protocol == "https",
                          message.frameInfo.securityOrigin.host == "pay.example.com",
                          let body = message.body as? [String: Any], let amount = body["amount"] as? Int else { return }
                    pay(amount: amount)
                }
            }
            final class Bridge: NSObject, WKScriptMessageHandler {
                func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
                    guard let host = message.webView?.url?.host, allowedHosts.contains(host) else { return }
                    router.open(message.body as? String ?? "")
                }
            }
            """),
            .nonTriggering("ReaderHandlers.swift", """
            import WebKit
            final class ScrollHandler: NSObject, WKScriptMessageHandler {
                var onScroll: (Double) -> Void = { _ in }
                func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
                    guard let offset = message.body as? Double else { return }
                    onScroll(offset)
                }
            }
            final class ConsoleHandler: NSObject, WKScriptMessageHandler {
                func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
                    print("web console: \\(message.body)")
                    logger.debug("web console: \\(String(describing: message.body))")
                }
            }
            final class FrameCheckingHandler: NSObject, WKScriptMessageHandler {
                weak var target: WKScriptMessageHandler?
                init(target: WKScriptMessageHandler) { self.target = target }
                func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
                    guard message.frameInfo.isMainFrame, message.frameInfo.securityOrigin.host == "reader.example.com" else { return }
                    target?.userContentController(controller, didReceive: message)
                }
            }
            final class ArticleBridge: NSObject, WKScriptMessageHandler {
                func install(in controller: WKUserContentController) {
                    controller.add(FrameCheckingHandler(target: self), name: "article")
                }
                func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
                    guard let body = message.body as? [String: Any], let id = body["id"] as? String else { return }
                    open(articleID: id)
                }
            }
            """, note: "A handler that only receives a number (a scroll offset), and one reached only through a wrapper handler that checks the frame and origin before forwarding."),
            .nonTriggering("CaptchaView.swift", """
            import WebKit
            struct CaptchaView: UIViewRepresentable {
                let siteKey: String
                let completion: (String) -> Void
                func makeUIView(context: Context) -> WKWebView {
                    let controller = WKUserContentController()
                    controller.add(context.coordinator, name: "captcha")
                    let configuration = WKWebViewConfiguration()
                    configuration.userContentController = controller
                    return WKWebView(frame: .zero, configuration: configuration)
                }
                func updateUIView(_ webView: WKWebView, context: Context) {
                    webView.loadHTMLString(context.coordinator.page(siteKey: siteKey), baseURL: URL(string: "https://example.com"))
                }
                final class Coordinator: NSObject, WKScriptMessageHandler {
                    var completion: ((String) -> Void)?
                    func page(siteKey: String) -> String {
                        "<script>var done = function(t) { window.webkit.messageHandlers.captcha.postMessage(t); };</script><div data-sitekey='\\(siteKey)' data-callback='done'></div><script src='https://captcha.example.com/api.js'></script>"
                    }
                    func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
                        guard let token = message.body as? String else { return }
                        completion?(token)
                    }
                }
            }
            """, note: "The web view only shows the page the app writes itself (HTML built in this file, no URL loaded): its messages come from the app's own page."),
            .triggering("WeakProxy.swift", """
            import WebKit
            final class WeakProxy: NSObject, WKScriptMessageHandler {
                weak var target: WKScriptMessageHandler?
                init(target: WKScriptMessageHandler) { self.target = target }
                func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
                    target?.userContentController(controller, didReceive: message)
                }
            }
            final class ArticleBridge: NSObject, WKScriptMessageHandler {
                func install(in controller: WKUserContentController) {
                    controller.add(WeakProxy(target: self), name: "article")
                }
                func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
                    guard let body = message.body as? [String: Any], let id = body["id"] as? String else { return }
                    ↓open(articleID: id)
                }
            }
            """, note: "A wrapper that forwards without checking (a weak proxy) checks nothing."),
            .nonTriggering("SizeHandler.swift", """
            import WebKit
            final class SizeHandler: NSObject, WKScriptMessageHandler {
                var heightConstraint: NSLayoutConstraint?
                func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
                    guard let size = message.body as? [String: Any], let height = size["height"] as? CGFloat,
                          let visible = size["visible"] as? Bool else { return }
                    heightConstraint?.constant = height
                    progressView.isHidden = !visible
                }
            }
            """, note: "Every field taken out of the body is a number or a Boolean that only sizes the UI."),
            .triggering("SizeHandler.swift", """
            import WebKit
            final class SizeHandler: NSObject, WKScriptMessageHandler {
                var heightConstraint: NSLayoutConstraint?
                func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
                    guard let size = message.body as? [String: Any], let height = size["height"] as? CGFloat else { return }
                    ↓router.open(size["link"] as? String ?? "")
                    heightConstraint?.constant = height
                }
            }
            """, note: "One field is a string the handler acts on."),
            .nonTriggering("PaymentHandler.m", """
            @implementation PaymentHandler
            - (void)userContentController:(WKUserContentController *)userContentController didReceiveScriptMessage:(WKScriptMessage *)message {
                if (![message.frameInfo.securityOrigin.host isEqualToString:@"pay.example.com"]) {
                    return;
                }
                [self payAmount:message.body[@"amount"]];
            }
            @end
            """),
        ])

    public init() {}

    static let handlerNames: Set<String> = APIs.scriptMessageReceipt.fullCallNames

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        guard unit.names.containsAny(SourceNames.callNames(Self.handlerNames)) else { return }
        let handlers = file.allFunctions.filter { Self.handlerNames.contains($0.function.fullName) && $0.function.body != nil }
        // Messages can only come from the page the app writes itself.
        if Self.loadsOnlyOwnHTML(file) { return }
        let wrapped = Self.typesBehindCheckingWrappers(file, handlers)
        for (function, owner) in handlers {
            guard let body = function.body, function.parameters.count >= 2 else { continue }
            if let owner, wrapped.contains(owner.name) { continue }
            let message = function.parameters[1].name
            if Self.receivesOnlyHarmlessData(body, message: message) { continue }
            let analysis = BodyUses(message: message, statements: body.statements)
            var reported = false
            GuardedWalk.walkRoots(body.statements) { root, facts in
                guard !reported, !analysis.extractions.contains(ObjectIdentifier(root)), analysis.uses(root) else { return }
                // Logging what the page sent is not acting on it.
                if Self.isLogging(root) { return }
                if facts.contains(where: { Self.checksOrigin($0.condition, message: message) }) { return }
                reported = true
                sink.report("`\(function.fullName)` acts on `\(message).body` without checking `\(message).frameInfo.securityOrigin` or `isMainFrame` first: any frame loaded in the web view can trigger this.",
                            in: file, at: root.range)
            }
        }
    }

    /// Whether a script message received at `source` is accepted only after its frame or origin was
    /// checked: by its handler, in an `if`/`guard` that every path to one of the targets passes, or by a
    /// wrapper handler of this file that the handler's type sits behind. Shared with the dataflow rules,
    /// for which such a message comes from the app's own page.
    static func isOriginChecked(source: SourceRange, targets: [SourceRange], in file: CodeFile) -> Bool {
        guard ["frameInfo", "securityOrigin", "isMainFrame"].contains(where: file.containsText) else { return false }
        let handlers = file.allFunctions.filter { handlerNames.contains($0.function.fullName) && $0.function.body != nil }
        guard let (function, owner) = handlers.first(where: { $0.function.range.contains(source) }), let body = function.body,
              function.parameters.count >= 2 else { return false }
        if let owner, typesBehindCheckingWrappers(file, handlers).contains(owner.name) { return true }
        let message = function.parameters[1].name
        var checked = false
        GuardedWalk.walk(body.statements) { expression, facts in
            guard !checked, targets.contains(where: { expression.range.contains($0) }) else { return }
            checked = facts.contains { checksOrigin($0.condition, message: message) }
        }
        return checked
    }

    static let htmlLoads: Set<String> = APIs.webViewLoadHTML.callNames
    static let otherLoads: Set<String> = [APIs.webViewLoadRequest, APIs.webViewLoadFileURL, APIs.webViewLoadData].callNames
        .union(["loadData", "loadSimulatedRequest", "loadFileRequest", "loadURL:", "loadUrl"])

    /// Whether the web views of this file only show HTML the app writes itself: every load is
    /// `loadHTMLString` of a string literal (interpolation allowed) or of a function of this file that
    /// returns one, and nothing else is loaded (no URL request, no file, no data).
    static func loadsOnlyOwnHTML(_ file: CodeFile) -> Bool {
        guard file.containsText("loadHTMLString") else { return false }
        var ownPages = Set<String>()
        for (function, _) in file.allFunctions {
            guard let statements = function.body?.statements, statements.count == 1 else { continue }
            switch statements[0].kind {
            case .expression(let value), .returnStatement(let value?):
                if value.isStringLiteral { ownPages.insert(function.name) }
            default:
                break
            }
        }
        var loads = 0
        var other = false
        file.forEachExpression { expression, _ in
            guard !other, case .call(let callee, let arguments, _) = expression.kind, let name = callee.name else { return }
            if htmlLoads.contains(name) {
                loads += 1
                guard let page = arguments.first?.value.unwrapped else { other = true; return }
                if page.isStringLiteral { return }
                if case .call(let pageCallee, _, _) = page.kind, let pageName = pageCallee.name, ownPages.contains(pageName) { return }
                other = true
            } else if otherLoads.contains(name) {
                other = true
            }
        }
        return loads > 0 && !other
    }

    /// `print(…)`, `NSLog(…)`, `os_log(…)`, `MXLogDebug(…)`, `logger.debug(…)`, `Log.info(…)`.
    static func isLogging(_ root: Expression) -> Bool {
        guard case .call(let callee, _, _) = root.unwrapped.kind, let name = callee.name else { return false }
        if ["print", "debugPrint", "dump", APIs.formattedLogC.cFunctions[0], APIs.osLogC.cFunctions[0]].contains(name) { return true }
        let words = SecretNaming.words(name)
        if let index = words.firstIndex(of: "log") {
            // `logIn`, `logOut` are actions; `log(…)`, `logDebug`, `MXLogDebug` are logging.
            let next = index + 1 < words.count ? words[index + 1] : nil
            if !["in", "out", "on", "off"].contains(next ?? "") && (index == 0 || name.first?.isUppercase == true) { return true }
        }
        return callee.receiver?.nameChain.contains { link in
            let lowered = link.lowercased()
            return lowered == "log" || lowered.hasSuffix("logger") || lowered == "diag" || lowered == APIs.osLogC.cFunctions[0]
        } ?? false
    }

    static let scalarTypes: Set<String> = ["Int", "Int32", "Int64", "UInt", "Double", "Float", "CGFloat", "Bool", "NSNumber",
                                           "[Int]", "[Double]", "[CGFloat]", "[NSNumber]", "[Bool]", "TimeInterval"]
    static let scalarSelectors: Set<String> = ["integerValue", "intValue", "doubleValue", "floatValue", "boolValue",
                                               "unsignedIntegerValue", "longLongValue"]

    /// Every read of the body turns it into a number or a Boolean (`message.body as? Double`,
    /// `[message.body integerValue]`): scroll offsets, find-in-page counts, progress. Numbers from any
    /// frame cannot make the app do more than the handler does with a number.
    static func receivesOnlyHarmlessData(_ body: Block, message: String) -> Bool {
        if readsOnlyScalarFields(body, message: message) { return true }
        let uses = BodyUses(message: message, statements: [])
        var reads = 0
        var scalar = 0
        var scalarBodies = Set<ObjectIdentifier>()
        for expression in body.allExpressions {
            switch expression.kind {
            case .cast(let operand, let type, _):
                let bare = type.filter { $0 != "?" && $0 != "!" && $0 != " " }
                if scalarTypes.contains(bare), uses.isBody(operand) { scalarBodies.insert(ObjectIdentifier(operand.unwrapped)) }
            case .call(let callee, let arguments, true) where arguments.isEmpty:
                if let name = callee.name, scalarSelectors.contains(name), let receiver = callee.receiver, uses.isBody(receiver) {
                    scalarBodies.insert(ObjectIdentifier(receiver.unwrapped))
                }
            default:
                break
            }
        }
        for expression in body.allExpressions where uses.isBody(expression) {
            if case .call = expression.unwrapped.kind { continue }
            reads += 1
            if scalarBodies.contains(ObjectIdentifier(expression.unwrapped)) { scalar += 1 }
        }
        return reads > 0 && reads == scalar
    }

    static let containerTypes: Set<String> = ["[String: Any]", "[String:Any]", "[String: AnyObject]", "NSDictionary", "[AnyHashable: Any]"]

    /// The body is a dictionary and every field taken out of it is cast to a number or a Boolean
    /// (`guard let body = message.body as? [String: Any], let height = body["height"] as? CGFloat`): a page
    /// that reports a height, a progress or a count for the UI gives the app nothing it could act on.
    static func readsOnlyScalarFields(_ body: Block, message: String) -> Bool {
        let uses = BodyUses(message: message, statements: [])
        var containers = Set<String>()
        var bindings: [(names: [String], value: Expression)] = []
        func note(_ statements: [Statement]) {
            for statement in statements {
                switch statement.kind {
                case .variable(let names, _, let initializer?, _): bindings.append((names, initializer))
                case .ifStatement(let conditions, _, _), .guardStatement(let conditions, _):
                    for case .binding(let names, let value, _) in conditions { bindings.append((names, value)) }
                default: break
                }
                for block in statement.blocks { note(block.statements) }
            }
        }
        note(body.statements)
        for (names, value) in bindings {
            if case .cast(let operand, let type, _) = value.unwrapped.kind, uses.isBody(operand),
               containerTypes.contains(type.filter { $0 != "?" && $0 != "!" }) {
                containers.formUnion(names)
            }
        }
        guard !containers.isEmpty else { return false }
        /// `container["key"] as? Int`, `(container["key"] as? NSNumber)?.doubleValue`.
        func isScalarField(_ expression: Expression) -> Bool {
            guard case .cast(let operand, let type, _) = expression.unwrapped.kind,
                  scalarTypes.contains(type.filter { $0 != "?" && $0 != "!" && $0 != " " }),
                  case .subscriptAccess(let base, let arguments) = operand.unwrapped.kind,
                  arguments.allSatisfy(\.value.isConstantLiteral),
                  case .identifier(let name) = base.unwrapped.kind else { return false }
            return containers.contains(name)
        }
        var scalarReads = Set<ObjectIdentifier>()
        var extractions = Set<ObjectIdentifier>()
        for (_, value) in bindings {
            if case .cast(let operand, _, _) = value.unwrapped.kind, uses.isBody(operand) { extractions.insert(ObjectIdentifier(operand.unwrapped)) }
        }
        var fields = 0
        for expression in body.allExpressions where isScalarField(expression) {
            fields += 1
            if case .cast(let operand, _, _) = expression.unwrapped.kind, case .subscriptAccess(let base, _) = operand.unwrapped.kind {
                scalarReads.insert(ObjectIdentifier(base.unwrapped))
            }
        }
        guard fields > 0 else { return false }
        for expression in body.allExpressions {
            if uses.isBody(expression), case .call = expression.unwrapped.kind { continue }
            if uses.isBody(expression), !extractions.contains(ObjectIdentifier(expression.unwrapped)) { return false }
            if case .identifier(let name) = expression.kind, containers.contains(name),
               !scalarReads.contains(ObjectIdentifier(expression)) { return false }
        }
        return true
    }

    /// Types of this file whose script messages reach them only through a wrapper handler of this file that
    /// checks the frame or origin and then forwards the message (`guard message.frameInfo.isMainFrame …;
    /// delegate?.userContentController(controller, didReceive: message)`): the types the wrapper is built
    /// around (`add(CheckingHandler(delegate: self), name:)` in the wrapped type) and the wrapper's subclasses.
    static func typesBehindCheckingWrappers(_ file: CodeFile, _ handlers: [(function: FunctionDeclaration, owner: TypeDeclaration?)]) -> Set<String> {
        var wrappers = Set<String>()
        for (function, owner) in handlers {
            guard let owner, let body = function.body, function.parameters.count >= 2 else { continue }
            let message = function.parameters[1].name
            var forwardsChecked = false
            GuardedWalk.walkRoots(body.statements) { root, facts in
                guard case .call(let callee, let arguments, _) = root.unwrapped.kind, callee.receiver != nil,
                      callee.name == "userContentController" || (callee.name ?? "").hasPrefix("userContentController:"),
                      arguments.contains(where: { if case .identifier(message) = $0.value.strippedOfCasts.kind { true } else { false } })
                else { return }
                if facts.contains(where: { checksOrigin($0.condition, message: message) }) { forwardsChecked = true }
            }
            if forwardsChecked { wrappers.insert(owner.name) }
        }
        guard !wrappers.isEmpty else { return [] }
        var wrapped = Set<String>()
        for type in file.allTypes {
            if type.inherits.contains(where: wrappers.contains) { wrapped.insert(type.name) }
            let text = file.text(type.range)
            for wrapper in wrappers where wrapper != type.name && text.contains(wrapper + "(") && text.contains("self") {
                wrapped.insert(type.name)
            }
        }
        return wrapped
    }

    /// A condition that looks at where the message came from.
    static func checksOrigin(_ condition: Expression, message: String) -> Bool {
        for node in condition.descendants() {
            switch node.kind {
            case .member(_, let name), .identifier(let name):
                if ["frameInfo", "securityOrigin", "isMainFrame", "mainFrame"].contains(name) { return true }
                if name == "host", node.nameChain.contains(where: { $0 == "url" || $0 == "URL" }) { return true }
            case .call(_, let arguments, _):
                // A helper that gets the message itself (not its body) can check the origin.
                if arguments.contains(where: { if case .identifier(message) = $0.value.strippedOfCasts.kind { true } else { false } }) {
                    return true
                }
            default:
                break
            }
        }
        return false
    }

    /// Which roots read the body, and which are mere extractions (`let body = message.body as? [String: Any]`).
    struct BodyUses {
        let message: String
        var derived = Set<String>()
        var extractions = Set<ObjectIdentifier>()

        init(message: String, statements: [Statement]) {
            self.message = message
            collect(statements)
        }

        mutating func collect(_ statements: [Statement]) {
            for statement in statements {
                switch statement.kind {
                case .variable(let names, _, let initializer?, _):
                    note(names, initializer)
                case .ifStatement(let conditions, _, _), .guardStatement(let conditions, _):
                    for condition in conditions {
                        if case .binding(let names, let value, _) = condition { note(names, value) }
                    }
                default:
                    break
                }
                for expression in statement.expressions {
                    for node in expression.descendants() {
                        if case .closure(_, let body) = node.kind { collect(body.statements) }
                    }
                }
                for block in statement.blocks { collect(block.statements) }
            }
        }

        mutating func note(_ names: [String], _ value: Expression) {
            guard isExtraction(value) else { return }
            extractions.insert(ObjectIdentifier(value))
            derived.formUnion(names)
        }

        /// `message.body`, a derived name, and casts, subscripts or member reads of those.
        func isExtraction(_ expression: Expression) -> Bool {
            let bare = expression.strippedOfCasts
            if isBody(bare) { return true }
            switch bare.kind {
            case .identifier(let name): return derived.contains(name)
            case .subscriptAccess(let base, let arguments): return arguments.allSatisfy(\.value.isConstantLiteral) && isExtraction(base)
            case .member(let base?, _): return isExtraction(base)
            case .binary("??", let lhs, let rhs): return isExtraction(lhs) && rhs.isConstantLiteral
            default: return false
            }
        }

        func isBody(_ expression: Expression) -> Bool {
            let bare = expression.unwrapped
            if case .member(let base?, "body") = bare.kind, case .identifier(message) = base.unwrapped.kind { return true }
            if case .call(let callee, let arguments, true) = bare.kind, arguments.isEmpty { return isBody(callee) }
            return false
        }

        func uses(_ root: Expression) -> Bool {
            root.descendants().contains { node in
                if isBody(node) { return true }
                if case .identifier(let name) = node.kind { return derived.contains(name) }
                return false
            }
        }
    }
}
