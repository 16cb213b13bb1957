import MoatCore
import MoatSyntax

/// The entries of a dictionary value as far as the function shows: its literal (Swift `[k: v]`,
/// Objective-C `@{k: v}`), followed through local names, plus later `dict[k] = v`,
/// `dict.updateValue(v, forKey: k)` and `[dict setObject:v forKey:k]` on the same name.
public struct DictionaryEntries {
    public struct Entry {
        /// `kSecAttrAccessible` for `kSecAttrAccessible as String`, `protectionKey` for `.protectionKey`,
        /// the text of a string key.
        public var key: String
        public var keyExpression: Expression
        public var value: Expression
    }

    public var entries: [Entry]

    public func value(forKey key: String) -> Expression? {
        entries.last { $0.key == key }?.value
    }

    public func contains(_ key: String) -> Bool { entries.contains { $0.key == key } }

    /// The name a dictionary key is known by.
    public static func keyName(_ key: Expression) -> String? {
        let bare = key.strippedOfCasts
        if let text = bare.stringValue { return text }
        switch bare.kind {
        case .identifier(let name): return name
        case .member(_, let name): return name
        case .call(let callee, let arguments, _):
            // String(kSecAttrAccessible), NSString(string:)
            if let name = callee.name, ["String", "NSString", "init"].contains(name), let first = arguments.first {
                return keyName(first.value)
            }
            return nil
        default: return nil
        }
    }

    /// The entries of `expression` (a literal or a local name bound to one), or nil when unknown.
    public static func of(_ expression: Expression, _ values: LocalValues, in statements: [Statement]) -> DictionaryEntries? {
        let resolved = values.resolve(expression)
        guard case .dictionaryLiteral(let pairs) = resolved.strippedOfCasts.kind else {
            // `[:]`-less constructions (`NSMutableDictionary()`) with writes only.
            guard let name = LocalValues.assignableName(expression.strippedOfCasts),
                  let constructed = values.value(of: name, before: expression.range.start.offset),
                  isEmptyDictionaryConstruction(constructed) else { return nil }
            return DictionaryEntries(entries: writes(to: name, in: statements))
        }
        var entries = pairs.compactMap { pair -> Entry? in
            keyName(pair.key).map { Entry(key: $0, keyExpression: pair.key, value: pair.value) }
        }
        if let name = LocalValues.assignableName(expression.strippedOfCasts) {
            entries += writes(to: name, in: statements)
        }
        return DictionaryEntries(entries: entries)
    }

    static func isEmptyDictionaryConstruction(_ expression: Expression) -> Bool {
        let bare = expression.strippedOfCasts
        if case .dictionaryLiteral(let pairs) = bare.kind { return pairs.isEmpty }
        guard case .call(let callee, _, _) = bare.kind else { return false }
        // `[String: Any]()`: the type sugar parses as a one-entry dictionary literal.
        if case .dictionaryLiteral = callee.unwrapped.kind { return true }
        let chain = callee.nameChain
        return chain.contains { $0 == "NSMutableDictionary" || $0 == "dictionary" || $0 == "Dictionary" }
    }

    /// `name[k] = v`, `name.updateValue(v, forKey: k)`, `[name setObject:v forKey:k]`, `[name setValue:v forKey:k]`.
    static func writes(to name: String, in statements: [Statement]) -> [Entry] {
        var result: [Entry] = []
        Block(statements: statements, range: SourceRange(start: SourcePosition(line: 1, column: 1, offset: 0),
                                                          end: SourcePosition(line: 1, column: 1, offset: 0))).walk { node, _ in
            switch node {
            case .statement(let statement):
                guard case .assignment(let target, "=", let value) = statement.kind,
                      case .subscriptAccess(let base, let arguments) = target.unwrapped.kind, arguments.count == 1,
                      LocalValues.assignableName(base) == name, let key = keyName(arguments[0].value) else { return }
                result.append(Entry(key: key, keyExpression: arguments[0].value, value: value))
            case .expression(let expression):
                guard case .call(let callee, let arguments, _) = expression.kind, let method = callee.name,
                      let receiver = callee.receiver, LocalValues.assignableName(receiver) == name, arguments.count == 2,
                      (["updateValue", "setObject"] + APIs.dictionaryWrite.selectors).contains(method),
                      let key = keyName(arguments[1].value) else { return }
                result.append(Entry(key: key, keyExpression: arguments[1].value, value: arguments[0].value))
            case .declaration:
                break
            }
        }
        return result
    }
}

extension CodeFile {
    /// The statements of the function a context is in (or the file's top-level statements).
    public func statements(of context: WalkContext) -> [Statement] {
        context.function?.body?.statements ?? statements
    }
}
