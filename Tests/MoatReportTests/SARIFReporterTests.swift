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

    @Test func validatesAgainstTheSARIFSchema() throws {
        let sample = try SampleScan.make()
        defer { sample.remove() }
        let schema = try #require(JSONTools.sharedFile("schemas/sarif-schema-2.1.0.json"),
                                  "shared/schemas/sarif-schema-2.1.0.json not found beside the package")
        let output = render(sample.result)
        let problems = try JSONTools.validate(output, schema: schema)
        #expect(problems == nil, "SARIF does not validate:\n\(problems ?? "")")

        // With a baseline (new + absent results), too.
        var baselined = sample.result
        baselined.baseline = BaselineComparison(new: sample.result.findings, unchanged: [],
                                                absent: [Baseline.Entry(fingerprint: "ffffffffffffffff", ruleId: "MOAT-CODE-002",
                                                                        path: "Sources/Gone.swift", message: "XML parser resolves external entities")])
        let baselineProblems = try JSONTools.validate(render(baselined), schema: schema)
        #expect(baselineProblems == nil, "SARIF with baseline does not validate:\n\(baselineProblems ?? "")")
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
