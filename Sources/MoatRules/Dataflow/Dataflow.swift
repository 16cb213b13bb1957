import Foundation
import MoatCore
import MoatSyntax

/// The dataflow engine's results as rules read them. Rules get a file's flows from its `SourceUnit`,
/// which runs `TaintEngine` once, on first use, with the file's cross-file context.
enum Dataflow {
    /// Taints from the most certain sources first, in each flow and across flows at the same sink: a rule
    /// that reports once per sink reports the most certain path (an MCSession delegate rather than the
    /// remote-handler heuristic).
    static func ordered(_ flows: [TaintFlow]) -> [TaintFlow] {
        func rank(_ taint: Taint) -> Int {
            switch taint.source?.confidence {
            case .high: 0
            case .medium: 1
            default: 2
            }
        }
        let sorted = flows.map { flow in
            var copy = flow
            copy.roles = flow.roles.mapValues { taints in
                taints.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
            }
            return copy
        }
        return sorted.enumerated().sorted { lhs, rhs in
            let left = lhs.element.allTaints.map(rank).min() ?? 2
            let right = rhs.element.allTaints.map(rank).min() ?? 2
            return (left, lhs.offset) < (right, rhs.offset)
        }.map(\.element)
    }
}

// MARK: - Reporting helpers shared by the dataflow rules

extension Taint {
    /// The dataflow path as related locations: the source, then each step.
    func relatedLocations(in file: CodeFile) -> [RelatedLocation] {
        var related: [RelatedLocation] = []
        func location(_ message: String, _ range: SourceRange, _ external: ExternalLocation?) -> RelatedLocation {
            guard let external else { return FindingSink.related(message, in: file, at: range) }
            return RelatedLocation(location: Location(path: external.path, line: external.line, column: external.column), message: message)
        }
        if let source {
            related.append(location("\(source.kind.flow.pathPhrase): \(source.description)", source.range, source.external))
        }
        for step in steps { related.append(location(step.message, step.range, step.external)) }
        return related
    }
}

extension TaintFlow {
    /// The confidence of a finding on this flow: the lowest of the rule's and the source's.
    func confidence(_ taint: Taint, rule: Confidence) -> Confidence {
        guard let source = taint.source else { return rule }
        return Swift.min(source.confidence, rule)
    }
}

