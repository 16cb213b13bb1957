import MoatCore
import MoatSyntax

/// How a source shows up in code.
enum SourcePattern: Sendable {
    /// Parameters (by index, 0-based) of a method implementation with one of these full names (Swift
    /// `application(_:open:options:)`, Objective-C `application:openURL:options:`). With `latent`, the
    /// parameter becomes untrusted only when one of those members is read (`userActivity.webpageURL`).
    case parameter(functions: APISpelling, index: Int, latent: Set<String>?)
    /// A parameter of a closure or block passed to a call with one of these names (Swift base names,
    /// Objective-C selectors, C functions).
    case closureParameter(calls: APISpelling, index: Int, latent: Set<String>?)
    /// Reading a property with one of these names, on a receiver whose chain of names mentions one of
    /// `receivers` (any receiver when empty), or whose declared type mentions `receiverType`.
    case member(names: APISpelling, receivers: [String], receiverType: String?)
    /// Calling a method with one of these names (base name or selector) on such a receiver; `labels`, when
    /// given, are the accepted first argument labels.
    case call(names: APISpelling, receivers: [String], labels: Set<String>?)
    /// A value read from a `CKRecord` (subscript, `object(forKey:)`, `value(forKey:)`, `objectForKey:`...).
    case recordField
    /// A C library call that writes untrusted bytes into the buffer passed as argument `index`.
    case cOutArgument(functions: APISpelling, index: Int)
    /// A C library call whose result is untrusted.
    case cResult(functions: APISpelling)
    /// Parameters of a function that handles messages from an identified remote sender
    /// (`handleIncomingFile(_:with:from:)`): all but the sender are untrusted. A heuristic: medium confidence.
    case remoteHandlerParameters
    /// Parameters of methods declared in a protocol that inherits `JSExport`, in classes adopting it.
    case javaScriptExportParameters
    /// Parameters of a block or closure stored into a `JSContext` (`context[@"name"] = ^(NSString *s) {...}`).
    case javaScriptContextBlockParameters
    /// A content reader: an initializer or class method that reads what a URL points to (`Data(contentsOf:)`,
    /// `[NSString stringWithContentsOfURL:...]`). Swift spellings are type names called with a first argument
    /// labeled one of `labels`; Objective-C selectors are sent to a receiver that mentions one of `receivers`,
    /// the URL first. It is a source unless the URL carries a kind of `localKinds` (a file or bundle URL the
    /// app built) or is a file the system created; then the content is what the URL's own taints say.
    case contentRead(names: APISpelling, labels: Set<String>, receivers: [String], localKinds: Set<FlowKind>)
    /// A decoder: its result is as untrusted as its input. Listed for the record; the engine already
    /// propagates through every call that is not a sanitizer.
    case decoder(names: APISpelling)
    /// A call, in any language, that writes the source into the variable passed as argument `index`
    /// (`SecItemCopyMatching(query, &item)`).
    case outArgument(functions: APISpelling, index: Int)
    /// A subscript read on a receiver whose chain of names mentions one of `receivers` (`keychain["token"]`).
    case subscriptRead(receivers: [String])
    /// The text (`members`) of a text field the file makes secure (`field.isSecureTextEntry = true`, one of
    /// `flags`), and the variables bound to the text of a `bindings` view (`SecureField("PIN", text: $pin)`).
    case secureText(flags: APISpelling, members: APISpelling, bindings: APISpelling)
    /// A value named as a secret or personal datum (`SensitiveNaming`): a variable, parameter or property
    /// read, a dictionary value stored or read under such a key, a call of a function named as returning one.
    case sensitiveName
    /// A value encoded by one of `encoders` (on a receiver mentioning one of `receivers`) whose type, declared
    /// in the file, has a property named as sensitive data (`struct Session: Codable { var password: String }`).
    case encodedSecretType(encoders: APISpelling, receivers: [String])
}

