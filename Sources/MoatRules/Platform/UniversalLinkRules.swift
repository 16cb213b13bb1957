import MoatCore
import MoatFormats
import MoatSyntax

enum UniversalLinkExamples {
    static let entitlements = ExampleFile(name: "App/App.entitlements", content: ExampleProject.plist("""
        <key>com.apple.developer.associated-domains</key>
        <array>
            ↓<string>applinks:receipts.example.com</string>
        </array>
    """))
    static let infoPlist = ExampleFile(name: "App/Info.plist", content: ExampleProject.plist("""
        <key>CFBundleName</key>
        <string>Receipts</string>
    """))
}

public struct UniversalLinksWithoutHandlerRule: AppRule {
    public static let description = RuleDescription(
        id: "MOAT-PLAT-104", slug: "universal-links-without-handler", title: "Universal links declared but no code receives them",
        severity: .low, confidence: .medium, cwe: [939],
        masvs: ["MASVS-PLATFORM-1"], mastg: ["MASTG-TEST-0070"],
        rationale: "An `applinks:` associated domain makes every matching URL on that domain open the app. If no code receives the user activity (`application(_:continue:restorationHandler:)`, `scene(_:continue:)`, `scene(_:willConnectTo:options:)` user activities, SwiftUI `onContinueUserActivity` or `onOpenURL`, or the Objective-C `application:continueUserActivity:restorationHandler:`), links open the app and are silently dropped, or reach a handler an SDK installs that nobody reviewed. It is usually a leftover entitlement that keeps attack surface open. The check stays quiet without code to judge; confidence is low when third-party libraries are linked.",
        fix: "Remove the `applinks:` entries if the app does not handle universal links; otherwise implement the handler and validate the URL's path and parameters before acting on them.",
        references: ["https://developer.apple.com/documentation/xcode/supporting-universal-links-in-your-app"],
        examples: [
            RuleExample(files: [
                UniversalLinkExamples.entitlements, UniversalLinkExamples.infoPlist,
                ExampleFile(name: "App/ContentView.swift", content: "import SwiftUI\nstruct ContentView: View {\n    var body: some View { Text(\"Receipts\") }\n}\n"),
            ], triggers: true),
            RuleExample(files: [
                ExampleFile(name: "App/App.entitlements", content: ExampleProject.plist("""
                    <key>com.apple.developer.associated-domains</key>
                    <array>
                        <string>applinks:receipts.example.com</string>
                    </array>
                """)),
                UniversalLinkExamples.infoPlist,
                ExampleFile(name: "App/SceneDelegate.swift", content: """
                import UIKit
                final class SceneDelegate: UIResponder, UIWindowSceneDelegate {
                    func scene(_ scene: UIScene, continue userActivity: NSUserActivity) {
                        guard userActivity.activityType == NSUserActivityTypeBrowsingWeb, let url = userActivity.webpageURL else { return }
                        Router.shared.open(url)
                    }
                }
                """),
            ], triggers: false),
            RuleExample(files: [
                ExampleFile(name: "App/App.entitlements", content: ExampleProject.plist("""
                    <key>com.apple.developer.associated-domains</key>
                    <array>
                        <string>webcredentials:receipts.example.com</string>
                    </array>
                """)),
                UniversalLinkExamples.infoPlist,
                ExampleFile(name: "App/ContentView.swift", content: "import SwiftUI\nstruct ContentView: View {\n    var body: some View { Text(\"Receipts\") }\n}\n"),
            ], triggers: false, note: "Shared web credentials are not universal links."),
            RuleExample(files: [
                ExampleFile(name: "App/App.entitlements", content: ExampleProject.plist("""
                    <key>com.apple.developer.associated-domains</key>
                    <array>
                        <string>applinks:receipts.example.com</string>
                    </array>
                """)),
                UniversalLinkExamples.infoPlist,
                ExampleFile(name: "App/AppDelegate.m", content: """
                @implementation AppDelegate
                - (BOOL)application:(UIApplication *)application continueUserActivity:(NSUserActivity *)userActivity
                 restorationHandler:(void (^)(NSArray<id<UIUserActivityRestoring>> *))restorationHandler {
                    return [[Router shared] openURL:userActivity.webpageURL];
                }
                @end
                """),
            ], triggers: false),
        ])

    public init() {}

    public func check(_ app: AppModel, _ sink: inout FindingSink) {
        for unit in app.appUnits where !unit.isExtension {
            let code = app.reachableSources(for: unit)
            guard code.isAnalyzable, code.universalLinkEntryPoints().isEmpty else { continue }
            let confidence: Confidence = unit.isLoose || !unit.thirdPartyDependencies.isEmpty ? .low : .medium
            for plist in unit.entitlementsDocuments {
                let links = Entitlements(document: plist).associatedDomains.filter { $0.service == "applinks" }
                guard let first = links.first else { continue }
                sink.report("Associated domains declare universal links for \(PermissionText.list(links.map(\.domain))), but no code receives them (application(_:continue:restorationHandler:), scene(_:continue:), onContinueUserActivity, onOpenURL): links open the app and are dropped.",
                            in: plist, at: first.node, confidence: confidence)
            }
        }
    }
}

