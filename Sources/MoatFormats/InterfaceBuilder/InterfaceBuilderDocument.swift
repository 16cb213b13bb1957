import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A problem with a storyboard or xib.
public struct InterfaceBuilderError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// An object of an Interface Builder document with its position (the `<` of its element).
public struct InterfaceBuilderObject: Sendable {
    /// The element name: `webView`, `wkWebView`, `textField`...
    public var element: String
    /// The object's `id` attribute.
    public var id: String?
    public var line: Int
    public var column: Int
    /// The element's own attributes.
    public var attributes: [String: String]
    /// Attributes of keyed child and grandchild elements, by their `key`: `textInputTraits`,
    /// `configuration` (a WKWebView's `wkWebViewConfiguration`), `preferences` (its `wkPreferences`),
    /// `accessibilityConfiguration`...
    public var children: [String: [String: String]]
    /// Names of the outlets that point at this object (`passwordField`).
    public var outlets: [String]
    /// The custom class of the nearest enclosing view controller, or its storyboard identifier.
    public var controller: String?

    public init(element: String, id: String?, line: Int, column: Int, attributes: [String: String],
                children: [String: [String: String]] = [:], outlets: [String] = [], controller: String? = nil) {
        self.element = element
        self.id = id
        self.line = line
        self.column = column
        self.attributes = attributes
        self.children = children
        self.outlets = outlets
        self.controller = controller
    }

    /// The `customClass` attribute (a subclass set in the identity inspector).
    public var customClass: String? { attributes["customClass"] }

    /// Whether the text input traits turn on secure (masked) entry.
    public var isSecureTextEntry: Bool {
        (children["textInputTraits"]?["secureTextEntry"] ?? attributes["secureTextEntry"]) == "YES"
    }

    /// Every human- or developer-written name of the object: placeholder, text, user label, accessibility
    /// identifier and label, restoration identifier, custom class, outlet names.
    public var descriptiveNames: [String] {
        var names: [String] = []
        for key in ["placeholder", "text", "userLabel", "restorationIdentifier", "customClass"] {
            if let value = attributes[key] { names.append(value) }
        }
        if let accessibility = children["accessibilityConfiguration"] {
            for key in ["identifier", "label", "hint"] { if let value = accessibility[key] { names.append(value) } }
        }
        if let traits = children["textInputTraits"], let contentType = traits["textContentType"] { names.append(contentType) }
        return names + outlets
    }
}

/// What Moat keeps of a storyboard or xib: the web views (UIWebView is `<webView>`, WKWebView is
/// `<wkWebView>` with its configuration and preferences) and the text fields, with their lines.
public final class InterfaceBuilderDocument: @unchecked Sendable {
    public static let maximumSize = 32 * 1024 * 1024

    public let path: String
    /// `iOS.CocoaTouch`, `AppleTV`, `MacOSX.Cocoa`...
    public let targetRuntime: String?
    /// `<webView>` objects: UIWebView on iOS.
    public let webViews: [InterfaceBuilderObject]
    public let wkWebViews: [InterfaceBuilderObject]
    public let textFields: [InterfaceBuilderObject]
    /// The document's lines, for evidence.
    private let lines: [Substring]

    init(path: String, targetRuntime: String?, webViews: [InterfaceBuilderObject], wkWebViews: [InterfaceBuilderObject],
         textFields: [InterfaceBuilderObject], text: String) {
        self.path = path
        self.targetRuntime = targetRuntime
        self.webViews = webViews
        self.wkWebViews = wkWebViews
        self.textFields = textFields
        self.lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// Whether the document is for a Cocoa Touch platform (iOS, iPadOS, tvOS, Mac Catalyst), not AppKit.
    public var isCocoaTouch: Bool {
        guard let runtime = targetRuntime else { return true }
        return !runtime.hasPrefix("MacOSX")
    }

    /// The text of a 1-based line, without indentation.
    public func line(_ number: Int) -> String {
        guard number >= 1, number <= lines.count else { return "" }
        return lines[number - 1].trimmingCharacters(in: .whitespacesAndNewlines)
    }

    public static func parse(fileAt url: URL, path: String) throws -> InterfaceBuilderDocument {
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        if let size = (attributes?[.size] as? NSNumber)?.intValue, size > maximumSize {
            throw InterfaceBuilderError("Interface Builder document is \(size) bytes, larger than the \(maximumSize)-byte limit")
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw InterfaceBuilderError("cannot read Interface Builder document: permission denied or unreadable")
        }
        return try parse(data: data, path: path)
    }

    public static func parse(data: Data, path: String) throws -> InterfaceBuilderDocument {
        guard data.count <= maximumSize else {
            throw InterfaceBuilderError("Interface Builder document is \(data.count) bytes, larger than the \(maximumSize)-byte limit")
        }
        guard !data.isEmpty else { throw InterfaceBuilderError("empty Interface Builder document") }
        if data.starts(with: Array("bplist".utf8)) {
            throw InterfaceBuilderError("compiled (binary) Interface Builder document; only XML storyboards and xibs are read")
        }
        // FoundationXML traps on some inputs libxml2 survives (non-UTF-8 names, empty processing
        // instructions): the shared reading refuses them first.
        let reader: InterfaceBuilderReader, text: String
        do {
            (reader, text) = try XMLInput.read(data, what: "Interface Builder document", makeReader: InterfaceBuilderReader.init(text:),
                                               malformed: { parser in
                let reason = parser.parserError.map { describe($0) } ?? "unknown error"
                return "malformed Interface Builder document at line \(parser.lineNumber): \(reason)"
            })
        } catch let error as PropertyListError {
            throw InterfaceBuilderError(error.message)
        }
        guard reader.sawDocument else {
            throw InterfaceBuilderError("not an Interface Builder document: the root element is not <document>")
        }
        return InterfaceBuilderDocument(path: path, targetRuntime: reader.targetRuntime, webViews: reader.webViews,
                                        wkWebViews: reader.wkWebViews, textFields: reader.textFields, text: text)
    }

    static func describe(_ error: Error) -> String {
        let nsError = error as NSError
        if let detail = nsError.userInfo["NSDebugDescription"] as? String { return detail }
        return nsError.localizedDescription
    }
}

/// The XMLParser delegate. Keeps a stack of open elements; objects of interest collect the attributes of
/// their keyed children until they close. Outlets are resolved to their destination at the end.
private final class InterfaceBuilderReader: NSObject, StoppableXMLReader {
    static let maximumDepth = 512
    static let interesting: Set<String> = ["webView", "wkWebView", "textField"]

