import MoatCore
import MoatFormats
import MoatSyntax

/// A rule: one type, one file, carrying its own description (metadata and examples).
/// Rules are stateless values; the scanner creates one per analysis and may run it on many files.
public protocol Rule: Sendable {
    static var description: RuleDescription { get }
    init()

    // The rule as each kind it is, chosen when the conformance is compiled (the extensions below): the
    // analyzer sorts rules without dynamic casts, whose first conformance lookups cost more than sorting.
    var asSourceRule: (any SourceRule)? { get }
    var asPropertyListRule: (any PropertyListRule)? { get }
    var asAppRule: (any AppRule)? { get }
    var asBinaryRule: (any BinaryRule)? { get }
    var asInterfaceBuilderRule: (any InterfaceBuilderRule)? { get }
}

extension Rule {
    public var asSourceRule: (any SourceRule)? { nil }
    public var asPropertyListRule: (any PropertyListRule)? { nil }
    public var asAppRule: (any AppRule)? { nil }
    public var asBinaryRule: (any BinaryRule)? { nil }
    public var asInterfaceBuilderRule: (any InterfaceBuilderRule)? { nil }
}

extension SourceRule {
    public var asSourceRule: (any SourceRule)? { self }
}

extension PropertyListRule {
    public var asPropertyListRule: (any PropertyListRule)? { self }
}

extension AppRule {
    public var asAppRule: (any AppRule)? { self }
}

extension BinaryRule {
    public var asBinaryRule: (any BinaryRule)? { self }
}

extension InterfaceBuilderRule {
    public var asInterfaceBuilderRule: (any InterfaceBuilderRule)? { self }
}

/// A rule over one Swift, Objective-C or C-family file. Everything it may read about the file comes in
/// the unit: the code model (`unit.code`), the dataflow flows (`unit.flows(rule:)`, with what other files
/// told the analysis) and the names the code mentions (`unit.names`, for a cheap gate before walking).
public protocol SourceRule: Rule {
    /// Languages this rule reads. Defaults to all.
    static var languages: Set<SourceLanguage> { get }
    func check(_ unit: SourceUnit, _ sink: inout FindingSink)
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

/// A rule over one Mach-O image of a built app (`.ipa`, `.app`, `.xcarchive`) or a lone binary, with the
/// bundle it belongs to (see `BinaryImage`). Rules that also read source may adopt it too, so the same
/// weakness keeps the same id whether it is found in code or in a binary.
public protocol BinaryRule: Rule {
    func check(_ binary: BinaryImage, _ sink: inout FindingSink)
}

/// A rule over one Interface Builder document (storyboard or xib).
public protocol InterfaceBuilderRule: Rule {
    func check(_ document: InterfaceBuilderDocument, _ sink: inout FindingSink)
}
