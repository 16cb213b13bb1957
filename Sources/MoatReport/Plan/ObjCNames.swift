import MoatSyntax

/// Objective-C runtime names for what the code model names in Swift: the selectors of the delegate
/// methods the attack surface lists, the selectors Swift derives for `@objc` methods, the runtime names
/// a Swift class may have, and the Swift-mangled name fragments Moat can offer for pure Swift code.
enum ObjCNames {
    /// Swift full names of Objective-C protocol methods (UIKit, WebKit, Foundation delegates) → their
    /// selectors. A Swift method that satisfies an Objective-C requirement gets the requirement's selector,
    /// not the one Swift would derive from its name.
    static let protocolSelectors: [String: String] = [
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

    /// The URL-receiving delegate selectors (schemes, then universal links), for built apps where only the
    /// runtime can say which class implements them.
    static let schemeHandlerSelectors = ["application:openURL:options:", "scene:openURLContexts:", "application:handleOpenURL:",
                                         "application:openURL:sourceApplication:annotation:"]
    static let linkHandlerSelectors = ["application:continueUserActivity:restorationHandler:", "scene:continueUserActivity:"]
    static let messageHandlerSelectors = ["userContentController:didReceiveScriptMessage:",
                                          "userContentController:didReceiveScriptMessage:replyHandler:"]
    static let trustDelegateSelectors = ["URLSession:didReceiveChallenge:completionHandler:",
                                         "URLSession:task:didReceiveChallenge:completionHandler:",
                                         "webView:didReceiveAuthenticationChallenge:completionHandler:"]

    /// The selector of a function: the name itself for Objective-C, the protocol requirement's selector or
    /// the one Swift derives for `@objc` members. `explicit` is the name given in `@objc(name:)`.
    static func selector(of function: FunctionDeclaration, language: SourceLanguage, explicit: String? = nil) -> String? {
        if language.isCFamily { return function.fullName.contains("(") ? nil : function.fullName }
        if let explicit, !explicit.isEmpty { return explicit }
        if let known = protocolSelectors[function.fullName] { return known }
        return derivedSelector(name: function.name, labels: function.parameters.map(\.label))
    }

    /// The selector Swift derives for an `@objc` method: `f()` → `f`, `f(_:)` → `f:`, `f(x:)` → `fWithX:`,
    /// `f(_:y:)` → `f:y:`, `init(x:)` → `initWithX:`.
    static func derivedSelector(name: String, labels: [String?]) -> String? {
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
        guard let first = labels.first else { return name }
        var selector = name
        if let label = first, !label.isEmpty {
            selector += "With" + label.prefix(1).uppercased() + label.dropFirst()
        }
        selector += ":"
        for label in labels.dropFirst() { selector += (label ?? "") + ":" }
        return selector
    }

    /// The name given in `@objc(name)` before a declaration, read from its text.
    static func explicitObjCName(_ text: Substring) -> String? {
        guard let start = text.range(of: "@objc(") else { return nil }
        let rest = text[start.upperBound...]
        guard let close = rest.firstIndex(of: ")") else { return nil }
        let name = rest[..<close].trimmingCharacters(in: .whitespaces)
        return name.isEmpty ? nil : name
    }

    /// Runtime names a Swift class `name` of module `module` may have: `Module.Name` (what
    /// `NSStringFromClass` prints) and the mangled `_TtC6Module4Name` (what `class_getName` returns).
    static func swiftRuntimeNames(_ name: String, module: String) -> [String] {
        ["\(module).\(name)", "_TtC\(module.utf8.count)\(module)\(name.utf8.count)\(name)"]
    }

    /// A Swift module name from a target or executable name, as Xcode derives it (`My App` → `My_App`).
    static func moduleName(_ target: String) -> String? {
        var result = ""
        for scalar in target.unicodeScalars {
            let character = Character(scalar)
            result.append(character.isLetter || character.isNumber || character == "_" ? character : "_")
        }
        guard let first = result.first else { return nil }
        return first.isNumber ? "_" + result : result
    }

    /// A glob matching the Swift-mangled symbol of `Type.method` (`*14TransferRouterC6handle*`): the
    /// best symbol Moat can offer for a pure Swift function (unstripped or debug builds only). `kind` is
    /// `C` for classes, `V` for structs, `O` for enums; unknown kinds match any.
    static func mangledGlob(type: String?, kind: TypeKind?, function: String) -> String {
        let base = function.split(separator: "(").first.map(String.init) ?? function
        guard let type, !type.isEmpty else { return "*\(base.utf8.count)\(base)*" }
        let marker: String
        switch kind {
        case .class?: marker = "C"
        case .struct?: marker = "V"
        case .enum?: marker = "O"
        default: marker = ""
        }
        return "*\(type.utf8.count)\(type)\(marker)*\(base.utf8.count)\(base)*"
    }
}
