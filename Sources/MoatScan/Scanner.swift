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
    /// Also list inventory entries among the findings (`--include-inventory`); they are always in
    /// `ScanResult.inventory` and the attack surface.
    public var includeInventory = false
    /// Rule ids or slugs given with `--rule` (only these run).
    public var onlyRules: [String] = []
    /// Rule ids or slugs given with `--exclude-rule`.
    public var excludedRules: [String] = []
    /// Suites that run beside the default one; the configuration's `include` adds to them. A rule named
    /// with `--rule` or `enabledRules` runs whatever its suite. The library runs every suite unless told
    /// otherwise; the command line passes only what `--include` asked for (nothing by default).
    public var includedSuites: Set<RuleSuite> = Set(RuleSuite.allCases)
    /// Files analyzed at once. Output is identical whatever the number.
    public var jobs = ProcessInfo.processInfo.activeProcessorCount
    /// Where per-file results are cached; nil disables the cache. The CLI defaults it to `.moat-cache`
    /// in the (first) scanned folder.
    public var cacheDirectory: URL?
    /// How long one file may parse and analyse, and what happens past it (`FileBudget`); its seconds are
    /// `fileTimeout` (`--file-timeout`), else the configuration's `fileTimeout`, else the budget's own.
    public var budget = FileBudget()
    public var fileTimeout: Double?
    /// Seconds the whole scan may take (`--timeout`; else the configuration's `timeout`), counted from
    /// `startedAt`; only with `onTimeout`, which is called on another thread when the time is up.
    public var timeout: Double?
    public var startedAt = Date()
    public var onTimeout: (@Sendable (Double, ScanActivity) -> Void)?
    /// Where the scan records how far it got.
    public var activity = ScanActivity()
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

/// The scan, top to bottom, as phases: configure → discover → analyze each file (its tree is dropped
/// right after) → cross-file rounds of dataflow → the app as a whole → post-process → the result.
public enum Scanner {
    /// Throws `ScanError` for problems with the request itself (bad configuration, unknown rule):
    /// the CLI reports those as usage errors (exit 2). Problems with scanned files end up in `errors`.
    public static func scan(_ options: ScanOptions) throws -> (result: ScanResult, configuration: Configuration) {
        let startTime = Date()
        // 1. Configure: the configuration file, the rules that run, the cache.
        let setup = try ScanSetup(options)
        if let onTimeout = options.onTimeout, let seconds = options.timeout ?? setup.configuration.timeout {
            ScanTimer.start(seconds: seconds, startedAt: options.startedAt, activity: options.activity, onExpiry: onTimeout)
        }
        let activity = options.activity
        let userProgress = options.progress
        let progress: @Sendable (ScanProgress) -> Void = { activity.record($0); userProgress?($0) }

        // 2. Discover the files under each root.
        let (discovered, foundErrors) = discover(options, setup)
        // The lock files first: the library versions the source files' rules may judge (`DependencyLocks`).
        let (dependencies, lockErrors) = readLocks(discovered.filter { $0.kind == .dependencyLock }, budget: setup.fileAnalysis.budget)
        let files = discovered.filter { $0.kind != .dependencyLock }
        let discoveryErrors = foundErrors + lockErrors
        var fileAnalysis = setup.fileAnalysis
        fileAnalysis.dependencies = dependencies

        // 3. Analyze each file on all cores; each tree is dropped as soon as its rules ran.
        progress(ScanProgress(phase: .analyzing, done: 0, total: files.count))
        var outcomes = fileAnalysis.run(files, jobs: options.jobs, progress: progress)

        // 4. Dataflow across files: analyze again the files that other files' facts tell something new.
        var rounds = CrossFileRounds(files: files, analysis: fileAnalysis, jobs: options.jobs)
        rounds.run(&outcomes)
        progress(ScanProgress(phase: .finishing, done: files.count, total: files.count))

        // 5. The app as a whole: projects, property lists (of the tree and of built apps), Interface
        //    Builder documents and every source file's summary.
        let collected = CollectedOutcomes(outcomes)
        let app = collected.app
        let raw = collected.findings + setup.analyzer.analyze(app)

        // 6. Post-process: severities, suppressions, test code, the attack surface, the baseline.
        var result = postProcess(raw, suppressions: collected.suppressions, errors: discoveryErrors + collected.errors,
                                 app: app, files: files, setup: setup, options: options)
        result.startTime = startTime
        result.endTime = Date()
        return (result, setup.configuration)
    }

    /// Phase 2: the files to analyze under every root, and the problems met finding them.
    static func discover(_ options: ScanOptions, _ setup: ScanSetup) -> (files: [DiscoveredFile], errors: [ScanError]) {
        let discovery = Discovery(includeVendored: options.includeVendored || setup.configuration.includeVendored == true,
                                  excludes: setup.configuration.exclude)
        var files: [DiscoveredFile] = []
        var errors: [ScanError] = []
        for (index, root) in setup.roots.enumerated() {
            let prefix = setup.roots.count > 1 ? displayPrefix(options.paths[index]) : ""
            let found = discovery.discover(root: root, prefix: prefix)
            files += found.files
            errors += found.errors
        }
        return (files, errors)
    }

