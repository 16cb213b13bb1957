/// THE vocabulary of security-relevant APIs: each declared once with every spelling (see `API`).
/// Add an API here, then refer to it (`APIs.keyedUnarchiverLegacy`) from the rule, the dataflow table, the
/// binary check or the surface that needs it.
public enum APIs {
    // MARK: Deserialization

    /// `NSKeyedUnarchiver` class methods that decode any class named in the data (secure coding off).
    public static let keyedUnarchiverLegacy = API(
        "NSKeyedUnarchiver.unarchiveObject(with:)", classes: ["NSKeyedUnarchiver", "NSUnarchiver"],
        swift: ["unarchiveObject(with:)", "unarchiveObject(withFile:)", "unarchiveTopLevelObjectWithData(_:)",
                // Swift 2 spellings, still found in old code and in the MASTG
                "unarchiveObjectWithData(_:)", "unarchiveObjectWithFile(_:)"],
        selectors: ["unarchiveObjectWithData:", "unarchiveObjectWithFile:", "unarchiveTopLevelObjectWithData:error:"])

    /// The deprecated `NSKeyedUnarchiver` initializer that leaves `requiresSecureCoding` off.
    public static let keyedUnarchiverLegacyInit = API(
        "NSKeyedUnarchiver(forReadingWith:)", classes: ["NSKeyedUnarchiver"],
        swift: ["NSKeyedUnarchiver(forReadingWith:)"], selectors: ["initForReadingWithData:"])

    /// The `NSKeyedUnarchiver` initializer that turns secure coding on.
    public static let keyedUnarchiverSecureInit = API(
        "NSKeyedUnarchiver(forReadingFrom:)", classes: ["NSKeyedUnarchiver"],
        swift: ["NSKeyedUnarchiver(forReadingFrom:)"], selectors: ["initForReadingFromData:error:"])

    /// `NSKeyedUnarchiver` class methods that decode with secure coding, given the classes allowed. The
    /// Swift names are listed in the order of the selectors they send (the test plan hooks them), the
    /// Swift refinement `unarchivedDictionary(ofKeyClass:objectClass:from:)` last.
    public static let keyedUnarchiverSecure = API(
        "NSKeyedUnarchiver.unarchivedObject(ofClasses:from:)", classes: ["NSKeyedUnarchiver"],
        swift: ["unarchivedObject(ofClass:from:)", "unarchivedObject(ofClasses:from:)", "unarchivedArrayOfObjects(ofClass:from:)",
                "unarchivedArrayOfObjects(ofClasses:from:)", "unarchivedDictionary(keysOfClass:objectsOfClass:from:)",
                "unarchivedDictionary(keysOfClasses:objectsOfClasses:from:)", "unarchivedDictionary(ofKeyClass:objectClass:from:)"],
        selectors: ["unarchivedObjectOfClass:fromData:error:", "unarchivedObjectOfClasses:fromData:error:",
                    "unarchivedArrayOfObjectsOfClass:fromData:error:", "unarchivedArrayOfObjectsOfClasses:fromData:error:",
                    "unarchivedDictionaryWithKeysOfClass:objectsOfClass:fromData:error:",
                    "unarchivedDictionaryWithKeysOfClasses:objectsOfClasses:fromData:error:"])

    /// `NSCoder` decoding of objects of the classes named (by class or by classes). The forms that name no
    /// class are `coderDecodeAnyObject` and `coderDecodeTopLevelObject` (`APIs+Plan.swift`).
    public static let coderDecodeObject = API(
        "NSCoder.decodeObject(of:forKey:)", classes: ["NSCoder", "NSKeyedUnarchiver"],
        swift: ["decodeObject(of:forKey:)", "decodeArrayOfObjects(ofClass:forKey:)", "decodeDictionary(withKeysOfClass:objectsOfClass:forKey:)"],
        selectors: ["decodeObjectOfClass:forKey:", "decodeObjectOfClasses:forKey:", "decodeArrayOfObjectsOfClass:forKey:",
                    "decodeArrayOfObjectsOfClasses:forKey:"])

    /// A class looked up by a run-time name.
    public static let classLookup = API(
        "NSClassFromString", swift: ["NSClassFromString(_:)"], selectors: ["classNamed:"],
        cFunctions: ["NSClassFromString", "objc_getClass", "objc_lookUpClass"])

