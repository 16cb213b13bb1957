import Foundation
import MoatCore
import MoatReport
import MoatRules
import MoatScan

struct UsageError: Error {
    var message: String
    var command: String?
}

enum CommandLineInterface {
    static let usage = """
    Usage: moat <command> [options]

    Commands:
      scan [PATH ...]      Scan source folders or files, built apps (.ipa, .app, .xcarchive) and Mach-O
                           binaries (default: the current folder).
      baseline [PATH ...]  Record today's findings so later scans report only new ones.
      diff --base REV [PATH]
                           Review a change: findings on changed lines and the threat-model questions.
      surface [PATH ...]   List where data enters the app: URL schemes, universal links, documents,
                           extensions, web views, decoders, endpoints, pasteboard, push, other IPC.
      plan [PATH ...] --output DIR
                           Write a dynamic test plan: Frida hooks, URL test cases, a simulator script
                           and plan.md ordered by risk.
      rules                List the rule catalogue.
      explain RULE         Show a rule's rationale, fix, references and examples.
      help [COMMAND]       Show help for a command.
      --version            Print the version and the rules fingerprint.

    Exit codes: 0 no finding at or above --fail-on, 1 findings at or above it, 2 usage or tool error.
    """

    static let scanUsage = """
    Usage: moat scan [PATH ...] [options]

    PATH: a folder, a source or property-list file, an .ipa, an .app or .xcarchive folder, or a Mach-O file.

    Options:
      --format FORMAT        \(ReportFormat.allCases.map(\.rawValue).joined(separator: ", ")) (default: text)
      --output FILE, -o FILE Write the report to FILE instead of standard output
      --fail-on SEVERITY     critical, high (default), medium, low, info: exit 1 when a finding is at or above it
      --min-severity LEVEL   Show only findings at or above LEVEL, in every format (the gate still counts all)
      --baseline FILE        Report only findings FILE (from `moat baseline`) does not record, and list its
                             entries that no longer match
      --source-link-base URL Link Markdown locations to URL/PATH#LLINE (e.g. https://github.com/O/R/blob/SHA)
      --show-suppressed      List findings silenced by moat:ignore in the text and HTML formats
      --show-non-shipping    List findings in non-shipping code (tests, mocks, fixtures, previews, #if DEBUG
                             and simulator-only branches) in the text format (counted otherwise);
                             --show-test-code is the same option
      --show-inventory       List inventory entries in the text format (counted otherwise)
      --no-color             Never colour the text format
    \(commonOptionsUsage)

    Formats:
    \(ReportFormat.allCases.map { "  " + $0.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0) + $0.summary }.joined(separator: "\n"))
    """

    /// Options every scanning command takes.
    static let commonOptionsUsage = """
      --config FILE          Configuration file (default: .moat.json in the scanned folder)
      --include-vendored     Also scan Pods/, Carthage/, SwiftPM checkouts, Vendor/, ThirdParty/ ...
      --include-inventory    Also list inventory (entitlements, URL schemes, bridges, binaries...) as findings
      --include experimental Also run the experimental rules (measured below 50 % on real apps; see `moat rules`):
                             their findings are marked experimental and never fail the scan
      --rule ID              Run only this rule (repeatable; id or slug)
      --exclude-rule ID      Do not run this rule (repeatable; id or slug)
      --jobs N               Files analyzed in parallel (default: the number of cores)
      --cache-dir DIR        Per-file result cache (default: the user's cache folder, $XDG_CACHE_HOME/moat
                             or ~/.cache/moat, ~/Library/Caches/moat on macOS; never the scanned folder)
      --cache-limit MB       Evict the least recently used cache entries beyond MB megabytes (default: 200)
      --no-cache             Neither read nor write the cache
      --file-timeout SECONDS Budget of one file's parsing, and of its rules (default: 30; 0: none). A file past
                             it is reported in errors as not analysed and the scan goes on without it
      --timeout SECONDS      Stop the whole command after SECONDS, say how far it got, exit 2 (default: none)
    """

    static let surfaceUsage = """
    Usage: moat surface [PATH ...] [options]

    Lists the attack surface: every place data enters the app, with where it is declared or used, the
    code that handles it, its risk in one sentence, and the findings of the scan about it. Sections:
    URL schemes and their handlers, universal links and associated domains, document types and UTIs,
    file imports, app extensions, app groups and keychain groups, web views and JavaScript bridges,
    deserialization, network endpoints (pinning, ATS exceptions), pasteboard, push notifications and
    other IPC (share sheet, Handoff, App Intents, Bonjour, Multipeer, Bluetooth, NFC).

    Options:
      --format FORMAT        \(SurfaceFormat.allCases.map(\.rawValue).joined(separator: ", ")) (default: text)
      --output FILE, -o FILE Write the inventory to FILE instead of standard output
      --source-link-base URL Link Markdown locations to URL/PATH#LLINE
      --no-color             Never colour the text format
    \(commonOptionsUsage)

    Exit codes: 0 when the inventory was written (findings do not change it), 2 on usage or tool error.
    """

