import Dispatch
import Foundation

/// How long one file may hold the scan, and what happens when it holds it longer.
///
/// Every file (source, property list, project, Interface Builder document, Core Data model, lock file,
/// built app) is read, parsed and analysed on a worker thread that tells the budget when it starts, when it
/// moves from parsing to its rules, and when it is done. The thread that waits for the workers looks at the
/// clock while it waits: a file still parsing `seconds` after it started, or still in its rules `grace`
/// seconds after that (the rules stop themselves at `seconds`, between two rules), has overrun: no file
/// holds a worker longer than `seconds + grace`. Its outcome is one error,
/// "not analysed: parsing took longer than N s", and the scan goes on without it.
///
/// A thread cannot be stopped from outside, so what becomes of the stuck worker is the caller's choice:
/// with `onOverrun` nil (the library's default) it is left behind and a fresh worker takes its place; the
/// command-line tool passes an `onOverrun` that restarts the process (`ScanRestart`), which ends every
/// thread, with the file named as not analysed, so a stuck parse never burns a core for the rest of the run.
public struct FileBudget: Sendable {
    /// Seconds a file may parse, and its rules may run; zero or less: no budget.
    public var seconds: Double
    /// Called on the waiting thread when a file overruns, before it is left behind. May not return (a
    /// restart of the process).
    public var onOverrun: (@Sendable (Overrun) -> Void)?
    /// Files that overran in an earlier run of this scan (display path → the error's message): reported, not
    /// read.
    public var overrun: [String: String] = [:]
    /// Monotonic nanoseconds; tests give their own clock.
    public var now: @Sendable () -> UInt64 = { DispatchTime.now().uptimeNanoseconds }
    /// Test support: a file for which this returns true stands for a parse that never ends. Its worker calls
    /// `stall` instead of reading it, and the waiting thread takes it as overrun at once, whatever the clock
    /// (unless the budget is off).
    public var stalls: (@Sendable (String) -> Bool)?
    public var stall: @Sendable () -> Void = { while true { sleep(3600) } }
    /// How long the waiting thread sleeps between two looks at the clock.
    var pollSeconds = 0.05

    public init(seconds: Double = FileBudget.defaultSeconds) {
        self.seconds = seconds
    }

    public static let defaultSeconds = 30.0
    /// A built app reads and inflates archives and binaries: it gets the budget once more per 50 MB.
    public static let bytesPerBudget = 50.0 * 1_048_576

    /// After the budget, the seconds the rules get to notice it and stop by themselves.
    var grace: Double { max(2, seconds / 2) }

    public enum Phase: String, Sendable {
        case parsing, analysis
    }

    /// A file that ran past the budget.
    public struct Overrun: Sendable, Equatable {
        public var path: String
        public var phase: Phase
        public var seconds: Double

        /// The error the scan reports for the file.
        public var message: String {
            "not analysed: \(phase == .parsing ? "parsing" : "analysis") took longer than \(FileBudget.format(seconds)) s, see --file-timeout"
        }
    }

    /// Seconds as messages write them: `30`, `2.5`.
    public static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%g", seconds)
    }

    /// Whether a file started at `started`, now in `phase`, given `extra` seconds beyond the budget, has
    /// overrun at `now`.
    func isOverdue(phase: Phase, started: UInt64, now: UInt64, extra: Double = 0) -> Bool {
        guard seconds > 0 else { return false }
        let limit = (phase == .parsing ? seconds : seconds + grace) + extra
        return now >= started && Double(now - started) / 1_000_000_000 > limit
    }
}

/// Runs work items on their own threads, `jobs` at a time, each under the file budget; results in input
/// order. An item that overruns gets `overrun(index, message)` as its result and its worker is replaced.
struct BudgetedWork: Sendable {
    let budget: FileBudget
    /// Stack of each worker thread: address space only, pages are committed as used. Parsers recurse;
    /// dispatch's worker threads have 512 KB stacks.
    static let workerStackSize = 256 * 1024 * 1024

