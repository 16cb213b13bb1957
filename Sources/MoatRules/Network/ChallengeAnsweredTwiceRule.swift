import MoatCore
import MoatSyntax

/// In a URLSession/WKWebView challenge handler (one with a completion handler), a call on
/// `challenge.sender` (`use(_:for:)`, `performDefaultHandling(for:)`, `cancel(_:)`...) made in the same
/// statement list as a call of the completion handler: both answer the same challenge.
public struct ChallengeAnsweredTwiceRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-NET-204", slug: "challenge-answered-twice",
        title: "Authentication challenge answered twice",
        severity: .low, confidence: .high, cwe: [675],
        masvs: ["MASVS-NETWORK-1"], mastg: ["MASTG-TEST-0067"],
        rationale: "URLSession and WKWebView challenges are answered through the completion handler only; `challenge.sender` belongs to the NSURLConnection era and must not be used with them. Answering one challenge twice is undefined behaviour (exceptions, a wrong disposition winning) and usually signals copied trust code that nobody re-checked.",
        fix: "Remove the `challenge.sender` call and answer once through `completionHandler`.",
        references: ["https://developer.apple.com/documentation/foundation/urlsessiondelegate/1409308-urlsession"],
        examples: [
            .triggering("TrustDelegate.swift", """
            func urlSession(_ session: URLSession, didReceive challenge: URLAuthenticationChallenge, completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {

                if challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust {
                    let serverTrust:SecTrust = challenge.protectionSpace.serverTrust!

                    func acceptServerTrust() {
                        let credential:URLCredential = URLCredential(trust: serverTrust)
                        ↓challenge.sender?.use(credential, for: challenge)
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
            """, note: "The pinning delegate of the Italian reference, as written."),
            .triggering("TrustDelegate.m", """
            - (void)URLSession:(NSURLSession *)session didReceiveChallenge:(NSURLAuthenticationChallenge *)challenge completionHandler:(void (^)(NSURLSessionAuthChallengeDisposition, NSURLCredential *))completionHandler {
                ↓[challenge.sender performDefaultHandlingForAuthenticationChallenge:challenge];
                completionHandler(NSURLSessionAuthChallengePerformDefaultHandling, nil);
            }
            """),
            .nonTriggering("TrustDelegate.swift", """
            func urlSession(_ session: URLSession, didReceive challenge: URLAuthenticationChallenge, completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
                if challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust {
                    let serverTrust:SecTrust = challenge.protectionSpace.serverTrust!
                    func acceptServerTrust() {
                        completionHandler(.useCredential, URLCredential(trust: serverTrust))
                    }
                    if SSLTrustManager.shouldTrustServerTrust(serverTrust, forCert: "Server_Public_SSL_Cert") {
                        acceptServerTrust()
                        return
                    }
                }
                completionHandler(.cancelAuthenticationChallenge, nil)
            }
            """, note: "The Italian delegate fixed: only the completion handler answers."),
            .nonTriggering("LegacyDelegate.m", """
            - (void)connection:(NSURLConnection *)connection willSendRequestForAuthenticationChallenge:(NSURLAuthenticationChallenge *)challenge {
                [challenge.sender performDefaultHandlingForAuthenticationChallenge:challenge];
            }
            """, note: "NSURLConnection has no completion handler: the sender is the way to answer."),
        ])

    public init() {}

    static let senderMethods: Set<String> = Set(APIs.challengeSenderAnswer.swiftBaseNames + APIs.challengeSenderAnswer.selectors)

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        guard unit.names.containsName(where: ChallengeHandler.isChallengeType) else { return }
        for handler in ChallengeHandler.all(in: file) {
            guard let completion = handler.completion, let body = handler.function.body else { continue }
            var lists: [[Statement]] = [body.statements]
            var index = 0
            while index < lists.count {
                for statement in lists[index] {
                    lists.append(contentsOf: statement.blocks.map(\.statements))
                    if case .declaration(let declaration) = statement.kind {
                        for nested in declaration.flattenedFunctions { if let nestedBody = nested.body { lists.append(nestedBody.statements) } }
                    }
                }
                index += 1
            }
            for statements in lists {
                let calls = statements.compactMap { statement -> Expression? in
                    guard case .expression(let expression) = statement.kind, case .call = expression.unwrapped.kind else { return nil }
                    return expression.unwrapped
                }
                let completes = calls.contains { call in
                    if case .call(let callee, _, _) = call.kind, case .identifier(completion) = callee.unwrapped.kind { return true }
                    return false
                }
                guard completes else { continue }
                for call in calls where Self.isSenderCall(call) {
                    sink.report("The challenge is answered through `challenge.sender` and through `\(completion)` in the same path: with URLSession answer only through the completion handler.",
                                in: file, at: call.range)
                }
            }
        }
    }

    static func isSenderCall(_ call: Expression) -> Bool {
        guard case .call(let callee, _, _) = call.kind, let name = callee.name, senderMethods.contains(name),
              let receiver = callee.receiver else { return false }
        return receiver.nameChain.last == "sender"
    }
}
