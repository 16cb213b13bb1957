import MoatCore
import MoatSyntax

public struct InsecureUnarchivingRule: SourceRule {
    /// Swift base names and Objective-C selectors of the class methods that decode any class.
    static let insecureMethods: Set<String> = APIs.keyedUnarchiverLegacy.callNames

    public static let description = RuleDescription(
        id: "MOAT-CODE-001", slug: "insecure-unarchiving", title: "NSKeyedUnarchiver without secure coding",
        severity: .medium, confidence: .low, evidence: .configuration, cwe: [502],
        masvs: ["MASVS-CODE-4"], mastg: ["MASTG-TEST-0079"],
        rationale: "`unarchiveObject(with:)`, `unarchiveObject(withFile:)` and `unarchiveTopLevelObjectWithData` decode whatever classes the archive names. An attacker who controls the data (a file, a message, a pasteboard) can instantiate unexpected classes: object substitution, and in the worst case code execution through gadget classes. The call alone does not say where the data comes from, and most such calls read back what the app archived itself into its own container, which no attacker writes: so the finding is medium with low confidence (severity policy: no dataflow path from an untrusted source). Untrusted data reaching a decode is the dataflow rules' to report.",
        fix: "Use `NSKeyedUnarchiver.unarchivedObject(ofClass:from:)` or `unarchivedObject(ofClasses:from:)` with the exact classes you expect, and adopt NSSecureCoding in your own classes.",
        references: ["https://developer.apple.com/documentation/foundation/nskeyedunarchiver/2983380-unarchivedobject"],
        supersedes: ["MOAT-CODE-201"],
        examples: [
            .triggering("Store.swift", """
            func load(_ data: Data) -> Profile? {
                return ↓NSKeyedUnarchiver.unarchiveObject(with: data) as? Profile
            }
            """),
            .triggering("Restore.swift", """
            let saved = try ↓NSKeyedUnarchiver.unarchiveTopLevelObjectWithData(data)
            let old = ↓NSKeyedUnarchiver.unarchiveObject(withFile: path)
            """),
            .triggering("Store.m", """
            - (Profile *)load:(NSData *)data {
                return ↓[NSKeyedUnarchiver unarchiveObjectWithData:data];
            }
            - (id)loadFile:(NSString *)path {
                return ↓[NSKeyedUnarchiver unarchiveObjectWithFile:path];
            }
            """),
            .triggering("LegacyDecoder.swift", """
            func decode(_ data: Data) -> Any? {
                let unarchiver = ↓NSKeyedUnarchiver(forReadingWith: data)
                return unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey)
            }
            //unarchiving:
            guard let customPoint = ↓NSKeyedUnarchiver.unarchiveObjectWithFile("/path/to/archive") as? CustomPoint else { return nil }
            """, note: "The deprecated `init(forReadingWith:)` leaves secure coding off; the last line is the MASTG example."),
            .triggering("LegacyDecoder.m", """
            - (id)decode:(NSData *)data {
                NSKeyedUnarchiver *unarchiver = ↓[[NSKeyedUnarchiver alloc] initForReadingWithData:data];
                return [unarchiver decodeObjectForKey:NSKeyedArchiveRootObjectKey];
            }
            """),
            .nonTriggering("Store.swift", """
            func load(_ data: Data) throws -> Profile? {
                return try NSKeyedUnarchiver.unarchivedObject(ofClass: Profile.self, from: data)
            }
            """),
            .nonTriggering("Store.m", """
            - (Profile *)load:(NSData *)data {
                NSError *error = nil;
                return [NSKeyedUnarchiver unarchivedObjectOfClass:[Profile class] fromData:data error:&error];
            }
            """),
            .nonTriggering("Decoder.swift", """
            func decode(_ data: Data) throws -> Profile? {
                let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
                return unarchiver.decodeObject(of: Profile.self, forKey: NSKeyedArchiveRootObjectKey)
            }
            """, note: "`init(forReadingFrom:)` turns secure coding on."),
            .nonTriggering("Cache.swift", """
            struct Cache {
                // Our own method with a similar name is not NSKeyedUnarchiver.
                func unarchiveObject(with data: Data) -> Any? { nil }
            }
            let value = Cache().unarchiveObject(with: data)
            """),
            .triggering("Demo.app/Demo", """
            Mach-O executable arm64
            imports: _objc_msgSend _OBJC_CLASS_$_NSKeyedUnarchiver
            selectors: ↓unarchiveObjectWithData: ↓initForReadingWithData: decodeObjectForKey:
            """, note: "A built app sends the selectors of the insecure class method and initializer."),
            .nonTriggering("Demo.app/Demo", """
            Mach-O executable arm64
            imports: _objc_msgSend _OBJC_CLASS_$_NSKeyedUnarchiver
            selectors: unarchivedObjectOfClass:fromData:error: initForReadingFromData:error:
            """),
        ])

    public init() {}

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        // Both patterns name NSKeyedUnarchiver in the source.
        guard unit.names.contains("NSKeyedUnarchiver") else { return }
        for (call, _) in file.classMethodCalls(on: "NSKeyedUnarchiver", named: Self.insecureMethods) {
            let name = call.swiftCallName ?? call.name ?? "unarchiveObject"
            sink.report("NSKeyedUnarchiver.\(name) decodes any class named in the data: whoever can write that data chooses what is instantiated. No untrusted source was followed to this call (data the app wrote itself is the usual case); use unarchivedObject(ofClass:from:) with the classes you expect.",
                        in: file, at: call.range)
        }
        // The deprecated initializers leave requiresSecureCoding off.
        for (call, _) in file.calls(where: Self.isLegacyInitializer) {
            sink.report("NSKeyedUnarchiver created with the deprecated `\(call.swiftCallName ?? call.name ?? "init")`, which leaves secure coding off: every decode accepts any class, chosen by whoever can write the data. No untrusted source was followed to this call; use `init(forReadingFrom:)` and `decodeObject(of:forKey:)`.",
                        in: file, at: call.range)
        }
    }

    /// `NSKeyedUnarchiver(forReadingWith:)` and `[[NSKeyedUnarchiver alloc] initForReadingWithData:]`.
    static func isLegacyInitializer(_ call: Expression) -> Bool {
        guard case .call(let callee, let arguments, let isMessageSend) = call.kind else { return false }
        if isMessageSend {
            return callee.name.map(APIs.keyedUnarchiverLegacyInit.selectors.contains) == true && callee.receiver?.nameChain.contains("NSKeyedUnarchiver") == true
        }
        guard arguments.count == 1, arguments[0].label == "forReadingWith" else { return false }
        if case .identifier("NSKeyedUnarchiver") = callee.unwrapped.kind { return true }
        return callee.name == "init" && callee.receiver?.nameChain == ["NSKeyedUnarchiver"]
    }
}
