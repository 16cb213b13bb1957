import MoatCore
import MoatSyntax

/// What a sink does with untrusted data. Each kind belongs to one rule.
public enum SinkKind: String, Sendable, Hashable, CaseIterable {
    case filePath, javaScript, webViewLoad, openURL, classLookup, unarchive, memoryCopy, stringFromBuffer
    case allocation, predicateFormat, sqlStatement, sensitiveAction, stateChange
    /// Where sensitive data must not go (`Sinks+Sensitive.swift`).
    case defaultsWrite, fileWrite, databaseWrite, logWrite, pasteboardWrite, urlString
    /// What a URL handler does with the URL's values: store, fetch (`URLActions`); show a screen.
    case urlAction, urlNavigation
    /// A library call that extracts a whole archive without checking that entries stay in the destination.
    case archiveExtraction
    /// A file read, a folder listed, a database or bundle opened by path (MOAT-CODE-301 when the path also
    /// starts in a folder of the app: a name from outside joined to it).
    case fileRead, storeOpen

    /// The rule that reports flows into this kind of sink.
    public var ruleId: String {
        switch self {
        case .filePath, .archiveExtraction, .fileRead, .storeOpen: "MOAT-CODE-301"
        case .stateChange: "MOAT-CODE-302"
        case .classLookup, .unarchive: "MOAT-CODE-303"
        case .memoryCopy, .stringFromBuffer: "MOAT-CODE-304"
        case .allocation: "MOAT-CODE-305"
        case .predicateFormat: "MOAT-CODE-306"
        case .sqlStatement: "MOAT-CODE-307"
        case .javaScript: "MOAT-PLAT-301"
        case .webViewLoad: "MOAT-PLAT-302"
        case .sensitiveAction: "MOAT-PLAT-303"
        case .openURL: "MOAT-PLAT-304"
        case .defaultsWrite: "MOAT-STOR-203"
        case .fileWrite: "MOAT-STOR-204"
        case .databaseWrite: "MOAT-STOR-301"
        case .logWrite: "MOAT-STOR-302"
        case .pasteboardWrite: "MOAT-STOR-303"
        case .urlString: "MOAT-NET-301"
        case .urlAction, .urlNavigation: "MOAT-PLAT-305"
        }
    }
}

/// The part of a sink call a role designates.
public enum SinkRole: String, Sendable, Hashable {
    case path, script, url, html, className, data, classes, destination, source, length, count, buffer, size
    case format, sql, argument
    /// What is stored, logged, copied or sent (sensitive sinks), and the key it is stored under.
    case value, key
    /// Untrusted input that chose to run the call (a condition on the path read it), not an argument.
    case trigger
    /// The archive a library extracts, and the folder it extracts into.
    case archive, folder
}

enum ArgumentSelector: Sendable, Hashable {
    /// The argument with one of these labels (Swift label or Objective-C selector piece).
    case label(Set<String>)
    /// The argument at this position.
    case index(Int)
    /// The receiver of the call (`data` in `[data getBytes:...]`).
    case receiver
    /// Every argument.
    case all
}

/// The roles of an entry's arguments in one language's form of the API.
struct SinkForm: Sendable {
    var roles: [(role: SinkRole, argument: ArgumentSelector)]
    var requiredLabels: Set<String>? = nil
}

/// A sink entry as one of its spellings sees it: the roles and required labels of that spelling's form.
struct SinkMatch: Sendable {
    let sink: TaintSink
    let roles: [(role: SinkRole, argument: ArgumentSelector)]
    let requiredLabels: Set<String>?
}

/// One entry of the sink table.
struct TaintSink: Sendable {
    var kind: SinkKind
    /// How messages name the API.
    var api: String
    /// Swift base names (or initializer type names), Objective-C selectors, C function names.
    var spelling: APISpelling
    var roles: [(role: SinkRole, argument: ArgumentSelector)]
    /// When not empty, the receiver's chain of names (or its declared type) must mention one of these.
    var receivers: [String] = []
    /// When given, one argument must carry one of these labels (tells `write(to:)` from other `write`s).
    var requiredLabels: Set<String>? = nil
    /// How the Objective-C selectors pass the values, when not as `roles` says (`copyItemAtURL:toURL:error:`
    /// passes the source first, where Swift labels it `at:`).
    var objcForm: SinkForm? = nil
    /// Only in C-family files.
    var cFamilyOnly = false
    /// C functions matched only as free calls: no receiver, no argument labels (a Swift or Objective-C
    /// method of the same name is not the C function).
    var freeFunction = false
    /// The kinds of flow this sink reports: input from the app's entry points and content from the network.
    var kinds: Set<FlowKind> = [.untrusted, .remote]
    /// The spellings are properties whose assignment is the sink (`UIPasteboard.general.string = token`),
    /// not calls.
    var isSetter = false
    /// The spellings are infix operators (SQLite.swift's `password <- value`): the left side is argument 0,
    /// the right side argument 1.
    var isOperator = false
    /// When given, one argument must be a name of this list (GRDB's `user.insert(db)`: the database the
    /// `write` closure gives).
    var argumentNames: Set<String>? = nil
    /// When given, only in files that import one of these modules (`<-` is SQLite.swift's setter in a file
    /// that imports `SQLite`, ObjectMapper's mapping operator elsewhere).
    var modules: Set<String>? = nil
}

