import Foundation
import Network

/// Sessions for the branch servers: the unsafe ones take their TLS floor from TransportPolicy's legacy
/// constants, the safe one from its TLS 1.2 constant.
enum TransportSettings {
    static func legacyBranchSession() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.tlsMinimumSupportedProtocolVersion = TransportPolicy.legacyMinimum
        return URLSession(configuration: configuration)
    }

    static func oldTerminalSession() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.tlsMinimumSupportedProtocol = TransportPolicy.legacyProtocol()
        return URLSession(configuration: configuration)
    }

    static func branchSession() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.tlsMinimumSupportedProtocolVersion = TransportPolicy.modernMinimum
        return URLSession(configuration: configuration)
    }
}
