@testable import MoatTestSupport
import Foundation
import MoatCore
import MoatScan

/// Built apps assembled in code: Mach-O sketches, binary and XML property lists, CMS-wrapped profiles,
/// written as an `.ipa` or as folders, and scanned with the real pipeline.
enum BuiltAppFixture {
    static func machO(_ sketch: String, name: String = "Demo") -> Data {
        // swiftlint:disable:next force_try
        try! MachOSketch(sketch, name: name).build()
    }

    static func binaryPlist(_ value: [String: Any]) -> Data {
        // swiftlint:disable:next force_try
        try! PropertyListSerialization.data(fromPropertyList: value, format: .binary, options: 0)
    }

    static func xmlPlist(_ value: [String: Any]) -> Data {
        // swiftlint:disable:next force_try
        try! PropertyListSerialization.data(fromPropertyList: value, format: .xml, options: 0)
    }

    /// An `embedded.mobileprovision`: the profile property list in a CMS SignedData envelope.
    static func profile(name: String = "Demo Profile", devices: [String] = [], allDevices: Bool = false,
                        expiration: Date = Date(timeIntervalSince1970: 4_102_444_800), entitlements: [String: Any]) -> Data {
        var plist: [String: Any] = [
            "Name": name, "UUID": "01234567-89AB-CDEF-0123-456789ABCDEF", "TeamIdentifier": ["ABCDE12345"],
            "TeamName": "Example Corp", "ExpirationDate": expiration, "CreationDate": Date(timeIntervalSince1970: 1_700_000_000),
            "Entitlements": entitlements, "Platform": ["iOS"],
        ]
        if !devices.isEmpty { plist["ProvisionedDevices"] = devices }
        if allDevices { plist["ProvisionsAllDevices"] = true }
        return DERWriter.cms(xmlPlist(plist))
    }

    static func infoPlist(executable: String, identifier: String, extra: [String: Any] = [:]) -> Data {
        var plist: [String: Any] = ["CFBundleExecutable": executable, "CFBundleIdentifier": identifier]
        for (key, value) in extra { plist[key] = value }
        return binaryPlist(plist)
    }

    /// An `.ipa` holding `Payload/<app>/<path>` for each file, plus raw entries as given.
    static func ipa(_ files: [(String, Data)], app: String = "Demo.app", extra: [ZipWriter.Entry] = [], stored: Bool = false) -> Data {
        var writer = ZipWriter()
        for (path, data) in files {
            writer.add("Payload/\(app)/\(path)", data, method: stored || path.hasSuffix(".plist") ? .stored : .deflated)
        }
        writer.entries += extra
        return writer.build()
    }

    static func write(_ files: [(String, Data)], under folder: URL) throws {
        for (path, data) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
    }

    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("moat-builtapp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Scans paths with every rule (or the given ones), without a cache, inventory listed as findings.
    static func scan(_ paths: [String], rules: [String] = []) throws -> ScanResult {
        var options = ScanOptions(paths: paths)
        options.onlyRules = rules
        options.includeInventory = true
        options.jobs = 2
        return try Scanner.scan(options).result
    }

    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }
}

extension ScanResult {
    /// Findings of one rule at one path.
    func findings(_ rule: String, at path: String) -> [Finding] {
        findings.filter { $0.ruleId == rule && $0.location.path == path }
    }

    func finding(_ rule: String, at path: String, symbol: String? = nil, keyPath: String? = nil) -> Finding? {
        findings.first { finding in
            finding.ruleId == rule && finding.location.path == path
                && (symbol == nil || finding.location.symbol == symbol) && (keyPath == nil || finding.location.keyPath == keyPath)
        }
    }
}
