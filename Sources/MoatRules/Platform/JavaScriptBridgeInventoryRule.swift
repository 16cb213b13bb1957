import MoatCore
import MoatSyntax

/// Inventory of native code reachable from web content: JSExport protocols (and what they expose),
/// blocks and objects put into a JSContext, and WKScriptMessageHandler registrations.
public struct JavaScriptBridgeInventoryRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-PLAT-209", slug: "javascript-bridge-inventory",
        title: "Native code exposed to JavaScript",
        severity: .info, confidence: .high, cwe: [749],
        masvs: ["MASVS-PLATFORM-2"], mastg: ["MASTG-TEST-0078"],
        rationale: "Every JSExport member, every block placed in a JSContext and every script message handler is callable by any script that runs in the page, including script injected through XSS or a network attacker. This inventory lists them so each can be reviewed: what it does, what it returns, and whether it checks who is calling.",
        fix: "Expose as little as possible. Validate every argument, never expose file, keychain or authentication operations, check `message.frameInfo.securityOrigin` in handlers, and load only trusted https content in web views that have bridges.",
        references: ["https://mas.owasp.org/MASTG/tests/ios/MASVS-PLATFORM/MASTG-TEST-0078/",
                     "https://developer.apple.com/documentation/javascriptcore/jsexport",
                     "https://developer.apple.com/documentation/webkit/wkscriptmessagehandler"],
        isInventory: true,
        examples: [
            .triggering("Bridge.swift", """
            import JavaScriptCore
            import WebKit
            @objc protocol ↓NativeBridgeExports: JSExport {
                func share(_ text: String)
                var appVersion: String { get }
            }
            final class NativeBridge: NSObject, NativeBridgeExports {
                func share(_ text: String) {}
                var appVersion: String { "1.0" }
            }
            func install(in context: JSContext, controller: WKUserContentController, handler: WKScriptMessageHandler) {
                ↓context["nativeLog"] = { (message: String) in print(message) } as @convention(block) (String) -> Void
                ↓context.setObject(NativeBridge(), forKeyedSubscript: "bridge" as NSString)
                ↓controller.add(handler, name: "payments")
                ↓webView.configuration.userContentController.addScriptMessageHandler(replyHandler, contentWorld: .page, name: "wallet")
            }
            """),
            .triggering("Bridge.m", """
            #import <JavaScriptCore/JavaScriptCore.h>
            @protocol ↓BridgeExports <JSExport>
            - (void)share:(NSString *)text;
            @end
            @implementation Installer
            - (void)install:(JSContext *)context {
                ↓context[@"nativeLog"] = ^(NSString *message) { NSLog(@"%@", message); };
                ↓[context setObject:[Bridge new] forKeyedSubscript:@"bridge"];
                ↓[self.webView.configuration.userContentController addScriptMessageHandler:self name:@"payments"];
            }
            @end
            """),
            .nonTriggering("Settings.swift", """
            protocol SettingsExports: Codable {
                var theme: String { get }
            }
            func save(_ cart: Cart, settings: inout [String: String]) {
                settings["theme"] = "dark"
                cart.add(item, name: "gift")
            }
            """),
        ])

    public init() {}

    /// What each kind of bridge it lists is found by: JSExport protocols, JSContext objects (or a context-named
    /// value in a file importing JavaScriptCore, or the UIWebView context key path), script message handlers.
    static let requiredNames: Set<String> = ["JSExport", "JSContext", "JavaScriptCore", "addScriptMessageHandler",
                                             "addScriptMessageHandlerWithReply", "WKUserContentController"]

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        guard unit.names.containsAny(Self.requiredNames) || unit.names.literalsContainAny(["javaScriptContext"])
            || unit.names.containsName(where: Self.isContentControllerName) else { return }
        let cache = LocalValuesCache(file: file)
        let importsJavaScriptCore = file.imports.contains { $0.contains("JavaScriptCore") }
        var findings: [(SourceRange, String, InventoryItem)] = []

        for type in file.allTypes where (type.kind == .protocol || type.kind == .objcProtocol) && type.adopts("JSExport") {
            let members = type.functions.map { $0.fullName } + type.variables.map(\.name)
            let adopters = file.allTypes.filter { $0.kind != .protocol && $0.kind != .objcProtocol && $0.adopts(type.name) }.map(\.name)
            var message = "JSExport protocol `\(type.name)` exposes to JavaScript: \(members.isEmpty ? "no members" : members.joined(separator: ", "))"
            if !adopters.isEmpty { message += " (adopted by \(adopters.joined(separator: ", ")))" }
            findings.append((type.nameRange, message + ".", InventoryItem(.jsExportProtocol, name: type.name, detail: message + ".")))
        }

        file.walk { node, context in
            var values: LocalValues { cache.values(for: context) }
            switch node {
            case .statement:
                guard let store = Self.contextStore(node, values, importsJavaScriptCore, file) else { return }
                let message = "\(Self.kind(of: store.value)) `\(store.key)` is put into a JSContext: every script in that context can call it."
                findings.append((store.range, message, InventoryItem(.jsContextValue, name: store.key, detail: message)))
            case .expression(let expression):
                guard case .call(let callee, _, _) = expression.kind, let name = callee.name else { return }
                if let store = Self.contextStore(node, values, importsJavaScriptCore, file) {
                    let message = "\(Self.kind(of: store.value)) `\(store.key)` is put into a JSContext: every script in that context can call it."
                    findings.append((store.range, message, InventoryItem(.jsContextValue, name: store.key, detail: message)))
                    return
                }
                guard let handlerName = Self.scriptMessageHandlerName(expression, values) else { return }
                // Swift `addScriptMessageHandler(_:contentWorld:name:)` takes a WKScriptMessageHandlerWithReply.
                let withReply = name.contains("WithReply") || name == "addScriptMessageHandler"
                let handler = handlerName.stringValue ?? file.text(handlerName.range)
                let message = "Script message handler `\(handler)` is registered: any script in the page can call `window.webkit.messageHandlers.\(handlerName.stringValue ?? "…").postMessage(…)`\(withReply ? " and read the reply" : "")."
                findings.append((expression.range, message, InventoryItem(.scriptMessageHandler, name: handler, detail: message)))
            case .declaration:
                break
            }
        }
        for (range, message, item) in findings.sorted(by: { $0.0.start.offset < $1.0.start.offset }) {
            sink.inventory(item, message, in: file, at: range)
        }
    }

    static func kind(of value: Expression) -> String {
        if case .closure = value.strippedOfCasts.kind { return "Native block" }
        return "Native object"
    }

    static func keyText(_ key: Expression, _ file: CodeFile) -> String {
        key.strippedOfCasts.stringValue ?? file.text(key.range)
    }

    /// A value put into a JSContext under a key, in either shape: `context["key"] = value` (a statement) or
    /// `[context setObject:value forKeyedSubscript:@"key"]` (an expression): the value, the key as written and
    /// the range to report. Shared by the inventory and MOAT-PLAT-214.
    /// `values` is asked only once the shape matches (the caller's cache builds them per context).
    static func contextStore(_ node: CodeNode, _ values: @autoclosure () -> LocalValues, _ importsJavaScriptCore: Bool,
                             _ file: CodeFile) -> (value: Expression, key: String, range: SourceRange)? {
        switch node {
        case .statement(let statement):
            guard case .assignment(let target, "=", let value) = statement.kind,
                  case .subscriptAccess(let base, let arguments) = target.unwrapped.kind, arguments.count == 1,
                  isJSContext(base, values(), importsJavaScriptCore) else { return nil }
            return (value, keyText(arguments[0].value, file), statement.range)
        case .expression(let expression):
            guard case .call(let callee, let arguments, _) = expression.kind, let name = callee.name,
                  APIs.javaScriptContextStore ~= name, arguments.count == 2, arguments[1].label == "forKeyedSubscript",
                  let receiver = callee.receiver, isJSContext(receiver, values(), importsJavaScriptCore) else { return nil }
            return (arguments[0].value, keyText(arguments[1].value, file), expression.range)
        case .declaration:
            return nil
        }
    }

    /// A JSContext by declared type, construction, the UIWebView key path, or (in a file importing
    /// JavaScriptCore) by name.
    static func isJSContext(_ base: Expression, _ values: LocalValues, _ importsJavaScriptCore: Bool) -> Bool {
        let resolved = values.resolve(base)
        if let name = resolved.name, name == "JSContext" || name == "init" && resolved.receiver?.nameChain.contains("JSContext") == true {
            return true
        }
        if case .call(let callee, let arguments, _) = resolved.kind {
            if callee.receiver.map({ $0.nameChain.contains("JSContext") }) == true { return true }
            if arguments.contains(where: { $0.value.stringValue?.contains("javaScriptContext") == true }) { return true }
        }
        if let name = base.nameChain.last, let type = values.declaredType(of: name), type.contains("JSContext") { return true }
        guard importsJavaScriptCore, let last = base.nameChain.last?.lowercased() else { return false }
        return last.contains("context") || last.contains("ctx")
    }

    /// `contentController`, `userContentController`... (a receiver of `add(_:name:)`).
    static func isContentControllerName(_ name: String) -> Bool {
        // The length first: the names index asks this of every name in a file.
        name.utf8.count >= 17 && name.lowercased().containsASCIIAware("contentcontroller")
    }

    /// The name argument of a script message handler registration, or nil.
    static func scriptMessageHandlerName(_ call: Expression, _ values: LocalValues) -> Expression? {
        guard case .call(let callee, let arguments, let isMessageSend) = call.kind, let name = callee.name else { return nil }
        if isMessageSend {
            return APIs.scriptMessageHandlerRegistration.selectors.contains(name) ? arguments.last?.value : nil
        }
        guard arguments.last?.label == "name" else { return nil }
        if name == "addScriptMessageHandler" { return arguments.last?.value }
        guard name == "add", arguments.count == 2 || arguments.count == 3, let receiver = callee.receiver else { return nil }
        if receiver.nameChain.contains(where: isContentControllerName) { return arguments.last?.value }
        if let last = receiver.nameChain.last, let type = values.declaredType(of: last), type.contains("WKUserContentController") {
            return arguments.last?.value
        }
        if values.resolve(receiver).name == "WKUserContentController" { return arguments.last?.value }
        return nil
    }
}
