import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

public struct PropertyListError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Reads XML, binary and OpenStep property lists. XML keeps the line of every `<key>` (FoundationXML, with
/// its input checked first by `XMLInput`); binary plists are read by Moat's own bounded reader; OpenStep
/// text goes through `PropertyListSerialization`, with lines from a light scan of the text for each key.
public enum PropertyListParser {
    /// Largest property list Moat reads (Info.plists are kilobytes; pbxproj files of big apps a few MB).
    public static let maximumSize = 64 * 1024 * 1024
    /// Deepest nesting accepted before the file is refused.
    public static let maximumDepth = 256

    public static func parse(data: Data, path: String, kind: PlistKind? = nil) throws -> PropertyListDocument {
        guard data.count <= maximumSize else {
            throw PropertyListError("property list is \(data.count) bytes, larger than the \(maximumSize)-byte limit")
        }
        guard !data.isEmpty else { throw PropertyListError("empty property list") }
        let resolvedKind = kind ?? PlistKind.of(path: path)
        if data.starts(with: Array("bplist".utf8)) {
            let root = try BinaryPlistReader.read(data)
            return PropertyListDocument(path: path, format: .binary, kind: resolvedKind, root: root)
        }
        if data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]) {
            throw PropertyListError("property list is UTF-16 text; Moat reads UTF-8, XML or binary property lists")
        }
        let head = String(decoding: data.prefix(512), as: UTF8.self)
        let trimmedHead = head.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        if trimmedHead.hasPrefix("<?xml") || trimmedHead.hasPrefix("<plist") || trimmedHead.hasPrefix("<!DOCTYPE") {
            let root = try XMLPlistReader.read(data: data)
            return PropertyListDocument(path: path, format: .xml, kind: resolvedKind, root: root)
        }
        guard let text = String(data: data, encoding: .utf8) ?? String(data: data, encoding: .utf16) else {
            throw PropertyListError("not a property list: neither XML, binary nor UTF-8 OpenStep text")
        }
        let root = try foundationTree(data: data, lines: OpenStepKeyLines(text: text))
        return PropertyListDocument(path: path, format: .openStep, kind: resolvedKind, root: root)
    }

    public static func parse(fileAt url: URL, path: String, kind: PlistKind? = nil) throws -> PropertyListDocument {
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        if let size = attributes?[.size] as? NSNumber, size.intValue > maximumSize {
            throw PropertyListError("property list is \(size.intValue) bytes, larger than the \(maximumSize)-byte limit")
        }
        return try parse(data: Data(contentsOf: url), path: path, kind: kind)
    }

    private static func foundationTree(data: Data, lines: OpenStepKeyLines?) throws -> PlistNode {
        let object: Any
        var format = PropertyListSerialization.PropertyListFormat.openStep
        do {
            object = try PropertyListSerialization.propertyList(from: data, options: [], format: &format)
        } catch {
            throw PropertyListError("malformed property list: \(Self.describe(error))")
        }
        if format == .binary {
            throw PropertyListError("malformed property list: binary content in a text property list")
        }
        if object is String || object is Data {
            throw PropertyListError("malformed property list: the root is not a dictionary or an array")
        }
        var lineFinder = lines
        return try convert(object, keyPath: "", line: 1, depth: 0, lines: &lineFinder)
    }

    static func describe(_ error: Error) -> String {
        let nsError = error as NSError
        if let detail = nsError.userInfo["NSDebugDescription"] as? String { return detail }
        return nsError.localizedDescription
    }

    private static func convert(_ object: Any, keyPath: String, line: Int?, depth: Int,
                                lines: inout OpenStepKeyLines?) throws -> PlistNode {
        guard depth <= maximumDepth else { throw PropertyListError("property list nested deeper than \(maximumDepth) levels") }
        if let flag = object as? Bool, type(of: object) == Bool.self {
            return PlistNode(value: .bool(flag), keyPath: keyPath, line: line)
        }
        var stringKeyed = object as? [String: Any]
        if stringKeyed == nil, let hashable = object as? [AnyHashable: Any] {
            var converted: [String: Any] = [:]
            for (key, value) in hashable { converted[String(describing: key.base)] = value }
            stringKeyed = converted
        }
        if let dictionary = stringKeyed {
            var entries: [PlistEntry] = []
            for key in dictionary.keys.sorted() {
                let childPath = PlistNode.keyPath(keyPath, key: key)
                let keyLine = lines?.line(forKey: key)
                let child = try convert(dictionary[key]!, keyPath: childPath, line: keyLine, depth: depth + 1, lines: &lines)
                entries.append(PlistEntry(key: key, keyLine: keyLine, value: child))
            }
            return PlistNode(value: .dictionary(entries), keyPath: keyPath, line: line)
        }
        switch object {
        case let dictionary as [String: Any]:
            var entries: [PlistEntry] = []
            for key in dictionary.keys.sorted() {
                let childPath = PlistNode.keyPath(keyPath, key: key)
                let keyLine = lines?.line(forKey: key)
                let child = try convert(dictionary[key]!, keyPath: childPath, line: keyLine, depth: depth + 1, lines: &lines)
                entries.append(PlistEntry(key: key, keyLine: keyLine, value: child))
            }
            return PlistNode(value: .dictionary(entries), keyPath: keyPath, line: line)
        case let array as [Any]:
            var elements: [PlistNode] = []
            for (index, element) in array.enumerated() {
                elements.append(try convert(element, keyPath: PlistNode.keyPath(keyPath, index: index), line: line, depth: depth + 1, lines: &lines))
            }
            return PlistNode(value: .array(elements), keyPath: keyPath, line: line)
        case let text as String:
            return PlistNode(value: .string(text), keyPath: keyPath, line: line)
        case let data as Data:
            return PlistNode(value: .data(data), keyPath: keyPath, line: line)
        case let date as Date:
            return PlistNode(value: .date(date), keyPath: keyPath, line: line)
        case let number as NSNumber:
            let type = String(cString: number.objCType)
            if type == "d" || type == "f" {
                return PlistNode(value: .real(number.doubleValue), keyPath: keyPath, line: line)
            }
            return PlistNode(value: .integer(number.int64Value), keyPath: keyPath, line: line)
        case let flag as Bool:
            return PlistNode(value: .bool(flag), keyPath: keyPath, line: line)
        default:
            return PlistNode(value: .string(String(describing: object)), keyPath: keyPath, line: line)
        }
    }
}

