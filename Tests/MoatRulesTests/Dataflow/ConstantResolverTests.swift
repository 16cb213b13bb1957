import Foundation
import Testing
import MoatCore
import MoatSyntax
@testable import MoatRules

/// `ConstantResolver`, the constants each file exports, the queries it leaves and how the linker and the
/// facts coding carry them.
struct ConstantResolverTests {
    /// The texts of the origins of the argument `name` of the first call named `call` in the source.
    static func origins(_ source: String, call: String, argument: Int = 0, name: String = "Test.swift") -> (texts: [String], steps: [[Int]], unit: SourceUnit) {
        let file = DataflowTestSupport.parse(source, name: name)
        let unit = SourceUnit(code: file)
        var found: (MoatSyntax.Expression, WalkContext)?
        file.forEachExpression { expression, context in
            guard found == nil, case .call(let callee, let arguments, _) = expression.kind, callee.name == call, argument < arguments.count else { return }
            found = (arguments[argument].value, context)
        }
        guard let (value, context) = found else { return ([], [], unit) }
        let origins = unit.constants.origins(of: value, in: context)
        return (origins.map { origin in
                    if let parameter = origin.parameter { return "parameter \(parameter.index) of \(parameter.function.fullName)" }
                    return origin.value.map { file.text($0.range) } ?? "external \(origin.external?.name ?? "?")"
                },
                origins.map { origin in origin.steps.map { $0.location.line } }, unit)
    }

    /// A parameter's default value is what a call that leaves the argument out passes; calls are matched
    /// to the parameters by label, defaulted ones may be left out.
    @Test func followsParameterDefaultsAndCallsThatOmitThem() {
        let result = Self.origins("""
        struct Factory {
            func make(timeout: Double = 30, minimum: tls_protocol_version_t = .TLSv11, log: Bool = false) {
                use(minimum)
            }
        }
        let a = Factory().make(timeout: 10)
        let b = Factory().make(minimum: .TLSv10, log: true)
        let c = Factory().make(log: true, minimum: .TLSv13)
        """, call: "use")
        // The parameter, its default (line 2), the call that passes one (line 7); the call with its labels
        // out of order fits no parameter list and is not followed.
        #expect(result.texts == ["parameter 1 of make(timeout:minimum:log:)", ".TLSv11", ".TLSv10"])
        #expect(result.steps == [[], [2], [7]])
        let plain = Self.origins("""
        func make(minimum: tls_protocol_version_t) { use(minimum) }
        let a = make(minimum: .TLSv12)
        """, call: "use")
        #expect(plain.texts == ["parameter 0 of make(minimum:)", ".TLSv12"])
    }

    @Test func followsLocalsStaticLetsReturnsAndParameters() {
        let result = Self.origins("""
        enum Policy {
            static let minimum = tls_protocol_version_t.TLSv10
            static var mutable = tls_protocol_version_t.TLSv10
        }
        func legacy() -> SSLProtocol { .tlsProtocol1 }
        func configure(_ value: tls_protocol_version_t, flag: Bool) {
            let chosen = flag ? value : Policy.minimum
            use(chosen, legacy(), Policy.mutable)
        }
        configure(.TLSv11, flag: true)
        """, call: "use")
        // The parameter itself (for callers in other files), what the call in this file passes, the static let.
        #expect(result.texts == ["parameter 0 of configure(_:flag:)", ".TLSv11", "tls_protocol_version_t.TLSv10"])
        // The ternary's local, then the call of `configure` (line 10) or the static let (line 2).
        #expect(result.steps == [[7], [7, 10], [7, 2]])
        let second = Self.origins("""
        enum Policy {
            static var mutable = tls_protocol_version_t.TLSv10
        }
        func legacy() -> SSLProtocol { .tlsProtocol1 }
        func configure() { use(legacy(), Policy.mutable) }
        """, call: "use", argument: 0)
        #expect(second.texts == [".tlsProtocol1"] && second.steps == [[4]])
        // A `var` the file sets again is not followed.
        let third = Self.origins("""
        enum Policy {
            static var mutable = tls_protocol_version_t.TLSv10
        }
        func configure() { use(Policy.mutable) }
        func modernize() { Policy.mutable = .TLSv12 }
        """, call: "use")
        #expect(third.texts == ["Policy.mutable"] && third.steps == [[]])
    }

