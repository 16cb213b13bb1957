import MoatCore
import MoatSyntax

// What the dataflow engine needs to know about other files, and what it tells about this one.
//
// Files are analyzed one at a time (and in parallel), so the engine cannot look into another file's
// functions. Instead each analysis leaves `DataflowFacts`: the functions the file defines (with what
// their returns do to their parameters), the calls it makes to functions it does not define while
// holding untrusted data, and its JSExport declarations. The scanner links the facts of every file
// (`CrossFileLinker`) into one `DataflowContext` per file, and analyzes again the files whose context
// says something new: a call resolves to a summarized function of another file (its return summary is
// applied where the call is), another file passes untrusted data to one of this file's functions (the
// parameter becomes a source, and findings are reported where the data is used, in this file), or a
// type of this file adopts a JSExport protocol declared in another file (a header).

/// A place in another file.
public struct ExternalLocation: Sendable, Hashable, Codable {
    public var path: String
    public var line: Int
    public var column: Int

    public init(path: String, line: Int, column: Int) {
        self.path = path
        self.line = line
        self.column = column
    }

    /// A place in this file, for its facts: the path is left empty (the facts are stored apart from the
    /// path, and the linker fills it in, see `resolved`).
    init(_ file: CodeFile, _ range: SourceRange) {
        self.init(path: "", line: range.start.line, column: range.start.column)
    }

    func resolved(_ path: String) -> ExternalLocation {
        self.path.isEmpty ? ExternalLocation(path: path, line: line, column: column) : self
    }

    /// `Importer.swift:12`, for messages.
    public var shortDescription: String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return "\(name):\(line)"
    }
}

/// How a function is called: Swift (labels), an Objective-C message (selector) or a C function.
public enum CallStyle: String, Sendable, Hashable, Codable {
    case swift, objc, c
}

/// A function defined with a body, as callers in other files see it.
public struct FunctionSignature: Sendable, Hashable, Codable, Comparable {
    public var style: CallStyle
    /// Swift base name, Objective-C selector, C name.
    public var name: String
    /// Swift `save(name:)`, Objective-C selector, C name.
    public var fullName: String
    /// Argument labels of the parameters (Swift), `nil` for none.
    public var labels: [String?]
    /// The type (or extension) the function belongs to.
    public var owner: String?

    public static func < (lhs: FunctionSignature, rhs: FunctionSignature) -> Bool {
        (lhs.style.rawValue, lhs.fullName, lhs.owner ?? "") < (rhs.style.rawValue, rhs.fullName, rhs.owner ?? "")
    }

    /// The key calls are looked up by: selector, C name or Swift base name.
    public var lookupName: String { style == .objc ? fullName : name }
}

/// A function of a file with what its returns do to its parameters.
public struct ExportedFunction: Sendable, Hashable, Codable {
    public var signature: FunctionSignature
    public var location: ExternalLocation
    /// Taints of the returned value; nil when the function returns its inputs as they came (callers then
    /// treat the call like any unknown call).
    public var returns: [PortableTaint]?
    /// Parameters the function validates before doing its work (`FunctionSummary.validatedParameters`):
    /// a caller's action through it is checked for those arguments.
    public var validatesParameters: [Int] = []

    public init(signature: FunctionSignature, location: ExternalLocation, returns: [PortableTaint]?, validatesParameters: [Int] = []) {
        self.signature = signature
        self.location = location
        self.returns = returns
        self.validatesParameters = validatesParameters
    }

    /// Callers need this function's summary: it transforms what it returns, or it validates a parameter.
    public var isSummarized: Bool { returns != nil || !validatesParameters.isEmpty }

    func resolved(_ path: String) -> ExportedFunction {
        var copy = self
        copy.location = location.resolved(path)
        copy.returns = returns?.map { $0.resolved(path) }
        return copy
    }
}

/// A source that entered in some file, in a form another file's analysis can carry.
public struct PortableSource: Sendable, Hashable, Codable {
    public var kind: String
    public var description: String
    public var confidence: Confidence
    public var isSystemFileURL: Bool
    public var location: ExternalLocation
}

public struct PortableStep: Sendable, Hashable, Codable {
    public var location: ExternalLocation
    public var message: String
}

