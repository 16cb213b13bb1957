import MoatCore
import MoatSyntax

/// Sensitive data copied to a pasteboard: the `sensitive` flow reaching `UIPasteboard.general.string =`,
/// `strings`, `url`, `items`, `setString`, `setValue(_:forPasteboardType:)`, `setData`, `setItems`,
/// `addItems`, on the general pasteboard or a named one (`UIPasteboard(name:create:)`). Items set with
/// `setItems(_:options:)` whose options limit them stay quiet: `.localOnly` (not literally `false`: the
/// item does not reach other devices through Universal Clipboard) or an `.expirationDate` (it disappears).
/// Either option is the API's own way to limit a copied item; code that names it has made that decision,
/// and a value taken from a setting is the user's choice (a password manager's "clear the clipboard after"
/// and "Universal Clipboard" settings, with "never" leaving only `.localOnly`).
public struct SecretOnPasteboardRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-STOR-303", slug: "secret-on-pasteboard",
        title: "Secret copied to the pasteboard",
        severity: .medium, confidence: .high, evidence: .dataflow, cwe: [200, 312],
        masvs: ["MASVS-STORAGE-2", "MASVS-PLATFORM-1"], mastg: ["MASTG-TEST-0073"],
        rationale: "Every app in the foreground can read the general pasteboard, Universal Clipboard copies it to the user's other devices, and its content stays until something replaces it. Named pasteboards are shared with every app of the same team. A password, one-time code or card number put there leaves the app's control.",
        fix: "Do not copy secrets programmatically. If the user must copy one, use `setItems(_:options:)` with `.localOnly: true` and a short `.expirationDate`, and prefer the system's password AutoFill over copying.",
        references: ["https://developer.apple.com/documentation/uikit/uipasteboard",
                     "https://mas.owasp.org/MASTG/tests/ios/MASVS-PLATFORM/MASTG-TEST-0073/"],
        examples: [
            .triggering("Recovery.swift", """
            func copyRecoveryCode(_ backupCode: String) {
                ↓UIPasteboard.general.string = backupCode
            }
            func share(account: Account) {
                let pasteboard = UIPasteboard(name: UIPasteboard.Name("com.example.bank.share"), create: true)
                ↓pasteboard?.setValue(account.cardNumber, forPasteboardType: "public.text")
            }
            """),
            .triggering("Recovery.m", """
            - (void)copyPassword:(NSString *)password {
                ↓[[UIPasteboard generalPasteboard] setString:password];
            }
            """),
            .nonTriggering("Recovery.swift", """
            func copyOneTimeCode(_ otp: String) {
                UIPasteboard.general.setItems([[UTType.plainText.identifier: otp]],
                                              options: [.localOnly: true, .expirationDate: Date().addingTimeInterval(60)])
            }
            func copyUserName(_ userName: String, passwordHint: String) {
                UIPasteboard.general.string = userName
                UIPasteboard.general.string = passwordHint
            }
            """, note: "A local-only, expiring item; names that are not secrets."),
            .nonTriggering("Clipboard.swift", """
            final class Clipboard {
                var timeout: TimeInterval?
                var universalClipboard = false
                func copyTOTP(_ totpCode: String) {
                    let isLocalOnly = !universalClipboard
                    let item: [String: Any] = [UTType.utf8PlainText.identifier: totpCode]
                    if let timeout, timeout > 0 {
                        UIPasteboard.general.setItems([item], options: [.localOnly: isLocalOnly, .expirationDate: Date(timeIntervalSinceNow: timeout)])
                    } else {
                        UIPasteboard.general.setItems([item], options: [.localOnly: isLocalOnly])
                    }
                }
            }
            """, note: "The user chose no expiration: the item stays local-only unless the user enabled Universal Clipboard (KeePassium's copy)."),
            .triggering("Clipboard.swift", """
            func copyTOTP(_ totpCode: String) {
                ↓UIPasteboard.general.setItems([[UTType.utf8PlainText.identifier: totpCode]], options: [.localOnly: false])
            }
            """, note: "`.localOnly: false` limits nothing: the code goes to every device and stays."),
            .nonTriggering("Recovery.m", """
            - (void)copyOneTimeCode:(NSString *)otp {
                [[UIPasteboard generalPasteboard] setItems:@[@{@"public.utf8-plain-text": otp}]
                                                   options:@{UIPasteboardOptionExpirationDate: [NSDate dateWithTimeIntervalSinceNow:60]}];
            }
            """, note: "An expiring item."),
            .nonTriggering("Recovery.m", """
            - (void)copyUserName:(NSString *)userName {
                [[UIPasteboard generalPasteboard] setString:userName];
            }
            """),
        ])

    public init() {}

    /// Option names that limit a pasteboard item (Swift member, Objective-C constant).
    static let localOnlyOptions: Set<String> = ["localOnly", "UIPasteboardOptionLocalOnly"]
    static let expirationOptions: Set<String> = ["expirationDate", "UIPasteboardOptionExpirationDate"]
    static let falseValues: Set<String> = ["false", "NO", "@NO", "@(NO)", "kCFBooleanFalse"]

    /// Whether `setItems(_:options:)`'s options limit the item: an `.expirationDate`, or `.localOnly` with a
    /// value that is not literally false. Options that are not a dictionary literal are judged by their text
    /// (both names present, as before).
    static func limitsItem(_ options: Expression, in file: CodeFile) -> Bool {
        guard case .dictionaryLiteral(let entries) = options.strippedOfCasts.unwrapped.kind else {
            let text = file.text(options.range)
            return (text.contains("localOnly") && text.contains("expirationDate"))
                || (text.contains("UIPasteboardOptionLocalOnly") && text.contains("UIPasteboardOptionExpirationDate"))
        }
        return entries.contains { entry in
            guard let name = entry.key.nameChain.last else { return false }
            if expirationOptions.contains(name) { return true }
            guard localOnlyOptions.contains(name) else { return false }
            if case .booleanLiteral(let value) = entry.value.unwrapped.kind { return value }
            return !falseValues.contains(file.text(entry.value.range).trimmingCharacters(in: .whitespaces))
        }
    }

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        let flows = SensitiveFlows.flows(unit, .pasteboardWrite)
        guard !flows.isEmpty else { return }
        var calls: [Int: Expression] = [:]
        file.forEachExpression { expression, _ in
            if case .call = expression.kind { calls[expression.range.start.offset] = expression }
        }
        for (flow, taint) in flows {
            if let call = calls[flow.range.start.offset], case .call(_, let arguments, _) = call.kind,
               let options = arguments.first(where: { $0.label == "options" }), Self.limitsItem(options.value, in: file) {
                continue
            }
            let target = file.text(flow.range)
            let named = !target.contains("general") && !target.contains("generalPasteboard")
            let board = named ? "a pasteboard other apps can read" : "the general pasteboard, which every app in the foreground can read (and Universal Clipboard copies to the user's other devices)"
            SensitiveFlows.report("\(DataflowReporting.capitalized(SensitiveFlows.describe(taint))) is copied to \(board). Do not copy secrets; if the user must, set the item local-only with an expiration date.",
                                  flow: flow, taint: taint, in: file,
                                  confidence: SensitiveFlows.confidence(taint, rule: Self.description.confidence), &sink)
        }
    }
}