public struct UniversalLinkHandlerWithoutDomainsRule: AppRule {
    public static let description = RuleDescription(
        id: "MOAT-PLAT-105", slug: "universal-link-handler-without-domains", title: "Universal link handler without associated domains",
        severity: .info, confidence: .medium, cwe: [939],
        masvs: ["MASVS-PLATFORM-1"], mastg: ["MASTG-TEST-0070"],
        rationale: "Code that handles web-browsing user activities (`webpageURL`, `NSUserActivityTypeBrowsingWeb`) only receives universal links when the app's entitlements list `applinks:` domains. Without them the handler is dead code for universal links — links open Safari instead — or the entitlements used to build the app are not the ones in the repository. Reported only when the target's entitlements are known.",
        fix: "Add the `applinks:` domains to the Associated Domains capability (and serve the apple-app-site-association file), or remove the unused handling code.",
        references: ["https://developer.apple.com/documentation/xcode/supporting-associated-domains"],
        examples: [
            RuleExample(files: [
                ExampleFile(name: "App/App.entitlements", content: ExampleProject.plist("""
                    <key>com.apple.security.application-groups</key>
                    <array>
                        <string>group.com.example.receipts</string>
                    </array>
                """)),
                UniversalLinkExamples.infoPlist,
                ExampleFile(name: "App/AppDelegate.swift", content: """
                import UIKit
                final class AppDelegate: UIResponder, UIApplicationDelegate {
                    func ↓application(_ application: UIApplication, continue userActivity: NSUserActivity,
                                     restorationHandler: @escaping ([UIUserActivityRestoring]?) -> Void) -> Bool {
                        guard let url = userActivity.webpageURL else { return false }
                        return Router.shared.open(url)
                    }
                }
                """),
            ], triggers: true),
            RuleExample(files: [
                ExampleFile(name: "App/App.entitlements", content: ExampleProject.plist("""
                    <key>aps-environment</key>
                    <string>development</string>
                """)),
                UniversalLinkExamples.infoPlist,
                ExampleFile(name: "App/AppDelegate.m", content: """
                @implementation AppDelegate
                - (BOOL)↓application:(UIApplication *)application continueUserActivity:(NSUserActivity *)userActivity
                 restorationHandler:(void (^)(NSArray<id<UIUserActivityRestoring>> *))restorationHandler {
                    return [[Router shared] openURL:userActivity.webpageURL];
                }
                @end
                """),
            ], triggers: true),
            RuleExample(files: [
                ExampleFile(name: "App/App.entitlements", content: ExampleProject.plist("""
                    <key>com.apple.developer.associated-domains</key>
                    <array>
                        <string>applinks:receipts.example.com</string>
                    </array>
                """)),
                UniversalLinkExamples.infoPlist,
                ExampleFile(name: "App/AppDelegate.swift", content: """
                import UIKit
                final class AppDelegate: UIResponder, UIApplicationDelegate {
                    func application(_ application: UIApplication, continue userActivity: NSUserActivity,
                                     restorationHandler: @escaping ([UIUserActivityRestoring]?) -> Void) -> Bool {
                        guard let url = userActivity.webpageURL else { return false }
                        return Router.shared.open(url)
                    }
                }
                """),
            ], triggers: false),
            RuleExample(files: [
                UniversalLinkExamples.infoPlist,
                ExampleFile(name: "App/AppDelegate.swift", content: """
                import UIKit
                final class AppDelegate: UIResponder, UIApplicationDelegate {
                    func application(_ application: UIApplication, continue userActivity: NSUserActivity,
                                     restorationHandler: @escaping ([UIUserActivityRestoring]?) -> Void) -> Bool {
                        Handoff.shared.resume(userActivity)
                    }
                }
                """),
            ], triggers: false, note: "Handoff only, and no entitlements in the scan to judge."),
        ])

    public init() {}

    public func check(_ app: AppModel, _ sink: inout FindingSink) {
        for unit in app.appUnits where !unit.isExtension {
            // The entitlements must be known: every configuration's CODE_SIGN_ENTITLEMENTS found, or loose files present.
            if unit.isLoose {
                guard !unit.entitlementsDocuments.isEmpty else { continue }
            } else {
                let unknown = unit.configurations.contains { configuration in
                    configuration.entitlementsSetting?.expandedString.map { !$0.isEmpty } == true && configuration.entitlements.isEmpty
                }
                guard !unknown else { continue }
            }
            let hasLinks = unit.entitlementsDocuments.contains { plist in
                Entitlements(document: plist).associatedDomains.contains { $0.service == "applinks" }
            }
            guard !hasLinks, let handler = app.ownSources(for: unit).universalLinkEntryPoints(webOnly: true).first else { continue }
            sink.report("\(handler.name) handles web URLs (universal links), but the entitlements of \(unit.displayName) declare no applinks: associated domain, so no universal link reaches it.",
                        at: handler.match)
        }
    }
}
