import Foundation
import MoatCore
import MoatScan
import Testing
@testable import MoatReport

@Suite struct SARIFReporterTests {
    func render(_ result: ScanResult) -> String {
        SARIFReporter().render(result, options: ReportOptions())
    }

    func run(_ document: [String: Any]) throws -> [String: Any] {
        let runs = try #require(document["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        return try #require(runs.first)
    }

    /// The sample result, and the same with a baseline (new and absent results).
    func documents(_ sample: SampleScan) -> [(name: String, text: String)] {
        var baselined = sample.result
        baselined.baseline = BaselineComparison(new: sample.result.findings, unchanged: [],
                                                absent: [Baseline.Entry(fingerprint: "ffffffffffffffff", ruleId: "MOAT-CODE-002",
                                                                        path: "Sources/Gone.swift", message: "XML parser resolves external entities")])
        return [("SARIF", render(sample.result)), ("SARIF with baseline", render(baselined))]
    }

    /// Always runs: the project's own structural check (required properties, rule cross-references,
    /// UTF-16 columns, fingerprints).
    @Test func isStructurallyValidSARIF() throws {
        let sample = try SampleScan.make()
        defer { sample.remove() }
        for (name, text) in documents(sample) {
            let problems = SARIFStructure.problems(text)
            #expect(problems.isEmpty, "\(name) is not well formed:\n\(problems.joined(separator: "\n"))")
        }
    }

