import Foundation
import MoatCore
import MoatRules
import MoatSyntax

/// Where the scanned code does not ship (see `NonShippingReason`): files by path or by project (only
/// test targets compile them), and regions of source files (`#if DEBUG`, previews...).
public struct NonShippingMap: Sendable {
    public var paths: [String: NonShippingReason] = [:]
    public var regions: [String: [NonShippingRegion]] = [:]

    public init(paths: [String: NonShippingReason] = [:], regions: [String: [NonShippingRegion]] = [:]) {
        self.paths = paths
        self.regions = regions
    }

    /// From the discovered files (their paths), the source summaries (their regions) and the app model
    /// (files only test targets compile).
    public init(files: [DiscoveredFile], sources: [SourceSummary], app: AppModel?) {
        for file in files { if let reason = file.nonShipping { paths[file.path] = reason } }
        // Regions that depend on what the file is built for (`#if os(macOS)`, `#available` fallbacks) are
        // kept only when the targets compiling the file decide them (`PlatformCondition`).
        var platforms: (byPath: [String: BuildPlatforms], others: BuildPlatforms)?
        for source in sources {
            if let reason = source.nonShipping { paths[source.path] = paths[source.path] ?? reason }
            var kept = source.nonShippingRegions
            if kept.contains(where: { $0.condition != nil }) {
                if platforms == nil { platforms = app?.sourceBuildPlatforms ?? ([:], BuildPlatforms()) }
                let built = platforms!.byPath[source.path] ?? platforms!.others
                kept = kept.filter { region in
                    guard let text = region.condition else { return true }
                    return PlatformCondition(text: text)?.holds(for: built) ?? false
                }
            }
            if !kept.isEmpty { regions[source.path] = kept }
        }
        for path in app?.testTargetOnlyPaths ?? [] where paths[path] == nil { paths[path] = .test }
        for path in app?.uncompiledTemplatePaths ?? [] where paths[path] == nil { paths[path] = .notCompiled }
        for path in app?.neverArchivedOnlyPaths ?? [] where paths[path] == nil { paths[path] = .notArchived }
        for path in app?.unusedConfigurationPaths ?? [] where paths[path] == nil { paths[path] = .noTarget }
    }

    public func reason(for location: Location) -> NonShippingReason? {
        if let reason = paths[location.path] { return reason }
        return regions[location.path]?.first { $0.contains(line: location.line, column: location.column) }?.reason
    }
}

/// Turns raw rule output into the reported list: severity overrides, inline suppressions (and the unused
/// ones), non-shipping marks, one finding per weakness (superseded rules on the same line dropped, one
/// configuration value repeated across plists or configurations grouped), duplicates removed,
/// fingerprints, report order.
public struct PostProcessor {
    public var severityOverrides: [String: Severity]
    public var enabledRuleIds: Set<String>
    public var nonShipping: NonShippingMap
    /// Which app each configuration place belongs to: repeated values are grouped only within one app.
    public var appPlaces: AppPlaces
    /// Rules of the experimental suite (`RulePrecision`): their findings are marked, and never gate.
    public var experimentalRuleIds: Set<String> = RulePrecision.experimentalRuleIds

    public init(severityOverrides: [String: Severity], enabledRuleIds: Set<String>, nonShipping: NonShippingMap,
                appPlaces: AppPlaces = AppPlaces()) {
        self.severityOverrides = severityOverrides
        self.enabledRuleIds = enabledRuleIds
        self.nonShipping = nonShipping
        self.appPlaces = appPlaces
    }

    /// Findings in these paths are marked as test code (compatibility).
    public init(severityOverrides: [String: Severity], enabledRuleIds: Set<String>, testPaths: Set<String>) {
        self.init(severityOverrides: severityOverrides, enabledRuleIds: enabledRuleIds,
                  nonShipping: NonShippingMap(paths: Dictionary(uniqueKeysWithValues: testPaths.map { ($0, .test) })))
    }

