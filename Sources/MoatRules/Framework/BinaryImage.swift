import Foundation
import MoatCore
import MoatFormats

/// The bundle a binary belongs to in a built app, with what rules need to judge the binary in context:
/// the Info.plist of the bundle and of the process that loads the code, the signed entitlements and the
/// provisioning profile.
public struct BinaryBundle: Sendable {
    public enum Kind: String, Sendable {
        case application, appExtension, framework, watchApplication, appClip
    }

    public var kind: Kind
    /// `App.ipa!/Payload/X.app`, `X.app/PlugIns/Share.appex`...
    public var path: String
    /// The bundle's folder name (`Kit.framework`).
    public var name: String
    /// The container the bundle was read from: `ipa`, `app` or `xcarchive`.
    public var container: String
    /// The bundle's own Info.plist.
    public var infoPlist: PropertyListDocument?
    /// The Info.plist of the app or extension whose process runs this code: the bundle's own for apps and
    /// extensions, the embedding app's or extension's for frameworks and libraries. Usage descriptions
    /// and App Transport Security settings are read from it.
    public var hostInfoPlist: PropertyListDocument?
    /// `embedded.mobileprovision` of the bundle (apps, extensions), or of the host for frameworks.
    public var profile: ProvisioningProfile?
    /// The bundle holds an Xcode debug build's `*.debug.dylib` or `__preview.dylib`.
    public var hasDebugDylib: Bool

    public init(kind: Kind, path: String, name: String, container: String, infoPlist: PropertyListDocument?,
                hostInfoPlist: PropertyListDocument?, profile: ProvisioningProfile?, hasDebugDylib: Bool) {
        self.kind = kind
        self.path = path
        self.name = name
        self.container = container
        self.infoPlist = infoPlist
        self.hostInfoPlist = hostInfoPlist
        self.profile = profile
        self.hasDebugDylib = hasDebugDylib
    }

    /// An app, App Clip, watch app or extension: a bundle with its own process and signed entitlements.
    public var isApplicationLike: Bool { kind != .framework }
}

/// One Mach-O binary under review: the image rules judge (arm64 first, in a fat file), with the facts
/// they share computed once (imports, Objective-C names, selector references, C strings), its code
/// signature and entitlements, and its bundle.
public final class BinaryImage: @unchecked Sendable {
    public enum Role: String, Sendable {
        /// `CFBundleExecutable` of an app, App Clip, watch app or extension.
        case bundleExecutable
        /// The executable of a `.framework`.
        case framework
        /// A loose dynamic library in a `Frameworks/` folder.
        case library
        /// A Mach-O file scanned on its own (a `.dylib`, `.so`, or a binary given on the command line).
        case standalone
    }

    /// The display path of the file (`App.ipa!/Payload/X.app/X`).
    public let path: String
    public let role: Role
    public let bundle: BinaryBundle?
    /// The image the rules judge.
    public let image: MachOImage
    /// Every architecture of the file (`arm64`, `x86_64`).
    public let architectures: [String]
    public let imports: MachOImports
    /// Objective-C class names the image defines (`__objc_classname`), Swift ones (`_Tt…`) included.
    public let classNames: [String]
    /// Selectors the code sends (`__objc_selrefs`), or, when the image has no reference section, every
    /// method name of `__objc_methname` (see `selectorsAreReferences`).
    public let selectors: Set<String>
    /// False when `selectors` had to be read from `__objc_methname`, which also holds defined methods.
    public let selectorsAreReferences: Bool
    /// C string literals (`__TEXT,__cstring`; Swift string literals longer than 15 bytes are there too).
    public let cStrings: [String]
    public let signature: CodeSignature?
    /// The entitlements the binary is signed with (nil when it has none).
    public let entitlements: PropertyListDocument?
    /// What kept parts of the binary from being read.
    public let warnings: [String]

