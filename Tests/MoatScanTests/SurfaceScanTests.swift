import Foundation
import Testing
import MoatCore
import MoatRules
@testable import MoatScan

/// The attack surface of extensions, file imports and other IPC, built by a real scan.
struct SurfaceScanTests {
    static let appPlist = """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0">
    <dict>
    \t<key>CFBundleDisplayName</key>
    \t<string>Inbox</string>
    \t<key>CFBundleURLTypes</key>
    \t<array>
    \t\t<dict>
    \t\t\t<key>CFBundleURLSchemes</key>
    \t\t\t<array>
    \t\t\t\t<string>inbox</string>
    \t\t\t</array>
    \t\t</dict>
    \t</array>
    \t<key>UIBackgroundModes</key>
    \t<array>
    \t\t<string>remote-notification</string>
    \t\t<string>bluetooth-central</string>
    \t</array>
    \t<key>NSBonjourServices</key>
    \t<array>
    \t\t<string>_inbox._tcp</string>
    \t</array>
    \t<key>UIFileSharingEnabled</key>
    \t<true/>
    </dict>
    </plist>
    """

    static let sharePlist = """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0">
    <dict>
    \t<key>NSExtension</key>
    \t<dict>
    \t\t<key>NSExtensionAttributes</key>
    \t\t<dict>
    \t\t\t<key>NSExtensionActivationRule</key>
    \t\t\t<dict>
    \t\t\t\t<key>NSExtensionActivationSupportsFileWithMaxCount</key>
    \t\t\t\t<integer>1</integer>
    \t\t\t</dict>
    \t\t</dict>
    \t\t<key>NSExtensionPrincipalClass</key>
    \t\t<string>$(PRODUCT_MODULE_NAME).ShareViewController</string>
    \t\t<key>NSExtensionPointIdentifier</key>
    \t\t<string>com.apple.share-services</string>
    \t</dict>
    </dict>
    </plist>
    """

    static let shareCode = """
    import Social

    final class ShareViewController: SLComposeServiceViewController {
        override func didSelectPost() {
            let items = extensionContext?.inputItems as? [NSExtensionItem] ?? []
            for provider in items.flatMap({ $0.attachments ?? [] }) {
                provider.loadFileRepresentation(forTypeIdentifier: "public.data") { url, _ in print(url as Any) }
            }
        }
    }
    """

    static let appCode = """
    import SwiftUI
    import AppIntents
    import CoreBluetooth

    struct ImportView: View {
        @State var importing = false
        var body: some View {
            Button("Import") { importing = true }
                .fileImporter(isPresented: $importing, allowedContentTypes: [.pdf]) { _ in }
        }
    }

    struct OpenInboxIntent: AppIntent {
        static var title: LocalizedStringResource = "Open inbox"
        func perform() async throws -> some IntentResult { .result() }
    }

    final class Picker: NSObject, UIDocumentPickerDelegate {
        let central = CBCentralManager()
        func documentPicker(_ controller: UIDocumentPickerViewController, didPickDocumentsAt urls: [URL]) {}
        func share(_ text: String, from controller: UIViewController) {
            controller.present(UIActivityViewController(activityItems: [text], applicationActivities: nil), animated: true)
        }
    }
    """

    static let serviceCode = """
    import UserNotifications

    final class NotificationService: UNNotificationServiceExtension {
        override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
            contentHandler(request.content)
        }
    }
    """

    static let files = ["Inbox/Info.plist": appPlist, "Inbox/App.swift": appCode,
                        "Share/Info.plist": sharePlist, "Share/ShareViewController.swift": shareCode,
                        "Service/NotificationService.swift": serviceCode]

    static func summaries(_ entries: [AttackSurface.Entry]) -> [String] {
        entries.map { entry in
            let place = entry.location.keyPath.map { "\(entry.location.path):\(entry.location.line) (\($0))" }
                ?? "\(entry.location.path):\(entry.location.line):\(entry.location.column)"
            return "\(entry.value) [\(entry.kind ?? "")] @ \(place)"
        }
    }

