/// APIs that two or more rules, dataflow tables, the attack surface or the test plan read and no other
/// vocabulary file declares (see `API`): pasteboard writes, keyed writes of defaults, dictionaries and
/// key-value stores, answers to an authentication challenge, strings built, encoded and escaped, class checks
/// and collections filled, Core Data stores loaded, secure text entry. `VocabularyLiteralsTests` fails when an
/// API name undeclared here or elsewhere in the vocabulary is written in two scanned files again.
extension APIs {
    // MARK: Pasteboard writes

    /// The general pasteboard's contents set as properties (`UIPasteboard.general.string = token`), by
    /// setter: the Objective-C form of the Swift assignment (the methods that write it are `pasteboardWrite`
    /// and `pasteboardLocalWrite`). The first two are the setters the sensitive-data sink lists beside the methods.
    public static let pasteboardPropertyWrite = API(
        "UIPasteboard.string (set)", classes: ["UIPasteboard"],
        selectors: ["setString:", "setItems:", "setStrings:", "setURL:", "setURLs:", "setImage:", "setImages:", "setColor:", "setColors:"])

    // MARK: Keyed writes

    /// `UserDefaults` and the iCloud key-value store written by key (the first three are the setters the
    /// storage rules look for in a file's names).
    public static let defaultsWrite = API(
        "UserDefaults.set(_:forKey:)", classes: ["UserDefaults", "NSUserDefaults", "NSUbiquitousKeyValueStore"],
        selectors: ["setObject:forKey:", "setValue:forKey:", "setString:forKey:", "setData:forKey:", "setArray:forKey:",
                    "setDictionary:forKey:"])

    /// Key-value coding: a property set by name (`managedObject.setValue(token, forKey: "password")`).
    public static let keyValueCodingWrite = API(
        "NSObject.setValue(_:forKey:)", classes: ["NSObject", "NSManagedObject"], selectors: ["setValue:forKey:"])

    /// A mutable dictionary (or a cache) filled by key.
    public static let dictionaryWrite = API(
        "NSMutableDictionary.setObject(_:forKey:)", classes: ["NSMutableDictionary", "NSCache"],
        selectors: ["setObject:forKey:", "setValue:forKey:"])

    /// Key-value stores written by key: MMKV (`setString:forKey:`), PINCache and YYCache (`setObject:forKey:`,
    /// with a completion block), Objective-LevelDB.
    public static let keyValueStoreWrite = API(
        "a key-value store's set(_:forKey:)", classes: ["MMKV", "PINCache", "YYCache", "LevelDB"],
        selectors: ["setObject:forKey:", "setString:forKey:", "setData:forKey:", "setObject:forKey:block:", "setObject:forKey:withBlock:",
                    "setValue:forKey:"])

    // MARK: Authentication challenges

    /// The answers an `NSURLAuthenticationChallengeSender` takes (the Swift names in the order of their
    /// selectors); the first uses a credential.
    public static let challengeSenderAnswer = API(
        "URLAuthenticationChallengeSender.use(_:for:)", classes: ["URLAuthenticationChallengeSender", "NSURLAuthenticationChallengeSender"],
        swift: ["use(_:for:)", "performDefaultHandling(for:)", "cancel(_:)", "continueWithoutCredential(for:)",
                "rejectProtectionSpaceAndContinue(with:)"],
        selectors: ["useCredential:forAuthenticationChallenge:", "performDefaultHandlingForAuthenticationChallenge:",
                    "cancelAuthenticationChallenge:", "continueWithoutCredentialForAuthenticationChallenge:",
                    "rejectProtectionSpaceAndContinueWithChallenge:"])

    // MARK: Strings built, encoded and escaped

    /// A string formatted (`[NSString stringWithFormat:]`; Swift's `String(format:)` is matched by its type name).
    public static let stringFormat = API("NSString.stringWithFormat:", classes: ["NSString"], selectors: ["stringWithFormat:", "initWithFormat:"])

