import CryptoKit
import Foundation

/// Seals exported account reports and opens sessions to the report servers. The helpers take their key,
/// salt and TLS floor from their callers (ReportExporter.swift): what a caller passes decides.
enum ReportSealer {
    static func seal(_ report: Data, key: String) throws -> Data? {
        let keyData = Data(key.utf8)
        return try AES.GCM.seal(report, using: SymmetricKey(data: keyData)).combined
    }

    static func derive(_ passcode: String, salt: [UInt8]) -> [UInt8] {
        var derived = [UInt8](repeating: 0, count: 32)
        CCKeyDerivationPBKDF(CCPBKDFAlgorithm(kCCPBKDF2), passcode, passcode.utf8.count, salt, salt.count,
                             CCPseudoRandomAlgorithm(kCCPRFHmacAlgSHA256), 100_000, &derived, derived.count)
        return derived
    }

    static func session(minimum: tls_protocol_version_t) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.tlsMinimumSupportedProtocolVersion = minimum
        return URLSession(configuration: configuration)
    }
}
