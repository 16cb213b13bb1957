import MoatCore
import MoatSyntax

// The dataflow engine's knowledge of APIs lives in four tables, each in its own file of this folder:
//
// - `TaintSources` (Sources.swift): where a kind of flow starts.
// - `TaintSinks` (Sinks.swift): where it does harm, each with the rule that reports it.
// - `Transfers` (Transfers.swift): how values move through calls and member reads (builders, mutators,
//   conversions, encoders and escapers, closures that receive a collection's elements).
// - `Checks` (Checks.swift): what makes a value safe on a path (sanitizers, guards, allowlists, overflow
//   checks, confirmations).
//
// Every entry names its API once for every language that spells it (`APISpelling`) and the kinds of flow
// it applies to (`FlowKind`). The interpreter (`Interpreter*.swift`, `TaintEngine*.swift`) asks the tables
// through their precomputed indexes and contains no API names of its own.

/// A kind of value the engine follows from a source to a sink. A source starts one kind; transfers,
/// checks and sinks say which kinds they apply to. A new kind is a new case here plus the table entries
/// that start, move, check and stop it — not interpreter code.
public enum FlowKind: String, Sendable, Hashable, CaseIterable {
    /// Input an attacker controls, received through the app's entry points (URL schemes, script
    /// messages, JavaScript bridges, peers, the network, the pasteboard...).
    case untrusted
    /// Content from the network: what a server sent (a hostile server, or anyone on the path of plain
    /// HTTP, chooses it). Reported by the same sinks as `untrusted`.
    case remote
    /// A file or bundle URL the app built itself (`URL(fileURLWithPath:)`, `Bundle.main.url(forResource:)`,
    /// the Documents directory). No sink reports it: it proves that a URL read by a content reader
    /// (`Data(contentsOf:)`) is local, so the content is not `remote`.
    case localFile
    /// A secret or personal datum: a value named as one (`password`, `apiKey`, `cardNumber`; see
    /// `SensitiveNaming`), read from the Keychain, or typed into a secure text field. Reported by the
    /// storage, log, pasteboard and URL sinks (`Sinks+Sensitive.swift`), never by the injection sinks.
    case sensitive
    /// A value read back from the app's own storage (`UserDefaults`, a file read by path): whoever could
    /// write that storage chose it. Only class lookups report it (MOAT-CODE-303, at medium severity and low
    /// confidence: the app usually wrote the value itself).
    case stored

    /// How the first step of a reported path names where the value entered.
    var pathPhrase: String {
        switch self {
        case .untrusted: "untrusted input"
        case .remote: "data received from the network"
        case .localFile: "a local file URL"
        case .sensitive: "sensitive data"
        case .stored: "a value read back from storage"
        }
    }

    /// A kind that proves something about a value (`localFile`) rather than carrying harm: no sink reports it.
    var isProof: Bool { self == .localFile }

    /// A value the app holds (read back from its storage, or a local file URL): comparing input with it is a
    /// check (`comparedWithValue`: an OAuth state the app stored).
    var isHeldByTheApp: Bool { self == .stored || self == .localFile }

    /// A value of this kind stored into a member of an object makes the object carry it
    /// (`account.password = pin; realm.add(account)`): the object is written with the secret inside.
    /// Not for input kinds, where a member of an object is not the object.
    var fillsContainer: Bool { self == .sensitive }

    /// A value of this kind passed as an argument to a call no table entry or summary describes is taken to
    /// be in what the call returns. True for input, which shapes whatever is computed from it; false for
    /// sensitive data, which a call usually consumes (`postToServer(url:token:)` returns the server's answer,
    /// not the token): only initializers and the conversions of `Transfers.argumentConversions` pass it on.
    var passesThroughUnknownCalls: Bool { self != .sensitive }

    /// Every kind: what most transfers and checks apply to.
    static let every: Set<FlowKind> = Set(allCases)
    static let count = allCases.count
}

