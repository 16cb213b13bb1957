import MoatCore
import MoatFormats
import MoatSyntax

/// Everything the scan learned about the app, for rules that span files. Property lists are kept whole
/// (they are small); code files are kept as summaries because their trees are dropped after analysis.
public final class AppModel: @unchecked Sendable {
    public let plists: [PropertyListDocument]
    public let sources: [SourceSummary]
    /// Xcode projects found in the scan (`project.pbxproj`), with their `.xcconfig` files.
    public let projects: [XcodeProject]
    /// Storyboards and xibs: their web views and text fields.
    public let interfaceBuilderDocuments: [InterfaceBuilderDocument]
    /// The bundles the app is made of (see `AppModel+Project.swift`): one per app or extension target of
    /// the Xcode projects, or a single unit built from the loose files when there is no project.
    public let units: [AppUnit]
    /// Core Data models (`*.xcdatamodeld/*.xcdatamodel/contents`): entities and attributes.
    public let coreDataModels: [CoreDataModel]
    /// Info.plists, entitlements files and privacy manifests in an Xcode project's folder that no target uses
    /// (`AppUnit.unusedConfigurationPaths`): they ship in no bundle, and form no loose unit.
    public let unusedConfigurationPaths: [String]

    public init(plists: [PropertyListDocument], sources: [SourceSummary], projects: [XcodeProject] = [],
                interfaceBuilderDocuments: [InterfaceBuilderDocument] = [], coreDataModels: [CoreDataModel] = []) {
        self.coreDataModels = coreDataModels
        self.plists = plists
        self.sources = sources
        self.projects = projects
        self.interfaceBuilderDocuments = interfaceBuilderDocuments
        let unused = AppUnit.unusedConfigurationPaths(plists: plists, projects: projects, sources: sources)
        self.unusedConfigurationPaths = unused
        self.units = AppUnit.units(plists: plists, sources: sources, projects: projects,
                                   interfaceBuilderDocuments: interfaceBuilderDocuments, unused: Set(unused))
    }

    public var infoPlists: [PropertyListDocument] { plists.filter { $0.kind == .infoPlist } }
    public var entitlements: [PropertyListDocument] { plists.filter { $0.kind == .entitlements } }
    public var privacyManifests: [PropertyListDocument] { plists.filter { $0.kind == .privacyManifest } }

    /// The first place any source file references one of these names.
    public func firstReference(toAnyOf names: [String]) -> (path: String, position: SourcePosition, name: String)? {
        var best: (String, SourcePosition, String)?
        for source in sources {
            for name in names {
                if let position = source.referencedNames[name] {
                    if best == nil || (source.path, position.offset) < (best!.0, best!.1.offset) { best = (source.path, position, name) }
                }
            }
        }
        return best
    }

    /// Where a function with one of these full names is defined.
    public func definition(ofAnyOf names: [String]) -> (path: String, position: SourcePosition, name: String)? {
        for source in sources.sorted(by: { $0.path < $1.path }) {
            for name in names {
                if let position = source.definedFunctions[name] { return (source.path, position, name) }
            }
        }
        return nil
    }
}