    public init(path: String, role: Role, bundle: BinaryBundle?, image: MachOImage, architectures: [String],
                signature: CodeSignature?, entitlements: PropertyListDocument?, warnings: [String] = []) {
        self.path = path
        self.role = role
        self.bundle = bundle
        self.image = image
        self.architectures = architectures
        self.signature = signature
        self.entitlements = entitlements
        let imports = image.imports()
        self.imports = imports
        let classNames = image.objcClassNames()
        self.classNames = classNames.strings
        var notes = warnings + image.warnings + imports.warnings + classNames.warnings
        if let references = image.objcSelectorReferences() {
            selectors = Set(references.strings)
            selectorsAreReferences = true
            notes += references.warnings
        } else {
            let names = image.objcSelectors()
            selectors = Set(names.strings)
            selectorsAreReferences = false
            notes += names.warnings
        }
        let strings = image.cStringLiterals()
        cStrings = strings.strings
        notes += strings.warnings
        var seen = Set<String>()
        self.warnings = notes.filter { seen.insert($0).inserted }
    }

    /// Reads the image to judge from a parsed file (arm64 first), with its signature and entitlements.
    /// Returns nil when the file holds no image. Entitlements that cannot be parsed become warnings.
    public static func make(path: String, role: Role, bundle: BinaryBundle?, file: MachOFile) -> BinaryImage? {
        guard let image = file.preferredImage else { return nil }
        var warnings = file.warnings
        var signature: CodeSignature?
        var entitlements: PropertyListDocument?
        do {
            signature = try image.codeSignature()
            warnings += signature?.warnings ?? []
            if let document = try signature?.entitlements(path: path) {
                entitlements = document.withoutLines()
            }
        } catch {
            warnings.append("code signature: \(error)")
        }
        return BinaryImage(path: path, role: role, bundle: bundle, image: image,
                           architectures: file.images.map(\.architecture.name), signature: signature,
                           entitlements: entitlements, warnings: warnings)
    }

    // MARK: Facts rules share

    public var isExecutable: Bool { image.fileType == .execute }

    /// Imports one of these exact symbol names (`_strcpy`, `_OBJC_CLASS_$_UIWebView`).
    public func imports(_ name: String) -> Bool { imports.contains(name) }

    /// The imported symbols among these names, in the order given.
    public func importedSymbols(among names: [String]) -> [String] { names.filter(imports.contains) }

    /// Objective-C classes the image references from other images (`_OBJC_CLASS_$_Name` imports), by name.
    public var referencedClasses: Set<String> {
        Set(imports.symbols.compactMap { symbol in
            symbol.name.hasPrefix(Self.classSymbolPrefix) ? String(symbol.name.dropFirst(Self.classSymbolPrefix.count)) : nil
        })
    }

    public static let classSymbolPrefix = "_OBJC_CLASS_$_"

    /// Objective-C classes written in Objective-C (not Swift classes, whose runtime names start `_Tt`).
    public var objectiveCClassNames: [String] { classNames.filter { !$0.hasPrefix("_Tt") } }

    /// The image holds Swift code (`__swift5_*` sections).
    public var containsSwift: Bool { image.containsSwift }

    /// Classes the image defines (`__objc_classlist` entries), Swift classes that inherit from NSObject included.
    public var definedClassCount: Int {
        let pointerSize: UInt64 = image.is64Bit ? 8 : 4
        return Int(clamping: image.sections.filter { $0.name == "__objc_classlist" }.reduce(0) { $0 + $1.size / pointerSize })
    }

    /// The image holds Objective-C code: it defines Objective-C classes that are not Swift classes. Some
    /// linkers (lld) merge `__objc_classname` into `__cstring`; then a class list in an image without
    /// Swift code says the same.
    public var containsObjectiveC: Bool {
        !objectiveCClassNames.isEmpty || (classNames.isEmpty && !containsSwift && definedClassCount > 0)
    }

    /// " (AppDelegate, LoginController)": up to three Objective-C class names for messages, or nothing.
    public var objectiveCClassExamples: String {
        let names = objectiveCClassNames.prefix(3)
        return names.isEmpty ? "" : " (" + names.joined(separator: ", ") + ")"
    }

