import MoatCore
import MoatSyntax

/// Objective-C runtime names for what the code model names in Swift: the selectors of the delegate
/// methods the attack surface lists, the selectors Swift derives for `@objc` methods, the runtime names
/// a Swift class may have, and the Swift-mangled name fragments Moat can offer for pure Swift code.
enum ObjCNames {
    /// Swift full names of Objective-C protocol methods (UIKit, WebKit, Foundation delegates) → their
    /// selectors. A Swift method that satisfies an Objective-C requirement gets the requirement's selector,
    /// not the one Swift would derive from its name.
    static let protocolSelectors: [String: String] = APIs.implementedDelegateMethods.reduce(into: [:]) { result, api in
        result.merge(api.selectorsBySwiftName) { first, _ in first }
    }

    /// The URL-receiving delegate selectors (schemes, then universal links), for built apps where only the
    /// runtime can say which class implements them.
    static let schemeHandlerSelectors = [APIs.openURLHandler, APIs.sceneOpenURLContexts, APIs.deprecatedOpenURLHandler].selectors
    static let linkHandlerSelectors = APIs.continueUserActivity.selectors
    static let messageHandlerSelectors = APIs.scriptMessageReceipt.selectors
    static let trustDelegateSelectors = APIs.sessionChallenge.selectors + APIs.webViewChallenge.selectors

    /// The selector of a function: the name itself for Objective-C, the protocol requirement's selector or
    /// the one Swift derives for `@objc` members. `explicit` is the name given in `@objc(name:)`.
    static func selector(of function: FunctionDeclaration, language: SourceLanguage, explicit: String? = nil) -> String? {
        if language.isCFamily { return function.fullName.contains("(") ? nil : function.fullName }
        if let explicit, !explicit.isEmpty { return explicit }
        if let known = protocolSelectors[function.fullName] { return known }
        return derivedSelector(name: function.name, labels: function.parameters.map(\.label))
    }

    /// The selector Swift derives for an `@objc` method: `f()` → `f`, `f(_:)` → `f:`, `f(x:)` → `fWithX:`,
    /// `f(_:y:)` → `f:y:`, `init(x:)` → `initWithX:`.
    static func derivedSelector(name: String, labels: [String?]) -> String? {
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
        guard let first = labels.first else { return name }
        var selector = name
        if let label = first, !label.isEmpty {
            selector += "With" + label.prefix(1).uppercased() + label.dropFirst()
        }
        selector += ":"
        for label in labels.dropFirst() { selector += (label ?? "") + ":" }
        return selector
    }

    /// The name given in `@objc(name)` before a declaration, read from its text.
    static func explicitObjCName(_ text: Substring) -> String? {
        guard let start = text.range(of: "@objc(") else { return nil }
        let rest = text[start.upperBound...]
        guard let close = rest.firstIndex(of: ")") else { return nil }
        let name = rest[..<close].trimmingCharacters(in: .whitespaces)
        return name.isEmpty ? nil : name
    }

    /// Runtime names a Swift class `name` of module `module` may have: `Module.Name` (what
    /// `NSStringFromClass` prints) and the mangled `_TtC6Module4Name` (what `class_getName` returns).
    static func swiftRuntimeNames(_ name: String, module: String) -> [String] {
        ["\(module).\(name)", "_TtC\(module.utf8.count)\(module)\(name.utf8.count)\(name)"]
    }

    /// A Swift module name from a target or executable name, as Xcode derives it (`My App` → `My_App`).
    static func moduleName(_ target: String) -> String? {
        var result = ""
        for scalar in target.unicodeScalars {
            let character = Character(scalar)
            result.append(character.isLetter || character.isNumber || character == "_" ? character : "_")
        }
        guard let first = result.first else { return nil }
        return first.isNumber ? "_" + result : result
    }

    /// A glob matching the Swift-mangled symbol of `Type.method` (`*14TransferRouterC6handle*`): the
    /// best symbol Moat can offer for a pure Swift function (unstripped or debug builds only). `kind` is
    /// `C` for classes, `V` for structs, `O` for enums; unknown kinds match any.
    static func mangledGlob(type: String?, kind: TypeKind?, function: String) -> String {
        let base = function.split(separator: "(").first.map(String.init) ?? function
        guard let type, !type.isEmpty else { return "*\(base.utf8.count)\(base)*" }
        let marker: String
        switch kind {
        case .class?: marker = "C"
        case .struct?: marker = "V"
        case .enum?: marker = "O"
        default: marker = ""
        }
        return "*\(type.utf8.count)\(type)\(marker)*\(base.utf8.count)\(base)*"
    }
}
