import Foundation
import MoatCore
import MoatScan
import Testing

/// A realistic scan result built in code, with its files written to a temporary folder so reporters can
/// read excerpts and convert columns.
struct SampleScan {
    let root: URL
    let result: ScanResult

    /// A GitHub-token-shaped string, assembled so that this test file itself holds no credential literal.
    static let fakeToken = "ghp" + "_abcdefghijklmnopqrstuvwxyz0123456789"
    static let webLine = #"    let näme = "é"; let web = UIWebView()"#

    /// The UTF-8 byte column of `UIWebView` on `webLine` (what the scanner reports) and its UTF-16 column.
    static var webByteColumn: Int { byteColumn(of: "UIWebView", in: webLine) }
    static var webUTF16Column: Int {
        let prefix = webLine.components(separatedBy: "UIWebView")[0]
        return prefix.utf16.count + 1
    }

    static func byteColumn(of needle: String, in line: String) -> Int {
        line.components(separatedBy: needle)[0].utf8.count + 1
    }

    static let files: [(String, String)] = [
        ("App/Info.plist", """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
            <key>NSAppTransportSecurity</key>
            <dict>
                <key>NSAllowsArbitraryLoads</key>
                <true/>
            </dict>
            <key>CFBundleURLTypes</key>
            <array><dict><key>CFBundleURLSchemes</key><array><string>sampleapp</string></array></dict></array>
        </dict>
        </plist>

        """),
        ("Sources/Web.swift", """
        import UIKit

        \(webLine)
        let token = "\(fakeToken)"

        """),
        ("Sources/Store.swift", """
        import Foundation
        func restore(_ data: Data) -> Any? {
            let payload = data
            let copy = payload
            return NSKeyedUnarchiver.unarchiveObject(with: copy)
        }

        """),
        ("Sources/Legacy.swift", """
        // moat:ignore MOAT-PLAT-001 -- kept for the iOS 11 build, removed in 3.0
        let legacy = UIWebView()

        """),
    ]

    static let rules: [RuleDescription] = [
        RuleDescription(id: "MOAT-CODE-001", slug: "insecure-unarchiving", title: "NSKeyedUnarchiver without secure coding",
                        severity: .high, confidence: .high, cwe: [502], masvs: ["MASVS-CODE-4"],
                        mastg: ["MASTG-TEST-0079"], rationale: "Decoding any class named by the data allows object substitution.",
                        fix: "Use unarchivedObject(ofClasses:from:) with the classes you expect.",
                        references: ["https://developer.apple.com/documentation/foundation/nskeyedunarchiver"], examples: []),
        RuleDescription(id: "MOAT-CODE-002", slug: "xml-external-entities", title: "XML parser resolves external entities",
                        severity: .medium, confidence: .medium, cwe: [611], masvs: ["MASVS-CODE-4"],
                        mastg: [], rationale: "External entities read local files.", fix: "Leave shouldResolveExternalEntities off.",
                        examples: []),
        RuleDescription(id: "MOAT-NET-001", slug: "ats-arbitrary-loads", title: "App Transport Security allows arbitrary loads",
                        severity: .high, confidence: .high, cwe: [319], masvs: ["MASVS-NETWORK-1"],
                        mastg: ["MASTG-TEST-0065"], rationale: "Plain HTTP can be read and changed by anyone on the path.",
                        fix: "Remove NSAllowsArbitraryLoads and add narrow exceptions.", examples: []),
        RuleDescription(id: "MOAT-PLAT-001", slug: "uiwebview", title: "UIWebView is used", severity: .medium,
                        confidence: .high, cwe: [749], masvs: ["MASVS-PLATFORM-2"], mastg: ["MASTG-TEST-0076"],
                        rationale: "UIWebView cannot disable JavaScript or restrict file access.", fix: "Use WKWebView.",
                        examples: []),
        RuleDescription(id: "MOAT-PLAT-900", slug: "custom-url-scheme", title: "Custom URL scheme registered",
                        severity: .info, confidence: .high, cwe: [939], masvs: ["MASVS-PLATFORM-1"],
                        mastg: ["MASTG-TEST-0075"], rationale: "Any app can open a custom URL scheme.",
                        fix: "Validate every URL the scheme delivers.", isInventory: true, examples: []),
    ]

    static func rule(_ id: String) -> RuleDescription {
        rules.first { $0.id == id } ?? rules[0]
    }

    static func finding(_ ruleId: String, _ message: String, _ location: Location, severity: Severity? = nil,
                        related: [RelatedLocation] = [], evidence: String?, fingerprint: String,
                        suppression: Suppression? = nil) -> Finding {
        let rule = rule(ruleId)
        return Finding(ruleId: rule.id, slug: rule.slug, title: rule.title, severity: severity ?? rule.severity,
                       confidence: rule.confidence, message: message, location: location, related: related, cwe: rule.cwe,
                       masvs: rule.masvs, mastg: rule.mastg, fix: rule.fix, fingerprint: fingerprint, evidence: evidence,
                       suppression: suppression)
    }

