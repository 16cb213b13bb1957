/// APIs the dataflow tables, the file and web-view rules and the binary checks read that no other vocabulary
/// file declares (see `API`): stored values read back, Keychain wrappers, bundles opened on a URL or a path,
/// URLSession tasks whose response goes to the delegate, CallKit and StoreKit actions, Objective-C subscript
/// stores, C library calls,
/// CommonCrypto digests, C logging, SQLite bindings and Keychain calls.
extension APIs {
    // MARK: Values read back from storage

    /// `UserDefaults` reads by key (the `stored` flow starts there, `Sources+Stored.swift` in MoatRules).
    public static let defaultsRead = API(
        "UserDefaults.object(forKey:)", classes: ["UserDefaults", "NSUserDefaults"],
        swift: ["string(forKey:)", "object(forKey:)", "stringArray(forKey:)", "array(forKey:)", "value(forKey:)"],
        selectors: ["stringForKey:", "objectForKey:", "stringArrayForKey:", "arrayForKey:", "valueForKey:"])

    /// Reads of the Keychain wrappers iOS apps embed: KeychainAccess (`get(_:)`, `getString(_:)`,
    /// `getData(_:)`), KeychainSwift, SwiftKeychainWrapper and Valet (`string(forKey:)`, `data(forKey:)`,
    /// `object(forKey:)`), SAMKeychain/SSKeychain (`password(forService:account:)`), UICKeyChainStore,
    /// SimpleKeychain, Locksmith (`loadDataForUserAccount(userAccount:)`).
    public static let keychainWrapperRead = API(
        "KeychainAccess.Keychain.get(_:)",
        classes: ["Keychain", "KeychainSwift", "KeychainWrapper", "SAMKeychain", "SSKeychain", "UICKeyChainStore", "Valet",
                  "A0SimpleKeychain", "SimpleKeychain", "Locksmith"],
        swift: ["get(_:)", "getString(_:)", "getData(_:)", "string(forKey:)", "data(forKey:)", "password(forService:account:)",
                "passwordData(forService:account:)", "loadDataForUserAccount(userAccount:)", "object(forKey:)"],
        selectors: ["passwordForService:account:", "passwordForService:account:error:", "passwordDataForService:account:",
                    "passwordDataForService:account:error:", "stringForKey:", "dataForKey:", "stringForKey:error:", "dataForKey:error:",
                    "objectForKey:", "get:"])

    // MARK: Bundles

    /// A bundle opened on a URL or a path (a resource bundle shipped inside the app).
    public static let bundleInit = API(
        "Bundle(url:)", classes: ["Bundle", "NSBundle"], swift: ["Bundle(url:)", "Bundle(path:)"],
        selectors: ["bundleWithURL:", "bundleWithPath:", "initWithURL:", "initWithPath:"])

    /// A resource path of a bundle (`APIs.bundleResourceURL` gives its URL).
    public static let bundleResourcePath = API(
        "Bundle.path(forResource:ofType:)", classes: ["Bundle", "NSBundle"],
        swift: ["path(forResource:ofType:)", "path(forResource:ofType:inDirectory:)"],
        selectors: ["pathForResource:ofType:", "pathForResource:ofType:inDirectory:"])

    // MARK: Paths

    /// A path component appended to a file URL or a path string.
    public static let pathAppending = API(
        "URL.appendingPathComponent(_:)", classes: ["URL", "NSURL", "NSString"],
        swift: ["appendingPathComponent(_:)", "appendingPathComponent(_:isDirectory:)", "appending(path:)", "appending(component:)",
                "appending(path:directoryHint:)", "appending(component:directoryHint:)"],
        selectors: ["URLByAppendingPathComponent:", "URLByAppendingPathComponent:isDirectory:", "stringByAppendingPathComponent:"])

    // MARK: Files read as text

