import Foundation

/// A structural check of a SARIF 2.1.0 log, written in this project so that it runs everywhere (the
/// official schema cannot be shipped; see `JSONTools.sarifSchemaPath`). It checks what the schema requires
/// of the parts Moat writes, and what the schema cannot express:
/// - required properties: `version` "2.1.0", `runs`; per run `tool.driver.name`; per rule `id`; per result
///   `message.text`; per location an `artifactLocation.uri`; per region a `startLine` ≥ 1 and `startColumn` ≥ 1;
///   enumerations (`level`, `kind`, `baselineState`, `columnKind`, suppression `kind`);
/// - cross-references: unique rule ids, `ruleIndex` in range and naming the rule whose id is `ruleId`, every
///   `uriBaseId` declared in `originalUriBaseIds`, unique related-location ids;
/// - UTF-16 columns: with `columnKind` `utf16CodeUnits`, each region of a file that can be read under its
///   base lies on a line of the file and its column is at most one past the line's length in UTF-16 code
///   units (a UTF-8 byte column on a line with non-ASCII text goes past it);
/// - fingerprints: every result that is not a `pass` has non-empty string `partialFingerprints`, with the key
///   given (`moatFingerprint/v1` for Moat).
enum SARIFStructure {
    static let levels: Set<String> = ["none", "note", "warning", "error"]
    static let kinds: Set<String> = ["notApplicable", "pass", "fail", "review", "open", "informational"]
    static let baselineStates: Set<String> = ["new", "unchanged", "updated", "absent"]
    static let suppressionKinds: Set<String> = ["inSource", "external"]

