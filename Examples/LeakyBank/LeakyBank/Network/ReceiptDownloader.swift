import Foundation

/// Receipts downloaded from the bank's server. The server (or anyone on the path) names the file: remote
/// content, followed by the dataflow engine like input from the app's entry points.
enum ReceiptDownloader {
    static let folder = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]

    static func downloadLatest(session: URLSession, server: URL) {
        let url = server.appendingPathComponent("receipts/latest")
        session.downloadTask(with: url) { location, response, _ in
            guard let location, let name = response?.suggestedFilename else { return }
            try? FileManager.default.moveItem(at: location, to: folder.appendingPathComponent(name))    // MOAT-CODE-301: the server picks the path
        }.resume()
    }

    static func downloadLatestSafely(session: URLSession, server: URL) {
        let url = server.appendingPathComponent("receipts/latest")
        session.downloadTask(with: url) { location, response, _ in
            guard let location, let suggested = response?.suggestedFilename,
                  let name = ReceiptNames.singleComponent(suggested) else { return }
            try? FileManager.default.moveItem(at: location, to: folder.appendingPathComponent(name))    // safe: one component
        }.resume()
    }

    static func saveNamedReceipt(_ receipt: Data, server: URL) {
        let nameURL = server.appendingPathComponent("receipts/latest/name")
        guard let name = try? String(contentsOf: nameURL, encoding: .utf8) else { return }
        try? receipt.write(to: folder.appendingPathComponent(name), options: .completeFileProtection)    // MOAT-CODE-301: downloaded name
    }

    static func saveDefaultReceipt(_ receipt: Data) {
        guard let nameURL = Bundle.main.url(forResource: "receipt-name", withExtension: "txt"),
              let name = try? String(contentsOf: nameURL, encoding: .utf8) else { return }
        try? receipt.write(to: folder.appendingPathComponent(name), options: .completeFileProtection)    // safe: a bundled file
    }
}