    /// A string read from a file by path (`APIs.contentsOfURL` reads from a URL).
    public static let stringContentsOfFile = API(
        "String(contentsOfFile:encoding:)", classes: ["String", "NSString"],
        swift: ["String(contentsOfFile:)", "String(contentsOfFile:encoding:)", "String(contentsOfFile:usedEncoding:)",
                "NSString(contentsOfFile:encoding:)", "NSString(contentsOfFile:usedEncoding:)"],
        selectors: ["stringWithContentsOfFile:encoding:error:", "stringWithContentsOfFile:usedEncoding:error:",
                    "initWithContentsOfFile:encoding:error:", "initWithContentsOfFile:usedEncoding:error:"])

    // MARK: URLSession tasks without a completion handler

    /// Data and download tasks created without a completion handler: the response goes to the session's
    /// delegate.
    public static let sessionDelegateTask = API(
        "URLSession.dataTask(with:)", classes: ["URLSession", "NSURLSession"],
        swift: ["dataTask(with:)", "downloadTask(with:)"],
        selectors: ["dataTaskWithURL:", "dataTaskWithRequest:", "downloadTaskWithURL:", "downloadTaskWithRequest:"])

    // MARK: Sensitive actions

    /// CallKit: a call transaction requested (placing, answering, ending a call).
    public static let callControllerRequest = API(
        "CXCallController.request(_:completion:)", classes: ["CXCallController"],
        swift: ["request(_:completion:)", "requestTransaction(with:completion:)"],
        selectors: ["requestTransaction:completion:", "requestTransactionWithAction:completion:", "requestTransactionWithActions:completion:"])

    /// CallKit: an outgoing call reported to the system.
    public static let providerReportOutgoingCall = API(
        "CXProvider.reportOutgoingCall(with:startedConnectingAt:)", classes: ["CXProvider"],
        swift: ["reportOutgoingCall(with:startedConnectingAt:)", "reportOutgoingCall(with:connectedAt:)"],
        selectors: ["reportOutgoingCallWithUUID:startedConnectingAtDate:", "reportOutgoingCallWithUUID:connectedAtDate:"])

    /// StoreKit: a payment added to the queue (a purchase).
    public static let paymentQueueAdd = API("SKPaymentQueue.add(_:)", classes: ["SKPaymentQueue"], swift: ["add(_:)"], selectors: ["addPayment:"])

    // MARK: Objective-C subscripts

    /// Objective-C's keyed subscript store (`dict[key] = value`, `context[@"name"] = block`), sent to a
    /// mutable dictionary (a `JSContext`'s is `APIs.javaScriptContextStore`).
    public static let keyedSubscriptStore = API(
        "-[NSMutableDictionary setObject:forKeyedSubscript:]", classes: ["NSMutableDictionary"], selectors: ["setObject:forKeyedSubscript:"])

    // MARK: C library calls the binary checks look for

    /// Formatting into a buffer with no size `(buffer, format, ...)`.
    public static let unboundedFormatC = API("sprintf", cFunctions: ["sprintf", "vsprintf"])
    /// Formatting into a buffer of a given size `(buffer, size, format, ...)`.
    public static let boundedFormatC = API("snprintf", cFunctions: ["snprintf", "vsnprintf"])
    /// Reading a line of any length into a buffer (removed from C11).
    public static let unboundedLineReadC = API("gets", cFunctions: ["gets"])
    /// The C library's predictable generators and their seeding.
    public static let predictableRandomC = API("rand", cFunctions: ["rand", "srand", "random", "srandom", "rand_r"])

    // MARK: CommonCrypto digests

    /// MD2, one-shot and incremental.
    public static let commonCryptoMD2 = API("CC_MD2", cFunctions: ["CC_MD2", "CC_MD2_Init", "CC_MD2_Update", "CC_MD2_Final"])
    /// MD4, one-shot and incremental.
    public static let commonCryptoMD4 = API("CC_MD4", cFunctions: ["CC_MD4", "CC_MD4_Init", "CC_MD4_Update", "CC_MD4_Final"])
    /// MD5, one-shot and incremental.
    public static let commonCryptoMD5 = API("CC_MD5", cFunctions: ["CC_MD5", "CC_MD5_Init", "CC_MD5_Update", "CC_MD5_Final"])
    /// SHA-1, one-shot and incremental.
    public static let commonCryptoSHA1 = API("CC_SHA1", cFunctions: ["CC_SHA1", "CC_SHA1_Init", "CC_SHA1_Update", "CC_SHA1_Final"])
    /// The SHA-2 digests, one-shot.
    public static let commonCryptoSHA2 = API("CC_SHA256", cFunctions: ["CC_SHA256", "CC_SHA384", "CC_SHA512"])

