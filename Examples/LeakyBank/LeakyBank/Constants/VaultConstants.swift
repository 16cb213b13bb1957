import Foundation
import Network

/// Settings kept in constants and used in other files (VaultCipher.swift, TransportSettings.swift,
/// StatementVault.swift). The unsafe values are reported where they are used.
enum VaultConstants {
    /// Unsafe: a key written in the source, the same in every copy of the app.
    static let statementKey: [UInt8] = [0x6c, 0x65, 0x61, 0x6b, 0x79, 0x2d, 0x62, 0x61, 0x6e, 0x6b, 0x2d, 0x6b, 0x65, 0x79, 0x2d, 0x31]
    /// Unsafe: a fixed IV.
    static let statementIV = Array("statement-iv-001".utf8)
    /// Unsafe: a fixed salt for every user's PIN.
    static let pinSalt = "LeakyBank-PIN-salt"
}

enum TransportPolicy {
    /// Unsafe: TLS 1.0 kept for an old branch server.
    static let legacyMinimum = tls_protocol_version_t.TLSv10
    /// Safe twin: TLS 1.2.
    static let modernMinimum = tls_protocol_version_t.TLSv12

    /// Unsafe: the older SSLProtocol family, returned by a function.
    static func legacyProtocol() -> SSLProtocol { .tlsProtocol11 }
}
