import Dispatch
import Foundation
import MoatCore
import MoatFormats
import MoatRules
import MoatSyntax

/// What one file contributed to the scan.
struct FileOutcome: Sendable {
    var findings: [Finding] = []
    var errors: [ScanError] = []
    var summary: SourceSummary?
    var plist: PropertyListDocument?
    /// Property lists of a built app (Info.plists, signed entitlements, privacy manifests), for the app rules.
    var bundlePlists: [PropertyListDocument] = []
    var project: XcodeProject?
    var interfaceBuilder: InterfaceBuilderDocument?
    var suppressions: [SuppressionDirective] = []
    /// What the dataflow analysis of a source file tells other files, and what they told it.
    var facts: StoredFacts?
    var context: DataflowContext?
}

/// A file's dataflow facts: in full after an analysis, or as the index and the encoded form of a cache
/// entry (the rest decoded only when the linker needs it).
struct StoredFacts: Sendable {
    let index: DataflowFactsIndex
    private let full: DataflowFacts?
    private let encodedForm: [UInt8]?

    init(_ facts: DataflowFacts) {
        index = DataflowFactsIndex(facts)
        full = facts
        encodedForm = nil
    }

    /// Nil when the bytes are not facts (a corrupt cache entry).
    init?(encoded: [UInt8]) {
        guard let index = FactsCoding.decodeIndex(encoded) else { return nil }
        self.index = index
        full = nil
        encodedForm = encoded
    }

    var facts: DataflowFacts? {
        if let full { return full }
        return encodedForm.flatMap(FactsCoding.decode)
    }

    var encoded: [UInt8]? {
        encodedForm ?? full.map(FactsCoding.encode)
    }
}

/// Loads and analyzes files in parallel (bounded by `jobs`), with results in input order so the output
/// does not depend on scheduling.
struct FileAnalysis: Sendable {
    let analyzer: Analyzer
    let cache: ResultCache?
    let budget: Double
    let loader = Loader()
    /// Stack of each analysis thread: address space only, pages are committed as used.
    static let workerStackSize = 256 * 1024 * 1024

    func run(_ files: [DiscoveredFile], contexts: [DataflowContext?]? = nil, jobs: Int,
             progress: (@Sendable (ScanProgress) -> Void)?) -> [FileOutcome] {
        let results = OutcomeStore(count: files.count)
        let workers = max(1, min(jobs, files.count))
        let next = AtomicCounter()
        let done = AtomicCounter()
        let finished = DispatchGroup()
        for _ in 0..<workers {
            finished.enter()
            // Parsers recurse; dispatch's worker threads have 512 KB stacks. Our own threads get plenty.
            let thread = Thread {
                while true {
                    let index = next.increment() - 1
                    guard index < files.count else { break }
                    results.set(index, analyze(files[index], context: contexts?[index] ?? nil))
                    let count = done.increment()
                    progress?(ScanProgress(phase: .analyzing, done: count, total: files.count))
                }
                finished.leave()
            }
            thread.stackSize = Self.workerStackSize
            thread.start()
        }
        finished.wait()
        return results.values
    }

    func analyze(_ file: DiscoveredFile, context: DataflowContext? = nil) -> FileOutcome {
        if file.kind == .builtApp || file.kind == .machO {
            return BuiltAppAnalysis(analyzer: analyzer).analyze(file)
        }
        var outcome = FileOutcome()
        let data: Data
        switch loader.read(file) {
        case .failure(let error):
            outcome.errors.append(error)
            return outcome
        case .success(let bytes):
            data = bytes
        }
        let isSource = file.kind == .swift || file.kind == .cFamily
        outcome.context = context
        let key = isSource ? cache?.key(path: file.path, content: data, context: context) : nil
        // An entry whose facts are corrupt is a miss.
        if let key, let entry = cache?.load(key), case let facts = entry.facts.flatMap(StoredFacts.init(encoded:)),
           entry.facts == nil || facts != nil {
            outcome.findings = entry.findings
            outcome.summary = entry.summary
            outcome.suppressions = entry.suppressions
            outcome.errors = entry.errors
            outcome.facts = facts
            return outcome
        }
        switch loader.load(file, data: data) {
        case .failure(let error):
            outcome.errors.append(error)
        case .success(.code(let code)):
            let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, budget) * 1_000_000_000)
            let unit = SourceUnit(code: code, context: context)
            let (findings, overran) = analyzer.analyze(unit, deadline: deadline)
            outcome.facts = unit.factsIfAnalyzed.map(StoredFacts.init)
            outcome.findings = findings
            if let overran {
                outcome.errors.append(ScanError(path: file.path, message: "analysis exceeded the \(Int(budget))-second budget for one file; rules not run after \(overran)"))
            }
            outcome.summary = SourceSummary(file: code)
            outcome.suppressions = SuppressionDirective.directives(in: code)
            if let key, let summary = outcome.summary {
                cache?.store(ResultCache.Entry(findings: outcome.findings, summary: summary, suppressions: outcome.suppressions,
                                               errors: outcome.errors, facts: outcome.facts?.encoded), for: key)
            }
        case .success(.propertyList(let plist)):
            outcome.findings = analyzer.analyze(plist)
            outcome.plist = plist
        case .success(.xcodeProject(let project)):
            outcome.project = project
        case .success(.interfaceBuilder(let document)):
            outcome.findings = analyzer.analyze(document)
            outcome.interfaceBuilder = document
        case .success(.unsupported):
            break
        }
        return outcome
    }
}

/// Results written by index from worker threads.
final class OutcomeStore: @unchecked Sendable {
    private var storage: [FileOutcome]
    private let lock = NSLock()

    init(count: Int) {
        storage = Array(repeating: FileOutcome(), count: count)
    }

    func set(_ index: Int, _ value: FileOutcome) {
        lock.lock()
        storage[index] = value
        lock.unlock()
    }

    var values: [FileOutcome] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}

final class AtomicCounter: @unchecked Sendable {
    private var value = 0
    private let lock = NSLock()

    /// Adds one and returns the new value.
    func increment() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}