    /// Phase 2, the lock files of the app's dependencies (test and fixture folders' are not the app's). A
    /// malformed one is an error naming it; the scan goes on without it.
    static func readLocks(_ files: [DiscoveredFile], budget: FileBudget) -> (DependencyLocks, [ScanError]) {
        let loader = Loader()
        let shipping = files.filter { $0.nonShipping == nil }
        let loaded = BudgetedWork(budget: budget).run(
            paths: shipping.map(\.path), jobs: 1, placeholder: Result<DependencyLock?, ScanError>.success(nil),
            overrun: { index, message in .failure(ScanError(path: shipping[index].path, message: message)) },
            work: { index, _ in
                loader.load(shipping[index]).map { loaded -> DependencyLock? in
                    if case .dependencyLock(let lock) = loaded { return lock } else { return nil }
                }
            })
        var locks: [DependencyLock] = []
        var errors: [ScanError] = []
        for result in loaded {
            switch result {
            case .success(let lock?): locks.append(lock)
            case .success: break
            case .failure(let error): errors.append(error)
            }
        }
        return (DependencyLocks(locks), errors)
    }

    /// Phase 6: the findings as reported (severity overrides, suppressions, non-shipping code, one finding
    /// per weakness), the attack
    /// surface annotated with them, then the baseline; errors in a stable order.
    static func postProcess(_ raw: [Finding], suppressions: [SuppressionDirective], errors: [ScanError], app: AppModel,
                            files: [DiscoveredFile], setup: ScanSetup, options: ScanOptions) -> ScanResult {
        let postProcessor = PostProcessor(
            severityOverrides: setup.configuration.severityOverrides,
            enabledRuleIds: setup.ruleIds,
            nonShipping: NonShippingMap(files: files, sources: app.sources, app: app), appPlaces: app.places)
        var findings = postProcessor.process(raw, suppressions: suppressions)
        // The attack surface, annotated with every active finding (before the baseline hides known ones).
        let surface = app.surface(findings: findings, rulesThatRan: setup.ruleIds)
        // Inventory is not a finding unless asked for: it goes to `result.inventory` (and the surface).
        let inventory = InventoryEntries.separate(&findings, keep: options.includeInventory || setup.configuration.includeInventory == true)
        // Then the baseline: what it records is left out, and what it records that is gone is listed.
        var baselineComparison: BaselineComparison?
        if let baseline = options.baseline {
            let comparison = baseline.compare(findings)
            findings = comparison.new
            baselineComparison = comparison
        }
        let identity = appIdentity(app)
        var result = ScanResult(roots: options.paths, findings: findings,
                                errors: errors.sorted { ($0.path, $0.message) < ($1.path, $1.message) },
                                rules: setup.rules.map { $0.description }.sorted { $0.id < $1.id },
                                filesScanned: files.count, appName: identity.name, bundleIdentifier: identity.bundleId)
        result.baseline = baselineComparison
        result.surface = surface
        result.inventory = inventory
        return result
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
        let suites = options.includedSuites.union(configuration.include).union([.default])
        let experimental = RulePrecision.experimentalRuleIds
        return RuleRegistry.all.filter { rule in
            let id = rule.description.id
            if !only.isEmpty && !only.contains(id) { return false }
            if !enabled.isEmpty && !enabled.contains(id) { return false }
            if excluded.contains(id) || disabled.contains(id) { return false }
            // A suite not asked for stays off, unless the rule was named.
            let named = only.contains(id) || enabled.contains(id)
            return named || suites.contains(experimental.contains(id) ? .experimental : .default)
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

/// Phase 1, configure: what the options and the configuration file ask for, and the machinery built from
/// it (the rules, the analyzer running them, the per-file analysis with its cache).
struct ScanSetup {
    let roots: [URL]
    let configuration: Configuration
    let rules: [any Rule.Type]
    let ruleIds: Set<String>
    let analyzer: Analyzer
    let fileAnalysis: FileAnalysis

    init(_ options: ScanOptions) throws {
        roots = options.paths.map { URL(fileURLWithPath: $0) }
        configuration = try Scanner.loadConfiguration(options, roots: roots)
        let rules = try Scanner.selectRules(options: options, configuration: configuration)
        let analyzer = Analyzer(rules: rules)
        let cache = options.cacheDirectory.map { ResultCache(directory: $0, ruleIds: rules.map { $0.description.id }) }
        self.rules = rules
        ruleIds = Set(rules.map { $0.description.id })
        self.analyzer = analyzer
        var budget = options.budget
        if let seconds = options.fileTimeout ?? configuration.fileTimeout { budget.seconds = seconds }
        fileAnalysis = FileAnalysis(analyzer: analyzer, cache: cache, budget: budget)
    }
}

/// Phase 5's input: every file's outcome sorted by what the rest of the scan does with it.
struct CollectedOutcomes {
    var findings: [Finding] = []
    var errors: [ScanError] = []
    var suppressions: [SuppressionDirective] = []
    private var plists: [PropertyListDocument] = []
    private var summaries: [SourceSummary] = []
    private var projects: [XcodeProject] = []
    private var interfaceBuilderDocuments: [InterfaceBuilderDocument] = []
    private var coreDataModels: [CoreDataModel] = []

    init(_ outcomes: [FileOutcome]) {
        for outcome in outcomes {
            findings += outcome.findings
            errors += outcome.errors
            switch outcome.payload {
            case .nothing: break
            case .source(let source):
                summaries.append(source.summary)
                suppressions += source.suppressions
            case .propertyList(let plist): plists.append(plist)
            case .project(let project): projects.append(project)
            case .interfaceBuilder(let document): interfaceBuilderDocuments.append(document)
            case .coreDataModel(let model): coreDataModels.append(model)
            case .builtApp(let bundlePlists): plists += bundlePlists
            }
        }
    }

    /// The app model the app rules and the attack surface read.
    var app: AppModel {
        AppModel(plists: plists, sources: summaries, projects: projects, interfaceBuilderDocuments: interfaceBuilderDocuments,
                 coreDataModels: coreDataModels)
    }
}