/// One entry of the source table.
struct TaintSource: Sendable {
    /// What kind of input it is; its kind of flow is `kind.flow`.
    var kind: SourceKind
    var description: String
    var pattern: SourcePattern
    var confidence: Confidence = .high
    var isSystemFileURL = false
    /// The source is added to what the call returns instead of replacing it (`URL(fileURLWithPath: path)`
    /// is a local file URL and still carries `path`'s taints). Only for `.call` and `.member` patterns.
    var addsToResult = false
}

/// THE table of untrusted inputs. Everything the engine treats as attacker-controlled is listed here.
enum TaintSources {
    static let all: [TaintSource] = [
        // MARK: URL schemes and universal links (MASTG-TEST-0075)
        TaintSource(kind: .urlScheme, description: "the URL opened through application(_:open:options:)",
                    pattern: .parameter(functions: APISpelling(implementing: APIs.openURLHandler, APIs.deprecatedOpenURLHandler),
                                        index: 1, latent: nil)),
        TaintSource(kind: .urlScheme, description: "the URL contexts passed to scene(_:openURLContexts:)",
                    pattern: .parameter(functions: APISpelling(implementing: APIs.sceneOpenURLContexts), index: 1, latent: nil)),
        TaintSource(kind: .urlScheme, description: "the URL contexts in the connection options of scene(_:willConnectTo:options:)",
                    pattern: .parameter(functions: APISpelling(implementing: APIs.sceneWillConnect),
                                        index: 2, latent: APIs.sceneConnectionInputs.callNames)),
        TaintSource(kind: .urlScheme, description: "the URL passed to onOpenURL",
                    pattern: .closureParameter(calls: APISpelling(APIs.onOpenURL), index: 0, latent: nil)),
        TaintSource(kind: .universalLink, description: "the webpageURL of the user activity passed to application(_:continue:restorationHandler:)",
                    pattern: .parameter(functions: APISpelling(implementing: APIs.continueUserActivity),
                                        index: 1, latent: APIs.userActivityWebpageURL.callNames)),
        TaintSource(kind: .universalLink, description: "the webpageURL of the user activity passed to onContinueUserActivity",
                    pattern: .closureParameter(calls: APISpelling(APIs.onContinueUserActivity), index: 0, latent: APIs.userActivityWebpageURL.callNames)),
        TaintSource(kind: .universalLink, description: "NSUserActivity.webpageURL",
                    pattern: .member(names: APISpelling(APIs.userActivityWebpageURL), receivers: [], receiverType: nil)),

        // MARK: WebKit and JavaScriptCore bridges (MASTG-TEST-0078)
        TaintSource(kind: .scriptMessage, description: "the body of a WKScriptMessage posted by page JavaScript",
                    pattern: .parameter(functions: APISpelling(implementing: APIs.scriptMessageReceipt),
                                        index: 1, latent: APIs.scriptMessageBody.callNames)),
        TaintSource(kind: .scriptMessage, description: "WKScriptMessage.body",
                    pattern: .member(names: APISpelling(APIs.scriptMessageBody), receivers: [], receiverType: APIs.scriptMessageBody.classes.first)),
        TaintSource(kind: .javaScriptBridge, description: "a parameter of a JSExport method, called by page JavaScript",
                    pattern: .javaScriptExportParameters),
        TaintSource(kind: .javaScriptBridge, description: "a parameter of a block exposed to JavaScript through a JSContext",
                    pattern: .javaScriptContextBlockParameters),

        // MARK: MultipeerConnectivity (MCSessionDelegate)
        TaintSource(kind: .peerToPeer, description: "the data a nearby peer sent (MCSession didReceive data)",
                    pattern: .parameter(functions: APISpelling(implementing: APIs.peerDataReceipt), index: 1, latent: nil)),
        TaintSource(kind: .peerToPeer, description: "the peer ID of the sender, with the display name it chose",
                    pattern: .parameter(functions: APISpelling(implementing: APIs.peerDataReceipt, APIs.peerResourceStart, APIs.peerResourceFinish),
                                        index: 2, latent: nil)),
        TaintSource(kind: .peerToPeer, description: "the resource name a nearby peer chose (MCSession didReceiveResource)",
                    pattern: .parameter(functions: APISpelling(implementing: APIs.peerResourceStart, APIs.peerResourceFinish),
                                        index: 1, latent: nil)),
        TaintSource(kind: .peerToPeer, description: "the file a nearby peer sent (MCSession resource URL)",
                    pattern: .parameter(functions: APISpelling(implementing: APIs.peerResourceFinish),
                                        index: 3, latent: nil),
                    isSystemFileURL: true),
        TaintSource(kind: .peerToPeer, description: "the stream name a nearby peer chose",
                    pattern: .parameter(functions: APISpelling(implementing: APIs.peerStreamReceipt),
                                        index: 2, latent: nil)),
        TaintSource(kind: .peerToPeer, description: "the peer ID of the sender, with the display name it chose",
                    pattern: .parameter(functions: APISpelling(implementing: APIs.peerStreamReceipt),
                                        index: 3, latent: nil)),

        // MARK: Network input
        TaintSource(kind: .network, description: "data received on an NWConnection or a WebSocket",
                    pattern: .closureParameter(calls: APISpelling(APIs.connectionReceive, APIs.webSocketReceiveCallback), index: 0, latent: nil)),
        TaintSource(kind: .network, description: "a message received on a URLSessionWebSocketTask",
                    pattern: .call(names: APISpelling(APIs.webSocketReceive), receivers: [], labels: [])),
        TaintSource(kind: .network, description: "the response data of a URLSession task",
                    pattern: .closureParameter(calls: APISpelling(APIs.sessionDataTask), index: 0, latent: nil)),
        TaintSource(kind: .network, description: "the file a URLSession download task saved",
                    pattern: .closureParameter(calls: APISpelling(APIs.sessionDownloadTask), index: 0, latent: nil),
                    isSystemFileURL: true),
        TaintSource(kind: .network, description: "the response data of URLSession.data(from:)",
                    pattern: .call(names: APISpelling(APIs.sessionData), receivers: ["URLSession", "session", "Session"],
                                   labels: ["from", "for"])),
        TaintSource(kind: .network, description: "the data a URLSession data task received",
                    pattern: .parameter(functions: APISpelling(implementing: APIs.sessionDataDelegateReceipt),
                                        index: 2, latent: nil)),

        TaintSource(kind: .network, description: "the file a URLSession download saved (download(from:))",
                    pattern: .call(names: APISpelling(APIs.sessionDownload), receivers: ["URLSession", "session", "Session"], labels: ["from", "for"]),
                    isSystemFileURL: true),
        TaintSource(kind: .network, description: "data received from the network by an NSURLConnection",
                    pattern: .parameter(functions: APISpelling(implementing: APIs.connectionDataDelegateReceipt),
                                        index: 1, latent: nil)),
        TaintSource(kind: .network, description: "the file name a server suggested (URLResponse.suggestedFilename)",
                    pattern: .member(names: APISpelling(APIs.responseSuggestedFilename), receivers: [], receiverType: nil)),

        // MARK: Remote content (issue 14): what a URL that is not provably a local file points to
        TaintSource(kind: .remoteContent, description: "content downloaded from a URL",
                    pattern: .contentRead(names: APISpelling(APIs.contentsOfURL),
                                          labels: ["contentsOf"],
                                          receivers: ["NSString", "NSMutableString", "NSData", "NSMutableData", "NSDictionary", "NSArray"],
                                          localKinds: [.localFile])),
        TaintSource(kind: .remoteContent, description: "a stream of content downloaded from a URL",
                    pattern: .contentRead(names: APISpelling(APIs.inputStreamFromURL),
                                          labels: ["url"], receivers: ["NSInputStream"], localKinds: [.localFile])),

        // MARK: Local file URLs (kind `localFile`: proves a URL local, reaches no sink)
        TaintSource(kind: .localFileURL, description: "a file URL built from a path",
                    pattern: .call(names: APISpelling(APIs.fileURLFromPath),
                                   receivers: [], labels: Set(APIs.fileURLFromPath.swiftFirstLabels + APIs.fileURLFromPath.selectors)),
                    addsToResult: true),
        TaintSource(kind: .localFileURL, description: "a resource URL of the app's bundle",
                    pattern: .call(names: APISpelling(APIs.bundleResourceURL),
                                   receivers: ["Bundle", "bundle", "NSBundle", "mainBundle"], labels: ["forResource", "forResourcesWithExtension", "URLForResource"]),
                    addsToResult: true),
        TaintSource(kind: .localFileURL, description: "a directory of the app's container",
                    pattern: .call(names: APISpelling(APIs.containerDirectoryLookup, APIs.systemDirectoryForVolume),
                                   receivers: ["FileManager", "fileManager", "NSFileManager", "defaultManager"], labels: ["for", "URLsForDirectory", "URLForDirectory"]),
                    addsToResult: true),
        TaintSource(kind: .localFileURL, description: "a directory of the app's container",
                    pattern: .member(names: APISpelling(APIs.containerDirectories),
                                     receivers: ["URL", "FileManager", "fileManager", "NSFileManager", "defaultManager", "Bundle", "bundle", "NSBundle", "mainBundle"],
                                     receiverType: nil),
                    addsToResult: true),

        TaintSource(kind: .localFileURL, description: "a directory of the app's container",
                    pattern: .call(names: APISpelling(c: APIs.containerDirectoryPaths.flatMap(\.cFunctions)), receivers: [], labels: nil),
                    addsToResult: true),

        // MARK: CloudKit records (WWDC: binary fields of a CKRecord are external input)
        TaintSource(kind: .cloudRecord, description: "a CKRecord field", pattern: .recordField),

        // MARK: Pasteboard (MASTG-TEST-0073)
        TaintSource(kind: .pasteboard, description: "the pasteboard contents",
                    pattern: .member(names: APISpelling(APIs.pasteboardContents),
                                     receivers: ["UIPasteboard", "generalPasteboard", "pasteboard", "Pasteboard"], receiverType: "UIPasteboard")),
        TaintSource(kind: .pasteboard, description: "the pasteboard contents",
                    pattern: .call(names: APISpelling(APIs.pasteboardContentsByType),
                                   receivers: ["UIPasteboard", "generalPasteboard", "pasteboard", "Pasteboard"], labels: ["forPasteboardType", "dataForPasteboardType", "valueForPasteboardType"])),

        // MARK: Files and items from other apps
        TaintSource(kind: .pickedDocument, description: "the documents picked in a UIDocumentPickerViewController",
                    pattern: .parameter(functions: APISpelling(implementing: APIs.documentPickerSelection),
                                        index: 1, latent: nil),
                    isSystemFileURL: true),
        TaintSource(kind: .shareExtension, description: "the items shared into the extension (extensionContext.inputItems)",
                    pattern: .member(names: APISpelling(APIs.extensionInputItems), receivers: ["extensionContext"], receiverType: nil)),
        TaintSource(kind: .shareExtension, description: "an item loaded from an NSItemProvider (share extension, drag and drop)",
                    pattern: .closureParameter(calls: APISpelling(APIs.itemProviderLoad), index: 0, latent: nil)),

        // MARK: Push notifications
        TaintSource(kind: .pushNotification, description: "the userInfo of a remote notification",
                    pattern: .parameter(functions: APISpelling(implementing: APIs.remoteNotificationReceipt),
                                        index: 1, latent: nil),
                    confidence: .medium),
        TaintSource(kind: .pushNotification, description: "the userInfo of a notification the user opened",
                    pattern: .parameter(functions: APISpelling(implementing: APIs.notificationResponse, APIs.notificationPresentation),
                                        index: 1, latent: APIs.notificationUserInfo.callNames),
                    confidence: .medium),
        TaintSource(kind: .pushNotification, description: "the userInfo of a notification request",
                    pattern: .parameter(functions: APISpelling(implementing: APIs.notificationServiceRequest),
                                        index: 0, latent: APIs.notificationUserInfo.callNames),
                    confidence: .medium),
        TaintSource(kind: .pushNotification, description: "the userInfo of a notification",
                    pattern: .member(names: APISpelling(APIs.notificationUserInfo), receivers: ["content"], receiverType: nil), confidence: .medium),

        // MARK: C library input (C-family files only)
        TaintSource(kind: .cLibrary, description: "bytes read from a socket or file descriptor",
                    pattern: .cOutArgument(functions: APISpelling(APIs.descriptorRead), index: 1)),
        TaintSource(kind: .cLibrary, description: "bytes read from a FILE stream",
                    pattern: .cOutArgument(functions: APISpelling(APIs.streamRead), index: 0)),
        // `fgets` returns the buffer it filled: its result is the source (the buffer argument is not marked).
        TaintSource(kind: .cLibrary, description: "bytes read from a FILE stream",
                    pattern: .cResult(functions: APISpelling(APIs.streamLineRead))),
        TaintSource(kind: .cLibrary, description: "an environment variable",
                    pattern: .cResult(functions: APISpelling(APIs.environmentRead))),

        // MARK: Remote-message handlers (heuristic)
        TaintSource(kind: .remoteHandler, description: "a message from a remote sender", pattern: .remoteHandlerParameters,
                    confidence: .medium),

        // MARK: Decoders: what they return is as untrusted as what they read
        TaintSource(kind: .network, description: "decoded data",
                    pattern: .decoder(names: APISpelling(APIs.jsonSerializationRead, APIs.propertyListSerializationRead, APIs.decodableDecode))),
    ] + SensitiveSources.entries + stored