extension Set where Element == FlowKind {
    /// The entry applies to every kind of flow (the interpreter's fast path).
    var isEvery: Bool { count == FlowKind.count }
}

extension SourceKind {
    /// The kind of flow a source of this kind starts.
    public var flow: FlowKind {
        switch self {
        case .urlScheme, .universalLink, .scriptMessage, .javaScriptBridge, .peerToPeer, .cloudRecord, .pasteboard,
             .pickedDocument, .shareExtension, .pushNotification, .cLibrary, .remoteHandler:
            .untrusted
        case .network, .remoteContent:
            .remote
        case .localFileURL:
            .localFile
        case .sensitiveName, .keychain, .secureTextEntry:
            .sensitive
        case .storedValue:
            .stored
        }
    }
}

extension Taint {
    /// The kind of flow this taint is; nil for the symbolic taint of a parameter (while a summary is
    /// computed), which stands for whatever a caller passes.
    var flow: FlowKind? { source?.kind.flow }

    /// Whether a table entry that applies to `kinds` applies to this taint.
    func isAffected(by kinds: Set<FlowKind>) -> Bool {
        guard let flow else { return true }
        return kinds.contains(flow)
    }
}

extension Array where Element == Taint {
    /// Adds `check` to the taints whose kind of flow the entry applies to.
    func adding(_ checks: Set<TaintCheck>, for kinds: Set<FlowKind>) -> [Taint] {
        if kinds.isEvery {
            return map { taint in
                var copy = taint
                copy.checks.formUnion(checks)
                return copy
            }
        }
        return map { taint in
            guard taint.isAffected(by: kinds) else { return taint }
            var copy = taint
            copy.checks.formUnion(checks)
            return copy
        }
    }
}

/// How one API is spelled in each language Moat reads. A table entry names its API once per language;
/// the engine indexes every spelling.
struct APISpelling: Sendable, Hashable {
    /// Swift: base names of calls (`copyItem`), initializer type names (`WKUserScript`), member names, or
    /// full names of implemented methods (`application(_:open:options:)`), as the table's field says.
    var swift: [String]
    /// Objective-C selectors (`copyItemAtURL:toURL:error:`) or, for members, property names.
    var objc: [String]
    /// C functions (`memcpy`), also callable from Swift and Objective-C.
    var c: [String]

    init(swift: [String] = [], objc: [String] = [], c: [String] = []) {
        self.swift = swift
        self.objc = objc
        self.c = c
    }

    /// These spellings and more (for an API the vocabulary declares, with spellings it does not).
    func adding(swift: [String] = [], objc: [String] = [], c: [String] = []) -> APISpelling {
        APISpelling(swift: self.swift + swift.filter { !self.swift.contains($0) }, objc: self.objc + objc.filter { !self.objc.contains($0) },
                    c: self.c + c.filter { !self.c.contains($0) })
    }

    /// Every spelling, Swift first.
    var names: [String] { swift + objc + c }
    var isEmpty: Bool { swift.isEmpty && objc.isEmpty && c.isEmpty }
}

/// A rule on the words of a name (split by `CamelCase.words`, compared lowercased), for table entries that
/// match functions the app names itself (`isValidHost`, `sanitizeFileName`, `confirmTransfer`).
enum WordRule: Sendable, Hashable {
    /// The first word is one of these.
    case firstWord(Set<String>)
    /// Some word is one of these.
    case anyWord(Set<String>)
    /// Some word starts with this.
    case wordPrefix(String)
    /// The name contains this text, in any of the spellings listed (a substring, not a word).
    case substring([String])

    func matches(name: String, words: [String]) -> Bool {
        switch self {
        case .firstWord(let set): return words.first.map(set.contains) ?? false
        case .anyWord(let set): return words.contains(where: set.contains)
        case .wordPrefix(let prefix): return words.contains { $0.hasPrefix(prefix) }
        case .substring(let texts): return texts.contains { name.hasText($0) }
        }
    }
}
