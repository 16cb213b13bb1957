import Dispatch
import MoatRules

/// Dataflow across files, after every file was analyzed once: the facts each source file's analysis left
/// are linked into a context for each file (`CrossFileLinker`), and the files whose context changed are
/// analyzed again with it, round after round, until nothing changes or the rounds run out. A value passed
/// through a chain of functions in as many files as there are rounds is followed.
struct CrossFileRounds {
    /// Rounds of re-analysis.
    static let limit = 3

    let files: [DiscoveredFile]
    let analysis: FileAnalysis
    let jobs: Int
    /// Facts decoded from cache entries, kept across rounds until their file is analyzed again.
    private var decoded: [Int: DataflowFacts?] = [:]

    init(files: [DiscoveredFile], analysis: FileAnalysis, jobs: Int) {
        self.files = files
        self.analysis = analysis
        self.jobs = jobs
    }

    /// Replaces the outcomes of the files analyzed again.
    mutating func run(_ outcomes: inout [FileOutcome]) {
        // The classes of the Core Data models' entities, with their stores' protection (`ManagedObjects`).
        let hasModels = outcomes.contains { if case .coreDataModel = $0.payload { return true } else { return false } }
        let modelTypes = hasModels ? CoreDataSecretAttributeRule.managedObjectTypes(CollectedOutcomes(outcomes).app) : []
        for _ in 0..<Self.limit {
            let names = outcomes.map { $0.source?.summary.referencedNames }
            let contexts = CrossFileLinker(facts: facts(outcomes), paths: files.map(\.path),
                                           mentions: { index, name in names[index]?[name] != nil },
                                           modelTypes: modelTypes).contexts()
            let changed = outcomes.indices.filter { contexts[$0] != outcomes[$0].source?.context }
            if changed.isEmpty { break }
            let roundStart = DispatchTime.now().uptimeNanoseconds
            let again = analysis.run(changed.map { files[$0] }, contexts: changed.map { contexts[$0] }, jobs: jobs, progress: nil)
            for (position, index) in changed.enumerated() {
                outcomes[index] = again[position]
                decoded[index] = nil
            }
            RuleProfile.shared?.add("cross-file: \(changed.count) files again", nanoseconds: DispatchTime.now().uptimeNanoseconds &- roundStart)
        }
    }

    /// Each file's facts for the linker: in full for the files whose facts it needs in full (decoded from
    /// a cache entry once), the light form (the index) for the others.
    private mutating func facts(_ outcomes: [FileOutcome]) -> [DataflowFacts?] {
        let needed = CrossFileLinker.neededFiles(outcomes.map { $0.source?.facts?.index })
        return outcomes.indices.map { index -> DataflowFacts? in
            guard let stored = outcomes[index].source?.facts else { return nil }
            guard needed.contains(index) else { return DataflowFacts(light: stored.index) }
            if let known = decoded[index] { return known }
            let full = stored.facts
            decoded[index] = full
            return full
        }
    }
}
