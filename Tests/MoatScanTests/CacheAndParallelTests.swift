import Foundation
import Testing
import MoatCore
@testable import MoatScan

struct CacheAndParallelTests {
    static func tree(files: Int) throws -> TemporaryTree {
        var contents: [String: String] = [:]
        for index in 0..<files {
            contents["App/F\(index).swift"] = index % 3 == 0
                ? "func f\(index)(d: Data) { _ = NSKeyedUnarchiver.unarchiveObject(with: d) }\n"
                : "func f\(index)() -> Int { \(index) }\n"
        }
        contents["App/Info.plist"] = """
        <?xml version="1.0"?><plist version="1.0"><dict><key>NSAppTransportSecurity</key><dict>
        <key>NSAllowsArbitraryLoads</key><true/></dict></dict></plist>
        """
        return try TemporaryTree(contents)
    }

    static func signature(_ result: ScanResult) -> [String] {
        result.findings.map { "\($0.ruleId) \($0.location.path):\($0.location.line):\($0.location.column) \($0.fingerprint) \($0.message)" }
    }

    @Test func outputDoesNotDependOnTheNumberOfJobs() throws {
        let tree = try Self.tree(files: 40)
        defer { tree.remove() }
        let one = try tree.scan { $0.jobs = 1 }
        let many = try tree.scan { $0.jobs = 8 }
        #expect(Self.signature(one) == Self.signature(many))
        #expect(one.findings.filter { $0.ruleId == "MOAT-CODE-001" }.count == 14)
    }

    @Test func warmScanReusesTheCacheAndGivesIdenticalFindings() throws {
        let tree = try Self.tree(files: 12)
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("moat-cache-\(UUID().uuidString)")
        defer { tree.remove(); try? FileManager.default.removeItem(at: cache) }
        let cold = try tree.scan { $0.cacheDirectory = cache }
        let entries = try cacheEntries(cache)
        #expect(entries.count == 12, "one entry per source file (plists are not cached)")
        let warm = try tree.scan { $0.cacheDirectory = cache }
        #expect(Self.signature(cold) == Self.signature(warm))
        #expect(try cacheEntries(cache) == entries, "a warm scan writes nothing new")

        // Edit one file: only it gets a new entry, findings follow the edit.
        try Data("func f0(d: Data) { }\n".utf8).write(to: tree.root.appendingPathComponent("App/F0.swift"))
        let edited = try tree.scan { $0.cacheDirectory = cache }
        #expect(try cacheEntries(cache).subtracting(entries).count == 1)
        #expect(!edited.findings.contains { $0.location.path == "App/F0.swift" })
        #expect(edited.findings.filter { $0.ruleId == "MOAT-CODE-001" }.count == 3)
    }

    @Test func corruptCacheEntriesAreMisses() throws {
        let tree = try Self.tree(files: 3)
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("moat-cache-\(UUID().uuidString)")
        defer { tree.remove(); try? FileManager.default.removeItem(at: cache) }
        let cold = try tree.scan { $0.cacheDirectory = cache }
        let entries = try cacheEntries(cache)
        #expect(entries.count >= 3)
        for entry in entries { try Data("MCE2\u{3}not an entry".utf8).write(to: URL(fileURLWithPath: entry)) }
        let again = try tree.scan { $0.cacheDirectory = cache }
        #expect(Self.signature(cold) == Self.signature(again))
    }

    @Test func differentRuleSelectionsDoNotShareEntries() throws {
        let tree = try Self.tree(files: 3)
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("moat-cache-\(UUID().uuidString)")
        defer { tree.remove(); try? FileManager.default.removeItem(at: cache) }
        _ = try tree.scan { $0.cacheDirectory = cache; $0.onlyRules = ["MOAT-PLAT-001"] }
        let full = try tree.scan { $0.cacheDirectory = cache }
        #expect(full.findings.contains { $0.ruleId == "MOAT-CODE-001" })
    }

    func cacheEntries(_ directory: URL) throws -> Set<String> {
        guard let enumerator = FileManager.default.enumerator(atPath: directory.path) else { return [] }
        var result = Set<String>()
        while let next = enumerator.nextObject() as? String {
            if next.hasSuffix("." + ResultCache.entryExtension) { result.insert(directory.appendingPathComponent(next).path) }
        }
        return result
    }
}
