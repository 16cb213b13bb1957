import Foundation

/// A ZIP archive read in place from memory (or a memory-mapped file), never extracted to disk.
///
/// The central directory is the index: each entry it lists is checked against its local header and
/// the limits before it is accepted; entries that fail a check are listed in `skipped` with the
/// reason. Reading an entry inflates at most its declared size and verifies size and CRC-32.
public struct ZipArchive: Sendable {
    public let limits: ZipLimits
    /// Accepted entries, in central-directory order.
    public let entries: [ZipEntry]
    /// Entries left out, and why.
    public let skipped: [ZipSkippedEntry]
    /// Archive-wide oddities that did not stop reading (an entry count that disagrees with the end
    /// record, a ZIP64 record...).
    public let warnings: [String]
    public let isZip64: Bool

    private let data: Data
    private let index: [String: Int]

    public init(data: Data, limits: ZipLimits = ZipLimits()) throws {
        let parsed = try data.withRawBytes { try ZipIndexer(bytes: $0, limits: limits).run() }
        self.data = data
        self.limits = limits
        self.entries = parsed.entries
        self.skipped = parsed.skipped
        self.warnings = parsed.warnings
        self.isZip64 = parsed.isZip64
        var index: [String: Int] = [:]
        for (position, entry) in parsed.entries.enumerated() { index[entry.path] = position }
        self.index = index
    }

    /// Maps the file into memory instead of reading it.
    public init(contentsOf url: URL, limits: ZipLimits = ZipLimits()) throws {
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .alwaysMapped)
        } catch {
            throw BinaryFormatError(.zip, "cannot read \(url.lastPathComponent): \(error.localizedDescription)")
        }
        try self.init(data: data, limits: limits)
    }

    /// The accepted entry with this (normalized) path.
    public func entry(_ path: String) -> ZipEntry? {
        index[path].map { entries[$0] }
    }

    /// The uncompressed bytes of an entry. Throws when the data is corrupt, inflates to a size other
    /// than the declared one, or fails its CRC-32.
    public func read(_ entry: ZipEntry) throws -> Data {
        guard !entry.isDirectory else { return Data() }
        guard let start = RawBytes.offset(entry.dataOffset), let length = RawBytes.offset(entry.compressedSize),
              let expected = RawBytes.offset(entry.uncompressedSize) else {
            throw BinaryFormatError(.zip, "\(entry.path): offsets out of range")
        }
        return try data.withRawBytes { bytes in
            guard let input = bytes.slice(start, length) else {
                throw BinaryFormatError(.zip, "\(entry.path): data past the end of the archive")
            }
            let output: Data
            switch entry.method {
            case .stored:
                guard length == expected, let copy = input.data(0, length) else {
                    throw BinaryFormatError(.zip, "\(entry.path): stored sizes disagree")
                }
                output = copy
            case .deflated:
                let outcome: Inflater.Outcome
                do {
                    outcome = try Inflater.inflate(input, wrapper: .raw, limit: expected)
                } catch let error as BinaryFormatError {
                    throw BinaryFormatError(.zip, "\(entry.path): \(error.message)")
                }
                switch outcome {
                case .exceedsLimit:
                    throw BinaryFormatError(.zip, "\(entry.path): inflates to more than the declared \(expected) bytes")
                case .complete(let inflated, _):
                    guard inflated.count == expected else {
                        throw BinaryFormatError(.zip, "\(entry.path): inflates to \(inflated.count) bytes, header says \(expected)")
                    }
                    output = inflated
                }
            case .other(let code):
                throw BinaryFormatError(.zip, "\(entry.path): unsupported compression method \(code)")
            }
            let crc = Checksum.crc32(output)
            guard crc == entry.crc32 else {
                throw BinaryFormatError(.zip, "\(entry.path): CRC-32 mismatch")
            }
            return output
        }
    }

    /// The bytes of the entry at `path`.
    public func read(path: String) throws -> Data {
        guard let entry = entry(path) else { throw BinaryFormatError(.zip, "no entry \(path)") }
        return try read(entry)
    }
}

// MARK: - Indexing

private enum Signature {
    static let endOfCentralDirectory: UInt32 = 0x0605_4b50
    static let zip64EndOfCentralDirectory: UInt32 = 0x0606_4b50
    static let zip64Locator: UInt32 = 0x0706_4b50
    static let centralDirectoryEntry: UInt32 = 0x0201_4b50
    static let localFileHeader: UInt32 = 0x0403_4b50
}

private struct ZipIndexer {
    let bytes: RawBytes
    let limits: ZipLimits

    struct Result {
        var entries: [ZipEntry] = []
        var skipped: [ZipSkippedEntry] = []
        var warnings: [String] = []
        var isZip64 = false
    }

