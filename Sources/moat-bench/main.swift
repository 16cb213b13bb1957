import Foundation
import MoatCore
import MoatScan
import MoatSyntax

// moat-bench [PATH] [--files N] [--kilobytes-per-file K] [--jobs N]
//
// Measures, on PATH or on a generated synthetic corpus: a cold scan (empty cache), a warm scan (same
// cache), a scan after one file changed, and the same corpus parsed with SwiftParser alone. Each phase
// runs in its own process so that its peak resident memory is its own.

struct PhaseResult: Codable {
    var phase: String
    var seconds: Double
    var peakRSSMegabytes: Double
    var files: Int
    var megabytes: Double
    var findings: Int
}

func peakRSSMegabytes() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let digits = line.split(separator: " ").compactMap { Double($0) }
        return (digits.first ?? 0) / 1024
    }
    return 0
}

func sourceFiles(in root: URL) -> [URL] {
    var result: [URL] = []
    guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
    for case let url as URL in enumerator where url.pathExtension == "swift" || url.pathExtension == "m" {
        if url.path.contains("/.moat-cache/") { continue }
        result.append(url)
    }
    return result.sorted { $0.path < $1.path }
}

func corpusMegabytes(_ files: [URL]) -> Double {
    let bytes = files.reduce(0) { total, url in
        total + ((try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)??.intValue ?? 0)
    }
    return Double(bytes) / 1_048_576
}

/// Runs one phase in this process and prints its result as JSON.
func runPhase(_ phase: String, root: URL, cache: URL, jobs: Int) throws {
    let files = sourceFiles(in: root)
    let start = Date()
    var findings = 0
    switch phase {
    case "parse-only":
        let chunks = max(1, jobs)
        let total = files.count
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            var index = chunk
            while index < total {
                // The files a scan refuses before parsing (SwiftParser is exponential on them) are not parsed here either.
                if files[index].pathExtension == "swift", let text = try? String(contentsOf: files[index], encoding: .utf8),
                   SwiftFrontEnd.refusalReason(source: text) == nil {
                    _ = SwiftFrontEnd.parseOnly(source: text)
                }
                index += chunks
            }
        }
    case "front-end":
        // Parse, fold, lower into the code model and summarize, without rules.
        for file in files where file.pathExtension == "swift" {
            if let text = try? String(contentsOf: file, encoding: .utf8) {
                _ = SourceSummary(file: SwiftFrontEnd.parse(source: text, path: file.lastPathComponent))
            }
        }
    case "lower-only":
        for file in files where file.pathExtension == "swift" {
            if let text = try? String(contentsOf: file, encoding: .utf8) {
                _ = SwiftFrontEnd.parse(source: text, path: file.lastPathComponent)
            }
        }
    default:
        var options = ScanOptions(paths: [root.path])
        options.cacheDirectory = cache
        options.jobs = jobs
        findings = try Scanner.scan(options).result.findings.count
    }
    let result = PhaseResult(phase: phase, seconds: Date().timeIntervalSince(start), peakRSSMegabytes: peakRSSMegabytes(),
                             files: files.count, megabytes: corpusMegabytes(files), findings: findings)
    let data = try JSONEncoder().encode(result)
    print(String(decoding: data, as: UTF8.self))
}

/// A synthetic app: view controllers, networking, storage and models, with a few findings sprinkled in.
func generateCorpus(at root: URL, files: Int, kilobytesPerFile: Int) throws {
    let fileManager = FileManager.default
    try fileManager.createDirectory(at: root, withIntermediateDirectories: true)
    for index in 0..<files {
        let folder = root.appendingPathComponent("Module\(index % 20)")
        try fileManager.createDirectory(at: folder, withIntermediateDirectories: true)
        var text = "import UIKit\nimport WebKit\n\n"
        var member = 0
        while text.utf8.count < kilobytesPerFile * 1024 {
            text += """
            final class Screen\(index)_\(member): UIViewController, WKNavigationDelegate {
                private let webView = WKWebView(frame: .zero, configuration: WKWebViewConfiguration())
                private var items: [String] = []
                private var state: LoadState = .idle

                override func viewDidLoad() {
                    super.viewDidLoad()
                    view.addSubview(webView)
                    webView.navigationDelegate = self
                    if let url = URL(string: "https://api.example.com/v\(member)/items?page=\\(items.count)") {
                        load(url)
                    }
                }

                private func load(_ url: URL) {
                    let task = URLSession.shared.dataTask(with: url) { [weak self] data, response, error in
                        guard let self, let data, error == nil else { return }
                        let decoded = (try? JSONDecoder().decode([String].self, from: data)) ?? []
                        DispatchQueue.main.async {
                            self.items = decoded.filter { !$0.isEmpty }.map { $0.trimmingCharacters(in: .whitespaces) }
                            self.state = self.items.isEmpty ? .empty : .loaded(self.items.count)
                        }
                    }
                    task.resume()
                }

                func total(of values: [Double]) -> Double {
                    var sum = 0.0
                    for value in values where value > 0 { sum += value * 1.2 + Double(items.count) }
                    return sum
                }
            }

            """
            if member % 7 == 3 {
                text += "func restore\(index)_\(member)(_ data: Data) -> Any? { NSKeyedUnarchiver.unarchiveObject(with: data) }\n\n"
            }
            member += 1
        }
        text += "enum LoadState { case idle, empty, loaded(Int) }\n"
        try Data(text.utf8).write(to: folder.appendingPathComponent("Screen\(index).swift"))
    }
}

