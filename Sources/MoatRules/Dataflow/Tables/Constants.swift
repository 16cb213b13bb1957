import MoatCore
import MoatSyntax

/// The constants table: which written values the settings rules judge, and how a literal becomes bytes on
/// its way to a cipher. `ConstantResolver` follows names and names no API; `ConstantValue.of` reads an
/// origin with this table; `ConstantExporter` exports to other files only the constants of these shapes.
public enum ConstantTables {
    /// TLS and SSL protocol versions below TLS 1.2 (`tls_protocol_version_t`, `SSLProtocol`, their C names).
    public static let weakTLSVersions: Set<String> = [
        "TLSv10", "TLSv11", "DTLSv10", "tlsProtocol1", "tlsProtocol11", "sslProtocol3", "sslProtocol2", "sslProtocolAll",
        "kTLSProtocol1", "kTLSProtocol11", "kSSLProtocol3", "kSSLProtocol2", "kSSLProtocolAll", "kDTLSProtocol1",
        "tls_protocol_version_TLSv10", "tls_protocol_version_TLSv11", "tls_protocol_version_DTLSv10",
        // Stream socket security levels that name SSL 2, SSL 3 or TLS 1.0 (`StreamSocketSecurityLevel`,
        // `NSStreamSocketSecurityLevel…`, `kCFStreamSocketSecurityLevel…`).
        "tlSv1", "ssLv3", "ssLv2", "NSStreamSocketSecurityLevelTLSv1", "NSStreamSocketSecurityLevelSSLv3",
        "NSStreamSocketSecurityLevelSSLv2", "kCFStreamSocketSecurityLevelTLSv1", "kCFStreamSocketSecurityLevelSSLv3",
        "kCFStreamSocketSecurityLevelSSLv2",
    ]

    /// Enum cases and C constants exported to other files as constants (the values a sink judges by name).
    public static let symbols: Set<String> = weakTLSVersions

    /// Members that turn a string into its bytes (`"…".utf8`, `[s UTF8String]`).
    public static let byteMembers: Set<String> = ["utf8", "bytes", "UTF8String", "utf8CString"]
    /// Methods whose receiver's bytes they return (`"…".data(using: .utf8)`, `[s dataUsingEncoding:]`).
    public static let byteMethods: Set<String> = Set(["data", "UTF8String", "cString", "bytes"]
        + APIs.stringData.selectors + APIs.stringCString.selectors)
    /// Initializers and functions whose first argument's bytes they return (`Data("…".utf8)`,
    /// `Data(base64Encoded: "…")`, `Array("…".utf8)`, `[NSData dataWithBytes:length:]`).
    public static let byteInitializers: Set<String> = [
        "Data", "NSData", "Array", "init", "SymmetricKey", APIs.dataFromBase64.selectors[0],
        APIs.dataFromBytes.selectors[0], // the class method dataWithBytes:length:
    ]
    /// Byte arrays shorter than this are not keys, IVs or salts.
    public static let minimumByteCount = 8

    /// Types whose `(count:)` and `(repeating:count:)` initializers make a buffer of one repeated byte.
    public static let repeatedByteTypes: Set<String> = ["Data", "NSMutableData"]

    /// Uses of a local that change its contents in place (`SecRandomCopyBytes(…, &iv)`,
    /// `iv.withUnsafeMutableBytes { … }`): a local used so is not the constant it was initialized with.
    public static let inPlaceWriters: Set<String> = [
        "withUnsafeMutableBytes", "withUnsafeMutableBufferPointer", "mutableBytes", "resetBytes", "replaceSubrange", "append",
    ]

