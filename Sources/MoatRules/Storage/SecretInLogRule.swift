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
            .nonTriggering("AuthService.swift", """
            import os
            final class AuthService {
                private let log = Logger(subsystem: "com.example.bank", category: "auth")
                func signedIn(user: String, token: String, privateKey: SecKey) {
                    log.info("Signed in with \\(token)")
                    os_log("%{public}@ received %@", user, token)
                    os_log("%s", token)
                    print("Share \\(String(describing: SecKeyCopyPublicKey(privateKey)))")
                }
            }
            """, note: "A `Logger` the file declares, whatever it is called, and os_log conversions without `{public}` are private by default; a public key is made to be shared."),
            .triggering("AuthService.swift", """
            import os
            final class AuthService {
                private let log = Logger(subsystem: "com.example.bank", category: "auth")
                func signedIn(user: String, token: String) {
                    ↓log.info("Signed in with \\(token, privacy: .public)")
                    ↓os_log("%@ received %{public}@", user, token)
                }
            }
            """, note: "Only the conversion or interpolation marked public shows the value."),
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
        // Names the file declares as Apple's `Logger` (`let log = Logger(subsystem:category:)`, `var log: os.Logger`),
        // whatever they are called: their interpolations are private by default too.
        let unifiedLoggers = unifiedLogging ? Self.unifiedLoggerNames(file) : []
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
            case "Logger" where unifiedLogging && (callee.receiver?.nameChain.contains { $0.lowercased().hasSuffix("logger") || $0.hasSuffix("OSLog") || $0.hasSuffix("osLog") || unifiedLoggers.contains($0) } ?? false):
                guard Self.isPublicInterpolation(arguments, flow) else { continue }
                place = "to the unified log as a public value (`privacy: .public`), readable in the system log"
            case APIs.osLogC.name:
                guard Self.isPublicFormatArgument(arguments, flow) || Self.isPublicInterpolation(arguments, flow) else { continue }
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

    /// Variables and properties of the file declared with Apple's `Logger` type or initialized by its
    /// initializer (`Logger(subsystem:category:)`, `os.Logger(...)`, `.init` with that declared type).
    static func unifiedLoggerNames(_ file: CodeFile) -> Set<String> {
        var names = Set<String>()
        func isLogger(_ type: String?, _ initializer: Expression?) -> Bool {
            if let type, ["Logger", "os.Logger", "Logger?", "os.Logger?", "Logger!"].contains(type.filter { $0 != " " }) { return true }
            guard let initializer, case .call(let callee, _, _) = initializer.unwrapped.kind else { return false }
            let chain = callee.nameChain
            return chain == ["Logger"] || chain == ["os", "Logger"]
        }
        file.walk { node, _ in
            switch node {
            case .declaration(.variable(let variable)):
                if isLogger(variable.type, variable.initializer) { names.insert(variable.name) }
            case .statement(let statement):
                if case .variable(let declared, let type, let initializer, _) = statement.kind, declared.count == 1, isLogger(type, initializer) {
                    names.insert(declared[0])
                }
            default:
                break
            }
        }
        for type in file.allTypes {
            for case .variable(let variable) in type.members where isLogger(variable.type, variable.initializer) { names.insert(variable.name) }
        }
        return names
    }

    /// Whether an `os_log` format shows a sensitive value of the flow as public: the value is an argument
    /// after the format whose conversion is marked `{public}` (`os_log("%{public}@", token)`). A
    /// conversion without a privacy mark (`%@`, `%s`) is private for strings and objects, redacted in the
    /// system log, and `%{private}` is too; the arguments follow the format in order, one per conversion
    /// (`%%` is none, a `*` width or precision takes one more).
    static func isPublicFormatArgument(_ arguments: [Argument], _ flow: TaintFlow) -> Bool {
        guard let formatIndex = arguments.firstIndex(where: { literalText($0.value) != nil }),
              let format = literalText(arguments[formatIndex].value), format.contains("{public}") else { return false }
        let values = arguments[(formatIndex + 1)...].filter { $0.label == nil }
        for (position, isPublic) in conversions(format).enumerated() where isPublic && position < values.count {
            let shown = values[values.startIndex + position].value
            if flow.allTaints.contains(where: { SensitiveFlows.reportable($0) && shows(shown, $0) }) { return true }
        }
        return false
    }

    /// The conversions of a printf-style format in order, each with whether it is marked `{public}`; a `*`
    /// width or precision is an argument of its own (not public).
    static func conversions(_ format: String) -> [Bool] {
        var result: [Bool] = []
        let characters = Array(format)
        var index = 0
        while index < characters.count {
            guard characters[index] == "%" else { index += 1; continue }
            index += 1
            guard index < characters.count else { break }
            if characters[index] == "%" { index += 1; continue }
            var isPublic = false
            if characters[index] == "{", let close = characters[index...].firstIndex(of: "}") {
                isPublic = String(characters[(index + 1)..<close]).split(separator: ",")
                    .contains { $0.filter { $0 != " " } == "public" }
                index = close + 1
            }
            // Flags, width, precision and length modifiers, up to the conversion letter (or `@`).
            while index < characters.count, !Self.isConversion(characters[index]) {
                if characters[index] == "*" { result.append(false) }
                index += 1
            }
            result.append(isPublic)
            index += 1
        }
        return result
    }

    /// A conversion's last character (`@`, `s`, `d`...), as opposed to a flag, a width or a length modifier.
    static func isConversion(_ character: Character) -> Bool {
        character == "@" || (character.isLetter && !"hlqLjzt".contains(character))
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
