import MoatCore
import MoatSyntax

/// Sensitive data copied to a pasteboard: the `sensitive` flow reaching `UIPasteboard.general.string =`,
/// `strings`, `url`, `items`, `setString`, `setValue(_:forPasteboardType:)`, `setData`, `setItems`,
/// `addItems`, on the general pasteboard or a named one (`UIPasteboard(name:create:)`). Items set with
/// both `.localOnly` and an `.expirationDate` (`setItems(_:options:)`) stay quiet: they do not reach other
/// devices through Universal Clipboard and disappear.
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
            .nonTriggering("Recovery.m", """
            - (void)copyUserName:(NSString *)userName {
                [[UIPasteboard generalPasteboard] setString:userName];
            }
            """),
        ])

    public init() {}

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
               let options = arguments.first(where: { $0.label == "options" }) {
                let text = file.text(options.value.range)
                if text.contains("localOnly") && text.contains("expirationDate") { continue }
                if text.contains("UIPasteboardOptionLocalOnly") && text.contains("UIPasteboardOptionExpirationDate") { continue }
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
