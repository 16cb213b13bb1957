import Foundation
import MoatScan
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The command-line tool's answer to a file that overruns its budget (`FileBudget`): a thread cannot be
/// stopped, so the process replaces itself (`execv`, which ends every thread) with the same command, told
/// through the environment which files overran before and when the command first started. The new run
/// reports those files as not analysed and reads nothing of them; the files analysed before come from the
/// cache. Nothing has been written to the report's destination yet when this happens.
enum ScanRestart {
    /// A JSON object: display path → the error's message.
    static let overrunVariable = "MOAT_OVERRUN"
    /// Seconds since 1970 when the command first started, for `--timeout` across restarts.
    static let startVariable = "MOAT_STARTED_AT"
    /// Test support: files whose path ends with this stand for a parse that never ends (`FileBudget.stalls`).
    static let stallVariable = "MOAT_TEST_STALL"
    /// More restarts than this and the stuck worker is left behind instead (it still runs until the end).
    static let limit = 64

    static var environment: [String: String] { ProcessInfo.processInfo.environment }

    /// The files that overran in earlier runs of this command.
    static var previousOverruns: [String: String] {
        guard let text = environment[overrunVariable], let data = text.data(using: .utf8),
              let decoded = try? JSONDecoder().decode([String: String].self, from: data) else { return [:] }
        return decoded
    }

    static var startedAt: Date {
        if let text = environment[startVariable], let seconds = Double(text) { return Date(timeIntervalSince1970: seconds) }
        return Date()
    }

    /// The budget of a command-line scan, for a command started at `startedAt`: restart on overrun.
    static func budget(seconds: Double, startedAt: Date) -> FileBudget {
        var budget = FileBudget(seconds: seconds)
        let previous = previousOverruns
        budget.overrun = previous
        if let stalled = environment[stallVariable], !stalled.isEmpty {
            budget.stalls = { $0.hasSuffix(stalled) }
        }
        budget.onOverrun = { overrun in restart(adding: overrun, to: previous, startedAt: startedAt) }
        return budget
    }

    /// Starts this command again with `overrun` added to the files not analysed before; returns only when
    /// it cannot.
    static func restart(adding overrun: FileBudget.Overrun, to previous: [String: String], startedAt: Date) {
        var overruns = previous
        guard overruns[overrun.path] == nil, overruns.count < limit else { return }
        overruns[overrun.path] = overrun.message
        guard let encoded = try? JSONEncoder().encode(overruns), let text = String(data: encoded, encoding: .utf8) else { return }
        CommandLineInterface.printError("moat: \(overrun.path): \(overrun.message); starting the scan again without it\n")
        setenv(overrunVariable, text, 1)
        setenv(startVariable, String(startedAt.timeIntervalSince1970), 1)
        fflush(nil)
        let executable = FileManager.default.fileExists(atPath: "/proc/self/exe") ? "/proc/self/exe"
            : (Bundle.main.executablePath ?? CommandLine.arguments[0])
        var arguments: [UnsafeMutablePointer<CChar>?] = CommandLine.arguments.map { strdup($0) }
        arguments.append(nil)
        execv(executable, arguments)
        // Only on failure.
        CommandLineInterface.printError("moat: cannot start the scan again (\(String(cString: strerror(errno)))); the stuck file's thread is left running\n")
    }

    /// `--timeout`: what was done, then exit code 2.
    static func timedOut(seconds: Double, activity: ScanActivity) {
        CommandLineInterface.printError("moat: the scan took longer than --timeout \(FileBudget.format(seconds)) s and was stopped: \(activity.summary); no report was written\n")
        fflush(nil)
        _exit(2)
    }
}
