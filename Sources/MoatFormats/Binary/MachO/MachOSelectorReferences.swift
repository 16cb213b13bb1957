import Foundation

extension MachOImage {
    /// The Objective-C selectors the image's code sends: the strings of `__objc_methname` that an entry
    /// of `__objc_selrefs` points at. Unlike `objcSelectors()` (every name in `__objc_methname`, which also
    /// holds the names of methods the image merely defines), this is the list of messages the code sends.
    ///
    /// A selector reference is a pointer to the name. Depending on how the image was linked it holds the
    /// plain address, a chained-fixup rebase whose low 36 bits (43 on arm64e) are the address or its
    /// offset from the image base, or an authenticated rebase with a 32-bit offset; each reading is
    /// tried and kept only when it lands inside `__objc_methname`. Returns nil when the image has no
    /// `__objc_selrefs` section (then only `objcSelectors()` is available), and for object files, whose
    /// references are relocations still to be applied; sections that lie outside the image or in its
    /// encrypted range give warnings.
    public func objcSelectorReferences() -> MachOStrings? {
        let referenceSections = sections.filter { $0.name == "__objc_selrefs" }
        guard !referenceSections.isEmpty, fileType != .object else { return nil }
        let nameSections = sections.filter { $0.name == "__objc_methname" && !$0.isZeroFill }
        var strings: [String] = []
        var seen = Set<String>()
        var warnings: [String] = []
        let base = segments.first { $0.fileOffset == 0 && $0.fileSize > 0 }?.vmAddress ?? 0
        let pointerSize = is64Bit ? 8 : 4
        data.withRawBytes { bytes in
            // The name sections' bytes, readable ones only.
            var names: [(section: MachOSection, body: RawBytes)] = []
            for section in nameSections {
                if isEncrypted(section) {
                    warnings.append("\(section.segmentName),\(section.name) is encrypted")
                    continue
                }
                guard let length = RawBytes.offset(section.size), let body = bytes.slice(Int(section.fileOffset), length) else {
                    warnings.append("\(section.segmentName),\(section.name) lies outside the image")
                    continue
                }
                names.append((section, body))
            }
            func name(at address: UInt64) -> String? {
                for (section, body) in names where address >= section.address && address - section.address < section.size {
                    guard let offset = RawBytes.offset(address - section.address) else { return nil }
                    return body.cString(offset, limit: min(limits.maximumStringLength, body.count - offset))
                }
                return nil
            }
            for section in referenceSections {
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
                let count = body.count / pointerSize
                if count > limits.maximumStringsPerSection {
                    warnings.append("\(label) holds more than \(limits.maximumStringsPerSection) references; the rest were not read")
                }
                var unresolved = 0
                for index in 0..<min(count, limits.maximumStringsPerSection) {
                    let raw: UInt64
                    if is64Bit {
                        guard let value = body.u64(index * 8, bigEndian: isBigEndian) else { break }
                        raw = value
                    } else {
                        guard let value = body.u32(index * 4, bigEndian: isBigEndian) else { break }
                        raw = UInt64(value)
                    }
                    var resolved: String?
                    for candidate in Self.pointerReadings(raw, is64Bit: is64Bit) {
                        if let text = name(at: candidate) ?? name(at: base &+ candidate) {
                            resolved = text
                            break
                        }
                    }
                    guard let resolved else {
                        unresolved += 1
                        continue
                    }
                    if !resolved.isEmpty && seen.insert(resolved).inserted { strings.append(resolved) }
                }
                if unresolved > 0 && !names.isEmpty {
                    warnings.append("\(label): \(unresolved) reference\(unresolved == 1 ? "" : "s") point outside __objc_methname")
                }
            }
        }
        return MachOStrings(strings: strings, warnings: warnings)
    }

    /// The ways a pointer-sized value may encode an address: as is, and as the target of a chained
    /// rebase (36-bit, arm64e 43-bit, authenticated 32-bit).
    static func pointerReadings(_ raw: UInt64, is64Bit: Bool) -> [UInt64] {
        guard is64Bit else { return [raw] }
        var readings = [raw]
        for mask: UInt64 in [(1 << 36) - 1, (1 << 43) - 1, 0xffff_ffff] where !readings.contains(raw & mask) {
            readings.append(raw & mask)
        }
        return readings
    }
}
