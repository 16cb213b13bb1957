import MoatCore
import MoatFormats

// Rules that judge a binary by the C functions it imports. Only exact symbol names are matched (the
// leading underscore is the C name mangling); Swift functions have mangled names and are never matched.

public struct UnsafeCStringFunctionRule: BinaryRule {
    public static let description = RuleDescription(
        id: "MOAT-CODE-404", slug: "unsafe-c-string-function", title: "Unbounded C string function imported",
        severity: .low, confidence: .medium, evidence: .configuration, cwe: [676, 120],
        masvs: ["MASVS-CODE-4"], mastg: ["MASTG-TEST-0086"],
        rationale: "`strcpy`, `strcat`, `sprintf` and `vsprintf` write as many bytes as the input holds, whatever the size of the destination; `gets` reads a whole line into a buffer of unknown size and cannot be used safely at all. With the size known at compile time, clang's fortify checks replace them by `__strcpy_chk` and friends; an import of the plain function means at least one call copies without a bound. Whether the input can be longer than the buffer is not visible in the binary, so this is a prompt to review the calls.",
        fix: "Use the bounded forms with the destination size: `strlcpy`, `strlcat`, `snprintf`, `vsnprintf`, and `fgets` instead of `gets` (or Swift strings and `Data`).",
        references: ["https://developer.apple.com/library/archive/documentation/Security/Conceptual/SecureCodingGuide/Articles/BufferOverflows.html"],
        examples: [
            .triggering("Demo.app/Demo", """
            Mach-O executable arm64
            imports: _objc_msgSend ↓_strcpy _strlcpy ↓_sprintf ___strcat_chk
            """),
            .triggering("libreader.dylib", """
            Mach-O dylib arm64
            imports: _fopen ↓_gets
            """, note: "gets is reported with medium severity."),
            .nonTriggering("Demo.app/Demo", """
            Mach-O executable arm64
            imports: _strlcpy _strlcat _snprintf _vsnprintf ___strcpy_chk ___sprintf_chk _fgets
            """),
        ])

    public init() {}

    /// Each unbounded function as a binary imports it, with its bounded replacement.
    static let functions: [(symbol: String, replacement: String)] = [
        (APIs.stringCopyC.importedFunctionSymbols[0], APIs.boundedCopyC.cFunctions[1]), // strcpy, strlcpy
        (APIs.stringCopyC.importedFunctionSymbols[1], APIs.boundedCopyC.cFunctions[3]), // strcat, strlcat
        (APIs.unboundedFormatC.importedFunctionSymbols[0], APIs.boundedFormatC.cFunctions[0]), // sprintf, snprintf
        (APIs.unboundedFormatC.importedFunctionSymbols[1], APIs.boundedFormatC.cFunctions[1]), // vsprintf, vsnprintf
        (APIs.unboundedLineReadC.importedFunctionSymbols[0], APIs.streamLineRead.cFunctions[0]), // gets, fgets
    ]

    public func check(_ binary: BinaryImage, _ sink: inout FindingSink) {
        for (symbol, replacement) in Self.functions where binary.imports(symbol) {
            let name = String(symbol.dropFirst())
            if APIs.unboundedLineReadC.importedFunctionSymbols.contains(symbol) {
                sink.report("\(binary.name) imports gets, which reads a line of any length into a fixed buffer and cannot be used safely; use \(replacement) with the buffer size.",
                            in: binary, symbol: symbol, severity: .medium, confidence: .high)
            } else {
                sink.report("\(binary.name) imports \(name), which copies without a destination size: review its calls for input longer than the buffer, and use \(replacement).",
                            in: binary, symbol: symbol)
            }
        }
    }
}

public struct InsecureRandomImportRule: BinaryRule {
    public static let description = RuleDescription(
        id: "MOAT-CRYP-403", slug: "insecure-random-imported", title: "Predictable C random number generator imported",
        severity: .low, confidence: .low, cwe: [338],
        masvs: ["MASVS-CRYPTO-1"], mastg: ["MASTG-TEST-0063"],
        rationale: "`rand`, `random` and their seeding functions `srand` and `srandom` are linear generators: a few outputs reveal the sequence, and seeded with the time they are guessable. They are fine for shuffling a playlist and wrong for tokens, nonces, keys or passwords. Which use the binary makes is not visible, hence the low confidence. `arc4random`, `arc4random_buf` and `SecRandomCopyBytes` are cryptographically secure and are not reported.",
        fix: "Use `SecRandomCopyBytes`, `arc4random_buf`/`arc4random_uniform`, or Swift's `SystemRandomNumberGenerator` (the default for `Int.random(in:)`) for anything security-relevant.",
        references: ["https://developer.apple.com/documentation/security/1399291-secrandomcopybytes"],
        examples: [
            .triggering("Demo.app/Demo", """
            Mach-O executable arm64
            imports: _objc_msgSend ↓_srand ↓_rand _time
            """),
            .nonTriggering("Demo.app/Demo", """
            Mach-O executable arm64
            imports: _arc4random_buf _arc4random_uniform _SecRandomCopyBytes
            """),
        ])

    public init() {}

    static let functions = APIs.predictableRandomC.importedFunctionSymbols