    /// `NSJSONSerialization` reads.
    public static let jsonSerializationRead = API(
        "JSONSerialization.jsonObject(with:)", classes: ["JSONSerialization", "NSJSONSerialization"],
        swift: ["jsonObject(with:)", "jsonObject(with:options:)"],
        selectors: ["JSONObjectWithData:options:error:", "JSONObjectWithStream:options:error:"])

    /// `NSPropertyListSerialization` reads.
    public static let propertyListSerializationRead = API(
        "PropertyListSerialization.propertyList(from:options:format:)", classes: ["PropertyListSerialization", "NSPropertyListSerialization"],
        swift: ["propertyList(from:options:format:)", "propertyList(from:format:)"],
        selectors: ["propertyListWithData:options:format:error:", "propertyListFromData:mutabilityOption:format:errorDescription:"])

    // MARK: XML

    /// `XMLParser` created on data, a URL or a stream.
    public static let xmlParserInit = API(
        "XMLParser(data:)", classes: ["XMLParser", "NSXMLParser"],
        swift: ["XMLParser(data:)", "XMLParser(contentsOf:)", "XMLParser(stream:)"],
        selectors: ["initWithData:", "initWithContentsOfURL:", "initWithStream:"])

    /// `XMLParser.shouldResolveExternalEntities` (XXE when true).
    public static let xmlResolveExternalEntities = API(
        "XMLParser.shouldResolveExternalEntities", classes: ["XMLParser", "NSXMLParser"],
        swift: ["shouldResolveExternalEntities"], selectors: ["setShouldResolveExternalEntities:"])

    // MARK: Trust

    /// The deprecated trust evaluation (iOS 13): two results, often only one checked.
    public static let secTrustEvaluateLegacy = API("SecTrustEvaluate", cFunctions: ["SecTrustEvaluate"])

    /// The trust evaluation that returns one Boolean (iOS 12).
    public static let secTrustEvaluateWithError = API("SecTrustEvaluateWithError", cFunctions: ["SecTrustEvaluateWithError"])

    /// The asynchronous trust evaluations, which hand the result to a block.
    public static let secTrustEvaluateAsync = API(
        "SecTrustEvaluateAsyncWithError", cFunctions: ["SecTrustEvaluateAsyncWithError", "SecTrustEvaluateAsync"])

    /// Every call that evaluates a trust.
    public static let trustEvaluations: [API] = [secTrustEvaluateLegacy, secTrustEvaluateWithError, secTrustEvaluateAsync]

    // MARK: Web views

    /// A script message handler registered on a `WKUserContentController` (Swift `add(_:name:)` is matched
    /// with its receiver, the name being too common alone).
    public static let scriptMessageHandlerRegistration = API(
        "WKUserContentController.add(_:name:)", classes: ["WKUserContentController"],
        swift: ["add(_:name:)", "add(_:contentWorld:name:)", "addScriptMessageHandler(_:contentWorld:name:)"],
        selectors: ["addScriptMessageHandler:name:", "addScriptMessageHandler:contentWorld:name:",
                    "addScriptMessageHandlerWithReply:contentWorld:name:"])

    /// JavaScript evaluated in a `WKWebView`'s page.
    public static let webViewJavaScriptEvaluation = API(
        "WKWebView.evaluateJavaScript(_:completionHandler:)", classes: ["WKWebView"],
        swift: ["evaluateJavaScript(_:completionHandler:)", "evaluateJavaScript(_:in:in:completionHandler:)",
                "callAsyncJavaScript(_:arguments:in:in:completionHandler:)"],
        selectors: ["evaluateJavaScript:completionHandler:", "evaluateJavaScript:inFrame:inContentWorld:completionHandler:",
                    "callAsyncJavaScript:arguments:inFrame:inContentWorld:completionHandler:"])

    /// JavaScript evaluated in a `UIWebView`'s page.
    public static let uiWebViewJavaScriptEvaluation = API(
        "UIWebView.stringByEvaluatingJavaScript(from:)", classes: ["UIWebView"],
        swift: ["stringByEvaluatingJavaScript(from:)"], selectors: ["stringByEvaluatingJavaScriptFromString:"])