/// A taint without ranges of its file: a parameter of the summarized function, or a real source.
public struct PortableTaint: Sendable, Hashable, Codable {
    public var parameter: Int?
    public var source: PortableSource?
    public var checks: [String]
    public var latent: [String]?
    public var resetsCallerChecks: Bool
    public var members: [String]
    public var steps: [PortableStep]
    /// The parameter's value went through a call no entry describes (`Taint.viaUnknownCall`).
    public var viaUnknownCall: Bool? = nil
}

/// What a call looks like, for resolving it to a function of another file.
public struct CallShape: Sendable, Hashable, Codable {
    public var style: CallStyle
    /// Swift base name, selector, C name.
    public var name: String
    /// Swift `save(name:)` from the argument labels.
    public var swiftName: String?
    public var labels: [String?]
    /// The receiver's type when known (`Importer.shared`, a local declared `Importer *`).
    public var receiverType: String?
    /// The call has a receiver other than `self`/`super`.
    public var hasReceiver: Bool
    /// The type the calling function belongs to.
    public var enclosingType: String?
}

extension CallShape {
    /// How another file's function sees a call of a file in `language` (the one definition, used by the
    /// dataflow engine and the constants' parameter sinks): the style from the language and the call's form,
    /// initializers not followed, `receiverType` asked only for a receiver other than `self`/`super`.
    static func of(_ expression: Expression, callee: Expression, arguments: [Argument], isMessageSend: Bool,
                   receiver: Expression?, language: SourceLanguage, enclosingType: String?,
                   receiverType: (Expression) -> String?) -> CallShape? {
        guard let name = callee.name, !name.isEmpty else { return nil }
        let style: CallStyle
        if isMessageSend {
            style = .objc
        } else if language.isCFamily {
            guard case .identifier = callee.unwrapped.kind else { return nil }
            style = .c
        } else {
            // Initializers (`Importer(name)`) are not followed.
            if receiver == nil, name.first?.isUppercase == true { return nil }
            style = .swift
        }
        var isSelf = false
        if let receiver, case .identifier(let root) = receiver.unwrapped.kind, ["self", "super", "Self"].contains(root) { isSelf = true }
        let type = isSelf ? nil : receiver.flatMap(receiverType)
        return CallShape(style: style, name: name, swiftName: style == .swift ? expression.swiftCallName : nil,
                         labels: arguments.map(\.label), receiverType: type, hasReceiver: receiver != nil && !isSelf,
                         enclosingType: enclosingType)
    }
}

/// A call to a function this file does not define, with untrusted data in some arguments.
public struct OutgoingCall: Sendable, Hashable, Codable {
    public struct Argument: Sendable, Hashable, Codable {
        public var index: Int
        public var taints: [PortableTaint]
    }
    public var call: CallShape
    public var location: ExternalLocation
    public var arguments: [Argument]
    public var confirmed: Bool
}

public struct JavaScriptProtocolFact: Sendable, Hashable, Codable {
    public var name: String
    public var methods: [String]
}

public struct TypeAdoption: Sendable, Hashable, Codable {
    public var name: String
    public var inherits: [String]
}

/// An XML document from outside parsed with a delegate of a named type (`XMLDocuments`): the callbacks of
/// that type, in whichever file implements them, receive the document's content.
public struct XMLDelegateUse: Sendable, Hashable, Codable {
    /// The delegate's type (`FeedParserDelegate`).
    public var type: String
    /// The document's taint: the real source it came from, with its path.
    public var document: PortableTaint
    /// Where the document is parsed (`parser.parse()`).
    public var location: ExternalLocation

    public init(type: String, document: PortableTaint, location: ExternalLocation) {
        self.type = type
        self.document = document
        self.location = location
    }

    func resolved(_ path: String) -> XMLDelegateUse {
        XMLDelegateUse(type: type, document: document.resolved(path), location: location.resolved(path))
    }
}