    public func process(_ raw: [Finding], suppressions: [SuppressionDirective]) -> [Finding] {
        var findings = raw
        // Suites: an experimental rule's findings say so (they never fail a gate).
        for index in findings.indices where experimentalRuleIds.contains(findings[index].ruleId) {
            findings[index].suite = .experimental
        }
        // Severity overrides.
        for index in findings.indices {
            if let override = severityOverrides[findings[index].ruleId] ?? severityOverrides[findings[index].slug] {
                findings[index].severity = override
            }
        }
        // Inline suppressions. A directive without a reason still suppresses; MetaRules reports it.
        var used = Set<SuppressionDirective>()
        for index in findings.indices where findings[index].ruleId != UnusedSuppressionRule.description.id {
            if let directive = suppressions.first(where: { $0.covers(findings[index]) }) {
                findings[index].suppression = Suppression(
                    reason: directive.reason ?? "",
                    location: Location(path: directive.path, line: directive.line, column: directive.column))
                used.insert(directive)
            }
        }
        let unusedRule = UnusedSuppressionRule.description
        if enabledRuleIds.contains(unusedRule.id) {
            for directive in suppressions where !used.contains(directive) {
                // Only a suppression whose rules all ran can be called unused.
                let named = directive.ruleIds.compactMap { RuleRegistry.rule(named: $0)?.description.id }
                guard !named.isEmpty, named.count == directive.ruleIds.count, named.allSatisfy(enabledRuleIds.contains) else { continue }
                var sink = FindingSink(rule: unusedRule)
                sink.report("Suppression of \(directive.ruleIds.joined(separator: ", ")) matches no finding on this line or the next; remove it so it cannot hide a future finding.",
                            at: Location(path: directive.path, line: directive.line, column: directive.column))
                findings.append(contentsOf: sink.findings)
            }
        }
        // Non-shipping code: tests, mocks, fixtures, previews, debug- and simulator-only branches.
        for index in findings.indices {
            if let reason = nonShipping.reason(for: findings[index].location) { findings[index].markNonShipping(reason) }
        }
        findings = Self.droppingSuperseded(findings)
        findings = Self.mergingModelAndCodeSecrets(findings)
        findings = Self.groupingRepeatedValues(findings, places: appPlaces)
        // Duplicates: same rule, place and message.
        var seen = Set<String>()
        findings = findings.filter { finding in
            let key = "\(finding.ruleId)|\(finding.location.path)|\(finding.location.line)|\(finding.location.column)|\(finding.location.keyPath ?? "")|\(finding.message)"
            return seen.insert(key).inserted
        }
        findings.sort(by: Finding.reportOrder)
        // Fingerprints: rule, file, normalized evidence (or key path / symbol), and the occurrence number of
        // that same content in the file, so unrelated lines moving does not change them.
        var occurrences: [String: Int] = [:]
        for index in findings.indices {
            let finding = findings[index]
            let content = finding.location.keyPath ?? finding.location.symbol
                ?? Fingerprint.normalize(finding.evidence ?? finding.message)
            let base = "\(finding.ruleId)|\(finding.location.path)|\(content)"
            let occurrence = occurrences[base, default: 0]
            occurrences[base] = occurrence + 1
            findings[index].fingerprint = Fingerprint.hex(base + "|\(occurrence)")
        }
        return findings
    }

    // MARK: One weakness, one finding

    /// Where a rule that `supersedes` another reports the same line, or (an app rule) lists that line among
    /// its related locations, the other rule's finding is dropped.
    static func droppingSuperseded(_ findings: [Finding]) -> [Finding] {
        var supersededBy: [String: Set<String>] = [:]
        var appRules = Set<String>()
        for rule in RuleRegistry.all {
            for id in rule.description.supersedes { supersededBy[id, default: []].insert(rule.description.id) }
            if rule.derivedKind == .app { appRules.insert(rule.description.id) }
        }
        guard !supersededBy.isEmpty else { return findings }
        var rulesAtLine: [String: Set<String>] = [:]
        for finding in findings where finding.suppression == nil {
            rulesAtLine["\(finding.location.path)|\(finding.location.line)", default: []].insert(finding.ruleId)
            // An app rule's finding that names the other rule's place as related evidence (a secret-named
            // Core Data attribute and the code opening its unprotected store) covers that place too.
            for related in finding.related where appRules.contains(finding.ruleId) {
                rulesAtLine["\(related.location.path)|\(related.location.line)", default: []].insert(finding.ruleId)
            }
        }
        return findings.filter { finding in
            guard let winners = supersededBy[finding.ruleId],
                  let present = rulesAtLine["\(finding.location.path)|\(finding.location.line)"] else { return true }
            return winners.isDisjoint(with: present)
        }
    }

    /// One secret, one finding: a secret-named Core Data attribute that MOAT-STOR-209 reports from the model
    /// (no code flow) and that shipping code writes with a flow MOAT-STOR-301 reports (which lists the model's
    /// attribute as a related location). The code finding is the stronger evidence and stays. The model
    /// finding (one per entity, at its first secret attribute, the others related) is dropped when code
    /// findings cover every secret attribute it lists; otherwise it stays for the attributes no code writes,
    /// with the code findings as related locations.
    static func mergingModelAndCodeSecrets(_ findings: [Finding]) -> [Finding] {
        let modelRule = CoreDataSecretAttributeRule.description.id
        let codeRule = SecretInDatabaseRule.description.id
        guard findings.contains(where: { $0.ruleId == modelRule }) else { return findings }
        func key(_ location: Location) -> String { "\(location.path)|\(location.line)" }
        var writes: [String: [Location]] = [:]
        for finding in findings where finding.ruleId == codeRule && finding.suppression == nil && finding.nonShippingReason == nil {
            for related in finding.related { writes[key(related.location), default: []].append(finding.location) }
        }
        guard !writes.isEmpty else { return findings }
        var result: [Finding] = []
        for var finding in findings {
            guard finding.ruleId == modelRule else {
                result.append(finding)
                continue
            }
            let attributes = [finding.location] + finding.related.map(\.location).filter { $0.path == finding.location.path }
            let covered = attributes.filter { writes[key($0)] != nil }
            if covered.isEmpty {
                result.append(finding)
                continue
            }
            if covered.count == attributes.count { continue }
            for attribute in covered {
                for write in writes[key(attribute)] ?? [] {
                    finding.related.append(RelatedLocation(location: write, message: "This secret attribute is written from code here (MOAT-STOR-301 reports it with its flow)."))
                }
            }
            result.append(finding)
        }
        return result
    }