    /// An entry that passed the per-entry checks, before the overlap and total-size passes.
    struct Candidate {
        var entry: ZipEntry
        var rangeStart: UInt64
        var rangeEnd: UInt64
    }

    struct Directory {
        var offset: Int
        var size: Int
        var declaredEntries: UInt64
    }

    func run() throws -> Result {
        var result = Result()
        let directory = try locateCentralDirectory(&result)
        let candidates = try readCentralDirectory(directory, &result)

        // Overlapping local header + data ranges: keep the first in offset order, skip the others.
        var keep = [Bool](repeating: true, count: candidates.count)
        let order = candidates.indices.sorted { candidates[$0].rangeStart < candidates[$1].rangeStart }
        var furthest: (end: UInt64, path: String)?
        for position in order {
            let candidate = candidates[position]
            if let previous = furthest, candidate.rangeStart < previous.end {
                keep[position] = false
                result.skipped.append(ZipSkippedEntry(path: candidate.entry.path, reason: .overlaps(previous.path)))
                continue
            }
            if candidate.rangeEnd > furthest?.end ?? 0 {
                furthest = (candidate.rangeEnd, candidate.entry.path)
            }
        }

        var total: UInt64 = 0
        for (position, candidate) in candidates.enumerated() where keep[position] {
            let (sum, overflow) = total.addingReportingOverflow(candidate.entry.uncompressedSize)
            if overflow || sum > limits.maximumTotalUncompressedSize {
                result.skipped.append(ZipSkippedEntry(path: candidate.entry.path, reason: .totalSizeExceeded))
                continue
            }
            total = sum
            result.entries.append(candidate.entry)
        }
        return result
    }

    // MARK: End records

    private func locateCentralDirectory(_ result: inout Result) throws -> Directory {
        let recordSize = 22
        guard bytes.count >= recordSize else {
            throw BinaryFormatError(.zip, "too small to be a ZIP archive (\(bytes.count) bytes)")
        }
        let last = bytes.count - recordSize
        let first = max(0, last - 0xFFFF)
        var exact: Int?
        var loose: Int?
        var position = last
        while position >= first {
            if bytes.u32(position) == Signature.endOfCentralDirectory, let commentLength = bytes.u16(position + 20) {
                let end = position + recordSize + Int(commentLength)
                if end == bytes.count { exact = position; break }
                if end <= bytes.count && loose == nil { loose = position }
            }
            position -= 1
        }
        guard let end = exact ?? loose else {
            throw BinaryFormatError(.zip, "no end of central directory record (not a ZIP archive, or truncated)")
        }
        if exact == nil { result.warnings.append("end of central directory record does not end the file") }

        guard let disk = bytes.u16(end + 4), let directoryDisk = bytes.u16(end + 6),
              let entryCount = bytes.u16(end + 10), let size = bytes.u32(end + 12), let offset = bytes.u32(end + 16) else {
            throw BinaryFormatError(.zip, "truncated end of central directory record")
        }
        var directory = (disk: UInt32(disk), directoryDisk: UInt32(directoryDisk), entries: UInt64(entryCount),
                         size: UInt64(size), offset: UInt64(offset))
        let saturated = entryCount == 0xFFFF || size == 0xFFFF_FFFF || offset == 0xFFFF_FFFF

        let locator = end - 20
        if locator >= 0, bytes.u32(locator) == Signature.zip64Locator {
            guard let recordOffset64 = bytes.u64(locator + 8), let recordOffset = RawBytes.offset(recordOffset64),
                  bytes.u32(recordOffset) == Signature.zip64EndOfCentralDirectory,
                  let disk64 = bytes.u32(recordOffset + 16), let directoryDisk64 = bytes.u32(recordOffset + 20),
                  let entries64 = bytes.u64(recordOffset + 32), let size64 = bytes.u64(recordOffset + 40),
                  let offset64 = bytes.u64(recordOffset + 48) else {
                throw BinaryFormatError(.zip, "ZIP64 end of central directory record is missing or truncated")
            }
            directory = (disk64, directoryDisk64, entries64, size64, offset64)
            result.isZip64 = true
        } else if saturated {
            throw BinaryFormatError(.zip, "end record refers to a ZIP64 record that is not there")
        }

        guard directory.disk == 0 && directory.directoryDisk == 0 else {
            throw BinaryFormatError(.zip, "multi-disk archives are not supported")
        }
        guard let directoryOffset = RawBytes.offset(directory.offset), let directorySize = RawBytes.offset(directory.size),
              bytes.has(directoryOffset, directorySize) else {
            throw BinaryFormatError(.zip, "central directory (offset \(directory.offset), \(directory.size) bytes) lies outside the archive")
        }
        return Directory(offset: directoryOffset, size: directorySize, declaredEntries: directory.entries)
    }

