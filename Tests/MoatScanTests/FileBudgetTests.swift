import Dispatch
import Foundation
import Testing
import MoatCore
@testable import MoatScan

/// The file budget: inputs the Swift parser takes exponential time on are refused before parsing, a file
/// that overruns is named in `errors` and the scan goes on, and the budget's clock decides, not the wall's.
/// Nothing here waits for a budget to pass: stuck work is a test stand-in (`FileBudget.stalls`) or a clock
/// the test moves.
struct FileBudgetTests {
    static let regressions = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/fuzz-regressions")

    /// Every Swift input of the fuzz regressions, by name: `refused-*` and the fuzzer's own timeouts must
    /// come back as errors naming the file, `parses-*` (siblings that parse in milliseconds) must not. The
    /// fuzzer's timeout (`fuzzer-timeout-4ecf6aa9.swift`, 843 bytes found by `Scripts/fuzz.sh scan-file` on
    /// the old pre-check, read here as the fuzz entry point reads it, invalid UTF-8 replaced) holds
    /// SwiftParser for more than 30 s.
    @Test func stallShapesComeBackAsErrorsAndTheirSiblingsParse() throws {
        var files: [String: String] = [:]
        for target in ["swift", "scan-file"] {
            let folder = Self.regressions.appendingPathComponent(target)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where name.hasSuffix(".swift") {
                files["Sources/\(target)-\(name)"] = String(decoding: try Data(contentsOf: folder.appendingPathComponent(name)), as: UTF8.self)
            }
        }
        let refused = files.keys.filter { $0.contains("-refused-") || $0.contains("-fuzzer-timeout-") }.sorted()
        let parsed = files.keys.filter { $0.contains("-parses-") }.sorted()
        #expect(refused.count >= 8 && parsed.count >= 6, "\(files.keys.sorted())")
        #expect(refused.contains("Sources/swift-refused-unterminated-string-40.swift"))
        let tree = try TemporaryTree(files.merging(["App/Token.swift": "UserDefaults.standard.set(password, forKey: \"password\")\n"]) { $1 })
        defer { tree.remove() }
        let result = try tree.scan { $0.cacheDirectory = nil }
        let errors = Dictionary(result.errors.map { ($0.path, $0.message) }, uniquingKeysWith: { $1 })
        for path in refused {
            #expect(errors[path]?.hasPrefix("not analysed: ") == true, "\(path): \(errors[path] ?? "no error")")
        }
        #expect(errors["Sources/scan-file-fuzzer-timeout-4ecf6aa9.swift"]?.hasPrefix("not analysed: square brackets nested 96 deep") == true)
        for path in parsed { #expect(errors[path] == nil, "\(path): \(errors[path] ?? "")") }
        #expect(errors["Sources/swift-refused-unterminated-string-40.swift"]
                == "not analysed: square brackets nested 40 deep (limit 10); the Swift parser takes time exponential in that depth")
        #expect(result.findings.contains { $0.location.path == "App/Token.swift" }, "the other files are analysed")
    }

    /// The library's policy: the stuck worker is left behind, a fresh one takes its place, the scan ends
    /// with every other file analysed and the stuck one named.
    @Test func aStuckFileIsNamedAndTheScanGoesOn() throws {
        let tree = try TemporaryTree([
            "App/Stuck.swift": "let a = 1\n",
            "App/Store.swift": "UserDefaults.standard.set(password, forKey: \"password\")\n",
            "App/Info.plist": "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>NSAllowsArbitraryLoads</key><true/></dict></plist>",
        ])
        defer { tree.remove() }
        let release = DispatchSemaphore(value: 0)
        defer { release.signal() }
        let result = try tree.scan { options in
            options.cacheDirectory = nil
            options.jobs = 1
            options.budget.stalls = { $0 == "App/Stuck.swift" }
            options.budget.stall = { release.wait() }
        }
        #expect(result.errors.map(\.path) == ["App/Stuck.swift"])
        #expect(result.errors.first?.message == "not analysed: parsing took longer than 30 s, see --file-timeout")
        #expect(result.findings.map(\.location.path).contains("App/Store.swift"))
    }

    /// A file analysed before its restart is not read again: the error comes from the earlier run's list.
    @Test func filesThatOverranBeforeAreNotRead() throws {
        let tree = try TemporaryTree(["App/Big.swift": "UserDefaults.standard.set(password, forKey: \"password\")\n"])
        defer { tree.remove() }
        let result = try tree.scan { options in
            options.cacheDirectory = nil
            options.budget.overrun = ["App/Big.swift": "not analysed: parsing took longer than 5 s, see --file-timeout"]
        }
        #expect(result.findings.isEmpty)
        #expect(result.errors.map(\.message) == ["not analysed: parsing took longer than 5 s, see --file-timeout"])
    }