    /// Parameter sources by function full name.
    static let parameterSources: [String: [(index: Int, source: TaintSource, latent: Set<String>?)]] = {
        var table: [String: [(Int, TaintSource, Set<String>?)]] = [:]
        for source in all {
            if case .parameter(let functions, let index, let latent) = source.pattern {
                for function in functions.names { table[function, default: []].append((index, source, latent)) }
            }
        }
        return table
    }()

    static let closureSources: [String: [(index: Int, source: TaintSource, latent: Set<String>?)]] = {
        var table: [String: [(Int, TaintSource, Set<String>?)]] = [:]
        for source in all {
            if case .closureParameter(let calls, let index, let latent) = source.pattern {
                for call in calls.names { table[call, default: []].append((index, source, latent)) }
            }
        }
        return table
    }()

    static func first(_ matches: (SourcePattern) -> Bool) -> TaintSource? {
        all.first { matches($0.pattern) }
    }

    static let recordSource = first { if case .recordField = $0 { true } else { false } }
    static let remoteHandlerSource = first { if case .remoteHandlerParameters = $0 { true } else { false } }
    static let exportSource = first { if case .javaScriptExportParameters = $0 { true } else { false } }
    static let contextBlockSource = first { if case .javaScriptContextBlockParameters = $0 { true } else { false } }

