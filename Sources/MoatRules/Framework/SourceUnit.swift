import Foundation
import MoatCore
import MoatFormats
import MoatSyntax

/// Everything a source rule may read about one file, in one value: the code model, what other files
/// told this file's dataflow analysis, the analysis itself (run once, on first use, and shared by every
/// rule of the file) and an index of the names the file's code mentions.
///
/// The scanner builds one unit per source file and hands it to each source rule in turn
/// (`SourceRule.check(_:_:)`). Anything that runs a rule outside the scanner (tests, fuzz entry points)
/// builds its own with `SourceUnit(code:context:)`; nothing about a file lives anywhere else, so a rule
/// cannot silently lose its context.
///
/// One file is analyzed by one thread at a time; the lock makes the lazy parts safe anyway.
public final class SourceUnit: @unchecked Sendable {
    /// The file's code model.
    public let code: CodeFile
    /// What the dataflow analyses of other files tell this one (nil: the file is analyzed alone).
    public let context: DataflowContext?
    /// The lock files that cover this file (nearest first), with the entries of the libraries rules judge
    /// by version (`SourceUnit.librariesJudgedByVersion`); empty when none is known.
    public let dependencies: [DependencyLock]

    /// The libraries whose locked version a rule reads (MOAT-CODE-301: one-call extraction fixed in some
    /// version, `ArchiveLibraries`). The scanner gives a unit only these entries, so a lock file changes
    /// the cached results of the files near it only when it locks one of them.
    public static let librariesJudgedByVersion: Set<String> = Set(ArchiveLibraries.all.flatMap(\.names))

    private let lock = NSLock()
    private var analysis: (flows: [TaintFlow], facts: DataflowFacts)?
    private var nameIndex: SourceNames?
    private var constantResolver: ConstantResolver?

    public init(code: CodeFile, context: DataflowContext? = nil, dependencies: [DependencyLock] = []) {
        self.code = code
        self.context = context
        self.dependencies = dependencies
    }

    /// A unit with a given names index: `SourceNames.unrestricted` opens every rule's gate, to check that
    /// gates only skip files where their rule finds nothing.
    public init(code: CodeFile, context: DataflowContext? = nil, dependencies: [DependencyLock] = [], names: SourceNames) {
        self.code = code
        self.context = context
        self.dependencies = dependencies
        nameIndex = names
    }

    /// Every flow from an untrusted source into a sink, in this file (most certain sources first; see
    /// `Dataflow.ordered`).
    public var flows: [TaintFlow] {
        dataflow.flows
    }

    /// Flows into sinks that belong to this rule.
    public func flows(rule: String) -> [TaintFlow] {
        flows.filter { $0.kind.ruleId == rule }
    }

    /// What this file's analysis tells other files, if a rule asked for the analysis (nil otherwise: no
    /// rule that ran needed dataflow, so other files learn nothing from this one).
    public var factsIfAnalyzed: DataflowFacts? {
        lock.lock()
        defer { lock.unlock() }
        return analysis?.facts
    }

    /// What this file tells other files: the dataflow facts if a rule asked for the analysis, the
    /// constants it exports and the names its settings rules asked about (nil when there is none of these).
    public var factsForOtherFiles: DataflowFacts? {
        var facts = factsIfAnalyzed
        let constants = ConstantExporter.constants(of: code)
        lock.lock()
        let queries = constantResolver?.queries ?? []
        let sinks = constantResolver?.parameterSinks ?? []
        lock.unlock()
        if facts == nil && constants.isEmpty && queries.isEmpty && sinks.isEmpty { return nil }
        if facts == nil { facts = DataflowFacts() }
        facts?.constants = constants
        facts?.constantQueries = queries.sorted()
        facts?.constantSinks = sinks
        return facts
    }

    /// Follows values back to the constants they were written as, for the settings rules (one resolver per
    /// file, shared by its rules; see `ConstantResolver`).
    public var constants: ConstantResolver {
        lock.lock()
        defer { lock.unlock() }
        if let constantResolver { return constantResolver }
        let resolver = ConstantResolver(file: code, context: context)
        constantResolver = resolver
        return resolver
    }

    /// The names the file's code mentions (not its comments, not the text of its string literals), built
    /// on first use. Rules check it before walking the model (`names.containsAny(Self.names)`).
    public var names: SourceNames {
        lock.lock()
        defer { lock.unlock() }
        if let nameIndex { return nameIndex }
        let index = SourceNames(code)
        nameIndex = index
        return index
    }

    private var dataflow: (flows: [TaintFlow], facts: DataflowFacts) {
        lock.lock()
        if let analysis {
            lock.unlock()
            return analysis
        }
        lock.unlock()
        // Computed outside the lock: the engine is long, and the file's own thread is the only caller.
        let (flows, facts) = TaintEngine(file: code, context: context, gates: SourceGates(names)).run()
        let result = (Dataflow.ordered(flows), facts)
        lock.lock()
        defer { lock.unlock() }
        if let analysis { return analysis }
        analysis = result
        return result
    }
}