    // MARK: Logs

    /// C logging with a format: Foundation's `NSLog`, the C library's `printf` family and `syslog`.
    public static let formattedLogC = API("NSLog", cFunctions: ["NSLog", "NSLogv", "printf", "fprintf", "syslog"])
    /// The unified log's C interface (`os_log(log, "%{public}@", value)`).
    public static let osLogC = API("os_log", cFunctions: ["os_log", "os_log_info", "os_log_debug", "os_log_error", "os_log_fault"])
    /// CocoaLumberjack's logging macros.
    public static let cocoaLumberjackLog = API(
        "CocoaLumberjack DDLog", cFunctions: ["DDLogVerbose", "DDLogDebug", "DDLogInfo", "DDLogWarn", "DDLogError"])

    // MARK: SQLite and the Keychain

    /// SQLite: a text or blob value bound to a statement's parameter `(statement, index, value, ...)`.
    public static let sqliteBind = API(
        "sqlite3_bind_text", cFunctions: ["sqlite3_bind_text", "sqlite3_bind_text16", "sqlite3_bind_text64", "sqlite3_bind_blob",
                                          "sqlite3_bind_blob64"])
    /// The Keychain's search, which returns the matching items through its second argument `(query, &result)`.
    public static let keychainCopyMatching = API("SecItemCopyMatching", cFunctions: ["SecItemCopyMatching"])
    /// The Keychain's writes: `SecItemAdd(attributes, &result)`, `SecItemUpdate(query, attributesToUpdate)`.
    public static let keychainItemWrite = API("SecItemAdd", cFunctions: ["SecItemAdd", "SecItemUpdate"])

    /// Keychain and key calls whose result is a status, a Boolean, a signature or the public half of a key,
    /// not the secret they are given (`SecItemDelete(query)` answers an `OSStatus`; so do the writes of
    /// `keychainItemWrite`).
    public static let secretConsumingCalls = API(
        "SecItemDelete", cFunctions: ["SecItemDelete", "SecKeyCopyPublicKey", "SecKeyVerifySignature", "SecKeyCreateSignature",
                                      "SecKeyIsAlgorithmSupported", "SecPKCS12Import"])
    /// The public half of a CryptoKit private key (`P256.Signing.PrivateKey().publicKey`, Curve25519's).
    public static let cryptoKitPublicKey = API("PrivateKey.publicKey", classes: ["PrivateKey"], swift: ["publicKey"])

    /// Security's encryption with a public key `(key, algorithm, plaintext, error)`.
    public static let secKeyCreateEncryptedData = API("SecKeyCreateEncryptedData", cFunctions: ["SecKeyCreateEncryptedData"])

    /// The APIs of this file, for `APIs.all`.
    static let tables: [API] = [
        defaultsRead, keychainWrapperRead, bundleInit, bundleResourcePath, pathAppending, stringContentsOfFile, sessionDelegateTask, callControllerRequest,
        providerReportOutgoingCall, paymentQueueAdd, keyedSubscriptStore, unboundedFormatC, boundedFormatC,
        unboundedLineReadC, predictableRandomC, commonCryptoMD2, commonCryptoMD4, commonCryptoMD5, commonCryptoSHA1, commonCryptoSHA2,
        secKeyCreateEncryptedData, formattedLogC, osLogC, cocoaLumberjackLog, sqliteBind, keychainCopyMatching, keychainItemWrite,
        secretConsumingCalls, cryptoKitPublicKey,
    ]
}