/// Finds the line of a key in OpenStep text. Keys are matched in order of first appearance; good enough
/// to point a person at the right place.
struct OpenStepKeyLines {
    private var lineOfKey: [String: Int] = [:]

    init(text: String) {
        var line = 1
        var token = ""
        var inQuote = false
        var quoted = ""
        let characters = Array(text.unicodeScalars)
        var index = 0
        func record(_ key: String, _ line: Int, into map: inout [String: Int]) {
            if map[key] == nil { map[key] = line }
        }
        while index < characters.count {
            let character = characters[index]
            if inQuote {
                if character == "\\" && index + 1 < characters.count {
                    quoted.unicodeScalars.append(characters[index + 1])
                    index += 2
                    continue
                }
                if character == "\"" {
                    inQuote = false
                    token = quoted
                } else {
                    if character == "\n" { line += 1 }
                    quoted.unicodeScalars.append(character)
                }
                index += 1
                continue
            }
            switch character {
            case "\"":
                inQuote = true
                quoted = ""
            case "\n":
                line += 1
            case "=":
                if !token.isEmpty { record(token, line, into: &lineOfKey) }
                token = ""
            case " ", "\t", "\r":
                break
            case "/" where index + 1 < characters.count && characters[index + 1] == "*":
                index += 2
                while index + 1 < characters.count && !(characters[index] == "*" && characters[index + 1] == "/") {
                    if characters[index] == "\n" { line += 1 }
                    index += 1
                }
                index += 1
            case "/" where index + 1 < characters.count && characters[index + 1] == "/":
                while index < characters.count && characters[index] != "\n" { index += 1 }
                continue
            case "{", "}", "(", ")", ";", ",":
                token = ""
            default:
                if !inQuote {
                    if token.isEmpty || (index > 0 && !isTokenCharacter(characters[index - 1])) { token = "" }
                    token.unicodeScalars.append(character)
                }
            }
            index += 1
        }
    }

    private func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
        !(scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r")
    }

    func line(forKey key: String) -> Int? { lineOfKey[key] }
}
