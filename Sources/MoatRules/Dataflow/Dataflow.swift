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
    /// Every flow from an untrusted source into a sink, in this file.
    public static func flows(in file: CodeFile) -> [TaintFlow] {
        result(for: file).flows
    }

    /// Flows into sinks that belong to this rule.
    public static func flows(in file: CodeFile, rule: String) -> [TaintFlow] {
        flows(in: file).filter { $0.kind.ruleId == rule }
    }

    /// Gives the analysis of this file what other files said (see `CrossFileLinker`), until `release`.
    /// The scanner pins a file before its rules run, so that every rule sees the same analysis.
    public static func pin(_ file: CodeFile, context: DataflowContext?) {
        pins.pin(file, context: context)
    }

    /// What the analysis of a pinned file found out for other files (nil when no rule asked for the
    /// analysis), and the end of the pin.
    public static func release(_ file: CodeFile) -> DataflowFacts? {
        pins.release(file)
    }

    private static func result(for file: CodeFile) -> (flows: [TaintFlow], facts: DataflowFacts) {
        if let pinned = pins.result(for: file) { return pinned }
        if let cached = cache.lookup(file) { return cached }
        let result = compute(file, context: nil)
        cache.store(file, result)
        return result
    }

    fileprivate static func compute(_ file: CodeFile, context: DataflowContext?) -> (flows: [TaintFlow], facts: DataflowFacts) {
        let (flows, facts) = TaintEngine(file: file, context: context).run()
        return (ordered(flows), facts)
    }

    private static let cache = RecentResultsCache(capacity: 32)
    private static let pins = PinnedAnalyses()

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
    private var entries: [(file: CodeFile, result: (flows: [TaintFlow], facts: DataflowFacts))] = []

    init(capacity: Int) {
        self.capacity = capacity
    }

    func lookup(_ file: CodeFile) -> (flows: [TaintFlow], facts: DataflowFacts)? {
        lock.lock()
        defer { lock.unlock() }
        return entries.first { $0.file === file }?.result
    }

    func store(_ file: CodeFile, _ result: (flows: [TaintFlow], facts: DataflowFacts)) {
        lock.lock()
        defer { lock.unlock() }
        guard !entries.contains(where: { $0.file === file }) else { return }
        entries.append((file, result))
        if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
    }
}

/// Files the scanner is analyzing, with their context and, once a rule asked, their analysis. Each file
/// is analyzed by one thread at a time; the lock only guards the table.
private final class PinnedAnalyses: @unchecked Sendable {
    private struct Entry {
        let file: CodeFile
        let context: DataflowContext?
        var result: (flows: [TaintFlow], facts: DataflowFacts)?
    }

    private let lock = NSLock()
    private var entries: [ObjectIdentifier: Entry] = [:]

    func pin(_ file: CodeFile, context: DataflowContext?) {
        lock.lock()
        entries[ObjectIdentifier(file)] = Entry(file: file, context: context)
        lock.unlock()
    }

    func result(for file: CodeFile) -> (flows: [TaintFlow], facts: DataflowFacts)? {
        lock.lock()
        guard let entry = entries[ObjectIdentifier(file)], entry.file === file else {
            lock.unlock()
            return nil
        }
        lock.unlock()
        if let result = entry.result { return result }
        let result = Dataflow.compute(file, context: entry.context)
        lock.lock()
        entries[ObjectIdentifier(file)]?.result = result
        lock.unlock()
        return result
    }

    func release(_ file: CodeFile) -> DataflowFacts? {
        lock.lock()
        defer { lock.unlock() }
        return entries.removeValue(forKey: ObjectIdentifier(file))?.result?.facts
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
            related.append(location("untrusted input: \(source.description)", source.range, source.external))
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

