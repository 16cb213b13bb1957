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
    /// List findings in non-shipping code (tests, mocks, fixtures, previews, debug- and simulator-only
    /// branches) in the text format (otherwise counted by reason in its "not shown" line).
    public var showNonShipping = false
    /// The former name of `showNonShipping` (test code is one kind of non-shipping code).
    public var showTestCode: Bool {
        get { showNonShipping }
        set { showNonShipping = newValue }
    }
    /// List inventory findings (rules marked `isInventory`) in the text format (otherwise counted).
    public var showInventory = false
    /// Where Markdown links to a file point: `<base>/<path>#L<line>` (for example
    /// `https://github.com/OWNER/REPO/blob/SHA`). Without it, locations are shown without links.
    public var sourceLinkBase: String?

    public init(color: Bool = false, failOn: Severity = .high, showSuppressed: Bool = false, sourceLinkBase: String? = nil,
                showTestCode: Bool = false, showInventory: Bool = false, showNonShipping: Bool = false) {
        self.color = color
        self.failOn = failOn
        self.showSuppressed = showSuppressed
        self.sourceLinkBase = sourceLinkBase
        self.showNonShipping = showNonShipping || showTestCode
        self.showInventory = showInventory
    }
}

/// Turns a whole scan result (rule catalogue included) into one output document.
public protocol Reporter: Sendable {
    func render(_ result: ScanResult, options: ReportOptions) -> String
}

/// The output formats `moat scan --format` (and `moat diff --format`) accept: the one list of them.
public enum ReportFormat: String, CaseIterable, Sendable {
    case text, json, sarif, xcode, html, markdown, gitlab

    public var reporter: any Reporter {
        switch self {
        case .text: TextReporter()
        case .json: JSONReporter()
        case .sarif: SARIFReporter()
        case .xcode: XcodeReporter()
        case .html: HTMLReporter()
        case .markdown: MarkdownReporter()
        case .gitlab: GitLabReporter()
        }
    }

    /// Formats read by people, where progress on a terminal and colour make sense.
    public var isForPeople: Bool { self == .text }

    /// One line per format, for `--help`.
    public var summary: String {
        switch self {
        case .text: "human-readable: what fails the gate first, then the rest by file (default)"
        case .json: "findings, errors and a summary as JSON"
        case .sarif: "SARIF 2.1.0 for GitHub code scanning and SARIF viewers"
        case .xcode: "path:line:column: error|warning: lines for Xcode build phases"
        case .html: "one self-contained HTML file (charts, attack surface, excerpts, filters)"
        case .markdown: "a summary for pull-request comments"
        case .gitlab: "GitLab SAST report JSON (artifacts:reports:sast)"
        }
    }
}
