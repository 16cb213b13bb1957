import Foundation

/// Test-only DER/BER writer and a CMS SignedData builder wrapping a property list.
enum DERWriter {
    static func length(_ count: Int) -> [UInt8] {
        if count < 0x80 { return [UInt8(count)] }
        var bytes: [UInt8] = []
        var value = count
        while value > 0 { bytes.insert(UInt8(value & 0xff), at: 0); value >>= 8 }
        return [0x80 | UInt8(bytes.count)] + bytes
    }

    static func tlv(_ tag: UInt8, _ content: Data) -> Data { Data([tag] + length(content.count)) + content }
    /// An indefinite-length (BER) constructed element.
    static func indefinite(_ tag: UInt8, _ content: Data) -> Data { Data([tag, 0x80]) + content + Data([0, 0]) }

    static func sequence(_ parts: [Data]) -> Data { tlv(0x30, parts.reduce(Data(), +)) }
    static func set(_ parts: [Data]) -> Data { tlv(0x31, parts.reduce(Data(), +)) }
    static func explicit(_ number: UInt8, _ content: Data) -> Data { tlv(0xa0 | number, content) }
    static func oid(_ bytes: [UInt8]) -> Data { tlv(0x06, Data(bytes)) }
    static func integer(_ value: UInt8) -> Data { tlv(0x02, Data([value])) }
    static func octets(_ data: Data) -> Data { tlv(0x04, data) }
    static let null = Data([0x05, 0x00])

    static let signedDataOID: [UInt8] = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02]
    static let dataOID: [UInt8] = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x01]
    static let sha256OID: [UInt8] = [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01]

    /// ContentInfo { signedData, [0] SignedData { 1, {sha256}, { data, [0] OCTET STRING }, [0] certs, {} } }.
    /// `ber` uses indefinite lengths and a chunked constructed OCTET STRING, as some CMS writers do.
    static func cms(_ content: Data, ber: Bool = false, certificates: Int = 2) -> Data {
        let algorithms = set([sequence([oid(sha256OID), null])])
        let eContent: Data
        if ber {
            let middle = content.count / 2
            eContent = indefinite(0x24, octets(content.prefix(middle)) + octets(content.dropFirst(middle)))
        } else {
            eContent = octets(content)
        }
        let encap = ber ? indefinite(0x30, oid(dataOID) + indefinite(0xa0, eContent))
                        : sequence([oid(dataOID), explicit(0, eContent)])
        let certs = explicit(0, (0..<certificates).map { _ in sequence([integer(1)]) }.reduce(Data(), +))
        let signedData = sequence([integer(1), algorithms, encap, certs, set([])])
        return ber ? indefinite(0x30, oid(signedDataOID) + indefinite(0xa0, signedData))
                   : sequence([oid(signedDataOID), explicit(0, signedData)])
    }

    /// A provisioning profile property list.
    static func profilePlist(devices: [String] = [], allDevices: Bool = false, getTaskAllow: Bool = false) -> String {
        let deviceList = devices.isEmpty ? "" :
            "<key>ProvisionedDevices</key><array>" + devices.map { "<string>\($0)</string>" }.joined() + "</array>"
        return """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        <key>AppIDName</key><string>Example App</string>
        <key>ApplicationIdentifierPrefix</key><array><string>ABCDE12345</string></array>
        <key>CreationDate</key><date>2024-01-02T03:04:05Z</date>
        <key>Platform</key><array><string>iOS</string></array>
        <key>DeveloperCertificates</key><array><data>AAEC</data></array>
        <key>Entitlements</key>
        <dict>
        <key>application-identifier</key><string>ABCDE12345.com.example.app</string>
        <key>get-task-allow</key><\(getTaskAllow ? "true" : "false")/>
        <key>aps-environment</key><string>development</string>
        </dict>
        <key>ExpirationDate</key><date>2025-01-02T03:04:05Z</date>
        <key>Name</key><string>Example Profile</string>
        \(deviceList)
        \(allDevices ? "<key>ProvisionsAllDevices</key><true/>" : "")
        <key>TeamIdentifier</key><array><string>ABCDE12345</string></array>
        <key>TeamName</key><string>Example Corp</string>
        <key>UUID</key><string>01234567-89AB-CDEF-0123-456789ABCDEF</string>
        <key>Version</key><integer>1</integer>
        </dict>
        </plist>
        """
    }
}
