import MoatRules

/// What the plan says for each kind of surface entry: its MASTG tests, how to trigger it, what to watch
/// for and what safe behaviour is. Only MASTG ids of `Taxonomy.mastg` are used (a test checks it).
struct PlanTexts {
    var mastg: [String]
    var masvs: [String]
    var trigger: [String]
    var watch: [String]
    var safe: String
    /// Order among sections of the same severity (lower first).
    var weight: Int

    static func texts(for key: String, entry: AttackSurface.Entry, bundle: String?) -> PlanTexts {
        let app = bundle ?? "BUNDLE_ID"
        switch key {
        case "urlSchemes", "urlHandlers":
            return PlanTexts(
                mastg: ["MASTG-TEST-0075"], masvs: ["MASVS-PLATFORM-1", "MASVS-CODE-4"],
                trigger: ["Start the app with the hooks (`frida -U -f \(app) -l hooks.js`, or `objection -g \(app) explore` then `import hooks.js`).",
                          "Open the cases of url-cases.txt one at a time: `sh openurl.sh` in a booted simulator with the app installed, or a single one with `xcrun simctl openurl booted 'URL'`; on a device, open them from Safari or Notes.",
                          "Open the bare scheme too (the first case of each scheme): a blank URL can reach hidden screens."],
                watch: ["The handler hook: every URL it receives, its return value, and what runs after it (file writes and their paths, Keychain changes, network requests, screens that act).",
                        "Crashes or exceptions on over-long values, format strings and wrong types (memory corruption, unchecked casts).",
                        "Actions done without asking the user (a transfer, a deletion, a settings change) and file paths built from parameters."],
                safe: "Unknown hosts, paths and parameters are rejected; values are checked for type, length and characters; names never become paths (no `../` or `/` survives); sensitive actions ask the user to confirm; nothing crashes.",
                weight: 0)
        case "associatedDomains":
            return PlanTexts(
                mastg: ["MASTG-TEST-0070"], masvs: ["MASVS-PLATFORM-1", "MASVS-CODE-4"],
                trigger: ["Start the app with the hooks (`frida -U -f \(app) -l hooks.js`).",
                          "Open the https cases of url-cases.txt: `xcrun simctl openurl booted 'https://…'` opens the app only when the simulator has fetched the domain's apple-app-site-association file (on a device, tap the links in Notes or Messages; Safari's address bar does not open universal links)."],
                watch: ["The continueUserActivity hook: the activity type (NSUserActivityTypeBrowsingWeb), its webpageURL, and what the handler does with paths the apple-app-site-association file does not list.",
                        "The same parameter handling as for the custom schemes: crashes, file paths from parameters, actions without confirmation."],
                safe: "Only the paths the apple-app-site-association file claims are handled, each parameter validated; other links fall back to Safari; sensitive actions ask the user to confirm.",
                weight: 1)
        case "javaScriptBridges":
            return PlanTexts(
                mastg: ["MASTG-TEST-0078"], masvs: ["MASVS-PLATFORM-2"],
                trigger: ["Open the screen with the web view, then run script in its page: Safari's Web Inspector on a debug or inspectable build, or an interception proxy that injects a `<script>` into the page the app loads.",
                          "Call the bridge from that script: `window.webkit.messageHandlers.NAME.postMessage({…})` for script message handlers (try wrong types, missing keys, huge values), the exported methods for JSExport objects, the names placed in the JSContext."],
                watch: ["The bridge hooks: the message body, its frame (main frame or not) and origin, and what native code runs next (transfers, file reads, Keychain).",
                        "Whether messages from an iframe or another origin are acted on."],
                safe: "The handler checks `frameInfo.isMainFrame` and `securityOrigin` against an allowlist, validates the body's types, and exposes nothing that reads secrets or acts without the user.",
                weight: 2)
        case "webViews":
            return PlanTexts(
                mastg: ["MASTG-TEST-0076", "MASTG-TEST-0077"], masvs: ["MASVS-PLATFORM-2"],
                trigger: ["Go through every screen that shows a web view, through an interception proxy.",
                          "Replace a page with one that runs script and loads `file:///` URLs of the app's container."],
                watch: ["The web view hooks: plain http URLs, file URLs with read access to more than their folder, HTML loaded with the app bundle as base URL, script built from app data in evaluateJavaScript."],
                safe: "Only https or bundled content; read access limited to the page's own folder; no bridge reachable from remote content; UIWebView not used.",
                weight: 3)
        case "deserialization":
            return PlanTexts(
                mastg: ["MASTG-TEST-0079"], masvs: ["MASVS-CODE-4"],
                trigger: ["Use the feature that decodes this data (import, cache, message, restore), then replace the data with crafted input: an archive naming an unexpected class, truncated data, deep nesting, XML with an external entity."],
                watch: ["The unarchiver and parser hooks: data length and preview, requiresSecureCoding, the classes allowed, shouldResolveExternalEntities; crashes and exceptions on crafted input."],
                safe: "NSKeyedUnarchiver with secure coding and explicit classes (`unarchivedObject(ofClass:from:)`); external entities off; decoded values validated before use.",
                weight: 4)
        case "fileImports", "documentTypes":
            return PlanTexts(
                mastg: ["MASTG-TEST-0072"], masvs: ["MASVS-PLATFORM-1", "MASVS-CODE-4"],
                trigger: ["Bring a file in through this way (Files, share sheet, drop, AirDrop, Multipeer, opening a document in the app) with a crafted name (`../../Library/Preferences/x.plist`, `a%2F..%2Fb`, an over-long name) and crafted content."],
                watch: ["The file-write hooks: destination paths built from the incoming name; the parser hooks on the content; crashes."],
                safe: "The name is reduced to a single path component (no `..` or `/`), the file lands in a folder of the app's choosing, the content is parsed as untrusted.",
                weight: 5)
        case "networkEndpoints", "transportSecurityExceptions", "pinnedDomains":
            return PlanTexts(
                mastg: key == "transportSecurityExceptions" ? ["MASTG-TEST-0065", "MASTG-TEST-0066"] : ["MASTG-TEST-0067", "MASTG-TEST-0068"],
                masvs: ["MASVS-NETWORK-1", "MASVS-NETWORK-2"],
                trigger: ["Route the simulator or device through an interception proxy (mitmproxy, Burp) and use the feature that reaches `\(entry.value)`: first with the proxy's CA trusted, then without it."],
                watch: ["Cleartext requests; connections that succeed through the proxy although the host should be pinned; the trust hooks (SecTrustEvaluateWithError's result, the challenge delegates)."],
                safe: "No cleartext; TLS 1.2 or later; with an untrusted certificate every connection fails; pinned hosts fail even with the proxy's CA trusted.",
                weight: 6)
        case "pasteboard":
            return PlanTexts(
                mastg: ["MASTG-TEST-0073"], masvs: ["MASVS-PLATFORM-1", "MASVS-STORAGE-2"],
                trigger: ["Copy and paste in the app (account numbers, codes, addresses); read the pasteboard from another app or with `xcrun simctl pbpaste booted`."],
                watch: ["The UIPasteboard hooks: what is written and whether it is marked local-only with an expiration; what is read and when (iOS shows a paste banner)."],
                safe: "Sensitive values are never copied, or only with `localOnly` and a short `expirationDate`; pasted content is validated.",
                weight: 7)
        case "pushNotifications":
            return PlanTexts(
                mastg: [], masvs: ["MASVS-PLATFORM-1", "MASVS-CODE-4"],
                trigger: ["Send crafted payloads to the simulator: `xcrun simctl push booted \(app) payload.apns` (unknown keys, links to other apps, over-long strings, wrong types)."],
                watch: ["The notification hooks: the payload and what the app does with it (opens links, changes state) without the user acting."],
                safe: "Payload fields are validated; links are checked against an allowlist; nothing sensitive happens without the user.",
                weight: 8)
        case "extensions":
            return PlanTexts(
                mastg: ["MASTG-TEST-0072"], masvs: ["MASVS-PLATFORM-1"],
                trigger: ["Invoke the extension from another app (share from Safari, Photos or Files) with crafted items; attach Frida to the extension's own process (`frida -U -n EXTENSION -l hooks.js`)."],
                watch: ["What the extension reads from its input items and writes to the shared app group container (file-write hooks)."],
                safe: "Input items are validated; only what the feature needs is written to the shared container.",
                weight: 9)
        default:
            let shares = entry.kind?.lowercased().contains("share") == true
            return PlanTexts(
                mastg: shares ? ["MASTG-TEST-0071"] : [], masvs: ["MASVS-PLATFORM-1"],
                trigger: ["Exercise this entry point from another app, device or the system (Handoff, Siri, Bonjour, Bluetooth, Multipeer) with crafted input."],
                watch: ["The hooks of its handler, and the file, Keychain and parser hooks while it runs."],
                safe: "Input from the other side is authenticated where possible and validated; nothing sensitive happens without the user.",
                weight: 10)
        }
    }