/// THE table of sinks, each with the rule it belongs to (`SinkKind.ruleId`). One entry per API: its Swift,
/// Objective-C and C spellings; `objcForm` when the selectors pass the values differently.
enum TaintSinks {
    static let fileManager = ["FileManager", "fileManager", "NSFileManager", "defaultManager", "default", "manager", "fm"]

    static let all: [TaintSink] = [
        // MARK: File paths (MOAT-CODE-301): the destination of a write, copy, move, create or remove.
        // `.source` is the file copied or moved: when it is the untrusted URL itself, the operation only
        // works on a real file, whose last path component is a real name.
        TaintSink(kind: .filePath, api: "FileManager.copyItem/moveItem/linkItem",
                  spelling: APISpelling(APIs.fileManagerCopy),
                  roles: [(.path, .label(["to", "toPath"])), (.source, .label(["at", "atPath"]))], requiredLabels: ["to", "toPath"],
                  objcForm: SinkForm(roles: [(.path, .label(["toURL", "toPath"])), (.source, .index(0))])),
        TaintSink(kind: .filePath, api: "FileManager.removeItem",
                  spelling: APISpelling(APIs.fileManagerRemove),
                  roles: [(.path, .label(["at", "atPath"]))], requiredLabels: ["at", "atPath"],
                  objcForm: SinkForm(roles: [(.path, .index(0))])),
        TaintSink(kind: .filePath, api: APIs.fileManagerCreateFile.name,
                  spelling: APISpelling(APIs.fileManagerCreateFile),
                  roles: [(.path, .label(["atPath"]))], requiredLabels: ["atPath"],
                  objcForm: SinkForm(roles: [(.path, .index(0))])),
        TaintSink(kind: .filePath, api: "FileManager.createDirectory",
                  spelling: APISpelling(APIs.fileManagerCreateDirectory),
                  roles: [(.path, .label(["at", "atPath"]))], requiredLabels: ["at", "atPath"],
                  objcForm: SinkForm(roles: [(.path, .index(0))])),
        TaintSink(kind: .filePath, api: APIs.fileWrite.swift[0],
                  spelling: APISpelling(APIs.fileWrite),
                  roles: [(.path, .label(["to", "toFile"]))], requiredLabels: ["to", "toFile"],
                  objcForm: SinkForm(roles: [(.path, .index(0))])),
        TaintSink(kind: .filePath, api: APIs.fileHandleForWriting.name, spelling: APISpelling(APIs.fileHandleForWriting),
                  roles: [(.path, .label(["forWritingTo", "forWritingAtPath", "forUpdating", "forUpdatingAtPath",
                                          "fileHandleForWritingAtPath", "fileHandleForWritingToURL", "fileHandleForUpdatingAtPath"]))]),

        // MARK: JavaScript evaluation (MOAT-PLAT-301)
        TaintSink(kind: .javaScript, api: "evaluateJavaScript", spelling: APISpelling(APIs.webViewJavaScriptEvaluation, APIs.uiWebViewJavaScriptEvaluation),
                  roles: [(.script, .index(0))]),
        TaintSink(kind: .javaScript, api: "JSContext.evaluateScript", spelling: APISpelling(APIs.javaScriptContextEvaluation),
                  roles: [(.script, .index(0))]),
        TaintSink(kind: .javaScript, api: "WKUserScript(source:)", spelling: APISpelling(APIs.userScriptCreation),
                  roles: [(.script, .label(["source", "initWithSource"]))]),

        // MARK: Web view loads (MOAT-PLAT-302)
        // A URL from the network (a link in the app's own server's response) is navigation the app asked for:
        // URL loads and opens report input from the entry points only; HTML and data report remote content too.
        TaintSink(kind: .webViewLoad, api: "WKWebView.load", spelling: APISpelling(APIs.webViewLoadRequest), roles: [(.url, .index(0))],
                  receivers: ["webView", "webview", "WebView"], kinds: [.untrusted]),
        TaintSink(kind: .webViewLoad, api: APIs.webViewLoadData.name,
                  spelling: APISpelling(APIs.webViewLoadData),
                  roles: [(.html, .index(0))], receivers: ["webView", "webview", "WebView"], requiredLabels: ["mimeType", "MIMEType"]),
        TaintSink(kind: .webViewLoad, api: APIs.webViewLoadFileURL.name,
                  spelling: APISpelling(APIs.webViewLoadFileURL),
                  roles: [(.url, .index(0)), (.url, .label(["allowingReadAccessTo", "allowingReadAccessToURL"]))]),
        TaintSink(kind: .webViewLoad, api: APIs.webViewLoadHTML.name, spelling: APISpelling(APIs.webViewLoadHTML),
                  roles: [(.html, .index(0)), (.url, .label(["baseURL"]))]),

        // MARK: Opening URLs (MOAT-PLAT-304)
        TaintSink(kind: .openURL, api: "UIApplication.open(_:)", spelling: APISpelling(APIs.applicationOpenURL),
                  roles: [(.url, .index(0))], receivers: ["UIApplication", "application", "Application", "sharedApplication", "NSWorkspace"],
                  kinds: [.untrusted]),
        TaintSink(kind: .openURL, api: "OpenURLAction", spelling: APISpelling(APIs.openURLAction), roles: [(.url, .index(0))], kinds: [.untrusted]),

        // MARK: Deserialization (MOAT-CODE-303)
        TaintSink(kind: .classLookup, api: APIs.classLookup.name, spelling: APISpelling(APIs.classLookup),
                  roles: [(.className, .index(0))], kinds: [.untrusted, .remote, .stored]),
        TaintSink(kind: .unarchive, api: APIs.keyedUnarchiverSecure.name,
                  spelling: APISpelling(APIs.keyedUnarchiverSecure),
                  roles: [(.classes, .index(0)), (.data, .label(["from", "fromData"]))]),

        // MARK: Memory copies (MOAT-CODE-304)
        TaintSink(kind: .memoryCopy, api: APIs.memoryCopyC.name, spelling: APISpelling(APIs.memoryCopyC),
                  roles: [(.destination, .index(0)), (.source, .index(1)), (.length, .index(2))]),
        TaintSink(kind: .memoryCopy, api: APIs.stringCopyC.name, spelling: APISpelling(APIs.stringCopyC),
                  roles: [(.destination, .index(0)), (.source, .index(1))], cFamilyOnly: true),
        TaintSink(kind: .memoryCopy, api: "-[NSData getBytes:length:]", spelling: APISpelling(APIs.dataGetBytes),
                  roles: [(.destination, .index(0)), (.length, .label(["length"])), (.source, .receiver)], requiredLabels: ["length"]),
        TaintSink(kind: .memoryCopy, api: APIs.dataCopyBytes.name, spelling: APISpelling(APIs.dataCopyBytes),
                  roles: [(.destination, .label(["to"])), (.length, .label(["count"])), (.source, .receiver)], requiredLabels: ["count"]),
        TaintSink(kind: .memoryCopy, api: APIs.rawMemoryCopy.swift[0], spelling: APISpelling(APIs.rawMemoryCopy),
                  roles: [(.destination, .receiver), (.source, .label(["from"])), (.length, .label(["byteCount"]))],
                  requiredLabels: ["byteCount"]),
        TaintSink(kind: .stringFromBuffer, api: APIs.stringFromCharacters.name,
                  spelling: APISpelling(APIs.stringFromCharacters),
                  roles: [(.buffer, .label(["utf16CodeUnits", "characters"])), (.count, .label(["count", "length"]))],
                  requiredLabels: ["utf16CodeUnits", "characters"],
                  objcForm: SinkForm(roles: [(.buffer, .index(0)), (.count, .index(1))])),

        // MARK: Allocation sizes (MOAT-CODE-305; reported when an unchecked product reaches them)
        TaintSink(kind: .allocation, api: APIs.allocationC.name, spelling: APISpelling(APIs.allocationC), roles: [(.size, .index(0))]),
        TaintSink(kind: .allocation, api: APIs.reallocationC.name, spelling: APISpelling(APIs.reallocationC), roles: [(.size, .index(1))]),
        TaintSink(kind: .allocation, api: APIs.arrayAllocationC.name, spelling: APISpelling(APIs.arrayAllocationC), roles: [(.size, .index(0)), (.size, .index(1))]),
        TaintSink(kind: .allocation, api: "allocate(byteCount:)", spelling: APISpelling(APIs.pointerAllocation),
                  roles: [(.size, .label(["byteCount", "capacity"]))]),
        TaintSink(kind: .allocation, api: APIs.dataWithLength.name,
                  spelling: APISpelling(APIs.dataWithLength),
                  roles: [(.size, .label(["count", "length", "capacity"]))],
                  objcForm: SinkForm(roles: [(.size, .index(0))])),
        TaintSink(kind: .allocation, api: "-[NSData initWithBytes:length:]", spelling: APISpelling(objc: APIs.dataFromBytes.selectors),
                  roles: [(.size, .index(1))]),
        // Comparisons (`==`, `!=`, `<`...): a wrapped product makes a length check pass.
        TaintSink(kind: .allocation, api: "a length check", spelling: APISpelling(), roles: [(.size, .all)]),

        // MARK: Queries (MOAT-CODE-306, MOAT-CODE-307)
        TaintSink(kind: .predicateFormat, api: APIs.predicateFormat.name,
                  spelling: APISpelling(APIs.predicateFormat),
                  roles: [(.format, .label(["format"]))], requiredLabels: ["format"],
                  objcForm: SinkForm(roles: [(.format, .index(0))])),
        TaintSink(kind: .sqlStatement, api: "sqlite3_exec/sqlite3_prepare",
                  spelling: APISpelling(APIs.sqliteStatement),
                  roles: [(.sql, .index(1))]),

        // MARK: Sensitive actions (MOAT-PLAT-303): matched by the called method's name, see `SensitiveActions`.
        TaintSink(kind: .sensitiveAction, api: "a sensitive action", spelling: APISpelling(), roles: [(.argument, .all)]),

        // MARK: State changes (MOAT-CODE-302): writes of state properties and connection openers, matched by
        // names, see `StateTransitions`. Not followed by the engine: the rule and `moat diff` ask where they are.
        TaintSink(kind: .stateChange, api: "a state change", spelling: APISpelling(), roles: [(.argument, .all)]),
    ] + copiesAndFiles + pathReads + sensitive + SensitiveActionAPIs.all + URLActions.all + archive