    /// Problems found in `text`, one line each (empty when the log is well formed).
    static func problems(_ text: String, fingerprintKey: String = "moatFingerprint/v1") -> [String] {
        guard let data = text.data(using: .utf8),
              let document = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            return ["the log is not a JSON object"]
        }
        var problems: [String] = []
        if document["version"] as? String != "2.1.0" { problems.append("version: must be \"2.1.0\"") }
        if let schema = document["$schema"], !(schema is String) { problems.append("$schema: must be a string") }
        guard let runs = document["runs"] as? [[String: Any]] else {
            return problems + ["runs: required array of run objects"]
        }
        for (index, run) in runs.enumerated() {
            problems += check(run: run, at: "runs/\(index)", fingerprintKey: fingerprintKey)
        }
        return problems
    }

    static func check(run: [String: Any], at path: String, fingerprintKey: String) -> [String] {
        var problems: [String] = []
        let driver = (run["tool"] as? [String: Any])?["driver"] as? [String: Any]
        if driver == nil { problems.append("\(path)/tool/driver: required") }
        if let driver, (driver["name"] as? String)?.isEmpty != false { problems.append("\(path)/tool/driver/name: required string") }
        let rules = (driver?["rules"] as? [[String: Any]]) ?? []
        var seen: Set<String> = []
        for (index, rule) in rules.enumerated() {
            guard let id = rule["id"] as? String, !id.isEmpty else {
                problems.append("\(path)/tool/driver/rules/\(index)/id: required string")
                continue
            }
            if !seen.insert(id).inserted { problems.append("\(path)/tool/driver/rules/\(index)/id: \(id) listed twice") }
            for key in ["shortDescription", "fullDescription", "help"] {
                if let message = rule[key], (message as? [String: Any])?["text"] as? String == nil {
                    problems.append("\(path)/tool/driver/rules/\(index)/\(key): a message needs text")
                }
            }
            if let configuration = rule["defaultConfiguration"] as? [String: Any], let level = configuration["level"] as? String,
               !levels.contains(level) {
                problems.append("\(path)/tool/driver/rules/\(index)/defaultConfiguration/level: '\(level)' is not a SARIF level")
            }
        }

        let bases = (run["originalUriBaseIds"] as? [String: Any]) ?? [:]
        var baseFolders: [String: URL] = [:]
        for (name, value) in bases {
            guard let uri = (value as? [String: Any])?["uri"] as? String else {
                problems.append("\(path)/originalUriBaseIds/\(name)/uri: required")
                continue
            }
            if !uri.hasSuffix("/") { problems.append("\(path)/originalUriBaseIds/\(name)/uri: must end with /") }
            if let url = URL(string: uri), url.isFileURL { baseFolders[name] = url }
        }
        let columnKind = run["columnKind"] as? String
        if let columnKind, !["utf16CodeUnits", "unicodeCodePoints"].contains(columnKind) {
            problems.append("\(path)/columnKind: '\(columnKind)' is not a SARIF column kind")
        }
        var lines = LineCache()

        func checkLocation(_ location: Any?, at where_: String) {
            guard let location = location as? [String: Any] else {
                problems.append("\(where_): a location must be an object")
                return
            }
            guard let physical = location["physicalLocation"] as? [String: Any] else {
                if location["logicalLocations"] == nil { problems.append("\(where_): neither a physical nor a logical location") }
                return
            }
            guard let artifact = physical["artifactLocation"] as? [String: Any], let uri = artifact["uri"] as? String, !uri.isEmpty else {
                problems.append("\(where_)/physicalLocation/artifactLocation/uri: required string")
                return
            }
            if uri.contains(" ") || uri.contains("#") { problems.append("\(where_): uri '\(uri)' is not percent-encoded") }
            var fileURL: URL?
            if let base = artifact["uriBaseId"] as? String {
                if bases[base] == nil {
                    problems.append("\(where_): uriBaseId \(base) is not declared in originalUriBaseIds")
                } else if let folder = baseFolders[base], let relative = uri.removingPercentEncoding {
                    fileURL = folder.appendingPathComponent(relative)
                }
            } else if let url = URL(string: uri), url.isFileURL {
                fileURL = url
            }
            guard let region = physical["region"] as? [String: Any] else { return }
            let line = region["startLine"] as? Int
            let column = region["startColumn"] as? Int
            if let line, line < 1 { problems.append("\(where_)/physicalLocation/region/startLine: \(line) is below 1") }
            if let column, column < 1 { problems.append("\(where_)/physicalLocation/region/startColumn: \(column) is below 1") }
            guard columnKind != "unicodeCodePoints", let fileURL, let line, line >= 1,
                  let fileLines = lines.lines(of: fileURL) else { return }
            guard line <= max(fileLines.count, 1) else {
                problems.append("\(where_): line \(line) is past the end of \(uri) (\(fileLines.count) lines)")
                return
            }
            if let column, line <= fileLines.count {
                let units = fileLines[line - 1].utf16.count
                if column > units + 1 {
                    problems.append("\(where_): column \(column) is past the end of line \(line) of \(uri) (\(units) UTF-16 code units)")
                }
            }
        }

        guard let results = run["results"] as? [[String: Any]] else {
            return problems + ["\(path)/results: required array (empty when nothing was found)"]
        }
        for (index, result) in results.enumerated() {
            let at = "\(path)/results/\(index)"
            if (result["message"] as? [String: Any])?["text"] as? String == nil { problems.append("\(at)/message/text: required") }
            let ruleId = result["ruleId"] as? String
            if ruleId == nil && result["ruleIndex"] == nil { problems.append("\(at): names no rule (ruleId or ruleIndex)") }
            if let index = result["ruleIndex"] as? Int {
                if index < 0 || index >= rules.count {
                    problems.append("\(at)/ruleIndex: \(index) is outside tool.driver.rules (\(rules.count))")
                } else if let ruleId, rules[index]["id"] as? String != ruleId {
                    problems.append("\(at)/ruleIndex: \(index) names \(rules[index]["id"] as? String ?? "?"), not \(ruleId)")
                }
            } else if let ruleId, !rules.isEmpty, !seen.contains(ruleId) {
                problems.append("\(at)/ruleId: \(ruleId) is not in tool.driver.rules")
            }
            if let level = result["level"] as? String, !levels.contains(level) { problems.append("\(at)/level: '\(level)'") }
            let kind = result["kind"] as? String
            if let kind, !kinds.contains(kind) { problems.append("\(at)/kind: '\(kind)'") }
            if let state = result["baselineState"] as? String, !baselineStates.contains(state) {
                problems.append("\(at)/baselineState: '\(state)'")
            }
            if kind != "pass" {
                let fingerprints = result["partialFingerprints"] as? [String: Any]
                if fingerprints == nil || fingerprints?.isEmpty == true {
                    problems.append("\(at)/partialFingerprints: required for a result")
                } else if let fingerprints {
                    if fingerprints.values.contains(where: { ($0 as? String)?.isEmpty != false }) {
                        problems.append("\(at)/partialFingerprints: values must be non-empty strings")
                    }
                    if fingerprints[fingerprintKey] == nil { problems.append("\(at)/partialFingerprints: no \(fingerprintKey)") }
                }
            }
            let locations = result["locations"] as? [Any] ?? []
            if kind != "pass" && locations.isEmpty { problems.append("\(at)/locations: a result needs a location") }
            for (number, location) in locations.enumerated() { checkLocation(location, at: "\(at)/locations/\(number)") }
            var relatedIds: Set<Int> = []
            for (number, related) in (result["relatedLocations"] as? [Any] ?? []).enumerated() {
                checkLocation(related, at: "\(at)/relatedLocations/\(number)")
                if let id = (related as? [String: Any])?["id"] as? Int, !relatedIds.insert(id).inserted || id < 0 {
                    problems.append("\(at)/relatedLocations/\(number)/id: \(id) repeated or negative")
                }
            }
            for (flowNumber, flow) in (result["codeFlows"] as? [[String: Any]] ?? []).enumerated() {
                let threads = flow["threadFlows"] as? [[String: Any]] ?? []
                if threads.isEmpty { problems.append("\(at)/codeFlows/\(flowNumber)/threadFlows: required, not empty") }
                for (threadNumber, thread) in threads.enumerated() {
                    let steps = thread["locations"] as? [[String: Any]] ?? []
                    if steps.isEmpty { problems.append("\(at)/codeFlows/\(flowNumber)/threadFlows/\(threadNumber)/locations: required, not empty") }
                    for (stepNumber, step) in steps.enumerated() where step["location"] != nil {
                        checkLocation(step["location"], at: "\(at)/codeFlows/\(flowNumber)/threadFlows/\(threadNumber)/locations/\(stepNumber)/location")
                    }
                }
            }
            for (number, suppression) in (result["suppressions"] as? [[String: Any]] ?? []).enumerated() {
                if let kind = suppression["kind"] as? String, suppressionKinds.contains(kind) { continue }
                problems.append("\(at)/suppressions/\(number)/kind: required, inSource or external")
            }
        }
        for (index, invocation) in (run["invocations"] as? [[String: Any]] ?? []).enumerated()
        where !(invocation["executionSuccessful"] is Bool) {
            problems.append("\(path)/invocations/\(index)/executionSuccessful: required boolean")
        }
        return problems
    }

    /// Files read once per check, split into lines the way SARIF counts them (CR, LF or CRLF end a line).
    struct LineCache {
        private var files: [URL: [Substring]?] = [:]

        mutating func lines(of url: URL) -> [Substring]? {
            if let cached = files[url] { return cached }
            var lines: [Substring]?
            if let data = try? Data(contentsOf: url), let text = String(data: data, encoding: .utf8) {
                lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
            }
            files[url] = lines
            return lines
        }
    }
}
