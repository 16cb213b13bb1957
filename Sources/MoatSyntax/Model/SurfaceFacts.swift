import MoatCore

/// A fact about where data may enter the app, kept per file for the attack-surface inventory (`moat
/// surface`): the few things the summary's first-reference tables cannot say (each call site, the host of
/// a URL literal, whether the pasteboard is read or written, which types adopt which protocol).
public struct SurfaceFact: Sendable, Codable, Hashable {
    public enum Kind: String, Sendable, Codable {
        /// A string literal starting with `http://` or `https://`; `value` is `scheme://host[:port]` only
        /// (paths and queries are dropped: they may carry tokens).
        case urlLiteral
        /// A call that decodes data into objects or values; `value` names the API
        /// (`NSKeyedUnarchiver.unarchivedObject(ofClass:from:)`, `JSONDecoder.decode(_:from:)`).
        case deserialization
        /// The pasteboard read (`value`: the property or method, `UIPasteboard.general.string`).
        case pasteboardRead
        /// The pasteboard written.
        case pasteboardWrite
        /// A named pasteboard created or opened (`UIPasteboard(name:create:)`, `pasteboardWithName:create:`,
        /// `withUniqueName()`); `value` is its name as written (a literal, or the expression naming it).
        case namedPasteboard
        /// A type adopting or inheriting one of `SurfaceFact.protocols`; `value` is `Type: Protocol`.
        case conformance
    }

    public var kind: Kind
    public var value: String
    public var position: SourcePosition

    public init(kind: Kind, value: String, position: SourcePosition) {
        self.kind = kind
        self.value = value
        self.position = position
    }

    /// At most this many facts are kept per file (generated files can hold thousands of URLs).
    public static let limit = 400

    /// Protocols and superclasses whose adopters receive outside data or serve other processes.
    public static let protocols: Set<String> = [
        "NSCoding", "NSSecureCoding",
        "AppIntent", "AppShortcutsProvider", "INExtension", "UNNotificationServiceExtension",
        "UNNotificationContentExtension", "UNUserNotificationCenterDelegate", "PKPushRegistryDelegate",
        "NSExtensionRequestHandling", "SLComposeServiceViewController", "NSFileProviderReplicatedExtension",
        "NSFileProviderExtension", "QLPreviewingController", "UIActivityItemSource",
        "WKScriptMessageHandler", "WKScriptMessageHandlerWithReply",
        "MCSessionDelegate", "MCNearbyServiceAdvertiserDelegate", "MCNearbyServiceBrowserDelegate",
        "CBCentralManagerDelegate", "CBPeripheralManagerDelegate", "NetServiceDelegate", "NetServiceBrowserDelegate",
        "NSNetServiceDelegate", "NSNetServiceBrowserDelegate", "UIDocumentPickerDelegate",
        "UIDocumentBrowserViewControllerDelegate", "NFCNDEFReaderSessionDelegate", "NFCTagReaderSessionDelegate",
        "WCSessionDelegate",
    ]

    /// Hosts of XML namespaces and schemas: identifiers, not endpoints.
    static let namespaceHosts: Set<String> = ["www.w3.org", "w3.org", "schemas.xmlsoap.org", "ns.adobe.com", "purl.org",
                                              "xmlns.com", "schemas.microsoft.com", "schemas.openxmlformats.org"]
}

/// Collects `SurfaceFact`s while `SourceSummary` walks a file.
struct SurfaceFactCollector {
    var facts: [SurfaceFact] = []
    /// Start offsets of assignment targets: a member there is written, not read.
    private var assignedTargets = Set<Int>()
    /// Callees of calls (visited after their call): a member there is a method, judged with its call.
    private var callees = Set<ObjectIdentifier>()

    /// The facts in source order.
    var sortedFacts: [SurfaceFact] { facts.sorted { $0.position.offset < $1.position.offset } }

