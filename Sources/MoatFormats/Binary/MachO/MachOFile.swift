import Foundation

/// A Mach-O file: one thin image, or a fat (universal) file holding several.
public struct MachOFile: Sendable {
    public let isFat: Bool
    /// The images that could be read, in fat-header order.
    public let images: [MachOImage]
    /// Architectures of a fat file that could not be read, and why.
    public let warnings: [String]

    static let fatMagic: UInt32 = 0xcafe_babe
    static let fatMagic64: UInt32 = 0xcafe_babf

    public init(data: Data, limits: MachOLimits = MachOLimits()) throws {
        let parsed = try data.withRawBytes { bytes -> (Bool, [MachOImage], [String]) in
            guard let magicBE = bytes.u32(0, bigEndian: true), let magicLE = bytes.u32(0) else {
                throw BinaryFormatError(.machO, "too small to be a Mach-O file (\(bytes.count) bytes)")
            }
            if magicBE == Self.fatMagic || magicBE == Self.fatMagic64 || magicLE == Self.fatMagic || magicLE == Self.fatMagic64 {
                let bigEndian = magicBE == Self.fatMagic || magicBE == Self.fatMagic64
                let wide = (bigEndian ? magicBE : magicLE) == Self.fatMagic64
                let (images, warnings) = try Self.readFat(bytes, data: data, bigEndian: bigEndian, wide: wide, limits: limits)
                return (true, images, warnings)
            }
            let image = try MachOImage(bytes: bytes, data: data, fileOffset: 0, limits: limits)
            return (false, [image], [])
        }
        (isFat, images, warnings) = parsed
    }

    public init(contentsOf url: URL, limits: MachOLimits = MachOLimits()) throws {
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .alwaysMapped)
        } catch {
            throw BinaryFormatError(.machO, "cannot read \(url.lastPathComponent): \(error.localizedDescription)")
        }
        try self.init(data: data, limits: limits)
    }

    /// Whether the bytes start like a Mach-O or fat file (a cheap test before parsing).
    public static func looksLikeMachO(_ data: Data) -> Bool {
        data.withRawBytes { bytes in
            guard let magic = bytes.u32(0) else { return false }
            return [0xfeed_face, 0xfeed_facf, 0xcefa_edfe, 0xcffa_edfe].contains(magic)
                || [fatMagic, fatMagic64].contains(UInt32(bigEndian: magic)) || [fatMagic, fatMagic64].contains(magic)
        }
    }

    /// The image to judge an app by: arm64 first, then arm64e, then the first one.
    public var preferredImage: MachOImage? {
        images.first { $0.architecture.name == "arm64" } ?? images.first { $0.architecture.name == "arm64e" } ?? images.first
    }

    private static func readFat(_ bytes: RawBytes, data: Data, bigEndian: Bool, wide: Bool,
                                limits: MachOLimits) throws -> ([MachOImage], [String]) {
        guard let count32 = bytes.u32(4, bigEndian: bigEndian) else {
            throw BinaryFormatError(.machO, "truncated fat header")
        }
        let count = Int(count32)
        guard count >= 1 else { throw BinaryFormatError(.machO, "fat header lists no architectures") }
        guard count <= limits.maximumArchitectures else {
            throw BinaryFormatError(.machO, "fat header claims \(count) architectures (limit \(limits.maximumArchitectures))")
        }
        let entrySize = wide ? 32 : 20
        guard bytes.has(8, count * entrySize) else {
            throw BinaryFormatError(.machO, "fat header with \(count) architectures is truncated")
        }
        var images: [MachOImage] = []
        var warnings: [String] = []
        var firstError: Error?
        var ranges: [Range<Int>] = []
        for index in 0..<count {
            let entry = 8 + index * entrySize
            let cpuType = Int32(bitPattern: bytes.u32(entry, bigEndian: bigEndian) ?? 0)
            let cpuSubtype = Int32(bitPattern: bytes.u32(entry + 4, bigEndian: bigEndian) ?? 0)
            let architecture = MachOArchitecture(cpuType: cpuType, cpuSubtype: cpuSubtype)
            let offset64: UInt64?
            let size64: UInt64?
            if wide {
                offset64 = bytes.u64(entry + 8, bigEndian: bigEndian)
                size64 = bytes.u64(entry + 16, bigEndian: bigEndian)
            } else {
                offset64 = bytes.u32(entry + 8, bigEndian: bigEndian).map(UInt64.init)
                size64 = bytes.u32(entry + 12, bigEndian: bigEndian).map(UInt64.init)
            }
            guard let offset = offset64.flatMap(RawBytes.offset), let size = size64.flatMap(RawBytes.offset),
                  let slice = bytes.slice(offset, size) else {
                let message = "architecture \(architecture) (offset \(offset64 ?? 0), size \(size64 ?? 0)) lies outside the file"
                warnings.append(message)
                firstError = firstError ?? BinaryFormatError(.machO, message)
                continue
            }
            guard offset >= 8 + count * entrySize else {
                let message = "architecture \(architecture) overlaps the fat header"
                warnings.append(message)
                firstError = firstError ?? BinaryFormatError(.machO, message)
                continue
            }
            let range = offset..<(offset + size)
            if ranges.contains(where: { $0.overlaps(range) }) {
                warnings.append("architecture \(architecture) overlaps another architecture")
            }
            ranges.append(range)
            do {
                let image = try MachOImage(bytes: slice, data: data, fileOffset: offset, limits: limits)
                if image.architecture.cpuType != cpuType {
                    warnings.append("architecture \(architecture) in the fat header holds a \(image.architecture) image")
                }
                images.append(image)
            } catch {
                warnings.append("architecture \(architecture): \(error)")
                firstError = firstError ?? error
            }
        }
        if images.isEmpty, let firstError { throw firstError }
        return (images, warnings)
    }
}
