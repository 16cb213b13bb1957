import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Checks applied to every XML document before it reaches `XMLParser`.
///
/// FoundationXML on Linux crashes on some inputs that libxml2 itself survives; both were found by
/// fuzzing (`Scripts/fuzz.sh plist`):
/// - an element or attribute name that is not valid UTF-8 (`<\xC9tring>`) traps in its callback;
/// - a processing instruction without data (`<?xml?>`, `<?pi?>`) makes its callback read a NULL pointer;
/// - `<!NOTATION ...>` and unparsed `<!ENTITY ... NDATA ...>` declarations segfault.
/// Property lists, storyboards and xibs written by Xcode are UTF-8 and contain no processing
/// instruction besides the XML declaration, so anything else is refused with a clear error.
public enum XMLInput {
    public static func validate(_ data: Data, what: String) throws {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            throw PropertyListError("\(what) is UTF-16; Moat reads UTF-8 XML only")
        }
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw PropertyListError("\(what) is not valid UTF-8")
        }
        if bytes.contains(0) {
            throw PropertyListError("\(what) contains a NUL byte")
        }
        // The only processing instruction allowed is a leading `<?xml version=... ?>` declaration.
        var start = 0
        while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        var searchFrom = start
        if bytes[start...].starts(with: Array("<?xml".utf8)) {
            // `<?xml` whitespace, then only the characters of version/encoding/standalone pairs, then `?>`.
            var index = start + 5
            let allowed = Set(Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789=\"'.-_ \t\r\n".utf8))
            guard index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) else {
                throw PropertyListError("\(what) has a malformed XML declaration")
            }
            while index < bytes.count, allowed.contains(bytes[index]) { index += 1 }
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "?"), bytes[index + 1] == UInt8(ascii: ">"),
                  find(Array("version".utf8), in: Array(bytes[start..<index]), from: 0) != nil else {
                throw PropertyListError("\(what) has a malformed XML declaration")
            }
            searchFrom = index + 2
        }
        // Entity and notation declarations: FoundationXML segfaults on `<!NOTATION ...>` and on unparsed
        // (`NDATA`) entities, and no property list or Interface Builder file needs either.
        for declaration in ["<!ENTITY", "<!NOTATION"] {
            if let position = find(Array(declaration.utf8), in: bytes, from: 0) {
                let line = bytes[..<position].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
                throw PropertyListError("\(what) declares \(declaration.dropFirst(2).lowercased()) at line \(line); refused")
            }
        }
        if let position = find(Array("<?".utf8), in: bytes, from: searchFrom) {
            let line = bytes[..<position].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
            throw PropertyListError("\(what) has an XML processing instruction at line \(line); refused")
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        var index = start
        while index <= haystack.count - needle.count {
            if haystack[index] == needle[0] && Array(haystack[index..<(index + needle.count)]) == needle { return index }
            index += 1
        }
        return nil
    }
}

/// An `XMLParser` delegate that can stop the parse and say why (a document nested too deep, an element
/// where it cannot be).
protocol StoppableXMLReader: XMLParserDelegate {
    var failure: String? { get }
    /// Called with the parser before the parse starts (a reader that aborts the parse keeps it).
    func willParse(with parser: XMLParser)
}

extension StoppableXMLReader {
    func willParse(with parser: XMLParser) {}
}

extension XMLInput {
    /// Reads a document with the delegate `makeReader` builds from its text, as every XML reader here must:
    /// refused before it reaches the parser when `validate` says so, external entities and namespaces off,
    /// and a parse that reports success after an error counted as a failure. Throws a `PropertyListError`
    /// whose message names `what`; `malformed` words the message for XML that is not well formed (it gets the
    /// parser, for its line and error).
    static func read<Reader: StoppableXMLReader>(_ data: Data, what: String, makeReader: (String) -> Reader,
                                                 malformed: (XMLParser) -> String) throws -> (reader: Reader, text: String) {
        try validate(data, what: what)
        guard let text = String(data: data, encoding: .utf8) else {
            throw PropertyListError("\(what) is not UTF-8 XML")
        }
        let reader = makeReader(text)
        try parse(data, with: reader, malformed: malformed)
        return (reader, text)
    }

    /// Reads a document with a reader that needs no text (the property list reader), the same way.
    static func read<Reader: StoppableXMLReader>(_ data: Data, what: String, with reader: Reader,
                                                 malformed: (XMLParser) -> String) throws {
        try validate(data, what: what)
        try parse(data, with: reader, malformed: malformed)
    }

    /// The one place an `XMLParser` is configured and run.
    private static func parse<Reader: StoppableXMLReader>(_ data: Data, with reader: Reader, malformed: (XMLParser) -> String) throws {
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        parser.shouldReportNamespacePrefixes = false
        parser.delegate = reader
        reader.willParse(with: parser)
        let ok = parser.parse()
        if let failure = reader.failure { throw PropertyListError(failure) }
        // libxml2-backed parsers may return true after reporting an error: check both.
        guard ok, parser.parserError == nil else { throw PropertyListError(malformed(parser)) }
    }
}
