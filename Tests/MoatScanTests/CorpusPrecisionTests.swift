import Foundation
import Testing
import MoatCore
@testable import MoatScan
@testable import MoatRules

/// The corpus cases of issue 15's last precision pass, each as a small tree: locations, severities,
/// messages and non-shipping marks.
struct CorpusPrecisionTests {
    static func plist(_ body: String) -> String { ExampleProject.plist(body) }

    static func findings(_ files: [String: String], rule: String) throws -> [Finding] {
        let tree = try TemporaryTree(files)
        defer { tree.remove() }
        return try tree.scan().findings.filter { $0.ruleId == rule }
    }

    // MARK: MOAT-STOR-302: where a token comes from

    @Test func aSyncTokenASignInReturnedIsACredential() throws {
        let found = try Self.findings(["MagicLink.swift": """
            import Foundation
            struct MagicLinkAuthenticator {
                func redeem(email: String, code: String) {
                    Task { @MainActor in
                        let confirmation = try await remote.requestLoginConfirmation(email: email, authCode: code)
                        Task { @MainActor in
                            NSLog("[MagicLink] Should auth with token \\(confirmation.syncToken)")
                            authenticator.authenticate(withUsername: confirmation.username, token: confirmation.syncToken)
                        }
                    }
                }
                func direct() async throws {
                    print(try await api.signIn(user: "a").syncToken)
                }
                func typed(_ response: AuthResponse) {
                    print(response.syncToken)
                }
            }
            """], rule: "MOAT-STOR-302")
        #expect(found.map { "\($0.location.line):\($0.location.column)" } == ["7:17", "13:9", "16:9"])
        #expect(found.first?.message.hasPrefix("`syncToken` (a token issued by the sign-in call `requestLoginConfirmation`) is written by NSLog to the system log") == true,
                "\(found.first?.message ?? "")")
        #expect(found.last?.message.hasPrefix("`syncToken` (a token held by an `AuthResponse`) is written by print") == true, "\(found.last?.message ?? "")")
    }

    @Test func aSyncCursorStaysQuiet() throws {
        let found = try Self.findings(["Calendar.swift": """
            import Foundation
            func pull(calendar: CalendarInfo, session: URLSession) async throws {
                let changes = try await client.fetchChanges(since: calendar.syncToken)
                NSLog("now at %@ %@", changes.syncToken, changes.nextPageToken)
                let login = try await api.login(user: "a")
                NSLog("push %@", login.deviceToken)
                print(session.syncToken)
            }
            """], rule: "MOAT-STOR-302")
        #expect(found.isEmpty, "\(found.map(\.message))")
    }

    @Test func theAPNsDeviceTokenIsNoSecretUnderAnyName() throws {
        let found = try Self.findings(["Push.swift": """
            import Foundation
            final class PushManager {
                var deviceToken: String?
                func registerDeviceToken(with tokenData: Data, authToken: String) {
                    let newToken = tokenData.hexString
                    DDLogInfo("Device Token Changed! NEW: [\\(newToken)] \\(tokenData)")
                    DDLogInfo("with \\(authToken)")
                }
                func application(_ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken token: Data) {
                    NSLog("%@", token.description)
                }
                func refresh(token: String) {
                    NSLog("%@", token)
                }
            }
            """], rule: "MOAT-STOR-302")
        // Only the credential named as one, and a bare token outside a device-token function.
        #expect(found.map { "\($0.location.line)" } == ["7", "13"], "\(found.map(\.message))")
        #expect(found.first?.message.hasPrefix("`authToken` (named as a token)") == true, "\(found.first?.message ?? "")")
    }

    // MARK: MOAT-STOR-303: options that limit the item

    @Test func aPasteboardItemLimitedByEitherOptionIsQuiet() throws {
        let found = try Self.findings(["Clipboard.swift": """
            import UIKit
            func copy(_ password: String, universal: Bool) {
                UIPasteboard.general.setItems([["public.utf8-plain-text": password]], options: [.localOnly: !universal])
                UIPasteboard.general.setItems([["public.utf8-plain-text": password]], options: [.expirationDate: Date(timeIntervalSinceNow: 30)])
                UIPasteboard.general.setItems([["public.utf8-plain-text": password]], options: [.localOnly: false])
                UIPasteboard.general.setItems([["public.utf8-plain-text": password]], options: [:])
            }
            """], rule: "MOAT-STOR-303")
        #expect(found.map { "\($0.location.line):\($0.location.column)" } == ["5:5", "6:5"])
        #expect(found.allSatisfy { $0.message.hasPrefix("`password` (named as a password) is copied to the general pasteboard") }, "\(found.map(\.message))")
    }

    // MARK: MOAT-PLAT-303: one action, one finding

    @Test func oneActionReachedTwoWaysIsOneFindingWithTheOtherAsRelated() throws {
        let found = try Self.findings(["Links.swift": """
            import UIKit
            final class Coordinator {
                var needsSetup = false
                func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
                    guard let token = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first?.value else { return false }
                    let credentials = Credentials(token: token)
                    guard needsSetup else {
                        return session.authenticate(with: credentials)
                    }
                    setupFlow.start { [weak self] in
                        self?.session.authenticate(with: credentials)
                    }
                    return true
                }
            }
            """], rule: "MOAT-PLAT-303")
        #expect(found.count == 1)
        let finding = try #require(found.first)
        #expect(finding.location.line == 8 && finding.severity == .high)
        #expect(finding.message.hasPrefix("A URL handler calls authenticate"), "\(finding.message)")
        let other = finding.related.filter { $0.message.hasPrefix("the same action, reached another way") }
        #expect(other.map(\.location.line) == [11], "\(finding.related.map(\.message))")
    }

    // MARK: Targets Xcode never archives

    /// An XcodeGen project: the Chat app and a Showcase app that renders screens for UI tests, both compiling
    /// `Shared/Settings.swift`, and the showcase's UI tests (it is their test host); `skipInstall` is the
    /// showcase's release SKIP_INSTALL.
    static func showcase(skipInstall: String, embedded: Bool = false) -> [String: String] {
        [
            "project.yml": """
            name: Chat
            configs:
              Debug: debug
              Release: release
            targets:
              Chat:
                type: application
                platform: iOS
                info:
                  path: App/Info.plist
                sources:
                - path: App/ChatApp.swift
                - path: App/PrivacyInfo.xcprivacy
                - path: Shared/Settings.swift
            \(embedded ? "    dependencies:\n        - target: Showcase\n" : "")  Showcase:
                type: application
                platform: iOS
                info:
                  path: Showcase/Info.plist
                configFiles:
                  Release: Showcase/Release.xcconfig
                sources:
                - path: Showcase/ShowcaseApp.swift
                - path: Shared/Settings.swift
              ShowcaseUITests:
                type: bundle.ui-testing
                platform: iOS
                sources:
                - path: UITests
                dependencies:
                - target: Showcase
            """,
            "UITests/ScreensUITests.swift": "import XCTest\nfinal class ScreensUITests: XCTestCase {}\n",
            "App/Info.plist": plist("<key>CFBundlePackageType</key>\n<string>APPL</string>"),
            "App/PrivacyInfo.xcprivacy": PrivacyManifestExamples.manifest(PrivacyManifestExamples.userDefaultsDeclared),
            "App/ChatApp.swift": "import SwiftUI\n@main struct ChatApp: App { var body: some Scene { WindowGroup { Text(\"Chat\") } } }\n",
            "Showcase/Info.plist": plist("<key>CFBundlePackageType</key>\n<string>APPL</string>\n<key>NSLocationAlwaysAndWhenInUseUsageDescription</key>\n<string>Shows the map screen.</string>"),
            "Showcase/Release.xcconfig": "SKIP_INSTALL = \(skipInstall)\n",
            "Showcase/ShowcaseApp.swift": "import SwiftUI\n@main struct ShowcaseApp: App { var body: some Scene { WindowGroup { Text(\"Screens\") } } }\nlet secret = \"6805ca9a091e45ada8a9d8988367f14e\"\nlet apiKey = secret\n",
            "Shared/Settings.swift": "import Foundation\nlet theme = UserDefaults.standard.string(forKey: \"theme\")\n",
        ]
    }

    @Test func anAppTargetXcodeNeverArchivesDoesNotShip() throws {
        let tree = try TemporaryTree(Self.showcase(skipInstall: "YES"))
        defer { tree.remove() }
        let result = try tree.scan()
        #expect(!result.findings.contains { $0.ruleId == "MOAT-PRIV-108" }, "\(result.findings.map(\.message))")
        // The showcase's own files and Info.plist are marked; the shared file ships with Chat.
        let marks = Dictionary(result.findings.map { ($0.location.path, $0.nonShippingReason?.rawValue ?? "ships") }) { first, _ in first }
        #expect(marks["Showcase/Info.plist"] == "not-archived", "\(marks)")
        #expect(result.findings.filter { $0.location.path == "Showcase/ShowcaseApp.swift" }.allSatisfy { $0.nonShippingReason == .notArchived })
    }

    @Test func anArchivableOrEmbeddedAppTargetShips() throws {
        for (skip, embedded) in [("NO", false), ("YES", true)] {
            let found = try Self.findings(Self.showcase(skipInstall: skip, embedded: embedded), rule: "MOAT-PRIV-108")
            #expect(found.map { "\($0.location.path):\($0.location.line)" } == ["Shared/Settings.swift:2"], "SKIP_INSTALL \(skip), embedded \(embedded)")
            #expect(found.first?.message.hasPrefix("Target Showcase uses required-reason APIs") == true)
            #expect(found.first?.nonShippingReason == nil)
        }
    }

    // MARK: MOAT-PRIV-104: the app's code linked into an extension

    static func sharedWithExtension(appHasKey: Bool) -> [String: String] {
        [
            "project.yml": """
            name: Chat
            targets:
              Chat:
                type: application
                platform: iOS
                info:
                  path: App/Info.plist
                sources:
                - path: App/ChatApp.swift
                - path: Shared/Contacts.swift
              ChatNSE:
                type: app-extension
                platform: iOS
                info:
                  path: NSE/Info.plist
                sources:
                - path: NSE/NotificationService.swift
                - path: Shared/Contacts.swift
            """,
            "App/Info.plist": plist("<key>CFBundlePackageType</key>\n<string>APPL</string>" + (appHasKey ? "\n<key>NSContactsUsageDescription</key>\n<string>Invite friends from your address book.</string>" : "")),
            "NSE/Info.plist": plist("<key>CFBundlePackageType</key>\n<string>XPC!</string>\n<key>NSExtension</key>\n<dict>\n<key>NSExtensionPointIdentifier</key>\n<string>com.apple.usernotifications.service</string>\n</dict>"),
            "App/ChatApp.swift": "import SwiftUI\n@main struct ChatApp: App { var body: some Scene { WindowGroup { Text(\"Chat\") } } }\n",
            "NSE/NotificationService.swift": "import UserNotifications\nclass NotificationService: UNNotificationServiceExtension {}\n",
            "Shared/Contacts.swift": "import Contacts\nfunc invite() {\n    CNContactStore().requestAccess(for: .contacts) { _, _ in }\n}\n",
        ]
    }

    @Test func theAppsCodeLinkedIntoAnExtensionIsALowSuspicion() throws {
        let shared = try Self.findings(Self.sharedWithExtension(appHasKey: true), rule: "MOAT-PRIV-104")
        #expect(shared.map { "\($0.location.path):\($0.location.line) \($0.severity.rawValue)/\($0.confidence.rawValue)" } == ["Shared/Contacts.swift:3 low/low"])
        #expect(shared.first?.message.contains("in code target Chat shares with an extension, and the Info.plist of target ChatNSE has no NSContactsUsageDescription: if the extension runs this path") == true,
                "\(shared.first?.message ?? "")")
        let missing = try Self.findings(Self.sharedWithExtension(appHasKey: false), rule: "MOAT-PRIV-104")
        #expect(missing.count == 1 && missing.first?.severity == .low && missing.first?.confidence == .high, "\(missing.map(\.message))")
        #expect(missing.first?.message.contains("but the Info.plist of target Chat has no NSContactsUsageDescription and the Info.plist of target ChatNSE has no NSContactsUsageDescription") == true,
                "\(missing.first?.message ?? "")")
    }
}
