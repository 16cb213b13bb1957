import Foundation

/// Runs the built `moat` executable, as a user would, for end-to-end tests.
enum MoatProcess {
    /// The `moat` binary next to the test bundle in `.build/<triple>/debug`, or `.build/debug/moat`
    /// under the package root.
    static func executable(packageRoot: URL) throws -> URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("moat")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        let fallback = packageRoot.appendingPathComponent(".build/debug/moat")
        guard FileManager.default.isExecutableFile(atPath: fallback.path) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "moat executable (run `swift build` first)"])
        }
        return fallback
    }

    /// The user cache folder every `moat` the tests run is given (`XDG_CACHE_HOME`), so that tests never
    /// write to the real `~/.cache`. One folder shared by every test run: Moat's size limit bounds it
    /// (least recently used entries evicted), so runs do not pile up folders; entries are written
    /// atomically and keyed by content, so concurrent runs only share hits.
    static let cacheHome: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("moat-tests-xdg-cache")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// Runs `moat` with these arguments. Output goes through temporary files, so a large report on one
    /// stream cannot block the process while the other is being read. `environment` is added to this
    /// process's, with `XDG_CACHE_HOME` set to `cacheHome` unless it names one.
    static func run(_ arguments: [String], packageRoot: URL, in directory: URL? = nil,
                    environment: [String: String] = [:]) throws
        -> (status: Int32, stdout: Data, stderr: String) {
        let process = Process()
        process.executableURL = try executable(packageRoot: packageRoot)
        process.arguments = arguments
        var variables = ProcessInfo.processInfo.environment
        variables["XDG_CACHE_HOME"] = cacheHome.path
        variables.merge(environment) { _, new in new }
        process.environment = variables
        if let directory { process.currentDirectoryURL = directory }
        let outURL = FileManager.default.temporaryDirectory.appendingPathComponent("moat-cli-\(UUID().uuidString)")
        let errURL = outURL.appendingPathExtension("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        try process.run()
        process.waitUntilExit()
        let stdout = (try? Data(contentsOf: outURL)) ?? Data()
        let stderr = String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self)
        return (process.terminationStatus, stdout, stderr)
    }
}
