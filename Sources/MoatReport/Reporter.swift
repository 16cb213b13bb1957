import MoatCore
import MoatScan

/// Options every reporter may honour.
public struct ReportOptions: Sendable {
    /// ANSI colour (text format on a TTY only).
    public var color = false
    /// The severity at or above which the scan fails (shown in summaries).
    public var failOn: Severity = .high
    /// Include suppressed findings in human formats.
    public var showSuppressed = false

    public init(color: Bool = false, failOn: Severity = .high, showSuppressed: Bool = false) {
        self.color = color
        self.failOn = failOn
        self.showSuppressed = showSuppressed
    }
}

/// Turns a whole scan result (rule catalogue included) into one output document.
public protocol Reporter: Sendable {
    func render(_ result: ScanResult, options: ReportOptions) -> String
}

/// The output formats `moat scan --format` accepts.
public enum ReportFormat: String, CaseIterable, Sendable {
    case text, json, sarif, xcode

    public var reporter: any Reporter {
        switch self {
        case .text: TextReporter()
        case .json: JSONReporter()
        case .sarif: SARIFReporter()
        case .xcode: XcodeReporter()
        }
    }
}
