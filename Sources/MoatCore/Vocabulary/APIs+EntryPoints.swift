/// The entry points through which another app, a web page, a nearby device or a notification hands the
/// app its input: the delegate methods and callbacks the dataflow source table reads (see `API`).
extension APIs {
    // MARK: URL schemes and universal links

    /// The app delegate's URL-scheme handler.
    public static let openURLHandler = API(
        "UIApplicationDelegate.application(_:open:options:)", classes: ["UIApplicationDelegate"],
        swift: ["application(_:open:options:)"], selectors: ["application:openURL:options:"])

    /// The app delegate's deprecated URL-scheme handlers (iOS 9 replaced them with `openURLHandler`).
    public static let deprecatedOpenURLHandler = API(
        "UIApplicationDelegate.application(_:handleOpen:)", classes: ["UIApplicationDelegate"],
        swift: ["application(_:handleOpen:)", "application(_:open:sourceApplication:annotation:)"],
        selectors: ["application:handleOpenURL:", "application:openURL:sourceApplication:annotation:"])

    /// The scene delegate's URL-scheme handler.
    public static let sceneOpenURLContexts = API(
        "UISceneDelegate.scene(_:openURLContexts:)", classes: ["UISceneDelegate"],
        swift: ["scene(_:openURLContexts:)"], selectors: ["scene:openURLContexts:"])

    /// The scene delegate's connection, whose options carry the URLs and activities that launched the app.
    public static let sceneWillConnect = API(
        "UISceneDelegate.scene(_:willConnectTo:options:)", classes: ["UISceneDelegate"],
        swift: ["scene(_:willConnectTo:options:)"], selectors: ["scene:willConnectToSession:options:"])

    /// What a scene's connection options carry from outside (Swift and Objective-C property names).
    public static let sceneConnectionInputs = API(
        "UIScene.ConnectionOptions.urlContexts", classes: ["UIScene.ConnectionOptions", "UISceneConnectionOptions"],
        swift: ["urlContexts", "userActivities"], selectors: ["URLContexts"])

    /// SwiftUI's URL handler.
    public static let onOpenURL = API("View.onOpenURL(perform:)", classes: ["View"], swift: ["onOpenURL(perform:)"])

    /// The delegates that continue a user activity (universal links, Handoff).
    public static let continueUserActivity = API(
        "UIApplicationDelegate.application(_:continue:restorationHandler:)", classes: ["UIApplicationDelegate", "UISceneDelegate"],
        swift: ["application(_:continue:restorationHandler:)", "scene(_:continue:)"],
        selectors: ["application:continueUserActivity:restorationHandler:", "scene:continueUserActivity:"])

    /// SwiftUI's user-activity handler.
    public static let onContinueUserActivity = API(
        "View.onContinueUserActivity(_:perform:)", classes: ["View"], swift: ["onContinueUserActivity(_:perform:)"])

    /// The link a user activity carries (a universal link).
    public static let userActivityWebpageURL = API("NSUserActivity.webpageURL", classes: ["NSUserActivity"], swift: ["webpageURL"])

    // MARK: WebKit script messages

    /// A script message handler's receipt of a message posted by page JavaScript.
    public static let scriptMessageReceipt = API(
        "WKScriptMessageHandler.userContentController(_:didReceive:)", classes: ["WKScriptMessageHandler", "WKScriptMessageHandlerWithReply"],
        swift: ["userContentController(_:didReceive:)", "userContentController(_:didReceive:replyHandler:)"],
        selectors: ["userContentController:didReceiveScriptMessage:", "userContentController:didReceiveScriptMessage:replyHandler:"])

    /// The body of a script message, what page JavaScript posted.
    public static let scriptMessageBody = API("WKScriptMessage.body", classes: ["WKScriptMessage"], swift: ["body"])

    /// A value stored into a `JSContext` by subscript (a block stored so becomes callable from JavaScript).
    public static let javaScriptContextStore = API(
        "JSContext.setObject(_:forKeyedSubscript:)", classes: ["JSContext"],
        swift: ["setObject(_:forKeyedSubscript:)"], selectors: ["setObject:forKeyedSubscript:"])