    private final class Open {
        let element: String
        var object: InterfaceBuilderObject?
        let controller: String?

        init(element: String, object: InterfaceBuilderObject?, controller: String?) {
            self.element = element
            self.object = object
            self.controller = controller
        }
    }

    private let tags: XMLStartTags
    private var stack: [Open] = []
    var webViews: [InterfaceBuilderObject] = []
    var wkWebViews: [InterfaceBuilderObject] = []
    var textFields: [InterfaceBuilderObject] = []
    private var outlets: [(property: String, destination: String)] = []
    var targetRuntime: String?
    var sawDocument = false
    var failure: String?

    init(text: String) {
        tags = XMLStartTags(text: text, lookBack: 200)
    }

    private func position(of element: String, reportedLine: Int) -> (line: Int, column: Int) {
        tags.position(of: element, reportedLine: reportedLine)
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        guard failure == nil else { return }
        guard stack.count < Self.maximumDepth else {
            failure = "Interface Builder document nested deeper than \(Self.maximumDepth) levels"
            parser.abortParsing()
            return
        }
        if stack.isEmpty {
            sawDocument = elementName == "document"
            targetRuntime = attributeDict["targetRuntime"]
        }
        var controller = stack.last?.controller
        if elementName.hasSuffix("Controller") || elementName == "viewController" {
            controller = attributeDict["customClass"] ?? attributeDict["storyboardIdentifier"] ?? attributeDict["title"] ?? controller
        }
        if elementName == "outlet", let property = attributeDict["property"], let destination = attributeDict["destination"] {
            outlets.append((property, destination))
        }
        // Keyed children of an object being collected (and grandchildren of its configuration).
        if let key = attributeDict["key"], let owner = stack.last(where: { $0.object != nil }), var object = owner.object {
            let depthBelowOwner = stack.count - 1 - (stack.lastIndex { $0 === owner } ?? stack.count - 1)
            if depthBelowOwner <= 1 {
                object.children[key] = attributeDict
                owner.object = object
            }
        }
        var object: InterfaceBuilderObject?
        if Self.interesting.contains(elementName) {
            let place = position(of: elementName, reportedLine: parser.lineNumber)
            object = InterfaceBuilderObject(element: elementName, id: attributeDict["id"], line: place.line, column: place.column,
                                            attributes: attributeDict, controller: controller)
        }
        stack.append(Open(element: elementName, object: object, controller: controller))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        guard failure == nil else { return }
        guard let open = stack.popLast(), open.element == elementName else {
            failure = "malformed Interface Builder document at line \(parser.lineNumber): </\(elementName)> does not close the open element"
            parser.abortParsing()
            return
        }
        guard let object = open.object else { return }
        switch object.element {
        case "webView": webViews.append(object)
        case "wkWebView": wkWebViews.append(object)
        default: textFields.append(object)
        }
    }

    func parserDidEndDocument(_ parser: XMLParser) {
        if failure == nil, let open = stack.last {
            failure = "malformed Interface Builder document: <\(open.element)> is never closed"
        }
        func attach(_ objects: inout [InterfaceBuilderObject]) {
            for index in objects.indices {
                guard let id = objects[index].id else { continue }
                objects[index].outlets = outlets.filter { $0.destination == id }.map(\.property)
            }
            objects.sort { ($0.line, $0.column) < ($1.line, $1.column) }
        }
        attach(&webViews)
        attach(&wkWebViews)
        attach(&textFields)
    }
}