    // MARK: Central directory

    private func readCentralDirectory(_ directory: Directory, _ result: inout Result) throws -> [Candidate] {
        var candidates: [Candidate] = []
        var seen = Set<String>()
        var offset = directory.offset
        let end = directory.offset + directory.size
        var count = 0
        while offset < end {
            guard count < limits.maximumEntries else {
                result.skipped.append(ZipSkippedEntry(path: "", reason: .tooManyEntries(limits.maximumEntries)))
                break
            }
            count += 1
            guard offset + 46 <= end, bytes.u32(offset) == Signature.centralDirectoryEntry,
                  let madeBy = bytes.u16(offset + 4), let flags = bytes.u16(offset + 8),
                  let methodCode = bytes.u16(offset + 10), let crc = bytes.u32(offset + 16),
                  let compressed32 = bytes.u32(offset + 20), let uncompressed32 = bytes.u32(offset + 24),
                  let nameLength = bytes.u16(offset + 28), let extraLength = bytes.u16(offset + 30),
                  let commentLength = bytes.u16(offset + 32), let startDisk = bytes.u16(offset + 34),
                  let externalAttributes = bytes.u32(offset + 38), let localOffset32 = bytes.u32(offset + 42) else {
                throw BinaryFormatError(.zip, "corrupt central directory entry at offset \(offset)")
            }
            let nameStart = offset + 46
            let extraStart = nameStart + Int(nameLength)
            let recordEnd = extraStart + Int(extraLength) + Int(commentLength)
            guard recordEnd <= end, let nameBytes = bytes.slice(nameStart, Int(nameLength)) else {
                throw BinaryFormatError(.zip, "central directory entry at offset \(offset) runs past the directory")
            }
            offset = recordEnd

            var compressed = UInt64(compressed32)
            var uncompressed = UInt64(uncompressed32)
            var localOffset = UInt64(localOffset32)
            var disk = UInt32(startDisk)
            if compressed32 == 0xFFFF_FFFF || uncompressed32 == 0xFFFF_FFFF || localOffset32 == 0xFFFF_FFFF || startDisk == 0xFFFF {
                guard readZip64Extra(at: extraStart, length: Int(extraLength),
                                     uncompressed: &uncompressed, compressed: &compressed, localOffset: &localOffset, disk: &disk,
                                     needUncompressed: uncompressed32 == 0xFFFF_FFFF, needCompressed: compressed32 == 0xFFFF_FFFF,
                                     needOffset: localOffset32 == 0xFFFF_FFFF, needDisk: startDisk == 0xFFFF) else {
                    let name = decodeName(nameBytes, utf8Flag: flags & 0x0800 != 0)
                    result.skipped.append(ZipSkippedEntry(path: name, reason: .inconsistentHeader("ZIP64 extra field missing or short")))
                    continue
                }
            }

            let rawName = decodeName(nameBytes, utf8Flag: flags & 0x0800 != 0)
            func skip(_ reason: ZipSkipReason) { result.skipped.append(ZipSkippedEntry(path: rawName, reason: reason)) }

            let normalized: (path: String, isDirectory: Bool)
            switch normalize(rawName, nameBytes) {
            case .failure(let why): skip(.unsafePath(why)); continue
            case .success(let value): normalized = value
            }
            guard disk == 0 else { skip(.inconsistentHeader("entry on another disk")); continue }
            guard !seen.contains(normalized.path) else { skip(.duplicateName); continue }
            seen.insert(normalized.path)

            let host = madeBy >> 8
            let mode: UInt16? = (host == 3 || host == 19) ? UInt16(truncatingIfNeeded: externalAttributes >> 16) : nil
            let fileType = (mode ?? 0) & 0o170000
            let isDirectory = normalized.isDirectory || fileType == 0o040000 || (mode == nil && externalAttributes & 0x10 != 0)
            let isSymbolicLink = fileType == 0o120000

            guard flags & 0x0001 == 0 && flags & 0x0040 == 0 && methodCode != 99 else { skip(.encrypted); continue }
            let method = ZipCompressionMethod(code: methodCode)
            if case .other(let code) = method { skip(.unsupportedMethod(code)); continue }
            guard uncompressed <= limits.maximumEntrySize else { skip(.entryTooLarge(uncompressed)); continue }
            if method == .stored && compressed != uncompressed {
                skip(.inconsistentHeader("stored entry with compressed size \(compressed) and uncompressed size \(uncompressed)"))
                continue
            }
            if uncompressed > limits.ratioThreshold {
                let ratio = uncompressed / max(compressed, 1)
                if ratio > limits.maximumCompressionRatio { skip(.compressionRatio(ratio)); continue }
            }

            // The local header must be inside the archive, carry the same name and method, and be
            // followed by the whole compressed data, all before the central directory.
            guard let local = RawBytes.offset(localOffset), bytes.has(local, 30),
                  let localNameLength = bytes.u16(local + 26), let localExtraLength = bytes.u16(local + 28) else {
                skip(.truncated); continue
            }
            guard bytes.u32(local) == Signature.localFileHeader else {
                skip(.inconsistentHeader("no local file header at offset \(localOffset)")); continue
            }
            let localName = local + 30
            guard let localNameBytes = bytes.slice(localName, Int(localNameLength)) else { skip(.truncated); continue }
            guard localNameBytes.buffer.elementsEqual(nameBytes.buffer) else {
                skip(.inconsistentHeader("local header name differs from the central directory")); continue
            }
            if let localMethod = bytes.u16(local + 8), localMethod != methodCode {
                skip(.inconsistentHeader("local header method differs from the central directory")); continue
            }
            let dataStart = localName + Int(localNameLength) + Int(localExtraLength)
            guard let length = RawBytes.offset(compressed), bytes.has(dataStart, length) else { skip(.truncated); continue }
            let dataEnd = dataStart + length
            if local < directory.offset && dataEnd > directory.offset {
                skip(.inconsistentHeader("data runs into the central directory")); continue
            }

            let entry = ZipEntry(path: normalized.path, method: method, compressedSize: compressed,
                                 uncompressedSize: isDirectory ? 0 : uncompressed, crc32: crc,
                                 localHeaderOffset: localOffset, dataOffset: UInt64(dataStart),
                                 isDirectory: isDirectory, isSymbolicLink: isSymbolicLink, unixMode: mode)
            candidates.append(Candidate(entry: entry, rangeStart: localOffset, rangeEnd: UInt64(dataEnd)))
        }
        if UInt64(count) != directory.declaredEntries && result.skipped.last?.reason != .tooManyEntries(limits.maximumEntries) {
            result.warnings.append("end record declares \(directory.declaredEntries) entries, central directory holds \(count)")
        }
        return candidates
    }

