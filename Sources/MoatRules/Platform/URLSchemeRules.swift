import MoatCore
import MoatFormats
import MoatSyntax

enum URLSchemeExamples {
    static func infoPlist(_ schemes: [String], name: String = "com.example.receipts") -> ExampleFile {
        ExampleFile(name: "App/Info.plist", content: ExampleProject.plist("""
            <key>CFBundleURLTypes</key>
            <array>
                <dict>
                    <key>CFBundleURLName</key>
                    <string>\(name)</string>
                    <key>CFBundleURLSchemes</key>
                    <array>
            \(schemes.map { "                \($0)" }.joined(separator: "\n"))
                    </array>
                </dict>
            </array>
        """))
    }

    static let appDelegate = ExampleFile(name: "App/AppDelegate.swift", content: """
    import UIKit
    @main
    final class AppDelegate: UIResponder, UIApplicationDelegate {
        func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
            guard url.host == "receipt", let id = url.pathComponents.last, id.allSatisfy(\\.isNumber) else { return false }
            return Router.shared.showReceipt(id)
        }
    }
    """)
}

public struct URLSchemeInventoryRule: AppRule {
    public static let description = RuleDescription(
        id: "MOAT-PLAT-106", slug: "url-scheme-inventory", title: "Custom URL scheme registered",
        severity: .info, confidence: .high, cwe: [939],
        masvs: ["MASVS-PLATFORM-1"], mastg: ["MASTG-TEST-0075"],
        rationale: "A custom URL scheme (`CFBundleURLTypes`) is an entry point any app or web page can call with arbitrary parameters, and any other app can register the same scheme. Each one needs a handler that validates the URL and asks the user before doing anything sensitive (the Skype `skype://` call bug). The inventory lists every scheme with the code that receives it (`application(_:open:options:)`, `scene(_:openURLContexts:)`, `scene(_:willConnectTo:options:)` URL contexts, SwiftUI `onOpenURL`, and the Objective-C forms), and the schemes the app queries with `canOpenURL` (`LSApplicationQueriesSchemes`), which reveal which other apps it looks for.",
        fix: "Nothing to fix by itself. Review each handler: validate host, path and parameters; require user confirmation for state-changing actions; prefer universal links, which other apps cannot claim.",
        references: ["https://developer.apple.com/documentation/xcode/defining-a-custom-url-scheme-for-your-app"],
        isInventory: true,
        examples: [
            RuleExample(files: [
                ExampleFile(name: "App/Info.plist", content: ExampleProject.plist("""
                    <key>CFBundleURLTypes</key>
                    <array>
                        <dict>
                            <key>CFBundleURLName</key>
                            <string>com.example.receipts</string>
                            <key>CFBundleURLSchemes</key>
                            <array>
                                ↓<string>receipts</string>
                                ↓<string>com.example.receipts</string>
                            </array>
                        </dict>
                    </array>
                    ↓<key>LSApplicationQueriesSchemes</key>
                    <array>
                        <string>comgooglemaps</string>
                    </array>
                """)),
                URLSchemeExamples.appDelegate,
            ], triggers: true),
            .nonTriggering("App/Info.plist", ExampleProject.plist("""
                <key>CFBundleName</key>
                <string>Receipts</string>
            """)),
        ])

    public init() {}

    public func check(_ app: AppModel, _ sink: inout FindingSink) {
        for unit in app.units {
            let code = app.reachableSources(for: unit)
            let handlers = code.urlSchemeEntryPoints()
            let handlerText: String
            if handlers.isEmpty {
                handlerText = code.isAnalyzable ? "no handler found in the code" : "handlers not analyzed"
            } else {
                handlerText = "handled by " + PermissionText.list(handlers.prefix(3).map(\.placeDescription))
            }
            for plist in unit.infoPlists {
                for declared in DeclaredURLScheme.all(in: plist) {
                    let name = declared.urlName.map { ", URL type \($0)" } ?? ""
                    sink.report("Registers the URL scheme \(declared.scheme)://\(name): any app or web page can open it with any parameters; \(handlerText).",
                                in: plist, at: declared.node)
                    sink.attach(InventoryItem(.urlScheme, name: declared.scheme))
                }
                if let queries = plist.root["LSApplicationQueriesSchemes"], !queries.strings.isEmpty {
                    let shown = queries.strings.prefix(10).joined(separator: ", ") + (queries.strings.count > 10 ? ", …" : "")
                    sink.report("Queries whether apps are installed with canOpenURL for \(queries.strings.count) scheme\(queries.strings.count == 1 ? "" : "s"): \(shown).",
                                in: plist, at: queries)
                    sink.attach(InventoryItem(.queriedSchemes, name: queries.strings.joined(separator: ", ")))
                }
            }
        }
    }
}

