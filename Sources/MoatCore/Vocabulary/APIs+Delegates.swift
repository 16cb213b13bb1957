/// Delegate methods the app implements to receive outside input or to answer a trust challenge, beyond
/// the entry points of `APIs+EntryPoints.swift` (see `API`). As for every method the app implements, the
/// Swift names and the selectors are listed in the same order (`API.selectorsBySwiftName`).
extension APIs {
    // MARK: Trust challenges

    /// A session delegate's answer to an authentication challenge (server trust among them).
    public static let sessionChallenge = API(
        "URLSessionDelegate.urlSession(_:didReceive:completionHandler:)", classes: ["URLSessionDelegate", "URLSessionTaskDelegate"],
        swift: ["urlSession(_:didReceive:completionHandler:)", "urlSession(_:task:didReceive:completionHandler:)"],
        selectors: ["URLSession:didReceiveChallenge:completionHandler:", "URLSession:task:didReceiveChallenge:completionHandler:"])

    /// A web view navigation delegate's answer to an authentication challenge.
    public static let webViewChallenge = API(
        "WKNavigationDelegate.webView(_:didReceive:completionHandler:)", classes: ["WKNavigationDelegate"],
        swift: ["webView(_:didReceive:completionHandler:)"], selectors: ["webView:didReceiveAuthenticationChallenge:completionHandler:"])

    // MARK: Pushes

    /// PushKit's delivery of a VoIP push.
    public static let pushKitIncoming = API(
        "PKPushRegistryDelegate.pushRegistry(_:didReceiveIncomingPushWith:for:completion:)", classes: ["PKPushRegistryDelegate"],
        swift: ["pushRegistry(_:didReceiveIncomingPushWith:for:completion:)", "pushRegistry(_:didReceiveIncomingPushWith:for:)"],
        selectors: ["pushRegistry:didReceiveIncomingPushWithPayload:forType:withCompletionHandler:",
                    "pushRegistry:didReceiveIncomingPushWithPayload:forType:"])

    // MARK: Documents and drops

    /// Documents picked or imported in a document browser.
    public static let documentBrowserSelection = API(
        "UIDocumentBrowserViewControllerDelegate.documentBrowser(_:didPickDocumentsAt:)", classes: ["UIDocumentBrowserViewControllerDelegate"],
        swift: ["documentBrowser(_:didPickDocumentsAt:)", "documentBrowser(_:didImportDocumentAt:toDestinationURL:)"],
        selectors: ["documentBrowser:didPickDocumentsAtURLs:", "documentBrowser:didImportDocumentAtURL:toDestinationURL:"])

    /// Items dropped on a view, a table or a collection.
    public static let dropPerform = API(
        "UIDropInteractionDelegate.dropInteraction(_:performDrop:)",
        classes: ["UIDropInteractionDelegate", "UITableViewDropDelegate", "UICollectionViewDropDelegate"],
        swift: ["dropInteraction(_:performDrop:)", "tableView(_:performDropWith:)", "collectionView(_:performDropWith:)"],
        selectors: ["dropInteraction:performDrop:", "tableView:performDropWithCoordinator:", "collectionView:performDropWithCoordinator:"])

    /// The results of a photo picker.
    public static let photoPickerSelection = API(
        "PHPickerViewControllerDelegate.picker(_:didFinishPicking:)", classes: ["PHPickerViewControllerDelegate"],
        swift: ["picker(_:didFinishPicking:)"], selectors: ["picker:didFinishPicking:"])

    // MARK: Intents and archives

    /// The app delegate's handler of an intent run in the app (Siri, Shortcuts).
    public static let intentHandler = API(
        "UIApplicationDelegate.application(_:handlerFor:)", classes: ["UIApplicationDelegate"],
        swift: ["application(_:handlerFor:)"], selectors: ["application:handlerForIntent:"])

    /// `NSCoding`'s initializer, which an unarchiver runs on the archive's data.
    public static let coderInit = API("NSCoding.init(coder:)", classes: ["NSCoding"], swift: ["init(coder:)"], selectors: ["initWithCoder:"])

    /// `NSCoding`'s encoder, which an archiver runs.
    public static let coderEncode = API("NSCoding.encode(with:)", classes: ["NSCoding"], swift: ["encode(with:)"], selectors: ["encodeWithCoder:"])

    /// The delegate methods whose Objective-C selector a Swift implementation gets (the test plan hooks
    /// them by selector).
    public static let implementedDelegateMethods: [API] = [
        openURLHandler, deprecatedOpenURLHandler, continueUserActivity, sceneOpenURLContexts, sceneWillConnect, scriptMessageReceipt, sessionChallenge, webViewChallenge,
        remoteNotificationReceipt, notificationResponse, notificationPresentation, pushKitIncoming, notificationServiceRequest,
        documentPickerSelection, documentBrowserSelection, peerDataReceipt, peerStreamReceipt, peerResourceFinish, dropPerform,
        photoPickerSelection, intentHandler, coderInit, coderEncode,
    ]

    /// The APIs of this file, for `APIs.all`.
    static let delegates: [API] = [
        sessionChallenge, webViewChallenge, pushKitIncoming, documentBrowserSelection, dropPerform, photoPickerSelection, intentHandler,
        coderInit, coderEncode, remoteNotificationRegistration,
    ]
}

extension APIs {
    /// The app delegate's receipt of its device token for remote notifications.
    public static let remoteNotificationRegistration = API(
        "UIApplicationDelegate.application(_:didRegisterForRemoteNotificationsWithDeviceToken:)", classes: ["UIApplicationDelegate"],
        swift: ["application(_:didRegisterForRemoteNotificationsWithDeviceToken:)"],
        selectors: ["application:didRegisterForRemoteNotificationsWithDeviceToken:"])
}