    /// One configuration decision, one finding: a property-list or app rule that reports the same key with
    /// the same message in several places (the app's and its extensions' Info.plists, the same build
    /// setting in several configurations or targets) gives one finding, with the others as related
    /// locations. Only places of one app are grouped (one Xcode project, or one loose app folder, as
    /// `places` says; a file no unit uses is grouped with nothing else), never across apps scanned
    /// together. The finding sits at the main app's place (application target, app Info.plist), then the
    /// first in report order. Fingerprints follow from that place. Source rules marked
    /// `groupsRepeatedFindings` (one Realm database opened from several files) are grouped the same way
    /// by message.
    static func groupingRepeatedValues(_ findings: [Finding], places: AppPlaces = AppPlaces()) -> [Finding] {
        var kinds: [String: RuleKind] = [:]
        var repeatedSourceRules = Set<String>()
        for rule in RuleRegistry.all {
            kinds[rule.description.id] = rule.derivedKind
            if rule.description.groupsRepeatedFindings { repeatedSourceRules.insert(rule.description.id) }
        }
        func groupKey(_ finding: Finding) -> String? {
            if repeatedSourceRules.contains(finding.ruleId), finding.location.keyPath == nil {
                return [places.place(of: finding.location)?.app ?? "", finding.ruleId, "source", finding.message, finding.nonShippingReason?.rawValue ?? "",
                        finding.suppression == nil ? "" : "suppressed", finding.severity.rawValue].joined(separator: "|")
            }
            guard let kind = kinds[finding.ruleId], kind == .propertyList || kind == .app,
                  let keyPath = finding.location.keyPath, finding.location.symbol == nil else { return nil }
            let app = places.place(of: finding.location)?.app ?? "file:" + finding.location.path
            return [app, finding.ruleId, Self.settingKeyPath(keyPath), finding.message, finding.nonShippingReason?.rawValue ?? "",
                    finding.suppression == nil ? "" : "suppressed", finding.severity.rawValue].joined(separator: "|")
        }
        var groups: [String: [Int]] = [:]
        for index in findings.indices {
            if let key = groupKey(findings[index]) { groups[key, default: []].append(index) }
        }
        var dropped = Set<Int>()
        var result = findings
        for (_, indices) in groups where indices.count > 1 {
            let main = Dictionary(uniqueKeysWithValues: indices.map { ($0, places.place(of: findings[$0].location)?.isMainApp ?? false) })
            let ordered = indices.sorted { left, right in
                if main[left] != main[right] { return main[left] == true }
                return Finding.reportOrder(findings[left], findings[right])
            }
            let primary = ordered[0]
            let others = ordered.dropFirst()
            let isSource = repeatedSourceRules.contains(findings[primary].ruleId) && findings[primary].location.keyPath == nil
            for index in others {
                let other = findings[index].location
                let place = other.keyPath.map { "\(other.path) (\($0))" } ?? other.path
                let note = isSource ? "Same finding also at \(other.path):\(other.line)." : "Same value also set in \(place)."
                result[primary].related.append(RelatedLocation(location: other, message: note))
                dropped.insert(index)
            }
            let count = others.count
            result[primary].message += isSource
                ? " The same happens in \(count) other place\(count == 1 ? "" : "s") (related locations)."
                : " The same value is set in \(count) other place\(count == 1 ? "" : "s") (related locations)."
        }
        return result.indices.filter { !dropped.contains($0) }.map { result[$0] }
    }

    /// `targets.App.buildSettings[Release].INFOPLIST_KEY_X` → `X`, the Info.plist key it sets, so that one
    /// key written both in an Info.plist and as a build setting of one app is one decision; another build
    /// setting by its name; a plist key path as is.
    static func settingKeyPath(_ keyPath: String) -> String {
        let name: Substring
        if keyPath.hasPrefix("targets.") || keyPath.hasPrefix("project."), let range = keyPath.range(of: "].", options: .backwards) {
            name = keyPath[range.upperBound...]
        } else {
            name = keyPath[...]  // a plist key path, or a setting of an `.xcconfig`
        }
        return String(name.hasPrefix("INFOPLIST_KEY_") ? name.dropFirst("INFOPLIST_KEY_".count) : name)
    }
}
