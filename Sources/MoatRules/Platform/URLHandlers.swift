import MoatCore
import MoatFormats
import MoatSyntax

/// Where the app receives URLs: custom URL schemes and universal links, in UIKit (app and scene
/// delegates), SwiftUI and Objective-C. Names are function full names (`definedFunctions`) or names the
/// code references (`referencedNames`). One table, shared by the URL scheme, universal link and surface code.
public enum URLHandlerTable {
    /// Current entry points for custom URL schemes.
    public static let schemeHandlers = APIs.openURLHandler.implementedNames + APIs.sceneOpenURLContexts.implementedNames
    /// Entry points deprecated since iOS 9 (they do not get the `options` with the source application).
    public static let deprecatedSchemeHandlers = APIs.deprecatedOpenURLHandler.implementedNames
    /// Scene connection: receives the URLs (`urlContexts`) and user activities (`userActivities`) that launch
    /// a new scene.
    public static let sceneConnection = APIs.sceneWillConnect.implementedNames
    public static let sceneConnectionURLNames = ["urlContexts", "URLContexts"]
    public static let sceneConnectionActivityNames = ["userActivities"]
    /// SwiftUI: `onOpenURL` receives custom-scheme URLs and universal links.
    public static let swiftUIOpenURL = APIs.onOpenURL.swiftBaseNames[0]
    /// Universal links (and other user activities).
    public static let universalLinkHandlers = APIs.continueUserActivity.implementedNames
    public static let swiftUIContinueActivity = APIs.onContinueUserActivity.swiftBaseNames[0]
    /// Names that show a handler deals with web URLs (universal links) rather than Handoff or Spotlight.
    public static let browsingWebNames = ["NSUserActivityTypeBrowsingWeb", "webpageURL"]
    /// Web authentication sessions deliver their callback URL to a completion handler, not to the delegates.
    public static let webAuthenticationNames = ["ASWebAuthenticationSession", "SFAuthenticationSession", "webAuthenticationSession"]
}

/// A place in code that receives URLs.
public struct URLEntryPoint: Sendable {
    public var name: String
    public var match: CodeMatch
    public var isDeprecated: Bool
}

extension Array where Element == SourceSummary {
    /// Every entry point for custom-scheme URLs, in path order.
    public func urlSchemeEntryPoints() -> [URLEntryPoint] {
        var result: [URLEntryPoint] = []
        for source in self.sorted(by: { $0.path < $1.path }) {
            for name in URLHandlerTable.schemeHandlers + URLHandlerTable.deprecatedSchemeHandlers {
                guard let position = source.definedFunctions[name] else { continue }
                result.append(URLEntryPoint(name: name, match: CodeMatch(source, position, APIClause(name)),
                                            isDeprecated: URLHandlerTable.deprecatedSchemeHandlers.contains(name)))
            }
            for name in URLHandlerTable.sceneConnection {
                guard let position = source.definedFunctions[name],
                      URLHandlerTable.sceneConnectionURLNames.contains(where: { source.referencedNames[$0] != nil }) else { continue }
                result.append(URLEntryPoint(name: name + " (urlContexts)",
                                            match: CodeMatch(source, position, APIClause(name)), isDeprecated: false))
            }
            if let position = source.referencedNames[URLHandlerTable.swiftUIOpenURL] {
                result.append(URLEntryPoint(name: "onOpenURL", match: CodeMatch(source, position, APIClause(URLHandlerTable.swiftUIOpenURL)), isDeprecated: false))
            }
        }
        return result
    }

    /// Every entry point for universal links. With `webOnly`, only handlers that look at web URLs
    /// (`webpageURL`, `NSUserActivityTypeBrowsingWeb`), not Handoff or Spotlight activities.
    public func universalLinkEntryPoints(webOnly: Bool = false) -> [URLEntryPoint] {
        var result: [URLEntryPoint] = []
        for source in self.sorted(by: { $0.path < $1.path }) {
            let browsesWeb = URLHandlerTable.browsingWebNames.contains { source.referencedNames[$0] != nil }
            if webOnly && !browsesWeb { continue }
            for name in URLHandlerTable.universalLinkHandlers {
                guard let position = source.definedFunctions[name] else { continue }
                result.append(URLEntryPoint(name: name, match: CodeMatch(source, position, APIClause(name)),
                                            isDeprecated: false))
            }
            for name in URLHandlerTable.sceneConnection {
                guard let position = source.definedFunctions[name],
                      URLHandlerTable.sceneConnectionActivityNames.contains(where: { source.referencedNames[$0] != nil }) else { continue }
                result.append(URLEntryPoint(name: name + " (userActivities)",
                                            match: CodeMatch(source, position, APIClause(name)), isDeprecated: false))
            }
            if let position = source.referencedNames[URLHandlerTable.swiftUIContinueActivity] {
                result.append(URLEntryPoint(name: "onContinueUserActivity",
                                            match: CodeMatch(source, position, APIClause(URLHandlerTable.swiftUIContinueActivity)), isDeprecated: false))
            }
            if !webOnly, let position = source.referencedNames[URLHandlerTable.swiftUIOpenURL] {
                result.append(URLEntryPoint(name: "onOpenURL", match: CodeMatch(source, position, APIClause(URLHandlerTable.swiftUIOpenURL)), isDeprecated: false))
            }
        }
        return result
    }
}

extension URLEntryPoint {
    /// `application(_:open:options:) in App/AppDelegate.swift:12`.
    var placeDescription: String { "\(name) in \(match.path):\(match.position.line)" }
}

/// A custom URL scheme declared in an Info.plist (`CFBundleURLTypes`).
public struct DeclaredURLScheme: Sendable {
    public var scheme: String
    /// The scheme's string node (its line is the `<string>` element's).
    public var node: PlistNode
    public var plist: PropertyListDocument
    /// `CFBundleURLName` of its URL type.
    public var urlName: String?
    /// `CFBundleTypeRole` (`Editor`, `Viewer`, `None`).
    public var role: String?

    /// Every scheme of an Info.plist.
    public static func all(in plist: PropertyListDocument) -> [DeclaredURLScheme] {
        var result: [DeclaredURLScheme] = []
        for type in plist.root["CFBundleURLTypes"]?.array ?? [] {
            guard let schemes = type["CFBundleURLSchemes"] else { continue }
            for node in schemes.array ?? [schemes] {
                guard let scheme = node.string else { continue }
                result.append(DeclaredURLScheme(scheme: scheme, node: node, plist: plist, urlName: type["CFBundleURLName"]?.string,
                                                role: type["CFBundleTypeRole"]?.string))
            }
        }
        return result
    }
}
