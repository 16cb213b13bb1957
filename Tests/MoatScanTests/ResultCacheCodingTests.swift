import Foundation
import MoatCore
import MoatRules
import MoatSyntax
import Testing
@testable import MoatScan

/// The result cache's compact entry form (`ResultCache.Entry.encoded`): every field survives, and bytes of
/// another layout, truncated or corrupt bytes are a miss, never a crash.
struct ResultCacheCodingTests {
    /// An entry with every stored property set (no empty list, no nil), checked by `unset(in:)`.
    static func fullEntry() -> ResultCache.Entry {
        let location = Location(path: "App/Login.swift", line: 12, column: 7, keyPath: "NSAppTransportSecurity", symbol: "_login")
        var finding = Finding(ruleId: "MOAT-NET-001", slug: "cleartext-request", title: "Cleartext request", severity: .high,
                              confidence: .medium, message: "A request to an http:// URL “é” \u{1F512}", location: location,
                              related: [RelatedLocation(location: Location(path: "App/API.swift", line: 3, keyPath: "k", symbol: "s"), message: "the URL")],
                              cwe: [319, 5], masvs: ["MASVS-NETWORK-1"], mastg: ["MASTG-TEST-0019"], fix: "Use https.",
                              fingerprint: "abc123", nonShippingReason: .debugOnly, evidence: "let url = \"http://…\"",
                              suppression: Suppression(reason: "legacy host", location: Location(path: "App/Login.swift", line: 11, column: 2,
                                                                                                 keyPath: "", symbol: "x")),
                              inventory: InventoryItem(.customTrust, name: "urlSession(_:didReceive:)", detail: "handles trust"))
        // Stored as they are: a location below line 1 and a test flag the reason does not imply stay so.
        finding.location.line = 0
        finding.location.column = -3
        finding.isTestCode = true
        finding.suite = .experimental
        var summary = SourceSummary(path: "App/Login.swift", language: .objectiveC,
                                    referencedNames: ["URLSession": SourcePosition(line: 4, column: 9, offset: 80),
                                                      "dataTask(with:)": SourcePosition(line: 5, column: 2, offset: 120)],
                                    definedFunctions: ["login(user:)": SourcePosition(line: 2, column: 6, offset: 20)],
                                    declaredTypes: ["LoginController": ["UIViewController", "WKScriptMessageHandler"]],
                                    imports: ["UIKit", "WebKit"])
        summary.lineText = [4: "let session = URLSession.shared", 5: "\tdataTask(with: url) // ü"]
        summary.surfaceFacts = [SurfaceFact(kind: .urlLiteral, value: "http://api.example.com",
                                            position: SourcePosition(line: 9, column: 3, offset: 200))]
        summary.nonShipping = .fixture
        summary.nonShippingRegions = [NonShippingRegion(startLine: 20, startColumn: 1, endLine: 30, endColumn: 7, reason: .simulatorOnly,
                                                              condition: "compiled-for:macOS")]
        return ResultCache.Entry(
            findings: [finding, Finding(ruleId: "MOAT-CODE-001", slug: "s", title: "t", severity: .low, confidence: .low, message: "m",
                                        location: Location(path: "p", line: 1), cwe: [], masvs: [], mastg: [], fix: "f")],
            summary: summary,
            suppressions: [SuppressionDirective(path: "App/Login.swift", line: 11, column: 5, ruleIds: ["MOAT-NET-001", "CLEARTEXT"],
                                                reason: "legacy host")],
            errors: [ScanError(path: "App/Broken.swift", message: "could not be decoded as UTF-8")],
            facts: Array("MDF7 and the rest".utf8) + [0, 0xFF, 0x0A])
    }

