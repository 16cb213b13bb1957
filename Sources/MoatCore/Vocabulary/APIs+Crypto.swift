/// The crypto APIs that receive a key, a password, an IV, a nonce or a salt, by library (see `API`):
/// the constants rules (MOAT-CRYP-202, MOAT-CRYP-204) judge what they are given.
extension APIs {
    // MARK: CommonCrypto

    /// One-shot and incremental ciphers `(op, alg, options, key, keyLength, iv, ...)`.
    public static let commonCryptoCipher = API("CCCrypt", cFunctions: ["CCCrypt", "CCCryptorCreate"])

    /// The incremental cipher with a mode `(op, mode, alg, padding, iv, key, ...)`.
    public static let commonCryptoCipherWithMode = API("CCCryptorCreateWithMode", cFunctions: ["CCCryptorCreateWithMode"])

    /// An incremental cipher created on caller-provided memory (its key and IV in the same places as
    /// `CCCryptorCreate`'s); only the binary check names it.
    public static let commonCryptoCipherFromData = API("CCCryptorCreateFromData", cFunctions: ["CCCryptorCreateFromData"])

    /// HMAC `(alg, key, keyLength, ...)`.
    public static let commonCryptoHMAC = API("CCHmac", cFunctions: ["CCHmac", "CCHmacInit"])

    /// PBKDF2 `(alg, password, passwordLength, salt, saltLength, ...)`.
    public static let commonCryptoPBKDF = API("CCKeyDerivationPBKDF", cFunctions: ["CCKeyDerivationPBKDF"])

    // MARK: Security

    /// A key made from its external representation `(data, attributes, error)`.
    public static let secKeyCreateWithData = API("SecKeyCreateWithData", cFunctions: ["SecKeyCreateWithData"])

    // MARK: CryptoKit

    /// A symmetric key made from bytes.
    public static let cryptoKitSymmetricKey = API("SymmetricKey(data:)", classes: ["SymmetricKey"], swift: ["SymmetricKey(data:)"])

    /// A nonce made from bytes (`AES.GCM.Nonce(data:)`, `ChaChaPoly.Nonce(data:)`).
    public static let cryptoKitNonce = API("AES.GCM.Nonce(data:)", classes: ["AES.GCM.Nonce", "ChaChaPoly.Nonce"], swift: ["Nonce(data:)"])

    // MARK: CryptoSwift

    /// Ciphers and MACs made with a key (and, for ciphers, an IV).
    public static let cryptoSwiftKeyed = API(
        "CryptoSwift.AES(key:iv:)", classes: ["AES", "ChaCha20", "Blowfish", "HMAC", "CBCMAC", "CMAC", "Poly1305", "Rabbit"],
        swift: ["AES(key:iv:)", "ChaCha20(key:iv:)", "Blowfish(key:iv:)", "HMAC(key:variant:)", "CBCMAC(key:)", "CMAC(key:)",
                "Poly1305(key:)", "Rabbit(key:iv:)"])

    /// Key derivations from a password and a salt.
    public static let cryptoSwiftKeyDerivation = API(
        "CryptoSwift.PBKDF2(password:salt:)", classes: ["PKCS5.PBKDF2", "PKCS5.PBKDF1", "Scrypt", "HKDF"],
        swift: ["PBKDF2(password:salt:iterations:keyLength:variant:)", "PBKDF1(password:salt:variant:iterations:keyLength:)",
                "Scrypt(password:salt:dkLen:N:r:p:)", "HKDF(password:salt:info:keyLength:variant:)"])

    /// Block modes made with an IV.
    public static let cryptoSwiftBlockModes = API(
        "CryptoSwift.CBC(iv:)", classes: ["CBC", "GCM", "CTR", "CFB", "OFB", "PCBC", "CCM"],
        swift: ["CBC(iv:)", "GCM(iv:mode:)", "CTR(iv:)", "CFB(iv:)", "OFB(iv:)", "PCBC(iv:)", "CCM(iv:tagLength:messageLength:)"])

    // MARK: RNCryptor

    /// Encryption and decryption with a password.
    public static let rnCryptorPassword = API(
        "RNCryptor.encrypt(data:withPassword:)", classes: ["RNCryptor", "RNCryptor.Encryptor", "RNCryptor.Decryptor"],
        swift: ["encrypt(data:withPassword:)", "decrypt(data:withPassword:)", "Encryptor(password:)", "Decryptor(password:)"],
        selectors: ["encryptData:password:error:", "decryptData:password:error:"])

    /// The APIs of this file, for `APIs.all`.
    static let crypto: [API] = [
        commonCryptoCipher, commonCryptoCipherWithMode, commonCryptoCipherFromData, commonCryptoHMAC, commonCryptoPBKDF, secKeyCreateWithData, cryptoKitSymmetricKey,
        cryptoKitNonce, cryptoSwiftKeyed, cryptoSwiftKeyDerivation, cryptoSwiftBlockModes, rnCryptorPassword,
    ]
}