    static let pasteboardProperties: Set<String> = ["string", "strings", "url", "urls", "URL", "URLs", "image", "images",
                                                     "color", "colors", "items", "itemProviders"]
    /// Named (and uniquely named) pasteboards opened by message.
    static let namedPasteboardSelectors = Set(APIs.namedPasteboard.selectors + APIs.uniquePasteboard.selectors)
    /// The named pasteboard's initializer called as `.init(name:create:)` on `UIPasteboard`.
    static let namedPasteboardInit = "init" + APIs.namedPasteboard.swift[0].drop { $0 != "(" }
    /// Swift calls that read the pasteboard by type.
    static let pasteboardReadCalls = Set(APIs.pasteboardContentsByType.swift)
    /// Reads of the pasteboard by message (and the Swift calls, as they are named in the facts).
    static let pasteboardReadMethods: [String: String] = {
        var table: [String: String] = [:]
        for name in APIs.pasteboardContentsByType.swift + APIs.pasteboardContentsByType.selectors
            + ["string", "strings", "URL", "URLs", "image", "images", "items", "itemProviders", "color", "colors"] {
            table[name] = name
        }
        return table
    }()
    /// Writes of the pasteboard: its write methods, and the setters of its properties sent as messages.
    static let pasteboardWriteMethods = [APIs.pasteboardWrite, APIs.pasteboardLocalWrite].fullCallNames.union([
        "setItems:", "setString:", "setStrings:", "setURL:", "setURLs:", "setImage:", "setImages:", "setColor:", "setColors:",
    ])

    /// Swift keyed-unarchiver calls, by call name.
    static let unarchiverCalls: Set<String> = Set(APIs.keyedUnarchiverLegacy.swift + APIs.keyedUnarchiverSecure.swift)
    /// Swift initializers of a keyed unarchiver.
    static let unarchiverInitializers: Set<String> = Set(APIs.keyedUnarchiverLegacyInit.swift + APIs.keyedUnarchiverSecureInit.swift)
    /// Objective-C decoding selectors and the class that declares them.
    static let objectiveCDecoders: [String: String] = {
        var table: [String: String] = [:]
        for api in [APIs.keyedUnarchiverLegacy, APIs.keyedUnarchiverSecure, APIs.keyedUnarchiverSecureInit, APIs.keyedUnarchiverLegacyInit] {
            for selector in api.selectors { table[selector] = "NSKeyedUnarchiver" }
        }
        for selector in APIs.jsonSerializationRead.selectors { table[selector] = "NSJSONSerialization" }
        for selector in APIs.propertyListSerializationRead.selectors { table[selector] = "NSPropertyListSerialization" }
        return table
    }()
    /// Top-level `Decodable` decoders (`JSONDecoder`, `PropertyListDecoder`).
    static let topLevelDecoders = Set(APIs.decodableDecode.swift)
    static let jsonReads = Set(APIs.jsonSerializationRead.swift)
    static let propertyListReads = Set(APIs.propertyListSerializationRead.swift)
    static let xmlParserSelectors = Set(APIs.xmlParserInit.selectors)
    static let xmlParserInitializers = Set(APIs.xmlParserInit.swift)

    /// `swiftCallName`: the node's `Expression.swiftCallName` when it is a call (the summary asks it once
    /// for both of its uses).
    mutating func visit(_ node: CodeNode, file: CodeFile, swiftCallName: String?) {
        guard facts.count < SurfaceFact.limit else { return }
        switch node {
        case .statement(let statement):
            guard case .assignment(let target, _, _) = statement.kind else { return }
            assignedTargets.insert(target.unwrapped.range.start.offset)
            if case .member(let base?, let name) = target.unwrapped.kind, Self.pasteboardProperties.contains(name),
               let pasteboard = Self.pasteboardName(base) {
                add(.pasteboardWrite, "\(pasteboard).\(name)", target.range.start)
            }
        case .expression(let expression):
            switch expression.kind {
            case .stringLiteral(let segments):
                if let origin = Self.urlOrigin(segments) { add(.urlLiteral, origin, expression.range.start) }
            case .member(let base?, let name):
                guard Self.pasteboardProperties.contains(name), !assignedTargets.contains(expression.range.start.offset),
                      !callees.contains(ObjectIdentifier(expression)), let pasteboard = Self.pasteboardName(base) else { return }
                add(.pasteboardRead, "\(pasteboard).\(name)", expression.range.start)
            case .call(let callee, let arguments, let isMessageSend):
                callees.insert(ObjectIdentifier(callee))
                call(expression, callee: callee, arguments: arguments, isMessageSend: isMessageSend, swiftCallName: swiftCallName)
            default:
                break
            }
        case .declaration(let declaration):
            guard case .type(let type) = declaration else { return }
            for name in type.inherits where SurfaceFact.protocols.contains(name) {
                add(.conformance, "\(type.name): \(name)", type.nameRange.start)
            }
        }
    }

