import MoatCore
import MoatSyntax

public struct InsecureCodingClassRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-CODE-201", slug: "nscoding-without-secure-coding",
        title: "Archived class does not use secure coding",
        severity: .low, confidence: .low, cwe: [502],
        masvs: ["MASVS-CODE-4"], mastg: ["MASTG-TEST-0079"],
        rationale: "A class that adopts NSCoding but not NSSecureCoding can only be decoded with secure coding off, where the archive chooses which classes are instantiated (object substitution). A class that does claim secure coding but decodes its fields with `decodeObject(forKey:)` does not say which class each field must be, so the check degrades to whatever the top-level call allowed. The class alone is hardening, not a weakness: the weakness is a decode with secure coding off, which MOAT-CODE-001 and MOAT-CODE-202 report where it happens; hence low.",
        fix: "Adopt NSSecureCoding (`static var supportsSecureCoding: Bool { true }`) and decode every object field with `decodeObject(of:forKey:)` / `decodeObjectOfClass:forKey:` naming its exact class; decode with `unarchivedObject(ofClass:from:)`. For Swift-only types, prefer Codable.",
        references: ["https://developer.apple.com/documentation/foundation/nssecurecoding",
                     "https://mas.owasp.org/MASTG/tests/ios/MASVS-CODE/MASTG-TEST-0079/"],
        examples: [
            .triggering("CustomPoint.swift", """
            class ↓CustomPoint: NSObject, NSCoding {

                //required by NSCoding:
                func encode(with aCoder: NSCoder) {
                    aCoder.encode(x, forKey: "x")
                    aCoder.encode(name, forKey: "name")
                }

                var x: Double = 0.0
                var name: String = ""

                init(x: Double, name: String) {
                    self.x = x
                    self.name = name
                }

                // required by NSCoding: initalize members using a decoder.
                required convenience init?(coder aDecoder: NSCoder) {
                    guard let name = aDecoder.decodeObject(forKey: "name") as? String
                    else {return nil}
                    self.init(x:aDecoder.decodeDouble(forKey:"x"),
                              name:name)
                }
            }
            """, note: "The MASTG NSCoding example."),
            .triggering("Session.swift", """
            final class Session: NSObject, NSSecureCoding {
                static var supportsSecureCoding: Bool { true }
                let token: String
                func encode(with coder: NSCoder) { coder.encode(token, forKey: "token") }
                required init?(coder: NSCoder) {
                    guard let token = ↓coder.decodeObject(forKey: "token") as? String else { return nil }
                    self.token = token
                }
            }
            """),
            .triggering("Session.m", """
            @interface ↓Point : NSObject <NSCoding>
            @end
            @interface Session : NSObject <NSSecureCoding>
            @end
            @implementation Session
            + (BOOL)supportsSecureCoding { return YES; }
            - (instancetype)initWithCoder:(NSCoder *)coder {
                if ((self = [super init])) {
                    _token = ↓[coder decodeObjectForKey:@"token"];
                }
                return self;
            }
            @end
            """),
            .nonTriggering("MyClassHolder.swift", """
            final class MyClassHolder: NSObject, NSSecureCoding {
                static var supportsSecureCoding: Bool {
                    return true
                }
                let obj: MyClass?
                func encode(with coder: NSCoder) { coder.encode(obj, forKey: "myKey") }
                required init?(coder decoder: NSCoder) {
                    let obj = decoder.decodeObject(of:MyClass.self, forKey: "myKey")
                    self.obj = obj
                }
            }
            class Legacy: NSObject, NSCoding {
                func encode(with coder: NSCoder) {}
                required init?(coder: NSCoder) {}
            }
            extension Legacy: NSSecureCoding {
                static var supportsSecureCoding: Bool { true }
            }
            """, note: "The MASTG NSSecureCoding idiom; a class whose secure-coding conformance is in an extension."),
            .nonTriggering("Session.m", """
            @interface Session : NSObject <NSSecureCoding>
            @end
            @implementation Session
            + (BOOL)supportsSecureCoding { return YES; }
            - (instancetype)initWithCoder:(NSCoder *)coder {
                if ((self = [super init])) {
                    _token = [coder decodeObjectOfClass:[NSString class] forKey:@"token"];
                }
                return self;
            }
            @end
            """),
        ])

    public init() {}

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        guard unit.names.containsAny(["NSCoding", "NSSecureCoding", "supportsSecureCoding"]) else { return }
        let types = file.allTypes
        var secureNames = Set<String>()
        for type in types where type.adopts("NSSecureCoding") || type.variables.contains(where: { $0.name == "supportsSecureCoding" })
            || type.functions.contains(where: { $0.name == "supportsSecureCoding" }) {
            secureNames.insert(type.name)
        }
        var reportedTypes = Set<String>()
        for type in types where type.kind != .protocol && type.kind != .objcProtocol && type.adopts("NSCoding")
            && !secureNames.contains(type.name) && reportedTypes.insert(type.name).inserted {
            sink.report("`\(type.name)` adopts NSCoding but not NSSecureCoding: it can only be decoded with secure coding off, where the archive picks the classes. Adopt NSSecureCoding and decode fields with `decodeObject(of:forKey:)`.",
                        in: file, at: type.nameRange)
        }
        for type in types where secureNames.contains(type.name) {
            for function in type.functions where APIs.coderInit.implementedNames.contains(function.fullName) {
                guard let body = function.body else { continue }
                for expression in body.allExpressions {
                    guard case .call(let callee, let arguments, _) = expression.kind, let name = callee.name else { continue }
                    // `decodeObject(forKey:)`, `decodeObject()`, `[coder decodeObjectForKey:]`, `[coder decodeObject]`.
                    let untyped = (APIs.coderDecodeAnyObject.swiftBaseNames.contains(name) && arguments.count <= 1
                                   && arguments.allSatisfy { $0.label == "forKey" })
                        || APIs.coderDecodeAnyObject.selectors.contains(name)
                    guard untyped else { continue }
                    let key = arguments.first?.value.stringValue.map { " for key \"\($0)\"" } ?? ""
                    sink.report("`\(type.name)` supports secure coding but decodes\(key) with `\(expression.swiftCallName ?? name)`, which does not name the expected class. Use `decodeObject(of:forKey:)`.",
                                in: file, at: expression.range)
                }
            }
        }
    }
}
