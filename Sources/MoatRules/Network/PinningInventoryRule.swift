import MoatCore
import MoatSyntax

/// Where the app customises server trust: challenge handlers that look at the server trust, custom
/// anchors, TrustKit, Alamofire trust evaluators and AFNetworking pinning policies.
public struct PinningInventoryRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-NET-206", slug: "certificate-pinning-inventory",
        title: "Certificate pinning and custom trust handling",
        severity: .info, confidence: .high, cwe: [295],
        masvs: ["MASVS-NETWORK-2"], mastg: ["MASTG-TEST-0068"],
        rationale: "Custom trust code is where TLS is most often broken, and pinning is only as good as its coverage and its fallback. This inventory lists every place the app takes over server trust so each can be reviewed: which hosts, what is pinned (leaf, intermediate, public key), what happens on failure, and how pins are rotated.",
        fix: "Prefer declarative pinning (`NSPinnedDomains` in Info.plist, iOS 14+) or a maintained library; pin public keys of more than one certificate; fail closed; evaluate the chain with `SecTrustEvaluateWithError` before comparing pins.",
        references: ["https://mas.owasp.org/MASTG/tests/ios/MASVS-NETWORK/MASTG-TEST-0068/",
                     "https://developer.apple.com/news/?id=g9ejcf8y"],
        isInventory: true,
        examples: [
            .triggering("Pinning.swift", """
            import Alamofire
            let evaluators: [String: ServerTrustEvaluating] = [
                "api.example.com": ↓PinnedCertificatesTrustEvaluator(),
                "cdn.example.com": ↓PublicKeysTrustEvaluator(),
            ]
            let manager = ↓ServerTrustManager(evaluators: evaluators)
            final class Delegate: NSObject, URLSessionDelegate {
                func ↓urlSession(_ session: URLSession, didReceive challenge: URLAuthenticationChallenge, completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
                    guard let trust = challenge.protectionSpace.serverTrust else { return completionHandler(.performDefaultHandling, nil) }
                    ↓SecTrustSetAnchorCertificates(trust, anchors as CFArray)
                    completionHandler(SecTrustEvaluateWithError(trust, nil) ? .useCredential : .cancelAuthenticationChallenge, URLCredential(trust: trust))
                }
            }
            """),
            .triggering("AppDelegate.m", """
            - (void)configurePinning {
                ↓[TrustKit initSharedInstanceWithConfiguration:@{kTSKPinnedDomains: @{}}];
                AFSecurityPolicy *policy = ↓[AFSecurityPolicy policyWithPinningMode:AFSSLPinningModePublicKey];
            }
            """),
            .nonTriggering("Client.swift", """
            final class Delegate: NSObject, URLSessionDelegate {
                func urlSession(_ session: URLSession, didReceive challenge: URLAuthenticationChallenge, completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
                    completionHandler(.performDefaultHandling, nil)
                }
            }
            let policy = AFSecurityPolicy.default()
            """, note: "A handler that leaves server trust to the system is not custom trust handling."),
        ])

    public init() {}

    static let constructors: [String: String] = [
        "ServerTrustManager": "Alamofire ServerTrustManager", "PinnedCertificatesTrustEvaluator": "Alamofire certificate pinning",
        "PublicKeysTrustEvaluator": "Alamofire public-key pinning", "ServerTrustPolicyManager": "Alamofire ServerTrustPolicyManager",
        "pinCertificates": "Alamofire certificate pinning", "pinPublicKeys": "Alamofire public-key pinning",
        "initSharedInstance": "TrustKit", APIs.trustKitInit.selectors[0]: "TrustKit",
        "TSKPinningValidator": "TrustKit pinning validator", "SecTrustSetAnchorCertificates": "custom trust anchors",
        APIs.afSecurityPolicyPinning.selectors[0]: "AFNetworking pinning policy", APIs.afSecurityPolicyPinning.selectors[1]: "AFNetworking pinning policy",
        "policy": "AFNetworking pinning policy",
    ]

    static let constructorNames = SourceNames.callNames(constructors.keys)

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        guard unit.names.containsName(where: ChallengeHandler.isChallengeType) || unit.names.containsAny(Self.constructorNames) else { return }
        var findings: [(SourceRange, String, InventoryItem)] = []
        for handler in ChallengeHandler.all(in: file) {
            guard let body = handler.function.body else { continue }
            let touchesTrust = body.allExpressions.contains { expression in
                if case .member(_, "serverTrust") = expression.kind { return true }
                if case .identifier("NSURLAuthenticationMethodServerTrust") = expression.kind { return true }
                return false
            }
            if touchesTrust {
                let message = "`\(handler.function.fullName)` handles server trust itself: review which hosts it pins, what it compares, and that it fails closed."
                findings.append((handler.function.nameRange, message, InventoryItem(.customTrust, name: handler.function.fullName, detail: message)))
            }
        }
        file.forEachExpression { expression, _ in
            guard case .call(let callee, let arguments, _) = expression.kind, let name = callee.name,
                  let label = Self.constructors[name] else { return }
            switch name {
            case "pinCertificates", "pinPublicKeys":
                guard case .member(nil, _) = callee.kind else { return }
            case "initSharedInstance", APIs.trustKitInit.selectors[0], "TSKPinningValidator":
                guard name == "TSKPinningValidator" || callee.receiver?.nameChain.contains("TrustKit") == true else { return }
            case APIs.afSecurityPolicyPinning.selectors[0], APIs.afSecurityPolicyPinning.selectors[1], "policy":
                guard callee.receiver?.nameChain.contains("AFSecurityPolicy") == true,
                      arguments.contains(where: { $0.value.descendants().contains { node in
                          if case .identifier(let mode) = node.kind { return mode == "AFSSLPinningModeCertificate" || mode == "AFSSLPinningModePublicKey" }
                          if case .member(_, let mode) = node.kind { return mode == "certificate" || mode == "publicKey" }
                          return false
                      } }) else { return }
            default:
                break
            }
            let message = "\(label) (`\(name)`) customises server trust here: review its hosts, pins and failure behaviour."
            findings.append((expression.range, message, InventoryItem(.customTrust, name: name, detail: message)))
        }
        for (range, message, item) in findings.sorted(by: { $0.0.start.offset < $1.0.start.offset }) {
            sink.inventory(item, message, in: file, at: range)
        }
    }
}
