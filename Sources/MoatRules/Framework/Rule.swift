import MoatCore
import MoatFormats
import MoatSyntax

/// A rule: one type, one file, carrying its own description (metadata and examples).
/// Rules are stateless values; the scanner creates one per analysis and may run it on many files.
public protocol Rule: Sendable {
    static var description: RuleDescription { get }
    init()
}

/// A rule over one Swift, Objective-C or C-family file, through the shared code model.
public protocol SourceRule: Rule {
    /// Languages this rule reads. Defaults to all.
    static var languages: Set<SourceLanguage> { get }
    func check(_ file: CodeFile, _ sink: inout FindingSink)
}

extension SourceRule {
    public static var languages: Set<SourceLanguage> { Set(SourceLanguage.allCases) }
}

/// A rule over one property list (Info.plist, .entitlements, PrivacyInfo.xcprivacy...).
public protocol PropertyListRule: Rule {
    /// Kinds of property list this rule reads.
    static var plistKinds: Set<PlistKind> { get }
    func check(_ plist: PropertyListDocument, _ sink: inout FindingSink)
}

/// A rule over the whole loaded app, for checks that span files.
public protocol AppRule: Rule {
    func check(_ app: AppModel, _ sink: inout FindingSink)
}

/// A rule over one Interface Builder document (storyboard or xib).
public protocol InterfaceBuilderRule: Rule {
    func check(_ document: InterfaceBuilderDocument, _ sink: inout FindingSink)
}