    /// Sources of each pattern by name, in table order.
    static let memberSources: [String: [TaintSource]] = index { if case .member(let names, _, _) = $0 { names } else { nil } }
    static let callSources: [String: [TaintSource]] = index { if case .call(let names, _, _) = $0 { names } else { nil } }
    static let cOutSources: [String: [TaintSource]] = index { if case .cOutArgument(let names, _) = $0 { names } else { nil } }
    static let cResultSources: [String: [TaintSource]] = index { if case .cResult(let names) = $0 { names } else { nil } }
    static let contentReadSources: [String: [TaintSource]] = index { if case .contentRead(let names, _, _, _) = $0 { names } else { nil } }
    static let subscriptSources: [TaintSource] = all.filter { if case .subscriptRead = $0.pattern { true } else { false } }
    static let outArgumentSources: [String: [TaintSource]] = index { if case .outArgument(let names, _) = $0 { names } else { nil } }

    private static func index(_ spelling: (SourcePattern) -> APISpelling?) -> [String: [TaintSource]] {
        var table: [String: [TaintSource]] = [:]
        for source in all {
            for name in spelling(source.pattern)?.names ?? [] { table[name, default: []].append(source) }
        }
        return table
    }

    // MARK: CloudKit records

    /// CKRecord accessors (Swift base names and Objective-C selectors), called with one argument without a
    /// label or with one of `recordAccessorLabels` (any form for a message send).
    static let recordAccessors: Set<String> = Set(APISpelling(APIs.recordFieldRead).names)
    static let recordAccessorLabels: Set<String> = ["forKey"]
    /// The record type: a local declared with a type that mentions it is a record (`CKRecord`, `CKRecord *`),
    /// unless the type is a record ID (mentions `recordIDMarker`).
    static let recordType = "CKRecord"
    static let recordIDMarker = "ID"
    /// `record.encryptedValues["field"]` reads the record.
    static let recordEncryptedValues = "encryptedValues"
    /// A file mentions CloudKit when it imports this module or names the record type.
    static let cloudKitModule = "CloudKit"
    /// Record-named locals (a name guess, only in files that mention CloudKit, only for locals whose type is
    /// not known): the last component of the access path is `record` (any case) or ends with `Record`
    /// (`incomingRecord`, `self.serverRecord`).
    static let recordVariableName = "record"
    static let recordVariableSuffix = "Record"