public struct URLSchemeWithoutHandlerRule: AppRule {
    public static let description = RuleDescription(
        id: "MOAT-PLAT-107", slug: "url-scheme-without-handler", title: "URL scheme registered but no code receives URLs",
        severity: .low, confidence: .medium, cwe: [939],
        masvs: ["MASVS-PLATFORM-1"], mastg: ["MASTG-TEST-0075"],
        rationale: "A registered scheme whose URLs nothing handles is attack surface without purpose: other apps can still launch the app through it, and a handler added later (or one an SDK swizzles in) receives URLs nobody reviewed. It is also often a leftover of a removed feature. The check looks for every URL entry point in the code the app can run; it stays quiet when there is no code to judge, and when the app uses a web authentication session (`ASWebAuthenticationSession`), which receives its callback URL without a delegate. Confidence is low when third-party libraries are linked, since some SDKs install their own handler.",
        fix: "Remove the scheme from `CFBundleURLTypes` if nothing uses it; otherwise implement `application(_:open:options:)` / `scene(_:openURLContexts:)` / `onOpenURL` with strict validation.",
        references: ["https://developer.apple.com/documentation/xcode/defining-a-custom-url-scheme-for-your-app"],
        examples: [
            RuleExample(files: [
                URLSchemeExamples.infoPlist(["↓<string>receipts</string>"]),
                ExampleFile(name: "App/ContentView.swift", content: "import SwiftUI\nstruct ContentView: View {\n    var body: some View { Text(\"Receipts\") }\n}\n"),
            ], triggers: true),
            RuleExample(files: [URLSchemeExamples.infoPlist(["<string>receipts</string>"]), URLSchemeExamples.appDelegate], triggers: false),
            RuleExample(files: [
                URLSchemeExamples.infoPlist(["<string>receipts</string>"]),
                ExampleFile(name: "App/AppDelegate.m", content: """
                @implementation AppDelegate
                - (BOOL)application:(UIApplication *)app openURL:(NSURL *)url options:(NSDictionary<UIApplicationOpenURLOptionsKey, id> *)options {
                    return [[Router shared] openURL:url];
                }
                @end
                """),
            ], triggers: false),
            RuleExample(files: [
                URLSchemeExamples.infoPlist(["<string>receipts</string>"]),
                ExampleFile(name: "App/ReceiptsApp.swift", content: """
                import SwiftUI
                @main
                struct ReceiptsApp: App {
                    var body: some Scene {
                        WindowGroup {
                            ContentView().onOpenURL { url in Router.shared.open(url) }
                        }
                    }
                }
                """),
            ], triggers: false),
            RuleExample(files: [
                URLSchemeExamples.infoPlist(["<string>com.example.receipts.oauth</string>"]),
                ExampleFile(name: "App/Login.swift", content: """
                import AuthenticationServices
                func signIn(url: URL) {
                    let session = ASWebAuthenticationSession(url: url, callbackURLScheme: "com.example.receipts.oauth") { callback, _ in
                        print(callback as Any)
                    }
                    session.start()
                }
                """),
            ], triggers: false, note: "The web authentication session receives the callback itself."),
        ])

    public init() {}

