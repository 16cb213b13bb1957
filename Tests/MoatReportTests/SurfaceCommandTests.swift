import Foundation
import Testing

/// `moat surface` on a small but complete app (loose files: Info.plist, entitlements, Swift and
/// Objective-C), and the attack-surface section of the scan reports.
@Suite struct SurfaceCommandTests {
    static let files: [String: String] = [
        "App/Info.plist": SurfaceFixture.info, "App/App.entitlements": SurfaceFixture.entitlements,
        "App/AppDelegate.swift": SurfaceFixture.appDelegate, "App/Sync.swift": SurfaceFixture.sync,
        "App/Web/HelpController.swift": SurfaceFixture.help, "App/Legacy/NTArchive.m": SurfaceFixture.archive,
    ]

    func tree() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("moat-surface-\(UUID().uuidString)")
        for (name, content) in Self.files {
            let url = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(content.utf8).write(to: url)
        }
        return root
    }

    /// 1-based line of the first line containing `needle` (0 when absent, which fails the comparison).
    static func line(_ needle: String, in text: String) -> Int {
        (text.components(separatedBy: "\n").firstIndex { $0.contains(needle) } ?? -1) + 1
    }

    /// `path:line:column` of `needle` (column in UTF-8 bytes, as Moat reports).
    static func place(_ needle: String, in text: String, path: String) -> String {
        let number = line(needle, in: text)
        let lineText = text.components(separatedBy: "\n")[max(0, number - 1)]
        let column = lineText.range(of: needle).map { lineText.utf8.distance(from: lineText.utf8.startIndex, to: $0.lowerBound.samePosition(in: lineText.utf8) ?? lineText.utf8.startIndex) + 1 } ?? 0
        return "\(path):\(number):\(column)"
    }

    /// `value @ path:line[:column] [keyPath]` of every entry of a section.
    static func entries(_ surface: [String: Any], _ key: String) -> [[String: Any]] {
        (surface[key] as? [[String: Any]]) ?? []
    }

    static func where_(_ location: Any?) -> String {
        guard let location = location as? [String: Any] else { return "?" }
        let path = location["path"] as? String ?? "?"
        let line = location["line"] as? Int ?? 0
        if let keyPath = location["keyPath"] as? String { return "\(path):\(line) (\(keyPath))" }
        return "\(path):\(line):\(location["column"] as? Int ?? 0)"
    }

    static func summary(_ entry: [String: Any]) -> String {
        "\(entry["value"] as? String ?? "?") @ \(where_(entry["location"]))"
    }

    static func handlers(_ entry: [String: Any]) -> [String] {
        ((entry["handlers"] as? [[String: Any]]) ?? []).map { "\($0["name"] as? String ?? "?") @ \(where_($0["location"]))" }
    }

    static func notes(_ entry: [String: Any]) -> [String] {
        ((entry["notes"] as? [[String: Any]]) ?? []).map { "\($0["ruleId"] as? String ?? "?") @ \(where_($0["location"]))" }
    }

    @Test func jsonListsEveryEntryWithItsLocationHandlerAndRisk() throws {
        let root = try tree()
        defer { try? FileManager.default.removeItem(at: root) }
        // The experimental suite too: the legacy exception's note comes from MOAT-NET-002, one of its rules.
        let run = try CommandLineTests.run(["surface", root.path, "--no-cache", "--format", "json", "--include", "experimental"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty)
        let document = try JSONTools.object(run.stdout)
        #expect(Set(document.keys) == ["tool", "app", "roots", "filesScanned", "summary", "surface", "errors"])
        let app = try #require(document["app"] as? [String: Any])
        #expect(app["name"] as? String == "Notes")
        #expect(app["bundleIdentifier"] as? String == "com.example.notes")
        let surface = try #require(document["surface"] as? [String: Any])
        let summary = try #require(document["summary"] as? [String: Int])
        // Every section is present in both, even when empty.
        #expect(Set(summary.keys) == Set(surface.keys))
        #expect(summary.count == 20)
        #expect(summary["extensions"] == 0 && (surface["extensions"] as? [Any])?.isEmpty == true)

        let plist = SurfaceFixture.info
        let delegate = SurfaceFixture.appDelegate
        let openURL = Self.place("application(_ app: UIApplication, open url", in: delegate, path: "App/AppDelegate.swift")
        let continueActivity = Self.place("application(_ application: UIApplication, continue", in: delegate, path: "App/AppDelegate.swift")
        let remote = Self.place("application(_ application: UIApplication, didReceiveRemoteNotification", in: delegate, path: "App/AppDelegate.swift")

        // URL scheme, its handler, and whether the handler validates.
        let schemes = Self.entries(surface, "urlSchemes")
        #expect(schemes.map(Self.summary) == ["notesapp @ App/Info.plist:\(Self.line("<string>notesapp</string>", in: plist)) (CFBundleURLTypes[0].CFBundleURLSchemes[0])"])
        let scheme = try #require(schemes.first)
        #expect(Self.handlers(scheme) == ["application(_:open:options:) @ \(openURL)"])
        #expect(scheme["unit"] as? String == "Notes")
        let attributes = try #require(scheme["attributes"] as? [String: String])
        #expect(attributes["urlName"] == "com.example.notes.open")
        #expect(attributes["validation"] == "no unvalidated sensitive action found (MOAT-PLAT-303)")
        #expect(scheme["risk"] as? String == "Any app or web page can open notesapp:// URLs with parameters it chooses, and another app can register the same scheme.")
        // Every key is written, null when absent.
        #expect(Set(scheme.keys) == ["unit", "value", "kind", "detail", "location", "handlers", "risk", "attributes", "notes", "alsoAt"])
        #expect(scheme["kind"] is NSNull)

        // Universal links: applinks with its handler; webcredentials without.
        let domains = Self.entries(surface, "associatedDomains")
        #expect(domains.map(Self.summary) == [
            "applinks:notes.example.com @ App/App.entitlements:\(Self.line("applinks:", in: SurfaceFixture.entitlements)) (com.apple.developer.associated-domains[0])",
            "webcredentials:notes.example.com @ App/App.entitlements:\(Self.line("webcredentials:", in: SurfaceFixture.entitlements)) (com.apple.developer.associated-domains[1])",
        ])
        #expect(domains.map(Self.handlers) == [["application(_:continue:restorationHandler:) @ \(continueActivity)"], []])
        #expect(Self.entries(surface, "urlHandlers").map(Self.summary) == ["application(_:open:options:) @ \(openURL)",
                                                                            "application(_:continue:restorationHandler:) @ \(continueActivity)"])

        // Document types, the exported UTI and opening in place; the URL handler receives the documents.
        let documents = Self.entries(surface, "documentTypes")
        #expect(documents.map(Self.summary) == [
            "Notes Archive @ App/Info.plist:\(Self.line("<key>CFBundleTypeName</key>", in: plist) - 1) (CFBundleDocumentTypes[0])",
            "com.example.notes.archive @ App/Info.plist:\(Self.line("<key>UTTypeIdentifier</key>", in: plist) - 1) (UTExportedTypeDeclarations[0])",
            "LSSupportsOpeningDocumentsInPlace @ App/Info.plist:\(Self.line("LSSupportsOpeningDocumentsInPlace", in: plist)) (LSSupportsOpeningDocumentsInPlace)",
        ])
        #expect(documents.map { $0["kind"] as? String } == ["document type", "exported UTI", "setting"])
        #expect(documents.first?["detail"] as? String == "content types: com.example.notes.archive; role Editor; rank Owner")
        #expect(documents.dropFirst().first?["detail"] as? String == "conforms to public.data; extensions: notesarchive")
        #expect(Self.entries(surface, "fileImports").map(Self.summary) == ["application(_:open:options:) @ \(openURL)"])
        #expect(Self.entries(surface, "fileImports").first?["kind"] as? String == "opened document")

        #expect(Self.entries(surface, "appGroups").map(Self.summary)
                == ["group.com.example.notes @ App/App.entitlements:\(Self.line("group.com.example.notes", in: SurfaceFixture.entitlements)) (com.apple.security.application-groups[0])"])

        // The web view, its bridge and the handler that receives script messages.
        let help = SurfaceFixture.help
        let handler = "userContentController(_:didReceive:) @ " + Self.place("userContentController(_ userContentController", in: help, path: "App/Web/HelpController.swift")
        let webViews = Self.entries(surface, "webViews")
        #expect(webViews.map(Self.summary) == ["WKWebView @ " + Self.place("WKWebView(frame", in: help, path: "App/Web/HelpController.swift")])
        #expect(webViews.first.map(Self.handlers) == [handler])
        #expect(webViews.first?["detail"] as? String == "bridges in this file: help")
        let bridges = Self.entries(surface, "javaScriptBridges")
        #expect(bridges.map(Self.summary) == ["help @ " + Self.place("webView.configuration", in: help, path: "App/Web/HelpController.swift")])
        #expect(bridges.first.map(Self.handlers) == [handler])
        #expect(bridges.first?["kind"] as? String == "script message handler")

        // Deserialization in Swift and Objective-C, with the finding about the insecure one.
        let archive = SurfaceFixture.archive
        let decoders = Self.entries(surface, "deserialization")
        #expect(decoders.map(Self.summary) == [
            "NSKeyedUnarchiver unarchiveObjectWithData: @ " + Self.place("[NSKeyedUnarchiver", in: archive, path: "App/Legacy/NTArchive.m"),
            "JSONDecoder.decode(_:from:) @ " + Self.place("JSONDecoder()", in: SurfaceFixture.sync, path: "App/Sync.swift"),
        ])
        #expect(decoders.map(Self.notes) == [["MOAT-CODE-001 @ " + Self.place("[NSKeyedUnarchiver", in: archive, path: "App/Legacy/NTArchive.m")], []])

        // Endpoints: the pinned https host and the http host its ATS exception lets through; the URL in a
        // comment is not one.
        let endpoints = Self.entries(surface, "networkEndpoints")
        #expect(endpoints.map(Self.summary) == [
            "api.example.com @ " + Self.place("\"https://api.example.com", in: SurfaceFixture.sync, path: "App/Sync.swift"),
            "legacy.example.com @ " + Self.place("\"http://legacy.example.com", in: SurfaceFixture.sync, path: "App/Sync.swift"),
        ])
        #expect(endpoints.map { $0["attributes"] as? [String: String] ?? [:] } == [
            ["schemes": "https", "pinned": "NSPinnedDomains", "ats": "default"],
            ["schemes": "http", "pinned": "no", "ats": "exception legacy.example.com"],
        ])
        let exceptions = Self.entries(surface, "transportSecurityExceptions")
        #expect(exceptions.map(Self.summary) == ["legacy.example.com @ App/Info.plist:\(Self.line("<key>legacy.example.com</key>", in: plist)) (NSAppTransportSecurity.NSExceptionDomains.legacy.example.com)"])
        #expect(exceptions.first?["kind"] as? String == "insecure exception")
        #expect(exceptions.first.map(Self.notes) == ["MOAT-NET-002 @ App/Info.plist:\(Self.line("NSExceptionAllowsInsecureHTTPLoads", in: plist)) (NSAppTransportSecurity.NSExceptionDomains.legacy.example.com.NSExceptionAllowsInsecureHTTPLoads)"])
        #expect(Self.entries(surface, "pinnedDomains").map(Self.summary) == ["api.example.com @ App/Info.plist:\(Self.line("<key>api.example.com</key>", in: plist)) (NSAppTransportSecurity.NSPinnedDomains.api.example.com)"])

        // Pasteboard reads (Swift and Objective-C) and the write.
        let pasteboard = Self.entries(surface, "pasteboard")
        #expect(pasteboard.map { "\(Self.summary($0)) \($0["kind"] as? String ?? "?")" } == [
            "UIPasteboard.general.string @ " + Self.place("[UIPasteboard generalPasteboard]", in: archive, path: "App/Legacy/NTArchive.m") + " read",
            "UIPasteboard.general.string @ " + Self.place("UIPasteboard.general.string", in: SurfaceFixture.sync, path: "App/Sync.swift") + " read",
            "UIPasteboard.general.string @ " + Self.place("UIPasteboard.general.string = text", in: SurfaceFixture.sync, path: "App/Sync.swift") + " write",
        ])

        // Push: the delegate adoption and the remote notification handler.
        #expect(Self.entries(surface, "pushNotifications").map(Self.summary) == [
            "AppDelegate: UNUserNotificationCenterDelegate @ " + Self.place("AppDelegate: UIResponder", in: delegate, path: "App/AppDelegate.swift"),
            "application(_:didReceiveRemoteNotification:fetchCompletionHandler:) @ \(remote)",
        ])
        #expect(Self.entries(surface, "otherIPC").map(Self.summary) == ["NSUserActivity @ " + Self.place("NSUserActivity,", in: delegate, path: "App/AppDelegate.swift")])
    }

    @Test func textAndMarkdownShowTheKeyLines() throws {
        let root = try tree()
        defer { try? FileManager.default.removeItem(at: root) }
        let text = try CommandLineTests.run(["surface", root.path, "--no-cache"])
        #expect(text.status == 0, "\(text.stderr)")
        let plistLine = Self.line("<string>notesapp</string>", in: SurfaceFixture.info)
        let openURL = Self.place("application(_ app: UIApplication, open url", in: SurfaceFixture.appDelegate, path: "App/AppDelegate.swift")
        #expect(text.stdout.hasPrefix("Attack surface — Notes (com.example.notes)\n"))
        #expect(text.stdout.contains("\nURL schemes (1)\n  notesapp  App/Info.plist:\(plistLine) (CFBundleURLTypes[0].CFBundleURLSchemes[0])\n"))
        #expect(text.stdout.contains("      handler: application(_:open:options:) at \(openURL)\n"))
        #expect(text.stdout.contains("      validation: no unvalidated sensitive action found (MOAT-PLAT-303)\n"))
        #expect(text.stdout.contains("\nPasteboard (3)\n"))
        #expect(text.stdout.contains("  legacy.example.com  [http]  App/Sync.swift:"))
        #expect(text.stdout.contains("\nNothing found for: Queried URL schemes, App extensions, Keychain access groups, Other capabilities, Privacy permissions.\n"))
        #expect(text.stdout.contains(": 24 entries: URL schemes (1), "))
        #expect(!text.stdout.contains("\u{1B}["))

        let markdown = try CommandLineTests.run(["surface", root.path, "--no-cache", "--format", "markdown",
                                                 "--source-link-base", "https://example.com/blob/abc"])
        #expect(markdown.status == 0)
        #expect(markdown.stdout.hasPrefix("## Attack surface — Notes (com.example.notes)\n"))
        #expect(markdown.stdout.contains("| URL schemes | 1 |\n"))
        #expect(markdown.stdout.contains("| App extensions | 0 |\n"))
        #expect(markdown.stdout.contains("### URL schemes (1)\n\n- `notesapp` · [App/Info.plist:\(plistLine) (CFBundleURLTypes\\[0\\].CFBundleURLSchemes\\[0\\])](https://example.com/blob/abc/App/Info.plist#L\(plistLine))"))
        #expect(markdown.stdout.contains("  - Handler: `application(_:open:options:)` at [\(openURL)](https://example.com/blob/abc/App/AppDelegate.swift#L"))
        #expect(markdown.stdout.contains("  - **MOAT-CODE-001** (medium) "))
    }

    @Test func usageErrorsAndOutputFile() throws {
        let root = try tree()
        defer { try? FileManager.default.removeItem(at: root) }
        let help = try CommandLineTests.run(["help", "surface"])
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("Usage: moat surface [PATH ...] [options]"))
        #expect(help.stdout.contains("--format FORMAT        text, json, markdown (default: text)"))
        #expect(try CommandLineTests.run(["help"]).stdout.contains("  surface [PATH ...]   List where data enters the app"))
        let badFormat = try CommandLineTests.run(["surface", root.path, "--format", "sarif"])
        #expect(badFormat.status == 2)
        #expect(badFormat.stderr.contains("unknown format 'sarif' for --format (expected text, json, markdown)"))
        #expect(badFormat.stderr.contains("Usage: moat surface"))
        let badOption = try CommandLineTests.run(["surface", root.path, "--fail-on", "high"])
        #expect(badOption.status == 2)
        #expect(badOption.stderr.contains("unknown option '--fail-on'"))
        let missing = try CommandLineTests.run(["surface", root.appendingPathComponent("nope").path])
        #expect(missing.status == 2)
        let output = root.appendingPathComponent("surface.json")
        let written = try CommandLineTests.run(["surface", root.path, "--no-cache", "-f", "json", "-o", output.path])
        #expect(written.status == 0, "findings (a high one here) do not change the exit code")
        #expect(written.stdout.isEmpty)
        let document = try JSONTools.object(String(decoding: try Data(contentsOf: output), as: UTF8.self))
        #expect((document["summary"] as? [String: Int])?["urlSchemes"] == 1)
    }

    @Test func scanReportsCarryTheSurface() throws {
        let root = try tree()
        defer { try? FileManager.default.removeItem(at: root) }
        // JSON keeps its four members; the surface is `moat surface --format json`'s.
        let json = try JSONTools.object(try CommandLineTests.run(["scan", root.path, "--no-cache", "--format", "json"]).stdout)
        #expect(Set(json.keys) == ["tool", "findings", "errors", "summary"])
        let sarif = try JSONTools.object(try CommandLineTests.run(["scan", root.path, "--no-cache", "--format", "sarif"]).stdout)
        let run = try #require((sarif["runs"] as? [[String: Any]])?.first)
        let surface = try #require((run["properties"] as? [String: Any])?["attackSurface"] as? [String: Any])
        #expect(Self.entries(surface, "urlSchemes").map(Self.summary) == ["notesapp @ App/Info.plist:\(Self.line("<string>notesapp</string>", in: SurfaceFixture.info)) (CFBundleURLTypes[0].CFBundleURLSchemes[0])"])
        #expect(Self.entries(surface, "pasteboard").count == 3)
        // Inventory is not a finding: it is in the run's properties, typed, and not among the results.
        let inventory = try #require((run["properties"] as? [String: Any])?["inventory"] as? [[String: Any]])
        let bridge = try #require(inventory.first { $0["ruleId"] as? String == "MOAT-PLAT-209" })
        #expect(bridge["kind"] as? String == "scriptMessageHandler" && bridge["name"] as? String != nil)
        #expect(((bridge["location"] as? [String: Any])?["line"] as? Int ?? 0) > 0)
        let results = (run["results"] as? [[String: Any]]) ?? []
        #expect(!results.isEmpty && !results.contains { inventory.map { $0["ruleId"] as? String }.contains($0["ruleId"] as? String) })
        let included = try JSONTools.object(try CommandLineTests.run(["scan", root.path, "--no-cache", "--format", "sarif",
                                                                     "--include-inventory"]).stdout)
        let includedResults = ((included["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]]) ?? []
        #expect(includedResults.count == results.count + inventory.count)

        let text = try CommandLineTests.run(["scan", root.path, "--no-cache"]).stdout
        #expect(text.contains("\nAttack surface: 24 entries: URL schemes (1), "))
        let markdown = try CommandLineTests.run(["scan", root.path, "--no-cache", "--format", "markdown"]).stdout
        #expect(markdown.contains("<details><summary>Attack surface (24 entries)</summary>\n\n#### URL schemes (1)\n\n- `notesapp` · App/Info.plist:"))
        let html = try CommandLineTests.run(["scan", root.path, "--no-cache", "--format", "html"]).stdout
        let section = try #require(html.components(separatedBy: "<section id=\"attack-surface\">").last?.components(separatedBy: "</section>").first)
        #expect(section.contains("<details class=\"surface\" open id=\"surface-urlSchemes\"><summary><strong>URL schemes</strong> <span class=\"count\">1</span></summary>"))
        #expect(section.contains("<tr id=\"entry-urlSchemes-1\"><td><code>notesapp</code><br><span class=\"detail\">handled by application(_:open:options:)</span></td><td><code class=\"where\">App/Info.plist:"))
        #expect(section.contains("<code>userContentController(_:didReceive:)</code>"))
        // Inventory findings stay available, collapsed, under the surface.
        #expect(section.contains("<h3>Inventory findings</h3>"))
    }
}

/// The files of the app `SurfaceCommandTests` scans.
enum SurfaceFixture {
    static let info = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        	<key>CFBundleDisplayName</key>
        	<string>Notes</string>
        	<key>CFBundleIdentifier</key>
        	<string>com.example.notes</string>
        	<key>CFBundleURLTypes</key>
        	<array>
        		<dict>
        			<key>CFBundleURLName</key>
        			<string>com.example.notes.open</string>
        			<key>CFBundleURLSchemes</key>
        			<array>
        				<string>notesapp</string>
        			</array>
        		</dict>
        	</array>
        	<key>CFBundleDocumentTypes</key>
        	<array>
        		<dict>
        			<key>CFBundleTypeName</key>
        			<string>Notes Archive</string>
        			<key>LSItemContentTypes</key>
        			<array>
        				<string>com.example.notes.archive</string>
        			</array>
        			<key>CFBundleTypeRole</key>
        			<string>Editor</string>
        			<key>LSHandlerRank</key>
        			<string>Owner</string>
        		</dict>
        	</array>
        	<key>UTExportedTypeDeclarations</key>
        	<array>
        		<dict>
        			<key>UTTypeIdentifier</key>
        			<string>com.example.notes.archive</string>
        			<key>UTTypeConformsTo</key>
        			<array>
        				<string>public.data</string>
        			</array>
        			<key>UTTypeTagSpecification</key>
        			<dict>
        				<key>public.filename-extension</key>
        				<array>
        					<string>notesarchive</string>
        				</array>
        			</dict>
        		</dict>
        	</array>
        	<key>LSSupportsOpeningDocumentsInPlace</key>
        	<true/>
        	<key>NSAppTransportSecurity</key>
        	<dict>
        		<key>NSExceptionDomains</key>
        		<dict>
        			<key>legacy.example.com</key>
        			<dict>
        				<key>NSExceptionAllowsInsecureHTTPLoads</key>
        				<true/>
        			</dict>
        		</dict>
        		<key>NSPinnedDomains</key>
        		<dict>
        			<key>api.example.com</key>
        			<dict>
        				<key>NSPinnedLeafIdentities</key>
        				<array>
        					<dict>
        						<key>SPKI-SHA256-BASE64</key>
        						<string>PIN-PLACEHOLDER</string>
        					</dict>
        				</array>
        			</dict>
        		</dict>
        	</dict>
        </dict>
        </plist>
        """

    static let entitlements = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        	<key>com.apple.developer.associated-domains</key>
        	<array>
        		<string>applinks:notes.example.com</string>
        		<string>webcredentials:notes.example.com</string>
        	</array>
        	<key>com.apple.security.application-groups</key>
        	<array>
        		<string>group.com.example.notes</string>
        	</array>
        </dict>
        </plist>
        """

    static let appDelegate = """
        import UIKit
        import UserNotifications

        @main
        final class AppDelegate: UIResponder, UIApplicationDelegate, UNUserNotificationCenterDelegate {
            func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
                guard url.isFileURL else { return Router.shared.open(url) }
                return DocumentStore.shared.importArchive(at: url)
            }

            func application(_ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any],
                             fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void) {
                completionHandler(.noData)
            }

            func application(_ application: UIApplication, continue userActivity: NSUserActivity,
                             restorationHandler: @escaping ([UIUserActivityRestoring]?) -> Void) -> Bool {
                guard userActivity.activityType == NSUserActivityTypeBrowsingWeb, let url = userActivity.webpageURL else { return false }
                return Router.shared.open(url)
            }
        }
        """

    static let sync = """
        import UIKit

        struct Note: Codable { var text: String }

        enum Sync {
            static let api = URL(string: "https://api.example.com/v2/notes")!
            static let legacyFeed = "http://legacy.example.com/feed"
            // "https://commented.example.com" is not code.

            static func decode(_ data: Data) throws -> [Note] {
                try JSONDecoder().decode([Note].self, from: data)
            }

            static func pasted() -> String? {
                UIPasteboard.general.string
            }

            static func copy(_ text: String) {
                UIPasteboard.general.string = text
            }
        }
        """

    static let help = """
        import WebKit

        final class HelpController: UIViewController, WKScriptMessageHandler {
            let webView = WKWebView(frame: .zero, configuration: WKWebViewConfiguration())

            override func viewDidLoad() {
                super.viewDidLoad()
                webView.configuration.userContentController.add(self, name: "help")
            }

            func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage) {
                guard message.frameInfo.isMainFrame, message.frameInfo.securityOrigin.host == "notes.example.com" else { return }
                print(message.body)
            }
        }
        """

    static let archive = """
        #import <UIKit/UIKit.h>

        @implementation NTArchive

        - (id)load:(NSData *)data {
            return [NSKeyedUnarchiver unarchiveObjectWithData:data];
        }

        - (NSString *)pasted {
            return [UIPasteboard generalPasteboard].string;
        }

        @end
        """
}
