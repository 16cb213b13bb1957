import MoatCore
import MoatSyntax

/// Data Protection switched off for a file: `.noFileProtection` / `NSDataWritingFileProtectionNone` write
/// options, `FileProtectionType.none` / `NSFileProtectionNone` in attributes, resource values or Core Data
/// store options, and `fileProtection = .none`. Comparisons (`== FileProtectionType.none`) are reads, not
/// settings, and stay quiet. Reported at the value; files in tmp or Caches are reported at low severity.
public struct FileProtectionNoneRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-STOR-205", slug: "file-protection-none",
        title: "File written without Data Protection",
        severity: .medium, confidence: .high, evidence: .configuration, cwe: [311, 922],
        masvs: ["MASVS-STORAGE-1"], mastg: ["MASTG-TEST-0052"],
        rationale: "With the `none` protection class a file is encrypted only with the device key: it is readable whenever the device is on, locked or not, including right after a reboot before the first unlock. In Documents or Application Support such a file also travels in backups.",
        fix: "Remove the `none` class; use `.completeFileProtection` / `FileProtectionType.complete` for anything sensitive, or at least leave the default (Complete Until First User Authentication). If a background task really needs the file while locked, use `completeUnlessOpen` and keep secrets out of it.",
        references: ["https://developer.apple.com/documentation/foundation/fileprotectiontype",
                     "https://mas.owasp.org/MASTG/tests/ios/MASVS-STORAGE/MASTG-TEST-0052/"],
        examples: [
            .triggering("Exporter.swift", """
            func saveExport(_ data: Data) throws {
                let url = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0].appendingPathComponent("export.db")
                try data.write(to: url, options: ↓.noFileProtection)
                try FileManager.default.setAttributes([.protectionKey: ↓FileProtectionType.none], ofItemAtPath: url.path)
                FileManager.default.createFile(atPath: url.path, contents: data, attributes: [FileAttributeKey.protectionKey: ↓FileProtectionType.none])
            }
            """),
            .triggering("Exporter.m", """
            - (void)saveExport:(NSData *)data toPath:(NSString *)path {
                NSError *error = nil;
                [data writeToFile:path options:↓NSDataWritingFileProtectionNone error:&error];
                [[NSFileManager defaultManager] setAttributes:@{NSFileProtectionKey: ↓NSFileProtectionNone} ofItemAtPath:path error:&error];
            }
            """),
            .nonTriggering("Exporter.swift", """
            func saveExport(_ data: Data, to url: URL) throws {
                try data.write(to: url, options: [.atomic, .completeFileProtection])
                let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
                if attributes[.protectionKey] as? FileProtectionType == FileProtectionType.none { log("unprotected") }
                let mode: Optional<Int> = .none
            }
            """),
            .nonTriggering("Exporter.m", """
            - (void)saveExport:(NSData *)data toPath:(NSString *)path {
                NSError *error = nil;
                [data writeToFile:path options:NSDataWritingFileProtectionComplete error:&error];
            }
            """),
        ])

    public init() {}

    /// The names of `FileProtection.isNone` (a protection key is a dictionary key, in code or a string).
    static let requiredNames: Set<String> = ["NSDataWritingFileProtectionNone", "NSFileProtectionNone", "NSURLFileProtectionNone",
                                             "noFileProtection", "FileProtectionType", "URLFileProtection"]
    /// `FileManager`'s directory creations (the Swift name, the Objective-C selector on a path), whose
    /// attributes may set a protection.
    static let directoryCreations = Set(APIs.fileManagerCreateDirectory.swiftBaseNames
                                        + APIs.fileManagerCreateDirectory.selectors.filter { $0.hasPrefix("createDirectoryAtPath") })

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        guard unit.names.containsAny(Self.requiredNames) || unit.names.containsAnywhere(FileProtection.keyNames)
            || unit.names.mayWriteProperty(["fileProtection"]) else { return }
        var compared = Set<ObjectIdentifier>()
        var candidates: [Expression] = []
        var seen = Set<ObjectIdentifier>()
        func add(_ expression: Expression) {
            if seen.insert(ObjectIdentifier(expression)).inserted { candidates.append(expression) }
        }
        file.walk { node, _ in
            switch node {
            case .expression(let expression):
                switch expression.kind {
                case .binary(let op, let lhs, let rhs) where op == "==" || op == "!=" || op == "===":
                    for inner in lhs.descendants() + rhs.descendants() { compared.insert(ObjectIdentifier(inner)) }
                case .dictionaryLiteral(let pairs):
                    for pair in pairs where FileProtection.keyNames.contains(DictionaryEntries.keyName(pair.key) ?? "") {
                        let value = pair.value.strippedOfCasts
                        if FileProtection.isNone(value) || Self.isBareNone(value) { add(value) }
                    }
                case .identifier, .member:
                    // Names that only ever mean "no protection".
                    if FileProtection.isNone(expression) { add(expression) }
                default:
                    break
                }
            case .statement(let statement):
                if case .switchStatement(_, let cases) = statement.kind {
                    for pattern in cases.flatMap(\.patterns) {
                        for inner in pattern.descendants() { compared.insert(ObjectIdentifier(inner)) }
                    }
                }
            case .declaration:
                break
            }
        }
        for write in file.propertyWrites(named: ["fileProtection"]) {
            let value = write.value.strippedOfCasts
            if FileProtection.isNone(value) || Self.isBareNone(value) { add(value) }
        }
        let destinations = Self.destinations(in: file)
        for candidate in candidates.sorted(by: { $0.range.start.offset < $1.range.start.offset })
        where !compared.contains(ObjectIdentifier(candidate)) {
            let location = destinations[ObjectIdentifier(candidate)]
            let place = location.map { " for a file in \($0.base.rawValue)" } ?? ""
            let transient = location.map { $0.base == .temporary || $0.base == .caches } ?? false
            sink.report("Data Protection is switched off (`\(file.text(candidate.range))`)\(place): the file stays readable while the device is locked, even before the first unlock. Use `.completeFileProtection` or keep the default.",
                        in: file, at: candidate.range, severity: transient ? .low : nil)
        }
    }

    static func isBareNone(_ expression: Expression) -> Bool {
        if case .member(nil, "none") = expression.kind { return true }
        return false
    }

    /// For protection values written inside a file call's arguments, where that file is.
    static func destinations(in file: CodeFile) -> [ObjectIdentifier: FileLocation] {
        let cache = LocalValuesCache(file: file)
        var result: [ObjectIdentifier: FileLocation] = [:]
        for (call, context) in file.calls(where: { _ in true }) {
            guard case .call(let callee, let arguments, _) = call.kind, let name = callee.name else { continue }
            let path: Expression?
            if let write = FileWrite.from(call) {
                path = write.destination
            } else if ["setAttributes", APIs.fileAttributesWrite.selectors[0]].contains(name) || Self.directoryCreations.contains(name) {
                path = arguments.first { ["ofItemAtPath", "atPath", "at", "createDirectoryAtPath"].contains($0.label ?? "") }?.value
            } else {
                path = nil
            }
            guard let path, let location = FileLocations.locate(path, cache.values(for: context)) else { continue }
            for argument in arguments {
                for node in argument.value.descendants() { result[ObjectIdentifier(node.strippedOfCasts)] = location }
            }
        }
        return result
    }
}