    /// C calls that only read a bare array argument (at these positions; every position when empty). A C
    /// array passed bare to any other call is a pointer the callee may fill (`SecRandomCopyBytes(…, iv)`,
    /// `arc4random_buf(iv, 16)`, `CCRandomGenerateBytes`, `memcpy(iv, …)`): it is not the constant it was
    /// initialized with. `memset`/`bzero` leave it a constant.
    public static let readOnlyArguments: [String: Set<Int>] = {
        var result: [String: Set<Int>] = [
            "CCCryptorUpdate": [1], "memcmp": [], "strcmp": [], "strlen": [],
            "sizeof": [], "memset": [], "bzero": [], "CFDataCreate": [1],
            APIs.dataWithoutCopy.selectors[0]: [], APIs.dataWithoutCopy.selectors[1]: [],
            APIs.dataWithoutCopy.selectors[2]: [],
            APIs.stringFromCString.selectors[0]: [], APIs.stringFromCString.selectors[1]: [], APIs.stringFromCString.selectors[2]: [],
        ]
        // The C functions of the vocabulary, each with the positions of the buffers it reads: CommonCrypto's
        // key, IV and input (see the signatures in APIs+Crypto.swift), a copy's source, every argument of a log.
        let functions: [(String, Set<Int>)] = [
            (APIs.commonCryptoCipher.cFunctions[0], [3, 5, 6]), // CCCrypt(op, alg, options, key, keyLength, iv, dataIn, ...)
            (APIs.commonCryptoCipher.cFunctions[1], [3, 5]), // CCCryptorCreate(op, alg, options, key, keyLength, iv, ref)
            (APIs.commonCryptoCipherWithMode.cFunctions[0], [4, 5, 7]), // CCCryptorCreateWithMode(op, mode, alg, padding, iv, key, keyLength, tweak, ...)
            (APIs.commonCryptoPBKDF.cFunctions[0], [1, 3]), // CCKeyDerivationPBKDF(alg, password, passwordLength, salt, ...)
            (APIs.commonCryptoHMAC.cFunctions[0], [1, 3]), // CCHmac(alg, key, keyLength, data, ...)
            (APIs.commonCryptoHMAC.cFunctions[1], [2]), // CCHmacInit(context, alg, key, keyLength)
            (APIs.secKeyCreateWithData.cFunctions[0], [0]), // SecKeyCreateWithData(data, attributes, error)
            (APIs.memoryCopyC.cFunctions[0], [1]), (APIs.memoryCopyC.cFunctions[1], [1]), // memcpy, memmove
            (APIs.stringCopyC.cFunctions[0], [1]), // strcpy
            (APIs.boundedCopyC.cFunctions[0], [1]), (APIs.boundedCopyC.cFunctions[1], [1]), // strncpy, strlcpy
            (APIs.formattedLogC.cFunctions[0], []), (APIs.formattedLogC.cFunctions[2], []), // NSLog, printf
        ]
        for (name, positions) in functions { result[name] = positions }
        // `[NSData dataWithBytes:iv length:16]` copies the bytes.
        for selector in APIs.dataFromBytes.selectors { result[selector] = [] }
        return result
    }()

    /// The positions where a C call only reads a bare array argument (empty: every position), nil when the
    /// call may fill it.
    public static func readsArguments(_ name: String) -> Set<Int>? { readOnlyArguments[name] }
}

/// A value a settings rule can judge: an enum case or C constant by name, a string, or literal bytes.
public enum ConstantValue: Sendable, Hashable, Codable {
    case symbol(String)
    case text(String)
    case bytes(Int)

    /// The value an expression is written as, through byte conversions (`"…".data(using:)`,
    /// `Data(base64Encoded: "…")`, `Array("…".utf8)`, `[UInt8]("…".utf8)`), when it is one of the table's
    /// shapes.
    /// In C (`cFamily`), a brace list of zeroes (`uint8_t iv[16] = {0};`) fills its whole array with zero
    /// bytes, whatever its length.
    public static func of(_ expression: Expression, symbols: Set<String> = ConstantTables.symbols, cFamily: Bool = false,
                          depth: Int = 0) -> (value: ConstantValue, literal: Expression)? {
        guard depth < 8 else { return nil }
        let current = expression.strippedOfCasts
        switch current.kind {
        case .stringLiteral:
            return current.stringValue.map { (.text($0), current) }
        case .arrayLiteral(let elements) where cFamily && elements.count < ConstantTables.minimumByteCount:
            // `{0}`, `{0x00, 0}`: zero-filled. Elements written directly (not `@0` of an `@[…]` literal).
            guard !elements.isEmpty, elements.allSatisfy({
                if case .integerLiteral(let text) = $0.kind { return text.allSatisfy { "0xX".contains($0) } && text.contains("0") }
                return false
            }) else { return nil }
            return (.bytes(0), current)
        case .arrayLiteral(let elements):
            guard elements.count >= ConstantTables.minimumByteCount,
                  elements.allSatisfy({ if case .integerLiteral = $0.unwrapped.kind { true } else { false } }) else { return nil }
            return (.bytes(elements.count), current)
        case .identifier(let name) where symbols.contains(name):
            return (.symbol(name), current)
        case .member(_, let name) where symbols.contains(name):
            return (.symbol(name), current)
        case .call(let callee, let arguments, _) where isRepeatedByte(callee, arguments):
            // `[UInt8](repeating: 0, count: 16)`, `Data(count: 16)`: the same bytes every time.
            let count = arguments.first { $0.label == "count" }.flatMap { if case .integerLiteral(let text) = $0.value.unwrapped.kind { Int(text) } else { nil } }
            // A byte or two is a marker, not a key, IV or salt.
            if let count, count < ConstantTables.minimumByteCount { return nil }
            return (.bytes(count ?? 0), current)
        default:
            return conversionOperand(current).flatMap { of($0, symbols: [], cFamily: cFamily, depth: depth + 1) }
        }
    }