    @Test func aLocalChangedInPlaceIsNotItsInitialValue() {
        let filled = Self.origins("""
        func encrypt() {
            var iv: [UInt8] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
            _ = SecRandomCopyBytes(kSecRandomDefault, iv.count, &iv)
            CCCrypt(op, alg, options, key, keyLength, iv, input, count, &output, outputCount, &moved)
        }
        """, call: "CCCrypt", argument: 5)
        #expect(filled.texts == ["iv"])
        let fixed = Self.origins("""
        func encrypt() {
            let iv: [UInt8] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
            CCCrypt(op, alg, options, key, keyLength, iv, input, count, &output, outputCount, &moved)
        }
        """, call: "CCCrypt", argument: 5)
        #expect(fixed.texts == ["[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]"])
    }

    @Test func namesItCannotResolveBecomeQueriesAndExportedConstantsAnswerThem() throws {
        let use = Self.origins("""
        func makeSession() {
            configuration.tlsMinimumSupportedProtocolVersion = NetworkPolicy.oldestTLS
            set(NetworkPolicy.oldestTLS, Keys.database, legacyVersion(), Data())
        }
        """, call: "set")
        #expect(use.texts == ["NetworkPolicy.oldestTLS"])
        let unit = use.unit
        var arguments: [Argument] = []
        unit.code.forEachExpression { expression, _ in
            guard case .call(let callee, let list, _) = expression.kind, callee.name == "set" else { return }
            arguments += list
        }
        for argument in arguments { _ = unit.constants.origins(of: argument.value, in: WalkContext()) }
        // `Data()` is an initializer, not a constant: no query.
        #expect(unit.constants.queries == ["NetworkPolicy.oldestTLS", "Keys.database", "legacyVersion"])
        let facts = try #require(unit.factsForOtherFiles)
        #expect(facts.constantQueries == ["Keys.database", "NetworkPolicy.oldestTLS", "legacyVersion"])

        let policy = SourceUnit(code: DataflowTestSupport.parse("""
        enum NetworkPolicy {
            static let oldestTLS: tls_protocol_version_t = .TLSv11
            static let modern: tls_protocol_version_t = .TLSv12
            static let name = "policy"
            static let endpoint = "https://api.example.com/v1"
        }
        enum Keys {
            static let database: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8, 9]
            static var changing: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8, 9]
        }
        func legacyVersion() -> SSLProtocol { .tlsProtocol1 }
        """, name: "Policy.swift"))
        let exported = try #require(policy.factsForOtherFiles).constants
        // TLS 1.2 is not a value any sink judges; a string shorter than 8 characters is not a key; a `var` is not constant.
        #expect(exported.map { "\($0.owner ?? "-").\($0.name)=\($0.value) @\($0.location.line)" } == [
            "NetworkPolicy.oldestTLS=symbol(\"TLSv11\") @2", "NetworkPolicy.endpoint=text(\"https://api.example.com/v1\") @5",
            "Keys.database=bytes(9) @8", "-.legacyVersion=symbol(\"tlsProtocol1\") @11",
        ])
        let other = SourceUnit(code: DataflowTestSupport.parse("""
        enum NetworkPolicy {
            static let oldestTLS: tls_protocol_version_t = .TLSv10
        }
        """, name: "Other.swift"))
        let contexts = CrossFileLinker(facts: [facts, policy.factsForOtherFiles], paths: ["Use.swift", "Policy.swift"]).contexts()
        #expect(contexts[0]?.constants.map { "\($0.location.path):\($0.name)" } == ["Policy.swift:database", "Policy.swift:oldestTLS", "Policy.swift:legacyVersion"])
        #expect(contexts[1] == nil)
        // Defined in two other files: ambiguous, not given.
        let ambiguous = CrossFileLinker(facts: [facts, policy.factsForOtherFiles, other.factsForOtherFiles],
                                        paths: ["Use.swift", "Policy.swift", "Other.swift"]).contexts()
        #expect(ambiguous[0]?.constants.map(\.name) == ["database", "legacyVersion"])

        // The facts coding carries constants and queries, in the index.
        var both = facts
        both.constants = exported
        let encoded = FactsCoding.encode(both)
        #expect(FactsCoding.decode(encoded) == both)
        #expect(FactsCoding.decodeIndex(encoded)?.constants == exported)
        #expect(FactsCoding.decodeIndex(encoded)?.constantQueries == facts.constantQueries)
        for length in stride(from: 0, to: encoded.count, by: 5) {
            #expect(FactsCoding.decode(Array(encoded.prefix(length))) == nil, "prefix of \(length) bytes")
        }
    }

    @Test func aFileWithNothingToTellLeavesNoFacts() {
        let unit = SourceUnit(code: DataflowTestSupport.parse("""
        struct Row { let title: String }
        func show(_ row: Row) { print(row.title) }
        """))
        #expect(unit.factsForOtherFiles == nil)
    }
}