    /// Reads the ZIP64 extended-information extra field (id 1): the 64-bit values appear in a fixed
    /// order, each only when its 32-bit field is saturated.
    private func readZip64Extra(at start: Int, length: Int,
                                uncompressed: inout UInt64, compressed: inout UInt64, localOffset: inout UInt64, disk: inout UInt32,
                                needUncompressed: Bool, needCompressed: Bool, needOffset: Bool, needDisk: Bool) -> Bool {
        var offset = start
        let end = start + length
        while offset + 4 <= end, let id = bytes.u16(offset), let size = bytes.u16(offset + 2) {
            let body = offset + 4
            let bodyEnd = body + Int(size)
            guard bodyEnd <= end else { return false }
            if id == 0x0001 {
                var cursor = body
                func next64() -> UInt64? {
                    guard cursor + 8 <= bodyEnd, let value = bytes.u64(cursor) else { return nil }
                    cursor += 8
                    return value
                }
                if needUncompressed { guard let value = next64() else { return false }; uncompressed = value }
                if needCompressed { guard let value = next64() else { return false }; compressed = value }
                if needOffset { guard let value = next64() else { return false }; localOffset = value }
                if needDisk {
                    guard cursor + 4 <= bodyEnd, let value = bytes.u32(cursor) else { return false }
                    disk = value
                }
                return true
            }
            offset = bodyEnd
        }
        return false
    }

    private func decodeName(_ name: RawBytes, utf8Flag: Bool) -> String {
        if utf8Flag { return String(decoding: name.buffer, as: UTF8.self) }
        if let text = String(validating: name.buffer, as: UTF8.self) { return text }
        // Not UTF-8 and not flagged: read as Latin-1 so distinct names stay distinct.
        return String(String.UnicodeScalarView(name.buffer.map { Unicode.Scalar($0) }))
    }

    private enum NameCheck { case success((path: String, isDirectory: Bool)), failure(String) }

    private func normalize(_ name: String, _ raw: RawBytes) -> NameCheck {
        if raw.buffer.contains(0) { return .failure("NUL byte") }
        if name.isEmpty { return .failure("empty name") }
        if name.contains("\\") { return .failure("backslash") }
        if name.hasPrefix("/") { return .failure("absolute path") }
        let scalars = Array(name.unicodeScalars.prefix(2))
        if scalars.count == 2, scalars[1] == ":", scalars[0].properties.isAlphabetic { return .failure("drive letter") }
        var components: [Substring] = []
        for component in name.split(separator: "/", omittingEmptySubsequences: true) {
            if component == ".." { return .failure("'..' component") }
            if component == "." { continue }
            components.append(component)
        }
        if components.isEmpty { return .failure("empty name") }
        return .success((components.joined(separator: "/"), name.hasSuffix("/")))
    }
}
