import MoatCore
import MoatSyntax

/// Certificate validation turned off through a networking library or a private/stream API: Alamofire
/// `DisabledTrustEvaluator` / `DisabledEvaluator` / `.disableEvaluation`, AFNetworking
/// `allowInvalidCertificates = YES` / `validatesDomainName = NO`, `setAllowsAnyHTTPSCertificate:forHost:`,
/// and `kCFStreamSSLValidatesCertificateChain: false`. Inside `#if DEBUG` it is reported at low severity.
///
/// An AFNetworking policy that pins (`policyWithPinningMode:` / `AFSecurityPolicy(pinningMode:)` or an
/// `SSLPinningMode` write with a mode other than none) still requires the server's certificate or public
/// key to be one of the pinned ones: `allowInvalidCertificates` then only lets a pinned self-signed
/// certificate through (AFNetworking's documented way to pin one), and `validatesDomainName = NO` admits
/// no server without the pinned key. Those two writes on a pinned policy stay quiet.
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
            // A pinned policy for a server with a self-signed certificate: the pin still decides.
            .nonTriggering("PinnedServer.m", """
            @implementation PinnedServer
            - (instancetype)initWithCertificate:(NSData *)der {
                if (self = [super init]) {
                    _trustPolicy = [AFSecurityPolicy policyWithPinningMode:AFSSLPinningModeCertificate];
                    self.trustPolicy.allowInvalidCertificates = YES;
                    [self.trustPolicy setValidatesDomainName:NO];
                    self.trustPolicy.pinnedCertificates = [NSSet setWithObject:der];
                }
                return self;
            }
            @end
            """),
            .nonTriggering("PinnedServer.swift", """
            import AFNetworking
            func selfSignedPolicy(_ certificate: Data) -> AFSecurityPolicy {
                let policy = AFSecurityPolicy(pinningMode: .publicKey, withPinnedCertificates: [certificate])
                policy.allowInvalidCertificates = true
                return policy
            }
            func laterPinned() -> AFSecurityPolicy {
                let policy = AFSecurityPolicy.default()
                policy.sslPinningMode = .certificate
                policy.validatesDomainName = false
                return policy
            }
            """),
            // Pinning mode none pins nothing: the chain is not checked at all.
            .triggering("UnpinnedServer.m", """
            - (AFSecurityPolicy *)policy {
                AFSecurityPolicy *policy = [AFSecurityPolicy policyWithPinningMode:AFSSLPinningModeNone];
                ↓policy.allowInvalidCertificates = YES;
                return policy;
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
        let pinned = pinnedPolicies(in: file)
        for write in file.propertyWrites(named: ["allowInvalidCertificates", "validatesDomainName"]) {
            if let object = write.object, let key = Self.policyKey(object, in: write.context), pinned.contains(key) { continue }
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

    /// Names that make or set an AFNetworking policy's pinning mode.
    static let pinningModeFactories: Set<String> = Set(APIs.afSecurityPolicyPinning.selectors + APIs.afSecurityPolicyPinning.classes)
    static let pinningModeProperties: Set<String> = ["SSLPinningMode", "sslPinningMode"]

    /// The variable or property a policy is kept in: a local by its function (`policy`), a property or an
    /// instance variable by its name (`self.securityPolicy`, `_securityPolicy`).
    static func policyKey(_ expression: Expression, in context: WalkContext) -> String? {
        switch expression.unwrapped.kind {
        case .identifier(let name):
            if name.hasPrefix("_") { return String(name.dropFirst()) }
            return "\(context.function?.range.start.offset ?? -1):\(name)"
        case .member(let base, let name):
            guard base == nil || base?.name == "self" else { return nil }
            return name
        default:
            return nil
        }
    }

    /// Whether a value is a pinning mode other than none (`AFSSLPinningModePublicKey`, `.certificate`).
    static func isPinningMode(_ expression: Expression) -> Bool {
        guard let name = expression.name?.lowercased() else { return false }
        return name.hasSuffix("certificate") || name.hasSuffix("publickey")
    }

    /// The policies of this file that pin: kept from a factory given a pinning mode, or given one later.
    func pinnedPolicies(in file: CodeFile) -> Set<String> {
        var pinned: Set<String> = []
        func madePinned(_ value: Expression) -> Bool {
            guard case .call(let callee, let arguments, _) = value.unwrapped.kind, let name = callee.name,
                  Self.pinningModeFactories.contains(name), let mode = arguments.first else { return false }
            return Self.isPinningMode(mode.value)
        }
        for write in file.propertyWrites(named: Self.pinningModeProperties) where Self.isPinningMode(write.value) {
            if let object = write.object, let key = Self.policyKey(object, in: write.context) { pinned.insert(key) }
        }
        file.walk { node, context in
            guard case .statement(let statement) = node else { return }
            switch statement.kind {
            case .variable(let names, _, let initializer?, _) where names.count == 1 && madePinned(initializer):
                pinned.insert("\(context.function?.range.start.offset ?? -1):\(names[0])")
            case .assignment(let target, "=", let value) where madePinned(value):
                if let key = Self.policyKey(target, in: context) { pinned.insert(key) }
            default:
                break
            }
        }
        return pinned
    }
}
