import Foundation
import ZIPFoundation
import Zip

/// Monthly statement bundles: a ZIP archive the bank's server sends, unpacked into Documents/Statements.
/// The server (or anyone on the path) names the archive's entries: an entry named `../Library/…` must not
/// leave the folder (zip-slip).
enum StatementBundleInstaller {
    static let folder = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
        .appendingPathComponent("Statements")

    static func install(session: URLSession, bundleURL: URL) {
        session.downloadTask(with: bundleURL) { location, _, _ in
            guard let location, let archive = Archive(url: location, accessMode: .read) else { return }
            for entry in archive {
                let target = folder.appendingPathComponent(entry.path)
                _ = try? archive.extract(entry, to: target)    // MOAT-CODE-301: the entry name leaves the folder
            }
        }.resume()
    }

    static func installSafely(session: URLSession, bundleURL: URL) {
        session.downloadTask(with: bundleURL) { location, _, _ in
            guard let location, let archive = Archive(url: location, accessMode: .read) else { return }
            let root = folder.standardizedFileURL
            for entry in archive {
                let target = root.appendingPathComponent(entry.path).standardizedFileURL
                guard target.path.hasPrefix(root.path + "/") else { continue }
                _ = try? archive.extract(entry, to: target)    // safe: checked to stay inside the folder
            }
        }.resume()
    }

    static func installWithZip(session: URLSession, bundleURL: URL) {
        session.downloadTask(with: bundleURL) { location, _, _ in
            guard let location else { return }
            try? Zip.unzipFile(location, destination: folder, overwrite: true, password: nil)    // MOAT-CODE-301: no containment check
        }.resume()
    }

    static func installWithUnzipItem(session: URLSession, bundleURL: URL) {
        session.downloadTask(with: bundleURL) { location, _, _ in
            guard let location else { return }
            try? FileManager.default.unzipItem(at: location, to: folder)    // safe: ZIPFoundation checks every entry
        }.resume()
    }

    static func installStarterBundle() {
        guard let url = Bundle.main.url(forResource: "starter-statements", withExtension: "zip"),
              let archive = Archive(url: url, accessMode: .read) else { return }
        for entry in archive {
            _ = try? archive.extract(entry, to: folder.appendingPathComponent(entry.path))    // safe: the app's own archive
        }
    }
}
