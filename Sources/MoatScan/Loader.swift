import Foundation
import MoatCore
import MoatFormats
import MoatSyntax

/// A parsed artifact, alive only while its rules run.
public enum LoadedArtifact {
    case code(CodeFile)
    case propertyList(PropertyListDocument)
    /// Kinds whose loaders have not been written yet are skipped quietly.
    case unsupported
}

/// Reads and parses one discovered file. Every failure becomes a `ScanError` naming the file.
public struct Loader {
    /// Larger source files are skipped with an error: a generated 50 MB file is not app logic, and
    /// parsing it would cost ~47x its size in memory.
    public static let maximumSourceSize = 8 * 1024 * 1024

    public init() {}

    public func load(_ file: DiscoveredFile) -> Result<LoadedArtifact, ScanError> {
        switch file.kind {
        case .swift, .cFamily:
            switch readText(file, limit: Self.maximumSourceSize) {
            case .failure(let error): return .failure(error)
            case .success(let source):
                if file.kind == .swift {
                    return .success(.code(SwiftFrontEnd.parse(source: source, path: file.path)))
                }
                let language = SourceLanguage.of(fileName: file.url.lastPathComponent) ?? .objectiveC
                return .success(.code(CFamilyFrontEnd.parse(source: source, path: file.path, language: language)))
            }
        case .propertyList:
            do {
                let document = try PropertyListParser.parse(fileAt: file.url, path: file.path)
                return .success(.propertyList(document))
            } catch let error as PropertyListError {
                return .failure(ScanError(path: file.path, message: error.message))
            } catch {
                return .failure(ScanError(path: file.path, message: "cannot read property list: \(error.localizedDescription)"))
            }
        case .xcodeProject, .interfaceBuilder:
            return .success(.unsupported)
        }
    }

    func readText(_ file: DiscoveredFile, limit: Int) -> Result<String, ScanError> {
        let attributes = try? FileManager.default.attributesOfItem(atPath: file.url.path)
        if let size = (attributes?[.size] as? NSNumber)?.intValue, size > limit {
            return .failure(ScanError(path: file.path, message: "skipped: \(size) bytes is larger than the \(limit)-byte limit for source files"))
        }
        guard let data = FileManager.default.contents(atPath: file.url.path) else {
            return .failure(ScanError(path: file.path, message: "cannot read file: permission denied or unreadable"))
        }
        guard let text = String(validatingUTF8Data: data) else {
            return .failure(ScanError(path: file.path, message: "skipped: not UTF-8 text"))
        }
        return .success(text)
    }
}

extension String {
    /// Strict UTF-8 decoding: nil for invalid bytes instead of replacement characters.
    init?(validatingUTF8Data data: Data) {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
        self = text
    }
}