    public func check(_ app: AppModel, _ sink: inout FindingSink) {
        for unit in app.appUnits where !unit.isExtension {
            let code = app.reachableSources(for: unit)
            guard code.isAnalyzable, code.urlSchemeEntryPoints().isEmpty,
                  !code.matchesAny(of: URLHandlerTable.webAuthenticationNames.map { APIClause($0) }) else { continue }
            let confidence: Confidence = unit.isLoose || !unit.thirdPartyDependencies.isEmpty ? .low : .medium
            for plist in unit.infoPlists {
                for declared in DeclaredURLScheme.all(in: plist) {
                    sink.report("The URL scheme \(declared.scheme):// is registered, but no code receives URLs (application(_:open:options:), scene(_:openURLContexts:), onOpenURL): remove it or handle it with validation.",
                                in: plist, at: declared.node, confidence: confidence)
                }
            }
        }
    }
}

public struct DeprecatedURLHandlerRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-PLAT-108", slug: "deprecated-url-handler", title: "Deprecated URL handler",
        severity: .low, confidence: .high, cwe: [477, 939],
        masvs: ["MASVS-PLATFORM-1"], mastg: ["MASTG-TEST-0075"],
        rationale: "`application(_:handleOpen:)` and `application(_:open:sourceApplication:annotation:)` (Objective-C `application:handleOpenURL:` and `application:openURL:sourceApplication:annotation:`) are deprecated since iOS 9. The first one does not say which app sent the URL at all; both bypass the `options` dictionary the current API passes, and code written for them tends to act on any URL without checking where it came from.",
        fix: "Implement `application(_:open:options:)` (or `scene(_:openURLContexts:)`) instead, validate the URL, and treat `options[.sourceApplication]` as a hint only (it is nil for apps of other developers).",
        references: ["https://developer.apple.com/documentation/uikit/uiapplicationdelegate/1623073-application"],
        examples: [
            .triggering("AppDelegate.swift", """
            import UIKit
            final class AppDelegate: UIResponder, UIApplicationDelegate {
                func ↓application(_ application: UIApplication, handleOpen url: URL) -> Bool {
                    Router.shared.open(url)
                }
                func ↓application(_ application: UIApplication, open url: URL, sourceApplication: String?, annotation: Any) -> Bool {
                    Router.shared.open(url)
                }
            }
            """),
            .triggering("AppDelegate.m", """
            @implementation AppDelegate
            - (BOOL)↓application:(UIApplication *)application handleOpenURL:(NSURL *)url {
                return [[Router shared] open:url];
            }
            @end
            """),
            .nonTriggering("AppDelegate.swift", """
            import UIKit
            final class AppDelegate: UIResponder, UIApplicationDelegate {
                func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
                    guard url.scheme == "receipts", url.host == "receipt" else { return false }
                    return Router.shared.open(url)
                }
            }
            """),
            .nonTriggering("AppDelegate.m", """
            @implementation AppDelegate
            - (BOOL)application:(UIApplication *)app openURL:(NSURL *)url options:(NSDictionary<UIApplicationOpenURLOptionsKey, id> *)options {
                return [[Router shared] open:url];
            }
            @end
            """),
        ])

    /// Each deprecated handler's name → the current handler's, Swift to Swift, Objective-C to Objective-C.
    static let replacements: [String: String] = {
        var table: [String: String] = [:]
        for name in APIs.deprecatedOpenURLHandler.swift { table[name] = APIs.openURLHandler.swift[0] }
        for name in APIs.deprecatedOpenURLHandler.selectors { table[name] = APIs.openURLHandler.selectors[0] }
        return table
    }()

    public init() {}

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        for (function, _) in file.allFunctions {
            guard let replacement = Self.replacements[function.fullName] else { continue }
            sink.report("\(function.fullName) is deprecated since iOS 9 and receives URLs without the options that say where they come from; implement \(replacement) and validate the URL.",
                        in: file, at: function.nameRange)
        }
    }
}

public struct GenericURLSchemeRule: PropertyListRule {
    public static let plistKinds: Set<PlistKind> = [.infoPlist]

