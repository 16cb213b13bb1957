import Foundation
import MoatCore
import MoatReport
import MoatScan

/// `moat baseline` and `moat diff`: the commands about change over time.
extension CommandLineInterface {
    static let baselineUsage = """
    Usage: moat baseline [PATH ...] [-o FILE] [options]

    Scans like `moat scan` and records every active finding (rule, file, message and a fingerprint of the
    flagged content) in FILE (standard output without -o). Later, `moat scan --baseline FILE` reports only
    findings the baseline does not record: moving unrelated lines keeps a finding matched, editing the
    flagged line makes it new.

    Options:
      --output FILE, -o FILE Write the baseline to FILE
    \(commonOptionsUsage)
    """

    static let diffUsage = """
    Usage: moat diff --base REV [PATH] [options]

    Reviews the change between REV (a commit, branch, tag or A...B) and the working tree of PATH (default:
    the current folder, which must be in a git repository): scans PATH, keeps the findings on changed lines,
    and answers the four threat-model questions for the changed hunks: does it write a file path from
    outside data, advance a state machine on a remote message, decode objects, copy memory by a length?
    Each "yes" names the hunk and what to verify. The exit code follows --fail-on for the findings on
    changed lines only.

    Options:
      --base REV             The revision to compare with (required), e.g. origin/main or $(git merge-base origin/main HEAD)
      --format FORMAT        markdown (default), text, json, or any `moat scan` format
      --output FILE, -o FILE Write the report to FILE instead of standard output
      --fail-on SEVERITY     critical, high (default), medium, low, info
      --min-severity LEVEL   Show only findings at or above LEVEL (the gate still counts all)
      --source-link-base URL Link Markdown locations to URL/PATH#LLINE
      --no-color             Never colour the text format
    \(commonOptionsUsage)
    """

    // MARK: baseline

    static func baseline(_ arguments: [String]) throws -> Int32 {
        var parser = ArgumentParser(arguments, command: "baseline")
        var common = CommonScanArguments(command: "baseline")
        var paths: [String] = []
        var output: String?
        while let argument = parser.next() {
            if try common.accept(argument, &parser) { continue }
            switch argument {
            case "--output", "-o": output = try parser.value(for: argument)
            default:
                if argument.hasPrefix("-") && argument != "-" {
                    throw UsageError(message: "unknown option '\(argument)'", command: "baseline")
                }
                paths.append(argument)
            }
        }
        var options = try common.scanOptions(paths: paths)
        let progress = ProgressDisplay.start(if: output != nil)
        options.progress = progress?.callback
        let (result, _) = try Scanner.scan(options)
        progress?.finish()
        let baseline = Baseline(findings: result.findings)
        if let output {
            do {
                try baseline.encoded().write(to: URL(fileURLWithPath: output))
            } catch {
                throw ScanError(path: output, message: "cannot write baseline: \(error.localizedDescription)")
            }
            let count = baseline.entries.count
            printError("moat: recorded \(count) finding\(count == 1 ? "" : "s") in \(output)"
                + (result.errors.isEmpty ? "" : " (\(result.errors.count) file\(result.errors.count == 1 ? "" : "s") could not be analyzed)") + "\n")
        } else {
            FileHandle.standardOutput.write(baseline.encoded())
        }
        return 0
    }

    // MARK: diff

    static func diff(_ arguments: [String]) throws -> Int32 {
        var parser = ArgumentParser(arguments, command: "diff")
        var common = CommonScanArguments(command: "diff")
        var paths: [String] = []
        var base: String?
        var format = ReportFormat.markdown
        var output: String?
        var failOn: Severity?
        var minSeverity: Severity?
        var noColor = false
        var linkBase: String?
        while let argument = parser.next() {
            if try common.accept(argument, &parser) { continue }
            switch argument {
            case "--base": base = try parser.value(for: argument)
            case "--format", "-f": format = try parseFormat(try parser.value(for: argument), command: "diff")
            case "--output", "-o": output = try parser.value(for: argument)
            case "--fail-on": failOn = try parseSeverity(try parser.value(for: argument), command: "diff")
            case "--min-severity": minSeverity = try parseSeverity(try parser.value(for: argument), option: argument, command: "diff")
            case "--source-link-base": linkBase = try parser.value(for: argument)
            case "--no-color": noColor = true
            default:
                if argument.hasPrefix("-") && argument != "-" {
                    throw UsageError(message: "unknown option '\(argument)'", command: "diff")
                }
                paths.append(argument)
            }
        }
        guard let base, !base.isEmpty else {
            throw UsageError(message: "diff needs --base REV (the revision the change is compared with)", command: "diff")
        }
        guard !base.hasPrefix("-") else {
            throw UsageError(message: "'\(base)' is not a revision", command: "diff")
        }
        guard paths.count <= 1 else {
            throw UsageError(message: "diff reviews one folder or file at a time", command: "diff")
        }
        var options = try common.scanOptions(paths: paths)
        let progress = ProgressDisplay.start(if: format.isForPeople)
        options.progress = progress?.callback
        var (result, configuration) = try ChangeReviewer.review(base: base, options: options)
        progress?.finish()
        if let minSeverity { result.hideFindings(below: minSeverity) }
        let threshold = failOn ?? configuration.failOn ?? .high
        let useColor = !noColor && output == nil && format == .text && isatty(STDOUT_FILENO) != 0
            && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
        let reportOptions = ReportOptions(color: useColor, failOn: threshold, sourceLinkBase: linkBase)
        try write(format.reporter.render(result, options: reportOptions), to: output)
        return result.findings(atOrAbove: threshold).isEmpty ? 0 : 1
    }
}
