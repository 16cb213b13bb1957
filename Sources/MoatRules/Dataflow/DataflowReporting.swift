import MoatCore
import MoatSyntax

/// Shared wording and reporting for the rules built on the dataflow engine.
enum DataflowReporting {
    /// Reports one finding for a flow, with the dataflow path as related locations.
    static func report(_ message: String, flow: TaintFlow, taint: Taint, at range: SourceRange? = nil, in file: CodeFile,
                       severity: Severity? = nil, confidence: Confidence, _ sink: inout FindingSink) {
        var related = taint.relatedLocations(in: file)
        if let range, range != flow.range {
            let use = ConditionFacts.comparisonOperators.contains(flow.calledName) || flow.calledName == "!=="
                ? "compared (`\(flow.calledName)`)" : "reaches \(flow.calledName)"
            related.append(FindingSink.related(use, in: file, at: flow.range))
        }
        sink.report(message, in: file, at: range ?? flow.range, severity: cappedSeverity(severity ?? sink.rule.severity, taint),
                    confidence: Swift.min(confidence, taint.source?.confidence ?? confidence), related: related)
    }

    /// Evidence before severity: a finding whose data is sensitive only because of its name (`password`,
    /// `authToken`: `SourceKind.sensitiveName` at less than high confidence) rests on a name alone, and a
    /// name alone is low at most, whatever the rule's ceiling. A Keychain read, a secure field, a credential
    /// a sign-in returned (high confidence), or untrusted input keeps the rule's.
    static func cappedSeverity(_ severity: Severity, _ taint: Taint) -> Severity {
        guard let source = taint.source, source.kind == .sensitiveName, source.confidence < .high else { return severity }
        return Swift.min(severity, .low)
    }

    /// "the URL opened through application(_:open:options:)" → "The URL opened through ...".
    static func capitalized(_ text: String) -> String {
        guard let first = text.first else { return text }
        if first == "`" { return text }
        return first.uppercased() + text.dropFirst()
    }

    /// Findings are reported once per location, keeping the first (most severe first when sorted).
    static func unique<T>(_ items: [(SourceRange, T)]) -> [(SourceRange, T)] {
        var seen = Set<Int>()
        return items.filter { seen.insert($0.0.start.offset).inserted }
    }
}
