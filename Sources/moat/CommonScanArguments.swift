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
    var jobs: Int?
    var cacheDirectory: String?
    var useCache = true

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
        case "--config": configPath = try parser.value(for: argument)
        case "--include-vendored": includeVendored = true
        case "--include-inventory": includeInventory = true
        case "--rule": onlyRules.append(try parser.value(for: argument))
        case "--exclude-rule": excludedRules.append(try parser.value(for: argument))
        default: return false
        }
        return true
    }

    /// Scan options for these paths; a path that does not exist is a usage error.
    func scanOptions(paths: [String]) throws -> ScanOptions {
        var options = ScanOptions(paths: paths)
        options.configurationPath = configPath
        options.includeVendored = includeVendored
        options.includeInventory = includeInventory
        options.onlyRules = onlyRules
        options.excludedRules = excludedRules
        for path in options.paths where !FileManager.default.fileExists(atPath: path) {
            throw UsageError(message: "no such file or folder '\(path)'", command: command)
        }
        if let jobs { options.jobs = jobs }
        if useCache {
            if let cacheDirectory {
                options.cacheDirectory = URL(fileURLWithPath: cacheDirectory)
            } else if let first = options.paths.first, CommandLineInterface.isDirectory(first) {
                options.cacheDirectory = URL(fileURLWithPath: first).appendingPathComponent(ResultCache.defaultFolderName)
            }
        }
        return options
    }
}
