import Foundation
import Testing
import MoatCore
@testable import MoatScan

/// Builds throwaway source trees and scans them.
struct TemporaryTree {
    let root: URL

    init(_ files: [String: String]) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("moat-scan-\(UUID().uuidString)")
        for (name, content) in files {
            let url = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(content.utf8).write(to: url)
        }
    }

    func write(_ name: String, bytes: [UInt8]) throws {
        let url = root.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    func scan(_ configure: (inout ScanOptions) -> Void = { _ in }) throws -> ScanResult {
        var options = ScanOptions(paths: [root.path])
        configure(&options)
        return try Scanner.scan(options).result
    }

    func remove() { try? FileManager.default.removeItem(at: root) }
}

struct ScannerTests {
    static let unarchive = "let x = NSKeyedUnarchiver.unarchiveObject(with: data)\n"

    @Test func inventoryIsNotAFindingUnlessAsked() throws {
        let entitlements = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>com.apple.security.application-groups</key><array><string>group.example</string></array></dict></plist>
        """
        let tree = try TemporaryTree(["App/App.entitlements": entitlements, "App/A.swift": Self.unarchive])
        defer { tree.remove() }
        let plain = try tree.scan()
        #expect(plain.findings.map(\.ruleId) == ["MOAT-CODE-001"])
        #expect(plain.inventory.map(\.ruleId) == ["MOAT-PLAT-101"])
        #expect(plain.surface?.appGroups.map(\.value) == ["group.example"])
        let asked = try tree.scan { $0.includeInventory = true }
        #expect(asked.findings.map(\.ruleId).sorted() == ["MOAT-CODE-001", "MOAT-PLAT-101"])
        #expect(asked.inventory.map(\.ruleId) == ["MOAT-PLAT-101"])
        // The configuration key does the same.
        let configured = try TemporaryTree(["App/App.entitlements": entitlements, ".moat.json": #"{"includeInventory": true}"#])
        defer { configured.remove() }
        #expect(try configured.scan().findings.map(\.ruleId) == ["MOAT-PLAT-101"])
    }

    @Test func vendoredCodeIsSkippedUnlessAsked() throws {
        let tree = try TemporaryTree([
            "App/A.swift": Self.unarchive,
            "Pods/Lib/B.swift": Self.unarchive,
            "Carthage/Checkouts/C.swift": Self.unarchive,
            "App/Vendor/D.swift": Self.unarchive,
            "Some.framework/Headers/E.swift": Self.unarchive,
        ])
        defer { tree.remove() }
        #expect(try tree.scan().findings.map(\.location.path) == ["App/A.swift"])
        let all = try tree.scan { $0.includeVendored = true }.findings.map(\.location.path)
        #expect(Set(all) == ["App/A.swift", "Pods/Lib/B.swift", "Carthage/Checkouts/C.swift", "App/Vendor/D.swift", "Some.framework/Headers/E.swift"])
    }

    @Test func testCodeIsMarkedButStillReported() throws {
        let tree = try TemporaryTree(["AppTests/ATests.swift": Self.unarchive, "App/A.swift": Self.unarchive])
        defer { tree.remove() }
        let findings = try tree.scan().findings
        #expect(findings.first { $0.location.path == "AppTests/ATests.swift" }?.isTestCode == true)
        #expect(findings.first { $0.location.path == "App/A.swift" }?.isTestCode == false)
    }

    @Test func badFilesAreErrorsAndTheScanGoesOn() throws {
        let tree = try TemporaryTree([
            "App/Info.plist": "<?xml version=\"1.0\"?><plist><dict><key>A</key></plist>",
            "App/A.swift": Self.unarchive,
            "App/Empty.plist": "",
        ])
        defer { tree.remove() }
        try tree.write("App/Latin1.swift", bytes: [0x6C, 0x65, 0x74, 0x20, 0xE9, 0xFF, 0x0A])
        let result = try tree.scan()
        #expect(result.findings.map(\.location.path) == ["App/A.swift"])
        let errors = Dictionary(uniqueKeysWithValues: result.errors.map { ($0.path, $0.message) })
        #expect(errors["App/Latin1.swift"] == "skipped: not UTF-8 text")
        #expect(errors["App/Empty.plist"] == "empty property list")
        #expect(errors["App/Info.plist"]?.contains("malformed XML property list") == true)
    }

    @Test func symlinksOutOfTheRootAreNotFollowed() throws {
        let outside = try TemporaryTree(["Secret.swift": Self.unarchive])
        let tree = try TemporaryTree(["App/A.swift": "let a = 1\n", "App/Inside.swift": Self.unarchive])
        defer { tree.remove(); outside.remove() }
        try FileManager.default.createSymbolicLink(at: tree.root.appendingPathComponent("App/Link.swift"),
                                                   withDestinationURL: outside.root.appendingPathComponent("Secret.swift"))
        try FileManager.default.createSymbolicLink(at: tree.root.appendingPathComponent("Outside"), withDestinationURL: outside.root)
        try FileManager.default.createSymbolicLink(at: tree.root.appendingPathComponent("App/Loop"), withDestinationURL: tree.root)
        let result = try tree.scan()
        #expect(result.findings.map(\.location.path) == ["App/Inside.swift"])
    }

    @Test func configurationDisablesRulesOverridesSeverityAndExcludes() throws {
        let tree = try TemporaryTree([
            ".moat.json": #"{"severityOverrides": {"insecure-unarchiving": "low"}, "exclude": ["Generated/**"], "disabledRules": ["MOAT-PLAT-001"]}"#,
            "App/A.swift": Self.unarchive + "let w = UIWebView()\n",
            "Generated/G.swift": Self.unarchive,
        ])
        defer { tree.remove() }
        let findings = try tree.scan().findings
        #expect(findings.map(\.ruleId) == ["MOAT-CODE-001"])
        #expect(findings.first?.severity == .low)
    }

    @Test func unknownRuleInConfigurationIsAnError() throws {
        let tree = try TemporaryTree([".moat.json": #"{"disabledRules": ["MOAT-XYZ-123"]}"#])
        defer { tree.remove() }
        #expect { try tree.scan() } throws: { error in
            (error as? ScanError)?.message == "unknown rule 'MOAT-XYZ-123' (see `moat rules`)"
        }
    }

    @Test func inlineSuppressionsWithAndWithoutReason() throws {
        let tree = try TemporaryTree(["App/A.swift": """
        // moat:ignore MOAT-CODE-001 -- migration shim, removed in 3.0
        let a = NSKeyedUnarchiver.unarchiveObject(with: data)
        let b = NSKeyedUnarchiver.unarchiveObject(with: data) // moat:ignore MOAT-CODE-001
        // moat:ignore MOAT-PLAT-001 -- nothing here any more
        let c = 1
        """])
        defer { tree.remove() }
        let result = try tree.scan()
        let suppressed = result.findings.filter { $0.suppression != nil }
        #expect(suppressed.map(\.location.line) == [2, 3])
        #expect(suppressed.first?.suppression?.reason == "migration shim, removed in 3.0")
        let active = result.activeFindings.map { "\($0.ruleId):\($0.location.line)" }
        #expect(active == ["MOAT-META-001:3", "MOAT-META-002:4"])
    }

    @Test func fingerprintsSurviveUnrelatedLineMoves() throws {
        let before = try TemporaryTree(["A.swift": Self.unarchive])
        let after = try TemporaryTree(["A.swift": "import Foundation\n\n// loads the cache\n" + Self.unarchive])
        defer { before.remove(); after.remove() }
        let first = try #require(try before.scan().findings.first)
        let second = try #require(try after.scan().findings.first)
        #expect(first.location.line == 1 && second.location.line == 4)
        #expect(first.fingerprint == second.fingerprint)
        #expect(first.fingerprint.count == 16)
    }

    @Test func singleFileAndMultipleRoots() throws {
        let one = try TemporaryTree(["A.swift": Self.unarchive])
        let two = try TemporaryTree(["B.swift": Self.unarchive])
        defer { one.remove(); two.remove() }
        let single = try Scanner.scan(ScanOptions(paths: [one.root.appendingPathComponent("A.swift").path])).result
        #expect(single.findings.map(\.location.path) == ["A.swift"])
        let both = try Scanner.scan(ScanOptions(paths: [one.root.path, two.root.path])).result
        #expect(both.findings.map(\.location.path) == [one.root.path + "/A.swift", two.root.path + "/B.swift"].sorted())
    }
}
