import MoatCore
import MoatSyntax

/// Certificate validation turned off through a networking library or a private/stream API: Alamofire
/// `DisabledTrustEvaluator` / `DisabledEvaluator` / `.disableEvaluation`, AFNetworking
/// `allowInvalidCertificates = YES` / `validatesDomainName = NO`, `setAllowsAnyHTTPSCertificate:forHost:`,
/// and `kCFStreamSSLValidatesCertificateChain: false`. Inside `#if DEBUG` it is reported at low severity.
public struct TLSValidationDisabledRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-NET-207", slug: "tls-validation-disabled",
        title: "TLS certificate validation disabled",
        severity: .critical, confidence: .high, evidence: .configuration, cwe: [295],
        masvs: ["MASVS-NETWORK-1"], mastg: ["MASTG-TEST-0067"],
        rationale: "These settings accept any certificate (or any host name on a valid certificate): self-signed, expired, issued for another domain. Anyone on the network path can impersonate the server, read credentials and change responses.",
        fix: "Remove the setting. For development servers use a locally trusted CA installed on test devices, and keep any test-only evaluator behind `#if DEBUG` with a host allowlist.",
        references: ["https://github.com/Alamofire/Alamofire/blob/master/Documentation/AdvancedUsage.md#evaluating-server-trusts-with-servertrustmanager-and-servertrustevaluating",
                     "https://mas.owasp.org/MASTG/tests/ios/MASVS-NETWORK/MASTG-TEST-0067/"],
        examples: [
            .triggering("Networking.swift", """
            import Alamofire
            let manager = ServerTrustManager(evaluators: ["api.example.com": ↓DisabledTrustEvaluator()])
            let legacy = ServerTrustPolicyManager(policies: ["api.example.com": ↓.disableEvaluation])
            let settings: [String: Any] = [↓kCFStreamSSLValidatesCertificateChain as String: false]
            """),
            .triggering("Networking.m", """
            - (void)configure {
                AFSecurityPolicy *policy = [AFSecurityPolicy defaultPolicy];
                ↓policy.allowInvalidCertificates = YES;
                ↓[policy setValidatesDomainName:NO];
                ↓[NSURLRequest setAllowsAnyHTTPSCertificate:YES forHost:@"api.example.com"];
            }
            """),
            .nonTriggering("Networking.swift", """
            import Alamofire
            let manager = ServerTrustManager(evaluators: ["api.example.com": PublicKeysTrustEvaluator()])
            let settings: [String: Any] = [kCFStreamSSLValidatesCertificateChain as String: true]
            """),
            .nonTriggering("Networking.m", """
            - (void)configure {
                AFSecurityPolicy *policy = [AFSecurityPolicy policyWithPinningMode:AFSSLPinningModePublicKey];
                policy.allowInvalidCertificates = NO;
                policy.validatesDomainName = YES;
            }
            """),
        ])

    public init() {}

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        guard unit.names.mayWriteProperty(["allowInvalidCertificates", "validatesDomainName"])
            || unit.names.containsAny(["DisabledTrustEvaluator", "DisabledEvaluator", "setAllowsAnyHTTPSCertificate", "disableEvaluation"])
            || unit.names.containsAnywhere(["kCFStreamSSLValidatesCertificateChain"]) else { return }
        var findings: [(SourceRange, String, WalkContext)] = []
        for write in file.propertyWrites(named: ["allowInvalidCertificates", "validatesDomainName"]) {
            let disables = write.property == "allowInvalidCertificates" ? write.value.boolValue == true : write.value.boolValue == false
            guard disables else { continue }
            let what = write.property == "allowInvalidCertificates"
                ? "`allowInvalidCertificates` accepts self-signed and invalid certificates"
                : "`validatesDomainName = NO` accepts a valid certificate issued for any other host"
            findings.append((write.range, what, write.context))
        }
        file.walk { node, context in
            guard case .expression(let expression) = node else { return }
            switch expression.kind {
            case .call(let callee, let arguments, let isMessageSend):
                guard let name = callee.name else { return }
                if !isMessageSend, name == "DisabledTrustEvaluator" || name == "DisabledEvaluator" {
                    findings.append((expression.range, "Alamofire `\(name)` performs no certificate validation", context))
                } else if name == APIs.allowAnyHTTPSCertificate.selectors[0], arguments.first?.value.boolValue == true {
                    findings.append((expression.range, "`setAllowsAnyHTTPSCertificate:forHost:` (private API) accepts any certificate for that host", context))
                }
            case .member(nil, "disableEvaluation"):
                findings.append((expression.range, "Alamofire `.disableEvaluation` performs no certificate validation", context))
            case .dictionaryLiteral(let pairs):
                for pair in pairs where DictionaryEntries.keyName(pair.key) == "kCFStreamSSLValidatesCertificateChain"
                    && pair.value.boolValue == false {
                    findings.append((pair.key.range, "`kCFStreamSSLValidatesCertificateChain` set to false accepts any certificate chain", context))
                }
            default:
                break
            }
        }
        for (range, what, context) in findings.sorted(by: { $0.0.start.offset < $1.0.start.offset }) {
            let debug = context.isDebugOnly
            sink.report("\(what): anyone on the network can impersonate the server.\(debug ? " It is inside #if DEBUG; keep it out of release builds." : " Remove it.")",
                        in: file, at: range, severity: debug ? .low : nil)
        }
    }
}
