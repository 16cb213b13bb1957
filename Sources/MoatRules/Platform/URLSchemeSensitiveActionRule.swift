import MoatCore
import MoatSyntax

/// MASTG "Testing Custom URL Schemes": a URL handler performs a sensitive action straight from the URL's
/// parameters, with no validation and no confirmation (the Skype `skype://` call bug).
public struct URLSchemeSensitiveActionRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-PLAT-303", slug: "url-scheme-sensitive-action", title: "URL handler performs a sensitive action without confirmation",
        severity: .high, confidence: .medium, evidence: .dataflow, cwe: [939, 352],
        masvs: ["MASVS-PLATFORM-1", "MASVS-PLATFORM-3"], mastg: ["MASTG-TEST-0075"],
        rationale: "Any web page or app can open your URL scheme (an invisible iframe is enough). When the handler places a call, pays, deletes, sends, transfers, changes settings or signs in or out with values taken from the URL, and neither validates them nor asks the user, the page decides what the app does: Skype's `skype://` handler placed calls to premium numbers this way.",
        fix: "Validate every URL parameter against what the action accepts (allowlist, format), and ask the user to confirm the action with a UIAlertController that shows what will happen before doing it.",
        references: ["https://mas.owasp.org/MASTG/tests/ios/MASVS-PLATFORM/MASTG-TEST-0075/"],
        supersedes: ["MOAT-PLAT-305"],
        examples: [
            .triggering("Dialer.swift", """
            func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
                guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
                      let number = components.queryItems?.first(where: { $0.name == "number" })?.value else { return false }
                if components.host == "call" {
                    ↓callManager.call(number)
                }
                return true
            }
            """, note: "The Skype bug: the URL picks the number and the app dials it."),
            .triggering("AccountApp.swift", """
            import SwiftUI
            struct AccountApp: App {
                @StateObject var store = AccountStore()
                var body: some Scene {
                    WindowGroup {
                        ContentView().onOpenURL { url in
                            if let id = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first?.value {
                                ↓store.deleteAccount(id: id)
                            }
                        }
                    }
                }
            }
            """),
            .triggering("Wallet.m", """
            - (BOOL)application:(UIApplication *)app openURL:(NSURL *)url options:(NSDictionary *)options {
                NSURLComponents *components = [NSURLComponents componentsWithURL:url resolvingAgainstBaseURL:NO];
                NSString *amount = [self valueForQueryItem:@"amount" inComponents:components];
                NSString *account = [self valueForQueryItem:@"to" inComponents:components];
                ↓[self.wallet transferAmount:amount toAccount:account];
                return YES;
            }
            """),
            .triggering("AccountLinks.swift", """
            func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
                if url.host == "deleteAccount" {
                    ↓account.delete()
                }
                return true
            }
            """, note: "The route alone chooses the action: nothing from the URL is passed, yet any page that opens leakybank://deleteAccount deletes the account."),
            .triggering("DebugLinks.m", """
            - (BOOL)application:(UIApplication *)app openURL:(NSURL *)url options:(NSDictionary *)options {
                if ([url.host isEqualToString:@"debug"]) {
                    ↓[self showDebugMenu];
                    return YES;
                }
                return NO;
            }
            """, note: "MASTG: opening a bare URL can reveal hidden functionality such as a debug window."),
            .triggering("CallLinks.swift", """
            import CallKit
            final class AppDelegate: UIResponder, UIApplicationDelegate {
                let callController = CXCallController()
                func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
                    guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
                          let number = components.queryItems?.first(where: { $0.name == "number" })?.value else { return false }
                    let action = CXStartCallAction(call: UUID(), handle: CXHandle(type: .phoneNumber, value: number))
                    ↓callController.request(CXTransaction(action: action)) { _ in }
                    return true
                }
            }
            """, note: "The call is placed through CallKit's API, not a method named for it."),
            RuleExample(files: [
                ExampleFile(name: "AppDelegate.m", content: """
                - (BOOL)application:(UIApplication *)app openURL:(NSURL *)url options:(NSDictionary *)options {
                    LBUser *user = ↓[LoginLinkHandler authorizeUserFromURL:url];
                    return user != nil;
                }
                """),
                ExampleFile(name: "LoginLinkHandler.m", content: """
                @implementation LoginLinkHandler
                + (LBUser *)authorizeUserFromURL:(NSURL *)url {
                    NSURLComponents *components = [NSURLComponents componentsWithURL:url resolvingAgainstBaseURL:NO];
                    NSString *token = [self valueForName:@"token" inItems:components.queryItems];
                    return [[LBUser alloc] initWithToken:token];
                }
                + (NSString *)valueForName:(NSString *)name inItems:(NSArray *)items {
                    NSPredicate *predicate = [NSPredicate predicateWithFormat:@"name == %@", name];
                    return [[items filteredArrayUsingPredicate:predicate] firstObject].value;
                }
                @end
                """),
            ], triggers: true, note: "Across files: the login link signs in with whatever token it carries."),
            RuleExample(files: [
                ExampleFile(name: "AppDelegate.m", content: """
                - (BOOL)application:(UIApplication *)app openURL:(NSURL *)url options:(NSDictionary *)options {
                    LBUser *user = [LoginLinkHandler authorizeUserFromURL:url];
                    return user != nil;
                }
                """),
                ExampleFile(name: "LoginLinkHandler.m", content: """
                @implementation LoginLinkHandler
                + (LBUser *)authorizeUserFromURL:(NSURL *)url {
                    NSURLComponents *components = [NSURLComponents componentsWithURL:url resolvingAgainstBaseURL:NO];
                    NSString *state = [self valueForName:@"state" inItems:components.queryItems];
                    NSString *token = [self valueForName:@"token" inItems:components.queryItems];
                    NSString *expected = [[NSUserDefaults standardUserDefaults] stringForKey:@"loginState"];
                    if (state == nil || ![state isEqualToString:expected]) {
                        return nil;
                    }
                    return [[LBUser alloc] initWithToken:token];
                }
                + (NSString *)valueForName:(NSString *)name inItems:(NSArray *)items {
                    NSPredicate *predicate = [NSPredicate predicateWithFormat:@"name == %@", name];
                    return [[items filteredArrayUsingPredicate:predicate] firstObject].value;
                }
                @end
                """),
            ], triggers: false, note: "Across files: the callee compares the link's OAuth `state` with the one it stored before the login started, and returns nil otherwise: the caller's action is checked."),
            .triggering("MagicLinks.swift", """
            final class LoginCoordinator {
                var needsSetup = false
                func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
                    guard let token = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first?.value else { return false }
                    let credentials = Credentials(token: token)
                    guard needsSetup else {
                        return ↓session.authenticate(with: credentials)
                    }
                    setupFlow.start { [weak self] in
                        self?.session.authenticate(with: credentials)
                    }
                    return true
                }
            }
            """, note: "One action reached two ways (at once, or after a setup flow): one finding, the second call a related location."),
            .nonTriggering("AccountLinks.swift", """
            func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
                if url.host == "deleteAccount" {
                    let alert = UIAlertController(title: "Delete your account?", message: nil, preferredStyle: .alert)
                    alert.addAction(UIAlertAction(title: "Delete", style: .destructive) { _ in self.account.delete() })
                    app.windows.first?.rootViewController?.present(alert, animated: true)
                }
                return true
            }
            """, note: "The route chooses the action, the user confirms it."),
            .nonTriggering("DebugLinks.m", """
            - (BOOL)application:(UIApplication *)app openURL:(NSURL *)url options:(NSDictionary *)options {
                if (![options[UIApplicationOpenURLOptionsSourceApplicationKey] isEqualToString:@"com.example.qa"]) {
                    return NO;
                }
                if ([url.host isEqualToString:@"debug"]) {
                    [self showDebugMenu];
                }
                return YES;
            }
            """, note: "Only the QA app named by the source application can open the debug menu."),
            .nonTriggering("Dialer.swift", """
            func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
                guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
                      let number = components.queryItems?.first(where: { $0.name == "number" })?.value else { return false }
                let alert = UIAlertController(title: "Call \\(number)?", message: nil, preferredStyle: .alert)
                alert.addAction(UIAlertAction(title: "Call", style: .default) { _ in
                    self.callManager.call(number)
                })
                alert.addAction(UIAlertAction(title: "Cancel", style: .cancel))
                window?.rootViewController?.present(alert, animated: true)
                return true
            }
            """, note: "The user confirms the call."),
            .nonTriggering("Wallet.m", """
            - (BOOL)application:(UIApplication *)app openURL:(NSURL *)url options:(NSDictionary *)options {
                NSURLComponents *components = [NSURLComponents componentsWithURL:url resolvingAgainstBaseURL:NO];
                NSString *account = [self valueForQueryItem:@"to" inComponents:components];
                if (![self.savedPayees containsObject:account]) {
                    return NO;
                }
                [self.wallet showTransferFormForAccount:account];
                return YES;
            }
            """, note: "Opening a form is not the action; the payee is also allowlisted."),
            .nonTriggering("Events.swift", """
            import Combine
            final class LinkLog {
                let publisher = PassthroughSubject<String, Never>()
                func scene(_ scene: UIScene, continue userActivity: NSUserActivity) {
                    guard let url = userActivity.webpageURL, let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return }
                    publisher.send(components.path)
                }
            }
            """, note: "Sending a value through a Combine subject is the app's own plumbing, not an action."),
            .nonTriggering("Companion.swift", """
            func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
                guard let sender = options[.sourceApplication] as? String, sender == "com.example.companion" else { return false }
                guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
                      let number = components.queryItems?.first(where: { $0.name == "number" })?.value else { return false }
                callManager.call(number)
                return true
            }
            """, note: "The handler acts only for the app it names in `sourceApplication`."),
            .nonTriggering("Companion.m", """
            - (BOOL)application:(UIApplication *)application openURL:(NSURL *)url sourceApplication:(NSString *)sourceApplication annotation:(id)annotation {
                if (![sourceApplication isEqualToString:@"com.example.companion"]) {
                    return NO;
                }
                NSURLComponents *components = [NSURLComponents componentsWithURL:url resolvingAgainstBaseURL:NO];
                NSString *account = [self valueForQueryItem:@"to" inComponents:components];
                [self.wallet transferAmount:@"10" toAccount:account];
                return YES;
            }
            """),
        ])

    public init() {}

    /// Checks that make the URL's values safe for the action: an allowlist, a validation call, equality with
    /// a value the app issued (a nonce, an OAuth state), also inside the called function (its summary).
    static let validations: Set<TaintCheck> = [.allowlisted, .validated, .comparedWithValue]

    /// The handler checked which app opened the URL (`options[.sourceApplication]`, the Objective-C
    /// `sourceApplication` parameter) in an `if`/`guard` that every path to the action (or to the call that
    /// leads to it) passes: only the apps it names can trigger the action.
    static func checksSourceApplication(before flow: TaintFlow, taint: Taint, in file: CodeFile, _ cache: LocalValuesCache) -> Bool {
        guard let source = taint.source, file.containsText("sourceApplication") || file.containsText("SourceApplication"),
              let (function, owner) = file.allFunctions.first(where: { $0.function.body != nil && $0.function.range.contains(source.range) }),
              let body = function.body else { return false }
        let values = cache.values(function: function, type: owner)
        let targets = [flow.range] + taint.steps.filter { $0.external == nil }.map(\.range)
        var checked = false
        GuardedWalk.walk(body.statements) { expression, facts in
            guard !checked, targets.contains(where: { expression.range.contains($0) }) else { return }
            checked = facts.contains { fact in
                values.reachable(from: fact.condition).contains { node in
                    switch node.kind {
                    case .member(_, "sourceApplication"), .identifier("sourceApplication"): return true
                    // `options[UIApplicationOpenURLOptionsSourceApplicationKey]`
                    case .identifier(let name): return name.hasText("SourceApplication")
                    default: return false
                    }
                }
            }
        }
        return checked
    }

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        var candidates: [(TaintFlow, Taint)] = []
        let cache = LocalValuesCache(file: file)
        let flows = unit.flows(rule: Self.description.id)
        guard !flows.isEmpty else { return }
        // `publisher.send(x)`, `continuation.yield`: handing a value to a Combine subject or a stream is an
        // event of the app's own plumbing, not an action.
        var plumbing = Set<Int>()
        for (call, _) in file.calls(where: { $0.name == "send" }) {
            guard let receiver = call.receiver else { continue }
            if receiver.nameChain.contains(where: { link in
                let lowered = link.lowercased()
                return ["publisher", "subject", "stream", "continuation", "channel"].contains { lowered.hasSuffix($0) }
            }) {
                plumbing.insert(call.range.start.offset)
            }
        }
        var routeOnly = Set<Int>()
        for flow in flows where !flow.confirmed && !plumbing.contains(flow.range.start.offset) {
            let fromURL = flow.taints(.argument).filter { $0.source?.kind.isOpenedURL == true }
            for taint in fromURL {
                guard let source = taint.source, taint.checks.isDisjoint(with: Self.validations) else { continue }
                if source.kind == .universalLink && !taint.checks.contains(.urlPart) { continue }
                if Self.checksSourceApplication(before: flow, taint: taint, in: file, cache) { continue }
                candidates.append((flow, taint))
            }
            // The URL only chose the route (`if url.host == "deleteAccount" { account.delete() }`): comparing
            // the host with a constant is the route itself, not a check; a validation call or a value the
            // app issued (a signature, a nonce) is.
            guard fromURL.isEmpty else { continue }
            for taint in flow.taints(.trigger) {
                guard let source = taint.source, source.kind.isOpenedURL,
                      taint.checks.isDisjoint(with: [.validated, .comparedWithValue]) else { continue }
                if Self.checksSourceApplication(before: flow, taint: taint, in: file, cache) { continue }
                candidates.append((flow, taint))
                routeOnly.insert(flow.range.start.offset)
            }
        }
        // One finding per action: the call closest to the handler (fewest steps); an action reached through
        // an action already reported (`performLogin(url)` calling `authorize(token)`) is the same one.
        candidates.sort { ($0.1.steps.count, $0.0.range.start.offset) < ($1.1.steps.count, $1.0.range.start.offset) }
        var reportedCalls: [SourceRange] = []
        // One decision, one finding: the same action (by name) fed by the same opened URL and reached
        // another way in this file (`return authenticate(with: credentials)` on one branch, the same call in
        // a completion on the other) is one finding; the other calls are its related locations.
        var actions: [(key: String, flow: TaintFlow, taint: Taint, others: [SourceRange])] = []
        for (flow, taint) in candidates {
            guard let source = taint.source, !reportedCalls.contains(flow.range),
                  !taint.steps.contains(where: { step in step.external == nil && reportedCalls.contains { $0.contains(step.range) } })
            else { continue }
            reportedCalls.append(flow.range)
            let key = "\(Self.actionName(flow.calledName))|\(source.range.start.offset)|\(routeOnly.contains(flow.range.start.offset))"
            if let index = actions.firstIndex(where: { $0.key == key }) {
                actions[index].others.append(flow.range)
            } else {
                actions.append((key, flow, taint, []))
            }
        }
        for (_, flow, taint, others) in actions {
            guard let source = taint.source else { continue }
            let message = routeOnly.contains(flow.range.start.offset)
                ? "A URL handler calls \(flow.calledName) when \(source.description) selects it, without checking which app opened the URL or asking the user to confirm: any web page or app that opens the URL triggers it, even though nothing from the URL is passed to the call."
                : "A URL handler calls \(flow.calledName) with values from \(source.description), without validating them or asking the user to confirm: any web page or app that opens the URL triggers it."
            var related = taint.relatedLocations(in: file)
            for range in others {
                related.append(FindingSink.related("the same action, reached another way: \(Self.actionName(flow.calledName))", in: file, at: range))
            }
            sink.report(message, in: file, at: flow.range,
                        confidence: Swift.min(Self.description.confidence, source.confidence), related: related)
        }
    }

    /// The name of the called function without its argument labels (`authenticate(with:)` → `authenticate`).
    static func actionName(_ calledName: String) -> String {
        calledName.split(separator: "(", maxSplits: 1).first.map(String.init) ?? calledName
    }
}
