import Foundation
import MoatCore
import MoatFormats
import MoatSyntax

/// A parsed artifact, alive only while its rules run.
public enum LoadedArtifact {
    case code(CodeFile)
    case propertyList(PropertyListDocument)
    case xcodeProject(XcodeProject)
    case interfaceBuilder(InterfaceBuilderDocument)
    case coreDataModel(CoreDataModel)
    case dependencyLock(DependencyLock)
    /// Kinds whose loaders have not been written yet are skipped quietly.
    case unsupported
}

/// Reads and parses one discovered file. Every failure becomes a `ScanError` naming the file.
public struct Loader: Sendable {
    /// Larger source files are skipped with an error: a generated 50 MB file is not app logic, and
    /// parsing it would cost ~47x its size in memory.
    public static let maximumSourceSize = 8 * 1024 * 1024

    public init() {}

    /// Largest property list, project or Interface Builder file read.
    public static let maximumDocumentSize = 64 * 1024 * 1024

    /// Reads a file's bytes, refusing files over the limit for their kind.
    public func read(_ file: DiscoveredFile) -> Result<Data, ScanError> {
        let limit = (file.kind == .swift || file.kind == .cFamily) ? Self.maximumSourceSize : Self.maximumDocumentSize
        let attributes = try? FileManager.default.attributesOfItem(atPath: file.url.path)
        if let size = (attributes?[.size] as? NSNumber)?.intValue, size > limit {
            return .failure(ScanError(path: file.path, message: "skipped: \(size) bytes is larger than the \(limit)-byte limit for this kind of file"))
        }
        guard let data = FileManager.default.contents(atPath: file.url.path) else {
            return .failure(ScanError(path: file.path, message: "cannot read file: permission denied or unreadable"))
        }
        return .success(data)
    }

    /// Reads and parses a file.
    public func load(_ file: DiscoveredFile) -> Result<LoadedArtifact, ScanError> {
        read(file).flatMap { load(file, data: $0) }
    }

    /// Parses a file whose bytes were already read.
    public func load(_ file: DiscoveredFile, data: Data) -> Result<LoadedArtifact, ScanError> {
        switch file.kind {
        case .swift, .cFamily:
            guard let source = String(validatingUTF8Data: data) else {
                return .failure(ScanError(path: file.path, message: "skipped: not UTF-8 text"))
            }
            if file.kind == .swift {
                if let reason = SwiftFrontEnd.refusalReason(source: source) {
                    return .failure(ScanError(path: file.path, message: reason))
                }
                return .success(.code(SwiftFrontEnd.parse(source: source, path: file.path)))
            }
            let language = SourceLanguage.of(fileName: file.url.lastPathComponent) ?? .objectiveC
            return .success(.code(CFamilyFrontEnd.parse(source: source, path: file.path, language: language)))
        case .propertyList where file.path.lowercased().hasSuffix(".json"):
            do {
                return .success(.propertyList(try JSONDocumentReader.parse(data: data, path: file.path)))
            } catch let error as PropertyListError {
                return .failure(ScanError(path: file.path, message: error.message))
            } catch {
                return .failure(ScanError(path: file.path, message: "cannot read JSON file: \(error.localizedDescription)"))
            }
        case .propertyList:
            do {
                return .success(.propertyList(try PropertyListParser.parse(data: data, path: file.path)))
            } catch let error as PropertyListError {
                return .failure(ScanError(path: file.path, message: error.message))
            } catch {
                return .failure(ScanError(path: file.path, message: "cannot read property list: \(error.localizedDescription)"))
            }
        case .xcodeProject:
            do {
                if XcodeGenSpec.isSpecFileName(file.url.lastPathComponent) {
                    // An XcodeGen spec; a `project.yml` of another tool is not read.
                    guard let project = try XcodeGenSpec.load(data: data, url: file.url, path: file.path) else { return .success(.unsupported) }
                    return .success(.xcodeProject(project))
                }
                return .success(.xcodeProject(try XcodeProject.load(data: data, url: file.url, path: file.path)))
            } catch let error as XcodeProjectError {
                return .failure(ScanError(path: file.path, message: error.message))
            } catch {
                return .failure(ScanError(path: file.path, message: "cannot read Xcode project: \(error.localizedDescription)"))
            }
        case .interfaceBuilder:
            do {
                return .success(.interfaceBuilder(try InterfaceBuilderDocument.parse(data: data, path: file.path)))
            } catch let error as InterfaceBuilderError {
                return .failure(ScanError(path: file.path, message: error.message))
            } catch {
                return .failure(ScanError(path: file.path, message: "cannot read Interface Builder document: \(error.localizedDescription)"))
            }
        case .coreDataModel:
            do {
                return .success(.coreDataModel(try CoreDataModel.parse(data: data, path: file.path)))
            } catch let error as CoreDataModelError {
                return .failure(ScanError(path: file.path, message: error.message))
            } catch {
                return .failure(ScanError(path: file.path, message: "cannot read Core Data model: \(error.localizedDescription)"))
            }
        case .dependencyLock:
            do {
                return .success(.dependencyLock(try DependencyLock.read(data: data, path: file.path)))
            } catch let error as DependencyLockError {
                return .failure(ScanError(path: file.path, message: error.message))
            } catch {
                return .failure(ScanError(path: file.path, message: "cannot read lock file: \(error.localizedDescription)"))
            }
        case .builtApp, .machO:
            // Read by `BuiltAppAnalysis`, which never loads the whole container.
            return .success(.unsupported)
        }
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