    @Test func extensionsFileImportsPushAndOtherIPC() throws {
        let tree = try ScanTree(Self.files)
        let result = try scan(tree)
        let surface = try #require(result.surface)
        let shareLine = lineNumber(of: "<key>NSExtensionPointIdentifier</key>", in: Self.sharePlist)
        #expect(Self.summaries(surface.extensions) == ["com.apple.share-services [Share extension] @ Share/Info.plist:\(shareLine) (NSExtension.NSExtensionPointIdentifier)"])
        let share = try #require(surface.extensions.first)
        #expect(share.detail == "principal class $(PRODUCT_MODULE_NAME).ShareViewController; activates for NSExtensionActivationSupportsFileWithMaxCount=1")
        #expect(share.handlers.map { "\($0.name) @ \($0.location.path):\($0.location.line)" }
                == ["ShareViewController: SLComposeServiceViewController @ Share/ShareViewController.swift:3"])
        #expect(share.risk == "Receives whatever other apps share (text, URLs, files): every attachment is untrusted input.")

        func at(_ needle: String, _ text: String = Self.appCode, _ path: String = "Inbox/App.swift") -> String {
            let line = lineNumber(of: needle, in: text)
            let lineText = text.components(separatedBy: "\n")[line - 1]
            let column = lineText.range(of: needle).map { lineText.distance(from: lineText.startIndex, to: $0.lowerBound) + 1 } ?? 0
            return "\(path):\(line):\(column)"
        }
        #expect(Self.summaries(surface.fileImports) == [
            // A modifier is placed where its chain starts.
            "SwiftUI fileImporter [document picker] @ " + at("Button("),
            "documentPicker(_:didPickDocumentsAt:) [document picker] @ " + at("documentPicker(_"),
            "UIDocumentPickerViewController [document picker] @ " + at("UIDocumentPickerViewController"),
            "extension input items [extension context] @ " + at("extensionContext?", Self.shareCode, "Share/ShareViewController.swift"),
            "NSItemProvider file representation [item provider] @ " + at("provider.load", Self.shareCode, "Share/ShareViewController.swift"),
        ])
        #expect(Self.summaries(surface.documentTypes) == ["UIFileSharingEnabled [setting] @ Inbox/Info.plist:\(lineNumber(of: "UIFileSharingEnabled", in: Self.appPlist)) (UIFileSharingEnabled)"])
        #expect(Self.summaries(surface.pushNotifications) == [
            "UIBackgroundModes: remote-notification [background push] @ Inbox/Info.plist:\(lineNumber(of: "remote-notification", in: Self.appPlist)) (UIBackgroundModes[0])",
            "NotificationService: UNNotificationServiceExtension [notification service extension] @ " + at("NotificationService:", Self.serviceCode, "Service/NotificationService.swift"),
            "didReceive(_:withContentHandler:) [notification service] @ " + at("didReceive(_", Self.serviceCode, "Service/NotificationService.swift"),
        ])
        #expect(Self.summaries(surface.otherIPC) == [
            "OpenInboxIntent: AppIntent [App Intent] @ " + at("OpenInboxIntent"),
            "CBCentralManager [Bluetooth] @ " + at("CBCentralManager"),
            "UIActivityViewController [share sheet] @ " + at("UIActivityViewController"),
            "UIBackgroundModes: bluetooth-central [Bluetooth] @ Inbox/Info.plist:\(lineNumber(of: "bluetooth-central", in: Self.appPlist)) (UIBackgroundModes[1])",
            "_inbox._tcp [Bonjour service] @ Inbox/Info.plist:\(lineNumber(of: "_inbox._tcp", in: Self.appPlist)) (NSBonjourServices[0])",
        ])
        #expect(surface.otherIPC.allSatisfy { $0.risk?.isEmpty == false })
    }

    @Test func schemeValidationSaysWhenTheRuleDidNotRun() throws {
        let tree = try ScanTree(["Inbox/Info.plist": Self.appPlist, "Inbox/App.swift": Self.appCode])
        let partial = try #require(try scan(tree, rules: ["MOAT-PLAT-106"]).surface)
        #expect(partial.urlSchemes.map { $0.attributes["validation"] } == ["no handler found"])
        let delegate = "final class D { func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any]) -> Bool { true } }\n"
        let handled = try ScanTree(["Inbox/Info.plist": Self.appPlist, "Inbox/D.swift": delegate])
        #expect(try scan(handled, rules: ["MOAT-PLAT-106"]).surface?.urlSchemes.map { $0.attributes["validation"] }
                == ["not checked (MOAT-PLAT-303 did not run)"])
        #expect(try scan(handled).surface?.urlSchemes.map { $0.attributes["validation"] }
                == ["no unvalidated sensitive action found (MOAT-PLAT-303)"])
        // Without findings (the app model alone) there is no validation verdict.
        #expect(loadApp(handled).app.surface.urlSchemes.map { $0.attributes["validation"] } == [nil])
    }

    @Test func sensitiveActionInTheHandlerIsReportedOnTheScheme() throws {
        let delegate = """
        import UIKit
        final class D: UIResponder, UIApplicationDelegate {
            func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any]) -> Bool {
                guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
                      let account = components.queryItems?.first(where: { $0.name == "account" })?.value else { return false }
                store.deleteAccount(id: account)
                return true
            }
        }
        """
        let tree = try ScanTree(["Inbox/Info.plist": Self.appPlist, "Inbox/D.swift": delegate])
        let surface = try #require(try scan(tree).surface)
        let scheme = try #require(surface.urlSchemes.first)
        #expect(scheme.attributes["validation"] == "a handler performs a sensitive action without validation or confirmation (MOAT-PLAT-303)")
        #expect(scheme.notes.map { "\($0.ruleId) \($0.location.path):\($0.location.line)" } == ["MOAT-PLAT-303 Inbox/D.swift:6"])
    }
}

