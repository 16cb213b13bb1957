import Foundation

/// Streams branch queue updates from the branch server over a raw socket.
final class BranchFeedSocket {
    private var input: InputStream?
    private var output: OutputStream?

    func connect(host: String) {
        Stream.getStreamsToHost(withName: host, port: 8443, inputStream: &input, outputStream: &output)
        // Older branch servers only speak TLS 1.0.
        input?.setProperty(StreamSocketSecurityLevel.tlSv1, forKey: .socketSecurityLevelKey)
        output?.setProperty(StreamSocketSecurityLevel.negotiatedSSL, forKey: .socketSecurityLevelKey)
        input?.open()
        output?.open()
    }
}

/// Builds the sessions of the statement download service.
struct StatementSessionFactory {
    func make(timeout: TimeInterval = 30, minimumTLS: tls_protocol_version_t = .TLSv11) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.tlsMinimumSupportedProtocolVersion = minimumTLS
        return URLSession(configuration: configuration)
    }

    func makeModern(minimumTLS: tls_protocol_version_t = .TLSv12) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.tlsMinimumSupportedProtocolVersion = minimumTLS
        return URLSession(configuration: configuration)
    }
}
