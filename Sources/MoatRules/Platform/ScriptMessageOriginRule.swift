import MoatCore
import MoatSyntax

/// A script message handler acts on `message.body` (or a value taken from it) without any `if`/`guard`
/// on the path that looks at where the message came from: `message.frameInfo` (`securityOrigin`,
/// `isMainFrame`, `request`), the web view's URL host, or a helper that receives the message itself.
/// Taking values out of the body (`guard let body = message.body as? [String: Any]`) is not acting;
/// the first statement that does something with them is, and is where the finding is reported.
public struct ScriptMessageOriginRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-PLAT-210", slug: "script-message-origin-unchecked",
        title: "Script message handler trusts messages from any origin",
        kind: .source, severity: .medium, confidence: .medium, cwe: [346, 940],
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

    static let handlerNames: Set<String> = [
        "userContentController(_:didReceive:)", "userContentController(_:didReceive:replyHandler:)",
        "userContentController:didReceiveScriptMessage:", "userContentController:didReceiveScriptMessage:replyHandler:",
    ]

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        guard unit.names.containsAny(SourceNames.callNames(Self.handlerNames)) else { return }
        for (function, _) in file.allFunctions where Self.handlerNames.contains(function.fullName) {
            guard let body = function.body, function.parameters.count >= 2 else { continue }
            let message = function.parameters[1].name
            let analysis = BodyUses(message: message, statements: body.statements)
            var reported = false
            GuardedWalk.walkRoots(body.statements) { root, facts in
                guard !reported, !analysis.extractions.contains(ObjectIdentifier(root)), analysis.uses(root) else { return }
                if facts.contains(where: { Self.checksOrigin($0.condition, message: message) }) { return }
                reported = true
                sink.report("`\(function.fullName)` acts on `\(message).body` without checking `\(message).frameInfo.securityOrigin` or `isMainFrame` first: any frame loaded in the web view can trigger this.",
                            in: file, at: root.range)
            }
        }
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
