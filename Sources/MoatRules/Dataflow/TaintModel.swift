import MoatCore
import MoatSyntax

// The values the dataflow engine passes around. A `Taint` is one untrusted origin with what happened to
// it on one path: the checks that path passed, the transformations it went through and the steps it took.
// A variable holds several taints when its value comes from several origins or several paths.

/// What kind of untrusted input a source produces. Rules use it to scope themselves (only URL-scheme input
/// matters for the URL-scheme action rule) and to word messages.
public enum SourceKind: String, Sendable, Hashable, CaseIterable {
    case urlScheme, universalLink, scriptMessage, javaScriptBridge, peerToPeer, network, cloudRecord, pasteboard
    case pickedDocument, shareExtension, pushNotification, cLibrary, remoteHandler
    /// Content read from a URL that is not provably a local file (`Data(contentsOf:)`, `NSString
    /// stringWithContentsOfURL:`): downloaded from wherever the URL points.
    case remoteContent
    /// A file or bundle URL the app built (not a flow that reaches sinks: see `FlowKind.localFile`).
    case localFileURL
    /// A value named as a secret or personal datum (`password`, `authToken`, `cardNumber`; `SensitiveNaming`),
    /// or a value of a type with such a property, encoded (a heuristic: medium confidence).
    case sensitiveName
    /// A value read from the Keychain (`SecItemCopyMatching`, Keychain wrapper libraries).
    case keychain
    /// The text of a secure text field (`isSecureTextEntry = true`, a SwiftUI `SecureField` binding).
    case secureTextEntry
    /// A value read back from the app's storage (`UserDefaults`, a file read by path; see `FlowKind.stored`).
    case storedValue

    /// Input an app receives through its URL scheme or universal links (MASTG "Testing Custom URL Schemes").
    public var isOpenedURL: Bool { self == .urlScheme || self == .universalLink }

    /// Input the user chose to hand to the app (pasted, picked, shared): opening or loading a URL from it
    /// is what the user asked for.
    public var isUserChosen: Bool { self == .pasteboard || self == .pickedDocument || self == .shareExtension }
}

/// Where untrusted data entered: one matched entry of the source table.
public struct SourceHit: Sendable, Hashable {
    public var kind: SourceKind
    /// A short phrase for messages: "the URL opened through application(_:open:options:)".
    public var description: String
    public var range: SourceRange
    public var confidence: Confidence
    /// A file URL the system created (document picker, a received resource's temporary copy): its path
    /// is not chosen by the sender, only its content and (real) file name are.
    public var isSystemFileURL: Bool
    /// Set when the input entered in another file and was passed to a function of this one: where it
    /// entered (`range` is then the function's name).
    public var external: ExternalLocation?
    /// Another file passed the input to a parameter of this function: it is what that caller passed, not
    /// what the function returns to its other callers.
    public var passedIn = false

    public init(kind: SourceKind, description: String, range: SourceRange, confidence: Confidence = .high,
                isSystemFileURL: Bool = false, external: ExternalLocation? = nil) {
        self.kind = kind
        self.description = description
        self.range = range
        self.confidence = confidence
        self.isSystemFileURL = isSystemFileURL
        self.external = external
    }
}

/// Checks a value passed and transformations it went through, on one path.
public enum TaintCheck: String, Sendable, Hashable, CaseIterable {
    // Path idiom (WWDC "path traversal").
    case lastPathComponent, rejectsDotDot, rejectsDot, rejectsEmpty
    case standardized, prefixChecked
    // Lengths and types (WWDC "buffer length").
    case upperBounded, lowerBounded, typeChecked
    // Integer overflow.
    case overflowChecked
    // Generic validation.
    case allowlisted, validated, hostChecked
    /// The URL's scheme was found equal to a fixed one (`url.scheme == "https"`, `["http", "https"].contains(url.scheme)`):
    /// a web link, not `file:`, `javascript:` or another app's scheme. Its host is still anyone's.
    case schemeChecked
    // Encodings that make a string inert in another language.
    case jsonEncoded, escaped
    /// Converted to a number, a UUID, a Boolean: no longer a string an attacker can shape.
    case numeric
    /// The size of an untrusted buffer (`data.count`), as opposed to a count read from the data.
    case measuredSize
    /// A class looked up by name was then checked for conformance to a protocol or a superclass.
    case protocolChecked
    /// A part of a URL chosen by whoever built it (query, fragment, path), not the URL itself.
    case urlPart
    /// Hashed or encrypted (`SHA256.hash`, `AES.GCM.seal`, `hashPassword(_:)`): no longer the secret in clear.
    case encrypted
    /// Found equal to a value the app holds (`state == storedState`, `[token isEqualToString:expected]`):
    /// an OAuth state or a nonce the app issued. Not an allowlist of constants, not a lookup of an item.
    case comparedWithValue
    /// A member, not itself named as a secret, of a record named for credentials (`credentials.wpcom?.siteURL`),
    /// also when the record came from a caller: not the secret the record's name suggests.
    case memberOfCredentials
    /// An entry name read from an archive (`entry.path`, `archive_entry_pathname`): chosen by whoever made
    /// the archive, even when the archive is a file the system created (`ArchiveEntries`).
    case archiveEntry

    /// Checks that lose their meaning when the value is transformed into another path or name.
    static let pathChecks: Set<TaintCheck> = [.rejectsDotDot, .rejectsDot, .rejectsEmpty, .prefixChecked, .allowlisted, .validated]
    /// Checks that describe a length (dropped when the value is transformed into another buffer).
    static let lengthChecks: Set<TaintCheck> = [.upperBounded, .lowerBounded]
}