    public func check(_ binary: BinaryImage, _ sink: inout FindingSink) {
        for symbol in binary.importedSymbols(among: Self.functions) {
            let name = String(symbol.dropFirst())
            sink.report("\(binary.name) imports \(name), a predictable generator: if its output protects anything (tokens, nonces, keys, identifiers), use SecRandomCopyBytes or arc4random_buf instead.",
                        in: binary, symbol: symbol)
        }
    }
}

public struct WeakHashImportRule: BinaryRule {
    public static let description = RuleDescription(
        id: "MOAT-CRYP-401", slug: "weak-hash-imported", title: "MD5 or SHA-1 from CommonCrypto imported",
        severity: .medium, confidence: .low, cwe: [328, 327],
        masvs: ["MASVS-CRYPTO-1"], mastg: ["MASTG-TEST-0061"],
        rationale: "MD2, MD4, MD5 and SHA-1 are broken for collision resistance: two inputs with the same digest can be forged, so they must not protect integrity, signatures or passwords. They remain acceptable for non-security checksums, cache keys and protocols that mandate them (the WebSocket handshake uses SHA-1), and the purpose is not visible in a binary: the finding has low confidence. CryptoKit's `Insecure.MD5` is Swift and is not matched here.",
        fix: "Use SHA-256 or stronger (`CC_SHA256`, CryptoKit `SHA256`) for integrity, HMAC-SHA256 for authentication, and a password hash (PBKDF2 with many rounds, scrypt, Argon2) for passwords.",
        references: ["https://developer.apple.com/documentation/cryptokit/sha256"],
        examples: [
            .triggering("Demo.app/Demo", """
            Mach-O executable arm64
            imports: _objc_msgSend ↓_CC_MD5 _CC_SHA256 ↓_CC_SHA1_Init
            """),
            .nonTriggering("Demo.app/Demo", """
            Mach-O executable arm64
            imports: _CC_SHA256 _CC_SHA512 _CCHmac
            """),
        ])

    public init() {}

    static let algorithms: [(name: String, symbols: [String])] = [
        ("MD2", APIs.commonCryptoMD2.importedFunctionSymbols), ("MD4", APIs.commonCryptoMD4.importedFunctionSymbols),
        ("MD5", APIs.commonCryptoMD5.importedFunctionSymbols), ("SHA-1", APIs.commonCryptoSHA1.importedFunctionSymbols),
    ]

    public func check(_ binary: BinaryImage, _ sink: inout FindingSink) {
        for algorithm in Self.algorithms {
            // One finding per algorithm, at its first imported function.
            guard let symbol = binary.importedSymbols(among: algorithm.symbols).first else { continue }
            sink.report("\(binary.name) imports \(symbol.dropFirst()) (\(algorithm.name)): if the digest protects integrity, a signature or a password, it can be forged; use SHA-256 or stronger.",
                        in: binary, symbol: symbol)
        }
    }
}

public struct CommonCryptoCipherInventoryRule: BinaryRule {
    public static let description = RuleDescription(
        id: "MOAT-CRYP-402", slug: "commoncrypto-cipher-inventory", title: "CommonCrypto symmetric cipher used",
        severity: .info, confidence: .high, cwe: [327],
        masvs: ["MASVS-CRYPTO-1"], mastg: ["MASTG-TEST-0061"],
        rationale: "`CCCrypt` and the `CCCryptor` functions take the algorithm (`kCCAlgorithmAES`, `kCCAlgorithmDES`, `kCCAlgorithm3DES`, `kCCAlgorithmRC4`...), the mode options (`kCCOptionECBMode`) and the IV as run-time arguments. They are constants compiled into the calls, not imported symbols, so a binary does not show whether DES, RC4, ECB mode or a fixed IV is used: the import is listed so the calls get reviewed (in source, Moat's code rules check the arguments).",
        fix: "Review each call: AES in an authenticated mode (CryptoKit `AES.GCM` or `ChaChaPoly`) with a random nonce, never DES, 3DES, RC4 or ECB mode, and keys from the Keychain rather than the binary.",
        references: ["https://developer.apple.com/documentation/cryptokit/aes/gcm"],
        isInventory: true,
        examples: [
            .triggering("Demo.app/Demo", """
            Mach-O executable arm64
            imports: _objc_msgSend ↓_CCCrypt _CC_SHA256
            """),
            .nonTriggering("Demo.app/Demo", """
            Mach-O executable arm64
            imports: _SecKeyCreateEncryptedData _CC_SHA256
            """),
        ])

    public init() {}

    static let functions = [APIs.commonCryptoCipher, APIs.commonCryptoCipherWithMode, APIs.commonCryptoCipherFromData]
        .flatMap(\.importedFunctionSymbols)

    public func check(_ binary: BinaryImage, _ sink: inout FindingSink) {
        let found = binary.importedSymbols(among: Self.functions)
        guard let first = found.first else { return }
        sink.report("\(binary.name) calls CommonCrypto ciphers (\(found.map { String($0.dropFirst()) }.joined(separator: ", "))): the algorithm, mode and IV are run-time arguments not visible in a binary; review the calls for DES, 3DES, RC4, ECB mode and fixed IVs.",
                    in: binary, symbol: first)
        sink.attach(InventoryItem(.importedFunction, name: found.map { String($0.dropFirst()) }.joined(separator: ", ")))
    }
}
