import Foundation
import MoatCore
import MoatFormats

public struct BinaryInventoryRule: BinaryRule {
    public static let description = RuleDescription(
        id: "MOAT-RES-401", slug: "binary-inventory", title: "Binary facts: architecture, platform, encryption, signature",
        severity: .info, confidence: .high, cwe: [693],
        masvs: ["MASVS-RESILIENCE-3"], mastg: ["MASTG-TEST-0081", "MASTG-TEST-0087"],
        rationale: "What the binary is, as a reviewer needs it before reading other findings: its architectures, the platform and minimum OS it was built for, whether it holds Swift and Objective-C code, how many symbols it imports, its code signature, and its FairPlay encryption state. An App Store binary is encrypted on the device (`cryptid` 1): its code and strings cannot be read, so string and selector checks see nothing until it is decrypted. `cryptid` 0 is normal for development, ad-hoc and enterprise builds, for builds before App Store processing, and for decrypted dumps of App Store apps; it is reported, not judged.",
        fix: "Nothing to fix: this is an inventory entry. Scan a decrypted copy when the binary is encrypted.",
        references: ["https://developer.apple.com/documentation/technotes/tn3125-inside-code-signing-provisioning-profiles"],
        isInventory: true,
        examples: [
            .triggering("Demo.app/Demo", """
            ↓Mach-O executable arm64 swift decrypted
            platform: iOS 15.0 sdk 17.0
            imports: _swift_release _objc_msgSend
            """),
            .triggering("libcrypto.dylib", """
            ↓Mach-O dylib arm64 x86_64
            imports: _malloc
            """),
            .nonTriggering("build/linux/libparser.so", "\u{7F}ELF: a Linux shared library",
                           note: "Only Mach-O files are read: a .so or .dylib in another format is skipped."),
        ])

    public init() {}

    public func check(_ binary: BinaryImage, _ sink: inout FindingSink) {
        let image = binary.image
        var parts: [String] = []
        let architectures = binary.architectures.count > 1
            ? "\(binary.architectures.joined(separator: ", ")) (judged: \(image.architecture))" : "\(image.architecture)"
        var head = "\(binary.name): \(architectures) \(binary.kindDescription)"
        if let version = image.buildVersion {
            head += " for \(version.platform) \(version.minimumOS)+" + (version.sdk.rawValue == 0 ? "" : " (SDK \(version.sdk))")
        }
        parts.append(head)
        if binary.isExecutable { parts.append(image.isPIE ? "PIE" : "not PIE") }
        switch (binary.containsSwift, binary.containsObjectiveC) {
        case (true, true): parts.append("Swift and Objective-C code")
        case (true, false): parts.append("Swift code")
        case (false, true): parts.append("Objective-C code")
        case (false, false): break
        }
        let libraries = Set(binary.imports.symbols.compactMap(\.library)).count
        let count = binary.imports.symbols.count
        let flat = libraries == 0 && count > 0 ? " (flat namespace)" : " from \(libraries) librar\(libraries == 1 ? "y" : "ies")"
        parts.append("\(count) imported symbol\(count == 1 ? "" : "s")" + flat)
        parts.append(Self.signatureDescription(binary))
        parts.append(Self.encryptionDescription(image))
        sink.report(parts.joined(separator: "; ") + ".", in: binary)
        sink.attach(InventoryItem(.binary, name: binary.name))
    }

    static func signatureDescription(_ binary: BinaryImage) -> String {
        guard let signature = binary.signature else {
            return binary.image.hasCodeSignature ? "code signature unreadable" : "not signed"
        }
        guard let directory = signature.codeDirectory else { return "code signature without a code directory" }
        var text = directory.flags.contains(.adhoc) ? "ad-hoc signed" : "signed"
        if let team = directory.teamIdentifier, !team.isEmpty { text += " by team \(team)" }
        text += " as \(directory.identifier) (\(directory.hashName))"
        if binary.entitlements != nil { text += " with entitlements" }
        return text
    }

    static func encryptionDescription(_ image: MachOImage) -> String {
        guard let encryption = image.encryption else { return "no encryption information (LC_ENCRYPTION_INFO absent)" }
        if encryption.cryptID != 0 {
            return "encrypted (cryptid \(encryption.cryptID)): code and strings are unreadable until decrypted, so string and selector checks see nothing"
        }
        return "not encrypted (cryptid 0: a development, ad-hoc or enterprise build, a build before App Store processing, or a decrypted App Store binary)"
    }
}