    static func make() throws -> SampleScan {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("moat-report-\(UUID().uuidString)")
        for (name, content) in files {
            let url = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(content.utf8).write(to: url)
        }
        let findings = [
            finding("MOAT-NET-001", "NSAllowsArbitraryLoads disables App Transport Security for all connections.",
                    Location(path: "App/Info.plist", line: 7, column: 1, keyPath: "NSAppTransportSecurity.NSAllowsArbitraryLoads"),
                    evidence: "NSAppTransportSecurity.NSAllowsArbitraryLoads", fingerprint: "00000000000000a1"),
            finding("MOAT-PLAT-900", "The app registers the URL scheme sampleapp://.",
                    Location(path: "App/Info.plist", line: 10, column: 1, keyPath: "CFBundleURLTypes"),
                    evidence: "CFBundleURLTypes", fingerprint: "00000000000000a2"),
            finding("MOAT-CODE-001", "NSKeyedUnarchiver.unarchiveObject(with:) decodes data that comes from the parameter data.",
                    Location(path: "Sources/Store.swift", line: 5, column: 12),
                    related: [RelatedLocation(location: Location(path: "Sources/Store.swift", line: 2, column: 14), message: "data enters here"),
                              RelatedLocation(location: Location(path: "Sources/Store.swift", line: 3, column: 9), message: "payload = data"),
                              RelatedLocation(location: Location(path: "Sources/Store.swift", line: 4, column: 9), message: "copy = payload")],
                    evidence: "return NSKeyedUnarchiver.unarchiveObject(with: copy)", fingerprint: "00000000000000b1"),
            finding("MOAT-PLAT-001", "UIWebView is deprecated and cannot disable JavaScript.",
                    Location(path: "Sources/Web.swift", line: 3, column: webByteColumn),
                    evidence: webLine.trimmingCharacters(in: .whitespaces), fingerprint: "00000000000000c1"),
            finding("MOAT-PLAT-001", "UIWebView is deprecated and cannot disable JavaScript.",
                    Location(path: "Sources/Legacy.swift", line: 2, column: 14),
                    evidence: "let legacy = UIWebView()", fingerprint: "00000000000000c2",
                    suppression: Suppression(reason: "kept for the iOS 11 build, removed in 3.0",
                                             location: Location(path: "Sources/Legacy.swift", line: 1, column: 1))),
        ].sorted(by: Finding.reportOrder)
        var result = ScanResult(roots: [root.path], findings: findings,
                                errors: [ScanError(path: "App/Broken.plist", message: "property list is not valid XML (line 3)")],
                                rules: rules, filesScanned: 6, appName: "Sample <App>", bundleIdentifier: "com.example.sample")
        result.startTime = Date(timeIntervalSince1970: 1_700_000_000)
        result.endTime = Date(timeIntervalSince1970: 1_700_000_003)
        return SampleScan(root: root, result: result)
    }

    func remove() { try? FileManager.default.removeItem(at: root) }
}

enum JSONTools {
    static func object(_ text: String) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
        return try #require(value as? [String: Any])
    }

    /// The official SARIF 2.1.0 schema, when the environment names it: `MOAT_SARIF_SCHEMA` (a path to
    /// `sarif-schema-2.1.0.json`). The project cannot ship that file; `.ci/run` points the variable at the
    /// copy CI provides. Without it the schema test is skipped (and says so), while the structural check
    /// (`SARIFStructure`) always runs.
    static var sarifSchemaPath: String? {
        guard let path = ProcessInfo.processInfo.environment["MOAT_SARIF_SCHEMA"], !path.isEmpty else { return nil }
        return path
    }

    /// Validates a JSON document against a JSON schema with Python's `jsonschema`; returns the error text,
    /// or nil when valid.
    static func validate(_ document: String, schema: URL) throws -> String? {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("moat-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let documentURL = directory.appendingPathComponent("document.json")
        try Data(document.utf8).write(to: documentURL)
        let script = """
        import json, sys
        try:
            import jsonschema
        except ImportError:
            print("python3 module jsonschema is missing: pip install jsonschema"); sys.exit(3)
        schema = json.load(open(sys.argv[1]))
        document = json.load(open(sys.argv[2]))
        cls = jsonschema.validators.validator_for(schema)
        errors = sorted(cls(schema).iter_errors(document), key=lambda e: list(e.path))
        for error in errors[:20]:
            print("/".join(str(p) for p in error.path) + ": " + error.message[:300])
        sys.exit(1 if errors else 0)
        """
        let (status, output) = try run("/usr/bin/env", ["python3", "-c", script, schema.path, documentURL.path])
        if status == 0 { return nil }
        return output.isEmpty ? "validator exited with \(status)" : output
    }

    static func run(_ executable: String, _ arguments: [String], in directory: URL? = nil) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
