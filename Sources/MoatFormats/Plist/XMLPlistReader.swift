import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Builds a `PlistNode` tree from XML property list text, keeping the line of every `<key>`.
/// External entities and DTD loading are off: the input may come from an attacker.
final class XMLPlistReader: NSObject, StoppableXMLReader {
    private final class Frame {
        let isDictionary: Bool
        let keyPath: String
        let line: Int
        var entries: [PlistEntry] = []
        var elements: [PlistNode] = []
        var pendingKey: (key: String, line: Int)?

        init(isDictionary: Bool, keyPath: String, line: Int) {
            self.isDictionary = isDictionary
            self.keyPath = keyPath
            self.line = line
        }
    }

    private var stack: [Frame] = []
    private var text = ""
    private var elementLine = 0
    private var root: PlistNode?
    private var stopReason: String?
    private weak var parser: XMLParser?
    private(set) var xmlErrorLine: Int?

    static func read(data: Data) throws -> PlistNode {
        let reader = XMLPlistReader()
        try XMLInput.read(data, what: "XML property list", with: reader, malformed: { parser in malformed(at: parser.lineNumber) })
        if let open = reader.stack.last {
            throw PropertyListError("malformed XML property list: <\(open.isDictionary ? "dict" : "array")> opened at line \(open.line) is never closed")
        }
        guard let root = reader.root else { throw PropertyListError("XML property list has no value") }
        return root
    }

    /// Why the parse stopped: the reader's own failure first, then an error the parser reported (even
    /// when it went on and returned success).
    var failure: String? { stopReason ?? xmlErrorLine.map(Self.malformed(at:)) }

    static func malformed(at line: Int) -> String { "malformed XML property list at line \(line): not well-formed XML" }

    func willParse(with parser: XMLParser) { self.parser = parser }

    private func fail(_ message: String) {
        if stopReason == nil { stopReason = message }
        parser?.abortParsing()
    }

    /// The key path and line for the next value in the innermost container.
    private func childPlacement() -> (keyPath: String, line: Int, key: String?) {
        guard let top = stack.last else { return ("", elementLine, nil) }
        if top.isDictionary {
            guard let pending = top.pendingKey else { return (top.keyPath, elementLine, nil) }
            let path = PlistNode.keyPath(top.keyPath, key: pending.key)
            return (path, pending.line, pending.key)
        }
        return (PlistNode.keyPath(top.keyPath, index: top.elements.count), elementLine, nil)
    }

    private func attach(_ node: PlistNode, key: String?) {
        guard let top = stack.last else {
            root = node
            return
        }
        if top.isDictionary {
            guard let pending = top.pendingKey, pending.key == key else {
                fail("malformed XML property list at line \(elementLine): a value in a <dict> has no <key>")
                return
            }
            top.entries.append(PlistEntry(key: pending.key, keyLine: pending.line, value: node))
            top.pendingKey = nil
        } else {
            top.elements.append(node)
        }
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        elementLine = parser.lineNumber
        text = ""
        switch elementName {
        case "dict", "array":
            guard stack.count < PropertyListParser.maximumDepth else {
                fail("property list nested deeper than \(PropertyListParser.maximumDepth) levels")
                return
            }
            let placement = childPlacement()
            stack.append(Frame(isDictionary: elementName == "dict", keyPath: placement.keyPath, line: placement.line))
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        if xmlErrorLine == nil { xmlErrorLine = parser.lineNumber }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        text += String(decoding: CDATABlock, as: UTF8.self)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        switch elementName {
        case "plist":
            return
        case "key":
            guard let top = stack.last, top.isDictionary else {
                fail("malformed XML property list at line \(elementLine): <key> outside a <dict>")
                return
            }
            if let pending = top.pendingKey {
                fail("malformed XML property list at line \(pending.line): key '\(pending.key.prefix(80))' has no value")
                return
            }
            top.pendingKey = (text, elementLine)
        case "dict", "array":
            if let pending = stack.last?.pendingKey {
                fail("malformed XML property list at line \(pending.line): key '\(pending.key.prefix(80))' has no value")
                return
            }
            guard let frame = stack.popLast(), frame.isDictionary == (elementName == "dict") else {
                fail("malformed XML property list at line \(elementLine): </\(elementName)> does not close the open element")
                return
            }
            let node = PlistNode(value: frame.isDictionary ? .dictionary(frame.entries) : .array(frame.elements),
                                 keyPath: frame.keyPath, line: frame.line)
            let key = stack.last?.pendingKey?.key
            attach(node, key: key)
        case "string", "integer", "real", "true", "false", "date", "data":
            let placement = childPlacement()
            let value: PlistNode.Value
            switch elementName {
            case "string": value = .string(text)
            case "integer":
                guard let number = Int64(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                    fail("malformed XML property list at line \(elementLine): <integer> '\(text.prefix(40))' is not a number")
                    return
                }
                value = .integer(number)
            case "real": value = .real(Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0)
            case "true": value = .bool(true)
            case "false": value = .bool(false)
            case "date":
                value = .date(ISO8601DateFormatter().date(from: text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? Date(timeIntervalSince1970: 0))
            default:
                let cleaned = text.filter { !$0.isWhitespace }
                value = .data(Data(base64Encoded: cleaned) ?? Data())
            }
            attach(PlistNode(value: value, keyPath: placement.keyPath, line: placement.line), key: placement.key)
        default:
            fail("malformed XML property list at line \(elementLine): unexpected element <\(elementName)>")
        }
        text = ""
    }
}