/// The surface is built from typed inventory entries and rule types, never from message text.
struct SurfaceFromTypedInventoryTests {
    static let web = """
    import WebKit
    import JavaScriptCore
    class WebController: UIViewController, WKScriptMessageHandler {
        let webView = WKWebView()
        override func viewDidLoad() {
            webView.configuration.userContentController.add(self, name: "payments")
            let context = JSContext()!
            context.setObject(logger, forKeyedSubscript: "log" as NSString)
            webView.load(URLRequest(url: URL(string: "https://api.example.com/v1")!))
        }
        func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
            perform(message.body)
        }
    }
    class Trust: NSObject, URLSessionDelegate {
        func urlSession(_ session: URLSession, didReceive challenge: URLAuthenticationChallenge,
                        completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
            if challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust,
               let trust = challenge.protectionSpace.serverTrust {
                completionHandler(.useCredential, URLCredential(trust: trust))
            }
        }
    }
    """

    /// The surface as JSON with the notes' messages (the findings' own words) left out.
    static func shape(_ surface: AttackSurface) throws -> String {
        var copy = surface
        for section in AttackSurface.sectionKeyPaths {
            copy[keyPath: section] = copy[keyPath: section].map { entry in
                var entry = entry
                entry.notes = entry.notes.map { var note = $0; note.message = ""; return note }
                return entry
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(copy), as: UTF8.self)
    }

    @Test func rewordingMessagesDoesNotChangeTheSurface() throws {
        let tree = try ScanTree(["App/Web.swift": Self.web])
        let result = try scan(tree)
        let (app, _) = loadApp(tree)
        let surface = app.surface(findings: result.findings)
        #expect(surface.javaScriptBridges.map { "\($0.value) \($0.kind ?? "")" } == ["payments script message handler", "log JSContext value"])
        #expect(surface.javaScriptBridges.first?.detail?.contains("Script message handler `payments`") == true)
        #expect(surface.webViews.first?.attributes["bridges"] == "payments, log")
        #expect(surface.networkEndpoints.first?.attributes["customTrust"] == "1")

        let reworded = result.findings.map { finding in
            var finding = finding
            finding.message = "Reworded: " + String(finding.message.reversed())
            return finding
        }
        #expect(reworded.map(\.message) != result.findings.map(\.message))
        let again = app.surface(findings: reworded)
        #expect(try Self.shape(again) == Self.shape(surface))
        #expect(again.count == surface.count && again.count > 3)
    }
}
