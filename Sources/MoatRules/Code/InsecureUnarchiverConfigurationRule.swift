import MoatCore
import MoatSyntax

public struct InsecureUnarchiverConfigurationRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-CODE-202", slug: "unarchiver-secure-coding-weakened",
        title: "Unarchiver accepts any class",
        severity: .medium, confidence: .low, evidence: .configuration, cwe: [502],
        masvs: ["MASVS-CODE-4"], mastg: ["MASTG-TEST-0079"],
        rationale: "Secure coding only protects a decode when it is on and the allowed classes are specific. `requiresSecureCoding = false` turns the check off; an allowed-class list containing `NSObject` accepts every secure-coding class in the process, so crafted data can still instantiate unexpected classes (object substitution, gadget chains). Whether anyone but the app can write the data is not known from the call (the app's own files are the usual case): medium with low confidence, as the severity policy asks without a dataflow path from an untrusted source.",
        fix: "Keep `requiresSecureCoding` on (the default of `init(forReadingFrom:)`) and list only the concrete classes you expect, e.g. `unarchivedObject(ofClasses: [NSArray.self, Profile.self], from: data)`.",
        references: ["https://developer.apple.com/documentation/foundation/nskeyedunarchiver/3162307-unarchivedobject",
                     "https://mas.owasp.org/MASTG/tests/ios/MASVS-CODE/MASTG-TEST-0079/"],
        supersedes: ["MOAT-CODE-001", "MOAT-CODE-201"],
        examples: [
            .triggering("Restore.swift", """
            func restore(_ data: Data) throws -> Any? {
                let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
                ↓unarchiver.requiresSecureCoding = false
                return unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey)
            }
            func restoreAny(_ data: Data) throws -> Any? {
                try ↓NSKeyedUnarchiver.unarchivedObject(ofClasses: [NSObject.self, NSArray.self], from: data)
            }
            func field(_ coder: NSCoder) -> Any? {
                let allowed: [AnyClass] = [NSString.self, NSObject.self]
                return ↓coder.decodeObject(of: allowed, forKey: "payload")
            }
            """),
            .triggering("Restore.m", """
            - (id)restore:(NSData *)data {
                NSError *error = nil;
                NSKeyedUnarchiver *unarchiver = [[NSKeyedUnarchiver alloc] initForReadingFromData:data error:&error];
                ↓unarchiver.requiresSecureCoding = NO;
                NSSet *classes = [NSSet setWithObjects:[NSObject class], [NSArray class], nil];
                return ↓[NSKeyedUnarchiver unarchivedObjectOfClasses:classes fromData:data error:&error];
            }
            """),
            .nonTriggering("Restore.swift", """
            func restore(_ data: Data) throws -> [Profile]? {
                try NSKeyedUnarchiver.unarchivedObject(ofClasses: [NSArray.self, Profile.self], from: data) as? [Profile]
            }
            func archive(_ profile: Profile) throws -> Data {
                let archiver = NSKeyedArchiver(requiringSecureCoding: true)
                archiver.requiresSecureCoding = true
                archiver.encode(profile, forKey: NSKeyedArchiveRootObjectKey)
                return archiver.encodedData
            }
            """),
            .nonTriggering("Restore.m", """
            - (id)restore:(NSData *)data {
                NSError *error = nil;
                NSSet *classes = [NSSet setWithObjects:[NSArray class], [Profile class], nil];
                return [NSKeyedUnarchiver unarchivedObjectOfClasses:classes fromData:data error:&error];
            }
            """),
        ])

    public init() {}

    static let classLabels: Set<String> = ["ofClass", "ofClasses", "of", "keysOfClass", "objectsOfClass", "keysOfClasses",
                                           "objectsOfClasses", "ofObjectClass", "ofObjectClasses", "unarchivedObjectOfClass",
                                           "unarchivedObjectOfClasses", "decodeObjectOfClass", "decodeObjectOfClasses",
                                           "decodeTopLevelObjectOfClass", "decodeTopLevelObjectOfClasses",
                                           "unarchivedArrayOfObjectsOfClass", "unarchivedArrayOfObjectsOfClasses",
                                           "unarchivedDictionaryWithKeysOfClass", "unarchivedDictionaryWithKeysOfClasses",
                                           "objectsOfClasses", "decodeArrayOfObjectsOfClass", "decodeArrayOfObjectsOfClasses"]

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        guard unit.names.mayWriteProperty(["requiresSecureCoding"]) || unit.names.contains("NSObject") else { return }
        for write in file.propertyWrites(named: ["requiresSecureCoding"]) where write.value.boolValue == false {
            sink.report("`requiresSecureCoding` is turned off: the decode instantiates whatever classes the data names. Keep it on and decode with `decodeObject(of:forKey:)`.",
                        in: file, at: write.range)
        }
        let cache = LocalValuesCache(file: file)
        for (call, context) in file.calls(where: Self.isClassListedDecode) {
            let values = cache.values(for: context)
            let lists = call.arguments.filter { Self.classLabels.contains($0.label ?? "") }
            let allowsNSObject = lists.contains { argument in
                values.reachable(from: argument.value).contains(where: Self.isNSObjectClass)
            }
            guard allowsNSObject else { continue }
            sink.report("`\(call.swiftCallName ?? call.name ?? "decode")` allows `NSObject`: every secure-coding class is accepted, so the data can still choose what to instantiate. List the concrete classes you expect.",
                        in: file, at: call.range)
        }
    }

    static func isClassListedDecode(_ call: Expression) -> Bool {
        guard case .call(let callee, let arguments, _) = call.kind, let name = callee.name else { return false }
        guard name.hasPrefix("unarchived") || name.hasPrefix("decode") else { return false }
        return arguments.contains { classLabels.contains($0.label ?? "") }
    }

    /// `NSObject.self`, `[NSObject class]`, `NSObject.class`.
    static func isNSObjectClass(_ expression: Expression) -> Bool {
        switch expression.kind {
        case .typeValue(let name): return name == "NSObject" || name == "NSObject.self"
        case .member(let base?, let name) where name == "self" || name == "class":
            if case .identifier("NSObject") = base.unwrapped.kind { return true }
            return false
        case .call(let callee, let arguments, true) where arguments.isEmpty:
            if case .member(let base?, "class") = callee.kind, case .identifier("NSObject") = base.unwrapped.kind { return true }
            return false
        default: return false
        }
    }
}