    // MARK: JavaScriptCore contexts

    /// Protocols that inherit this one export their methods to page JavaScript.
    static let javaScriptExportProtocol = "JSExport"

    /// The type of a JavaScript context: blocks stored into it are callable from page JavaScript.
    static let javaScriptContextType = "JSContext"
    /// Receivers named like a context are taken to be one (a name guess), unless they name another kind of
    /// context.
    static let javaScriptContextNames = ["JSContext", "jsContext", "javaScriptContext", "context", "Context"]
    static let notJavaScriptContextNames = ["managedObjectContext", "extensionContext", "viewContext", "ManagedObjectContext"]
    /// Storing a block into a context by message: `[context setObject:block forKeyedSubscript:@"name"]`,
    /// `context.setObject(block, forKeyedSubscript: "name" as NSString)`.
    static let javaScriptContextStores = APISpelling(APIs.javaScriptContextStore)
    /// Selectors matched on the call's name; Swift base names with two arguments.
    static let javaScriptContextStoreSelectors = Set(javaScriptContextStores.objc)
    static let javaScriptContextStoreBaseNames = Set(javaScriptContextStores.swift)
}

// MARK: - Remote-message handlers

enum RemoteHandlers {
    /// Words that make a parameter the sender of a message.
    static let senderWords: Set<String> = ["id", "identifier", "peer", "sender", "player", "participant", "device", "member", "user", "remote"]