    /// A user script added to a `WKUserContentController`.
    public static let userScriptAddition = API(
        "WKUserContentController.addUserScript(_:)", classes: ["WKUserContentController"],
        swift: ["addUserScript(_:)"], selectors: ["addUserScript:"])

    /// The removed `UIWebView` class.
    public static let uiWebView = API("UIWebView", classes: ["UIWebView"])

    /// JavaScript evaluated in a `JSContext`.
    public static let javaScriptContextEvaluation = API(
        "JSContext.evaluateScript(_:)", classes: ["JSContext"],
        swift: ["evaluateScript(_:)", "evaluateScript(_:withSourceURL:)"], selectors: ["evaluateScript:", "evaluateScript:withSourceURL:"])

    /// A user script created from source text.
    public static let userScriptCreation = API(
        "WKUserScript(source:injectionTime:forMainFrameOnly:)", classes: ["WKUserScript"],
        swift: ["WKUserScript(source:injectionTime:forMainFrameOnly:)", "WKUserScript(source:injectionTime:forMainFrameOnly:in:)"],
        selectors: ["initWithSource:injectionTime:forMainFrameOnly:", "initWithSource:injectionTime:forMainFrameOnly:inContentWorld:"])

    /// A web view's load of a request.
    public static let webViewLoadRequest = API(
        "WKWebView.load(_:)", classes: ["WKWebView", "UIWebView"], swift: ["load(_:)"], selectors: ["loadRequest:"])

    /// A web view's load of data of a MIME type.
    public static let webViewLoadData = API(
        "WKWebView.load(_:mimeType:characterEncodingName:baseURL:)", classes: ["WKWebView", "UIWebView"],
        swift: ["load(_:mimeType:characterEncodingName:baseURL:)"], selectors: ["loadData:MIMEType:characterEncodingName:baseURL:"])

    /// A web view's load of a local file, with the folder it may read.
    public static let webViewLoadFileURL = API(
        "WKWebView.loadFileURL(_:allowingReadAccessTo:)", classes: ["WKWebView"],
        swift: ["loadFileURL(_:allowingReadAccessTo:)"], selectors: ["loadFileURL:allowingReadAccessToURL:"])

    /// A web view's load of an HTML string.
    public static let webViewLoadHTML = API(
        "WKWebView.loadHTMLString(_:baseURL:)", classes: ["WKWebView", "UIWebView"],
        swift: ["loadHTMLString(_:baseURL:)"], selectors: ["loadHTMLString:baseURL:"])

    // MARK: Opening URLs

    /// `UIApplication` (and `NSWorkspace`) opening a URL in another app or Safari.
    public static let applicationOpenURL = API(
        "UIApplication.open(_:options:completionHandler:)", classes: ["UIApplication", "NSWorkspace"],
        swift: ["open(_:options:completionHandler:)", "open(_:)"], selectors: ["openURL:", "openURL:options:completionHandler:"])

    /// SwiftUI's `OpenURLAction`, called as a function.
    public static let openURLAction = API("OpenURLAction.callAsFunction(_:)", classes: ["OpenURLAction"], swift: ["openURL(_:)"])

    /// Every API of the vocabulary (a test checks that no spelling belongs to two of them).
    public static let all: [API] = [
        keyedUnarchiverLegacy, keyedUnarchiverLegacyInit, keyedUnarchiverSecureInit, keyedUnarchiverSecure, coderDecodeObject,
        classLookup, jsonSerializationRead, propertyListSerializationRead, xmlParserInit, xmlResolveExternalEntities,
        secTrustEvaluateLegacy, secTrustEvaluateWithError, secTrustEvaluateAsync, scriptMessageHandlerRegistration, webViewJavaScriptEvaluation, uiWebViewJavaScriptEvaluation,
        userScriptAddition, uiWebView, javaScriptContextEvaluation, userScriptCreation, webViewLoadRequest, webViewLoadData,
        webViewLoadFileURL, webViewLoadHTML, applicationOpenURL, openURLAction,
    ]
        + entryPoints
        + network
        + files
        + memory
        + archive
        + opening + storage + crypto + tls + checks + delegates
        + tables
        + plan
        + shared
        + remaining
}
