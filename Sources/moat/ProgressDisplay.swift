import Foundation
import MoatScan

/// `moat: analyzing 120/340 files` on one rewritten line of standard error, for people watching a long
/// scan. Only when standard error is a terminal and the output format is for people: never in pipes, CI
/// logs or machine formats. Updates at most ten times a second; `finish` erases the line.
final class ProgressDisplay: @unchecked Sendable {
    private let lock = NSLock()
    private var lastDraw = Date.distantPast
    private var drawn = false
    private var finished = false
    private let width: Int

    private init(width: Int) {
        self.width = width
    }

    /// A display when progress should be shown, nil otherwise.
    static func start(if forPeople: Bool) -> ProgressDisplay? {
        let environment = ProcessInfo.processInfo.environment
        guard forPeople, isatty(STDERR_FILENO) != 0, environment["TERM"] != "dumb", environment["CI"] == nil else { return nil }
        let columns = environment["COLUMNS"].flatMap(Int.init) ?? 80
        return ProgressDisplay(width: max(20, min(columns, 500) - 1))
    }

    var callback: @Sendable (ScanProgress) -> Void {
        { [self] progress in self.update(progress) }
    }

    /// The text of one progress line.
    static func line(_ progress: ScanProgress) -> String {
        switch progress.phase {
        case .discovering: return "moat: finding files…"
        case .analyzing:
            let percent = progress.total > 0 ? progress.done * 100 / progress.total : 0
            return "moat: analyzing \(progress.done)/\(progress.total) files (\(percent)%)"
        case .finishing: return "moat: \(progress.total) files analyzed; checking the app as a whole…"
        }
    }

    func update(_ progress: ScanProgress) {
        lock.lock()
        defer { lock.unlock() }
        guard !finished else { return }
        let now = Date()
        let isLast = progress.phase == .finishing || (progress.total > 0 && progress.done == progress.total)
        guard isLast || now.timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = now
        var text = Self.line(progress)
        if text.count > width { text = String(text.prefix(width)) }
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + text).utf8))
        drawn = true
    }

    func finish() {
        lock.lock()
        defer { lock.unlock() }
        finished = true
        if drawn { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
