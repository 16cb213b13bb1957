import Foundation
import Testing
import MoatCore
import MoatRules

/// A rule cannot be forgotten: every type that conforms to a rule protocol in `Sources/MoatRules` is in
/// `RuleRegistry.all`, its `kind` agrees with the protocols it adopts, and rules that also judge binaries
/// carry binary examples of their own.
struct RuleRegistrationTests {
    static let rulesFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/MoatRules")

    static let ruleProtocols: Set<String> = ["Rule", "SourceRule", "PropertyListRule", "AppRule", "BinaryRule", "InterfaceBuilderRule"]

    /// Names of the types declared (`struct X: ...`) or extended (`extension X: ...`) with a rule protocol
    /// in their conformance list, in one Swift source text.
    static func ruleTypes(inSource text: String) -> Set<String> {
        var names = Set<String>()
        for line in text.split(separator: "\n") {
            var words = line.trimmingCharacters(in: .whitespaces).split(separator: " ").map(String.init)
            while let first = words.first, ["public", "final", "private", "fileprivate", "internal"].contains(first) { words.removeFirst() }
            guard words.count >= 2, ["struct", "class", "extension", "enum"].contains(words[0]),
                  let colon = line.firstIndex(of: ":") else { continue }
            let name = words[1].split(separator: ":").first.map(String.init) ?? ""
            let conformances = line[line.index(after: colon)...].split(whereSeparator: { $0 == "," || $0 == "{" || $0 == " " }).map(String.init)
            guard conformances.contains(where: ruleProtocols.contains), !ruleProtocols.contains(name) else { continue }
            names.insert(name)
        }
        return names
    }

    /// The rule types of every Swift file under Sources/MoatRules.
    static func declaredRuleTypes() throws -> Set<String> {
        var names = Set<String>()
        let enumerator = try #require(FileManager.default.enumerator(at: rulesFolder, includingPropertiesForKeys: nil))
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            names.formUnion(ruleTypes(inSource: try String(contentsOf: url, encoding: .utf8)))
        }
        return names
    }

    @Test func everyRuleTypeIsRegistered() throws {
        let declared = try Self.declaredRuleTypes()
        let registered = Set(RuleRegistry.all.map { String(describing: $0) })
        #expect(declared.count > 60, "found only \(declared.count) rule types: is the scan of the sources broken?")
        #expect(declared.subtracting(registered).isEmpty, "rule types not in RuleRegistry.all: \(declared.subtracting(registered).sorted())")
        #expect(registered.subtracting(declared).isEmpty, "registered rules not found in the sources: \(registered.subtracting(declared).sorted())")
        #expect(RuleRegistry.all.count == registered.count, "a rule is registered twice")
    }

    @Test func theScanOfTheSourcesFindsAnUnregisteredRule() {
        // The check above must be able to fail: a rule declared in a file is found by the same scan.
        let source = """
        public struct ForgottenRule: SourceRule {
            public static let description = RuleDescription(id: "MOAT-X-001")
        }
        struct AlsoForgotten: PropertyListRule, Sendable {}
        extension ForgottenRule: BinaryRule {}
        public protocol SourceRule: Rule {}
        struct NotARule: Sendable, Hashable {}
        """
        #expect(Self.ruleTypes(inSource: source) == ["ForgottenRule", "AlsoForgotten"])
    }

    @Test func kindIsTheOneTheConformanceSays() {
        // Rules do not write their kind; the catalogue's descriptions carry the one their conformance says.
        let catalogue = Dictionary(uniqueKeysWithValues: RuleRegistry.descriptions.map { ($0.id, $0) })
        for type in RuleRegistry.all {
            #expect(type.description.kind == nil, "\(type.description.id) writes its kind")
            #expect(catalogue[type.description.id]?.kind == type.derivedKind)
        }
        // A source rule that also judges binaries is a source rule; one that reads only binaries is a binary rule.
        #expect(DeprecatedTrustEvaluateRule.derivedKind == .source)
        #expect(UIWebViewRule.derivedKind == .source)
        #expect(Set(RuleRegistry.descriptions.compactMap(\.kind)) == Set(RuleKind.allCases))
    }

    @Test func rulesThatAlsoJudgeBinariesHaveBinaryExamples() {
        // Rules that read source, property lists or the app and also judge binaries (Binary/ReusedRules.swift).
        for type in RuleRegistry.all where type.init().asBinaryRule != nil && type.derivedKind != .binary {
            let description = type.description
            let binary = description.examples.filter { $0.files.contains { $0.content.replacingOccurrences(of: "↓", with: "").hasPrefix("Mach-O ") } }
            let triggering = binary.filter(\.triggers).count
            #expect(triggering > 0, "\(description.id) judges binaries but has no triggering binary example")
            #expect(binary.count > triggering, "\(description.id) judges binaries but has no non-triggering binary example")
        }
    }
}
