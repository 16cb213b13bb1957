import MoatCore
import MoatFormats
import MoatSyntax

/// Everything the scan learned about the app, for rules that span files. Property lists are kept whole
/// (they are small); code files are kept as summaries because their trees are dropped after analysis.
public final class AppModel: @unchecked Sendable {
    public let plists: [PropertyListDocument]
    public let sources: [SourceSummary]

    public init(plists: [PropertyListDocument], sources: [SourceSummary]) {
        self.plists = plists
        self.sources = sources
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
