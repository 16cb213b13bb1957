import Foundation

/// The pinning delegate of the Italian TLS reference, as written: it answers through both the
/// challenge sender and the completion handler (MOAT-NET-204). Its acceptance is guarded by the pin check,
/// so MOAT-NET-201 stays quiet; MOAT-NET-206 lists it as custom trust handling.
final class PinnedSessionDelegate: NSObject, URLSessionDelegate {
    func urlSession(_ session: URLSession, didReceive challenge: URLAuthenticationChallenge, completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {

        if challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust {
            let serverTrust:SecTrust = challenge.protectionSpace.serverTrust!

            func acceptServerTrust() {
                let credential:URLCredential = URLCredential(trust: serverTrust)
                challenge.sender?.use(credential, for: challenge)
                completionHandler(.useCredential, URLCredential(trust: challenge.protectionSpace.serverTrust!))
            }

            let success = SSLTrustManager.shouldTrustServerTrust(serverTrust, forCert: "Server_Public_SSL_Cert")
            if success {
                acceptServerTrust()
                return
            }
        }
        else if challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodClientCertificate {
            completionHandler(.rejectProtectionSpace, nil);
            return
        }
        completionHandler(.cancelAuthenticationChallenge, nil)
    }
}

/// A "temporary" delegate for the staging server: accepts every certificate (MOAT-NET-201).
final class StagingSessionDelegate: NSObject, URLSessionDelegate {
    func urlSession(_ session: URLSession, didReceive challenge: URLAuthenticationChallenge, completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        guard let trust = challenge.protectionSpace.serverTrust else { return completionHandler(.performDefaultHandling, nil) }
        completionHandler(.useCredential, URLCredential(trust: trust))
    }
}

/// Safe: evaluate, then compare the pinned key, then accept; fail closed.
final class CheckedSessionDelegate: NSObject, URLSessionDelegate {
    let pinnedKey = Data()
    func urlSession(_ session: URLSession, didReceive challenge: URLAuthenticationChallenge, completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        guard let trust = challenge.protectionSpace.serverTrust, SecTrustEvaluateWithError(trust, nil),
              let key = SecTrustCopyKey(trust), let data = SecKeyCopyExternalRepresentation(key, nil) as Data?,
              data == pinnedKey else {
            completionHandler(.cancelAuthenticationChallenge, nil)
            return
        }
        completionHandler(.useCredential, URLCredential(trust: trust))
    }
}
