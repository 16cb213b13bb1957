import Foundation

/// Parses property lists that come out of binaries and archives through `PropertyListParser`, after
/// refusing XML that still crashes the parser underneath it.
///
/// `XMLInput` (run by `PropertyListParser`) already refuses non-UTF-8 text and processing
/// instructions. FoundationXML's `XMLParser` on Linux also traps (SIGSEGV) on a `<!NOTATION>`
/// declaration and on an unparsed-entity (`<!ENTITY x SYSTEM "y" NDATA n>`) declaration in the DTD, so
/// any `<!ENTITY` or `<!NOTATION` declaration is refused here. Apple's plists never carry an internal
/// DTD subset. The check is conservative: it also refuses the text inside comments and CDATA.
enum GuardedPlist {
    static func parse(data: Data, path: String, kind: PlistKind?) throws -> PropertyListDocument {
        if let reason = unsafeXMLReason(data) {
            throw PropertyListError("refused XML property list: \(reason)")
        }
        return try PropertyListParser.parse(data: data, path: path, kind: kind)
    }

    /// Why the XML parser must not see these bytes, or nil (binary plists are never XML).
    static func unsafeXMLReason(_ data: Data) -> String? {
        if data.starts(with: Array("bplist".utf8)) { return nil }
        let entity = Array("<!ENTITY".utf8)
        let notation = Array("<!NOTATION".utf8)
        return data.withRawBytes { bytes -> String? in
            var index = 0
            while index < bytes.count {
                if bytes.buffer[index] == 0x3c, bytes.bytesEqual(index, entity) || bytes.bytesEqual(index, notation) {
                    return "entity or notation declaration"
                }
                index += 1
            }
            return nil
        }
    }
}
