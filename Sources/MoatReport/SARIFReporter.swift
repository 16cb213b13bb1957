import MoatCore
import MoatScan

/// SARIF 2.1.0 placeholder (the full reporter is being written).
public struct SARIFReporter: Reporter {
    public init() {}

    public func render(_ result: ScanResult, options: ReportOptions) -> String { "{}\n" }
}
