import Foundation

/// Strings read from a C-string section, with what kept some out.
public struct MachOStrings: Sendable {
    public let strings: [String]
    /// Why strings are missing: the section is encrypted, out of bounds, or over the count limit.
    public let warnings: [String]
}

extension MachOImage {
    /// The NUL-separated strings of every section with this name (in this segment, when given), empty
    /// strings left out. Sections in the encrypted range of an encrypted image are not read.
    public func cStrings(section name: String, segment: String? = nil) -> MachOStrings {
        var strings: [String] = []
        var warnings: [String] = []
        data.withRawBytes { bytes in
            for section in sections where section.name == name && (segment == nil || section.segmentName == segment) {
                let label = "\(section.segmentName),\(section.name)"
                guard !section.isZeroFill else { continue }
                if isEncrypted(section) {
                    warnings.append("\(label) is encrypted")
                    continue
                }
                guard let length = RawBytes.offset(section.size), let body = bytes.slice(Int(section.fileOffset), length) else {
                    warnings.append("\(label) lies outside the image")
                    continue
                }
                if !Self.splitStrings(body, into: &strings, limit: limits.maximumStringsPerSection,
                                      maximumLength: limits.maximumStringLength) {
                    warnings.append("\(label) holds more than \(limits.maximumStringsPerSection) strings; the rest were not read")
                }
            }
        }
        return MachOStrings(strings: strings, warnings: warnings)
    }

    /// Objective-C class names (`__TEXT,__objc_classname`).
    public func objcClassNames() -> MachOStrings { cStrings(section: "__objc_classname") }

    /// Objective-C selector names (`__TEXT,__objc_methname`).
    public func objcSelectors() -> MachOStrings { cStrings(section: "__objc_methname") }

    /// C string literals (`__TEXT,__cstring`).
    public func cStringLiterals() -> MachOStrings { cStrings(section: "__cstring", segment: "__TEXT") }

    /// Returns false when the limit stopped the split.
    private static func splitStrings(_ body: RawBytes, into strings: inout [String], limit: Int, maximumLength: Int) -> Bool {
        var start = 0
        var index = 0
        let end = body.count
        while index <= end {
            if index == end || body.buffer[index] == 0 {
                if index > start {
                    guard strings.count < limit else { return false }
                    let length = min(index - start, maximumLength)
                    strings.append(String(decoding: UnsafeRawBufferPointer(rebasing: body.buffer[start..<(start + length)]),
                                          as: UTF8.self))
                }
                start = index + 1
            }
            index += 1
        }
        return true
    }
}