    static let trust = PlanTexts(
        mastg: ["MASTG-TEST-0067", "MASTG-TEST-0068"], masvs: ["MASVS-NETWORK-1", "MASVS-NETWORK-2"],
        trigger: ["Route traffic through an interception proxy whose CA is not trusted by the device, and use every feature that talks to a server; then trust the proxy's CA and repeat for the pinned hosts."],
        watch: ["SecTrustEvaluateWithError returning false (or SecTrustEvaluate a failing result) while the request still completes; challenge delegates calling the completion handler with useCredential after a failed or missing evaluation."],
        safe: "With an untrusted certificate every connection is cancelled; pinned hosts refuse the proxy's certificate even when its CA is trusted.",
        weight: 6)

    static let storage = PlanTexts(
        mastg: ["MASTG-TEST-0052"], masvs: ["MASVS-STORAGE-1"],
        trigger: ["Use every feature that saves data (sign in, statements, receipts, settings); then inspect the container: `xcrun simctl get_app_container booted BUNDLE_ID data`."],
        watch: ["The file-write hooks: each path and its protection (NSDataWritingFileProtection…, NSFileProtectionKey); the Keychain hooks: each item's class, account and kSecAttrAccessible value."],
        safe: "Secrets only in the Keychain with kSecAttrAccessibleWhenUnlocked(ThisDeviceOnly) or AfterFirstUnlockThisDeviceOnly; sensitive files with complete protection; nothing sensitive in Documents, caches or user defaults.",
        weight: 11)
}
