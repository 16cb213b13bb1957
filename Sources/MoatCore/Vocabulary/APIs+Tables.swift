/// APIs the dataflow tables and the file and web-view rules read that no other vocabulary file declares
/// (see `API`): stored values read back, Keychain wrappers, bundles opened on a URL or a path, URLSession
/// tasks whose response goes to the delegate, Objective-C subscript stores.
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

    // MARK: URLSession tasks without a completion handler

    /// Data and download tasks created without a completion handler: the response goes to the session's
    /// delegate.
    public static let sessionDelegateTask = API(
        "URLSession.dataTask(with:)", classes: ["URLSession", "NSURLSession"],
        swift: ["dataTask(with:)", "downloadTask(with:)"],
        selectors: ["dataTaskWithURL:", "dataTaskWithRequest:", "downloadTaskWithURL:", "downloadTaskWithRequest:"])

    // MARK: Objective-C subscripts

    /// Objective-C's keyed subscript store (`dict[key] = value`, `context[@"name"] = block`), sent to a
    /// mutable dictionary (a `JSContext`'s is `APIs.javaScriptContextStore`).
    public static let keyedSubscriptStore = API(
        "-[NSMutableDictionary setObject:forKeyedSubscript:]", classes: ["NSMutableDictionary"], selectors: ["setObject:forKeyedSubscript:"])

    /// The APIs of this file, for `APIs.all`.
    static let tables: [API] = [defaultsRead, keychainWrapperRead, bundleInit, sessionDelegateTask, keyedSubscriptStore]
}
