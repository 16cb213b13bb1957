import Dispatch
import Foundation
import MoatCore
import MoatFormats
import MoatRules
import MoatSyntax

/// What one file contributed to the scan: its findings, its errors, and what the rest of the scan reads
/// from it, which depends on the kind of input.
struct FileOutcome: Sendable {
    var findings: [Finding] = []
    var errors: [ScanError] = []
    var payload: Payload = .nothing

    enum Payload: Sendable {
        /// Nothing for the rest of the scan: the file could not be read or is not analyzed.
        case nothing
        case source(SourcePayload)
        case propertyList(PropertyListDocument)
        case project(XcodeProject)
        case interfaceBuilder(InterfaceBuilderDocument)
        /// A Core Data model: its entities and attributes, for the app rules.
        case coreDataModel(CoreDataModel)
        /// A built app (or a lone binary): the property lists of its bundles (Info.plists, signed
        /// entitlements, privacy manifests), for the app rules.
        case builtApp(plists: [PropertyListDocument])
    }

    /// What a source file gives the app model and the cross-file rounds.
    struct SourcePayload: Sendable {
        var summary: SourceSummary
        var suppressions: [SuppressionDirective]
        /// What the dataflow analysis of the file tells other files (nil when no dataflow rule ran).
        var facts: StoredFacts?
        /// What other files told this file's analysis.
        var context: DataflowContext?
    }

    var source: SourcePayload? {
        if case .source(let source) = payload { return source }
        return nil
    }

    /// A property list of a built app's bundle.
    mutating func addBundlePlist(_ plist: PropertyListDocument) {
        guard case .builtApp(let plists) = payload else {
            payload = .builtApp(plists: [plist])
            return
        }
        payload = .builtApp(plists: plists + [plist])
    }
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

/// Loads and analyzes files in parallel (bounded by `jobs`), each under the file budget, with results in
/// input order so the output does not depend on scheduling.
struct FileAnalysis: Sendable {
    let analyzer: Analyzer
    let cache: ResultCache?
    let budget: FileBudget
    let loader = Loader()
    /// The scan's lock files: each source file's unit gets the locks that cover it (`DependencyLocks`).
    var dependencies = DependencyLocks()

    init(analyzer: Analyzer, cache: ResultCache?, budget: FileBudget) {
        self.analyzer = analyzer
        self.cache = cache
        self.budget = budget
    }

    func run(_ files: [DiscoveredFile], contexts: [DataflowContext?]? = nil, jobs: Int,
             progress: (@Sendable (ScanProgress) -> Void)?) -> [FileOutcome] {
        let total = files.count
        return BudgetedWork(budget: budget).run(
            paths: files.map(\.path), jobs: jobs, placeholder: FileOutcome(),
            progress: progress.map { report in { @Sendable done in report(ScanProgress(phase: .analyzing, done: done, total: total)) } },
            overrun: { index, message in FileOutcome(errors: [ScanError(path: files[index].path, message: message)]) },
            work: { index, reporter in analyze(files[index], context: contexts?[index] ?? nil, reporter: reporter) })
    }

    func analyze(_ file: DiscoveredFile, context: DataflowContext? = nil, reporter: BudgetedWork.Reporter? = nil) -> FileOutcome {
        // The rules' deadline counts from the file's start, as the budget does.
        let started = DispatchTime.now().uptimeNanoseconds
        if file.kind == .builtApp || file.kind == .machO {
            reporter?.allow(bytes: Self.size(of: file.url))
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
        let locks = isSource && !dependencies.isEmpty
            ? dependencies.locks(covering: file.path, libraries: SourceUnit.librariesJudgedByVersion) : []
        let key = isSource ? cache?.key(path: file.path, content: data, context: context, dependencies: locks) : nil
        // An entry whose facts are corrupt is a miss.
        if let key, let entry = cache?.load(key), case let facts = entry.facts.flatMap(StoredFacts.init(encoded:)),
           entry.facts == nil || facts != nil {
            outcome.findings = entry.findings
            outcome.errors = entry.errors
            outcome.payload = .source(FileOutcome.SourcePayload(summary: entry.summary, suppressions: entry.suppressions,
                                                                facts: facts, context: context))
            return outcome
        }
        switch loader.load(file, data: data) {
        case .failure(let error):
            outcome.errors.append(error)
        case .success(.code(let code)):
            reporter?.enter(.analysis)
            let seconds = budget.seconds > 0 ? budget.seconds : Double(Int32.max)
            let deadline = started + UInt64(seconds * 1_000_000_000)
            let unit = SourceUnit(code: code, context: context, dependencies: locks)
            let (findings, overran) = analyzer.analyze(unit, deadline: deadline)
            outcome.findings = findings
            if let overran {
                outcome.errors.append(ScanError(path: file.path, message: "analysis took longer than \(FileBudget.format(budget.seconds)) s (see --file-timeout): rules not run after \(overran)"))
            }
            let source = FileOutcome.SourcePayload(summary: SourceSummary(file: code), suppressions: SuppressionDirective.directives(in: code),
                                                   facts: unit.factsForOtherFiles.map(StoredFacts.init), context: context)
            outcome.payload = .source(source)
            if let key {
                cache?.store(ResultCache.Entry(findings: outcome.findings, summary: source.summary, suppressions: source.suppressions,
                                               errors: outcome.errors, facts: source.facts?.encoded), for: key)
            }
        case .success(.propertyList(let plist)):
            reporter?.enter(.analysis)
            outcome.findings = analyzer.analyze(plist)
            outcome.payload = .propertyList(plist)
        case .success(.xcodeProject(let project)):
            outcome.payload = .project(project)
        case .success(.interfaceBuilder(let document)):
            reporter?.enter(.analysis)
            outcome.findings = analyzer.analyze(document)
            outcome.payload = .interfaceBuilder(document)
        case .success(.coreDataModel(let model)):
            outcome.payload = .coreDataModel(model)
        case .success(.unsupported), .success(.dependencyLock):
            break
        }
        return outcome
    }

    /// Bytes of a file, or of every file in a folder (an `.app`, an `.xcarchive`), without following links.
    static func size(of url: URL) -> Int {
        let manager = FileManager.default
        guard let attributes = try? manager.attributesOfItem(atPath: url.path) else { return 0 }
        guard attributes[.type] as? FileAttributeType == .typeDirectory else { return (attributes[.size] as? NSNumber)?.intValue ?? 0 }
        var total = 0
        let enumerator = manager.enumerator(at: url, includingPropertiesForKeys: [.fileSizeKey, .isSymbolicLinkKey], options: [])
        while let item = enumerator?.nextObject() as? URL {
            let values = try? item.resourceValues(forKeys: [.fileSizeKey, .isSymbolicLinkKey])
            if values?.isSymbolicLink == true { continue }
            total += values?.fileSize ?? 0
        }
        return total
    }
}
