import Testing
import MoatCore
@testable import MoatReport

/// The plan reads the delegate selectors from the vocabulary: the same names as the literals they replaced.
struct ObjCNamesFromVocabularyTests {
    static let old: [String: String] = [
        "application(_:open:options:)": "application:openURL:options:",
        "application(_:handleOpen:)": "application:handleOpenURL:",
        "application(_:open:sourceApplication:annotation:)": "application:openURL:sourceApplication:annotation:",
        "application(_:continue:restorationHandler:)": "application:continueUserActivity:restorationHandler:",
        "scene(_:openURLContexts:)": "scene:openURLContexts:",
        "scene(_:continue:)": "scene:continueUserActivity:",
        "scene(_:willConnectTo:options:)": "scene:willConnectToSession:options:",
        "userContentController(_:didReceive:)": "userContentController:didReceiveScriptMessage:",
        "userContentController(_:didReceive:replyHandler:)": "userContentController:didReceiveScriptMessage:replyHandler:",
        "urlSession(_:didReceive:completionHandler:)": "URLSession:didReceiveChallenge:completionHandler:",
        "urlSession(_:task:didReceive:completionHandler:)": "URLSession:task:didReceiveChallenge:completionHandler:",
        "webView(_:didReceive:completionHandler:)": "webView:didReceiveAuthenticationChallenge:completionHandler:",
        "application(_:didReceiveRemoteNotification:fetchCompletionHandler:)": "application:didReceiveRemoteNotification:fetchCompletionHandler:",
        "application(_:didReceiveRemoteNotification:)": "application:didReceiveRemoteNotification:",
        "userNotificationCenter(_:didReceive:withCompletionHandler:)": "userNotificationCenter:didReceiveNotificationResponse:withCompletionHandler:",
        "userNotificationCenter(_:willPresent:withCompletionHandler:)": "userNotificationCenter:willPresentNotification:withCompletionHandler:",
        "pushRegistry(_:didReceiveIncomingPushWith:for:completion:)": "pushRegistry:didReceiveIncomingPushWithPayload:forType:withCompletionHandler:",
        "pushRegistry(_:didReceiveIncomingPushWith:for:)": "pushRegistry:didReceiveIncomingPushWithPayload:forType:",
        "didReceive(_:withContentHandler:)": "didReceiveNotificationRequest:withContentHandler:",
        "documentPicker(_:didPickDocumentsAt:)": "documentPicker:didPickDocumentsAtURLs:",
        "documentPicker(_:didPickDocumentAt:)": "documentPicker:didPickDocumentAtURL:",
        "documentBrowser(_:didPickDocumentsAt:)": "documentBrowser:didPickDocumentsAtURLs:",
        "documentBrowser(_:didImportDocumentAt:toDestinationURL:)": "documentBrowser:didImportDocumentAtURL:toDestinationURL:",
        "session(_:didReceive:fromPeer:)": "session:didReceiveData:fromPeer:",
        "session(_:didReceive:withName:fromPeer:)": "session:didReceiveStream:withName:fromPeer:",
        "session(_:didFinishReceivingResourceWithName:fromPeer:at:withError:)": "session:didFinishReceivingResourceWithName:fromPeer:atURL:withError:",
        "dropInteraction(_:performDrop:)": "dropInteraction:performDrop:",
        "tableView(_:performDropWith:)": "tableView:performDropWithCoordinator:",
        "collectionView(_:performDropWith:)": "collectionView:performDropWithCoordinator:",
        "picker(_:didFinishPicking:)": "picker:didFinishPicking:",
        "application(_:handlerFor:)": "application:handlerForIntent:",
        "init(coder:)": "initWithCoder:",
        "encode(with:)": "encodeWithCoder:",
    ]
    static let old_schemeHandler: [String] = ["application:openURL:options:", "scene:openURLContexts:", "application:handleOpenURL:",
                                         "application:openURL:sourceApplication:annotation:"]
    static let old_linkHandler: [String] = ["application:continueUserActivity:restorationHandler:", "scene:continueUserActivity:"]
    static let old_messageHandler: [String] = ["userContentController:didReceiveScriptMessage:",
                                          "userContentController:didReceiveScriptMessage:replyHandler:"]
    static let old_trustDelegate: [String] = ["URLSession:didReceiveChallenge:completionHandler:",
                                         "URLSession:task:didReceiveChallenge:completionHandler:",
                                         "webView:didReceiveAuthenticationChallenge:completionHandler:"]
    @Test func sameNames() {
        #expect(ObjCNames.protocolSelectors == Self.old)
        #expect(ObjCNames.schemeHandlerSelectors == Self.old_schemeHandler)
        #expect(ObjCNames.linkHandlerSelectors == Self.old_linkHandler)
        #expect(ObjCNames.messageHandlerSelectors == Self.old_messageHandler)
        #expect(ObjCNames.trustDelegateSelectors == Self.old_trustDelegate)
        #expect(APIs.scriptMessageReceipt.fullCallNames == Set(Self.old_messageHandler + ["userContentController(_:didReceive:)", "userContentController(_:didReceive:replyHandler:)"]))
    }
}
