import Foundation
import MoatRules
import MoatCore
import MoatFormats
import MoatSyntax

/// Every parser of untrusted bytes, callable with raw input. Used by the libFuzzer driver
/// (`Scripts/fuzz.sh`) and by the regression test that replays saved crash inputs, so both exercise
/// exactly the same code. An entry point must return normally for any input: throwing is fine,
/// trapping is a bug.
public enum FuzzEntryPoints {
    public static let all: [String: @Sendable (Data) -> Void] = [
        "plist": { data in _ = try? PropertyListParser.parse(data: data, path: "fuzz.plist") },
        "swift": { data in
            let source = String(decoding: data, as: UTF8.self)
            let file = SwiftFrontEnd.parse(source: source, path: "fuzz.swift")
            _ = SourceSummary(file: file)
        },
        "cfamily": { data in
            let source = String(decoding: data, as: UTF8.self)
            let file = CFamilyFrontEnd.parse(source: source, path: "fuzz.m", language: .objectiveC)
            _ = SourceSummary(file: file)
        },
        "scan-file": { data in
            // The whole per-file pipeline on a Swift file: parse, every rule, summary.
            let source = String(decoding: data, as: UTF8.self)
            let analyzer = Analyzer(rules: RuleRegistry.all)
            _ = analyzer.analyze(SwiftFrontEnd.parse(source: source, path: "fuzz.swift"))
        },
    ]

    public static var names: [String] { all.keys.sorted() }
}