    /// Plain names a permission or API table can match: referenced class names, imported C symbols
    /// without their leading underscore, and selectors the code sends.
    public var referencedAPINames: Set<String> {
        var names = referencedClasses
        for symbol in imports.symbols where symbol.name.hasPrefix("_") && !symbol.name.hasPrefix(Self.classSymbolPrefix) {
            names.insert(String(symbol.name.dropFirst()))
        }
        names.formUnion(selectors)
        return names
    }

    /// "executable", "framework", "dynamic library"... for messages.
    public var kindDescription: String {
        switch role {
        case .bundleExecutable:
            switch bundle?.kind {
            case .appExtension?: return "app extension executable"
            case .appClip?: return "App Clip executable"
            case .watchApplication?: return "watch app executable"
            default: return "app executable"
            }
        case .framework: return "framework binary"
        case .library: return "embedded dynamic library"
        case .standalone:
            switch image.fileType {
            case .execute: return "executable"
            case .dylib: return "dynamic library"
            case .object: return "object file"
            case .bundle: return "loadable bundle"
            default: return "Mach-O \(image.fileType)"
            }
        }
    }

    /// The file name of the binary.
    public var name: String { String(path.split(separator: "/").last ?? Substring(path)) }
}

extension PropertyListDocument {
    /// The same document with every line dropped: for property lists stored inside a binary (signed
    /// entitlements, a profile's CMS content), where lines of the embedded text would point nowhere
    /// useful. Findings on it are reported at line 1 with the key path.
    public func withoutLines(path newPath: String? = nil) -> PropertyListDocument {
        PropertyListDocument(path: newPath ?? path, format: format, kind: kind, root: root.withoutLines())
    }
}

extension PlistNode {
    /// A copy of the tree without lines.
    public func withoutLines() -> PlistNode {
        switch value {
        case .array(let elements):
            return PlistNode(value: .array(elements.map { $0.withoutLines() }), keyPath: keyPath, line: nil)
        case .dictionary(let entries):
            return PlistNode(value: .dictionary(entries.map { PlistEntry(key: $0.key, keyLine: nil, value: $0.value.withoutLines()) }),
                             keyPath: keyPath, line: nil)
        default:
            return PlistNode(value: value, keyPath: keyPath, line: nil)
        }
    }
}

extension FindingSink {
    /// Reports at a binary: its display path, line 1, and the symbol (an imported symbol, a selector, a
    /// string) when there is one. `evidence` defaults to the symbol, else to nothing: a finding about the
    /// whole binary keeps the same fingerprint when its message changes with a rebuild (sizes, counts).
    public mutating func report(_ message: String, in binary: BinaryImage, symbol: String? = nil,
                                severity: Severity? = nil, confidence: Confidence? = nil,
                                related: [RelatedLocation] = [], evidence: String? = nil) {
        report(message, at: Location(path: binary.path, line: 1, column: 1, symbol: symbol), severity: severity,
               confidence: confidence, related: related, evidence: evidence ?? symbol ?? "")
    }
}

extension FindingSink {
    /// Reports at a node of a property list stored inside a binary or a signed container (signed
    /// entitlements, a provisioning profile): the document's path, line 1 and the node's key path.
    public mutating func report(_ message: String, inEmbedded plist: PropertyListDocument, at node: PlistNode,
                                severity: Severity? = nil, confidence: Confidence? = nil,
                                related: [RelatedLocation] = [], evidence: String? = nil) {
        report(message, at: Location(path: plist.path, line: 1, column: 1, keyPath: node.keyPath.isEmpty ? nil : node.keyPath),
               severity: severity, confidence: confidence, related: related, evidence: evidence ?? node.keyPath)
    }
}

extension PropertyListDocument {
    /// Read from a built app (`X.ipa!/…`, `X.app/…`, `X.xcarchive/…/X.app/…`): an Info.plist, privacy
    /// manifest or profile of a bundle, or entitlements from a code signature. Source trees never have
    /// such paths, because discovery reads `.app` folders whole as built apps.
    public var isFromBuiltApp: Bool {
        path.contains("!/") || path.split(separator: "/").dropLast().contains { $0.hasSuffix(".app") || $0.hasSuffix(".appex") }
    }
}