    /// The clock is the budget's: a parse past `seconds` and rules past `seconds + grace`, both counted from
    /// the file's start, overrun, each with its phase in the message; the others keep their results, in input order; `onOverrun` hears of both.
    @Test func theBudgetsClockDecidesAndNamesThePhase() {
        let clock = TestClock()
        let heard = Heard()
        var budget = FileBudget(seconds: 10)
        budget.now = { clock.value }
        budget.onOverrun = { heard.add($0) }
        budget.pollSeconds = 0.01
        let release = DispatchSemaphore(value: 0)
        defer { for _ in 0..<2 { release.signal() } }
        let results = BudgetedWork(budget: budget).run(
            paths: ["zero", "one", "two", "three"], jobs: 1, placeholder: "",
            overrun: { _, message in message },
            work: { index, reporter in
                switch index {
                case 1:
                    clock.advance(seconds: 11)
                    release.wait()
                case 2:
                    clock.advance(seconds: 9)
                    reporter.enter(.analysis)
                    clock.advance(seconds: 7)
                    release.wait()
                default: break
                }
                return "done \(index)"
            })
        #expect(results == ["done 0", "not analysed: parsing took longer than 10 s, see --file-timeout",
                            "not analysed: analysis took longer than 10 s, see --file-timeout", "done 3"])
        #expect(heard.overruns.map(\.path) == ["one", "two"])
        #expect(heard.overruns.map(\.phase) == [.parsing, .analysis])
    }

    @Test func overdueIsDecidedByPhaseAndBudget() {
        let budget = FileBudget(seconds: 10)
        let second: UInt64 = 1_000_000_000
        #expect(!budget.isOverdue(phase: .parsing, started: 5 * second, now: 15 * second))
        #expect(budget.isOverdue(phase: .parsing, started: 5 * second, now: 15 * second + 1))
        #expect(!budget.isOverdue(phase: .analysis, started: 0, now: 15 * second), "the rules get five more seconds to stop themselves")
        #expect(budget.isOverdue(phase: .analysis, started: 0, now: 15 * second + 1))
        #expect(FileBudget(seconds: 60).grace == 30 && FileBudget(seconds: 1).grace == 2)
        #expect(!budget.isOverdue(phase: .parsing, started: 0, now: 25 * second, extra: 15), "a big built app gets more")
        #expect(budget.isOverdue(phase: .parsing, started: 0, now: 25 * second + 1, extra: 15))
        #expect(!FileBudget(seconds: 0).isOverdue(phase: .parsing, started: 0, now: 1_000_000 * second), "0 turns the budget off")
        #expect(FileBudget.Overrun(path: "A.swift", phase: .parsing, seconds: 2.5).message == "not analysed: parsing took longer than 2.5 s, see --file-timeout")
    }

    @Test func theConfigurationSetsBothBudgets() throws {
        let parsed = try Configuration.parse(Data(#"{"fileTimeout": 12.5, "timeout": 600}"#.utf8), path: ".moat.json")
        #expect(parsed.fileTimeout == 12.5 && parsed.timeout == 600)
        #expect(try Configuration.parse(Data(#"{"fileTimeout": 0}"#.utf8), path: ".moat.json").fileTimeout == 0)
        for bad in [#"{"fileTimeout": -1}"#, #"{"timeout": 0}"#, #"{"timeout": "soon"}"#] {
            #expect(throws: ScanError.self, "\(bad)") { try Configuration.parse(Data(bad.utf8), path: ".moat.json") }
        }
        // The configuration's budget applies unless the command line gave one.
        let tree = try TemporaryTree([".moat.json": #"{"fileTimeout": 7}"#, "App/A.swift": "let a = 1\n"])
        defer { tree.remove() }
        for (given, expected) in [(nil, 7.0), (30.0, 30.0)] as [(Double?, Double)] {
            var options = ScanOptions(paths: [tree.root.path])
            options.fileTimeout = given
            #expect(try ScanSetup(options).fileAnalysis.budget.seconds == expected)
        }
    }
}

/// A clock tests move by hand.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var nanoseconds: UInt64 = 1_000_000_000

    var value: UInt64 {
        lock.lock()
        defer { lock.unlock() }
        return nanoseconds
    }

    func advance(seconds: Double) {
        lock.lock()
        nanoseconds += UInt64(seconds * 1_000_000_000)
        lock.unlock()
    }
}

final class Heard: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [FileBudget.Overrun] = []

    func add(_ overrun: FileBudget.Overrun) {
        lock.lock()
        list.append(overrun)
        lock.unlock()
    }

    var overruns: [FileBudget.Overrun] {
        lock.lock()
        defer { lock.unlock() }
        return list
    }
}
