import MoatCore
import MoatScan

/// `path:line:column: warning|error: message [ruleId]`, one per line, for Xcode and editors.
/// Findings at or above the fail threshold are errors, the rest warnings; scan errors are errors too.
public struct XcodeReporter: Reporter {
    public init() {}

    public func render(_ result: ScanResult, options: ReportOptions) -> String {
        var lines: [String] = []
        for finding in result.activeFindings {
            let level = finding.severity >= options.failOn && finding.gates ? "error" : "warning"
            let location = finding.location
            lines.append("\(location.path):\(location.line):\(location.column): \(level): \(oneLine(finding.message)) [\(finding.ruleId)]")
        }
        for error in result.errors {
            lines.append("\(error.path):1:1: error: \(oneLine(error.message)) [moat]")
        }
        return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
    }

    private func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
