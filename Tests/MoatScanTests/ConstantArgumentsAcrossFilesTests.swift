import Foundation
import Testing
import MoatCore
@testable import MoatScan

/// Constants passed as arguments to a function of another file that hands the parameter to a settings
/// sink (`ParameterSink`): reported in the caller, with the helper's sink as related location; the same
/// with a cache, warm or cold, and with any number of jobs.
struct ConstantArgumentsAcrossFilesTests {
    static let helper = """
    import CryptoKit
    import CommonCrypto
    enum CryptoHelper {
        static func encrypt(_ data: Data, key: String) throws -> Data? {
            let keyData = key.data(using: .utf8)!
            return try AES.GCM.seal(data, using: SymmetricKey(data: keyData)).combined
        }
        static func derive(_ password: String, salt: [UInt8], into derived: inout [UInt8]) {
            CCKeyDerivationPBKDF(CCPBKDFAlgorithm(kCCPBKDF2), password, password.utf8.count, salt, salt.count,
                                 CCPseudoRandomAlgorithm(kCCPRFHmacAlgSHA256), 100_000, &derived, derived.count)
        }
        private static func hidden(_ data: Data, key: Data) throws -> Data? {
            try AES.GCM.seal(data, using: SymmetricKey(data: key)).combined
        }
    }
    func makeSession(minimum: tls_protocol_version_t) -> URLSession {
        let configuration = URLSessionConfiguration.default
        configuration.tlsMinimumSupportedProtocolVersion = minimum
        return URLSession(configuration: configuration)
    }
    """
    static let caller = """
    func upload(_ report: Data, keychain: Keychain, pin: String) throws {
        let sealed = try CryptoHelper.encrypt(report, key: "0123456789abcdef0123456789abcdef")
        let stored = keychain.string(forKey: "report") ?? ""
        let safe = try CryptoHelper.encrypt(report, key: stored)
        var derived = [UInt8](repeating: 0, count: 32)
        CryptoHelper.derive(pin, salt: Array("pepper-and-salt!".utf8), into: &derived)
        send(sealed, safe, derived)
    }
    let legacy = makeSession(minimum: .TLSv10)
    let modern = makeSession(minimum: .TLSv12)
    let shared = try CryptoHelper.encrypt(payload, key: Keys.shared)
    """
    static let keys = """
    enum Keys {
        static let shared = "shared-secret-key-0123456789abcdef"
    }
    """

    static func tree() throws -> TemporaryTree {
        try TemporaryTree(["App/CryptoHelper.swift": helper, "App/Uploader.swift": caller, "App/Keys.swift": keys])
    }

    static func settings(_ result: ScanResult) -> [Finding] {
        result.findings.filter { ["MOAT-CRYP-202", "MOAT-CRYP-204", "MOAT-NET-208"].contains($0.ruleId) }
            .sorted { ($0.location.path, $0.location.line, $0.location.column) < ($1.location.path, $1.location.line, $1.location.column) }
    }

    @Test func aLiteralPassedToAHelperOfAnotherFileIsReportedInTheCaller() throws {
        let tree = try Self.tree()
        defer { tree.remove() }
        let findings = Self.settings(try tree.scan())
        let places: [String] = findings.map { "\($0.ruleId) \($0.location.path):\($0.location.line):\($0.location.column)" }
        let expected: [String] = ["MOAT-CRYP-202 App/Uploader.swift:2:56", "MOAT-CRYP-204 App/Uploader.swift:6:42",
                                  "MOAT-NET-208 App/Uploader.swift:9:14", "MOAT-CRYP-202 App/Uploader.swift:11:53"]
        #expect(places == expected, "\(findings.map(\.message))")
        let key = try #require(findings.first { $0.location.line == 2 })
        #expect(key.message == "A literal is passed to `CryptoHelper.encrypt(_:key:)` (CryptoHelper.swift:6), which uses it as the key of `SymmetricKey(data:)`: it is the same in every copy of the app and readable from the binary. Generate the key at run time and keep it in the Keychain.")
        #expect(key.severity == .high)
        #expect(key.related.map { "\($0.location.path):\($0.location.line) \($0.message)" } == [
            "App/CryptoHelper.swift:6 used as the key of `SymmetricKey(data:)` here",
            "App/CryptoHelper.swift:5 `keyData` is set here",
            "App/Uploader.swift:2 passed to `encrypt(_:key:)` here",
        ])
        let salt = try #require(findings.first { $0.ruleId == "MOAT-CRYP-204" })
        #expect(salt.severity == .medium)
        #expect(salt.message.hasPrefix("A literal is passed to `CryptoHelper.derive(_:salt:into:)` (CryptoHelper.swift:9), which uses it as the salt of `CCKeyDerivationPBKDF`: "))
        let tls = try #require(findings.first { $0.ruleId == "MOAT-NET-208" })
        #expect(tls.message == "`TLSv10` is passed to `makeSession(minimum:)` (CryptoHelper.swift:18), which sets `tlsMinimumSupportedProtocolVersion` with it, below TLS 1.2: a network attacker can downgrade the connection. Use TLS 1.2 or later.")
        #expect(tls.related.first.map { "\($0.location.path):\($0.location.line)" } == "App/CryptoHelper.swift:18")
        // A constant of a third file, passed to the helper: reported at the argument, with the constant's place.
        let shared = try #require(findings.first { $0.location.line == 11 })
        #expect(shared.message.hasPrefix("A literal written in Keys.swift:2 is passed to `CryptoHelper.encrypt(_:key:)` (CryptoHelper.swift:6)"))
        #expect(shared.related.last.map { "\($0.location.path):\($0.location.line) \($0.message)" } == "App/Keys.swift:2 the constant is written here")
    }

    @Test func theSameFindingsWarmColdAndWithAnyNumberOfJobs() throws {
        let tree = try Self.tree()
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("moat-cache-\(UUID().uuidString)")
        defer { tree.remove(); try? FileManager.default.removeItem(at: cache) }
        let cold = try tree.scan { $0.cacheDirectory = cache }
        let warm = try tree.scan { $0.cacheDirectory = cache }
        let one = try tree.scan { $0.jobs = 1 }
        let many = try tree.scan { $0.jobs = 8 }
        #expect(Self.settings(cold).count == 4)
        #expect(CacheAndParallelTests.signature(warm) == CacheAndParallelTests.signature(cold))
        #expect(CacheAndParallelTests.signature(one) == CacheAndParallelTests.signature(cold))
        #expect(CacheAndParallelTests.signature(many) == CacheAndParallelTests.signature(cold))
    }

    @Test func callersThatPassNoConstantOrCallAPrivateFunctionStayQuiet() throws {
        let tree = try TemporaryTree(["App/CryptoHelper.swift": Self.helper, "App/Caller.swift": """
        func upload(_ report: Data, key: String, keychain: Keychain) throws {
            _ = try CryptoHelper.encrypt(report, key: key)
            _ = try CryptoHelper.encrypt(report, key: keychain.string(forKey: "k") ?? "")
            _ = try CryptoHelper.hidden(report, key: Data("0123456789abcdef0123456789abcdef".utf8))
            _ = makeSession(minimum: .TLSv13)
        }
        """, "Tests/CryptoHelperTests.swift": """
        func testEncrypt() throws {
            _ = try CryptoHelper.encrypt(Data(), key: "0123456789abcdef0123456789abcdef")
        }
        """])
        defer { tree.remove() }
        // `hidden` is private to its file; the test's literal key is no key of the app.
        #expect(Self.settings(try tree.scan()).isEmpty)
    }
}
