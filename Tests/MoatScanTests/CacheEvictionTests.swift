import Foundation
import MoatCore
import MoatRules
import MoatSyntax
import Testing
@testable import MoatScan

/// Where the default cache lives and how it stays within its size limit.
struct CacheEvictionTests {
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("moat-eviction-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes an entry file of `size` bytes for this key, last used `age` seconds ago (`oldLayout`: where
    /// Moat wrote its JSON entries before the compact form).
    static func entry(_ base: URL, _ key: String, size: Int, age: TimeInterval, oldLayout: Bool = false) throws -> URL {
        let url = base.appendingPathComponent(oldLayout ? "v1/\(key.prefix(2))/\(key).json" : "v2/\(key.prefix(2))/\(key).entry")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(repeating: 0x20, count: size).write(to: url)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -age)], ofItemAtPath: url.path)
        return url
    }

    static func key(_ digit: Character) -> String { String(repeating: digit, count: 64) }

    @Test func theUserCacheFolderFollowsXDGThenHome() {
        #expect(ResultCache.userCacheBase(environment: ["XDG_CACHE_HOME": "/x/cache", "HOME": "/home/u"])?.path == "/x/cache/moat")
        #if os(macOS)
        #expect(ResultCache.userCacheBase(environment: ["HOME": "/Users/u"])?.path == "/Users/u/Library/Caches/moat")
        #else
        #expect(ResultCache.userCacheBase(environment: ["HOME": "/home/u"])?.path == "/home/u/.cache/moat")
        // A relative XDG_CACHE_HOME is ignored, as the XDG specification asks.
        #expect(ResultCache.userCacheBase(environment: ["XDG_CACHE_HOME": "cache", "HOME": "/home/u"])?.path == "/home/u/.cache/moat")
        #endif
    }

    @Test func eachScannedRootHasItsOwnFolder() {
        let base = URL(fileURLWithPath: "/c/moat")
        let app = ResultCache.folder(forRoots: ["/src/App"], in: base)
        #expect(app.deletingLastPathComponent().path == "/c/moat")
        #expect(app.lastPathComponent.count == 16)
        #expect(ResultCache.folder(forRoots: ["/src/App/"], in: base) == app, "the same root however it is written")
        #expect(ResultCache.folder(forRoots: ["/src/./App"], in: base) == app)
        #expect(ResultCache.folder(forRoots: ["/src/Other"], in: base) != app)
        #expect(ResultCache.folder(forRoots: ["/src/App", "/src/Other"], in: base) != app)
    }

    @Test func trimEvictsTheLeastRecentlyUsedEntriesOnly() throws {
        let base = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: base) }
        let rootA = base.appendingPathComponent("aaaaaaaaaaaaaaaa")
        let rootB = base.appendingPathComponent("bbbbbbbbbbbbbbbb")
        let oldest = try Self.entry(rootA, Self.key("1"), size: 400, age: 400)
        let old = try Self.entry(rootB, Self.key("2"), size: 400, age: 300, oldLayout: true)
        let recent = try Self.entry(rootA, Self.key("3"), size: 400, age: 200)
        let newest = try Self.entry(rootB, Self.key("4"), size: 400, age: 100)
        // Files the cache did not write are neither counted nor removed.
        let foreign = rootA.appendingPathComponent("v2/11/notes.entry")
        try Data(repeating: 0x20, count: 5000).write(to: foreign)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -9999)], ofItemAtPath: foreign.path)
        let note = rootA.appendingPathComponent("roots.txt")
        try Data("/src/App\n".utf8).write(to: note)

        // Within the limit: nothing happens.
        #expect(ResultCache.trim(base, limit: 1600) == (0, 1600))
        // Over it: the oldest go until nine tenths of the limit (1080 of 1200) are reached.
        let trimmed = ResultCache.trim(base, limit: 1200)
        #expect(trimmed == (2, 800))
        let exists = { (url: URL) in FileManager.default.fileExists(atPath: url.path) }
        #expect(!exists(oldest) && !exists(old))
        #expect(exists(recent) && exists(newest) && exists(foreign) && exists(note))
    }

    @Test func aHitMakesAnEntryRecentlyUsed() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = ResultCache(directory: folder, ruleIds: [])
        let key = cache.key(path: "A.swift", content: Data("let a = 1\n".utf8))
        cache.store(ResultCache.Entry(findings: [], summary: SourceSummary(path: "A.swift", language: .swift, referencedNames: [:], definedFunctions: [:], declaredTypes: [:], imports: []), suppressions: [], errors: []), for: key)
        let url = cache.url(for: key)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -1000)], ofItemAtPath: url.path)
        #expect(cache.load(key) != nil)
        let modified = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date)
        #expect(modified.timeIntervalSinceNow > -60, "the hit refreshed the entry")
        // So the entry that was not used is the one evicted.
        let size = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber).int64Value
        #expect(size < 5000)
        let unused = try Self.entry(folder, Self.key("e"), size: 5000, age: 100)
        #expect(ResultCache.trim(folder, limit: size + 4999).removed == 1)
        #expect(FileManager.default.fileExists(atPath: url.path))
        #expect(!FileManager.default.fileExists(atPath: unused.path))
    }

    @Test func theKeyChangesWithTheRulesFingerprint() {
        let cache = ResultCache(directory: URL(fileURLWithPath: "/nonexistent"), ruleIds: ["MOAT-NET-001"])
        #expect(cache.salt.contains("|" + RulesFingerprint.current + "|"))
        #expect(cache.salt.hasPrefix(MoatVersion.current + "|"))
    }
}
