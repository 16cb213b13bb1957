import Foundation

/// How an entry's bytes are stored.
public enum ZipCompressionMethod: Sendable, Hashable, CustomStringConvertible {
    case stored
    case deflated
    case other(UInt16)

    init(code: UInt16) {
        switch code {
        case 0: self = .stored
        case 8: self = .deflated
        default: self = .other(code)
        }
    }

    public var code: UInt16 {
        switch self {
        case .stored: return 0
        case .deflated: return 8
        case .other(let code): return code
        }
    }

    public var description: String {
        switch self {
        case .stored: return "stored"
        case .deflated: return "deflated"
        case .other(let code): return "method \(code)"
        }
    }
}

/// One readable entry of an archive, as its central directory describes it.
public struct ZipEntry: Sendable, Hashable {
    /// The entry name, `/`-separated, with empty and `.` components removed. Directory entries keep no
    /// trailing slash; see `isDirectory`.
    public let path: String
    public let method: ZipCompressionMethod
    public let compressedSize: UInt64
    public let uncompressedSize: UInt64
    public let crc32: UInt32
    /// Offset of the local file header from the start of the archive.
    public let localHeaderOffset: UInt64
    /// Offset of the entry's (compressed) bytes from the start of the archive.
    public let dataOffset: UInt64
    public let isDirectory: Bool
    /// A Unix symbolic link (the bytes are the target path). Readers of bundles never follow these.
    public let isSymbolicLink: Bool
    /// The Unix mode bits, when the archive was made on a Unix host.
    public let unixMode: UInt16?
}

/// An entry that was left out of `ZipArchive.entries`, with the reason.
public struct ZipSkippedEntry: Sendable, Hashable, CustomStringConvertible {
    /// The name as found in the archive (repaired to valid UTF-8), or `""` for archive-wide reasons.
    public let path: String
    public let reason: ZipSkipReason

    public var description: String { path.isEmpty ? reason.description : "\(path): \(reason)" }
}

public enum ZipSkipReason: Sendable, Hashable, CustomStringConvertible {
    /// `..` components, an absolute path, a drive letter, a backslash, a NUL or an empty name.
    case unsafePath(String)
    /// A second entry with the same (normalized) name; the first one is kept.
    case duplicateName
    case encrypted
    case unsupportedMethod(UInt16)
    /// A stored entry whose compressed and uncompressed sizes differ, or a local header that disagrees
    /// with the central directory.
    case inconsistentHeader(String)
    /// Uncompressed bytes per compressed byte above `ZipLimits.maximumCompressionRatio`.
    case compressionRatio(UInt64)
    case entryTooLarge(UInt64)
    /// Accepting the entry would take the archive's declared uncompressed total past the cap.
    case totalSizeExceeded
    /// The entry's local header and data overlap those of another entry (an overlapping-file bomb).
    case overlaps(String)
    /// The entry's header or data lies (partly) outside the archive.
    case truncated
    /// The archive has more entries than `ZipLimits.maximumEntries`; the rest were not read.
    case tooManyEntries(Int)

    public var description: String {
        switch self {
        case .unsafePath(let why): return "unsafe name (\(why))"
        case .duplicateName: return "duplicate name"
        case .encrypted: return "encrypted entry"
        case .unsupportedMethod(let code): return "unsupported compression method \(code)"
        case .inconsistentHeader(let why): return "inconsistent header (\(why))"
        case .compressionRatio(let ratio): return "compression ratio \(ratio):1 above the limit"
        case .entryTooLarge(let size): return "uncompressed size \(size) above the per-entry limit"
        case .totalSizeExceeded: return "total uncompressed size of the archive above the limit"
        case .overlaps(let other): return "overlaps entry \(other)"
        case .truncated: return "header or data past the end of the archive"
        case .tooManyEntries(let limit): return "more than \(limit) entries; the rest were not read"
        }
    }
}

/// Bounds on the work an archive may ask for.
public struct ZipLimits: Sendable, Hashable {
    /// Entries read from the central directory; the rest are reported once and ignored.
    public var maximumEntries: Int
    /// Sum of the declared uncompressed sizes of the accepted entries.
    public var maximumTotalUncompressedSize: UInt64
    /// Declared uncompressed size of one entry.
    public var maximumEntrySize: UInt64
    /// Highest accepted uncompressed:compressed ratio for entries larger than `ratioThreshold`.
    public var maximumCompressionRatio: UInt64
    public var ratioThreshold: UInt64

    public init(maximumEntries: Int = 200_000,
                maximumTotalUncompressedSize: UInt64 = 2 << 30,
                maximumEntrySize: UInt64 = 1 << 30,
                maximumCompressionRatio: UInt64 = 1000,
                ratioThreshold: UInt64 = 1 << 20) {
        self.maximumEntries = maximumEntries
        self.maximumTotalUncompressedSize = maximumTotalUncompressedSize
        self.maximumEntrySize = maximumEntrySize
        self.maximumCompressionRatio = maximumCompressionRatio
        self.ratioThreshold = ratioThreshold
    }
}
