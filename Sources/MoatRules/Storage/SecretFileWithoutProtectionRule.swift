import MoatCore
import MoatSyntax

/// A secret written to a file without complete Data Protection: the `sensitive` flow (a value named as a
/// secret, a dictionary value under a secret key, a `Codable` value whose type has a secret property, a
/// Keychain read, a secure field's text — through variables, parameters, properties, helpers and other
/// files) reaching `write(to:)`, `write(toFile:atomically:)`, `writeToFile:…`, `createFile(atPath:contents:attributes:)`,
/// `archiveRootObject(_:toFile:)` or `FileHandle.write(_:)`. The protection is judged at the write: options
/// or attributes asking for `.completeFileProtection` / `FileProtectionType.complete` (or a mention of it in
/// the function) make it protected; a protected file in a backed-up directory (Documents, Library,
/// Application Support) that the source file never excludes from backup is still reported, at low
/// severity; protected and excluded (or not backed up, or of unknown place) is quiet. Hashed or encrypted
/// data is not reported; `.noFileProtection` writes are left to MOAT-STOR-205. A pattern (a name decides
/// what is secret): medium, low confidence.
public struct SecretFileWithoutProtectionRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-STOR-204", slug: "secret-file-without-protection",
        title: "Secret written to a file without complete file protection",
        severity: .medium, confidence: .low, cwe: [312, 922],
        masvs: ["MASVS-STORAGE-1"], mastg: ["MASTG-TEST-0052", "MASTG-TEST-0058"],
        rationale: "Files get the default Data Protection class (Complete Until First User Authentication): after the first unlock they stay decryptable while the device is locked, and files in Documents and Application Support are copied into backups. Tokens, passwords and keys written as JSON, plists or archives are plain text to anyone who reaches the container or a backup.",
        fix: "Keep secrets in the Keychain. If a file is unavoidable, write it with `.completeFileProtection` (Objective-C `NSDataWritingFileProtectionComplete`), encrypt its content with a key held in the Keychain, and exclude it from backup (`isExcludedFromBackup`, which is advisory only).",
        references: ["https://developer.apple.com/documentation/uikit/protecting_the_user_s_privacy/encrypting_your_app_s_files",
                     "https://mas.owasp.org/MASTG/tests/ios/MASVS-STORAGE/MASTG-TEST-0052/"],
        examples: [
            .triggering("CredentialStore.swift", """
            func save(_ credentials: Credentials) throws {
                let data = try JSONEncoder().encode(credentials)
                let url = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0].appendingPathComponent("credentials.json")
                try ↓data.write(to: url)
            }
            func cache(token: String, userName: String) {
                let info: NSDictionary = ["user": userName, "token": token]
                ↓info.write(toFile: cachePath, atomically: true)
            }
            """),
            .triggering("CredentialStore.m", """
            - (void)saveToken:(NSString *)token {
                NSString *docs = NSSearchPathForDirectoriesInDomains(NSDocumentDirectory, NSUserDomainMask, YES).firstObject;
                NSString *path = [docs stringByAppendingPathComponent:@"session.plist"];
                NSDictionary *session = @{@"authToken": token};
                ↓[session writeToFile:path atomically:YES];
            }
            """),
            .nonTriggering("CredentialStore.swift", """
            struct CustomPointStruct: Codable {
                var x: Double
                var name: String
            }
            func save(_ credentials: Credentials) throws {
                let data = try JSONEncoder().encode(credentials)
                try data.write(to: credentialsURL, options: [.atomic, .completeFileProtection])
            }
            func savePoints(_ points: [CustomPointStruct]) throws {
                let data = try JSONEncoder().encode(points)
                try data.write(to: pointsURL)
            }
            func saveSealed(_ token: Data, key: SymmetricKey) throws {
                let sealed = try AES.GCM.seal(token, using: key)
                try sealed.combined?.write(to: tokenURL)
            }
            """, note: "Complete protection, data that is not secret (the MASTG Codable example), and encrypted content."),
            .triggering("TokenCache.swift", """
            func cache(token: String) throws {
                let docs = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
                try ↓Data(token.utf8).write(to: docs.appendingPathComponent("token"), options: .completeFileProtection)
            }
            """, note: "Protected on the device, but Documents is copied into backups (low)."),
            .nonTriggering("TokenCache.swift", """
            func cache(token: String) throws {
                let docs = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
                var url = docs.appendingPathComponent("token")
                try Data(token.utf8).write(to: url, options: .completeFileProtection)
                var values = URLResourceValues()
                values.isExcludedFromBackup = true
                try url.setResourceValues(values)
            }
            """, note: "Complete protection and excluded from backup."),
            .nonTriggering("CredentialStore.m", """
            - (void)saveToken:(NSString *)token toPath:(NSString *)path {
                NSData *data = [token dataUsingEncoding:NSUTF8StringEncoding];
                NSError *error = nil;
                [data writeToFile:path options:NSDataWritingFileProtectionComplete error:&error];
            }
            """),
        ])

    public init() {}

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        guard unit.names.containsAny(FileWrite.names.union(["writeData", "FileHandle", "fileHandle"])) else { return }
        let flows = SensitiveFlows.flows(unit, .fileWrite)
        guard !flows.isEmpty else { return }
        var excludesFromBackup = false
        file.forEachExpression { expression, _ in
            if let name = expression.name, BackupExclusion.names.contains(name) { excludesFromBackup = true }
        }
        var writes: [Int: (FileWrite, WalkContext)] = [:]
        var contexts: [Int: WalkContext] = [:]
        file.forEachExpression { expression, context in
            guard case .call = expression.kind else { return }
            contexts[expression.range.start.offset] = context
            if let write = FileWrite.from(expression) { writes[expression.range.start.offset] = (write, context) }
        }
        let cache = LocalValuesCache(file: file)
        for (flow, taint) in flows {
            guard let context = contexts[flow.range.start.offset] else { continue }
            let values = cache.values(for: context)
            let write = writes[flow.range.start.offset]?.0
            var complete = false
            for argument in [write?.options, write?.attributes].compactMap({ $0 }) {
                let reached = values.reachable(from: argument)
                if reached.contains(where: { FileProtection.isNone($0) }) { complete = false; break }
                if reached.contains(where: { FileProtection.isComplete($0) }) { complete = true }
            }
            if let write, [write.options, write.attributes].compactMap({ $0 }).contains(where: { values.reachable(from: $0).contains(where: FileProtection.isNone) }) {
                continue
            }
            if Self.mentionsComplete(in: file.statements(of: context), besides: flow.range) { complete = true }
            let destination = write?.destination ?? flow.arguments[.path]
            let location = destination.flatMap { FileLocations.locate($0, values) }
            let backedUp = (location?.base.isBackedUp ?? false) && !excludesFromBackup
            let what = DataflowReporting.capitalized(SensitiveFlows.describe(taint))
            let api = write?.api ?? flow.calledName
            if complete {
                guard backedUp, let location else { continue }
                SensitiveFlows.report("\(what) is written to \(location.base.rawValue) with `\(api)` under complete file protection, but the file is copied into backups, where that protection does not follow it. Keep the secret in the Keychain, or exclude the file from backup (`isExcludedFromBackup`).",
                                      flow: flow, taint: taint, in: file, severity: .low, confidence: Self.description.confidence, &sink)
                continue
            }
            var message = "\(what) is written \(location.map { "to \($0.base.rawValue) " } ?? "")with `\(api)` without complete file protection: it stays readable while the device is locked. Keep it in the Keychain, or write with `.completeFileProtection`."
            if backedUp {
                message += " The file is also copied into backups; excluding it (`isExcludedFromBackup`) is only advisory, encryption is the real fix."
            }
            SensitiveFlows.report(message, flow: flow, taint: taint, in: file, confidence: Self.description.confidence, &sink)
        }
    }
}