/// What one file's analysis tells the others.
public struct DataflowFacts: Sendable, Hashable, Codable {
    public var functions: [ExportedFunction] = []
    /// Lookup names of calls that resolved to no function of the file.
    public var calledNames: [String] = []
    /// The subset of `calledNames` whose arguments carry untrusted data.
    public var taintedCalls: [String] = []
    public var outgoing: [OutgoingCall] = []
    public var javaScriptProtocols: [JavaScriptProtocolFact] = []
    public var adoptions: [TypeAdoption] = []
    /// Types that have methods with bodies in this file.
    public var implementedTypes: [String] = []
    /// Constants other files may read (`ConstantExporter`).
    public var constants: [ExportedConstant] = []
    /// Names this file's settings rules could not resolve here (`Owner.name` or `name`, see
    /// `ConstantResolver`): the linker gives it the other files' constants of those names.
    public var constantQueries: [String] = []
    /// Parameters of this file's functions that reach a settings sink (`ParameterSink`): the linker gives
    /// them to the files that name the function.
    public var constantSinks: [ParameterSink] = []
    /// Core Data (`ManagedObjects`): this file's `@NSManaged` properties (`Owner.property`), and the receivers
    /// of its member assignments of sensitive data (a type name, or `.property` when the type is unknown).
    public var managedProperties: [String] = []
    public var sensitiveMemberWrites: [String] = []
    /// XML documents from outside this file parses with a delegate of a named type.
    public var xmlDelegates: [XMLDelegateUse] = []
    /// Structs, enums, actors and protocols declared here (`ManagedObjectFacts.valueTypes`): a class name
    /// another module also uses for a value type is ambiguous, and no managed object.
    public var valueTypes: [String] = []

    public init() {}
}

/// An untrusted value another file passes to a function of this file.
public struct DataflowSeed: Sendable, Hashable, Codable {
    public var function: FunctionSignature
    public var parameter: Int
    public var taint: PortableTaint
    /// Where the call is.
    public var call: ExternalLocation
    public var confirmed: Bool
}

/// What other files tell this file's analysis.
public struct DataflowContext: Sendable, Hashable, Codable {
    /// Functions of other files that calls of this file may resolve to (every candidate of each called
    /// name, so that an ambiguous name stays unresolved).
    public var functions: [ExportedFunction] = []
    public var seeds: [DataflowSeed] = []
    /// Methods of JSExport protocols, declared in other files, adopted by types implemented here.
    public var javaScriptExports: [JavaScriptProtocolFact] = []
    /// Constants of other files that this file's settings rules asked about.
    public var constants: [ExportedConstant] = []
    /// Parameters of other files' functions that reach a settings sink, for the functions this file names.
    public var constantSinks: [ParameterSink] = []
    /// Core Data managed-object classes of other files (or of the models) that this file assigns sensitive
    /// data to a property of, and `@NSManaged` properties of other files it assigns on a receiver of unknown type.
    public var managedObjects: [ManagedObjectType] = []
    public var managedProperties: [String] = []
    /// XML documents from outside that other files parse with a delegate of a type implemented here: its
    /// callbacks receive their content.
    public var xmlDocuments: [XMLDelegateUse] = []

    public init() {}

    public var isEmpty: Bool {
        functions.isEmpty && seeds.isEmpty && javaScriptExports.isEmpty && constants.isEmpty && constantSinks.isEmpty
            && managedObjects.isEmpty && managedProperties.isEmpty && xmlDocuments.isEmpty
    }
}

/// A Core Data managed-object class (`ManagedObjects`): declared in the scanned code as a subclass of
/// `NSManagedObject` (or owning `@NSManaged` properties), or the class of an entity of a Core Data model.
public struct ManagedObjectType: Sendable, Hashable, Codable {
    public var name: String
    /// The entity's model (the current version), when a model of the scan has an entity of this class.
    public var entity: String?
    /// The model's store is opened with complete file protection, or the Data Protection entitlement makes
    /// Complete the default (`CoreDataSecretAttributeRule`): what is written there is not readable while
    /// the device is locked.
    public var isProtected: Bool
    /// The entity's secret-named attributes in the model, where MOAT-STOR-209 reports them.
    public var modelAttributes: [ModelAttribute]

    public init(name: String, entity: String? = nil, isProtected: Bool = false, modelAttributes: [ModelAttribute] = []) {
        self.name = name
        self.entity = entity
        self.isProtected = isProtected
        self.modelAttributes = modelAttributes
    }
}

/// An attribute of a Core Data model, at its `<attribute` element.
public struct ModelAttribute: Sendable, Hashable, Codable {
    public var name: String
    public var location: ExternalLocation

    public init(name: String, location: ExternalLocation) {
        self.name = name
        self.location = location
    }
}

