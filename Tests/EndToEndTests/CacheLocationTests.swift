import Foundation
import MoatCore
import Testing
@testable import MoatTestSupport

/// Scanning never writes into the scanned tree: the cache goes to the user's cache folder (here a temporary
/// `XDG_CACHE_HOME`), and a cache folder that cannot be written is a warning, not a failure.
struct CacheLocationTests {
    /// Every file and folder under `root`: relative path, type, size, permissions, modification time and
    /// (for files) a SHA-256 of the content.
    static func snapshot(_ root: URL) throws -> [String] {
        let manager = FileManager.default
        var lines: [String] = []
        for case let relative as String in manager.enumerator(atPath: root.path)?.allObjects ?? [] {
            let url = root.appendingPathComponent(relative)
            let attributes = try manager.attributesOfItem(atPath: url.path)
            let type = attributes[.type] as? FileAttributeType
            let size = (attributes[.size] as? NSNumber)?.int64Value ?? -1
            let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
            let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? -1
            var line = "\(relative) \(type?.rawValue ?? "?") \(size) \(String(mode, radix: 8)) \(modified)"
            if type == .typeRegular { line += " " + SHA256.hex(try Data(contentsOf: url)) }
            lines.append(line)
        }
        return lines.sorted()
    }

    static func setWritable(_ root: URL, _ writable: Bool) throws {
        let manager = FileManager.default
        var paths = [root.path]
        for case let relative as String in manager.enumerator(atPath: root.path)?.allObjects ?? [] {
            paths.append(root.appendingPathComponent(relative).path)
        }
        // Folders last when removing write permission, first when giving it back.
        for path in writable ? paths : paths.reversed() {
            var isDirectory: ObjCBool = false
            _ = manager.fileExists(atPath: path, isDirectory: &isDirectory)
            let mode: Int = isDirectory.boolValue ? (writable ? 0o755 : 0o555) : (writable ? 0o644 : 0o444)
            try manager.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        }
    }

    static func temporaryFolder(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func aReadOnlyCopyOfTheExampleAppIsLeftExactlyAsItWas() throws {
        let work = try Self.temporaryFolder("moat-readonly")
        let root = work.appendingPathComponent("LeakyBank")
        let cacheHome = work.appendingPathComponent("xdg-cache")
        defer {
            try? Self.setWritable(root, true)
            try? FileManager.default.removeItem(at: work)
        }
        try FileManager.default.copyItem(at: ExampleAppTests.exampleApp, to: root)
        try Self.setWritable(root, false)
        let before = try Self.snapshot(root)
        #expect(before.count > 20, "the example app was copied")

        let environment = ["XDG_CACHE_HOME": cacheHome.path]
        let cold = try MoatProcess.run(["scan", root.path, "--format", "json"], packageRoot: ExampleAppTests.packageRoot,
                                       environment: environment)
        #expect(cold.status == 1, "the example app has findings at or above high; stderr: \(cold.stderr)")
        #expect(!cold.stderr.contains("warning"), "the default cache folder is writable: \(cold.stderr)")
        // Tests run as root, where file modes stop nothing: compare everything instead.
        #expect(try Self.snapshot(root) == before, "the scan changed the scanned tree")

        // The cache went to $XDG_CACHE_HOME/moat/<hash of the root>/, with the root named beside it.
        let base = cacheHome.appendingPathComponent("moat")
        let folders = try FileManager.default.contentsOfDirectory(atPath: base.path)
        #expect(folders.count == 1)
        let folder = base.appendingPathComponent(try #require(folders.first))
        #expect(folder.lastPathComponent.count == 16)
        let note = try String(contentsOf: folder.appendingPathComponent("roots.txt"), encoding: .utf8)
        #expect(note == root.standardizedFileURL.path + "\n")
        let entries = FileManager.default.enumerator(atPath: folder.appendingPathComponent("v2").path)?.allObjects
            .compactMap { $0 as? String }.filter { $0.hasSuffix(".entry") } ?? []
        #expect(entries.count > 10, "source files' results are cached")

        // A warm scan reads that cache, gives the same report, and still changes nothing.
        let warm = try MoatProcess.run(["scan", root.path, "--format", "json"], packageRoot: ExampleAppTests.packageRoot,
                                       environment: environment)
        #expect(Self.withoutTimes(warm.stdout) == Self.withoutTimes(cold.stdout))
        #expect(try Self.snapshot(root) == before)

        // --no-cache writes nowhere: the cache folder is untouched.
        let cacheBefore = try Self.snapshot(cacheHome)
        _ = try MoatProcess.run(["scan", root.path, "--format", "json", "--no-cache"], packageRoot: ExampleAppTests.packageRoot,
                                environment: environment)
        #expect(try Self.snapshot(cacheHome) == cacheBefore)
        #expect(try Self.snapshot(root) == before)
    }

    static func withoutTimes(_ data: Data) -> String {
        String(decoding: data, as: UTF8.self).split(separator: "\n").filter { !$0.contains("Time") }.joined(separator: "\n")
    }

    @Test func anUnwritableCacheFolderIsAWarningNotAFailure() throws {
        let work = try Self.temporaryFolder("moat-unwritable-cache")
        defer { try? FileManager.default.removeItem(at: work) }
        let root = work.appendingPathComponent("App")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try Data("let x = NSKeyedUnarchiver.unarchiveObject(with: d)\n".utf8).write(to: root.appendingPathComponent("A.swift"))
        // A regular file where the cache folder should be: no one, root included, can create a folder there.
        let blocker = work.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: blocker)
        let expected = try ExampleAppTests.run(["scan", root.path, "--format", "json", "--no-cache", "--fail-on", "medium"])

        let explicit = try ExampleAppTests.run(["scan", root.path, "--format", "json", "--fail-on", "medium", "--cache-dir", blocker.appendingPathComponent("cache").path])
        #expect(explicit.status == 1)
        #expect(explicit.stderr.contains("moat: warning: cannot use the cache folder \(blocker.path)/cache ("), "\(explicit.stderr)")
        #expect(explicit.stderr.contains("scanning without a cache"))
        #expect(Self.withoutTimes(explicit.stdout) == Self.withoutTimes(expected.stdout))

        let viaEnvironment = try MoatProcess.run(["scan", root.path, "--format", "json", "--fail-on", "medium"], packageRoot: ExampleAppTests.packageRoot,
                                                 environment: ["XDG_CACHE_HOME": blocker.path])
        #expect(viaEnvironment.status == 1)
        #expect(viaEnvironment.stderr.contains("moat: warning: cannot use the cache folder \(blocker.path)/moat/"), "\(viaEnvironment.stderr)")
        #expect(Self.withoutTimes(viaEnvironment.stdout) == Self.withoutTimes(expected.stdout))
    }
}
