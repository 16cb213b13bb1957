import Foundation
import Testing

/// `moat surface Examples/LeakyBank`, as a user would run it.
struct SurfaceExampleTests {
    static func surface(_ options: [String] = []) throws -> [String: Any] {
        let (status, stdout, stderr) = try ExampleAppTests.run(["surface", ExampleAppTests.exampleApp.path, "--no-cache", "--format", "json"]
                                                               + options)
        #expect(status == 0, "stderr: \(stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: stdout) as? [String: Any])
        #expect((document["errors"] as? [Any])?.isEmpty == true)
        return try #require(document["surface"] as? [String: Any])
    }

    static func entries(_ surface: [String: Any], _ key: String) -> [[String: Any]] {
        (surface[key] as? [[String: Any]]) ?? []
    }

    static func place(_ location: Any?) -> String {
        guard let location = location as? [String: Any] else { return "?" }
        let base = "\(location["path"] as? String ?? "?"):\(location["line"] as? Int ?? 0)"
        if let keyPath = location["keyPath"] as? String { return base + " (\(keyPath))" }
        return base + ":\(location["column"] as? Int ?? 0)"
    }

    static func summary(_ entry: [String: Any]) -> String {
        "\(entry["value"] as? String ?? "?") @ \(place(entry["location"]))"
    }

