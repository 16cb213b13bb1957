import MoatCore
import MoatSyntax

/// Sensitive data written to a log: the `sensitive` flow reaching `print`, `debugPrint`, `dump`, `NSLog`,
/// `printf`, CocoaLumberjack's `DDLog…`, a logger's methods (`log.info`, SwiftyBeaver, XCGLogger), or
/// Apple's unified logging where the value is public. Apple's `Logger` and `os_log` redact interpolated
/// and `%@` strings unless they are marked public, so a `Logger` interpolation is reported only with
/// `privacy: .public` (`.private`, `.sensitive` and the default stay quiet) and an `os_log` format only with
/// `%{public}`; a `Logger`-named receiver in a file that does not import `os`/`OSLog` is another logger,
/// which does not redact.
public struct SecretInLogRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-STOR-302", slug: "secret-in-log",
        title: "Secret written to a log",
        severity: .medium, confidence: .high, evidence: .dataflow, cwe: [532, 312],
        masvs: ["MASVS-STORAGE-2"], mastg: ["MASTG-TEST-0053"],
        rationale: "NSLog and public unified-log messages go to the system log, which any Mac the device is connected to, a sysdiagnose and many crash and support tools can read; print output is captured by debuggers and log collectors; logging libraries write files into the container that end up in backups and bug reports. A password, token or key in a log message leaves the app.",
        fix: "Do not log secrets. With `Logger`, keep the default privacy or mark the value `privacy: .private` (or `.private(mask: .hash)` to correlate); with `os_log`, use `%{private}@`; remove debugging prints of credentials.",
        references: ["https://developer.apple.com/documentation/os/logging/generating_log_messages_from_your_code",
                     "https://mas.owasp.org/MASTG/tests/ios/MASVS-STORAGE/MASTG-TEST-0053/"],
        examples: [
            .triggering("SignIn.swift", """
            import os
            func signIn(user: String, password: String, session: Session) {
                ↓print("Signing in \\(user) with \\(password)")
                ↓NSLog("token: %@", session.token)
                let logger = Logger(subsystem: "com.example.bank", category: "auth")
                ↓logger.info("Key \\(session.apiKey, privacy: .public) for \\(user, privacy: .public)")
            }
            """),
            .triggering("SignIn.m", """
            - (void)didReceiveToken:(NSString *)accessToken {
                ↓NSLog(@"Received %@", accessToken);
                ↓os_log(OS_LOG_DEFAULT, "token %{public}@", accessToken);
            }
            """),
            .triggering("MagicLink.swift", """
            func redeem(email: String, code: String) async throws {
                let confirmation = try await remote.requestLoginConfirmation(email: email, authCode: code)
                ↓NSLog("Should auth with token \\(confirmation.syncToken)")
                simperium.authenticate(withUsername: confirmation.username, token: confirmation.syncToken)
            }
            """, note: "`syncToken` reads as a sync cursor, but what a sign-in call returned is the credential it issued (Simperium's session token)."),
            .nonTriggering("CalendarSync.swift", """
            func pullChanges(calendar: Calendar) async throws {
                let changes = try await client.fetchChanges(since: calendar.syncToken)
                NSLog("Calendar now at \\(changes.syncToken), next page \\(changes.nextPageToken ?? "none")")
                print("Sync token \\(calendar.syncToken)")
            }
            """, note: "CalDAV's and Google's sync tokens are positions in a change feed, not credentials."),
            .nonTriggering("PushNotificationsManager.swift", """
            final class PushNotificationsManager {
                var deviceToken: String?
                func application(_ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken token: Data) {
                    NSLog("APNs token \\(token.hexString)")
                    registerDeviceToken(with: token)
                }
                func registerDeviceToken(with tokenData: Data) {
                    let newToken = tokenData.hexString
                    DDLogInfo("📱 Device Token Changed! OLD: [\\(String(describing: deviceToken))] NEW: [\\(newToken)]")
                    deviceToken = newToken
                }
            }
            """, note: "The APNs device token is the address pushes are sent to, not a credential, under whatever name it is passed on."),
            .nonTriggering("SignIn.swift", """
            import os
            import CryptoKit
            func signIn(user: String, password: String, token: String) {
                let logger = Logger(subsystem: "com.example.bank", category: "auth")
                logger.info("Signing in \\(user, privacy: .public) with \\(password, privacy: .private)")
                logger.debug("Token refreshed: \\(token)")
                print("Password length \\(password.count)")
                os_log("token %{private}@", log: .default, type: .info, token)
                NSLog("Digest %@", SHA256.hash(data: Data(password.utf8)).description)
                print("passwordHint shown for \\(user)")
            }
            """, note: "Private and default unified-log values are redacted; a length, a digest and a name that only mentions a password are not secrets."),
            .nonTriggering("VPN.swift", """
            import os.log
            extension Logger {
                static var module: Logger { Logger(subsystem: "com.example.vpn", category: "VPN") }
            }
            func regionChangeFailed(account: String) {
                let subcredentials = "Credentials \\(Keychain.getPasswordString(forAccount: account) ?? "Empty")"
                Logger.module.debug("Region change failed for subcredentials \\(subcredentials)")
            }
            """, note: "`import os.log` brings Apple's Logger: the interpolated value is private by default, redacted in the system log."),
            .nonTriggering("SignIn.m", """
            - (void)didReceiveToken:(NSString *)accessToken {
                os_log(OS_LOG_DEFAULT, "token %{private}@", accessToken);
                NSLog(@"Received a token of length %lu", (unsigned long)accessToken.length);
            }
            """),
        ])

    public init() {}

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        let flows = SensitiveFlows.flows(unit, .logWrite)
        guard !flows.isEmpty else { return }
        // `import os`, `import OSLog`, or a submodule (`import os.log`): Apple's `Logger` is in scope.
        let unifiedLogging = file.imports.contains { $0 == "os" || $0 == "OSLog" || $0.hasPrefix("os.") }
        var calls: [Int: Expression] = [:]
        file.forEachExpression { expression, _ in
            if case .call = expression.kind { calls[expression.range.start.offset] = expression }
        }
        for (flow, taint) in flows {
            guard let call = calls[flow.range.start.offset], case .call(let callee, let arguments, _) = call.kind else { continue }
            // `log.debug`, `logger.info`, `NSLog`: the call as written, so a method named `debug` reads right.
            let name = callee.dottedName ?? callee.name ?? flow.calledName
            let place: String
            switch flow.api {
            case "Logger" where unifiedLogging && (callee.receiver?.nameChain.contains { $0.lowercased().hasSuffix("logger") || $0.hasSuffix("OSLog") || $0.hasSuffix("osLog") } ?? false):
                guard Self.isPublicInterpolation(arguments, flow) else { continue }
                place = "to the unified log as a public value (`privacy: .public`), readable in the system log"
            case APIs.osLogC.name:
                let format = arguments.lazy.compactMap { Self.literalText($0.value) }.first ?? ""
                guard format.contains("{public}") || Self.isPublicInterpolation(arguments, flow) else { continue }
                place = "to the unified log as a public value, readable in the system log"
            case "print":
                place = "to the console (standard output), which debuggers and log collectors capture"
            case APIs.formattedLogC.name:
                place = "to the system log, readable from any Mac the device is connected to and in diagnostics"
            default:
                place = "to a log that is kept on the device and shared in bug reports"
            }
            SensitiveFlows.report("\(DataflowReporting.capitalized(SensitiveFlows.describe(taint))) is written by \(name) \(place). Do not log secrets; with Logger, keep values `privacy: .private`.",
                                  flow: flow, taint: taint, in: file,
                                  confidence: SensitiveFlows.confidence(taint, rule: Self.description.confidence), &sink)
        }
    }

    /// The text of a string literal, interpolations left out.
    static func literalText(_ expression: Expression) -> String? {
        guard case .stringLiteral(let segments) = expression.unwrapped.kind else { return nil }
        return segments.map { if case .text(let text) = $0 { text } else { "" } }.joined()
    }

    /// Whether some interpolation marked `privacy: .public` shows a sensitive value of the flow: the
    /// interpolated expression holds the source, or a variable the value went through.
    static func isPublicInterpolation(_ arguments: [Argument], _ flow: TaintFlow) -> Bool {
        for argument in arguments {
            guard case .stringLiteral(let segments) = argument.value.unwrapped.kind else { continue }
            var previous: Expression?
            for segment in segments {
                guard case .interpolation(let value) = segment else { previous = nil; continue }
                if case .member(nil, "public") = value.unwrapped.kind, let shown = previous,
                   flow.allTaints.contains(where: { SensitiveFlows.reportable($0) && Self.shows(shown, $0) }) {
                    return true
                }
                previous = value
            }
        }
        return false
    }

    static func shows(_ expression: Expression, _ taint: Taint) -> Bool {
        if let source = taint.source, source.external == nil, expression.range.start.offset <= source.range.start.offset,
           source.range.end.offset <= expression.range.end.offset {
            return true
        }
        return expression.rootName.map(taint.lineage.contains) ?? false
    }
}
