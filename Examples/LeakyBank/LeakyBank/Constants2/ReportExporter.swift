import Foundation
import Security

/// Exports account reports through ReportSealer.swift. The unsafe exporter passes a key, a salt and a TLS
/// floor written here; the safe one a key from the Keychain, a random salt and TLS 1.3.
struct ReportExporter {
    func exportUnsafe(_ report: Data, passcode: String) throws -> (Data?, [UInt8], URLSession) {
        let sealed = try ReportSealer.seal(report, key: "report-export-key-0123456789abcd")
        let derived = ReportSealer.derive(passcode, salt: Array("report-salt-2024".utf8))
        let session = ReportSealer.session(minimum: .TLSv11)
        return (sealed, derived, session)
    }

    func exportSafe(_ report: Data, passcode: String, keychain: ReportKeychain) throws -> (Data?, [UInt8], URLSession) {
        let sealed = try ReportSealer.seal(report, key: keychain.exportKey())
        var salt = [UInt8](repeating: 0, count: 16)
        _ = SecRandomCopyBytes(kSecRandomDefault, salt.count, &salt)
        let derived = ReportSealer.derive(passcode, salt: salt)
        let session = ReportSealer.session(minimum: .TLSv13)
        return (sealed, derived, session)
    }
}

protocol ReportKeychain {
    func exportKey() -> String
}
