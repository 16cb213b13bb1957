import Foundation

/// The parts of a CMS `SignedData` (RFC 5652) Moat reads: the encapsulated content and the number of
/// certificates. Signatures are not verified.
public struct CMSSignedData: Sendable {
    /// 1.2.840.113549.1.7.2
    static let signedDataOID: [UInt8] = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02]
    /// 1.2.840.113549.1.7.1
    static let dataOID: [UInt8] = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x01]

    /// `encapContentInfo.eContent` (the property list of a provisioning profile).
    public let content: Data
    /// Whether `eContentType` is id-data.
    public let contentTypeIsData: Bool
    public let certificateCount: Int

    /// Reads `ContentInfo → SignedData → encapContentInfo → eContent`.
    public init(data: Data) throws {
        let reader = DERReader(data: data)
        try reader.validate()
        func fail(_ message: String) -> BinaryFormatError { BinaryFormatError(.der, "not CMS signed data: \(message)") }

        let contentInfo = try reader.element(at: 0)
        guard contentInfo.isUniversal(DERElement.sequence) else { throw fail("ContentInfo is not a SEQUENCE") }
        let infoParts = try reader.children(of: contentInfo, depth: 0)
        guard infoParts.count >= 2, infoParts[0].isUniversal(DERElement.objectIdentifier),
              reader.content(of: infoParts[0]) == Data(Self.signedDataOID) else { throw fail("content type is not signedData") }
        guard infoParts[1].isContextSpecific(0), infoParts[1].isConstructed,
              let signedData = try reader.children(of: infoParts[1], depth: 1).first,
              signedData.isUniversal(DERElement.sequence) else { throw fail("no SignedData") }

        let signedParts = try reader.children(of: signedData, depth: 2)
        guard signedParts.count >= 3, signedParts[0].isUniversal(DERElement.integer),
              signedParts[1].isUniversal(DERElement.set), signedParts[2].isUniversal(DERElement.sequence) else {
            throw fail("SignedData lacks version, digest algorithms or encapContentInfo")
        }
        let encapParts = try reader.children(of: signedParts[2], depth: 3)
        guard let contentType = encapParts.first, contentType.isUniversal(DERElement.objectIdentifier) else {
            throw fail("encapContentInfo has no content type")
        }
        guard encapParts.count >= 2, encapParts[1].isContextSpecific(0), encapParts[1].isConstructed,
              let octets = try reader.children(of: encapParts[1], depth: 4).first,
              octets.isUniversal(DERElement.octetString) else {
            throw fail("no encapsulated content")
        }
        content = try Self.octetStringContent(octets, reader: reader, depth: 5)
        contentTypeIsData = reader.content(of: contentType) == Data(Self.dataOID)
        certificateCount = try signedParts.dropFirst(3).first { $0.isContextSpecific(0) && $0.isConstructed }
            .map { try reader.children(of: $0, depth: 3).count } ?? 0
    }

    /// A primitive OCTET STRING's bytes, or the concatenated chunks of a constructed (BER) one.
    private static func octetStringContent(_ element: DERElement, reader: DERReader, depth: Int) throws -> Data {
        guard element.isConstructed else { return reader.content(of: element) }
        var result = Data()
        for chunk in try reader.children(of: element, depth: depth) {
            guard chunk.isUniversal(DERElement.octetString) else {
                throw BinaryFormatError(.der, "constructed OCTET STRING holds a non-OCTET STRING element")
            }
            result.append(try octetStringContent(chunk, reader: reader, depth: depth + 1))
        }
        return result
    }
}
