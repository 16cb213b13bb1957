import Foundation

/// Parses property lists that come out of binaries and archives through `PropertyListParser`, after
/// refusing XML known to crash the parser underneath it.
///
/// FoundationXML's `XMLParser` on Linux traps (it force-unwraps strings libxml2 hands it) on:
/// a processing instruction with no data (`<?pi?>`, in the document or its DTD), invalid UTF-8 in a
/// comment or processing instruction, and `<!NOTATION>` or unparsed-entity (`NDATA`) declarations.
/// So XML (anything that is not a binary plist) must be valid UTF-8, have no data-less processing
/// instruction and no `<!ENTITY` or `<!NOTATION` declaration. Apple's plists never need any of these.
/// The check is conservative: it also refuses the patterns inside comments and CDATA.
enum GuardedPlist {
    static func parse(data: Data, path: String, kind: PlistKind?) throws -> PropertyListDocument {
        if let reason = unsafeXMLReason(data) {
            throw PropertyListError("refused XML property list: \(reason)")
        }
        return try PropertyListParser.parse(data: data, path: path, kind: kind)
    }

    /// Why the XML parser must not see these bytes, or nil when they are safe (or a binary plist).
    static func unsafeXMLReason(_ data: Data) -> String? {
        if data.starts(with: Array("bplist".utf8)) { return nil }
        return data.withRawBytes { bytes -> String? in
            let buffer = bytes.buffer
            if String(validating: buffer, as: UTF8.self) == nil { return "not valid UTF-8" }
            let end = buffer.count
            var index = 0
            while index + 1 < end {
                guard buffer[index] == 0x3c else { index += 1; continue } // "<"
                if buffer[index + 1] == 0x3f { // "<?"
                    var cursor = index + 2
                    while cursor < end, !Self.endsName(buffer[cursor]) { cursor += 1 }
                    if cursor > index + 2, cursor + 1 < end, buffer[cursor] == 0x3f, buffer[cursor + 1] == 0x3e {
                        return "processing instruction without data"
                    }
                } else if bytes.bytesEqual(index, Array("<!ENTITY".utf8)) || bytes.bytesEqual(index, Array("<!NOTATION".utf8)) {
                    return "entity or notation declaration"
                }
                index += 1
            }
            return nil
        }
    }

    private static func endsName(_ byte: UInt8) -> Bool {
        byte == 0x3f || byte == 0x20 || byte == 0x09 || byte == 0x0a || byte == 0x0d || byte == 0x3c || byte == 0x3e
    }
}