    private mutating func add(_ kind: SurfaceFact.Kind, _ value: String, _ position: SourcePosition) {
        guard facts.count < SurfaceFact.limit else { return }
        facts.append(SurfaceFact(kind: kind, value: value, position: position))
    }

    private mutating func call(_ expression: Expression, callee: Expression, arguments: [Argument], isMessageSend: Bool,
                               swiftCallName: String?) {
        guard let name = callee.name else { return }
        // The receiver's names, built only where a branch asks (this runs on every call of every file).
        func receiverChain() -> [String] { callee.receiver?.nameChain ?? [] }
        let position = expression.range.start
        if isMessageSend {
            if Self.namedPasteboardSelectors.contains(name), receiverChain().contains("UIPasteboard") {
                add(.namedPasteboard, APIs.uniquePasteboard.selectors.contains(name) ? "(unique name)" : Self.pasteboardLabel(arguments.first?.value),
                    position)
                return
            }
            if let owner = Self.objectiveCDecoders[name] {
                // initForReadingFromData: and friends are NSKeyedUnarchiver's only when the receiver says so.
                if name.hasPrefix("init") && !receiverChain().contains(owner) { return }
                add(.deserialization, "\(owner) \(name)", position)
            } else if Self.xmlParserSelectors.contains(name),
                      receiverChain().contains("NSXMLParser") {
                add(.deserialization, "NSXMLParser \(name)", position)
            } else if let receiver = callee.receiver, let pasteboard = Self.pasteboardName(receiver) {
                if Self.pasteboardWriteMethods.contains(name) {
                    add(.pasteboardWrite, "\(pasteboard) \(name)", position)
                } else if let read = Self.pasteboardReadMethods[name], arguments.isEmpty || name.hasSuffix(":") {
                    add(.pasteboardRead, "\(pasteboard) \(read)", position)
                }
            }
            return
        }
        guard let callName = swiftCallName else { return }
        if APIs.namedPasteboard.swift.contains(callName) || (callName == Self.namedPasteboardInit && receiverChain().contains("UIPasteboard")) {
            add(.namedPasteboard, Self.pasteboardLabel(arguments.first?.value), position)
            return
        }
        if APIs.uniquePasteboard.swift.contains(callName), receiverChain().contains("UIPasteboard") {
            add(.namedPasteboard, "(unique name)", position)
            return
        }
        switch callName {
        case _ where Self.unarchiverCalls.contains(callName):
            add(.deserialization, "NSKeyedUnarchiver.\(callName)", position)
        case _ where Self.unarchiverInitializers.contains(callName):
            add(.deserialization, callName, position)
        case _ where Self.topLevelDecoders.contains(callName):
            // A top-level decoder: the first argument is a type (`T.self`).
            guard let first = arguments.first?.value.unwrapped, Self.isTypeValue(first) else { return }
            let decoder: String
            if receiverChain().contains("PropertyListDecoder") {
                decoder = "PropertyListDecoder"
            } else if receiverChain().contains("JSONDecoder") {
                decoder = "JSONDecoder"
            } else {
                decoder = "Decoder"
            }
            add(.deserialization, "\(decoder).\(callName)", position)
        case _ where Self.jsonReads.contains(callName):
            if receiverChain().contains("JSONSerialization") { add(.deserialization, "JSONSerialization.\(callName)", position) }
        case _ where Self.propertyListReads.contains(callName):
            if receiverChain().contains("PropertyListSerialization") {
                add(.deserialization, "PropertyListSerialization.\(callName)", position)
            }
        case _ where Self.xmlParserInitializers.contains(callName):
            add(.deserialization, callName, position)
        default:
            if let receiver = callee.receiver, let pasteboard = Self.pasteboardName(receiver) {
                if Self.pasteboardWriteMethods.contains(callName) {
                    add(.pasteboardWrite, "\(pasteboard).\(callName)", position)
                } else if Self.pasteboardReadCalls.contains(callName) {
                    add(.pasteboardRead, "\(pasteboard).\(callName)", position)
                }
            }
        }
    }