    // MARK: MultipeerConnectivity

    /// `MCSessionDelegate`: data a nearby peer sent.
    public static let peerDataReceipt = API(
        "MCSessionDelegate.session(_:didReceive:fromPeer:)", classes: ["MCSessionDelegate"],
        swift: ["session(_:didReceive:fromPeer:)"], selectors: ["session:didReceiveData:fromPeer:"])

    /// `MCSessionDelegate`: a resource a nearby peer started sending.
    public static let peerResourceStart = API(
        "MCSessionDelegate.session(_:didStartReceivingResourceWithName:fromPeer:with:)", classes: ["MCSessionDelegate"],
        swift: ["session(_:didStartReceivingResourceWithName:fromPeer:with:)"],
        selectors: ["session:didStartReceivingResourceWithName:fromPeer:withProgress:"])

    /// `MCSessionDelegate`: a resource a nearby peer finished sending, saved to a file.
    public static let peerResourceFinish = API(
        "MCSessionDelegate.session(_:didFinishReceivingResourceWithName:fromPeer:at:withError:)", classes: ["MCSessionDelegate"],
        swift: ["session(_:didFinishReceivingResourceWithName:fromPeer:at:withError:)"],
        selectors: ["session:didFinishReceivingResourceWithName:fromPeer:atURL:withError:"])

    /// `MCSessionDelegate`: a stream a nearby peer opened.
    public static let peerStreamReceipt = API(
        "MCSessionDelegate.session(_:didReceive:withName:fromPeer:)", classes: ["MCSessionDelegate"],
        swift: ["session(_:didReceive:withName:fromPeer:)"], selectors: ["session:didReceiveStream:withName:fromPeer:"])

    // MARK: Files and items from other apps

    /// The documents picked in a `UIDocumentPickerViewController`.
    public static let documentPickerSelection = API(
        "UIDocumentPickerDelegate.documentPicker(_:didPickDocumentsAt:)", classes: ["UIDocumentPickerDelegate"],
        swift: ["documentPicker(_:didPickDocumentsAt:)", "documentPicker(_:didPickDocumentAt:)"],
        selectors: ["documentPicker:didPickDocumentsAtURLs:", "documentPicker:didPickDocumentAtURL:"])

    /// The items shared into an extension.
    public static let extensionInputItems = API("NSExtensionContext.inputItems", classes: ["NSExtensionContext"], swift: ["inputItems"])

    /// Items loaded from an `NSItemProvider` (share extensions, drag and drop, paste).
    public static let itemProviderLoad = API(
        "NSItemProvider.loadItem(forTypeIdentifier:options:completionHandler:)", classes: ["NSItemProvider"],
        swift: ["loadItem(forTypeIdentifier:options:completionHandler:)", "loadDataRepresentation(forTypeIdentifier:completionHandler:)",
                "loadObject(ofClass:completionHandler:)"],
        selectors: ["loadItemForTypeIdentifier:options:completionHandler:", "loadDataRepresentationForTypeIdentifier:completionHandler:",
                    "loadObjectOfClass:completionHandler:"])

    // MARK: Pasteboard

    /// The general pasteboard's contents, as properties.
    public static let pasteboardContents = API(
        "UIPasteboard.string", classes: ["UIPasteboard"],
        swift: ["string", "strings", "url", "urls", "URL", "URLs", "items", "itemProviders"])

    /// The general pasteboard's contents, by type (the Swift names in the order of their selectors; the
    /// item-set read has no selector listed).
    public static let pasteboardContentsByType = API(
        "UIPasteboard.data(forPasteboardType:)", classes: ["UIPasteboard"],
        swift: ["data(forPasteboardType:)", "value(forPasteboardType:)", "data(forPasteboardType:inItemSet:)"],
        selectors: ["dataForPasteboardType:", "valueForPasteboardType:"])

