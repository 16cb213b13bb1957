import MoatCore
import MoatSyntax

// What a URL handler may do with the URL it received (MASTG "Testing Custom URL Schemes"), beyond the
// sinks of other rules (file paths, web-view loads, opened URLs, JavaScript...):
//
// - `SensitiveActionAPIs`: APIs that perform a sensitive action whatever they are named in the app's code
//   (placing a call with CallKit, buying with StoreKit). Reported by MOAT-PLAT-303 like the verb-named
//   methods of `SensitiveActions`, also when the URL only chose the route (`if url.host == "call"`).
// - `URLActions`: storing a value, fetching a URL, showing a screen. Harmless when the handler checked the
//   value; reported by MOAT-PLAT-305 when a value from the URL reaches them unchecked. `urlNavigation`
//   entries only change what the user sees (low confidence).
//
// Each entry names its API once per language; `receivers` tells a session or a defaults store from other
// receivers of the same method name.

enum SensitiveActionAPIs {
    static let all: [TaintSink] = [
        TaintSink(kind: .sensitiveAction, api: APIs.callControllerRequest.name, spelling: APISpelling(APIs.callControllerRequest),
                  roles: [(.argument, .all)], receivers: ["CXCallController", "callController", "CallController"]),
        TaintSink(kind: .sensitiveAction, api: "CXProvider.reportOutgoingCall", spelling: APISpelling(APIs.providerReportOutgoingCall),
                  roles: [(.argument, .all)], receivers: ["CXProvider", "provider", "Provider"]),
        TaintSink(kind: .sensitiveAction, api: APIs.paymentQueueAdd.name, spelling: APISpelling(APIs.paymentQueueAdd),
                  roles: [(.argument, .all)], receivers: ["SKPaymentQueue", "paymentQueue", "PaymentQueue"]),
    ]
}

enum URLActions {
    static let defaultsStores = ["UserDefaults", "defaults", "Defaults", "standardUserDefaults", "standard", "NSUbiquitousKeyValueStore",
                                 "keyValueStore", "KeyValueStore"]
    static let sessions = ["URLSession", "session", "Session", "sharedSession", "NSURLSession"]
    /// URLSession's tasks and async calls (upload tasks by their Swift names only).
    static let sessionFetches: APISpelling = {
        let all = APISpelling(APIs.sessionDelegateTask, APIs.sessionDataTask, APIs.sessionDownloadTask, APIs.sessionData, APIs.sessionDownload)
        return APISpelling(swift: all.swift, objc: all.objc.filter { !$0.hasPrefix("upload") })
    }()

    static let all: [TaintSink] = [
        // Store: a setting or a value the app trusts later (a server address, a referral, a feature flag).
        TaintSink(kind: .urlAction, api: APIs.defaultsWrite.name,
                  spelling: APISpelling(swift: ["set", "setValue"], objc: Array(APIs.defaultsWrite.selectors.prefix(3))),
                  roles: [(.data, .index(0))], receivers: defaultsStores, requiredLabels: ["forKey"], kinds: [.untrusted]),
        // Fetch: the app requests what the URL names (with its cookies and headers).
        TaintSink(kind: .urlAction, api: APIs.sessionDelegateTask.name,
                  spelling: sessionFetches,
                  roles: [(.url, .index(0))], receivers: sessions, kinds: [.untrusted]),
        // Show: a screen built from the URL's values (only what the user sees).
        TaintSink(kind: .urlNavigation, api: "pushViewController/present",
                  spelling: APISpelling(swift: ["pushViewController"] + APIs.viewControllerPresentation.swiftBaseNames
                                            + ["showDetailViewController", "setViewControllers"],
                                        objc: [APIs.viewControllerNavigation.selectors[0]] + APIs.viewControllerPresentation.selectors
                                            + APIs.viewControllerNavigation.selectors.dropFirst()),
                  roles: [(.argument, .index(0))], kinds: [.untrusted]),
    ]
}
