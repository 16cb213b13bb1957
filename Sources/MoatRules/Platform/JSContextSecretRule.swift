import MoatCore
import MoatSyntax

/// A block put into a `JSContext` (`context[@"getToken"] = ^{ … }`, `context.setObject(block,
/// forKeyedSubscript:)`) that returns a secret: a value named as a password, token or credential
/// (`SecretNaming`), or the return of a function named so (`sessionToken()`). Every script the context
/// runs, the page's and any script injected into it, can call the block and read the secret. The block is
/// found where it is stored (a closure literal, or a local bound to one); its returned values are the
/// `return` statements of its body or its single expression.
public struct JSContextSecretRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-PLAT-214", slug: "jscontext-block-returns-secret",
        title: "JSContext block hands a secret to page script",
        severity: .medium, confidence: .low, evidence: .pattern, cwe: [200, 749],
        masvs: ["MASVS-PLATFORM-2"], mastg: ["MASTG-TEST-0076"],
        rationale: "A block stored in a JSContext is a function every script of that context can call: the page's own script, a third-party script it includes, and script injected through XSS or a network attacker. A block that returns a session token, password or other credential gives it to all of them.",
        fix: "Do not expose credentials to page script. Make the authenticated request natively and hand the page only the result it needs, or use a WKWebView with a script message handler that checks the frame's origin and returns no secret.",
        references: ["https://developer.apple.com/documentation/javascriptcore/jscontext",
                     "https://mas.owasp.org/MASTG/tests/ios/MASVS-PLATFORM/MASTG-TEST-0076/"],
        examples: [
            .triggering("Bridge.swift", """
            import JavaScriptCore
            final class SessionBridge {
                var sessionToken = ""
                func install(in context: JSContext) {
                    let getToken: @convention(block) () -> String = { [weak self] in
                        return ↓self?.sessionToken ?? ""
                    }
                    context.setObject(getToken, forKeyedSubscript: "getSessionToken" as NSString)
                }
            }
            """),
            .triggering("Bridge.m", """
            #import <JavaScriptCore/JavaScriptCore.h>
            @implementation LBBridge
            - (void)installInWebView:(UIWebView *)webView {
                JSContext *context = [webView valueForKeyPath:@"documentView.webView.mainFrame.javaScriptContext"];
                context[@"authToken"] = ^NSString *{
                    return ↓[LBSession currentSession].accessToken;
                };
            }
            @end
            """, note: "A block stored by subscript into the UIWebView's context."),
            .nonTriggering("Bridge.swift", """
            import JavaScriptCore
            final class PageBridge {
                var sessionToken = ""
                var deviceToken = ""
                func install(in context: JSContext) {
                    let appVersion: @convention(block) () -> String = { Bundle.main.appVersion }
                    context.setObject(appVersion, forKeyedSubscript: "appVersion" as NSString)
                    let hasToken: @convention(block) () -> Bool = { [weak self] in self?.sessionToken.isEmpty == false }
                    context.setObject(hasToken, forKeyedSubscript: "isSignedIn" as NSString)
                    let push: @convention(block) () -> String = { [weak self] in self?.deviceToken ?? "" }
                    context.setObject(push, forKeyedSubscript: "pushToken" as NSString)
                }
            }
            """, note: "A version string, a Bool about the token, and a push token (not a credential)."),
        ])

    public init() {}

    static let requiredNames: Set<String> = ["JSContext", "JavaScriptCore"]

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        guard unit.names.containsAny(Self.requiredNames) || unit.names.literalsContainAny(["javaScriptContext"]) else { return }
        let cache = LocalValuesCache(file: file)
        let importsJavaScriptCore = file.imports.contains { $0.contains("JavaScriptCore") }
        var stored: [(block: Expression, key: String, values: LocalValues)] = []
        file.walk { node, context in
            guard let store = JavaScriptBridgeInventoryRule.contextStore(node, cache.values(for: context), importsJavaScriptCore, file) else { return }
            stored.append((store.value, store.key, cache.values(for: context)))
        }
        var reported = Set<Int>()
        for (block, key, values) in stored {
            guard case .closure(_, let body) = values.resolve(block).strippedOfCasts.kind else { continue }
            for returned in Self.returnedValues(body) {
                guard let (value, name) = Self.secret(returned), reported.insert(value.range.start.offset).inserted else { continue }
                sink.report("The block `\(key)` put into a JSContext returns `\(name)`: every script in that context, injected ones included, can call it and read the secret. Keep credentials out of page script.",
                            in: file, at: value.range)
            }
        }
    }

    /// What a block body returns: its `return` values (not those of nested closures), or its single
    /// expression.
    static func returnedValues(_ body: Block) -> [Expression] {
        if body.statements.count == 1, case .expression(let only) = body.statements[0].kind { return [only] }
        var result: [Expression] = []
        body.walk { node, _ in
            if case .statement(let statement) = node, case .returnStatement(let value?) = statement.kind { result.append(value) }
        }
        return result
    }

    /// The secret a returned value is, by the name it is read from (`self?.sessionToken ?? ""`,
    /// `session.accessToken`, `[store authToken]`, `keychain.password(for:)`).
    static func secret(_ value: Expression) -> (Expression, String)? {
        let bare = value.strippedOfCasts
        switch bare.kind {
        case .binary("??", let lhs, _):
            return secret(lhs)
        case .member(_, let name), .identifier(let name):
            return isCredentialName(name) ? (bare, name) : nil
        case .call(let callee, _, _):
            guard let name = callee.name, let head = name.split(separator: ":").first.map(String.init) else { return nil }
            return isCredentialName(head) ? (bare, head) : nil
        default:
            return nil
        }
    }

    static func isCredentialName(_ name: String) -> Bool {
        SecretNaming.isSecretName(name) && !SecretNaming.isNonCredentialTokenName(name)
    }
}