    /// Each spelling's entries, in table order, with the roles of that spelling's form.
    static let byName: [String: [SinkMatch]] = {
        var table: [String: [SinkMatch]] = [:]
        for sink in all where !sink.isSetter && !sink.isOperator {
            let form = SinkMatch(sink: sink, roles: sink.roles, requiredLabels: sink.requiredLabels)
            for name in sink.spelling.swift + sink.spelling.c { table[name, default: []].append(form) }
            let objcForm = sink.objcForm.map { SinkMatch(sink: sink, roles: $0.roles, requiredLabels: $0.requiredLabels) } ?? form
            for name in sink.spelling.objc { table[name, default: []].append(objcForm) }
        }
        return table
    }()

    /// Properties whose assignment is a sink, by name.
    static let setters: [String: [TaintSink]] = {
        var table: [String: [TaintSink]] = [:]
        for sink in all where sink.isSetter {
            for name in sink.spelling.names { table[name, default: []].append(sink) }
        }
        return table
    }()

    /// Infix operators that are sinks, by spelling.
    static let operators: [String: [TaintSink]] = {
        var table: [String: [TaintSink]] = [:]
        for sink in all where sink.isOperator {
            for name in sink.spelling.names { table[name, default: []].append(sink) }
        }
        return table
    }()

