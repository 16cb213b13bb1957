import Foundation
import MoatCore
import MoatScan

/// SARIF 2.1.0, shaped for GitHub code scanning and SARIF viewers.
///
/// One run. `tool.driver.rules` lists every rule that ran (and any rule a finding names that did not),
/// each with its help, MASVS/MASTG/CWE links, tags, `security-severity` and `precision`. Each finding is
/// one result pointing at its rule by id and index, located by a `%SRCROOT%`-relative URI and a 1-based
/// line and UTF-16 column (`columnKind` on the run; the scanner's byte columns are converted from the
/// file when it can be read), with logical locations for property-list key paths and symbols, related
/// locations and a code flow for dataflow paths, the content fingerprint as `moatFingerprint/v1`, and an
/// in-source suppression where `moat:ignore` silenced it. Files that could not be analyzed are tool
/// execution notifications. With a baseline, results carry `baselineState` (`new`), and baseline entries
/// that no longer match are `absent` results of kind `pass`, so no consumer mistakes them for problems.
public struct SARIFReporter: Reporter {
    public init() {}

    static let schemaURI = "https://json.schemastore.org/sarif-2.1.0.json"
    static let fingerprintKey = "moatFingerprint/v1"

    public func render(_ result: ScanResult, options: ReportOptions) -> String {
        document(result, options: options).rendered()
    }

    func document(_ result: ScanResult, options: ReportOptions) -> JSONValue {
        let sources = SourceFiles(roots: result.roots)
        let rules = Self.ruleList(result)
        var indexById: [String: Int] = [:]
        for (index, rule) in rules.enumerated() where indexById[rule.id] == nil { indexById[rule.id] = index }

        var results: [JSONValue] = []
        for finding in result.findings {
            results.append(self.result(finding, ruleIndex: indexById[finding.ruleId] ?? -1, sources: sources,
                                       baseline: result.baseline != nil))
        }
        for entry in result.baseline?.absent ?? [] {
            var absent: JSONValue = [
                "ruleId": .string(entry.ruleId),
                "kind": "pass",
                "level": "none",
                "baselineState": "absent",
                "message": ["text": .string("No longer found (recorded in the baseline): " + entry.message)],
                "locations": [["physicalLocation": ["artifactLocation": Self.artifact(entry.path)]]],
                "partialFingerprints": [Self.fingerprintKey: .string(entry.fingerprint)],
            ]
            if let index = indexById[entry.ruleId] { absent["ruleIndex"] = .int(index) }
            results.append(absent)
        }

        var invocation: JSONValue = [
            "executionSuccessful": true,
            "toolExecutionNotifications": .array(result.errors.map(Self.notification)),
        ]
        if let start = result.startTime { invocation["startTimeUtc"] = .string(Timestamps.iso8601(start)) }
        if let end = result.endTime { invocation["endTimeUtc"] = .string(Timestamps.iso8601(end)) }

        var runProperties: JSONValue = ["filesScanned": .int(result.filesScanned)]
        if let name = result.appName { runProperties["appName"] = .string(name) }
        if let bundle = result.bundleIdentifier { runProperties["bundleIdentifier"] = .string(bundle) }
        if let surface = result.surface { runProperties["attackSurface"] = SurfaceReport.jsonValue(surface) }
        let inventory = ReportSupport.inventory(result)
        if !inventory.isEmpty { runProperties["inventory"] = .array(inventory.map(Self.inventoryEntry)) }
        if let minimum = result.minimumSeverity {
            runProperties["minSeverity"] = .string(minimum.rawValue)
            runProperties["notShownBelowMinSeverity"] = .int(result.belowMinimum.count)
        }
        if let baseline = result.baseline {
            runProperties["baseline"] = ["unchanged": .int(baseline.unchanged.count), "absent": .int(baseline.absent.count),
                                         "new": .int(result.findings.count)]
        }

        var run: JSONValue = [
            "tool": ["driver": [
                "name": .string(result.toolName),
                "version": .string(result.toolVersion),
                "semanticVersion": .string(result.toolVersion),
                "informationUri": .string(MoatVersion.informationURI),
                "rules": .array(rules.map(Self.descriptor)),
                "properties": ["rulesFingerprint": .string(result.rulesFingerprint)],
            ]],
            "invocations": [invocation],
            "columnKind": "utf16CodeUnits",
            "results": .array(results),
            "properties": runProperties,
        ]
        if let base = Self.sourceRoot(result.roots) {
            run["originalUriBaseIds"] = ["%SRCROOT%": ["uri": .string(base)]]
        }
        return [
            "$schema": .string(Self.schemaURI),
            "version": "2.1.0",
            "runs": [run],
        ]
    }

    // MARK: Rules

    /// The rules that ran, then any rule a finding names that is not among them (built from the finding).
    static func ruleList(_ result: ScanResult) -> [RuleDescription] {
        var rules = result.rules
        var known = Set(rules.map(\.id))
        for finding in result.findings where !known.contains(finding.ruleId) {
            known.insert(finding.ruleId)
            rules.append(RuleDescription(id: finding.ruleId, slug: finding.slug, title: finding.title,
                                         severity: finding.severity, confidence: finding.confidence, cwe: finding.cwe,
                                         masvs: finding.masvs, mastg: finding.mastg, rationale: finding.title,
                                         fix: finding.fix, examples: []))
        }
        return rules
    }