    /// The structural check finds each kind of defect it claims to (so it cannot pass by accident).
    @Test func structuralCheckFindsBrokenLogs() throws {
        let sample = try SampleScan.make()
        defer { sample.remove() }
        let original = try JSONTools.object(render(sample.result))
        func broken(_ change: (inout [String: Any]) -> Void) throws -> [String] {
            var run = try self.run(original)
            change(&run)
            var document = original
            document["runs"] = [run]
            let data = try JSONSerialization.data(withJSONObject: document)
            return SARIFStructure.problems(String(decoding: data, as: UTF8.self))
        }
        func mutateResult(_ run: inout [String: Any], rule: String, _ change: (inout [String: Any]) -> Void) {
            var results = run["results"] as? [[String: Any]] ?? []
            if let index = results.firstIndex(where: { $0["ruleId"] as? String == rule }) { change(&results[index]) }
            run["results"] = results
        }
        func setRegion(_ result: inout [String: Any], column: Int) {
            var locations = result["locations"] as? [[String: Any]] ?? []
            var physical = locations[0]["physicalLocation"] as? [String: Any] ?? [:]
            var region = physical["region"] as? [String: Any] ?? [:]
            region["startColumn"] = column
            physical["region"] = region
            locations[0]["physicalLocation"] = physical
            result["locations"] = locations
        }
        #expect(try broken { _ in }.isEmpty)
        #expect(try broken { mutateResult(&$0, rule: "MOAT-NET-001") { $0["ruleIndex"] = 0 } }
            == ["runs/0/results/0/ruleIndex: 0 names MOAT-CODE-001, not MOAT-NET-001"])
        #expect(try broken { mutateResult(&$0, rule: "MOAT-NET-001") { $0["ruleIndex"] = 99 } }
            == ["runs/0/results/0/ruleIndex: 99 is outside tool.driver.rules (5)"])
        #expect(try broken { mutateResult(&$0, rule: "MOAT-NET-001") { $0["message"] = [String: Any]() } }
            == ["runs/0/results/0/message/text: required"])
        #expect(try broken { mutateResult(&$0, rule: "MOAT-NET-001") { $0["partialFingerprints"] = nil } }
            == ["runs/0/results/0/partialFingerprints: required for a result"])
        #expect(try broken { mutateResult(&$0, rule: "MOAT-NET-001") { $0["partialFingerprints"] = ["other/v1": "x"] } }
            == ["runs/0/results/0/partialFingerprints: no moatFingerprint/v1"])
        #expect(try broken { mutateResult(&$0, rule: "MOAT-NET-001") { $0["level"] = "fatal" } }
            == ["runs/0/results/0/level: 'fatal'"])
        #expect(try broken { $0["originalUriBaseIds"] = nil }.contains { $0.hasSuffix("uriBaseId %SRCROOT% is not declared in originalUriBaseIds") })
        // The web view's line holds non-ASCII text: one past its UTF-16 length is fine, its byte length is not.
        let units = SampleScan.webLine.utf16.count
        let bytes = SampleScan.webLine.utf8.count
        #expect(bytes > units + 1)
        let webIndex = try #require((try run(original)["results"] as? [[String: Any]])?.firstIndex { result in
            ((((result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: Any])?["uri"] as? String) == "Sources/Web.swift"
        })
        func setWebColumn(_ column: Int) throws -> [String] {
            try broken { run in
                var results = run["results"] as? [[String: Any]] ?? []
                setRegion(&results[webIndex], column: column)
                run["results"] = results
            }
        }
        #expect(try setWebColumn(units + 1).isEmpty)
        #expect(try setWebColumn(bytes + 1)
            == ["runs/0/results/\(webIndex)/locations/0: column \(bytes + 1) is past the end of line 3 of Sources/Web.swift (\(units) UTF-16 code units)"])
        #expect(SARIFStructure.problems("[]") == ["the log is not a JSON object"])
        #expect(SARIFStructure.problems(#"{"version": "2.0.0", "runs": []}"#) == ["version: must be \"2.1.0\""])
    }

    /// The official schema, when `MOAT_SARIF_SCHEMA` names it (CI does: `.ci/run`). Skipped otherwise, with
    /// the reason in the test output; the structural check above runs either way.
    @Test(.enabled(if: JSONTools.sarifSchemaPath != nil,
                   "official SARIF schema check skipped: MOAT_SARIF_SCHEMA is not set (point it at sarif-schema-2.1.0.json to run it; .ci/run does); the structural check still ran"))
    func validatesAgainstTheOfficialSARIFSchema() throws {
        let path = try #require(JSONTools.sarifSchemaPath)
        try #require(FileManager.default.fileExists(atPath: path), "MOAT_SARIF_SCHEMA names \(path), which does not exist")
        let sample = try SampleScan.make()
        defer { sample.remove() }
        for (name, text) in documents(sample) {
            let problems = try JSONTools.validate(text, schema: URL(fileURLWithPath: path))
            #expect(problems == nil, "\(name) does not validate against \(path):\n\(problems ?? "")")
        }
    }

    @Test func rulesCarryMetadataAndEveryResultPointsAtItsRule() throws {
        let sample = try SampleScan.make()
        defer { sample.remove() }
        let run = try run(JSONTools.object(render(sample.result)))
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "moat")
        #expect(driver["version"] as? String == MoatVersion.current)
        #expect(driver["informationUri"] as? String == MoatVersion.informationURI)
        let rules = try #require(driver["rules"] as? [[String: Any]])
        // Every rule that ran, including one without findings.
        #expect(rules.compactMap { $0["id"] as? String } == SampleScan.rules.map(\.id))

        let ats = try #require(rules.first { $0["id"] as? String == "MOAT-NET-001" })
        #expect(ats["name"] as? String == "ats-arbitrary-loads")
        #expect((ats["shortDescription"] as? [String: Any])?["text"] as? String == "App Transport Security allows arbitrary loads")
        #expect((ats["fullDescription"] as? [String: Any])?["text"] as? String == "Plain HTTP can be read and changed by anyone on the path.")
        let help = try #require(ats["help"] as? [String: String])
        #expect(help["markdown"]?.contains("Remove NSAllowsArbitraryLoads") == true)
        #expect(help["markdown"]?.contains("[MASVS-NETWORK-1](https://mas.owasp.org/MASVS/controls/MASVS-NETWORK-1/)") == true)
        #expect(help["markdown"]?.contains("[MASTG-TEST-0065](https://mas.owasp.org/MASTG/tests/ios/MASTG-TEST-0065/)") == true)
        #expect(help["markdown"]?.contains("[CWE-319](https://cwe.mitre.org/data/definitions/319.html)") == true)
        #expect(help["text"]?.contains("How to fix: Remove NSAllowsArbitraryLoads") == true)
        #expect(ats["helpUri"] as? String == "https://mas.owasp.org/MASTG/tests/ios/MASTG-TEST-0065/")
        #expect((ats["defaultConfiguration"] as? [String: Any])?["level"] as? String == "error")
        let properties = try #require(ats["properties"] as? [String: Any])
        #expect(properties["tags"] as? [String] == ["security", "MASVS-NETWORK-1", "CWE-319", "external/cwe/cwe-319"])
        #expect(properties["security-severity"] as? String == "8.0")
        #expect(properties["precision"] as? String == "high")

        let xxe = try #require(rules.first { $0["id"] as? String == "MOAT-CODE-002" })
        #expect((xxe["defaultConfiguration"] as? [String: Any])?["level"] as? String == "warning")
        #expect((xxe["properties"] as? [String: Any])?["precision"] as? String == "medium")
        #expect((xxe["properties"] as? [String: Any])?["security-severity"] as? String == "5.5")
        let unarchiving = try #require(rules.first { $0["id"] as? String == "MOAT-CODE-001" })
        #expect(unarchiving["helpUri"] as? String == "https://developer.apple.com/documentation/foundation/nskeyedunarchiver")
        let inventory = try #require(rules.first { $0["id"] as? String == "MOAT-PLAT-900" })
        #expect((inventory["defaultConfiguration"] as? [String: Any])?["level"] as? String == "note")

        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == sample.result.findings.count)
        for result in results {
            let index = try #require(result["ruleIndex"] as? Int)
            #expect(rules[index]["id"] as? String == result["ruleId"] as? String)
        }
        #expect(results.map { $0["level"] as? String } == sample.result.findings.map { finding in
            switch finding.severity {
            case .critical, .high: "error"
            case .medium: "warning"
            case .low, .info: "note"
            }
        })
    }

    @Test func resultsHaveLocationsFingerprintsAndProperties() throws {
        let sample = try SampleScan.make()
        defer { sample.remove() }
        let run = try run(JSONTools.object(render(sample.result)))
        #expect(run["columnKind"] as? String == "utf16CodeUnits")
        let base = try #require((run["originalUriBaseIds"] as? [String: Any])?["%SRCROOT%"] as? [String: Any])
        #expect((base["uri"] as? String)?.hasPrefix("file:///") == true)
        #expect((base["uri"] as? String)?.hasSuffix("/") == true)
        let results = try #require(run["results"] as? [[String: Any]])
        func result(_ rule: String, _ path: String) throws -> [String: Any] {
            try #require(results.first { result in
                guard result["ruleId"] as? String == rule,
                      let location = (result["locations"] as? [[String: Any]])?.first,
                      let physical = location["physicalLocation"] as? [String: Any],
                      let artifact = physical["artifactLocation"] as? [String: Any] else { return false }
                return artifact["uri"] as? String == path
            })
        }
        func region(_ result: [String: Any]) throws -> [String: Int] {
            let location = try #require((result["locations"] as? [[String: Any]])?.first)
            let physical = try #require(location["physicalLocation"] as? [String: Any])
            #expect((physical["artifactLocation"] as? [String: Any])?["uriBaseId"] as? String == "%SRCROOT%")
            return try #require(physical["region"] as? [String: Int])
        }

        // Source: UTF-16 column, not the scanner's byte column ("näme" and "é" take more bytes than units).
        let web = try result("MOAT-PLAT-001", "Sources/Web.swift")
        #expect(SampleScan.webByteColumn != SampleScan.webUTF16Column)
        #expect(try region(web) == ["startLine": 3, "startColumn": SampleScan.webUTF16Column])
        #expect((web["message"] as? [String: Any])?["text"] as? String == "UIWebView is deprecated and cannot disable JavaScript.")
        #expect((web["partialFingerprints"] as? [String: String]) == ["moatFingerprint/v1": "00000000000000c1"])
        #expect(web["suppressions"] == nil)
        let properties = try #require(web["properties"] as? [String: Any])
        #expect(properties["confidence"] as? String == "high")
        #expect(properties["isTestCode"] as? Bool == false)
        #expect(properties["masvs"] as? [String] == ["MASVS-PLATFORM-2"])
        #expect(properties["mastg"] as? [String] == ["MASTG-TEST-0076"])
        #expect(properties["cwe"] as? [Int] == [749])

        // Property list: the key's line and a logical location with the key path.
        let ats = try result("MOAT-NET-001", "App/Info.plist")
        #expect(try region(ats) == ["startLine": 7, "startColumn": 1])
        let logical = try #require(((ats["locations"] as? [[String: Any]])?.first?["logicalLocations"]) as? [[String: Any]])
        #expect(logical.first?["fullyQualifiedName"] as? String == "NSAppTransportSecurity.NSAllowsArbitraryLoads")
        #expect(logical.first?["name"] as? String == "NSAllowsArbitraryLoads")

        // Dataflow: related locations with ids and messages, and one code flow ending at the sink.
        let flow = try result("MOAT-CODE-001", "Sources/Store.swift")
        let related = try #require(flow["relatedLocations"] as? [[String: Any]])
        #expect(related.compactMap { $0["id"] as? Int } == [1, 2, 3])
        #expect(related.compactMap { ($0["message"] as? [String: Any])?["text"] as? String } == ["data enters here", "payload = data", "copy = payload"])
        let lines = related.compactMap { (($0["physicalLocation"] as? [String: Any])?["region"] as? [String: Int])?["startLine"] }
        #expect(lines == [2, 3, 4])
        let threadFlow = try #require(((flow["codeFlows"] as? [[String: Any]])?.first?["threadFlows"] as? [[String: Any]])?.first)
        let steps = try #require(threadFlow["locations"] as? [[String: Any]])
        let stepLines = steps.compactMap { ((($0["location"] as? [String: Any])?["physicalLocation"] as? [String: Any])?["region"] as? [String: Int])?["startLine"] }
        #expect(stepLines == [2, 3, 4, 5])

        // Suppressed in source, with the justification.
        let legacy = try result("MOAT-PLAT-001", "Sources/Legacy.swift")
        let suppression = try #require((legacy["suppressions"] as? [[String: Any]])?.first)
        #expect(suppression["kind"] as? String == "inSource")
        #expect(suppression["justification"] as? String == "kept for the iOS 11 build, removed in 3.0")
        #expect(legacy["baselineState"] == nil)
    }

    @Test func scanErrorsBecomeToolExecutionNotifications() throws {
        let sample = try SampleScan.make()
        defer { sample.remove() }
        let run = try run(JSONTools.object(render(sample.result)))
        let invocation = try #require((run["invocations"] as? [[String: Any]])?.first)
        #expect(invocation["executionSuccessful"] as? Bool == true)
        #expect(invocation["startTimeUtc"] as? String == "2023-11-14T22:13:20Z")
        let notification = try #require((invocation["toolExecutionNotifications"] as? [[String: Any]])?.first)
        #expect(notification["level"] as? String == "error")
        #expect((notification["message"] as? [String: Any])?["text"] as? String == "property list is not valid XML (line 3)")
        let artifact = ((notification["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: Any]
        #expect(artifact?["uri"] as? String == "App/Broken.plist")
    }

    @Test func baselineStatesMarkNewAndAbsentResults() throws {
        let sample = try SampleScan.make()
        defer { sample.remove() }
        var result = sample.result
        result.baseline = BaselineComparison(new: result.findings, unchanged: [],
                                             absent: [Baseline.Entry(fingerprint: "ffffffffffffffff", ruleId: "MOAT-CODE-002",
                                                                     path: "Sources/Gone.swift", message: "XML parser resolves external entities")])
        let results = try #require(run(JSONTools.object(render(result)))["results"] as? [[String: Any]])
        #expect(results.filter { $0["baselineState"] as? String == "new" }.count == result.findings.count)
        let absent = try #require(results.first { $0["baselineState"] as? String == "absent" })
        #expect(absent["kind"] as? String == "pass")
        #expect(absent["level"] as? String == "none")
        #expect(absent["ruleIndex"] as? Int == 1)
        #expect((absent["partialFingerprints"] as? [String: String])?["moatFingerprint/v1"] == "ffffffffffffffff")
    }

    @Test func pathsAreEncodedAsURIReferences() throws {
        #expect(SARIFReporter.artifact("My App/Sources/a#b.swift") == ["uri": "My%20App/Sources/a%23b.swift", "uriBaseId": "%SRCROOT%"])
        #expect(SARIFReporter.artifact("/tmp/x y") == ["uri": "file:///tmp/x%20y"])
    }
}
