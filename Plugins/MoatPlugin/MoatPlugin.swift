import Foundation
import PackagePlugin

/// `swift package moat [--target NAME ...] [moat scan options]`: scans the package (or the named targets'
/// folders) with the `moat` built from this package, and fails when a finding is at or above `--fail-on`.
///
/// It needs no permission: it reads the package, keeps Moat's cache in the plugin's own work folder (unless
/// `--cache-dir` or `--no-cache` is given) and writes the report to standard output. `--output` is refused
/// (writing into the package would need the write permission, asked on every run); redirect instead:
/// `swift package moat --format sarif > moat.sarif`.
@main
struct MoatPlugin: CommandPlugin {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let targetNames = extractor.extractOption(named: "target")
        var options = extractor.remainingArguments
        if let output = options.firstIndex(where: { $0 == "--output" || $0 == "-o" || $0.hasPrefix("--output=") }) {
            throw Failure(description: "moat plugin: \(options[output]) is not supported (the plugin may not write into the package); "
                + "the report goes to standard output: redirect it, e.g. swift package moat --format sarif > moat.sarif")
        }
        if !options.contains(where: { $0 == "--no-cache" || $0 == "--cache-dir" || $0.hasPrefix("--cache-dir=") }) {
            options += ["--cache-dir", context.pluginWorkDirectoryURL.appendingPathComponent("moat-cache").path]
        }
        let paths: [String]
        if targetNames.isEmpty {
            paths = [context.package.directoryURL.path]
        } else {
            paths = try context.package.targets(named: targetNames).map { target in
                guard let module = target.sourceModule else {
                    throw Failure(description: "moat plugin: target \(target.name) has no sources to scan")
                }
                return module.directoryURL.path
            }
        }

        let moat = try context.tool(named: "moat")
        let process = Process()
        process.executableURL = moat.url
        process.arguments = ["scan"] + paths + options
        try process.run()
        process.waitUntilExit()
        switch process.terminationStatus {
        case 0: return
        case 1: throw Failure(description: "moat: findings at or above the --fail-on severity (see the report above)")
        default: throw Failure(description: "moat exited with status \(process.terminationStatus)")
        }
    }
}