    static func level(_ severity: Severity) -> String {
        switch severity {
        case .critical, .high: "error"
        case .medium: "warning"
        case .low, .info: "note"
        }
    }

    /// GitHub's `precision` vocabulary.
    static func precision(_ confidence: Confidence) -> String {
        switch confidence {
        case .high: "high"
        case .medium: "medium"
        case .low: "low"
        }
    }

    static func tags(_ rule: RuleDescription) -> [String] {
        var tags = ["security"]
        func add(_ tag: String) { if !tags.contains(tag) { tags.append(tag) } }
        for control in rule.masvs { add(control) }
        for cwe in rule.cwe {
            add("CWE-\(cwe)")
            add("external/cwe/cwe-\(cwe)")
        }
        if rule.isInventory { add("inventory") }
        return tags
    }

    /// The page that explains the rule best: its own first reference, else the MASTG test, MASVS control, CWE.
    static func helpURI(_ rule: RuleDescription) -> String {
        if let reference = rule.references.first(where: { $0.hasPrefix("https://") || $0.hasPrefix("http://") }) { return reference }
        if let test = rule.mastg.first { return Taxonomy.mastgURL(test) }
        if let control = rule.masvs.first { return Taxonomy.masvsURL(control) }
        if let cwe = rule.cwe.first { return Taxonomy.cweURL(cwe) }
        return MoatVersion.informationURI
    }

    static func links(_ rule: RuleDescription) -> [(label: String, url: String)] {
        var links: [(String, String)] = []
        for control in rule.masvs { links.append((control, Taxonomy.masvsURL(control))) }
        for test in rule.mastg { links.append((test, Taxonomy.mastgURL(test))) }
        for cwe in rule.cwe { links.append(("CWE-\(cwe)", Taxonomy.cweURL(cwe))) }
        for reference in rule.references where reference.hasPrefix("https://") || reference.hasPrefix("http://") {
            links.append((reference, reference))
        }
        return links
    }

    static func descriptor(_ rule: RuleDescription) -> JSONValue {
        let links = Self.links(rule)
        var text = "\(rule.title)\n\nWhy it matters: \(rule.rationale)\n\nHow to fix: \(rule.fix)\n"
        if !links.isEmpty {
            text += "\nReferences:\n" + links.map { $0.label == $0.url ? "- \($0.url)\n" : "- \($0.label): \($0.url)\n" }.joined()
        }
        var markdown = "**\(rule.title)**\n\n**Why it matters.** \(rule.rationale)\n\n**How to fix.** \(rule.fix)\n"
        if !links.isEmpty {
            markdown += "\n**References:** " + links.map { "[\($0.label)](\($0.url))" }.joined(separator: " · ") + "\n"
        }
        var properties: [String: JSONValue] = [
            "tags": .strings(tags(rule)),
            "security-severity": .string(rule.severity.securityScore),
            "precision": .string(precision(rule.confidence)),
            "problem.severity": .string(rule.severity >= .high ? "error" : rule.severity == .medium ? "warning" : "recommendation"),
            "masvs": .strings(rule.masvs),
            "mastg": .strings(rule.mastg),
            "cwe": .array(rule.cwe.map(JSONValue.int)),
            "inventory": .bool(rule.isInventory),
            "suite": .string(rule.suite.rawValue),
        ]
        if let measured = rule.measured {
            // What the corpus verdicts measured (TP / (TP + FP)), beside the confidence-derived `precision`.
            properties["measuredPrecision"] = measured.precision.map { .string(String(format: "%.2f", $0)) } ?? .null
            properties["judgedFindings"] = .int(measured.judged)
        }
        return [
            "id": .string(rule.id),
            "name": .string(rule.slug),
            "shortDescription": ["text": .string(rule.title)],
            "fullDescription": ["text": .string(rule.rationale)],
            "help": ["text": .string(text), "markdown": .string(markdown)],
            "helpUri": .string(helpURI(rule)),
            "defaultConfiguration": ["level": .string(level(rule.severity))],
            "properties": .object(properties),
        ]
    }

    // MARK: Results

    /// A `%SRCROOT%`-relative artifact location (absolute paths, from errors about the roots themselves,
    /// become `file:` URIs).
    static func artifact(_ path: String) -> JSONValue {
        if path.hasPrefix("/") {
            return ["uri": .string(URL(fileURLWithPath: path).absoluteString)]
        }
        let encoded = path.addingPercentEncoding(withAllowedCharacters: uriPathAllowed) ?? path
        return ["uri": .string(encoded), "uriBaseId": "%SRCROOT%"]
    }

    /// RFC 3986 path characters, without `;` and `=` which some consumers treat specially.
    static let uriPathAllowed: CharacterSet = {
        var set = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~/!$&'()*+,:@")
        set.remove(charactersIn: ";=")
        return set
    }()

