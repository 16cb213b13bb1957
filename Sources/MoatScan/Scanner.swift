import Dispatch
import Foundation
import MoatCore
import MoatFormats
import MoatRules
import MoatSyntax

/// What to scan and how.
public struct ScanOptions: Sendable {
    public var paths: [String]
    public var configurationPath: String?
    public var includeVendored = false
    /// Rule ids or slugs given with `--rule` (only these run).
    public var onlyRules: [String] = []
    /// Rule ids or slugs given with `--exclude-rule`.
    public var excludedRules: [String] = []
    /// Files analyzed at once. Output is identical whatever the number.
    public var jobs = ProcessInfo.processInfo.activeProcessorCount
    /// Where per-file results are cached; nil disables the cache. The CLI defaults it to `.moat-cache`
    /// in the (first) scanned folder.
    public var cacheDirectory: URL?
    /// Seconds one file's analysis may take before its remaining rules are skipped (reported as an error).
    public var perFileBudget: Double = 30
    /// Called as files are done (from any thread), for progress display.
    public var progress: (@Sendable (ScanProgress) -> Void)?
    /// Findings recorded in this baseline are left out of the result (see `Baseline`).
    public var baseline: Baseline?

    public init(paths: [String]) {
        self.paths = paths.isEmpty ? ["."] : paths
    }
}

public struct ScanProgress: Sendable {
    public enum Phase: String, Sendable { case discovering, analyzing, finishing }
    public var phase: Phase
    public var done: Int
    public var total: Int
}

/// The scan, top to bottom: configure → discover → load and analyze each file (its tree is dropped right
/// after) → analyze the app as a whole → post-process → the result.
public enum Scanner {
    /// Rounds of re-analysis for dataflow across files: a value passed through a chain of functions in
    /// as many files is followed.
    static let crossFileRounds = 3

    /// Throws `ScanError` for problems with the request itself (bad configuration, unknown rule):
    /// the CLI reports those as usage errors (exit 2). Problems with scanned files end up in `errors`.
    public static func scan(_ options: ScanOptions) throws -> (result: ScanResult, configuration: Configuration) {
        let startTime = Date()
        // 1. Configure.
        let roots = options.paths.map { URL(fileURLWithPath: $0) }
        let configuration = try loadConfiguration(options, roots: roots)
        let rules = try selectRules(options: options, configuration: configuration)
        let analyzer = Analyzer(rules: rules)

        // 2. Discover.
        let discovery = Discovery(includeVendored: options.includeVendored || configuration.includeVendored == true,
                                  excludes: configuration.exclude)
        var files: [DiscoveredFile] = []
        var errors: [ScanError] = []
        for (index, root) in roots.enumerated() {
            let prefix = roots.count > 1 ? displayPrefix(options.paths[index]) : ""
            let found = discovery.discover(root: root, prefix: prefix)
            files += found.files
            errors += found.errors
        }

        // 3. Load and analyze each file on all cores; each tree is dropped as soon as its rules ran.
        options.progress?(ScanProgress(phase: .analyzing, done: 0, total: files.count))
        let cache = options.cacheDirectory.map { ResultCache(directory: $0, ruleIds: rules.map { $0.description.id }) }
        let fileAnalysis = FileAnalysis(analyzer: analyzer, cache: cache, budget: options.perFileBudget)
        var outcomes = fileAnalysis.run(files, jobs: options.jobs, progress: options.progress)
        // Dataflow across files: analyze again the files that other files' facts tell something new.
        // Facts decoded from the cache, kept across rounds until their file is analyzed again.
        var decoded: [Int: DataflowFacts?] = [:]
        for _ in 0..<Self.crossFileRounds {
            let needed = CrossFileLinker.neededFiles(outcomes.map { $0.facts?.index })
            let facts = outcomes.indices.map { index -> DataflowFacts? in
                guard let stored = outcomes[index].facts else { return nil }
                guard needed.contains(index) else { return DataflowFacts(light: stored.index) }
                if let known = decoded[index] { return known }
                let full = stored.facts
                decoded[index] = full
                return full
            }
            let contexts = CrossFileLinker(facts: facts, paths: files.map(\.path)).contexts()
            let changed = outcomes.indices.filter { contexts[$0] != outcomes[$0].context }
            if changed.isEmpty { break }
            let roundStart = DispatchTime.now().uptimeNanoseconds
            defer {
                RuleProfile.shared?.add("cross-file: \(changed.count) files again", nanoseconds: DispatchTime.now().uptimeNanoseconds &- roundStart)
            }
            let again = fileAnalysis.run(changed.map { files[$0] }, contexts: changed.map { contexts[$0] }, jobs: options.jobs,
                                         progress: nil)
            for (position, index) in changed.enumerated() {
                outcomes[index] = again[position]
                decoded[index] = nil
            }
        }
        var raw: [Finding] = []
        var plists: [PropertyListDocument] = []
        var summaries: [SourceSummary] = []
        var suppressions: [SuppressionDirective] = []
        var projects: [XcodeProject] = []
        var interfaceBuilderDocuments: [InterfaceBuilderDocument] = []
        for outcome in outcomes {
            raw += outcome.findings
            errors += outcome.errors
            if let plist = outcome.plist { plists.append(plist) }
            plists += outcome.bundlePlists
            if let summary = outcome.summary { summaries.append(summary) }
            if let project = outcome.project { projects.append(project) }
            if let document = outcome.interfaceBuilder { interfaceBuilderDocuments.append(document) }
            suppressions += outcome.suppressions
        }
        options.progress?(ScanProgress(phase: .finishing, done: files.count, total: files.count))

        // 4. The app as a whole.
        let app = AppModel(plists: plists, sources: summaries, projects: projects,
                           interfaceBuilderDocuments: interfaceBuilderDocuments)
        raw += analyzer.analyze(app)

        // 5. Post-process.
        let postProcessor = PostProcessor(
            severityOverrides: configuration.severityOverrides,
            enabledRuleIds: Set(rules.map { $0.description.id }),
            nonShipping: NonShippingMap(files: files, sources: summaries, app: app))
        var findings = postProcessor.process(raw, suppressions: suppressions)
        // The attack surface, annotated with every active finding (before the baseline hides known ones).
        let surface = app.surface(findings: findings, rulesThatRan: Set(rules.map { $0.description.id }))
        // Then the baseline: what it records is left out, and what it records that is gone is listed.
        var baselineComparison: BaselineComparison?
        if let baseline = options.baseline {
            let comparison = baseline.compare(findings)
            findings = comparison.new
            baselineComparison = comparison
        }
        errors.sort { ($0.path, $0.message) < ($1.path, $1.message) }

        let identity = appIdentity(app)
        var result = ScanResult(roots: options.paths, findings: findings, errors: errors,
                                rules: rules.map { $0.description }.sorted { $0.id < $1.id },
                                filesScanned: files.count, appName: identity.name, bundleIdentifier: identity.bundleId)
        result.baseline = baselineComparison
        result.surface = surface
        result.startTime = startTime
        result.endTime = Date()
        return (result, configuration)
    }

