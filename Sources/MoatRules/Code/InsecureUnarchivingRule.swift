import MoatCore
import MoatSyntax

public struct InsecureUnarchivingRule: SourceRule {
    static let insecureMethods: Set<String> = [
        // Swift
        "unarchiveObject", "unarchiveTopLevelObjectWithData", "unarchiveObjectWithData", "unarchiveObjectWithFile",
        // Objective-C selectors
        "unarchiveObjectWithData:", "unarchiveObjectWithFile:", "unarchiveTopLevelObjectWithData:error:",
    ]

    public static let description = RuleDescription(
        id: "MOAT-CODE-001", slug: "insecure-unarchiving", title: "NSKeyedUnarchiver without secure coding",
        kind: .source, severity: .high, confidence: .high, cwe: [502],
        masvs: ["MASVS-CODE-4"], mastg: ["MASTG-TEST-0079"],
        rationale: "`unarchiveObject(with:)`, `unarchiveObject(withFile:)` and `unarchiveTopLevelObjectWithData` decode whatever classes the archive names. An attacker who controls the data (a file, a message, a pasteboard) can instantiate unexpected classes: object substitution, and in the worst case code execution through gadget classes.",
        fix: "Use `NSKeyedUnarchiver.unarchivedObject(ofClass:from:)` or `unarchivedObject(ofClasses:from:)` with the exact classes you expect, and adopt NSSecureCoding in your own classes.",
        references: ["https://developer.apple.com/documentation/foundation/nskeyedunarchiver/2983380-unarchivedobject"],
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
            .nonTriggering("Cache.swift", """
            struct Cache {
                // Our own method with a similar name is not NSKeyedUnarchiver.
                func unarchiveObject(with data: Data) -> Any? { nil }
            }
            let value = Cache().unarchiveObject(with: data)
            """),
        ])

    public init() {}

    public func check(_ file: CodeFile, _ sink: inout FindingSink) {
        for (call, _) in file.classMethodCalls(on: "NSKeyedUnarchiver", named: Self.insecureMethods) {
            let name = call.swiftCallName ?? call.name ?? "unarchiveObject"
            sink.report("NSKeyedUnarchiver.\(name) decodes any class named in the data; use unarchivedObject(ofClass:from:) with the classes you expect.",
                        in: file, at: call.range)
        }
    }
}