extension SecretFileWithoutProtectionRule {
    /// Whether the function asks for complete protection other than in the options of another write
    /// (`setAttributes`, `setResourceValue`, an attributes dictionary, or this write's own options).
    static func mentionsComplete(in statements: [Statement], besides write: SourceRange) -> Bool {
        let block = Block(statements: statements, range: SourceRange(start: SourcePosition(line: 1, column: 1, offset: 0),
                                                                     end: SourcePosition(line: 1, column: 1, offset: 0)))
        var others: [SourceRange] = []
        block.walk { node, _ in
            guard case .expression(let expression) = node, expression.range != write, let other = FileWrite.from(expression) else { return }
            others += [other.options, other.attributes].compactMap { $0?.range }
        }
        var found = false
        block.walk { node, _ in
            guard !found, case .expression(let expression) = node,
                  !others.contains(where: { $0.start.offset <= expression.range.start.offset && expression.range.end.offset <= $0.end.offset })
            else { return }
            switch expression.kind {
            case .member(_, let name) where name == "complete" || name == "completeUnlessOpen":
                // `.complete` alone is too common; require a protection type nearby.
                found = expression.nameChain.contains { $0 == "FileProtectionType" || $0 == "URLFileProtection" }
            case .identifier, .member:
                found = FileProtection.isComplete(expression)
            case .dictionaryLiteral(let pairs):
                found = pairs.contains { FileProtection.keyNames.contains(DictionaryEntries.keyName($0.key) ?? "") && FileProtection.isComplete($0.value) }
            default:
                break
            }
        }
        return found
    }
}

/// Names that exclude a file from backup.
enum BackupExclusion {
    static let names: Set<String> = ["isExcludedFromBackup", "isExcludedFromBackupKey", "NSURLIsExcludedFromBackupKey",
                                     "kCFURLIsExcludedFromBackupKey"]
}
