import Foundation

/// The embedded code signature of a Mach-O image: the super-blob `LC_CODE_SIGNATURE` points at.
/// All integers in it are big-endian.
public struct CodeSignature: Sendable {
    public static let superBlobMagic: UInt32 = 0xfade_0cc0
    public static let codeDirectoryMagic: UInt32 = 0xfade_0c02
    public static let requirementsMagic: UInt32 = 0xfade_0c01
    public static let entitlementsMagic: UInt32 = 0xfade_7171
    public static let derEntitlementsMagic: UInt32 = 0xfade_7172
    public static let signatureWrapperMagic: UInt32 = 0xfade_0b01
    /// More index entries than this is refused (real signatures have fewer than ten).
    public static let maximumBlobCount = 256

    /// One entry of the super-blob index.
    public struct Blob: Sendable, Hashable {
        /// Slot type: 0 code directory, 2 requirements, 5 entitlements, 7 DER entitlements,
        /// 0x1000... alternate code directories, 0x10000 CMS signature.
        public let slot: UInt32
        public let offset: UInt32
        public let magic: UInt32
        public let length: UInt32
    }

    public let blobs: [Blob]
    /// The code directories (the primary one in slot 0 first, then alternates).
    public let codeDirectories: [CodeDirectory]
    /// The XML property list of the entitlements blob, as stored.
    public let entitlementsData: Data?
    /// The DER entitlements blob's payload, kept raw.
    public let derEntitlementsData: Data?
    public let requirementsData: Data?
    /// A CMS signature blob with content (an ad-hoc signature has an empty one or none).
    public let hasCMSSignature: Bool
    /// Blobs that could not be read.
    public let warnings: [String]

    public var codeDirectory: CodeDirectory? { codeDirectories.first }

    public init(data: Data) throws {
        var blobs: [Blob] = []
        var directories: [CodeDirectory] = []
        var entitlements: Data?
        var derEntitlements: Data?
        var requirements: Data?
        var cms = false
        var warnings: [String] = []
        try data.withRawBytes { bytes in
            guard let magic = bytes.u32(0, bigEndian: true), let declaredLength = bytes.u32(4, bigEndian: true),
                  let count32 = bytes.u32(8, bigEndian: true) else {
                throw BinaryFormatError(.codeSignature, "too small for a code signature super-blob")
            }
            guard magic == Self.superBlobMagic else {
                throw BinaryFormatError(.codeSignature, "not an embedded signature (magic 0x\(String(magic, radix: 16)))")
            }
            var length = Int(declaredLength)
            if length > bytes.count {
                warnings.append("super-blob claims \(length) bytes, only \(bytes.count) present")
                length = bytes.count
            }
            let count = Int(count32)
            guard count <= Self.maximumBlobCount else {
                throw BinaryFormatError(.codeSignature, "super-blob claims \(count) blobs (limit \(Self.maximumBlobCount))")
            }
            let indexEnd = 12 + count * 8
            guard indexEnd <= length else {
                throw BinaryFormatError(.codeSignature, "super-blob index of \(count) entries runs past its \(length) bytes")
            }
            for index in 0..<count {
                guard let slot = bytes.u32(12 + index * 8, bigEndian: true),
                      let offset32 = bytes.u32(16 + index * 8, bigEndian: true) else { continue }
                let offset = Int(offset32)
                guard offset >= indexEnd, offset <= length - 8,
                      let blobMagic = bytes.u32(offset, bigEndian: true), let blobLength32 = bytes.u32(offset + 4, bigEndian: true),
                      Int(blobLength32) >= 8, Int(blobLength32) <= length - offset,
                      let blob = bytes.slice(offset, Int(blobLength32)) else {
                    warnings.append("blob \(index) (slot 0x\(String(slot, radix: 16))) lies outside the super-blob")
                    continue
                }
                blobs.append(Blob(slot: slot, offset: offset32, magic: blobMagic, length: blobLength32))
                let payload = blob.data(8, blob.count - 8)
                switch blobMagic {
                case Self.codeDirectoryMagic:
                    do {
                        directories.append(try CodeDirectory(blob, slot: slot))
                    } catch {
                        warnings.append("code directory in slot 0x\(String(slot, radix: 16)): \(error)")
                    }
                case Self.entitlementsMagic:
                    entitlements = entitlements ?? payload
                case Self.derEntitlementsMagic:
                    derEntitlements = derEntitlements ?? payload
                case Self.requirementsMagic:
                    requirements = requirements ?? payload
                case Self.signatureWrapperMagic:
                    cms = cms || blob.count > 8
                default:
                    break
                }
            }
        }
        self.blobs = blobs
        self.codeDirectories = directories.sorted { ($0.slot == 0 ? 0 : 1, $0.slot) < ($1.slot == 0 ? 0 : 1, $1.slot) }
        self.entitlementsData = entitlements
        self.derEntitlementsData = derEntitlements
        self.requirementsData = requirements
        self.hasCMSSignature = cms
        self.warnings = warnings
    }