    /// What a worker tells the budget about its item.
    struct Reporter: Sendable {
        fileprivate let state: BudgetedWorkState
        fileprivate let worker: Int
        /// The item's parse is done; its rules start (the budget still counts from the item's start).
        func enter(_ phase: FileBudget.Phase) { state.enter(worker: worker, phase) }
        /// A big input (a built app) gets the budget once more per `bytesPerBudget`.
        func allow(bytes: Int) { state.allow(worker: worker, extraSeconds: state.budgetSeconds * Double(bytes) / FileBudget.bytesPerBudget) }
    }

    func run<T: Sendable>(paths: [String], jobs: Int, placeholder: T, progress: (@Sendable (Int) -> Void)? = nil,
                          overrun: @escaping @Sendable (Int, String) -> T,
                          work: @escaping @Sendable (Int, Reporter) -> T) -> [T] {
        guard !paths.isEmpty else { return [] }
        let state = BudgetedWorkState(count: paths.count, clock: budget.now, budgetSeconds: budget.seconds)
        let results = ResultSlots(count: paths.count, placeholder: placeholder)
        let budget = self.budget
        @Sendable func startWorker() {
            let worker = state.newWorker()
            let thread = Thread {
                while let index = state.take(worker: worker) {
                    let result: T
                    if let message = budget.overrun[paths[index]] {
                        result = overrun(index, message)
                    } else {
                        if budget.stalls?(paths[index]) == true {
                            state.markStalled(worker: worker)
                            budget.stall()
                        }
                        result = work(index, Reporter(state: state, worker: worker))
                    }
                    // A worker that was left behind drops its result and stops.
                    guard let done = state.finish(worker: worker, store: { results.set(index, result) }) else { return }
                    progress?(done)
                }
            }
            thread.stackSize = Self.workerStackSize
            thread.start()
        }
        for _ in 0..<max(1, min(jobs, paths.count)) { startWorker() }
        while !state.waitUntilDone(seconds: budget.pollSeconds) {
            for late in state.overdue(budget) {
                let found = FileBudget.Overrun(path: paths[late.index], phase: late.phase, seconds: budget.seconds)
                budget.onOverrun?(found)
                let placeholder = overrun(late.index, found.message)
                guard let done = state.abandon(worker: late.worker, store: { results.set(late.index, placeholder) }) else { continue }
                progress?(done)
                startWorker()
            }
        }
        return results.values
    }
}

/// The items of a `BudgetedWork` run: which is next, which worker holds which since when, how many are done.
private final class BudgetedWorkState: @unchecked Sendable {
    struct Held {
        var index: Int
        var phase: FileBudget.Phase
        var since: UInt64
        var stalled = false
        var extra = 0.0
    }

    private let condition = NSCondition()
    private let count: Int
    private let clock: @Sendable () -> UInt64
    let budgetSeconds: Double
    private var next = 0
    private var done = 0
    private var workers = 0
    private var held: [Int: Held] = [:]
    private var abandoned: Set<Int> = []

    init(count: Int, clock: @escaping @Sendable () -> UInt64, budgetSeconds: Double) {
        self.count = count
        self.clock = clock
        self.budgetSeconds = budgetSeconds
    }

    private func locked<R>(_ body: () -> R) -> R {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }

    func newWorker() -> Int {
        locked {
            workers += 1
            return workers
        }
    }

    /// The next item for this worker, or nil when none is left (or the worker was left behind).
    func take(worker: Int) -> Int? {
        locked {
            guard !abandoned.contains(worker), next < count else { return nil }
            let index = next
            next += 1
            held[worker] = Held(index: index, phase: .parsing, since: clock())
            return index
        }
    }

    func enter(worker: Int, _ phase: FileBudget.Phase) {
        locked {
            // The budget counts from the file's start, whatever the phase.
            held[worker]?.phase = phase
        }
    }

    func allow(worker: Int, extraSeconds: Double) {
        locked { held[worker]?.extra = max(0, extraSeconds) }
    }