    func physicalLocation(_ location: Location, sources: SourceFiles) -> JSONValue {
        let column = location.keyPath == nil
            ? sources.utf16Column(path: location.path, line: location.line, byteColumn: location.column) : 1
        return [
            "artifactLocation": Self.artifact(location.path),
            "region": ["startLine": .int(location.line), "startColumn": .int(max(1, column))],
        ]
    }

    func location(_ location: Location, message: String?, id: Int?, sources: SourceFiles) -> JSONValue {
        var value: JSONValue = ["physicalLocation": physicalLocation(location, sources: sources)]
        var logical: [JSONValue] = []
        if let keyPath = location.keyPath {
            let name = keyPath.split(separator: ".").last.map(String.init) ?? keyPath
            logical.append(["name": .string(name), "fullyQualifiedName": .string(keyPath), "kind": "property"])
        }
        if let symbol = location.symbol {
            logical.append(["name": .string(symbol), "fullyQualifiedName": .string(symbol), "kind": "function"])
        }
        if !logical.isEmpty { value["logicalLocations"] = .array(logical) }
        if let message { value["message"] = ["text": .string(message)] }
        if let id { value["id"] = .int(id) }
        return value
    }

    func result(_ finding: Finding, ruleIndex: Int, sources: SourceFiles, baseline: Bool) -> JSONValue {
        var value: JSONValue = [
            "ruleId": .string(finding.ruleId),
            "ruleIndex": .int(ruleIndex),
            "level": .string(Self.level(finding.severity)),
            "message": ["text": .string(finding.message)],
            "locations": [location(finding.location, message: nil, id: nil, sources: sources)],
            "partialFingerprints": [Self.fingerprintKey: .string(finding.fingerprint)],
            "properties": [
                "severity": .string(finding.severity.rawValue),
                "confidence": .string(finding.confidence.rawValue),
                "isTestCode": .bool(finding.isTestCode),
                "masvs": .strings(finding.masvs),
                "mastg": .strings(finding.mastg),
                "cwe": .array(finding.cwe.map(JSONValue.int)),
                "security-severity": .string(finding.severity.securityScore),
            ],
        ]
        if let evidence = finding.evidence, !evidence.isEmpty { value["properties"]?["evidence"] = .string(evidence) }
        if let reason = finding.nonShippingReason { value["properties"]?["nonShippingReason"] = .string(reason.rawValue) }
        if let suite = finding.suite { value["properties"]?["suite"] = .string(suite.rawValue) }
        if !finding.related.isEmpty {
            value["relatedLocations"] = .array(finding.related.enumerated().map { index, step in
                location(step.location, message: step.message, id: index + 1, sources: sources)
            })
            // A path for dataflow findings; the other places of a repeated configuration value are not a flow.
            if finding.location.keyPath == nil {
                var steps = finding.related.map { step in
                    JSONValue.object(["location": location(step.location, message: step.message, id: nil, sources: sources)])
                }
                steps.append(["location": location(finding.location, message: finding.message, id: nil, sources: sources)])
                value["codeFlows"] = [["threadFlows": [["locations": .array(steps)]]]]
            }
        }
        if let suppression = finding.suppression {
            var entry: JSONValue = [
                "kind": "inSource",
                "status": "accepted",
                "justification": .string(suppression.reason.isEmpty ? "moat:ignore without a reason" : suppression.reason),
            ]
            entry["location"] = ["physicalLocation": physicalLocation(suppression.location, sources: sources)]
            value["suppressions"] = [entry]
        }
        if baseline { value["baselineState"] = "new" }
        return value
    }

    /// One inventory entry of `runs[0].properties.inventory`: the rule, its typed kind and name when the
    /// rule gives them, the message and the location.
    static func inventoryEntry(_ finding: Finding) -> JSONValue {
        var location: JSONValue = ["path": .string(finding.location.path), "line": .int(finding.location.line),
                                   "column": .int(finding.location.column)]
        if let keyPath = finding.location.keyPath { location["keyPath"] = .string(keyPath) }
        if let symbol = finding.location.symbol { location["symbol"] = .string(symbol) }
        var entry: JSONValue = ["ruleId": .string(finding.ruleId), "message": .string(finding.message), "location": location]
        if let item = finding.inventory {
            entry["kind"] = .string(item.kind.rawValue)
            entry["name"] = .string(item.name)
        }
        return entry
    }

    static func notification(_ error: ScanError) -> JSONValue {
        [
            "level": "error",
            "message": ["text": .string(error.message)],
            "locations": [["physicalLocation": ["artifactLocation": artifact(error.path)]]],
            "descriptor": ["id": "moat-file-not-analyzed"],
        ]
    }

    /// `file:///abs/root/` for a single root (its folder for a single file), so viewers find the files.
    static func sourceRoot(_ roots: [String]) -> String? {
        guard roots.count == 1, let root = roots.first else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory) else { return nil }
        var url = URL(fileURLWithPath: root).standardizedFileURL
        if !isDirectory.boolValue { url = url.deletingLastPathComponent() }
        var text = url.absoluteString
        if !text.hasSuffix("/") { text += "/" }
        return text
    }
}
