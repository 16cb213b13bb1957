import Foundation
import MoatSyntax

/// What the names a file mentions (`SourceNames`) let the engine skip, derived from the source tables:
/// a source that matches by a name's meaning rather than by an API cannot match in a file whose code
/// mentions no such name, so the engine does not ask each name it reads (it asked on every identifier and
/// member read and every call). The answers are the same either way; only the work differs.
///
/// - `namesMaySecrets`: some identifier of the file is a sensitive name (`SensitiveNaming.kind(ofName:)`)
///   or names an input field for a secret (`SensitiveNaming.isSecretInputField`). Without one, no variable,
///   parameter, property, member or call is a `sensitiveName` source (a declared type only narrows what a
///   name denotes), and no type of the file holds a secret property (`NamedValueFacts.secretTypes`).
///   Dictionary keys written as string literals are not identifiers: they are still asked (`keyTaint`).
/// - `mayHaveSecureFields`: the file mentions a `secureText` entry's flag or binding (`isSecureTextEntry`,
///   `setSecureTextEntry:`, `SecureField`); without one it makes no field secure.
struct SourceGates: Sendable {
    var namesMaySecrets: Bool
    var mayHaveSecureFields: Bool

    /// Every gate open: what the engine does without a names index.
    static let open = SourceGates(namesMaySecrets: true, mayHaveSecureFields: true)

    init(namesMaySecrets: Bool, mayHaveSecureFields: Bool) {
        self.namesMaySecrets = namesMaySecrets
        self.mayHaveSecureFields = mayHaveSecureFields
    }

    init(_ names: SourceNames) {
        namesMaySecrets = names.containsName(where: SensitiveNameVerdicts.shared.mayNameSecret)
        mayHaveSecureFields = names.containsAny(SourceNames.callNames(SensitiveSources.secureFlags.union(SensitiveSources.secureFieldBindings)))
    }
}

/// Whether one identifier may name sensitive data, remembered for the whole process: names repeat from
/// file to file (`view`, `data`, `completion`), and the answer depends on the name alone.
final class SensitiveNameVerdicts: @unchecked Sendable {
    static let shared = SensitiveNameVerdicts()

    /// Names remembered at most (generated code can have endless distinct names).
    static let limit = 200_000

    private let lock = NSLock()
    private var verdicts: [String: Bool] = [:]

    func mayNameSecret(_ name: String) -> Bool {
        lock.lock()
        if let known = verdicts[name] {
            lock.unlock()
            return known
        }
        lock.unlock()
        // `issuedByLogin: true` only widens (a cursor-named token a sign-in returned is a credential): the
        // gate must stay open wherever the engine could find one.
        let verdict = SensitiveNaming.kind(ofName: name, issuedByLogin: true) != nil || SensitiveNaming.isSecretInputField(name)
        lock.lock()
        if verdicts.count < Self.limit { verdicts[name] = verdict }
        lock.unlock()
        return verdict
    }
}
