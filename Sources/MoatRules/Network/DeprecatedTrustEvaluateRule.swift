import MoatCore
import MoatSyntax

public struct DeprecatedTrustEvaluateRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-NET-202", slug: "deprecated-sectrust-evaluate",
        title: "Deprecated SecTrustEvaluate",
        severity: .low, confidence: .high, cwe: [295, 477],
        masvs: ["MASVS-NETWORK-1"], mastg: ["MASTG-TEST-0067", "MASTG-TEST-0068"],
        rationale: "`SecTrustEvaluate` (deprecated since iOS 13) reports through two channels, an OSStatus and a `SecTrustResultType`, and callers routinely check one and not the other: when the call itself fails, the result variable is never written, and code that ignores the status goes on to read an uninitialized value. `SecTrustEvaluateWithError` returns one Boolean and an error that says why.",
        fix: "Call `SecTrustEvaluateWithError(trust, &error)` and trust the server only when it returns true.",
        references: ["https://developer.apple.com/documentation/security/1394363-sectrustevaluate",
                     "https://developer.apple.com/documentation/security/2980705-sectrustevaluatewitherror"],
        examples: [
            .triggering("SSLTrustManager.m", """
            @implementation SSLTrustManager
            + (BOOL)shouldTrustServerTrust:(SecTrustRef)serverTrust forCert:(NSString*)certName {
            // Load up the bundled certificate.
            NSString *certPath = [[NSBundle mainBundle] pathForResource:certName ofType:@"der"];
            NSData *certData = [[NSData alloc] initWithContentsOfFile:certPath];
            CFDataRef certDataRef = (__bridge_retained CFDataRef)certData;
            SecCertificateRef cert = SecCertificateCreateWithData(NULL, certDataRef);

            // Establish a chain of trust anchored on our bundled certificate.
            CFArrayRef certArrayRef = CFArrayCreate(NULL, (void *)&cert, 1, NULL);
            SecTrustSetAnchorCertificates(serverTrust, certArrayRef);

            // Verify that trust.
            SecTrustResultType trustResult;
            ↓SecTrustEvaluate(serverTrust, &trustResult);

            // Clean up.
            CFRelease(certArrayRef);
            CFRelease(cert);
            CFRelease(certDataRef);

            // Did our custom trust chain evaluate successfully?
            return trustResult == kSecTrustResultUnspecified;
            }
            @end
            """, note: "The trust manager of the Italian reference, as written."),
            .triggering("TrustCheck.swift", """
            func isTrusted(_ trust: SecTrust) -> Bool {
                var result = SecTrustResultType.invalid
                let status = ↓SecTrustEvaluate(trust, &result)
                return status == errSecSuccess && (result == .unspecified || result == .proceed)
            }
            """),
            .nonTriggering("SSLTrustManager.m", """
            @implementation SSLTrustManager
            + (BOOL)shouldTrustServerTrust:(SecTrustRef)serverTrust forCert:(NSString*)certName {
                NSString *certPath = [[NSBundle mainBundle] pathForResource:certName ofType:@"der"];
                NSData *certData = [[NSData alloc] initWithContentsOfFile:certPath];
                SecCertificateRef cert = SecCertificateCreateWithData(NULL, (__bridge CFDataRef)certData);
                if (cert == NULL) {
                    return NO;
                }
                NSArray *anchors = @[(__bridge id)cert];
                SecTrustSetAnchorCertificates(serverTrust, (__bridge CFArrayRef)anchors);
                SecTrustSetAnchorCertificatesOnly(serverTrust, YES);
                CFErrorRef error = NULL;
                BOOL trusted = SecTrustEvaluateWithError(serverTrust, &error);
                CFRelease(cert);
                return trusted;
            }
            @end
            """, note: "The Italian trust manager fixed: SecTrustEvaluateWithError decides."),
            .nonTriggering("TrustCheck.swift", """
            func isTrusted(_ trust: SecTrust) -> Bool {
                var error: CFError?
                return SecTrustEvaluateWithError(trust, &error)
            }
            """),
            .triggering("Demo.app/Demo", """
            Mach-O executable arm64
            imports: _objc_msgSend ↓_SecTrustEvaluate _SecTrustGetCertificateCount
            """),
            .nonTriggering("Demo.app/Demo", """
            Mach-O executable arm64
            imports: _objc_msgSend _SecTrustEvaluateWithError
            """),
        ])

    public init() {}

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        guard unit.names.containsAny(Self.legacyNames) else { return }
        let ignored = Self.ignoredCalls(named: Self.legacyNames, in: file)
        for (call, _) in file.calls(where: { call in
            guard case .call(let callee, _, false) = call.kind, case .identifier(let name) = callee.unwrapped.kind else { return false }
            return Self.legacyNames.contains(name)
        }) {
            let status = ignored.contains(ObjectIdentifier(call))
                ? " Its OSStatus is ignored here: if the call fails, the result variable is read uninitialized."
                : ""
            sink.report("`SecTrustEvaluate` is deprecated and easy to misread (a status and a separate result).\(status) Use `SecTrustEvaluateWithError`.",
                        in: file, at: call.range)
        }
    }

    /// Calls of a C function used as a whole statement (result discarded).
    /// The deprecated evaluation (a C function), from the vocabulary.
    static let legacyNames = Set(APIs.secTrustEvaluateLegacy.cFunctions)

    static func ignoredCalls(named names: Set<String>, in file: CodeFile) -> Set<ObjectIdentifier> {
        var result = Set<ObjectIdentifier>()
        file.forEachStatement { statement, _ in
            guard case .expression(let expression) = statement.kind else { return }
            var bare = expression
            // `_ = f()` is an assignment; `(void)f()` a cast.
            if case .cast(let operand, _, _) = bare.kind { bare = operand }
            bare = bare.unwrapped
            if case .call(let callee, _, _) = bare.kind, case .identifier(let name) = callee.unwrapped.kind, names.contains(name) {
                result.insert(ObjectIdentifier(bare))
            }
        }
        return result
    }
}
