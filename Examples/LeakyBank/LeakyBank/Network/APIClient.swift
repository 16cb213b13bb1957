import Foundation
import Network

enum APIClient {
    static let ratesURL = "http://rates.leakybank.example/v1/today"                    // MOAT-NET-209 (reported here)
    static let secureRatesURL = "https://rates.leakybank.example/v1/today"             // safe

    static func fetchRates() {
        guard let url = URL(string: ratesURL), let secure = URL(string: secureRatesURL) else { return }
        URLSession.shared.dataTask(with: url).resume()
        URLSession.shared.dataTask(with: secure).resume()
    }

    static func makeSession() -> URLSession {
        let configuration = URLSessionConfiguration.default
        configuration.tlsMinimumSupportedProtocolVersion = .TLSv10                     // MOAT-NET-208
        configuration.tlsMinimumSupportedProtocolVersion = .TLSv12                     // safe
        return URLSession(configuration: configuration)
    }

    static func evaluate(_ trust: SecTrust, pinned: SecCertificate) -> Bool {
        SecTrustSetAnchorCertificates(trust, [pinned] as CFArray)                      // MOAT-NET-206 (inventory)
        SecTrustSetAnchorCertificatesOnly(trust, false)                                // MOAT-NET-205
        return SecTrustEvaluateWithError(trust, nil)
    }
}