/// One step along a dataflow path, shown as a related location.
public struct PathStep: Sendable, Hashable {
    public var range: SourceRange
    public var message: String
    /// Set for a step taken in another file (`range` is then meaningless).
    public var external: ExternalLocation?

    public init(range: SourceRange, message: String, external: ExternalLocation? = nil) {
        self.range = range
        self.message = message
        self.external = external
    }
}

/// Where a taint comes from: a real source, or (while a summary is computed) a parameter of the function.
public enum TaintOrigin: Sendable, Hashable {
    case source(SourceHit)
    case parameter(index: Int, name: String)

    public var source: SourceHit? {
        if case .source(let hit) = self { return hit }
        return nil
    }
}

/// An unchecked multiplication of an untrusted count.
public struct ProductInfo: Sendable, Hashable {
    public var range: SourceRange
    /// The count had an overflow-checked multiply or an upper bound before the multiplication.
    public var checked: Bool
}

public struct Taint: Sendable {
    public var origin: TaintOrigin
    public var checks: Set<TaintCheck> = []
    /// Members that make the value untrusted (`webpageURL` of an NSUserActivity); nil when it already is.
    public var latent: Set<String>?
    /// Access paths the value was stored in or read from (`name`, `components.host`): a check on one of
    /// them applies to this taint.
    public var lineage: Set<String> = []
    public var steps: [PathStep] = []
    /// Set when the value is (derived from) a multiplication of an untrusted count.
    public var product: ProductInfo?
    /// Set when the value is a class looked up from an untrusted name (the lookup's range).
    public var classLookup: SourceRange?
    /// For parameter taints: a transformation inside the function made the caller's checks meaningless
    /// (lastPathComponent, standardization).
    public var resetsCallerChecks = false
    /// For parameter taints: member names read along the way (to activate a caller's latent taint).
    public var members: Set<String> = []
    /// The value is an object that holds the tainted value in one of its members (`account` after
    /// `account.password = pin`, `FlowKind.fillsContainer`): the object carries it, its other members do not.
    public var isContained = false
    /// For parameter taints: the value went into a call no table entry or summary describes, as an argument,
    /// and the result is taken to carry it (kinds that do not pass through such calls drop it when the
    /// summary is applied: `FlowKind.passesThroughUnknownCalls`).
    public var viaUnknownCall = false

    public init(origin: TaintOrigin) {
        self.origin = origin
    }

    public var source: SourceHit? { origin.source }
    public var isActive: Bool { latent == nil }

    /// True when the value can no longer shape a string (number, size, encoded).
    public var isInertString: Bool {
        !checks.isDisjoint(with: [.numeric, .measuredSize, .jsonEncoded, .escaped])
    }

    static let maximumSteps = 12

    mutating func addStep(_ range: SourceRange, _ message: String) {
        if let last = steps.last, last.range == range, last.external == nil { return }
        append(PathStep(range: range, message: message))
    }

    mutating func append(_ step: PathStep) {
        steps.append(step)
        if steps.count > Self.maximumSteps { steps.remove(at: 3) }
    }

    func adding(_ check: TaintCheck) -> Taint {
        var copy = self
        copy.checks.insert(check)
        return copy
    }

    /// Identity for de-duplication: two taints with the same key behave the same at every sink.
    struct Key: Hashable {
        var origin: TaintOrigin
        var checks: Set<TaintCheck>
        var latent: Set<String>?
        var product: ProductInfo?
        var classLookup: SourceRange?
        var resets: Bool
        var contained: Bool
        var unknownCall: Bool
    }

    var key: Key {
        Key(origin: origin, checks: checks, latent: latent, product: product, classLookup: classLookup, resets: resetsCallerChecks,
            contained: isContained, unknownCall: viaUnknownCall)
    }
}

/// The taints of one value.
typealias TaintSet = [Taint]

extension Array where Element == Taint {
    /// Adds taints, merging those that behave the same (keeping the shorter path).
    mutating func merge(_ others: [Taint]) {
        for other in others {
            if let index = firstIndex(where: { $0.key == other.key }) {
                self[index].lineage.formUnion(other.lineage)
                self[index].members.formUnion(other.members)
                if other.steps.count < self[index].steps.count { self[index].steps = other.steps }
            } else {
                append(other)
            }
        }
        if count > 8 { compact() }
    }

    /// Keeps at most one taint per origin when a value collected too many. The merged taint keeps only the
    /// checks every merged path passed, so a path that missed a check is never hidden.
    private mutating func compact() {
        var merged: [Taint] = []
        for taint in self {
            if let index = merged.firstIndex(where: { $0.origin == taint.origin }) {
                merged[index].checks.formIntersection(taint.checks)
                merged[index].lineage.formUnion(taint.lineage)
                if merged[index].latent != nil, taint.latent == nil { merged[index].latent = nil }
                if merged[index].product == nil { merged[index].product = taint.product }
                if merged[index].classLookup == nil { merged[index].classLookup = taint.classLookup }
            } else {
                merged.append(taint)
            }
        }
        self = Array(merged.prefix(8))
    }

    func merging(_ others: [Taint]) -> [Taint] {
        var copy = self
        copy.merge(others)
        return copy
    }

    func mapTaints(_ transform: (inout Taint) -> Void) -> [Taint] {
        map { taint in
            var copy = taint
            transform(&copy)
            return copy
        }
    }

    var active: [Taint] { filter(\.isActive) }
    var real: [Taint] { filter { $0.source != nil } }
}
