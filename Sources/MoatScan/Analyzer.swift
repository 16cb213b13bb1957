import Dispatch
import Foundation
import MoatCore
import MoatFormats
import MoatRules
import MoatSyntax

/// Runs the selected rules on each loaded artifact, and the app rules on the whole app at the end.
public struct Analyzer: Sendable {
    public let sourceRules: [any SourceRule]
    public let plistRules: [any PropertyListRule]
    public let appRules: [any AppRule]
    public let binaryRules: [any BinaryRule]
    public let interfaceBuilderRules: [any InterfaceBuilderRule]

    public init(rules: [any Rule.Type]) {
        let instances = rules.map { $0.init() }
        sourceRules = instances.compactMap(\.asSourceRule)
        plistRules = instances.compactMap(\.asPropertyListRule)
        appRules = instances.compactMap(\.asAppRule)
        binaryRules = instances.compactMap(\.asBinaryRule)
        interfaceBuilderRules = instances.compactMap(\.asInterfaceBuilderRule)
    }

    /// Runs the source rules on a file analyzed alone (no context from other files).
    public func analyze(_ file: CodeFile) -> [Finding] {
        analyze(SourceUnit(code: file), deadline: .max).findings
    }

    /// Runs the source rules until the deadline (`DispatchTime` uptime nanoseconds). When it passes, the
    /// remaining rules are skipped and the id of the last rule that ran is returned as `overran`.
    public func analyze(_ unit: SourceUnit, deadline: UInt64) -> (findings: [Finding], overran: String?) {
        var findings: [Finding] = []
        for rule in sourceRules where type(of: rule).languages.contains(unit.code.language) {
            var sink = FindingSink(rule: type(of: rule).description)
            let start = DispatchTime.now().uptimeNanoseconds
            rule.check(unit, &sink)
            findings.append(contentsOf: sink.findings)
            let now = DispatchTime.now().uptimeNanoseconds
            RuleProfile.shared?.add(type(of: rule).description.id, nanoseconds: now &- start)
            if now > deadline { return (findings, type(of: rule).description.id) }
        }
        return (findings, nil)
    }

    public func analyze(_ plist: PropertyListDocument) -> [Finding] {
        var findings: [Finding] = []
        for rule in plistRules where type(of: rule).plistKinds.contains(plist.kind) {
            var sink = FindingSink(rule: type(of: rule).description)
            rule.check(plist, &sink)
            findings.append(contentsOf: sink.findings)
        }
        return findings
    }

    public func analyze(_ binary: BinaryImage) -> [Finding] {
        var findings: [Finding] = []
        for rule in binaryRules {
            var sink = FindingSink(rule: type(of: rule).description)
            rule.check(binary, &sink)
            findings.append(contentsOf: sink.findings)
        }
        return findings
    }

    public func analyze(_ document: InterfaceBuilderDocument) -> [Finding] {
        var findings: [Finding] = []
        for rule in interfaceBuilderRules {
            var sink = FindingSink(rule: type(of: rule).description)
            rule.check(document, &sink)
            findings.append(contentsOf: sink.findings)
        }
        return findings
    }

    public func analyze(_ app: AppModel) -> [Finding] {
        var findings: [Finding] = []
        for rule in appRules {
            var sink = FindingSink(rule: type(of: rule).description)
            rule.check(app, &sink)
            findings.append(contentsOf: sink.findings)
        }
        return findings
    }
}

/// Time spent in each source rule, collected when `MOAT_PROFILE_RULES` is set and printed to standard
/// error at exit by the CLI (`RuleProfile.report()`): for finding the rules that dominate a scan.
public final class RuleProfile: @unchecked Sendable {
    public static let shared: RuleProfile? =
        ProcessInfo.processInfo.environment["MOAT_PROFILE_RULES"] != nil ? RuleProfile() : nil

    private var totals: [String: UInt64] = [:]
    private let lock = NSLock()

    func add(_ rule: String, nanoseconds: UInt64) {
        lock.lock()
        totals[rule, default: 0] &+= nanoseconds
        lock.unlock()
    }

    /// The rules by time spent, slowest first.
    public func report() -> String {
        lock.lock()
        defer { lock.unlock() }
        return totals.sorted { $0.value > $1.value }.map { $0.key.padding(toLength: 16, withPad: " ", startingAt: 0) + String(format: " %8.3f s", Double($0.value) / 1e9) }
            .joined(separator: "\n") + "\n"
    }
}
