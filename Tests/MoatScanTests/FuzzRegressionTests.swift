import Foundation
import Testing
import MoatScan

/// Replays every input under Fixtures/fuzz-regressions/<target>/ (crashes the fuzzer once found) and the
/// seed corpus through the same entry points the fuzzer uses: each must return normally.
struct FuzzRegressionTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let packageRoot = root.deletingLastPathComponent().deletingLastPathComponent()

    static func inputs(under folder: URL) -> [(target: String, file: URL)] {
        var result: [(String, URL)] = []
        for target in FuzzEntryPoints.names {
            let directory = folder.appendingPathComponent(target)
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { continue }
            for name in names.sorted() where !name.hasPrefix(".") { result.append((target, directory.appendingPathComponent(name))) }
        }
        return result
    }

    @Test func savedCrashesAndSeedsNoLongerCrash() throws {
        let inputs = Self.inputs(under: Self.root.appendingPathComponent("Fixtures/fuzz-regressions"))
            + Self.inputs(under: Self.packageRoot.appendingPathComponent("Fuzz/corpus"))
        #expect(inputs.count >= 8, "the seed corpus is missing")
        for (target, file) in inputs {
            let data = try Data(contentsOf: file)
            let entry = try #require(FuzzEntryPoints.all[target])
            entry(data)
            // Truncations of every seed must not crash either.
            for cut in stride(from: 0, to: data.count, by: max(1, data.count / 16)) { entry(data.prefix(cut)) }
        }
    }

    @Test func everyEntryPointHasSeeds() {
        for target in FuzzEntryPoints.names {
            let directory = Self.packageRoot.appendingPathComponent("Fuzz/corpus").appendingPathComponent(target)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            #expect(!names.isEmpty, "no seed inputs for fuzz target \(target)")
        }
    }
}