    /// The paths of the stored properties of `value` that hold nothing (a nil optional, an empty list or dictionary).
    static func unset(in value: Any, path: String = "entry") -> [String] {
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            guard let wrapped = mirror.children.first else { return [path] }
            return unset(in: wrapped.value, path: path)
        case .collection, .set, .dictionary:
            if mirror.children.isEmpty { return [path] }
            return mirror.children.enumerated().flatMap { index, child in unset(in: child.value, path: "\(path)[\(index)]") }
        case .struct, .class, .tuple, .enum:
            return mirror.children.enumerated().flatMap { index, child in
                unset(in: child.value, path: path + "." + (child.label ?? "\(index)"))
            }
        default:
            return []
        }
    }

    static func json(_ entry: ResultCache.Entry) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(entry), as: UTF8.self)
    }

    @Test func everyStoredFieldSurvivesTheCompactForm() throws {
        let entry = Self.fullEntry()
        // The sample sets every field: a field added to an entry's types shows up here until the sample
        // (and then the coding, or the comparison below fails) knows it.
        let unset = Self.unset(in: entry).filter { !$0.hasPrefix("entry.findings[1]") }
        #expect(Mirror(reflecting: entry.summary).children.count >= 10, "the check sees the summary's fields")
        #expect(Self.unset(in: entry.findings[1]).contains("entry.evidence"), "the check sees what is not set")
        #expect(unset.isEmpty, "set these in the sample entry: \(unset)")

        let decoded = try #require(ResultCache.Entry(encoded: entry.encoded))
        #expect(try Self.json(decoded) == Self.json(entry))
        #expect(decoded.findings == entry.findings)
        #expect(decoded.facts == entry.facts)
        #expect(decoded.suppressions == entry.suppressions)
        #expect(decoded.errors == entry.errors)
        #expect(decoded.summary.lineText == entry.summary.lineText)
        #expect(decoded.summary.nonShipping == .fixture, "the stored reason, not the one the path implies")
        #expect(decoded.findings[0].location.line == 0 && decoded.findings[0].isTestCode)

        // No facts stays no facts.
        var plain = entry
        plain.facts = nil
        #expect(try #require(ResultCache.Entry(encoded: plain.encoded)).facts == nil)
    }

    @Test func truncatedCorruptOrOldEntriesAreMisses() throws {
        let bytes = Self.fullEntry().encoded
        for length in 0..<bytes.count {
            #expect(ResultCache.Entry(encoded: Array(bytes.prefix(length))) == nil, "a prefix of \(length) bytes")
        }
        #expect(ResultCache.Entry(encoded: bytes + [0]) == nil, "trailing bytes")
        // Any byte changed: a miss or some entry, never a crash or a hang.
        for index in bytes.indices {
            var corrupt = bytes
            corrupt[index] ^= 0xFF
            _ = ResultCache.Entry(encoded: corrupt)
            corrupt[index] = 0x7F
            _ = ResultCache.Entry(encoded: corrupt)
        }
        // An entry an older Moat wrote as JSON is a miss.
        #expect(ResultCache.Entry(encoded: Array(try JSONEncoder().encode(Self.fullEntry()))) == nil)
        var otherVersion = bytes
        otherVersion[3] = UInt8(ascii: "0")
        #expect(ResultCache.Entry(encoded: otherVersion) == nil)
    }

    @Test func theCacheStoresAndLoadsTheCompactForm() throws {
        let folder = try CacheEvictionTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = ResultCache(directory: folder, ruleIds: [])
        let key = cache.key(path: "A.swift", content: Data("let a = 1\n".utf8))
        let entry = Self.fullEntry()
        cache.store(entry, for: key)
        let url = cache.url(for: key)
        #expect(url.path.hasSuffix("/v2/\(key.prefix(2))/\(key).entry"))
        #expect(ResultCache.isEntry(url))
        #expect(try Data(contentsOf: url) == Data(entry.encoded))
        #expect(try Self.json(#require(cache.load(key))) == Self.json(entry))
        // A truncated file is a miss.
        try Data(entry.encoded.prefix(40)).write(to: url)
        #expect(cache.load(key) == nil)
    }
}
