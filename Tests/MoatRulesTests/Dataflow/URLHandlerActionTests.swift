import Foundation
import Testing
import MoatCore
import MoatSyntax
@testable import MoatRules

private typealias Support = DataflowTestSupport

/// URL handlers: sensitive actions by table (verbs, APIs), routes chosen by the URL, parameters a callee
/// validates (within a file and across files), and MOAT-PLAT-305's store/fetch/show actions.
struct URLHandlerActionTests {
    @Test func sensitiveActionsAreATableOfWordsNotGuesses() {
        // Hidden features only with a hidden-feature object; protections only turned off.
        #expect(SensitiveActions.action(in: "showDebugMenu") == "show")
        #expect(SensitiveActions.action(in: "enableDeveloperMode") == "enable")
        #expect(SensitiveActions.action(in: "showSettings") == nil)
        #expect(SensitiveActions.action(in: "openAccount") == nil)
        #expect(SensitiveActions.action(in: "disablePasscode") == "disable")
        #expect(SensitiveActions.action(in: "disableAnimations") == nil)
        #expect(SensitiveActions.action(in: "deleteAccount") == "delete")
        // Route-only: destructive verbs yes, verbs that need the URL's values no.
        #expect(SensitiveActions.actsWithoutArguments("delete") && SensitiveActions.actsWithoutArguments("logout"))
        #expect(!SensitiveActions.actsWithoutArguments("send") && !SensitiveActions.actsWithoutArguments("set")
                && !SensitiveActions.actsWithoutArguments("login"))
    }

    @Test func bookkeepingReceiversAreMatchedByWordNotBySubstring() {
        func receiver(_ text: String) -> MoatSyntax.Expression? {
            let file = Support.parse("func f() { \(text).deleteAll() }")
            return file.calls(where: { $0.name == "deleteAll" }).first?.0.receiver
        }
        #expect(SensitiveActions.isBookkeeping(labels: [], receiver: receiver("AppLogger.shared")))
        #expect(SensitiveActions.isBookkeeping(labels: [], receiver: receiver("analyticsTracker")))
        #expect(!SensitiveActions.isBookkeeping(labels: [], receiver: receiver("LoginLinkHandler")))
        #expect(!SensitiveActions.isBookkeeping(labels: [], receiver: receiver("catalog")))
        #expect(!SensitiveActions.isBookkeeping(labels: [], receiver: receiver("dialogController")))
    }

    @Test func aConditionOnTheURLRoutesItsBranchesUntilTheyJoin() throws {
        let flows = Support.flows("""
        func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
            if url.host == "logout" {
                session.logout()
            } else {
                session.deleteAccount()
            }
            session.resetPassword()
            return true
        }
        """, kind: .sensitiveAction)
        let routed = flows.filter { !$0.taints(.trigger).isEmpty }.map(\.range.start.line).sorted()
        #expect(routed == [3, 5], "after the if, the code runs whatever the URL said")
        let trigger = try #require(flows.first { $0.range.start.line == 3 }?.taints(.trigger).first)
        #expect(trigger.source?.kind == .urlScheme)
        #expect(trigger.steps.contains { $0.message == "chooses what the code does" && $0.range.start.line == 2 })
    }

    @Test func aGuardThatExitsRoutesTheRestAndASwitchRoutesItsCases() {
        let flows = Support.flows("""
        func scene(_ scene: UIScene, openURLContexts URLContexts: Set<UIOpenURLContext>) {
            guard let url = URLContexts.first?.url else { return }
            switch url.host {
            case "wipe": vault.wipe()
            default: break
            }
            guard url.path != "/keep" else { return }
            store.purchase()
        }
        """, kind: .sensitiveAction)
        #expect(flows.filter { !$0.taints(.trigger).isEmpty }.map(\.range.start.line).sorted() == [4, 8])
    }

    @Test func aCalleeThatComparesTheParameterWithAStoredValueValidatesIt() throws {
        let file = Support.parse("""
        @implementation Auth
        + (User *)authorizeFromURL:(NSURL *)url {
            NSString *state = [self valueForName:@"state" ofURL:url];
            NSString *stored = [[NSUserDefaults standardUserDefaults] stringForKey:@"state"];
            if (![state isEqualToString:stored]) {
                return nil;
            }
            return [[User alloc] initWithURL:url];
        }
        + (User *)trustFromURL:(NSURL *)url {
            return [[User alloc] initWithURL:url];
        }
        + (User *)compareTwoInputs:(NSURL *)url other:(NSString *)other {
            NSString *state = [self valueForName:@"state" ofURL:url];
            if (![state isEqualToString:other]) {
                return nil;
            }
            return [[User alloc] initWithURL:url];
        }
        + (NSString *)valueForName:(NSString *)name ofURL:(NSURL *)url {
            return [[NSURLComponents componentsWithURL:url resolvingAgainstBaseURL:NO] queryItems].firstObject.value;
        }
        @end
        """, name: "Auth.m")
        let unit = SourceUnit(code: file)
        _ = unit.flows
        let facts = try #require(unit.factsIfAnalyzed)
        let validated = Dictionary(uniqueKeysWithValues: facts.functions.map { ($0.signature.fullName, $0.validatesParameters) })
        #expect(validated["authorizeFromURL:"] == [0])
        #expect(validated["trustFromURL:"] == [])
        #expect(validated["compareTwoInputs:other:"] == [], "equal to another input is no check")
        // Validating functions are summarized for other files, and survive the cache's encoding.
        #expect(facts.functions.first { $0.signature.fullName == "authorizeFromURL:" }?.isSummarized == true)
        #expect(FactsCoding.decode(FactsCoding.encode(facts)) == facts)
    }

    @Test func theLinkerGivesAValidatingCalleeToCallsThatOnlyPassAParameter() throws {
        let caller = """
        @implementation AppDelegate
        - (BOOL)application:(UIApplication *)app openURL:(NSURL *)url options:(NSDictionary *)options {
            [self finishWithURL:url];
            return YES;
        }
        - (void)finishWithURL:(NSURL *)url {
            User *user = [Auth authorizeFromURL:url];
        }
        @end
        """
        let callee = """
        @implementation Auth
        + (User *)authorizeFromURL:(NSURL *)url {
            NSString *state = url.query;
            NSString *expected = [Store expectedState];
            if (![state isEqualToString:expected]) {
                return nil;
            }
            return [[User alloc] initWithURL:url];
        }
        @end
        """
        let facts = CrossFileLinkerTests.facts([("AppDelegate.m", caller), ("Auth.m", callee)])
        #expect(facts[0]?.taintedCalls == [], "the call passes only the caller's parameter")
        let contexts = CrossFileLinker(facts: facts, paths: ["AppDelegate.m", "Auth.m"]).contexts()
        let context = try #require(contexts[0])
        #expect(context.functions.map(\.signature.fullName) == ["authorizeFromURL:"])
        // With the context, the sign-in is checked; without it, it is reported.
        let file = Support.parse(caller, name: "AppDelegate.m")
        var alone = FindingSink(rule: URLSchemeSensitiveActionRule.description)
        URLSchemeSensitiveActionRule().check(SourceUnit(code: file), &alone)
        #expect(alone.findings.map(\.location.line) == [7])
        #expect(alone.findings.first?.message.hasPrefix("A URL handler calls authorizeFromURL: with values from the URL opened through") == true)
        var linked = FindingSink(rule: URLSchemeSensitiveActionRule.description)
        URLSchemeSensitiveActionRule().check(SourceUnit(code: file, context: context), &linked)
        #expect(linked.findings.isEmpty)
    }

    @Test func routeOnlyFindingsSayNothingFromTheURLIsPassed() throws {
        let findings = Support.findings(URLSchemeSensitiveActionRule.self, """
        func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
            if url.host == "logout" { session.logout() }
            if url.host == "wipe", verifySignature(url) { vault.wipe() }
            return true
        }
        """)
        #expect(findings.map(\.location.line) == [2])
        let message = try #require(findings.first?.message)
        #expect(message == "A URL handler calls logout() when the URL opened through application(_:open:options:) selects it, without checking which app opened the URL or asking the user to confirm: any web page or app that opens the URL triggers it, even though nothing from the URL is passed to the call.")
        #expect(findings.first?.severity == .high)
    }

    @Test func plat305ReportsStoresAndFetchesAtMediumAndScreensAtLow() throws {
        let findings = Support.findings(URLHandlerUnvalidatedInputRule.self, """
        func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
            guard let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems,
                  let value = items.first?.value, let target = URL(string: value) else { return false }
            UserDefaults.standard.set(value, forKey: "server")
            URLSession.shared.dataTask(with: target).resume()
            navigationController?.pushViewController(DetailViewController(id: value), animated: true)
            if let number = Int(value) { navigationController?.pushViewController(ItemViewController(number: number), animated: true) }
            return true
        }
        """)
        let sorted = findings.sorted { $0.location.line < $1.location.line }
        #expect(sorted.map(\.location.line) == [4, 5, 6])
        #expect(sorted.map(\.confidence) == [.medium, .medium, .low])
        #expect(sorted.map(\.severity) == [.medium, .medium, .low], "opening a screen is what deep links are for")
        #expect(sorted.map { $0.message.components(separatedBy: " a value from").first ?? "" }
                == ["A URL handler stores", "A URL handler fetches", "A URL handler shows a screen built from"])
    }

    @Test func deepLinksThatOnlyNavigateAreLowAndOnesThatStoreStayMedium() {
        let findings = Support.findings(URLHandlerUnvalidatedInputRule.self, """
        final class SceneDelegate: UIResponder, UIWindowSceneDelegate {
            var tabs: UITabBarController?
            var nav: UINavigationController?
            var searchBar: UISearchBar?
            func scene(_ scene: UIScene, openURLContexts URLContexts: Set<UIOpenURLContext>) {
                guard let url = URLContexts.first?.url, let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return }
                let items = components.queryItems ?? []
                switch url.host {
                case "profile":
                    if let id = items.first(where: { $0.name == "id" })?.value { nav?.pushViewController(ProfileViewController(userID: id), animated: true) }
                case "tab":
                    if let index = items.first(where: { $0.name == "i" })?.value.flatMap(Int.init) { tabs?.selectedIndex = index }
                case "search":
                    searchBar?.text = items.first(where: { $0.name == "q" })?.value
                case "referrer":
                    UserDefaults.standard.set(items.first?.value, forKey: "referrer")
                default: break
                }
            }
        }
        """)
        let sorted = findings.sorted { $0.location.line < $1.location.line }
        #expect(sorted.map(\.location.line) == [10, 16])
        #expect(sorted.map(\.severity) == [.low, .medium])
    }
}
