import MoatCore
import MoatSyntax

/// A property being set, in any of the forms Swift and Objective-C allow.
public struct PropertyWrite {
    /// The object whose property is set (nil for a bare assignment to an identifier).
    public var object: Expression?
    public var property: String
    public var value: Expression
    /// Where to report: the start of the assignment or message send.
    public var range: SourceRange
    public var context: WalkContext
    public var form: Form

    public enum Form: Sendable {
        /// `object.property = value` (Swift and Objective-C dot syntax).
        case assignment
        /// `[object setProperty:value]`.
        case setter
        /// `object.setValue(value, forKey: "property")` / `[object setValue:value forKey:@"property"]`.
        case keyValueCoding
    }
}

extension CodeFile {
    /// Every write to a property with one of these names, whatever the syntax.
    public func propertyWrites(named names: Set<String>) -> [PropertyWrite] {
        var writes: [PropertyWrite] = []
        func assignment(_ target: Expression, _ value: Expression, _ range: SourceRange, _ context: WalkContext) {
            guard case .member(let object, let name) = target.unwrapped.kind, names.contains(name) else { return }
            writes.append(PropertyWrite(object: object, property: name, value: value, range: range, context: context, form: .assignment))
        }
        walk { node, context in
            switch node {
            case .statement(let statement):
                if case .assignment(let target, "=", let value) = statement.kind {
                    assignment(target, value, statement.range, context)
                }
            case .expression(let expression):
                switch expression.kind {
                case .binary("=", let target, let value):
                    assignment(target, value, expression.range, context)
                case .call(let callee, let arguments, let isMessageSend):
                    guard let name = callee.name else { return }
                    // KVC, both languages.
                    if name == "setValue" || name == APIs.keyValueCodingWrite.selectors[0] || name == APIs.keyPathValueWrite.selectors[0],
                       arguments.count == 2, let key = arguments[1].value.stringValue,
                       arguments[1].label == "forKey" || arguments[1].label == "forKeyPath" {
                        let property = String(key.split(separator: ".").last ?? Substring(key))
                        if names.contains(property) {
                            writes.append(PropertyWrite(object: callee.receiver, property: property, value: arguments[0].value,
                                                        range: expression.range, context: context, form: .keyValueCoding))
                        }
                        return
                    }
                    // Objective-C setter: [object setFoo:value].
                    if isMessageSend, arguments.count == 1, name.hasPrefix("set"), name.hasSuffix(":"), name.count > 4 {
                        let stem = name.dropFirst(3).dropLast()
                        // `setTLSMinimum…:` sets `TLSMinimum…` (a leading acronym keeps its case); `setFoo:` sets `foo`.
                        let lowered = stem.prefix(1).lowercased() + stem.dropFirst()
                        let startsWithAcronym = stem.count > 1 && stem.prefix(2).allSatisfy(\.isUppercase)
                        let property = startsWithAcronym && names.contains(String(stem)) ? String(stem) : lowered
                        if names.contains(property) {
                            writes.append(PropertyWrite(object: callee.receiver, property: property, value: arguments[0].value,
                                                        range: expression.range, context: context, form: .setter))
                        }
                    }
                default:
                    break
                }
            case .declaration:
                break
            }
        }
        return writes
    }

    /// Every call whose callee matches, with its context.
    public func calls(where matches: (Expression) -> Bool) -> [(call: Expression, context: WalkContext)] {
        var result: [(Expression, WalkContext)] = []
        forEachExpression { expression, context in
            if case .call = expression.kind, matches(expression) { result.append((expression, context)) }
        }
        return result
    }

    /// Calls of a class (static) method on a named class, by any of the given method names
    /// (Swift base names and Objective-C selectors): `NSKeyedUnarchiver.unarchiveObject(with:)`,
    /// `[NSKeyedUnarchiver unarchiveObjectWithData:d]`.
    public func classMethodCalls(on className: String, named methodNames: Set<String>) -> [(call: Expression, context: WalkContext)] {
        calls { call in
            guard case .call(let callee, _, _) = call.kind, let name = callee.name, methodNames.contains(name),
                  let receiver = callee.receiver?.unwrapped, case .identifier(let receiverName) = receiver.kind else { return false }
            return receiverName == className
        }
    }
}
