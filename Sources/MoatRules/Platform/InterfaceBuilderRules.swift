import MoatCore
import MoatFormats
import MoatSyntax

enum InterfaceBuilderExamples {
    static func storyboard(_ views: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="22505" targetRuntime="iOS.CocoaTouch" propertyAccessControl="none" useAutolayout="YES">
            <scenes>
                <scene sceneID="s1">
                    <objects>
                        <viewController id="vc1" customClass="HelpViewController" customModule="Receipts" sceneMemberID="viewController">
                            <view key="view" contentMode="scaleToFill" id="v1">
                                <subviews>
        \(views)
                                </subviews>
                            </view>
                        </viewController>
                    </objects>
                </scene>
            </scenes>
        </document>

        """
    }

    static func describe(_ object: InterfaceBuilderObject) -> String {
        var parts: [String] = []
        if let id = object.id { parts.append("id \(id)") }
        if let controller = object.controller { parts.append("in \(controller)") }
        return parts.isEmpty ? "" : " (\(parts.joined(separator: ", ")))"
    }
}

public struct InterfaceBuilderUIWebViewRule: InterfaceBuilderRule {
    public static let description = RuleDescription(
        id: "MOAT-PLAT-110", slug: "uiwebview-in-interface-builder", title: "UIWebView placed in a storyboard or xib",
        severity: .high, confidence: .high, evidence: .configuration, cwe: [477, 749],
        masvs: ["MASVS-PLATFORM-2"], mastg: ["MASTG-TEST-0076"],
        rationale: "A `<webView>` object in an iOS storyboard or xib is a UIWebView: the app links the deprecated class even when no Swift or Objective-C code names it, so App Store Connect rejects it and the page runs without the protections of WKWebView (JavaScript cannot be turned off, file URLs can read other local files). This is a separate rule from MOAT-PLAT-001 because that one reads code: keeping one input kind per rule lets each be tested, suppressed and baselined on its own, while both share the same fix. AppKit xibs (`<webView>` is the legacy macOS WebView there) are not reported.",
        fix: "Replace the web view with a WebKit View (WKWebView) in Interface Builder and update its outlet type, or present SFSafariViewController for plain browsing.",
        references: ["https://developer.apple.com/documentation/uikit/uiwebview"],
        examples: [
            .triggering("App/Base.lproj/Help.storyboard", InterfaceBuilderExamples.storyboard("""
                                    ↓<webView contentMode="scaleToFill" id="web-1">
                                        <rect key="frame" x="0.0" y="0.0" width="375" height="667"/>
                                    </webView>
            """)),
            .nonTriggering("App/Base.lproj/Help.storyboard", InterfaceBuilderExamples.storyboard("""
                                    <wkWebView contentMode="scaleToFill" id="web-1">
                                        <rect key="frame" x="0.0" y="0.0" width="375" height="667"/>
                                        <wkWebViewConfiguration key="configuration">
                                            <wkPreferences key="preferences"/>
                                        </wkWebViewConfiguration>
                                    </wkWebView>
            """)),
        ])

    public init() {}

    public func check(_ document: InterfaceBuilderDocument, _ sink: inout FindingSink) {
        guard document.isCocoaTouch else { return }
        for webView in document.webViews {
            sink.report("UIWebView\(InterfaceBuilderExamples.describe(webView)) is placed in \(document.path): App Store Connect rejects apps that use it, and it cannot disable JavaScript or file access. Use a WKWebView.",
                        in: document, at: webView)
        }
    }
}

public struct InterfaceBuilderWKWebViewInventoryRule: InterfaceBuilderRule {
    public static let description = RuleDescription(
        id: "MOAT-PLAT-111", slug: "wkwebview-in-interface-builder", title: "WKWebView configured in Interface Builder",
        severity: .info, confidence: .high, cwe: [749],
        masvs: ["MASVS-PLATFORM-2"], mastg: ["MASTG-TEST-0076"],
        rationale: "Web views are part of the attack surface: whatever page they load runs script next to the app's bridges. Web views created in storyboards and xibs do not appear in code searches for `WKWebView(`, so they are listed here with the configuration set in Interface Builder (JavaScript, pop-up windows, app-bound domains, fraudulent website warning).",
        fix: "Nothing to fix by itself. Check what each web view loads, keep JavaScript off unless needed, and do not let scripts open windows.",
        references: ["https://developer.apple.com/documentation/webkit/wkwebview"],
        isInventory: true,
        examples: [
            .triggering("App/Base.lproj/Help.storyboard", InterfaceBuilderExamples.storyboard("""
                                    ↓<wkWebView contentMode="scaleToFill" id="web-1">
                                        <rect key="frame" x="0.0" y="0.0" width="375" height="667"/>
                                        <wkWebViewConfiguration key="configuration" limitsNavigationsToAppBoundDomains="YES">
                                            <wkPreferences key="preferences" javaScriptCanOpenWindowsAutomatically="YES"/>
                                        </wkWebViewConfiguration>
                                    </wkWebView>
            """)),
            .nonTriggering("App/Base.lproj/Help.storyboard", InterfaceBuilderExamples.storyboard("""
                                    <textView contentMode="scaleToFill" id="text-1"/>
            """)),
        ])

    public init() {}

    public func check(_ document: InterfaceBuilderDocument, _ sink: inout FindingSink) {
        for webView in document.wkWebViews {
            var notes: [String] = []
            let preferences = webView.children["preferences"] ?? [:]
            let configuration = webView.children["configuration"] ?? [:]
            if preferences["javaScriptEnabled"] == "NO" { notes.append("JavaScript disabled") }
            if preferences["javaScriptCanOpenWindowsAutomatically"] == "YES" { notes.append("scripts can open windows automatically") }
            if preferences["fraudulentWebsiteWarningEnabled"] == "NO" { notes.append("fraudulent website warning off") }
            if configuration["limitsNavigationsToAppBoundDomains"] == "YES" { notes.append("limited to app-bound domains") }
            if let agent = configuration["applicationNameForUserAgent"] { notes.append("user agent \(agent)") }
            let settings = notes.isEmpty ? "default settings" : notes.joined(separator: ", ")
            sink.report("WKWebView\(InterfaceBuilderExamples.describe(webView)) in \(document.path): \(settings).", in: document, at: webView)
            sink.attach(InventoryItem(.interfaceBuilderWebView, name: "WKWebView"))
        }
    }
}

public struct InsecureSecretTextFieldRule: AppRule {
    /// Words that, in a text field's placeholder, label, identifier, outlet or class, mean it holds a secret.
    static let secretWords: Set<String> = ["password", "passwords", "passwd", "pwd", "passcode", "passphrase", "pin", "secret",
                                           "cvv", "cvc", "cvv2", "cvc2"]
    /// Words that mean the field is about a secret without holding it.
    static let harmlessWords: Set<String> = ["hint", "hints", "reminder", "strength", "forgot", "forgotten", "reset", "policy",
                                             "requirements", "rules", "username", "email", "user"]
    static let secureContentTypes: Set<String> = ["password", "newPassword"]

    public static let description = RuleDescription(
        id: "MOAT-PLAT-112", slug: "secret-text-field-without-secure-entry", title: "Secret entered in a text field without secure entry",
        severity: .medium, confidence: .medium, evidence: .configuration, cwe: [549],
        masvs: ["MASVS-PLATFORM-3", "MASVS-STORAGE-2"], mastg: [],
        rationale: "A storyboard or xib text field whose placeholder, accessibility identifier or label, user label, outlet name or class names a password, PIN, passcode, secret or card security code (CVV/CVC) shows what is typed, can be read over the shoulder and in screen recordings, and its text may be cached by the keyboard for autocorrection. `secureTextEntry` masks it and keeps it out of the keyboard cache. Words are matched whole (`pin`, not `spinner`); fields that only talk about a secret (password hint, forgot password, password rules) are ignored, and a field that code makes secure (`isSecureTextEntry` set in a file that names its outlet or class) is not reported. A field with a password text content type is reported with high confidence.",
        fix: "Tick Secure Text Entry in the attributes inspector (`secureTextEntry=\"YES\"`), or set `isSecureTextEntry = true` on the outlet, and set the text content type to password or one-time code as appropriate.",
        references: ["https://developer.apple.com/documentation/uikit/uitextinputtraits/issecuretextentry"],
        examples: [
            .triggering("App/Base.lproj/Login.storyboard", InterfaceBuilderExamples.storyboard("""
                                    ↓<textField opaque="NO" contentMode="scaleToFill" borderStyle="roundedRect" placeholder="Password" minimumFontSize="17" id="pw-1">
                                        <rect key="frame" x="20" y="150" width="335" height="34"/>
                                        <textInputTraits key="textInputTraits" textContentType="password"/>
                                    </textField>
                                    ↓<textField opaque="NO" contentMode="scaleToFill" borderStyle="roundedRect" minimumFontSize="17" id="pin-1">
                                        <rect key="frame" x="20" y="200" width="335" height="34"/>
                                        <accessibility key="accessibilityConfiguration" identifier="cardPinField"/>
                                        <textInputTraits key="textInputTraits" keyboardType="numberPad"/>
                                    </textField>
            """)),
            RuleExample(files: [
                ExampleFile(name: "App/Base.lproj/Login.storyboard", content: InterfaceBuilderExamples.storyboard("""
                                        <textField opaque="NO" contentMode="scaleToFill" borderStyle="roundedRect" placeholder="Password" minimumFontSize="17" id="pw-1">
                                            <rect key="frame" x="20" y="150" width="335" height="34"/>
                                            <textInputTraits key="textInputTraits" secureTextEntry="YES" textContentType="password"/>
                                        </textField>
                                        <textField opaque="NO" contentMode="scaleToFill" borderStyle="roundedRect" placeholder="Password hint" minimumFontSize="17" id="hint-1">
                                            <rect key="frame" x="20" y="200" width="335" height="34"/>
                                        </textField>
                                        <textField opaque="NO" contentMode="scaleToFill" borderStyle="roundedRect" placeholder="Shipping address" minimumFontSize="17" id="ship-1">
                                            <rect key="frame" x="20" y="250" width="335" height="34"/>
                                        </textField>
                                        <textField opaque="NO" contentMode="scaleToFill" borderStyle="roundedRect" placeholder="PIN" minimumFontSize="17" id="pin-1">
                                            <rect key="frame" x="20" y="300" width="335" height="34"/>
                                        </textField>
                """).replacingOccurrences(of: "</viewController>", with: """
                <connections>
                    <outlet property="pinField" destination="pin-1" id="o-1"/>
                </connections>
                </viewController>
                """)),
                ExampleFile(name: "App/LoginViewController.swift", content: """
                import UIKit
                final class LoginViewController: UIViewController {
                    @IBOutlet var pinField: UITextField!
                    override func viewDidLoad() {
                        super.viewDidLoad()
                        pinField.isSecureTextEntry = true
                    }
                }
                """),
            ], triggers: false),
            RuleExample(files: [
                ExampleFile(name: "App/Base.lproj/Login.storyboard", content: InterfaceBuilderExamples.storyboard("""
                                        <textField opaque="NO" contentMode="scaleToFill" borderStyle="roundedRect" placeholder="Card security code" minimumFontSize="17" id="cvv-1" customClass="CVVTextField">
                                            <rect key="frame" x="20" y="300" width="335" height="34"/>
                                        </textField>
                """)),
                ExampleFile(name: "App/CVVTextField.m", content: """
                @implementation CVVTextField
                - (void)awakeFromNib {
                    [super awakeFromNib];
                    self.secureTextEntry = YES;
                }
                @end
                """),
            ], triggers: false, note: "A custom class that turns secure entry on itself."),
        ])

    public init() {}

    /// Words of a name: separators, camelCase and acronyms split ("cardPinField" → card, pin, field;
    /// "CVVTextField" → cvv, text, field).
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        for part in text.split(whereSeparator: { !($0.isLetter || $0.isNumber) }) {
            let characters = Array(part)
            var current = ""
            for (index, character) in characters.enumerated() {
                if !current.isEmpty, character.isUppercase, let previous = current.last {
                    let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
                    if previous.isLowercase || previous.isNumber || (previous.isUppercase && nextIsLower) {
                        words.append(current)
                        current = ""
                    }
                }
                current.append(character)
            }
            if !current.isEmpty { words.append(current) }
        }
        return words.map { $0.lowercased() }
    }

    public func check(_ app: AppModel, _ sink: inout FindingSink) {
        let secureSetters = APIs.secureTextEntry.swift + APIs.secureTextEntry.selectors
        for document in app.interfaceBuilderDocuments where document.isCocoaTouch {
            for field in document.textFields where !field.isSecureTextEntry {
                let contentType = field.children["textInputTraits"]?["textContentType"]
                let names = field.descriptiveNames
                let tokens = names.flatMap(Self.words)
                let isPasswordType = contentType.map(Self.secureContentTypes.contains) ?? false
                guard isPasswordType || (tokens.contains(where: Self.secretWords.contains) && !tokens.contains(where: Self.harmlessWords.contains)) else { continue }
                // Made secure in code?
                let handles = field.outlets + (field.customClass.map { [$0] } ?? [])
                let securedInCode = app.sources.contains { source in
                    secureSetters.contains { source.referencedNames[$0] != nil } && handles.contains { source.referencedNames[$0] != nil || source.declaredTypes[$0] != nil }
                }
                guard !securedInCode else { continue }
                let label = names.first { name in Self.words(name).contains(where: Self.secretWords.contains) } ?? contentType ?? "secret"
                sink.report("Text field \(PermissionText.quoted(label, limit: 40))\(InterfaceBuilderExamples.describe(field)) takes a secret but secure text entry is off: what the user types is visible and may be cached by the keyboard.",
                            in: document, at: field, confidence: isPasswordType ? .high : nil)
            }
        }
    }
}