    /// Calls that look a class up by name: they return the looked-up class (MOAT-CODE-303 reports it when
    /// used for anything but a check, see `Checks.classInspection`).
    static let classLookupNames: Set<String> = Set(all.filter { $0.kind == .classLookup }.flatMap(\.spelling.names))
    static let classLookup: TaintSink = all.first { $0.kind == .classLookup }!
    static let sensitiveAction: TaintSink = all.first { $0.kind == .sensitiveAction }!
    static let lengthComparison: TaintSink = all.first { $0.api == "a length check" }!
}

/// Method names that perform an action a URL must not trigger on its own (MASTG-TEST-0075): place a call,
/// pay, delete, send, transfer, change settings, sign in or out.
enum SensitiveActions {
    static let verbs: Set<String> = ["call", "dial", "purchase", "buy", "pay", "checkout", "delete", "erase",
                                     "wipe", "send", "transfer", "withdraw", "logout", "signout", "login", "signin",
                                     "authenticate", "authorize", "remove", "change", "update", "set", "reset", "save"]
    /// Verbs that are sensitive only with one of these objects (`changePassword`, `updateSettings`, `removeAccount`).
    static let qualifiedVerbs: Set<String> = ["remove", "change", "update", "set", "reset", "save"]
    static let sensitiveObjects: Set<String> = ["setting", "settings", "password", "passcode", "pin", "email", "phone", "preference",
                                                "preferences", "config", "configuration", "account", "permission", "permissions",
                                                "card", "payment", "payee", "contact", "device", "user", "member", "friend",
                                                "credential", "credentials", "address", "recipient", "limit"]
    /// Verbs that are sensitive even when the URL only chose the route and passes nothing to the call
    /// (`if url.host == "deleteAccount" { account.delete() }`): destroying, paying, calling, signing out.
    /// Verbs that need the URL's values to do harm (`send`, `set`, `login`) are left out.
    static let routeOnlyVerbs: Set<String> = ["call", "dial", "purchase", "buy", "pay", "checkout", "delete", "erase", "wipe", "transfer",
                                              "withdraw", "logout", "signout", "remove", "reset", "disable", "show", "open", "present",
                                              "enable", "unlock", "toggle"]
    /// Hidden features a URL must not open on its own (MASTG: "discover hidden functionality (e.g., a debug
    /// window)"): `showDebugMenu`, `enableDeveloperMode`, `openAdminPanel`.
    static let featureVerbs: Set<String> = ["show", "open", "present", "enable", "unlock", "toggle", "display"]
    static let hiddenFeatures: Set<String> = ["debug", "developer", "admin", "diagnostics", "diagnostic", "staging", "cheat", "cheats"]
    /// Turning off a protection: `disablePasscode`, `disableAppLock`.
    static let protectionObjects: Set<String> = ["passcode", "pin", "lock", "biometric", "biometrics", "authentication", "security",
                                                 "protection", "encryption"]