    static let rulesUsage = """
    Usage: moat rules [--format text|json|markdown]
    """

    static let explainUsage = """
    Usage: moat explain RULE
    """

    static func run(_ arguments: [String]) -> Int32 {
        do {
            guard let command = arguments.first else {
                print(usage)
                return 2
            }
            let rest = Array(arguments.dropFirst())
            switch command {
            case "scan": return try scan(rest)
            case "baseline": return try baseline(rest)
            case "diff": return try diff(rest)
            case "surface": return try surface(rest)
            case "plan": return try plan(rest)
            case "rules": return try rules(rest)
            case "explain": return try explain(rest)
            case "help", "--help", "-h": return help(rest)
            case "--version", "version":
                print(RulesFingerprint.versionLine)
                return 0
            default:
                throw UsageError(message: "unknown command '\(command)'")
            }
        } catch let error as UsageError {
            printError("moat: \(error.message)\n")
            switch error.command {
            case "scan": printError(scanUsage + "\n")
            case "baseline": printError(baselineUsage + "\n")
            case "diff": printError(diffUsage + "\n")
            case "surface": printError(surfaceUsage + "\n")
            case "plan": printError(planUsage + "\n")
            case "rules": printError(rulesUsage + "\n")
            case "explain": printError(explainUsage + "\n")
            default: printError(usage + "\n")
            }
            return 2
        } catch let error as ScanError {
            printError("moat: \(error.path): \(error.message)\n")
            return 2
        } catch {
            printError("moat: \(error)\n")
            return 2
        }
    }

    static func help(_ arguments: [String]) -> Int32 {
        switch arguments.first {
        case "scan": print(scanUsage)
        case "baseline": print(baselineUsage)
        case "diff": print(diffUsage)
        case "surface": print(surfaceUsage)
        case "plan": print(planUsage)
        case "rules": print(rulesUsage)
        case "explain": print(explainUsage)
        case nil: print(usage)
        case let other?:
            printError("moat: unknown command '\(other)'\n" + usage + "\n")
            return 2
        }
        return 0
    }

    // MARK: scan

    static func scan(_ arguments: [String]) throws -> Int32 {
        var parser = ArgumentParser(arguments, command: "scan")
        var common = CommonScanArguments(command: "scan")
        var paths: [String] = []
        var format = ReportFormat.text
        var output: String?
        var failOn: Severity?
        var minSeverity: Severity?
        var showSuppressed = false
        var showTestCode = false
        var showInventory = false
        var noColor = false
        var baselinePath: String?
        var linkBase: String?
        while let argument = parser.next() {
            if try common.accept(argument, &parser) { continue }
            switch argument {
            case "--format", "-f": format = try parseFormat(try parser.value(for: argument), command: "scan")
            case "--output", "-o": output = try parser.value(for: argument)
            case "--fail-on": failOn = try parseSeverity(try parser.value(for: argument), command: "scan")
            case "--min-severity": minSeverity = try parseSeverity(try parser.value(for: argument), option: argument, command: "scan")
            case "--show-suppressed": showSuppressed = true
            case "--show-non-shipping", "--show-test-code": showTestCode = true
            case "--show-inventory": showInventory = true
            case "--no-color": noColor = true
            case "--baseline": baselinePath = try parser.value(for: argument)
            case "--source-link-base": linkBase = try parser.value(for: argument)
            default:
                if argument.hasPrefix("-") && argument != "-" {
                    throw UsageError(message: "unknown option '\(argument)'", command: "scan")
                }
                paths.append(argument)
            }
        }
        var options = try common.scanOptions(paths: paths)
        if let baselinePath { options.baseline = try Baseline.load(from: URL(fileURLWithPath: baselinePath)) }
        let progress = ProgressDisplay.start(if: format.isForPeople)
        options.progress = progress?.callback
        var (result, configuration) = try Scanner.scan(options)
        progress?.finish()
        if let minSeverity { result.hideFindings(below: minSeverity) }
        let threshold = failOn ?? configuration.failOn ?? .high
        let useColor = !noColor && output == nil && format == .text && isatty(STDOUT_FILENO) != 0
            && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
        let reportOptions = ReportOptions(color: useColor, failOn: threshold, showSuppressed: showSuppressed,
                                          sourceLinkBase: linkBase, showTestCode: showTestCode, showInventory: showInventory)
        try write(format.reporter.render(result, options: reportOptions), to: output)
        return result.findings(atOrAbove: threshold).isEmpty ? 0 : 1
    }

    // MARK: surface

