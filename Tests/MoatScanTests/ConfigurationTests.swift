import Foundation
import Testing
import MoatCore
@testable import MoatScan

struct ConfigurationTests {
    @Test func parsesEveryKey() throws {
        let json = #"{"disabledRules":["MOAT-NET-003"],"severityOverrides":{"MOAT-PLAT-001":"medium"},"exclude":["Generated/**"],"includeVendored":true,"includeInventory":true,"failOn":"medium"}"#
        let configuration = try Configuration.parse(Data(json.utf8), path: ".moat.json")
        #expect(configuration.disabledRules == ["MOAT-NET-003"])
        #expect(configuration.severityOverrides["MOAT-PLAT-001"] == .medium)
        #expect(configuration.exclude == ["Generated/**"])
        #expect(configuration.includeVendored == true)
        #expect(configuration.includeInventory == true)
        #expect(configuration.failOn == .medium)
    }

    @Test func unknownKeysAreNamed() {
        #expect {
            try Configuration.parse(Data(#"{"disabledRule": []}"#.utf8), path: "x/.moat.json")
        } throws: { error in
            (error as? ScanError)?.message.contains("unknown configuration key 'disabledRule'") == true
                && (error as? ScanError)?.path == "x/.moat.json"
        }
    }

    @Test func badValuesAreErrors() {
        #expect(throws: ScanError.self) { try Configuration.parse(Data(#"{"failOn": "severe"}"#.utf8), path: "c") }
        #expect(throws: ScanError.self) { try Configuration.parse(Data("[1]".utf8), path: "c") }
        #expect(throws: ScanError.self) { try Configuration.parse(Data("{".utf8), path: "c") }
    }

    @Test func globs() {
        #expect(Glob.matches("Generated/**", path: "Generated/A/B.swift"))
        #expect(!Glob.matches("Generated/**", path: "App/Generated.swift"))
        #expect(Glob.matches("*.generated.swift", path: "App/Models/User.generated.swift"))
        #expect(Glob.matches("**/Mocks/*.swift", path: "App/Tests/Mocks/Fake.swift"))
        #expect(!Glob.matches("**/Mocks/*.swift", path: "App/Tests/Mocks/Deep/Fake.swift"))
        #expect(Glob.matches("Legacy", path: "App/Legacy/Old.m"))
        #expect(Glob.component("a?c*", "abcdef"))
        #expect(!Glob.component("a?c", "abcd"))
    }
}