    /// A string appended to another.
    public static let stringAppend = API(
        "NSString.appending(_:)", classes: ["NSString"], selectors: ["stringByAppendingString:", "stringByAppendingFormat:"])

    /// A string's bytes in an encoding (`data(using:)`).
    public static let stringData = API(
        "String.data(using:)", classes: ["String", "NSString"], swift: ["data(using:)"], selectors: ["dataUsingEncoding:"])

    /// A string's C string in an encoding (`cString(using:)`).
    public static let stringCString = API(
        "String.cString(using:)", classes: ["String", "NSString"], swift: ["cString(using:)"], selectors: ["cStringUsingEncoding:"])

    /// A string percent-encoded for a URL.
    public static let percentEncoding = API(
        "String.addingPercentEncoding(withAllowedCharacters:)", classes: ["String", "NSString"],
        swift: ["addingPercentEncoding(withAllowedCharacters:)"], selectors: ["stringByAddingPercentEncodingWithAllowedCharacters:"])

    /// Data in Base64.
    public static let base64Encoding = API(
        "Data.base64EncodedString(options:)", classes: ["Data", "NSData"],
        swift: ["base64EncodedString(options:)"], selectors: ["base64EncodedStringWithOptions:"])

    /// An object written as JSON (`JSONSerialization.data(withJSONObject:options:)`; the tables match the
    /// Swift call by its `withJSONObject` label).
    public static let jsonSerializationWrite = API(
        "JSONSerialization.data(withJSONObject:options:)", classes: ["JSONSerialization", "NSJSONSerialization"],
        selectors: ["dataWithJSONObject:options:error:"])

    // MARK: Objects and classes

    /// A class's relation to a protocol or a superclass checked.
    public static let classRelationCheck = API(
        "NSObject.conforms(to:)", classes: ["NSObject"], selectors: ["conformsToProtocol:", "isSubclassOfClass:"])

    /// Two objects compared.
    public static let objectEquality = API("NSObject.isEqual(_:)", classes: ["NSObject"], selectors: ["isEqual:"])

    /// A mutable array or set filled.
    public static let collectionAdd = API(
        "NSMutableArray.add(_:)", classes: ["NSMutableArray", "NSMutableSet"],
        selectors: ["addObject:", "addObjectsFromArray:", "unionSet:"])

    /// Realm objects added to a realm or created in it.
    public static let realmWrite = API(
        "Realm.add(_:)", classes: ["RLMRealm", "RLMObject"],
        selectors: ["addObject:", "addOrUpdateObject:", "createObject:withValue:", "createInRealm:withValue:",
                    "createOrUpdateInRealm:withValue:"])

    // MARK: Core Data and text fields

    /// A persistent container's stores loaded (the Swift name first).
    public static let persistentStoresLoad = API(
        "NSPersistentContainer.loadPersistentStores(completionHandler:)", classes: ["NSPersistentContainer"],
        swift: ["loadPersistentStores(completionHandler:)"], selectors: ["loadPersistentStoresWithCompletionHandler:"])

    /// A text field or view that hides what is typed: the Swift property, then the Objective-C property and its setter.
    public static let secureTextEntry = API(
        "UITextInputTraits.isSecureTextEntry", classes: ["UITextField", "UITextView"],
        swift: ["isSecureTextEntry"], selectors: ["secureTextEntry", "setSecureTextEntry:"])

    static let shared: [API] = [
        pasteboardPropertyWrite, defaultsWrite, keyValueCodingWrite,
        dictionaryWrite, keyValueStoreWrite, challengeSenderAnswer, stringFormat, stringAppend, stringData, stringCString, percentEncoding,
        base64Encoding, jsonSerializationWrite, classRelationCheck, objectEquality, collectionAdd, realmWrite, persistentStoresLoad,
        secureTextEntry,
    ]
}
