import Foundation
import MoatCore
import MoatReport
import MoatScan

/// `moat plan`: writes the dynamic test plan (hooks.js, url-cases.txt, openurl.sh, plan.md) for a scan.
extension CommandLineInterface {
    static let planUsage = """
    Usage: moat plan [PATH ...] [--output DIR] [options]

    Writes an app-specific dynamic test plan built from the attack surface and the findings:
      hooks.js       Frida hooks for every entry with a hookable symbol (URL handlers, script message
                     handlers, JSExport methods, unarchivers and XML parsers, trust evaluation, file writes,
                     Keychain adds and updates), each naming the entry or finding it comes from
      url-cases.txt  test URLs for each custom scheme and universal-link domain, built from the hosts, paths
                     and parameter names the handlers compare
      openurl.sh     opens each case in a booted simulator (xcrun simctl openurl), one at a time
      plan.md        one section per surface entry, ordered by risk: MASTG test, trigger, what to watch,
                     safe behaviour, static findings
    Nothing runs against a device.

    Options:
      --output DIR, -o DIR   Folder to write the four files to (default: moat-plan; created if missing)
    \(commonOptionsUsage)

    Exit codes: 0 when the plan was written (findings do not change it), 2 on usage or tool error.
    """

    static func plan(_ arguments: [String]) throws -> Int32 {
        var parser = ArgumentParser(arguments, command: "plan")
        var common = CommonScanArguments(command: "plan")
        var paths: [String] = []
        var output = "moat-plan"
        while let argument = parser.next() {
            if try common.accept(argument, &parser) { continue }
            switch argument {
            case "--output", "-o": output = try parser.value(for: argument)
            default:
                if argument.hasPrefix("-") && argument != "-" {
                    throw UsageError(message: "unknown option '\(argument)'", command: "plan")
                }
                paths.append(argument)
            }
        }
        guard !output.isEmpty else { throw UsageError(message: "--output needs a folder", command: "plan") }
        var options = try common.scanOptions(paths: paths)
        let progress = ProgressDisplay.start(if: true)
        options.progress = progress?.callback
        let (result, _) = try Scanner.scan(options)
        progress?.finish()
        let plan = TestPlan.make(result)
        let folder = URL(fileURLWithPath: output)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw ScanError(path: output, message: "cannot write the plan: not a folder")
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw ScanError(path: output, message: "cannot create the folder: \(error.localizedDescription)")
        }
        for file in plan.files {
            let url = folder.appendingPathComponent(file.name)
            do {
                try Data(file.contents.utf8).write(to: url)
            } catch {
                throw ScanError(path: url.path, message: "cannot write: \(error.localizedDescription)")
            }
        }
        let cases = plan.targets.reduce(0) { $0 + $1.cases.count }
        printError("moat: wrote hooks.js (\(plan.hooks.count) hooks), url-cases.txt (\(cases) URLs), openurl.sh and plan.md (\(plan.sections.count) sections) to \(output)\n")
        return 0
    }
}