func runOrchestrator(arguments: [String]) throws {
    var path: String?
    var files = 1000
    var kilobytes = 8
    var jobs = ProcessInfo.processInfo.activeProcessorCount
    var iterator = arguments.makeIterator()
    while let argument = iterator.next() {
        switch argument {
        case "--files": files = Int(iterator.next() ?? "") ?? files
        case "--kilobytes-per-file": kilobytes = Int(iterator.next() ?? "") ?? kilobytes
        case "--jobs": jobs = Int(iterator.next() ?? "") ?? jobs
        default: path = argument
        }
    }
    let work = FileManager.default.temporaryDirectory.appendingPathComponent("moat-bench-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: work) }
    let root: URL
    if let path {
        root = URL(fileURLWithPath: path)
    } else {
        root = work.appendingPathComponent("corpus")
        print("Generating \(files) files of about \(kilobytes) KB in \(root.path) ...")
        try generateCorpus(at: root, files: files, kilobytesPerFile: kilobytes)
    }
    let cache = work.appendingPathComponent("cache")
    let executable = URL(fileURLWithPath: CommandLine.arguments[0])

    func phase(_ name: String) throws -> PhaseResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--phase", name, root.path, cache.path, String(jobs)]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return try JSONDecoder().decode(PhaseResult.self, from: data)
    }

    let parseOnly = try phase("parse-only")
    let cold = try phase("cold")
    let warm = try phase("warm")
    // Change one file (append a function), then rescan.
    if let first = sourceFiles(in: root).first(where: { $0.pathExtension == "swift" }) {
        let handle = try FileHandle(forWritingTo: first)
        handle.seekToEndOfFile()
        handle.write(Data("\nfunc benchmarkEdit() -> Int { 42 }\n".utf8))
        try handle.close()
    }
    let changed = try phase("one-file-changed")

    print("")
    print("phase              files      MB   seconds     MB/s   peak RSS MB   findings")
    for result in [parseOnly, cold, warm, changed] {
        let rate = result.seconds > 0 ? result.megabytes / result.seconds : 0
        let name = result.phase.padding(toLength: 16, withPad: " ", startingAt: 0)
        print(name + String(format: " %7d %7.1f %9.2f %8.1f %13.0f %10d", result.files, result.megabytes,
                            result.seconds, rate, result.peakRSSMegabytes, result.findings))
    }
    print("")
    print(String(format: "cold / parse-only:        %.2fx (target <= 1.5x)", cold.seconds / max(parseOnly.seconds, 0.001)))
    print(String(format: "cold / warm:              %.1fx (target >= 20x)", cold.seconds / max(warm.seconds, 0.001)))
    print(String(format: "cold / one-file-changed:  %.1fx (target >= 10x)", cold.seconds / max(changed.seconds, 0.001)))
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    if arguments.first == "--phase", arguments.count == 5 {
        try runPhase(arguments[1], root: URL(fileURLWithPath: arguments[2]), cache: URL(fileURLWithPath: arguments[3]),
                     jobs: Int(arguments[4]) ?? 1)
    } else if arguments.first == "--generate", arguments.count >= 2 {
        // moat-bench --generate DIR [FILES [KB]]: write the synthetic corpus only, for profiling.
        let files = arguments.count > 2 ? Int(arguments[2]) ?? 1000 : 1000
        let kilobytes = arguments.count > 3 ? Int(arguments[3]) ?? 8 : 8
        try generateCorpus(at: URL(fileURLWithPath: arguments[1]), files: files, kilobytesPerFile: kilobytes)
    } else if arguments.first == "--help" || arguments.first == "-h" {
        print("Usage: moat-bench [PATH] [--files N] [--kilobytes-per-file K] [--jobs N]\n       moat-bench --generate DIR [FILES [KB]]")
    } else {
        try runOrchestrator(arguments: arguments)
    }
} catch {
    FileHandle.standardError.write(Data("moat-bench: \(error)\n".utf8))
    exit(2)
}