    static func surface(_ arguments: [String]) throws -> Int32 {
        var parser = ArgumentParser(arguments, command: "surface")
        var common = CommonScanArguments(command: "surface")
        var paths: [String] = []
        var format = SurfaceFormat.text
        var output: String?
        var noColor = false
        var linkBase: String?
        while let argument = parser.next() {
            if try common.accept(argument, &parser) { continue }
            switch argument {
            case "--format", "-f":
                let value = try parser.value(for: argument)
                guard let parsed = SurfaceFormat(rawValue: value.lowercased()) else {
                    throw UsageError(message: "unknown format '\(value)' for --format (expected \(SurfaceFormat.allCases.map(\.rawValue).joined(separator: ", ")))", command: "surface")
                }
                format = parsed
            case "--output", "-o": output = try parser.value(for: argument)
            case "--no-color": noColor = true
            case "--source-link-base": linkBase = try parser.value(for: argument)
            default:
                if argument.hasPrefix("-") && argument != "-" {
                    throw UsageError(message: "unknown option '\(argument)'", command: "surface")
                }
                paths.append(argument)
            }
        }
        var options = try common.scanOptions(paths: paths)
        let progress = ProgressDisplay.start(if: format == .text)
        options.progress = progress?.callback
        let (result, _) = try Scanner.scan(options)
        progress?.finish()
        let useColor = !noColor && output == nil && format == .text && isatty(STDOUT_FILENO) != 0
            && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
        let reportOptions = ReportOptions(color: useColor, sourceLinkBase: linkBase)
        try write(SurfaceReport.render(result, format: format, options: reportOptions), to: output)
        return 0
    }

    static func parseFormat(_ value: String, command: String) throws -> ReportFormat {
        guard let parsed = ReportFormat(rawValue: value.lowercased()) else {
            throw UsageError(message: "unknown format '\(value)' for --format (expected \(ReportFormat.allCases.map(\.rawValue).joined(separator: ", ")))", command: command)
        }
        return parsed
    }

    static func parseSeverity(_ value: String, option: String = "--fail-on", command: String) throws -> Severity {
        guard let parsed = Severity(rawValue: value.lowercased()) else {
            throw UsageError(message: "unknown severity '\(value)' for \(option) (expected critical, high, medium, low, info)", command: command)
        }
        return parsed
    }

    /// Writes a report to a file, or to standard output.
    static func write(_ report: String, to output: String?) throws {
        if let output {
            do {
                try Data(report.utf8).write(to: URL(fileURLWithPath: output))
            } catch {
                throw ScanError(path: output, message: "cannot write report: \(error.localizedDescription)")
            }
        } else {
            FileHandle.standardOutput.write(Data(report.utf8))
        }
    }

    // MARK: rules, explain

    static func rules(_ arguments: [String]) throws -> Int32 {
        var parser = ArgumentParser(arguments, command: "rules")
        var format = "text"
        while let argument = parser.next() {
            switch argument {
            case "--format", "-f":
                format = try parser.value(for: argument)
                guard ["text", "json", "markdown"].contains(format) else {
                    throw UsageError(message: "unknown format '\(format)' for --format (expected text, json, markdown)", command: "rules")
                }
            default:
                throw UsageError(message: "unexpected argument '\(argument)'", command: "rules")
            }
        }
        let descriptions = RuleRegistry.descriptions
        switch format {
        case "json": print(RuleCatalogue.json(descriptions), terminator: "")
        case "markdown": print(RuleCatalogue.markdown(descriptions), terminator: "")
        default: print(RuleCatalogue.text(descriptions), terminator: "")
        }
        return 0
    }

    static func explain(_ arguments: [String]) throws -> Int32 {
        guard arguments.count == 1, let name = arguments.first, !name.hasPrefix("-") else {
            throw UsageError(message: arguments.isEmpty ? "explain needs a rule id or slug" : "explain takes exactly one rule", command: "explain")
        }
        guard let rule = RuleRegistry.rule(named: name) else {
            throw UsageError(message: "unknown rule '\(name)' (see `moat rules`)", command: "explain")
        }
        print(RuleCatalogue.explain(rule.description), terminator: "")
        return 0
    }

    static func isDirectory(_ path: String) -> Bool {
        var flag: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &flag) && flag.boolValue
    }

    static func printError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}

/// Hand-written argument reading: options with values, `--opt=value`, and positionals.
struct ArgumentParser {
    private var arguments: [String]
    private var index = 0
    let command: String

    init(_ arguments: [String], command: String) {
        var expanded: [String] = []
        for argument in arguments {
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                expanded.append(String(argument[..<equals]))
                expanded.append(String(argument[argument.index(after: equals)...]))
            } else {
                expanded.append(argument)
            }
        }
        self.arguments = expanded
        self.command = command
    }

    mutating func next() -> String? {
        guard index < arguments.count else { return nil }
        defer { index += 1 }
        return arguments[index]
    }

    mutating func value(for option: String) throws -> String {
        guard let value = next() else {
            throw UsageError(message: "option '\(option)' needs a value", command: command)
        }
        return value
    }
}
