import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A problem with a Core Data model file.
public struct CoreDataModelError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// One attribute of an entity, with the position of its `<attribute` element.
public struct CoreDataAttribute: Sendable, Hashable {
    public var name: String
    /// `String`, `Binary`, `Transformable`, `Integer 64`...
    public var type: String?
    /// Not stored: `transient="YES"`.
    public var isTransient: Bool
    /// `valueTransformerName` of a transformable attribute (an encrypting transformer protects the value).
    public var valueTransformer: String?
    public var line: Int
    public var column: Int

    public init(name: String, type: String?, isTransient: Bool, valueTransformer: String?, line: Int, column: Int) {
        self.name = name
        self.type = type
        self.isTransient = isTransient
        self.valueTransformer = valueTransformer
        self.line = line
        self.column = column
    }
}

/// One entity of a model: its name, class and attributes.
public struct CoreDataEntity: Sendable {
    public var name: String
    public var className: String?
    public var line: Int
    public var attributes: [CoreDataAttribute]

    public init(name: String, className: String?, line: Int, attributes: [CoreDataAttribute]) {
        self.name = name
        self.className = className
        self.line = line
        self.attributes = attributes
    }
}

/// What Moat keeps of a Core Data model (`Model.xcdatamodeld/Model.xcdatamodel/contents`, the XML Xcode's
/// model editor writes): its entities and their attributes, with lines.
public final class CoreDataModel: @unchecked Sendable {
    public static let maximumSize = 16 * 1024 * 1024

    /// The `contents` file, as displayed (`App/Model.xcdatamodeld/Model.xcdatamodel/contents`).
    public let path: String
    public let entities: [CoreDataEntity]
    private let lines: [Substring]

    init(path: String, entities: [CoreDataEntity], text: String) {
        self.path = path
        self.entities = entities
        self.lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// The model's name: `Model` for `…/Model.xcdatamodeld/Model 2.xcdatamodel/contents` (the bundle's name,
    /// which is what `NSPersistentContainer(name:)` loads), else the `.xcdatamodel` folder's.
    public var name: String {
        let components = path.split(separator: "/")
        if let bundle = components.last(where: { $0.hasSuffix(".xcdatamodeld") }) { return String(bundle.dropLast(".xcdatamodeld".count)) }
        if let model = components.last(where: { $0.hasSuffix(".xcdatamodel") }) { return String(model.dropLast(".xcdatamodel".count)) }
        return "model"
    }

    /// The path of the model as a project references it: the `.xcdatamodeld` bundle (or the lone
    /// `.xcdatamodel` folder).
    public var bundlePath: String {
        var components = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if let index = components.lastIndex(where: { $0.hasSuffix(".xcdatamodeld") }) {
            components.removeSubrange((index + 1)...)
        } else if let index = components.lastIndex(where: { $0.hasSuffix(".xcdatamodel") }) {
            components.removeSubrange((index + 1)...)
        }
        return components.joined(separator: "/")
    }

    /// The text of a 1-based line, without indentation.
    public func line(_ number: Int) -> String {
        guard number >= 1, number <= lines.count else { return "" }
        return lines[number - 1].trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Whether a path is a model's `contents` file: `contents` inside a folder named `*.xcdatamodel`.
    public static func isModelContents(path: String) -> Bool {
        let components = path.split(separator: "/")
        guard components.count >= 2, components[components.count - 1] == "contents" else { return false }
        return components[components.count - 2].lowercased().hasSuffix(".xcdatamodel")
    }

    public static func parse(data: Data, path: String) throws -> CoreDataModel {
        guard data.count <= maximumSize else {
            throw CoreDataModelError("Core Data model is \(data.count) bytes, larger than the \(maximumSize)-byte limit")
        }
        guard !data.isEmpty else { throw CoreDataModelError("empty Core Data model") }
        // FoundationXML traps on some inputs libxml2 survives: the shared reading refuses them first.
        let reader: CoreDataModelReader, text: String
        do {
            (reader, text) = try XMLInput.read(data, what: "Core Data model", makeReader: CoreDataModelReader.init(text:),
                                               malformed: { "malformed Core Data model at line \($0.lineNumber): not well-formed XML" })
        } catch let error as PropertyListError {
            throw CoreDataModelError(error.message)
        }
        guard reader.sawModel else {
            throw CoreDataModelError("not a Core Data model: the root element is not <model>")
        }
        return CoreDataModel(path: path, entities: reader.entities, text: text)
    }
}

/// The XMLParser delegate: `<model>` → `<entity>` → `<attribute>`.
private final class CoreDataModelReader: NSObject, StoppableXMLReader {
    static let maximumDepth = 64

    private let tags: XMLStartTags
    private var depth = 0
    private var openElements: [String] = []
    private var current: CoreDataEntity?
    var entities: [CoreDataEntity] = []
    var sawModel = false
    var failure: String?

    init(text: String) {
        tags = XMLStartTags(text: text, lookBack: 50)
    }

    private func position(of element: String, reportedLine: Int) -> (line: Int, column: Int) {
        tags.position(of: element, reportedLine: reportedLine)
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        guard failure == nil else { return }
        guard openElements.count < Self.maximumDepth else {
            failure = "Core Data model nested deeper than \(Self.maximumDepth) levels"
            parser.abortParsing()
            return
        }
        if openElements.isEmpty { sawModel = elementName == "model" }
        let parent = openElements.last
        openElements.append(elementName)
        switch elementName {
        case "entity" where parent == "model":
            let place = position(of: elementName, reportedLine: parser.lineNumber)
            current = CoreDataEntity(name: attributeDict["name"] ?? "", className: attributeDict["representedClassName"],
                                     line: place.line, attributes: [])
        case "attribute" where parent == "entity":
            guard let name = attributeDict["name"] else { return }
            let place = position(of: elementName, reportedLine: parser.lineNumber)
            current?.attributes.append(CoreDataAttribute(
                name: name, type: attributeDict["attributeType"], isTransient: attributeDict["transient"] == "YES",
                valueTransformer: attributeDict["valueTransformerName"], line: place.line, column: place.column))
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        guard failure == nil else { return }
        guard openElements.popLast() == elementName else {
            failure = "malformed Core Data model at line \(parser.lineNumber): </\(elementName)> does not close the open element"
            parser.abortParsing()
            return
        }
        if elementName == "entity", openElements.last == "model", let entity = current {
            entities.append(entity)
            current = nil
        }
    }

    func parserDidEndDocument(_ parser: XMLParser) {
        if failure == nil, let open = openElements.last {
            failure = "malformed Core Data model: <\(open)> is never closed"
        }
    }
}