    /// Whether the action is sensitive when the URL only chose it (see `routeOnlyVerbs`).
    static func actsWithoutArguments(_ verb: String) -> Bool { routeOnlyVerbs.contains(verb) }

    /// Objects that make any verb harmless bookkeeping.
    static let harmlessObjects: Set<String> = ["analytics", "event", "events", "log", "logs", "metric", "metrics", "telemetry",
                                               "breadcrumb", "observer", "observers", "notification", "animation", "animations",
                                               "subview", "subviews", "superview", "gesture", "constraint", "constraints", "cache",
                                               "layout", "title", "image", "text", "color", "needs", "display", "frame", "hidden",
                                               "delegate", "target", "value", "object", "state", "selected", "highlighted", "completion",
                                               "handler", "callback", "block", "backward", "forward", "as"]

    static let bookkeepingReceiverWords: Set<String> = ["analytics", "tracker", "tracking", "logger", "log", "logs", "logging", "telemetry",
                                                         "metrics", "crashlytics"]

    /// Analytics, logging and tracking calls (`tracker.send(event:)`, `Analytics.logEvent`).
    static func isBookkeeping(labels: [String], receiver: Expression?) -> Bool {
        for label in labels where CamelCase.words(label).contains(where: { harmlessObjects.contains($0.lowercased()) }) { return true }
        guard let receiver else { return false }
        // By words, so that `LoginLinkHandler` or `catalog` is not taken for a log.
        return receiver.nameChain.contains { link in
            CamelCase.words(link).contains { bookkeepingReceiverWords.contains($0.lowercased()) }
        }
    }

    /// The verb that makes this method name sensitive, or nil. `name` is a Swift base name or the first
    /// selector piece.
    static func action(in name: String) -> String? {
        let words = CamelCase.words(name).map { $0.lowercased() }
        guard var verb = words.first else { return nil }
        var rest = Array(words.dropFirst())
        // logOut, signOut, logIn, signIn
        if (verb == "log" || verb == "sign"), let next = rest.first, next == "out" || next == "in" {
            verb += next
            rest.removeFirst()
        }
        if featureVerbs.contains(verb) { return rest.contains(where: hiddenFeatures.contains) ? verb : nil }
        if verb == "disable" { return rest.contains(where: protectionObjects.contains) ? verb : nil }
        guard verbs.contains(verb) else { return nil }
        if rest.contains(where: harmlessObjects.contains) { return nil }
        if qualifiedVerbs.contains(verb), !rest.contains(where: sensitiveObjects.contains) { return nil }
        return verb
    }
}
