import MoatCore
import MoatSyntax

/// `SecTrustSetAnchorCertificatesOnly(trust, false)`: the custom anchors set with
/// `SecTrustSetAnchorCertificates` are added to the system roots instead of replacing them.
///
/// Note: `SecTrustSetAnchorCertificates` alone already restricts evaluation to the given anchors (Apple:
/// "calling this function without also calling SecTrustSetAnchorCertificatesOnly disables the trusting of
/// any anchors other than the ones specified"), so it is not reported; it is listed by the pinning
/// inventory (MOAT-NET-206).
public struct SystemAnchorsReenabledRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-NET-205", slug: "system-anchors-reenabled",
        title: "Custom trust anchors combined with the system roots",
        severity: .medium, confidence: .medium, evidence: .configuration, cwe: [295],
        masvs: ["MASVS-NETWORK-2"], mastg: ["MASTG-TEST-0068"],
        rationale: "`SecTrustSetAnchorCertificatesOnly(trust, false)` re-enables the built-in root certificates next to the ones the app bundled. If the bundled anchor was meant as a pin, any certificate from any public CA (or a CA an attacker got the device to trust) now passes, and the pinning protects nothing.",
        fix: "For pinning, call `SecTrustSetAnchorCertificates` and leave anchors-only on (or call `SecTrustSetAnchorCertificatesOnly(trust, true)`). Re-enable the system roots only when the goal is to add a private CA, not to pin.",
        references: ["https://developer.apple.com/documentation/security/1399071-sectrustsetanchorcertificatesonly",
                     "https://developer.apple.com/documentation/security/1396098-sectrustsetanchorcertificates"],
        examples: [
            .triggering("Pinning.swift", """
            func evaluate(_ trust: SecTrust, pinned: SecCertificate) -> Bool {
                SecTrustSetAnchorCertificates(trust, [pinned] as CFArray)
                ↓SecTrustSetAnchorCertificatesOnly(trust, false)
                return SecTrustEvaluateWithError(trust, nil)
            }
            """),
            .triggering("Pinning.m", """
            BOOL Evaluate(SecTrustRef trust, CFArrayRef anchors) {
                SecTrustSetAnchorCertificates(trust, anchors);
                ↓SecTrustSetAnchorCertificatesOnly(trust, NO);
                return SecTrustEvaluateWithError(trust, NULL);
            }
            """),
            .triggering("ServerTrust.m", """
            - (void)evaluate:(SecTrustRef)trust anchors:(NSArray *)anchors {
                SecTrustSetAnchorCertificates(trust, (__bridge CFArrayRef)anchors);
                ↓SecTrustSetAnchorCertificatesOnly(trust, NO);
            }
            """, note: "Anchors that are not bundled certificates and not named as an addition are reported with low confidence."),
            .nonTriggering("UserTrust.m", """
            - (void)evaluate:(SecTrustRef)trust {
                NSString *pinned = [[NSBundle mainBundle] pathForResource:@"server" ofType:@"cer"];
                if (pinned) {
                    SecTrustSetAnchorCertificates(trust, (__bridge CFArrayRef)@[LoadCertificate(pinned)]);
                } else {
                    NSSet<NSData *> *certificates = [AllowedCertificates sharedInstance].certificates;
                    if (certificates.count) {
                        NSMutableArray *allowedCertificates = [NSMutableArray array];
                        for (NSData *data in certificates) {
                            [allowedCertificates addObject:(__bridge_transfer id)SecCertificateCreateWithData(NULL, (__bridge CFDataRef)data)];
                        }
                        SecTrustSetAnchorCertificates(trust, (__bridge CFArrayRef)allowedCertificates);
                        SecTrustSetAnchorCertificatesOnly(trust, false);
                    }
                }
            }
            - (void)evaluateAccepted:(SecTrustRef)trust {
                SecTrustSetAnchorCertificates(trust, (__bridge CFArrayRef)self.userAcceptedCertificates);
                SecTrustSetAnchorCertificatesOnly(trust, NO);
            }
            """, note: "Anchors named as an addition (certificates the user accepted or allowed, a self-signed server's certificate) next to the system roots: re-enabling the roots is what such an addition needs, not a broken pin. The bundled pin in the other branch keeps anchors-only."),
            .nonTriggering("Pinning.swift", """
            func evaluate(_ trust: SecTrust, pinned: SecCertificate) -> Bool {
                SecTrustSetAnchorCertificates(trust, [pinned] as CFArray)
                SecTrustSetAnchorCertificatesOnly(trust, true)
                return SecTrustEvaluateWithError(trust, nil)
            }
            func evaluateDefault(_ trust: SecTrust, pinned: SecCertificate) -> Bool {
                SecTrustSetAnchorCertificates(trust, [pinned] as CFArray)
                return SecTrustEvaluateWithError(trust, nil)
            }
            """),
        ])

    public init() {}

    /// Whether the innermost block around the call (the text of the function up to the call, from its last
    /// unclosed `{`) loads certificates from the app bundle or names a pin: the usual shape of pinning.
    /// Anchors from elsewhere (certificates the user accepted and the app stored) are an addition to the
    /// system roots, for which re-enabling them is intended: reported with low confidence.
    static func blockLooksLikeAPin(_ textBeforeCall: String) -> Bool {
        let block = innermostBlock(textBeforeCall)
        let lower = block.lowercased()
        if ["bundle", "forresource", "resourcesoftype", "\"cer\"", "\"der\"", ".cer\"", ".der\""].contains(where: { lower.contains($0) }) {
            return true
        }
        // `pinned`, `pinnedCertificates`, `serverPins`: "pin" starting a word or a camel-case part.
        var previous: Character = " "
        var rest = Substring(block)
        while let range = rest.range(of: "pin", options: .caseInsensitive) {
            let first = rest[range.lowerBound]
            previous = range.lowerBound == rest.startIndex ? previous : rest[rest.index(before: range.lowerBound)]
            if first == "P" || !previous.isLetter { return true }
            previous = rest[rest.index(before: range.upperBound)]
            rest = rest[range.upperBound...]
        }
        return false
    }

    /// Whether the innermost block around the call names its anchors as an addition to the system roots:
    /// certificates the user accepted, allowed or trusted, additional anchors (`allowedCertificates`,
    /// `userAcceptedCertificates`, `additionalAnchors`). Identifiers only, by their camel-case words.
    static func blockNamesAnAddition(_ textBeforeCall: String) -> Bool {
        let block = innermostBlock(textBeforeCall)
        var word = ""
        var identifiers: [String] = []
        for character in block {
            if character.isLetter || character.isNumber || character == "_" { word.append(character) } else if !word.isEmpty {
                identifiers.append(word)
                word = ""
            }
        }
        if !word.isEmpty { identifiers.append(word) }
        let additions: Set<String> = ["allowed", "accepted", "additional", "extra", "approved"]
        let anchors: Set<String> = ["certificate", "certificates", "certs", "cert", "anchors", "anchor", "roots"]
        return identifiers.contains { identifier in
            let words = SecretNaming.words(identifier)
            return words.contains(where: additions.contains) && words.contains(where: anchors.contains)
        }
    }

    /// The text from the last `{` left open before the call (the whole text when there is none).
    static func innermostBlock(_ textBeforeCall: String) -> String {
        var depth = 0
        var index = textBeforeCall.endIndex
        while index > textBeforeCall.startIndex {
            index = textBeforeCall.index(before: index)
            let character = textBeforeCall[index]
            if character == "}" { depth += 1 }
            if character == "{" {
                if depth == 0 { return String(textBeforeCall[index...]) }
                depth -= 1
            }
        }
        return textBeforeCall
    }

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        guard unit.names.contains("SecTrustSetAnchorCertificatesOnly") else { return }
        for (call, context) in file.calls(where: { call in
            guard case .call(let callee, let arguments, false) = call.kind,
                  case .identifier("SecTrustSetAnchorCertificatesOnly") = callee.unwrapped.kind, arguments.count == 2 else { return false }
            return arguments[1].value.boolValue == false
        }) {
            if let function = context.function, case let before = file.text(SourceRange(start: function.range.start, end: call.range.start)),
               !Self.blockLooksLikeAPin(before) {
                // Anchors named as an addition: the system roots are meant to stay trusted beside them.
                if Self.blockNamesAnAddition(before) { continue }
                sink.report("`SecTrustSetAnchorCertificatesOnly(_, false)` adds the system root certificates back next to the custom anchors. The anchors here are not bundled certificates, so they may be an addition (certificates the user accepted, a private CA) rather than a pin; if they are meant as a pin, any publicly trusted certificate now passes.",
                            in: file, at: call.range, confidence: .low)
                continue
            }
            sink.report("`SecTrustSetAnchorCertificatesOnly(_, false)` adds the system root certificates back next to the custom anchors: if those anchors are a pin, any publicly trusted certificate now passes.",
                        in: file, at: call.range)
        }
    }
}