/// Resolution of a call against functions of other files. Precision first: a call resolves only when
/// exactly one function fits its name, labels and what is known of its receiver.
public enum CrossFileResolver {
    /// The index of the function among `candidates`, and the argument index of each parameter.
    public static func resolve(_ call: CallShape, among candidates: [FunctionSignature]) -> (Int, [Int: Int])? {
        var matches: [(Int, [Int: Int])] = []
        for (index, candidate) in candidates.enumerated() where candidate.style == call.style {
            guard let mapping = mapping(call, candidate), fits(call, candidate) else { continue }
            matches.append((index, mapping))
        }
        return matches.count == 1 ? matches[0] : nil
    }

    static func mapping(_ call: CallShape, _ candidate: FunctionSignature) -> [Int: Int]? {
        let identity = Dictionary(uniqueKeysWithValues: (0..<call.labels.count).map { ($0, $0) })
        switch call.style {
        case .objc:
            return candidate.fullName == call.name && candidate.labels.count == call.labels.count ? identity : nil
        case .c:
            return candidate.name == call.name && candidate.labels.count == call.labels.count ? identity : nil
        case .swift:
            guard candidate.name == call.name else { return nil }
            if let swiftName = call.swiftName, swiftName == candidate.fullName, candidate.labels.count == call.labels.count {
                return identity
            }
            // Defaulted parameters, trailing closures: labels in order.
            guard candidate.labels.count >= call.labels.count else { return nil }
            var mapping: [Int: Int] = [:]
            var argument = 0
            for (parameter, label) in candidate.labels.enumerated() where argument < call.labels.count {
                if call.labels[argument] == label {
                    mapping[parameter] = argument
                    argument += 1
                }
            }
            return argument == call.labels.count ? mapping : nil
        }
    }

    private static func fits(_ call: CallShape, _ candidate: FunctionSignature) -> Bool {
        if call.style == .c { return candidate.owner == nil }
        if let type = call.receiverType { return candidate.owner == type }
        if !call.hasReceiver { return candidate.owner == nil || candidate.owner == call.enclosingType }
        return candidate.owner != nil
    }
}

// MARK: - Conversions

extension Taint {
    /// This taint for another file's analysis.
    func portable(in file: CodeFile) -> PortableTaint {
        var parameter: Int?
        var source: PortableSource?
        switch origin {
        case .parameter(let index, _): parameter = index
        case .source(let hit):
            source = PortableSource(kind: hit.kind.rawValue, description: hit.description, confidence: hit.confidence,
                                    isSystemFileURL: hit.isSystemFileURL, location: hit.external ?? ExternalLocation(file, hit.range))
        }
        return PortableTaint(parameter: parameter, source: source, checks: checks.map(\.rawValue).sorted(),
                             latent: latent.map { $0.sorted() }, resetsCallerChecks: resetsCallerChecks,
                             members: members.sorted(),
                             steps: parameter != nil ? [] : Self.kept(steps).map { PortableStep(location: $0.external ?? ExternalLocation(file, $0.range), message: $0.message) },
                             viaUnknownCall: viaUnknownCall ? true : nil)
    }

    /// The steps another file's finding shows: the first two and the last six.
    static func kept(_ steps: [PathStep]) -> [PathStep] {
        steps.count <= 8 ? steps : Array(steps.prefix(2) + steps.suffix(6))
    }
}

extension PortableTaint {
    func resolved(_ path: String) -> PortableTaint {
        var copy = self
        if let location = source?.location { copy.source?.location = location.resolved(path) }
        copy.steps = steps.map { PortableStep(location: $0.location.resolved(path), message: $0.message) }
        return copy
    }

    var checkSet: Set<TaintCheck> { Set(checks.compactMap(TaintCheck.init(rawValue:))) }

    /// A real source entering this file at `range` (a call or a function name).
    func sourceTaint(at range: SourceRange, suffix: String, passedIn: Bool) -> Taint? {
        guard let source, let kind = SourceKind(rawValue: source.kind) else { return nil }
        var hit = SourceHit(kind: kind, description: source.description + suffix, range: range, confidence: source.confidence,
                            isSystemFileURL: source.isSystemFileURL, external: source.location)
        hit.passedIn = passedIn
        var taint = Taint(origin: .source(hit))
        taint.checks = checkSet
        taint.latent = latent.map(Set.init)
        taint.members = Set(members)
        for step in steps { taint.append(PathStep(range: range, message: step.message, external: step.location)) }
        return taint
    }
}