    @Test func listsTheEntryPointsOfTheExampleApp() throws {
        let surface = try Self.surface()

        let schemes = Self.entries(surface, "urlSchemes")
        #expect(schemes.map(Self.summary) == ["leakybank @ LeakyBank/Info.plist:28 (CFBundleURLTypes[0].CFBundleURLSchemes[0])",
                                              "myapp @ LeakyBank/Info.plist:36 (CFBundleURLTypes[1].CFBundleURLSchemes[0])"])
        let leakybank = try #require(schemes.first)
        let handlers = (leakybank["handlers"] as? [[String: Any]]) ?? []
        #expect(handlers.map { "\($0["name"] as? String ?? "?") @ \(Self.place($0["location"]))" }
                == ["application(_:open:options:) @ LeakyBank/AppDelegate.swift:13:10",
                    "application:handleOpenURL: @ LeakyBank/Legacy/LBLegacyURLHandler.m:10:9"])
        #expect(leakybank["unit"] as? String == "LeakyBank")
        let attributes = (leakybank["attributes"] as? [String: String]) ?? [:]
        #expect(attributes["urlName"] == "com.example.leakybank.transfer")
        #expect(attributes["validation"] == "a handler performs a sensitive action without validation or confirmation (MOAT-PLAT-303); a handler stores, fetches or shows the URL's values without validating them (MOAT-PLAT-305); deprecated handler (MOAT-PLAT-108)")
        #expect(((schemes.last?["attributes"] as? [String: String]) ?? [:])["validation"]
                == "a handler performs a sensitive action without validation or confirmation (MOAT-PLAT-303); a handler stores, fetches or shows the URL's values without validating them (MOAT-PLAT-305); deprecated handler (MOAT-PLAT-108); generic scheme name (MOAT-PLAT-109)")

        let domains = Self.entries(surface, "associatedDomains")
        #expect(domains.map(Self.summary) == ["applinks:leakybank.example.com @ LeakyBank/LeakyBank.entitlements:9 (com.apple.developer.associated-domains[0])"])
        // No code receives universal links: the finding says so on the entry.
        #expect((domains.first?["notes"] as? [[String: Any]])?.map { $0["ruleId"] as? String } == ["MOAT-PLAT-104"])

        #expect(Self.entries(surface, "appGroups").map(Self.summary)
                == ["group.com.example.leakybank @ LeakyBank/LeakyBank.entitlements:13 (com.apple.security.application-groups[0])"])

        let exceptions = Self.entries(surface, "transportSecurityExceptions")
        #expect(exceptions.map(Self.summary) == [
            "NSAllowsArbitraryLoads @ LeakyBank/Info.plist:46 (NSAppTransportSecurity.NSAllowsArbitraryLoads)",
            "legacy-rates.example.com @ LeakyBank/Info.plist:50 (NSAppTransportSecurity.NSExceptionDomains.legacy-rates.example.com)",
            "api.example.com @ LeakyBank/Info.plist:61 (NSAppTransportSecurity.NSExceptionDomains.api.example.com)",
        ])
        let legacy = try #require(exceptions.first { $0["value"] as? String == "legacy-rates.example.com" })
        #expect(legacy["kind"] as? String == "insecure exception")
        #expect(legacy["attributes"] as? [String: String] == ["insecure": "true", "allowsHTTP": "true", "includesSubdomains": "true",
                                                              "minimumTLS": "TLSv1.0"])
        // MOAT-NET-002 (insecure HTTP allowed for the domain) is an experimental rule: its note is not here.
        #expect((legacy["notes"] as? [[String: Any]])?.map { $0["ruleId"] as? String } == ["MOAT-NET-105", "MOAT-NET-003", "MOAT-NET-102"])
        let api = try #require(exceptions.first { $0["value"] as? String == "api.example.com" })
        #expect(api["kind"] as? String == "exception")

        #expect(Self.entries(surface, "webViews").map { "\(Self.summary($0)) \($0["kind"] as? String ?? "?")" } == [
            "UIWebView @ LeakyBank/Base.lproj/Main.storyboard:33:29 Interface Builder",
            "WKWebView @ LeakyBank/Base.lproj/Main.storyboard:36:29 Interface Builder",
            "WKWebView @ LeakyBank/Legacy/LBOffersBridge.m:5:31 code",
            "UIWebView @ LeakyBank/Legacy/LBStatementArchive.m:23:5 code",
            "UIWebView @ LeakyBank/Web/HelpViewController.swift:6:19 code",
            "WKWebView @ LeakyBank/Web/HelpViewController.swift:16:27 code",
            "WKWebView @ LeakyBank/Web/OffersViewController.swift:7:26 code",
        ])
        #expect(Self.entries(surface, "javaScriptBridges").map(Self.summary) == [
            "log @ LeakyBank/Legacy/LBOffersBridge.m:12:5",
            "getSessionToken @ LeakyBank/Recall/OffersBridge.swift:12:9",
            "isSignedIn @ LeakyBank/Recall/OffersBridge.swift:14:9",
            "pushToken @ LeakyBank/Recall/OffersBridge.swift:16:9",
            "offers @ LeakyBank/Web/OffersViewController.swift:17:9",
            "RatesBridgeExports @ LeakyBank/Web/OffersViewController.swift:70:16",
        ])
        // Endpoints from URL literals: the two hosts written with http:// are reachable over plain HTTP because
        // ATS is off; the secrets feature's API host is only written with https://.
        #expect(Self.entries(surface, "networkEndpoints").map { "\(Self.summary($0)) \($0["kind"] as? String ?? "?")" } == [
            "partners.leakybank.example @ LeakyBank/Legacy/LBOffersBridge.m:13:39 http, https",
            "rates.leakybank.example @ LeakyBank/Network/APIClient.swift:5:27 http, https",
            "api.leakybank.example @ LeakyBank/Secrets/SecretLeaks.swift:36:21 https",
        ])
        // The peer-to-peer file transfer whose path handling is unsafe carries the path-traversal finding when
        // its experimental rule (MOAT-CODE-301) runs; by default neither import has a note.
        func importNotes(_ surface: [String: Any], _ place: String) throws -> [String?] {
            let entry = try #require(Self.entries(surface, "fileImports").first { Self.place($0["location"]) == place })
            return ((entry["notes"] as? [[String: Any]]) ?? []).map { $0["ruleId"] as? String }
        }
        let unsafe = "LeakyBank/Nearby/StatementImporter.swift:7:10", safe = "LeakyBank/Nearby/SafeStatementImporter.swift:8:10"
        #expect(try importNotes(surface, unsafe) == [])
        let experimental = try Self.surface(["--include", "experimental"])
        #expect(try importNotes(experimental, unsafe) == ["MOAT-CODE-301"])
        #expect(try importNotes(experimental, safe) == [])
        #expect(try importNotes(surface, safe) == [])
        // A named pasteboard (shared with the team's apps) is listed with its name, beside what is written to it.
        #expect(Self.entries(surface, "pasteboard").map { "\($0["kind"] as? String ?? "?"): \(Self.summary($0))" } == [
            "write: UIPasteboard.general.string @ LeakyBank/Secrets/SecretLeaks.swift:30:9",
            "write: UIPasteboard.general.setItems(_:options:) @ LeakyBank/Secrets/SecretLeaks.swift:31:9",
            "named pasteboard: \"com.example.leakybank.wallet\" @ LeakyBank/Wallet/WalletShare.swift:5:22",
            "write: UIPasteboard.string @ LeakyBank/Wallet/WalletShare.swift:8:9",
        ])
    }

    @Test func textNamesTheSchemeHandlerAndTheInsecureException() throws {
        let (status, stdout, stderr) = try ExampleAppTests.run(["surface", ExampleAppTests.exampleApp.path, "--no-cache"])
        #expect(status == 0, "stderr: \(stderr)")
        let text = String(decoding: stdout, as: UTF8.self)
        #expect(text.hasPrefix("Attack surface — LeakyBank (com.example.leakybank)\n"))
        #expect(text.contains("\n  leakybank  LeakyBank/Info.plist:28 (CFBundleURLTypes[0].CFBundleURLSchemes[0])\n      handled by application(_:open:options:), application:handleOpenURL:\n      handler: application(_:open:options:) at LeakyBank/AppDelegate.swift:13:10\n"))
        #expect(text.contains("\n  applinks:leakybank.example.com  [applinks]  LeakyBank/LeakyBank.entitlements:9 (com.apple.developer.associated-domains[0])\n"))
        #expect(text.contains("\n  group.com.example.leakybank  LeakyBank/LeakyBank.entitlements:13 (com.apple.security.application-groups[0])\n"))
        #expect(text.contains("\n  legacy-rates.example.com  [insecure exception]  LeakyBank/Info.plist:50 (NSAppTransportSecurity.NSExceptionDomains.legacy-rates.example.com)\n"))
        #expect(text.contains("      risk: Plain HTTP to legacy-rates.example.com and its subdomains is allowed: anyone on the network path can read and change that traffic.\n"))
        #expect(text.contains("\nWeb views (7)\n"))
    }

    @Test func builtAppEntriesCarryOnlyTheirOwnFindings() throws {
        let ipa = ExampleAppTests.packageRoot.appendingPathComponent("Fuzz/corpus/built-app-scan/demo.ipa")
        let (status, stdout, stderr) = try ExampleAppTests.run(["surface", ipa.path, "--no-cache", "--format", "json"])
        #expect(status == 0, "stderr: \(stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: stdout) as? [String: Any])
        let surface = try #require(document["surface"] as? [String: Any])
        let capabilities = Self.entries(surface, "capabilities")
        #expect(capabilities.map(Self.summary) == ["application-identifier @ demo.ipa!/Payload/Demo.app/Demo:1 (application-identifier)",
                                                   "get-task-allow @ demo.ipa!/Payload/Demo.app/Demo:1 (get-task-allow)"])
        // Whole-binary findings (on line 1 of the binary, with a symbol) are not about the entitlement.
        #expect(capabilities.map { (($0["notes"] as? [[String: Any]]) ?? []).map { $0["ruleId"] as? String ?? "?" } }
                == [[], ["MOAT-PLAT-102", "MOAT-PLAT-401"]])
        #expect(Self.entries(surface, "transportSecurityExceptions").map(Self.summary)
                == ["NSAllowsArbitraryLoads @ demo.ipa!/Payload/Demo.app/Info.plist:1 (NSAppTransportSecurity.NSAllowsArbitraryLoads)"])
    }
}