    /// Scheme names (lowercased, without `-`, `_`, `.`) that many apps could register.
    static let genericSchemes: Set<String> = [
        "app", "myapp", "theapp", "yourapp", "appname", "application", "login", "auth", "oauth", "oauth2", "callback",
        "redirect", "signin", "sso", "fb", "test", "testing", "demo", "example", "sample", "main", "home", "open", "link",
        "links", "deeplink", "deeplinks", "url", "web", "mobile", "ios", "iphone", "scheme", "myscheme", "urlscheme",
        "customscheme", "appscheme", "dev", "debug", "prod", "staging", "api", "client", "account", "pay", "payment",
        "wallet", "share", "action", "launch", "token", "verify", "connect", "myurlscheme", "company", "myapplication",
    ]
    /// Words that show a scheme (or its URL type name) carries authentication responses.
    static let authWords = ["oauth", "auth", "callback", "redirect", "login", "signin", "sso", "token"]

    public static let description = RuleDescription(
        id: "MOAT-PLAT-109", slug: "generic-url-scheme", title: "URL scheme name another app can easily claim",
        severity: .medium, confidence: .high, evidence: .configuration, cwe: [939],
        masvs: ["MASVS-PLATFORM-1"], mastg: ["MASTG-TEST-0075"],
        rationale: "iOS does not arbitrate custom URL schemes: when two apps register the same scheme, either may receive the URL. A generic name (`app`, `myapp`, `login`, `auth`, `oauth`, `callback`, `fb`, `test`...) is likely to collide, on purpose or not, so URLs meant for this app — including their parameters — can land in another one. It is worst for OAuth redirects: a malicious app registering the same scheme receives the authorization code (RFC 8252 §8.1). Severity is high when the scheme or its URL type name mentions auth, OAuth, callback, redirect, login or token.",
        fix: "Use a reverse-DNS scheme you control (`com.example.receipts`), and for sign-in callbacks use universal links or `ASWebAuthenticationSession` with PKCE.",
        references: ["https://www.rfc-editor.org/rfc/rfc8252#section-8.1",
                     "https://developer.apple.com/documentation/xcode/defining-a-custom-url-scheme-for-your-app"],
        examples: [
            .triggering("App/Info.plist", ExampleProject.plist("""
                <key>CFBundleURLTypes</key>
                <array>
                    <dict>
                        <key>CFBundleURLName</key>
                        <string>OAuth callback</string>
                        <key>CFBundleURLSchemes</key>
                        <array>
                            ↓<string>myapp</string>
                        </array>
                    </dict>
                    <dict>
                        <key>CFBundleURLSchemes</key>
                        <array>
                            ↓<string>test</string>
                            ↓<string>o-auth</string>
                        </array>
                    </dict>
                </array>
            """)),
            .nonTriggering("App/Info.plist", ExampleProject.plist("""
                <key>CFBundleURLTypes</key>
                <array>
                    <dict>
                        <key>CFBundleURLName</key>
                        <string>com.example.receipts</string>
                        <key>CFBundleURLSchemes</key>
                        <array>
                            <string>com.example.receipts</string>
                            <string>fb1234567890</string>
                            <string>com.googleusercontent.apps.1234-abcd</string>
                            <string>receipts-by-example</string>
                        </array>
                    </dict>
                </array>
            """)),
        ])

    public init() {}

    public func check(_ plist: PropertyListDocument, _ sink: inout FindingSink) {
        for declared in DeclaredURLScheme.all(in: plist) {
            let normalized = String(declared.scheme.lowercased().filter { $0 != "-" && $0 != "_" && $0 != "." })
            guard Self.genericSchemes.contains(normalized) else { continue }
            let nameWords = (declared.urlName ?? "").lowercased().filter { $0.isLetter }
            let isAuth = Self.authWords.contains { normalized.contains($0) || nameWords.contains($0) }
            if isAuth {
                sink.report("The URL scheme \(declared.scheme):// is generic and looks like it carries sign-in callbacks: another app registering it can receive the authorization response. Use a universal link or a reverse-DNS scheme with PKCE.",
                            in: plist, at: declared.node, severity: .high)
            } else {
                sink.report("The URL scheme \(declared.scheme):// is generic: other apps can register it too and receive URLs meant for this app. Use a reverse-DNS scheme such as com.example.app.",
                            in: plist, at: declared.node)
            }
        }
    }
}
