/// URLs built from strings, the requests made of them, and what hands a URL to the system rather than
/// loading it (see `API`). `APIs.applicationOpenURL` and `APIs.openURLAction` are in `APIs.swift`.
extension APIs {
    // MARK: URLs and requests

    /// A URL (or URL components) parsed from a string.
    public static let urlFromString = API(
        "URL(string:)", classes: ["URL", "NSURL", "URLComponents", "NSURLComponents"],
        swift: ["URL(string:)", "URL(string:relativeTo:)", "NSURL(string:)", "URLComponents(string:)", "NSURLComponents(string:)"],
        selectors: ["URLWithString:", "URLWithString:relativeToURL:", "initWithString:", "initWithString:relativeToURL:",
                    "componentsWithString:"])

    /// A request created for a URL.
    public static let urlRequestFromURL = API(
        "URLRequest(url:)", classes: ["URLRequest", "NSURLRequest", "NSMutableURLRequest"],
        swift: ["URLRequest(url:)", "URLRequest(url:cachePolicy:timeoutInterval:)", "NSURLRequest(url:)", "NSMutableURLRequest(url:)"],
        selectors: ["requestWithURL:", "requestWithURL:cachePolicy:timeoutInterval:", "initWithURL:", "initWithURL:cachePolicy:timeoutInterval:"])

    /// Alamofire's requests made from a URL string given first (`AF.request("https://…")`).
    public static let alamofireRequestFromString = API(
        "Session.request(_:)", classes: ["Session", "AF"],
        swift: ["request(_:)", "download(_:)", "streamRequest(_:)", "websocketRequest(_:)"])

    // MARK: Handing a URL to the system

    /// `UIApplication` asked whether some app opens a URL.
    public static let applicationCanOpenURL = API(
        "UIApplication.canOpenURL(_:)", classes: ["UIApplication"], swift: ["canOpenURL(_:)"], selectors: ["canOpenURL:"])

    /// SwiftUI's `Link`, which opens its destination in the browser or the app that handles it.
    public static let swiftUILink = API(
        "Link(destination:label:)", classes: ["Link"], swift: ["Link(destination:label:)", "Link(_:destination:)"])

    /// The calls that hand a URL to the system to open (not the app's own traffic).
    public static let systemURLOpens: [API] = [applicationOpenURL, openURLAction]

    /// The APIs of this file, for `APIs.all`.
    static let opening: [API] = [urlFromString, urlRequestFromURL, alamofireRequestFromString, applicationCanOpenURL, swiftUILink]
}
