@testable import MoatTestSupport
import Foundation
@testable import MoatFormats

/// The textual Mach-O sketches binary rules use as examples, turned into real Mach-O files.
///
/// ```
/// Mach-O executable arm64 [x86_64 ...] [no-pie] [swift] [encrypted|decrypted] [stripped|unstripped]
/// platform: iOS 15.0 sdk 17.0
/// text: 512K                         size of __TEXT,__text (16 bytes by default)
/// objc-classes: AppDelegate _TtC4Demo4View
/// imports: _objc_msgSend _strcpy     imported from libSystem through chained fixups
/// selectors: unarchiveObjectWithData:   in __objc_methname, each referenced from __objc_selrefs
/// string: http://example.net/v1      one __cstring literal per line, to the end of the line (`\n` is a newline)
/// entitlements: key=value key=[a,b] key=true   signed into an XML entitlements blob
/// ```
///
/// A `↓` before `Mach-O` expects a finding on the binary without a symbol; before a word of `imports`,
/// `selectors` or `objc-classes`, a finding with that symbol; after `string: `, a finding with the string;
/// before an entitlement key, a finding at that key path.
struct MachOSketch {
    var type: UInt32 = 2
    var architectures: [String] = []
    var pie = true
    var swift = false
    var cryptID: UInt32?
    var localSymbols: UInt32?
    var platform: (platform: UInt32, minimumOS: UInt32, sdk: UInt32)?
    var textSize = 16
    var classes: [String] = []
    var imports: [String] = []
    var selectors: [String] = []
    var strings: [String] = []
    var entitlements: [(key: String, value: String)] = []
    var installName: String?
    /// Entitlements signed verbatim instead of the ones built from `entitlements`.
    var entitlementsXML: String?
    var signingIdentifier = "com.example.demo"
    /// What `↓` markers expect: nil for the binary itself, else a symbol, string or key path.
    var expected: [String?] = []

    struct SketchError: Error, CustomStringConvertible {
        var description: String
    }

    static func isSketch(_ content: String) -> Bool {
        content.replacingOccurrences(of: "↓", with: "").hasPrefix("Mach-O ")
    }

