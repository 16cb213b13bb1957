import MoatCore
import MoatSyntax

/// A challenge handler that answers with the server's own trust (`.useCredential` +
/// `URLCredential(trust:)`, `use(_:for:)`, `useCredential:forAuthenticationChallenge:`) on a path not
/// guarded by a successful evaluation: an `if`/`guard`/`switch` whose condition calls
/// `SecTrustEvaluateWithError` (or another check that receives the trust, such as a pinning helper), uses
/// its out-parameter or async result, or a Boolean assigned from one. Checks of the authentication method,
/// host or port are not evaluations. When the acceptance is inside a nested function, every call of that
/// function must be guarded. An exception the user chose is no trust-all code: an acceptance in an alert
/// action's handler, or one only for hosts of a list the file fills only in such handlers.
public struct ServerTrustAcceptedRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-NET-201", slug: "server-trust-accepted-without-evaluation",
        title: "Server certificate accepted without evaluating the trust",
        severity: .critical, confidence: .high, evidence: .configuration, cwe: [295],
        masvs: ["MASVS-NETWORK-1", "MASVS-NETWORK-2"], mastg: ["MASTG-TEST-0067", "MASTG-TEST-0068"],
        rationale: "Answering a server-trust challenge with `URLCredential(trust:)` tells the system to trust that certificate chain. Without first evaluating it (`SecTrustEvaluateWithError`, or a pinning check whose result guards the answer), the app accepts any certificate, self-signed or issued for another host: anyone on the network can intercept and modify the traffic.",
        fix: "Return `.performDefaultHandling` unless you add checks. For pinning: evaluate with `SecTrustEvaluateWithError`, compare the server's key or certificate with the pinned one, and call `completionHandler(.useCredential, URLCredential(trust: trust))` only when both succeed; otherwise `.cancelAuthenticationChallenge`.",
        references: ["https://developer.apple.com/documentation/foundation/url_loading_system/handling_an_authentication_challenge/performing_manual_server_trust_authentication",
                     "https://mas.owasp.org/MASTG/tests/ios/MASVS-NETWORK/MASTG-TEST-0067/"],
        examples: [
            .triggering("TrustAll.swift", """
            final class TrustAllDelegate: NSObject, URLSessionDelegate {
                func urlSession(_ session: URLSession, didReceive challenge: URLAuthenticationChallenge, completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
                    if challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust,
                       challenge.protectionSpace.host == "api.example.com", let trust = challenge.protectionSpace.serverTrust {
                        ↓completionHandler(.useCredential, URLCredential(trust: trust))
                        return
                    }
                    completionHandler(.performDefaultHandling, nil)
                }
            }
            final class PinningDelegate: NSObject, URLSessionTaskDelegate {
                func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge, completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
                    guard let trust = challenge.protectionSpace.serverTrust else { return completionHandler(.performDefaultHandling, nil) }
                    if !SecTrustEvaluateWithError(trust, nil) {
                        ↓completionHandler(.useCredential, URLCredential(trust: trust))
                        return
                    }
                    completionHandler(.useCredential, URLCredential(trust: trust))
                }
            }
            """, note: "A host check is not an evaluation; the second handler accepts on the path where evaluation failed."),
            .triggering("TrustAll.m", """
            @implementation LegacyConnectionDelegate
            - (void)connection:(NSURLConnection *)connection willSendRequestForAuthenticationChallenge:(NSURLAuthenticationChallenge *)challenge {
                ↓[challenge.sender useCredential:[NSURLCredential credentialForTrust:challenge.protectionSpace.serverTrust] forAuthenticationChallenge:challenge];
            }
            - (void)URLSession:(NSURLSession *)session didReceiveChallenge:(NSURLAuthenticationChallenge *)challenge completionHandler:(void (^)(NSURLSessionAuthChallengeDisposition, NSURLCredential *))completionHandler {
                NSURLCredential *credential = [NSURLCredential credentialForTrust:challenge.protectionSpace.serverTrust];
                ↓completionHandler(NSURLSessionAuthChallengeUseCredential, credential);
            }
            @end
            """),
            .nonTriggering("PinningDelegate.swift", """
            final class PinningDelegate: NSObject, URLSessionDelegate {
                func urlSession(_ session: URLSession, didReceive challenge: URLAuthenticationChallenge, completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
                    guard challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust,
                          let trust = challenge.protectionSpace.serverTrust else {
                        completionHandler(.performDefaultHandling, nil)
                        return
                    }
                    var error: CFError?
                    guard SecTrustEvaluateWithError(trust, &error) else {
                        completionHandler(.cancelAuthenticationChallenge, nil)
                        return
                    }
                    let serverKey = SecTrustCopyKey(trust).flatMap { SecKeyCopyExternalRepresentation($0, nil) } as Data?
                    if serverKey == pinnedKey {
                        completionHandler(.useCredential, URLCredential(trust: trust))
                    } else {
                        completionHandler(.cancelAuthenticationChallenge, nil)
                    }
                }
            }
            final class AsyncDelegate: NSObject, URLSessionDelegate {
                func urlSession(_ session: URLSession, didReceive challenge: URLAuthenticationChallenge, completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
                    guard let trust = challenge.protectionSpace.serverTrust else { return completionHandler(.performDefaultHandling, nil) }
                    SecTrustEvaluateAsyncWithError(trust, .main) { trust, trusted, _ in
                        if trusted { completionHandler(.useCredential, URLCredential(trust: trust)) }
                        else { completionHandler(.cancelAuthenticationChallenge, nil) }
                    }
                }
            }
            """),
            .nonTriggering("TrustDelegate.swift", """
            func urlSession(_ session: URLSession, didReceive challenge: URLAuthenticationChallenge, completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {

                if challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust {
                    let serverTrust:SecTrust = challenge.protectionSpace.serverTrust!

                    func acceptServerTrust() {
                        completionHandler(.useCredential, URLCredential(trust: challenge.protectionSpace.serverTrust!))
                    }

                    let success = SSLTrustManager.shouldTrustServerTrust(serverTrust, forCert: "Server_Public_SSL_Cert")
                    if success {
                        acceptServerTrust()
                        return
                    }
                }
                else if challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodClientCertificate {
                    completionHandler(.rejectProtectionSpace, nil);
                    return
                }
                completionHandler(.cancelAuthenticationChallenge, nil)
            }
            """, note: "The pinning delegate of the Italian reference, fixed (only the completion handler answers): acceptance happens only when the pinning check succeeds."),
            .nonTriggering("ThrowingCheck.swift", """
            enum TrustError: Error { case untrusted }
            func validate(_ trust: SecTrust) throws {
                var error: CFError?
                guard SecTrustEvaluateWithError(trust, &error) else { throw TrustError.untrusted }
            }
            final class Delegate: NSObject, URLSessionDelegate {
                func urlSession(_ session: URLSession, didReceive challenge: URLAuthenticationChallenge, completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
                    guard let trust = challenge.protectionSpace.serverTrust else { return completionHandler(.performDefaultHandling, nil) }
                    do {
                        try validate(trust)
                        completionHandler(.useCredential, URLCredential(trust: trust))
                    } catch {
                        completionHandler(.cancelAuthenticationChallenge, nil)
                    }
                }
            }
            final class PinnedDelegate: NSObject, URLSessionDelegate {
                let pins: PinStore
                init(pins: PinStore) { self.pins = pins }
                func urlSession(_ session: URLSession, didReceive challenge: URLAuthenticationChallenge) async -> (URLSession.AuthChallengeDisposition, URLCredential?) {
                    guard let trust = challenge.protectionSpace.serverTrust else { return (.performDefaultHandling, nil) }
                    do {
                        try pins.verifyPinnedKey(of: trust)
                    } catch {
                        return (.cancelAuthenticationChallenge, nil)
                    }
                    return (.useCredential, URLCredential(trust: trust))
                }
            }
            """, note: "The trust is evaluated by a throwing helper (of this file, or named for the check elsewhere) before the acceptance: a throw skips it."),
            .nonTriggering("StatusCheck.swift", """
            final class PinningService: NSObject, URLSessionDelegate {
                func urlSession(_ session: URLSession, didReceive challenge: URLAuthenticationChallenge) async -> (URLSession.AuthChallengeDisposition, URLCredential?) {
                    guard let trust = challenge.protectionSpace.serverTrust else { return (.performDefaultHandling, nil) }
                    let status = CertificatePinner.verifyTrust(trust, host: challenge.protectionSpace.host)
                    if status == 0 {
                        return (.useCredential, URLCredential(trust: trust))
                    }
                    return (.cancelAuthenticationChallenge, nil)
                }
            }
            """, note: "A check that receives the trust and returns a status: `== 0` is its success."),
            .triggering("ThrowingLog.swift", """
            final class Delegate: NSObject, URLSessionDelegate {
                func urlSession(_ session: URLSession, didReceive challenge: URLAuthenticationChallenge, completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
                    guard let trust = challenge.protectionSpace.serverTrust else { return completionHandler(.performDefaultHandling, nil) }
                    do {
                        try? validate(trust)
                        try logger.write("challenge for \\(challenge.protectionSpace.host)")
                        ↓completionHandler(.useCredential, URLCredential(trust: trust))
                    } catch {
                        completionHandler(.cancelAuthenticationChallenge, nil)
                    }
                }
            }
            """, note: "`try?` swallows the failure, and a throwing call that does not check the trust is no evaluation."),
            .nonTriggering("TrustDelegate.m", """
            - (void)URLSession:(NSURLSession *)session didReceiveChallenge:(NSURLAuthenticationChallenge *)challenge completionHandler:(void (^)(NSURLSessionAuthChallengeDisposition, NSURLCredential *))completionHandler {
                SecTrustRef trust = challenge.protectionSpace.serverTrust;
                if (trust == NULL || !SecTrustEvaluateWithError(trust, NULL)) {
                    completionHandler(NSURLSessionAuthChallengeCancelAuthenticationChallenge, nil);
                    return;
                }
                completionHandler(NSURLSessionAuthChallengeUseCredential, [NSURLCredential credentialForTrust:trust]);
            }
            """),
            .nonTriggering("UserTrust.swift", """
            final class SelfHostedSession: NSObject, URLSessionDelegate {
                var trustedHosts: Set<String> = []
                weak var presenter: UIViewController?
                func urlSession(_ session: URLSession, didReceive challenge: URLAuthenticationChallenge, completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
                    guard let trust = challenge.protectionSpace.serverTrust else { return completionHandler(.performDefaultHandling, nil) }
                    let host = challenge.protectionSpace.host
                    if SecTrustEvaluateWithError(trust, nil) { return completionHandler(.performDefaultHandling, nil) }
                    if trustedHosts.contains(host) { return completionHandler(.useCredential, URLCredential(trust: trust)) }
                    let alert = UIAlertController(title: "Untrusted certificate", message: host, preferredStyle: .alert)
                    alert.addAction(UIAlertAction(title: "Cancel", style: .cancel) { _ in completionHandler(.cancelAuthenticationChallenge, nil) })
                    alert.addAction(UIAlertAction(title: "Trust anyway", style: .destructive) { _ in
                        self.trustedHosts.insert(host)
                        completionHandler(.useCredential, URLCredential(trust: trust))
                    })
                    presenter?.present(alert, animated: true)
                }
            }
            """, note: "A per-host exception the user must choose in an alert (and remembered for that host only after the user chose it) is the user's decision, not code that trusts every certificate."),
            .triggering("UserTrust.swift", """
            final class SelfHostedSession: NSObject, URLSessionDelegate {
                var trustedHosts: Set<String> = []
                func remember(_ host: String) { trustedHosts.insert(host) }
                func urlSession(_ session: URLSession, didReceive challenge: URLAuthenticationChallenge, completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
                    guard let trust = challenge.protectionSpace.serverTrust else { return completionHandler(.performDefaultHandling, nil) }
                    if trustedHosts.contains(challenge.protectionSpace.host) { return ↓completionHandler(.useCredential, URLCredential(trust: trust)) }
                    completionHandler(.performDefaultHandling, nil)
                }
            }
            """, note: "The list of exceptions is filled without asking the user (any caller of `remember`): no consent, no evaluation."),
        ])

    public init() {}

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        guard unit.names.containsName(where: ChallengeHandler.isChallengeType) else { return }
        let cache = LocalValuesCache(file: file)
        for handler in ChallengeHandler.all(in: file) {
            let values = cache.values(function: handler.function, type: handler.owner)
            let acceptances = handler.acceptances(values)
            guard !acceptances.isEmpty else { continue }
            let evaluates = handler.evaluatesAnywhere(values)
            for acceptance in acceptances where !handler.isGuarded(acceptance, values, file: file) {
                // The user chose to trust this host's certificate (an alert's "Trust anyway").
                if handler.isUserConsented(acceptance, file: file) { continue }
                let message = evaluates
                    ? "`\(handler.function.fullName)` trusts the server's certificate on a path where no successful trust evaluation guards it: an interceptor's certificate is accepted there. Accept only after `SecTrustEvaluateWithError` and your pin check succeed."
                    : "`\(handler.function.fullName)` answers the server-trust challenge with the server's own trust without evaluating it: every certificate is accepted, so anyone on the network can intercept the traffic. Use `.performDefaultHandling`, or accept only after `SecTrustEvaluateWithError` and a pin check succeed."
                sink.report(message, in: file, at: acceptance.call.range)
            }
        }
    }
}