    // MARK: Notifications

    /// The app delegate's receipt of a remote notification.
    public static let remoteNotificationReceipt = API(
        "UIApplicationDelegate.application(_:didReceiveRemoteNotification:fetchCompletionHandler:)", classes: ["UIApplicationDelegate"],
        swift: ["application(_:didReceiveRemoteNotification:fetchCompletionHandler:)", "application(_:didReceiveRemoteNotification:)"],
        selectors: ["application:didReceiveRemoteNotification:fetchCompletionHandler:", "application:didReceiveRemoteNotification:"])

    /// The notification center delegate's receipt of the user's response to a notification (the async
    /// Swift variant has the same selector).
    public static let notificationResponse = API(
        "UNUserNotificationCenterDelegate.userNotificationCenter(_:didReceive:withCompletionHandler:)",
        classes: ["UNUserNotificationCenterDelegate"],
        swift: ["userNotificationCenter(_:didReceive:withCompletionHandler:)", "userNotificationCenter(_:didReceive:)"],
        selectors: ["userNotificationCenter:didReceiveNotificationResponse:withCompletionHandler:"])

    /// The notification center delegate's receipt of a notification presented while the app is open.
    public static let notificationPresentation = API(
        "UNUserNotificationCenterDelegate.userNotificationCenter(_:willPresent:withCompletionHandler:)",
        classes: ["UNUserNotificationCenterDelegate"],
        swift: ["userNotificationCenter(_:willPresent:withCompletionHandler:)", "userNotificationCenter(_:willPresent:)"],
        selectors: ["userNotificationCenter:willPresentNotification:withCompletionHandler:"])

    /// A notification service extension's receipt of a notification request.
    public static let notificationServiceRequest = API(
        "UNNotificationServiceExtension.didReceive(_:withContentHandler:)", classes: ["UNNotificationServiceExtension"],
        swift: ["didReceive(_:withContentHandler:)"], selectors: ["didReceiveNotificationRequest:withContentHandler:"])

    /// The payload of a notification.
    public static let notificationUserInfo = API("UNNotificationContent.userInfo", classes: ["UNNotificationContent"], swift: ["userInfo"])

    // MARK: CloudKit

    /// Reading a field of a `CKRecord` by key (the subscript is matched by the engine).
    public static let recordFieldRead = API(
        "CKRecord.object(forKey:)", classes: ["CKRecord"],
        swift: ["object(forKey:)", "value(forKey:)"], selectors: ["objectForKey:", "valueForKey:", "objectForKeyedSubscript:"])

    // MARK: C library input

    /// Reads from a socket or a file descriptor into a buffer.
    public static let descriptorRead = API("recv", cFunctions: ["recv", "recvfrom", "read", "pread"])
    /// Reads from a `FILE` stream into a buffer.
    public static let streamRead = API("fread", cFunctions: ["fread"])
    /// Reads a line from a `FILE` stream; returns the buffer.
    public static let streamLineRead = API("fgets", cFunctions: ["fgets"])
    /// Reads an environment variable.
    public static let environmentRead = API("getenv", cFunctions: ["getenv"])

    /// The APIs of this file, for `APIs.all`.
    static let entryPoints: [API] = [
        openURLHandler, deprecatedOpenURLHandler, sceneOpenURLContexts, sceneWillConnect, sceneConnectionInputs, onOpenURL, continueUserActivity,
        onContinueUserActivity, userActivityWebpageURL, scriptMessageReceipt, scriptMessageBody, javaScriptContextStore,
        peerDataReceipt, peerResourceStart, peerResourceFinish, peerStreamReceipt, documentPickerSelection, extensionInputItems,
        itemProviderLoad, pasteboardContents, pasteboardContentsByType, remoteNotificationReceipt, notificationResponse, notificationPresentation,
        notificationServiceRequest, notificationUserInfo, recordFieldRead, descriptorRead, streamRead, streamLineRead, environmentRead,
    ]
}