    /// The index of the sender parameter when this function looks like a handler of messages from a remote
    /// sender: a name such as `handle…`/`process…`/`receive…`/`on…` or a `didReceive…` label, and a
    /// parameter labeled `from`/`from…` that names an id, peer, sender, player...
    static func senderIndex(of function: FunctionDeclaration) -> Int? {
        guard function.body != nil, function.parameters.count >= 2 else { return nil }
        let lowered = function.name.lowercased()
        let handlerName = ["handle", "process", "receive", "didreceive", "on"].contains { prefix in
            lowered.hasPrefix(prefix) && (function.name.count == prefix.count || isUppercase(function.name, at: prefix.count))
        } || function.parameters.contains { ($0.label ?? "").lowercased().hasPrefix("didreceive") }
            || lowered.hasText("incoming") || lowered.hasText("remote") || lowered.hasText("received")
        guard handlerName else { return nil }
        for (index, parameter) in function.parameters.enumerated() {
            guard let label = parameter.label else { continue }
            let isFromLabel = label == "from" || (label.hasPrefix("from") && isUppercase(label, at: 4))
            guard isFromLabel else { continue }
            var words = Set(CamelCase.words(parameter.name).map { $0.lowercased() })
            words.formUnion(CamelCase.words(label).map { $0.lowercased() })
            if let type = parameter.type { words.formUnion(CamelCase.words(type).map { $0.lowercased() }) }
            if !words.isDisjoint(with: senderWords) { return index }
        }
        return nil
    }

    private static func isUppercase(_ text: String, at offset: Int) -> Bool {
        let utf8 = Array(text.utf8)
        guard offset < utf8.count else { return false }
        return utf8[offset] >= UInt8(ascii: "A") && utf8[offset] <= UInt8(ascii: "Z")
    }
}