    func markStalled(worker: Int) {
        locked { held[worker]?.stalled = true }
    }

    /// The worker's item is done: its result is stored (before anyone can see the count), and the number of
    /// items done returned; nil when the worker was left behind.
    func finish(worker: Int, store: () -> Void) -> Int? {
        locked {
            guard !abandoned.contains(worker), held.removeValue(forKey: worker) != nil else { return nil }
            store()
            done += 1
            condition.broadcast()
            return done
        }
    }

    /// Leaves the worker behind: its item counts as done (with the overrun as its result).
    func abandon(worker: Int, store: () -> Void) -> Int? {
        locked {
            guard held.removeValue(forKey: worker) != nil else { return nil }
            abandoned.insert(worker)
            store()
            done += 1
            return done
        }
    }

    /// Waits until every item is done (true) or the time has passed (false).
    func waitUntilDone(seconds: Double) -> Bool {
        locked {
            if done == count { return true }
            _ = condition.wait(until: Date(timeIntervalSinceNow: seconds))
            return done == count
        }
    }

    func overdue(_ budget: FileBudget) -> [(worker: Int, index: Int, phase: FileBudget.Phase)] {
        locked {
            let now = clock()
            return held.filter { ($0.value.stalled && budget.seconds > 0) || budget.isOverdue(phase: $0.value.phase, started: $0.value.since, now: now, extra: $0.value.extra) }
                .map { (worker: $0.key, index: $0.value.index, phase: $0.value.phase) }
                .sorted { $0.index < $1.index }
        }
    }
}

/// Results written by index from worker threads.
private final class ResultSlots<T: Sendable>: @unchecked Sendable {
    private var storage: [T]
    private let lock = NSLock()

    init(count: Int, placeholder: T) {
        storage = Array(repeating: placeholder, count: count)
    }

    func set(_ index: Int, _ value: T) {
        lock.lock()
        storage[index] = value
        lock.unlock()
    }

    var values: [T] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}

/// What a scan is doing, for a whole-scan timeout to say how far it got.
public final class ScanActivity: @unchecked Sendable {
    private let lock = NSLock()
    private var latest = ScanProgress(phase: .discovering, done: 0, total: 0)

    public init() {}

    func record(_ progress: ScanProgress) {
        lock.lock()
        // Progress from worker threads may arrive out of order: the highest count of a phase stays.
        if progress.phase != latest.phase || progress.done >= latest.done { latest = progress }
        lock.unlock()
    }

    public var progress: ScanProgress {
        lock.lock()
        defer { lock.unlock() }
        return latest
    }

    /// One sentence: how far the scan got.
    public var summary: String {
        let progress = self.progress
        switch progress.phase {
        case .discovering: return "it was still finding files"
        case .analyzing: return "\(progress.done) of \(progress.total) files were analysed"
        case .finishing: return "all \(progress.total) files were analysed; it was checking the app as a whole"
        }
    }
}

/// The whole scan's time limit (`--timeout`, the configuration's `timeout`): a thread that waits until
/// `startedAt + seconds` and then calls `onExpiry`, which the command-line tool makes print what was done
/// and exit with code 2. Started once per process.
public enum ScanTimer {
    nonisolated(unsafe) private static var started = false
    private static let lock = NSLock()

    public static func start(seconds: Double, startedAt: Date, activity: ScanActivity,
                             onExpiry: @escaping @Sendable (Double, ScanActivity) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        guard !started else { return }
        started = true
        // Already past (a command restarted late): stop now, before any more work.
        guard startedAt.addingTimeInterval(seconds).timeIntervalSinceNow > 0 else {
            onExpiry(seconds, activity)
            return
        }
        let thread = Thread {
            let remaining = startedAt.addingTimeInterval(seconds).timeIntervalSinceNow
            if remaining > 0 { Thread.sleep(forTimeInterval: remaining) }
            onExpiry(seconds, activity)
        }
        thread.start()
    }
}
