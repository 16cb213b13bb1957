import MoatCore
import MoatSyntax

/// A trust result compared with `kSecTrustResultUnspecified` (or `.unspecified`) in a function that never
/// mentions `kSecTrustResultProceed` / `.proceed`. Swift's `.unspecified` only counts in functions that use
/// the trust API, since many enums have such a case.
public struct TrustResultUnspecifiedOnlyRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-NET-203", slug: "trust-result-unspecified-only",
        title: "Trust result check accepts only kSecTrustResultUnspecified",
        severity: .low, confidence: .medium, cwe: [295, 754],
        masvs: ["MASVS-NETWORK-1"], mastg: ["MASTG-TEST-0067"],
        rationale: "`SecTrustEvaluate` reports success as either `kSecTrustResultUnspecified` (trusted by default) or `kSecTrustResultProceed` (the user explicitly trusted the certificate). A check for Unspecified alone rejects valid chains, which invites workarounds, and when it sits next to an ignored OSStatus it compares a result the failed call never wrote.",
        fix: "Use `SecTrustEvaluateWithError`. If you must keep `SecTrustEvaluate`, check its OSStatus first and accept both `kSecTrustResultUnspecified` and `kSecTrustResultProceed`.",
        references: ["https://developer.apple.com/documentation/security/sectrustresulttype",
                     "https://developer.apple.com/documentation/security/2980705-sectrustevaluatewitherror"],
        examples: [
            .triggering("SSLTrustManager.m", """
            + (BOOL)shouldTrustServerTrust:(SecTrustRef)serverTrust forCert:(NSString*)certName {
                SecTrustResultType trustResult;
                SecTrustEvaluate(serverTrust, &trustResult);
                // Did our custom trust chain evaluate successfully?
                return ↓trustResult == kSecTrustResultUnspecified;
            }
            """, note: "The Italian reference's check, next to an ignored OSStatus (reported at medium severity)."),
            .triggering("TrustCheck.swift", """
            func isTrusted(_ trust: SecTrust) -> Bool {
                var result = SecTrustResultType.invalid
                guard SecTrustEvaluate(trust, &result) == errSecSuccess else { return false }
                return ↓result == .unspecified
            }
            """),
            .nonTriggering("SSLTrustManager.m", """
            + (BOOL)shouldTrustServerTrust:(SecTrustRef)serverTrust {
                SecTrustResultType trustResult = kSecTrustResultInvalid;
                OSStatus status = SecTrustEvaluate(serverTrust, &trustResult);
                return status == errSecSuccess && (trustResult == kSecTrustResultUnspecified || trustResult == kSecTrustResultProceed);
            }
            """),
            .nonTriggering("Appearance.swift", """
            func apply(_ style: UIUserInterfaceStyle) {
                if style == .unspecified { useSystemColors() }
            }
            """),
        ])

    public init() {}

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        guard unit.names.containsAny(["kSecTrustResultUnspecified", "unspecified"]) else { return }
        let ignored = DeprecatedTrustEvaluateRule.ignoredCalls(named: DeprecatedTrustEvaluateRule.legacyNames, in: file)
        for (function, _) in file.allFunctions {
            guard let body = function.body else { continue }
            let expressions = body.allExpressions
            var mentionsProceed = false
            var usesTrustAPI = false
            var ignoresStatus = false
            for expression in expressions {
                switch expression.kind {
                case .identifier(let name):
                    if name == "kSecTrustResultProceed" { mentionsProceed = true }
                    if name.hasPrefix("SecTrust") || name.hasPrefix("kSecTrustResult") { usesTrustAPI = true }
                case .member(_, let name):
                    if name == "proceed" { mentionsProceed = true }
                    if name == "SecTrustResultType" { usesTrustAPI = true }
                default:
                    break
                }
                if ignored.contains(ObjectIdentifier(expression)) { ignoresStatus = true }
            }
            guard !mentionsProceed else { continue }
            for expression in expressions {
                guard case .binary("==", let lhs, let rhs) = expression.kind,
                      Self.isUnspecified(lhs, usesTrustAPI) || Self.isUnspecified(rhs, usesTrustAPI) else { continue }
                let status = ignoresStatus ? " and the OSStatus of SecTrustEvaluate is ignored, so after a failed call this compares an uninitialized result" : ""
                sink.report("The trust result is accepted only when it is `kSecTrustResultUnspecified`: chains the user trusted (`kSecTrustResultProceed`) are rejected\(status). Use `SecTrustEvaluateWithError`.",
                            in: file, at: expression.range, severity: ignoresStatus ? .medium : nil, confidence: ignoresStatus ? .low : nil)
            }
        }
    }

    static func isUnspecified(_ expression: Expression, _ usesTrustAPI: Bool) -> Bool {
        switch expression.strippedOfCasts.kind {
        case .identifier("kSecTrustResultUnspecified"): return true
        case .member(let base, "unspecified"):
            if let base { return base.nameChain.contains("SecTrustResultType") }
            return usesTrustAPI
        default: return false
        }
    }
}