    /// A buffer of one repeated literal byte: `[UInt8](repeating: 0, count: n)`, `Data(repeating: 0, count: n)`,
    /// `Data(count: n)` (zeroes). Only a constant while nothing fills it (`ConstantTables.inPlaceWriters`,
    /// `&buffer` and subscript stores stop the resolver first).
    static func isRepeatedByte(_ callee: Expression, _ arguments: [Argument]) -> Bool {
        let labels = arguments.map(\.label)
        let repeatsLiteral = arguments.first.map { if case .integerLiteral = $0.value.unwrapped.kind { true } else { false } } ?? false
        switch callee.unwrapped.kind {
        case .arrayLiteral(let elements):
            return elements.count == 1 && labels == ["repeating", "count"] && repeatsLiteral
        case .identifier(let name) where ConstantTables.repeatedByteTypes.contains(name):
            return labels == ["count"] || (labels == ["repeating", "count"] && repeatsLiteral)
        default:
            return false
        }
    }

    /// What a byte conversion converts (`"…".utf8` → `"…"`, `Data(x)` → `x`, `s.data(using:)` → `s`).
    public static func conversionOperand(_ expression: Expression) -> Expression? {
        let current = expression.strippedOfCasts
        switch current.kind {
        case .member(let base?, let name) where ConstantTables.byteMembers.contains(name):
            return base
        case .call(let callee, let arguments, _):
            // `[UInt8]("...".utf8)`: the array type parses as an array literal callee.
            if case .arrayLiteral = callee.unwrapped.kind { return arguments.first?.value }
            guard let name = callee.name else { return nil }
            if ConstantTables.byteMethods.contains(name) { return callee.receiver }
            if ConstantTables.byteInitializers.contains(name) { return arguments.first?.value }
            return nil
        default:
            return nil
        }
    }
}

/// A constant of one file that other files may read: a global or a type's `let`, or a function or computed
/// property of one `return`, whose value is one of `ConstantTables`' shapes.
public struct ExportedConstant: Sendable, Hashable, Codable {
    /// The type it belongs to (nil for a global or a free function).
    public var owner: String?
    public var name: String
    public var value: ConstantValue
    /// Where the value is written.
    public var location: ExternalLocation

    public init(owner: String?, name: String, value: ConstantValue, location: ExternalLocation) {
        self.owner = owner
        self.name = name
        self.value = value
        self.location = location
    }

    func resolved(_ path: String) -> ExportedConstant {
        var copy = self
        copy.location = location.resolved(path)
        return copy
    }
}

/// The constants a file exports (`ExportedConstant`): cheap, declarations only.
public enum ConstantExporter {
    /// At most this many constants per file (generated files of thousands of strings).
    static let maximumPerFile = 200
    /// Strings longer than this are not keys.
    static let maximumTextLength = 512

    public static func constants(of file: CodeFile) -> [ExportedConstant] {
        var result: [ExportedConstant] = []
        func note(_ variable: VariableDeclaration, owner: String?) {
            guard result.count < maximumPerFile else { return }
            let value: Expression?
            if let initializer = variable.initializer {
                value = variable.isConstant || file.language != .swift ? initializer : nil
            } else {
                value = variable.accessors.count == 1 ? ConstantResolver.singleReturn(variable.accessors[0]) : nil
            }
            guard let value else { return }
            export(variable.name, value, owner: owner)
        }
        func export(_ name: String, _ value: Expression, owner: String?) {
            guard let (constant, literal) = ConstantValue.of(value, cFamily: file.language.isCFamily) else { return }
            if case .text(let text) = constant, text.count < ConstantTables.minimumByteCount || text.count > maximumTextLength { return }
            result.append(ExportedConstant(owner: owner, name: name, value: constant,
                                           location: ExternalLocation(path: "", line: literal.range.start.line, column: literal.range.start.column)))
        }
        for variable in file.declarations.flatMap(\.flattenedVariables) + file.macros { note(variable, owner: nil) }
        for type in file.allTypes {
            for variable in type.variables { note(variable, owner: type.name) }
        }
        for (function, owner) in file.allFunctions where function.parameters.isEmpty && result.count < maximumPerFile {
            guard let body = function.body, let value = ConstantResolver.singleReturn(body) else { continue }
            export(function.name, value, owner: owner?.name)
        }
        return result
    }
}

extension ExternalLocation {
    /// The place as a finding location.
    public var asLocation: Location { Location(path: path, line: line, column: column) }
}