    static func isTypeValue(_ expression: Expression) -> Bool {
        switch expression.kind {
        case .typeValue: return true
        case .member(_, let name): return name == "self"
        default: return false
        }
    }

    /// A named pasteboard's name as written: the literal (also inside `UIPasteboard.Name("…")`,
    /// `.init(rawValue: "…")`), else the expression that holds it (`Constants.sharedPasteboard`).
    static func pasteboardLabel(_ argument: Expression?) -> String {
        guard let argument = argument?.unwrapped else { return "(unknown name)" }
        if let text = argument.stringValue { return "\"\(text)\"" }
        if case .call(_, let inner, _) = argument.kind, let text = inner.first?.value.stringValue { return "\"\(text)\"" }
        let chain = argument.nameChain
        return chain.isEmpty ? "(computed name)" : chain.joined(separator: ".")
    }

    /// `UIPasteboard.general` for the general pasteboard, `UIPasteboard` for another one or one held in a
    /// variable named like a pasteboard; nil when the receiver is not a pasteboard.
    static let pasteboardSuffix = "pasteboard"

    static func pasteboardName(_ receiver: Expression) -> String? {
        let chain = receiver.nameChain
        if chain.contains("general") && chain.contains("UIPasteboard") || chain.contains("generalPasteboard") {
            return "UIPasteboard.general"
        }
        if chain.contains("UIPasteboard") { return "UIPasteboard" }
        // A name shorter than the suffix cannot end with it once lowercased (checked first: every receiver asks).
        if let last = chain.last, last.utf8.count >= Self.pasteboardSuffix.utf8.count, last.lowercased().hasSuffix(Self.pasteboardSuffix) {
            return "UIPasteboard"
        }
        return nil
    }

    /// `https://host[:port]` of a literal that starts with a web URL whose host is complete in its first
    /// text segment.
    static func urlOrigin(_ segments: [StringSegment]) -> String? {
        // Only a text starting with `h` or `H` can start with a web scheme once lowercased (no other
        // character lowercases to `h`); most literals are not URLs and are not lowercased at all.
        guard case .text(let text)? = segments.first, let first = text.utf8.first, first | 0x20 == UInt8(ascii: "h") else { return nil }
        let lowered = text.lowercased()
        let scheme: String
        if lowered.hasPrefix("https://") {
            scheme = "https"
        } else if lowered.hasPrefix("http://") {
            scheme = "http"
        } else {
            return nil
        }
        let rest = lowered.dropFirst(scheme.count + 3)
        let terminator = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" }
        // An interpolation right after the host could extend it (`"https://\(sub).example.com"`).
        if terminator == nil && segments.count > 1 { return nil }
        var authority = terminator.map { rest[..<$0] } ?? rest[...]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var host = authority
        var port = ""
        if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            port = String(authority[authority.index(after: colon)...])
            guard !port.isEmpty, port.count <= 5, port.allSatisfy(\.isASCIIDigit) else { return nil }
        }
        guard !host.isEmpty, host.count <= 253, host.first != ".", host.first != "-", host.last != ".",
              host.allSatisfy({ $0.isASCIIDigit || ("a"..."z").contains($0) || $0 == "-" || $0 == "." }),
              host.contains(where: { ("a"..."z").contains($0) || $0.isASCIIDigit }) else { return nil }
        if SurfaceFact.namespaceHosts.contains(String(host)) { return nil }
        if host == "www.apple.com" && rest.hasPrefix("www.apple.com/dtds") { return nil }
        return "\(scheme)://\(host)" + (port.isEmpty ? "" : ":\(port)")
    }
}

private extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
