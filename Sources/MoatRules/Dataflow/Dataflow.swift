import Foundation
import MoatCore
import MoatSyntax

/// Entry point of the dataflow engine for rules.
///
/// Several rules read the same analysis of a file, one after the other (the analyzer runs every source
/// rule on a file before moving on, and several files at once on different threads). Recent results are
/// kept, tied to the file objects they were computed for, so the engine runs once per file; a kept file
/// holds its identity, which therefore cannot be reused by another file while the entry lives.
public enum Dataflow {
    /// Every flow from an untrusted source into a sink of the table, in this file.
    public static func flows(in file: CodeFile) -> [TaintFlow] {
        if let cached = cache.lookup(file) { return cached }
        let flows = ordered(TaintEngine(file: file).run())
        cache.store(file, flows)
        return flows
    }

    /// Flows into sinks that belong to this rule.
    public static func flows(in file: CodeFile, rule: String) -> [TaintFlow] {
        flows(in: file).filter { $0.kind.ruleId == rule }
    }

    private static let cache = RecentResultsCache(capacity: 32)

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

/// The results for the last few files, oldest evicted first. Large enough for every worker thread to
/// find its current file.
private final class RecentResultsCache: @unchecked Sendable {
    private let lock = NSLock()
    private let capacity: Int
    private var entries: [(file: CodeFile, flows: [TaintFlow])] = []

    init(capacity: Int) {
        self.capacity = capacity
    }

    func lookup(_ file: CodeFile) -> [TaintFlow]? {
        lock.lock()
        defer { lock.unlock() }
        return entries.first { $0.file === file }?.flows
    }

    func store(_ file: CodeFile, _ flows: [TaintFlow]) {
        lock.lock()
        defer { lock.unlock() }
        guard !entries.contains(where: { $0.file === file }) else { return }
        entries.append((file, flows))
        if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
    }
}

// MARK: - Reporting helpers shared by the dataflow rules

extension Taint {
    /// The dataflow path as related locations: the source, then each step.
    func relatedLocations(in file: CodeFile) -> [RelatedLocation] {
        var related: [RelatedLocation] = []
        if let source {
            related.append(FindingSink.related("untrusted input: \(source.description)", in: file, at: source.range))
        }
        for step in steps { related.append(FindingSink.related(step.message, in: file, at: step.range)) }
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

