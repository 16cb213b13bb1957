import JavaScriptCore

/// Lets the offers page call into the app through the page's JavaScript context.
final class OffersBridge {
    var sessionToken = ""
    var pushToken = ""

    func install(in context: JSContext) {
        let token: @convention(block) () -> String = { [weak self] in
            return self?.sessionToken ?? ""
        }
        context.setObject(token, forKeyedSubscript: "getSessionToken" as NSString)
        let signedIn: @convention(block) () -> Bool = { [weak self] in self?.sessionToken.isEmpty == false }
        context.setObject(signedIn, forKeyedSubscript: "isSignedIn" as NSString)
        let push: @convention(block) () -> String = { [weak self] in self?.pushToken ?? "" }
        context.setObject(push, forKeyedSubscript: "pushToken" as NSString)
    }
}