    static func loadConfiguration(_ options: ScanOptions, roots: [URL]) throws -> Configuration {
        if let path = options.configurationPath {
            return try Configuration.load(from: URL(fileURLWithPath: path))
        }
        for root in roots {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
            let candidate = root.appendingPathComponent(Configuration.fileName)
            if FileManager.default.fileExists(atPath: candidate.path) {
                return try Configuration.load(from: candidate)
            }
        }
        return Configuration()
    }

    /// Rules after `--rule`, `--exclude-rule` and the configuration. Unknown names are an error.
    public static func selectRules(options: ScanOptions, configuration: Configuration) throws -> [any Rule.Type] {
        func resolve(_ names: [String], _ source: String) throws -> Set<String> {
            var ids = Set<String>()
            for name in names {
                guard let rule = RuleRegistry.rule(named: name) else {
                    throw ScanError(path: source, message: "unknown rule '\(name)' (see `moat rules`)")
                }
                ids.insert(rule.description.id)
            }
            return ids
        }
        let only = try resolve(options.onlyRules, "--rule")
        let excluded = try resolve(options.excludedRules, "--exclude-rule")
        let enabled = try resolve(configuration.enabledRules, Configuration.fileName)
        let disabled = try resolve(configuration.disabledRules, Configuration.fileName)
        _ = try resolve(Array(configuration.severityOverrides.keys), Configuration.fileName)
        return RuleRegistry.all.filter { rule in
            let id = rule.description.id
            if !only.isEmpty && !only.contains(id) { return false }
            if !enabled.isEmpty && !enabled.contains(id) { return false }
            return !excluded.contains(id) && !disabled.contains(id)
        }
    }

    private static func displayPrefix(_ argument: String) -> String {
        var trimmed = argument
        while trimmed.hasSuffix("/") && trimmed.count > 1 { trimmed.removeLast() }
        if trimmed.hasPrefix("./") { trimmed.removeFirst(2) }
        return trimmed
    }

    private static func appIdentity(_ app: AppModel) -> (name: String?, bundleId: String?) {
        if let identity = app.projectIdentity { return identity }
        for plist in app.infoPlists.sorted(by: { $0.path.count < $1.path.count }) {
            let name = plist.root["CFBundleDisplayName"]?.string ?? plist.root["CFBundleName"]?.string
            let bundleId = plist.root["CFBundleIdentifier"]?.string
            if name != nil || bundleId != nil {
                return (name.flatMap { $0.hasPrefix("$(") ? nil : $0 }, bundleId.flatMap { $0.hasPrefix("$(") ? nil : $0 })
            }
        }
        return (nil, nil)
    }
}
