import Testing
import MoatCore
import MoatSyntax
@testable import MoatRules
import MoatScan

/// Evidence before severity, as a table: what the sensitive data of a dataflow finding rests on caps the
/// severity its rule asks for. A name alone (`password`, `authToken`) is low at most; a Keychain read, a
/// secure field's text, a credential a sign-in returned and untrusted input keep the rule's severity.
struct EvidenceSeverityTests {
    static let range = SourceRange(start: SourcePosition(line: 1, column: 1, offset: 0), end: SourcePosition(line: 1, column: 2, offset: 1))

    static func taint(_ kind: SourceKind, _ confidence: Confidence) -> Taint {
        Taint(origin: .source(SourceHit(kind: kind, description: "x", range: range, confidence: confidence)))
    }

    @Test func aNameAloneIsLowAtMost() {
        let table: [(SourceKind, Confidence, Severity, Severity)] = [
            (.sensitiveName, .medium, .critical, .low),
            (.sensitiveName, .medium, .high, .low),
            (.sensitiveName, .medium, .medium, .low),
            (.sensitiveName, .low, .medium, .low),
            (.sensitiveName, .medium, .low, .low),
            (.sensitiveName, .medium, .info, .info),
            // A secret-named member of what a sign-in returned is proven (high confidence).
            (.sensitiveName, .high, .medium, .medium),
            (.keychain, .high, .medium, .medium),
            (.secureTextEntry, .high, .high, .high),
            (.urlScheme, .high, .high, .high),
            (.network, .medium, .critical, .critical),
        ]
        for (kind, confidence, asked, expected) in table {
            #expect(DataflowReporting.cappedSeverity(asked, Self.taint(kind, confidence)) == expected, "\(kind) \(confidence) \(asked)")
        }
    }

    /// End to end: the same sink, the value only named as a password, then read from the Keychain.
    @Test func theSourceDecidesTheReportedSeverity() throws {
        let source = """
        func save(password: String) {
            UserDefaults.standard.set(password, forKey: "password")
        }
        func migrate() {
            var item: CFTypeRef?
            SecItemCopyMatching(query as CFDictionary, &item)
            let stored = String(data: item as! Data, encoding: .utf8)
            UserDefaults.standard.set(stored, forKey: "pin")
        }
        """
        let file = SwiftFrontEnd.parse(source: source, path: "Store.swift")
        let findings = Analyzer(rules: RuleRegistry.all).analyze(file).filter { $0.ruleId == "MOAT-STOR-203" }
            .sorted { $0.location.line < $1.location.line }
        #expect(findings.map(\.location.line) == [2, 8])
        #expect(findings.map(\.severity) == [.low, SecretInUserDefaultsRule.description.severity])
        #expect(SecretInUserDefaultsRule.description.severity > .low)
    }
}
