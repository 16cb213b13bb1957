import Foundation
import MoatCore
import MoatScan

/// The options `scan`, `baseline` and `diff` share: what runs and how.
struct CommonScanArguments {
    let command: String
    var configPath: String?
    var includeVendored = false
    var includeInventory = false
    var onlyRules: [String] = []
    var excludedRules: [String] = []
    /// `--include SUITE`: suites run beside the default one (`experimental`).
    var includedSuites: Set<RuleSuite> = []
    var jobs: Int?
    var cacheDirectory: String?
    var useCache = true
    var cacheLimitBytes = ResultCache.defaultLimitBytes
    /// `--file-timeout`: seconds one file may parse and analyse (0: no budget).
    var fileTimeout: Double?
    /// `--timeout`: seconds the whole command may take.
    var timeout: Double?
    /// Where warnings go (standard error); tests may capture them.
    var warn: (String) -> Void = { CommandLineInterface.printError("moat: warning: " + $0 + "\n") }

    init(command: String) {
        self.command = command
    }

    /// Consumes `argument` (and its value) when it is one of the shared options.
    mutating func accept(_ argument: String, _ parser: inout ArgumentParser) throws -> Bool {
        switch argument {
        case "--jobs", "-j":
            let value = try parser.value(for: argument)
            guard let count = Int(value), count >= 1, count <= 512 else {
                throw UsageError(message: "invalid value '\(value)' for --jobs (expected a number from 1 to 512)", command: command)
            }
            jobs = count
        case "--cache-dir": cacheDirectory = try parser.value(for: argument)
        case "--no-cache": useCache = false
        case "--cache-limit":
            let value = try parser.value(for: argument)
            guard let megabytes = Int64(value), megabytes >= 1, megabytes <= 1_000_000 else {
                throw UsageError(message: "invalid value '\(value)' for --cache-limit (expected megabytes, from 1)", command: command)
            }
            cacheLimitBytes = megabytes * 1024 * 1024
        case "--file-timeout": fileTimeout = try seconds(for: argument, &parser, allowsZero: true)
        case "--timeout": timeout = try seconds(for: argument, &parser, allowsZero: false)
        case "--config": configPath = try parser.value(for: argument)
        case "--include-vendored": includeVendored = true
        case "--include-inventory": includeInventory = true
        case "--include":
            let value = try parser.value(for: argument)
            guard let suite = RuleSuite(rawValue: value), suite != .default else {
                throw UsageError(message: "unknown suite '\(value)' for --include (known: experimental)", command: command)
            }
            includedSuites.insert(suite)
        case "--rule": onlyRules.append(try parser.value(for: argument))
        case "--exclude-rule": excludedRules.append(try parser.value(for: argument))
        default: return false
        }
        return true
    }

    private func seconds(for argument: String, _ parser: inout ArgumentParser, allowsZero: Bool) throws -> Double {
        let value = try parser.value(for: argument)
        guard let seconds = Double(value), seconds.isFinite, allowsZero ? seconds >= 0 : seconds > 0, seconds <= 86_400 * 7 else {
            throw UsageError(message: "invalid value '\(value)' for \(argument) (expected seconds, \(allowsZero ? "0 or more; 0 turns the budget off" : "more than 0"))",
                             command: command)
        }
        return seconds
    }

    /// Scan options for these paths; a path that does not exist is a usage error.
    func scanOptions(paths: [String]) throws -> ScanOptions {
        var options = ScanOptions(paths: paths)
        options.configurationPath = configPath
        options.includeVendored = includeVendored
        options.includeInventory = includeInventory
        options.onlyRules = onlyRules
        options.excludedRules = excludedRules
        options.includedSuites = includedSuites
        for path in options.paths where !FileManager.default.fileExists(atPath: path) {
            throw UsageError(message: "no such file or folder '\(path)'", command: command)
        }
        if let jobs { options.jobs = jobs }
        // The budgets: a file that overruns restarts the command without it (`ScanRestart`); past --timeout
        // the command says how far it got and exits 2.
        options.startedAt = ScanRestart.startedAt
        options.budget = ScanRestart.budget(seconds: FileBudget.defaultSeconds, startedAt: options.startedAt)
        options.fileTimeout = fileTimeout
        options.timeout = timeout
        options.onTimeout = { seconds, activity in ScanRestart.timedOut(seconds: seconds, activity: activity) }
        if useCache { options.cacheDirectory = cacheFolder(paths: options.paths) }
        return options
    }

    /// The cache folder for a scan of these paths, ready to use, or nil (no cache) with a warning when it
    /// cannot be written. `--cache-dir DIR` is used as given; by default the cache lives in the user's cache
    /// folder, one subfolder per scanned root, never in the scanned tree. Before the scan, the cache (all
    /// roots together, or DIR) is trimmed to `--cache-limit` by evicting the least recently used entries.
    func cacheFolder(paths: [String]) -> URL? {
        let folder: URL
        let trimmed: URL
        if let cacheDirectory {
            folder = URL(fileURLWithPath: cacheDirectory)
            trimmed = folder
        } else {
            guard let base = ResultCache.userCacheBase() else {
                warn("no home folder to keep the cache in (set XDG_CACHE_HOME or use --cache-dir); scanning without a cache")
                return nil
            }
            folder = ResultCache.folder(forRoots: paths, in: base)
            trimmed = base
        }
        if let problem = ResultCache.prepare(folder, roots: cacheDirectory == nil ? paths : []) {
            warn("cannot use the cache folder \(folder.path) (\(problem)); scanning without a cache")
            return nil
        }
        ResultCache.trim(trimmed, limit: cacheLimitBytes)
        return folder
    }
}
