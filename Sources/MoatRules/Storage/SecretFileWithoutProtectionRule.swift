import MoatCore
import MoatSyntax

/// A secret written to a file without complete Data Protection: `write(to:)`, `write(toFile:atomically:)`,
/// `writeToFile:…`, `createFile(atPath:contents:attributes:)` or `archiveRootObject(_:toFile:)` where what
/// is written is, or is built from (JSONEncoder/PropertyListEncoder output, a dictionary), a value whose name
/// (or dictionary key, or type) is a secret by `SecretNaming`, and neither the call's options or attributes
/// nor anything else in the function asks for `.completeFileProtection` / `FileProtectionType.complete`.
/// Data that went through encryption (seal, encrypt, cipher) is not reported. `.noFileProtection` writes are
/// left to MOAT-STOR-205. When the file is in a backed-up directory and the source file never excludes
/// anything from backup, the message says so, and that excluding is advisory.
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
        guard unit.names.containsAny(FileWrite.names) else { return }
        var excludesFromBackup = false
        file.forEachExpression { expression, _ in
            if let name = expression.name, BackupExclusion.names.contains(name) { excludesFromBackup = true }
        }
        let cache = LocalValuesCache(file: file)
        for (call, context) in file.calls(where: { FileWrite.from($0) != nil }) {
            guard let write = FileWrite.from(call) else { continue }
            let values = cache.values(for: context)
            if let options = write.options {
                let reached = values.reachable(from: options)
                if reached.contains(where: { FileProtection.isComplete($0) || FileProtection.isNone($0) }) { continue }
            }
            if let attributes = write.attributes,
               values.reachable(from: attributes).contains(where: { FileProtection.isComplete($0) || FileProtection.isNone($0) }) { continue }
            if FileProtection.mentionsComplete(in: file.statements(of: context)) { continue }
            guard let (kind, name) = Self.secret(in: write.data, values) else { continue }
            let location = write.destination.flatMap { FileLocations.locate($0, values) }
            var message = "A \(kind.rawValue) (`\(name)`) is written \(location.map { "to \($0.base.rawValue) " } ?? "")with `\(write.api)` without complete file protection: it stays readable while the device is locked. Keep it in the Keychain, or write with `.completeFileProtection`."
            if let location, location.base.isBackedUp, !excludesFromBackup {
                message += " The file is also copied into backups; excluding it (`isExcludedFromBackup`) is only advisory, encryption is the real fix."
            }
            sink.report(message, in: file, at: call.range)
        }
    }

    /// The first secret-named value the data is built from, unless it went through encryption.
    static func secret(in data: Expression, _ values: LocalValues) -> (SecretNaming.Kind, String)? {
        var found: (SecretNaming.Kind, String)?
        for node in values.reachable(from: data) {
            let names: [String]
            switch node.kind {
            case .identifier(let name), .member(_, let name): names = [name]
            case .call(let callee, _, _): names = callee.name.map { [$0] } ?? []
            case .dictionaryLiteral(let pairs): names = pairs.compactMap { $0.key.strippedOfCasts.stringValue }
            default: names = []
            }
            for name in names {
                let lower = name.lowercased()
                if lower.contains("encrypt") || lower.contains("seal") || lower.contains("cipher") { return nil }
                if found == nil, let kind = SecretNaming.kind(ofName: name) { found = (kind, name) }
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