    init(_ text: String, name: String = "binary") throws {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let header = lines.first else { throw SketchError(description: "empty sketch") }
        if header.hasPrefix("↓") { expected.append(nil) }
        let words = header.replacingOccurrences(of: "↓", with: "").split(separator: " ").map(String.init)
        guard words.count >= 3, words[0] == "Mach-O" else { throw SketchError(description: "bad header '\(header)'") }
        switch words[1] {
        case "executable": type = 2
        case "dylib": type = 6; installName = "@rpath/" + name
        case "bundle": type = 8
        default: throw SketchError(description: "unknown type \(words[1])")
        }
        for word in words.dropFirst(2) {
            switch word {
            case "arm64", "arm64e", "x86_64", "armv7": architectures.append(word)
            case "no-pie": pie = false
            case "swift": swift = true
            case "encrypted": cryptID = 1
            case "decrypted": cryptID = 0
            case "stripped": localSymbols = 0
            case "unstripped": localSymbols = 7
            default: throw SketchError(description: "unknown header word \(word)")
            }
        }
        for line in lines.dropFirst() where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            guard let colon = line.firstIndex(of: ":") else { throw SketchError(description: "bad line '\(line)'") }
            let key = line[..<colon].trimmingCharacters(in: .whitespaces)
            var rest = String(line[line.index(after: colon)...])
            if rest.hasPrefix(" ") { rest.removeFirst() }
            switch key {
            case "string":
                rest = rest.replacingOccurrences(of: "\\n", with: "\n")
                if rest.hasPrefix("↓") {
                    rest.removeFirst()
                    expected.append(rest)
                }
                strings.append(rest)
            case "imports", "selectors", "objc-classes":
                var names: [String] = []
                for token in rest.split(separator: " ").map(String.init) {
                    let clean = token.replacingOccurrences(of: "↓", with: "")
                    if token.hasPrefix("↓") { expected.append(clean) }
                    names.append(clean)
                }
                if key == "imports" { imports += names } else if key == "selectors" { selectors += names } else { classes += names }
            case "entitlements":
                for token in rest.split(separator: " ").map(String.init) {
                    let clean = token.replacingOccurrences(of: "↓", with: "")
                    guard let equals = clean.firstIndex(of: "=") else { throw SketchError(description: "bad entitlement \(token)") }
                    let entitlement = String(clean[..<equals])
                    if token.hasPrefix("↓") { expected.append(entitlement) }
                    entitlements.append((entitlement, String(clean[clean.index(after: equals)...])))
                }
            case "platform":
                let parts = rest.split(separator: " ").map(String.init)
                func version(_ text: String) -> UInt32 {
                    let numbers = text.split(separator: ".").compactMap { UInt32($0) }
                    return (numbers.first ?? 0) << 16 | (numbers.count > 1 ? numbers[1] : 0) << 8
                }
                let platforms: [String: UInt32] = ["macOS": 1, "iOS": 2, "tvOS": 3, "watchOS": 4, "iOS-simulator": 7]
                guard parts.count >= 2, let code = platforms[parts[0]] else { throw SketchError(description: "bad platform \(rest)") }
                let sdk = parts.count >= 4 && parts[2] == "sdk" ? version(parts[3]) : 0
                platform = (code, version(parts[1]), sdk)
            case "text":
                let multiplier = rest.hasSuffix("K") ? 1024 : 1
                guard let size = Int(rest.trimmingCharacters(in: CharacterSet(charactersIn: "K"))) else {
                    throw SketchError(description: "bad text size \(rest)")
                }
                textSize = size * multiplier
            default:
                throw SketchError(description: "unknown sketch key \(key)")
            }
        }
        if architectures.isEmpty { architectures = ["arm64"] }
    }

    var entitlementsPlist: String {
        var body = ""
        for (key, value) in entitlements {
            body += "\t<key>\(key)</key>\n"
            if value == "true" || value == "false" {
                body += "\t<\(value)/>\n"
            } else if value.hasPrefix("[") && value.hasSuffix("]") {
                body += "\t<array>\n" + value.dropFirst().dropLast().split(separator: ",").map { "\t\t<string>\($0)</string>\n" }.joined() + "\t</array>\n"
            } else {
                body += "\t<string>\(value)</string>\n"
            }
        }
        return """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \(body)</dict>
        </plist>
        """
    }

    /// The Mach-O file: thin for one architecture, fat for several.
    func build() -> Data {
        let images = architectures.map { architecture -> (Int32, Int32, Data) in
            let (cpuType, cpuSubtype): (Int32, Int32)
            switch architecture {
            case "arm64e": (cpuType, cpuSubtype) = (12 | 0x0100_0000, 2)
            case "x86_64": (cpuType, cpuSubtype) = (7 | 0x0100_0000, 3)
            case "armv7": (cpuType, cpuSubtype) = (12, 9)
            default: (cpuType, cpuSubtype) = (12 | 0x0100_0000, 0)
            }
            return (cpuType, cpuSubtype, image(cpuType: cpuType, cpuSubtype: cpuSubtype, is64Bit: architecture != "armv7"))
        }
        if images.count == 1, let only = images.first { return only.2 }
        return MachOWriter.fat(images.map { (cpuType: $0.0, cpuSubtype: $0.1, data: $0.2) })
    }

    private func image(cpuType: Int32, cpuSubtype: Int32, is64Bit: Bool) -> Data {
        func writer(selectorPointers: [UInt64]) -> MachOWriter {
            var writer = MachOWriter()
            writer.is64Bit = is64Bit
            writer.cpuType = cpuType
            writer.cpuSubtype = cpuSubtype
            writer.fileType = type
            writer.flags = 0x85 | (pie && type == 2 ? MachOWriter.pie : 0)
            var text: [MachOWriter.Section] = [MachOWriter.Section("__text", Data(count: textSize), flags: 0x8000_0400)]
            if !strings.isEmpty { text.append(.strings("__cstring", strings)) }
            if !classes.isEmpty { text.append(.strings("__objc_classname", classes)) }
            if !selectors.isEmpty { text.append(.strings("__objc_methname", selectors)) }
            if swift { text.append(MachOWriter.Section("__swift5_typeref", Data(count: 8))) }
            var commands: [MachOWriter.Command] = [.segment("__TEXT", text)]
            if !selectors.isEmpty {
                var pointers = ByteWriter()
                for pointer in selectorPointers { is64Bit ? pointers.u64(pointer) : pointers.u32(UInt32(truncatingIfNeeded: pointer)) }
                commands.append(.segment("__DATA", [MachOWriter.Section("__objc_selrefs", pointers.data)]))
            }
            if let installName { commands.append(.dylib(0xd, installName)) }
            commands.append(.dylib(MachOWriter.loadDylib, "/usr/lib/libSystem.B.dylib"))
            if !imports.isEmpty {
                commands.append(.chainedFixups(MachOWriter.chainedFixups(imports.map { MachOWriter.Import(ordinal: 1, name: $0) })))
            }
            if let platform {
                commands.append(.buildVersion(platform: platform.platform, minimumOS: platform.minimumOS, sdk: platform.sdk))
            }
            if let cryptID { commands.append(.encryption(cryptID: cryptID)) }
            if let localSymbols {
                var body = ByteWriter()
                // ilocalsym, nlocalsym, iextdefsym, nextdefsym, iundefsym, nundefsym, then twelve unused fields.
                for value in [0, localSymbols, localSymbols, 0, localSymbols, 0] + Array(repeating: 0, count: 12) { body.u32(value) }
                commands.append(.raw(0xb, body.data))
            }
            if type == 2 { commands.append(.main(0)) }
            if !entitlements.isEmpty || entitlementsXML != nil {
                commands.append(.codeSignature(CodeSignatureWriter.sample(identifier: signingIdentifier,
                                                                          entitlements: entitlementsXML ?? entitlementsPlist)))
            }
            writer.commands = commands
            return writer
        }
        let placeholder = writer(selectorPointers: Array(repeating: 0, count: selectors.count)).build()
        guard !selectors.isEmpty,
              let image = try? MachOFile(data: placeholder).images.first,
              let names = image.section("__objc_methname") else { return placeholder }
        // Point each reference at its name, now that the layout is known (it does not change).
        var offset: UInt64 = 0
        var pointers: [UInt64] = []
        for selector in selectors {
            pointers.append(names.address + offset)
            offset += UInt64(selector.utf8.count + 1)
        }
        return writer(selectorPointers: pointers).build()
    }
}