    /// The entitlements property list, parsed; nil when the signature has no entitlements blob.
    /// `path` is the display path to give the document (for example `App.ipa!/Payload/X.app/X`).
    public func entitlements(path: String) throws -> PropertyListDocument? {
        guard let entitlementsData, !entitlementsData.isEmpty else { return nil }
        return try PropertyListParser.parse(data: entitlementsData, path: path, kind: .entitlements)
    }
}

/// Code signing flags of a code directory (`CS_*`).
public struct CodeSigningFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let adhoc = CodeSigningFlags(rawValue: 0x2)
    public static let getTaskAllow = CodeSigningFlags(rawValue: 0x4)
    public static let hard = CodeSigningFlags(rawValue: 0x100)
    public static let kill = CodeSigningFlags(rawValue: 0x200)
    public static let checkExpiration = CodeSigningFlags(rawValue: 0x400)
    public static let restrict = CodeSigningFlags(rawValue: 0x800)
    public static let enforcement = CodeSigningFlags(rawValue: 0x1000)
    public static let requireLibraryValidation = CodeSigningFlags(rawValue: 0x2000)
    public static let runtime = CodeSigningFlags(rawValue: 0x10000)
    public static let linkerSigned = CodeSigningFlags(rawValue: 0x20000)
}

/// A code directory blob (`0xfade0c02`).
public struct CodeDirectory: Sendable, Hashable {
    public let slot: UInt32
    public let version: UInt32
    public let flags: CodeSigningFlags
    /// 1 SHA-1, 2 SHA-256, 3 SHA-256 truncated, 4 SHA-384.
    public let hashType: UInt8
    public let hashSize: UInt8
    public let identifier: String
    /// Present from version 0x20200 on, when signed by a team.
    public let teamIdentifier: String?
    public let codeSlotCount: UInt32
    public let specialSlotCount: UInt32
    public let codeLimit: UInt32
    /// Page size as a power of two (12 for 4 KiB, 14 for 16 KiB; 0 for a single page).
    public let pageSizeLog2: UInt8
    public let platform: UInt8
    /// `CS_EXECSEG_*` flags, from version 0x20400 on.
    public let execSegmentFlags: UInt64?

    public var hashName: String {
        switch hashType {
        case 1: return "SHA-1"
        case 2: return "SHA-256"
        case 3: return "SHA-256 (truncated)"
        case 4: return "SHA-384"
        default: return "hash(\(hashType))"
        }
    }

    init(_ blob: RawBytes, slot: UInt32) throws {
        func u32(_ at: Int) -> UInt32? { blob.u32(at, bigEndian: true) }
        guard let version = u32(8), let flags = u32(12), let identOffset = u32(20), let specialSlots = u32(24),
              let codeSlots = u32(28), let codeLimit = u32(32), let hashSize = blob.u8(36), let hashType = blob.u8(37),
              let platform = blob.u8(38), let pageSize = blob.u8(39) else {
            throw BinaryFormatError(.codeSignature, "code directory is truncated")
        }
        func string(at offset: UInt32) -> String? {
            let start = Int(offset)
            guard start >= 8, start < blob.count else { return nil }
            return blob.cString(start, limit: blob.count - start)
        }
        guard let identifier = string(at: identOffset) else {
            throw BinaryFormatError(.codeSignature, "code directory identifier lies outside the blob")
        }
        self.slot = slot
        self.version = version
        self.flags = CodeSigningFlags(rawValue: flags)
        self.hashType = hashType
        self.hashSize = hashSize
        self.identifier = identifier
        if version >= 0x20200, let teamOffset = u32(48), teamOffset != 0 {
            self.teamIdentifier = string(at: teamOffset)
        } else {
            self.teamIdentifier = nil
        }
        self.codeSlotCount = codeSlots
        self.specialSlotCount = specialSlots
        self.codeLimit = codeLimit
        self.pageSizeLog2 = pageSize
        self.platform = platform
        self.execSegmentFlags = version >= 0x20400 ? blob.u64(80, bigEndian: true) : nil
    }
}

extension MachOImage {
    /// The embedded code signature, when `LC_CODE_SIGNATURE` is present.
    public func codeSignature() throws -> CodeSignature? {
        guard let range = codeSignatureRange, range.size > 0 else { return nil }
        guard let bytes = bytes(of: range) else {
            throw BinaryFormatError(.codeSignature, "LC_CODE_SIGNATURE (offset \(range.offset), \(range.size) bytes) lies outside the image")
        }
        return try CodeSignature(data: bytes)
    }
}
