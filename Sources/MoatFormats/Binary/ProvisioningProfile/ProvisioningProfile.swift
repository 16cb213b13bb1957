import Foundation

/// An `embedded.mobileprovision`: a CMS signed property list describing who may run the app where.
public struct ProvisioningProfile: Sendable {
    public enum Kind: String, Sendable, Hashable {
        /// `get-task-allow` and a device list: a debugger can attach.
        case development
        /// A device list without `get-task-allow`.
        case adHoc
        /// `ProvisionsAllDevices` (In-House distribution).
        case enterprise
        /// None of the above.
        case appStore
    }

    /// The whole property list.
    public let document: PropertyListDocument
    public let name: String?
    public let uuid: String?
    public let teamIdentifiers: [String]
    public let teamName: String?
    public let appIDName: String?
    public let applicationIdentifierPrefixes: [String]
    public let platforms: [String]
    public let creationDate: Date?
    public let expirationDate: Date?
    public let provisionedDevices: [String]
    public let provisionsAllDevices: Bool
    /// The `Entitlements` dictionary.
    public let entitlements: PlistNode?
    public let getTaskAllow: Bool
    public let developerCertificateCount: Int
    public let kind: Kind
    /// False when the CMS content type was not id-data, or the input was a bare property list.
    public let wasCMSData: Bool

    /// Reads a profile from its CMS bytes (a bare property list is accepted too). `path` is the
    /// display path the property list document gets.
    public init(data: Data, path: String) throws {
        let content: Data
        var isCMS = false
        if let first = data.first, first == 0x30 {
            let cms = try CMSSignedData(data: data)
            content = cms.content
            isCMS = cms.contentTypeIsData
        } else {
            content = data
        }
        let document: PropertyListDocument
        do {
            document = try PropertyListParser.parse(data: content, path: path, kind: .other)
        } catch {
            throw BinaryFormatError(.provisioningProfile, "property list: \(error)")
        }
        try self.init(document: document, wasCMSData: isCMS)
    }

    init(document: PropertyListDocument, wasCMSData: Bool) throws {
        let root = document.root
        guard root.entries != nil else {
            throw BinaryFormatError(.provisioningProfile, "property list root is not a dictionary")
        }
        func date(_ key: String) -> Date? {
            if case .date(let value)? = root[key]?.value { return value }
            return nil
        }
        self.document = document
        self.wasCMSData = wasCMSData
        name = root["Name"]?.string
        uuid = root["UUID"]?.string
        teamIdentifiers = root["TeamIdentifier"]?.strings ?? []
        teamName = root["TeamName"]?.string
        appIDName = root["AppIDName"]?.string
        applicationIdentifierPrefixes = root["ApplicationIdentifierPrefix"]?.strings ?? []
        platforms = root["Platform"]?.strings ?? []
        creationDate = date("CreationDate")
        expirationDate = date("ExpirationDate")
        provisionedDevices = root["ProvisionedDevices"]?.strings ?? []
        provisionsAllDevices = root["ProvisionsAllDevices"]?.bool ?? false
        entitlements = root["Entitlements"]
        getTaskAllow = entitlements?["get-task-allow"]?.bool ?? false
        developerCertificateCount = root["DeveloperCertificates"]?.array?.count ?? 0
        if provisionsAllDevices {
            kind = .enterprise
        } else if !provisionedDevices.isEmpty {
            kind = getTaskAllow ? .development : .adHoc
        } else if getTaskAllow {
            kind = .development
        } else {
            kind = .appStore
        }
    }

    public func isExpired(at date: Date) -> Bool {
        guard let expirationDate else { return false }
        return expirationDate < date
    }
}
