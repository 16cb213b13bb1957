/// One security-relevant API and every way Moat meets it: its Swift call names, its Objective-C
/// selectors, its C functions and the classes that declare it. What a binary imports or references is
/// derived from these (`_OBJC_CLASS_$_Name`, `_function`, the selector strings), never written again.
///
/// Each API is declared once, in `APIs` (Sources/MoatCore/Vocabulary/APIs.swift), and read from there by
/// the rules, the dataflow tables, the binary checks, the code facts of the attack surface and
/// `moat diff`'s threat questions. The vocabulary lives in MoatCore because MoatSyntax (per-file surface
/// facts) and MoatRules both use it.
public struct API: Sendable, Hashable {
    /// How messages name it (`NSKeyedUnarchiver.unarchiveObject(with:)`).
    public let name: String
    /// The classes (or Swift types) that declare it; a receiver or initializer names one of them.
    public let classes: [String]
    /// Swift call names with their labels: `unarchiveObject(with:)`, `NSKeyedUnarchiver(forReadingWith:)`.
    public let swift: [String]
    /// Objective-C selectors: `unarchiveObjectWithData:`.
    public let selectors: [String]
    /// C functions as written in source: `SecTrustEvaluate`.
    public let cFunctions: [String]

    /// Base names of the Swift spellings (`unarchiveObject` for `unarchiveObject(with:)`), as the code
    /// model's `Expression.name` gives them for a Swift call.
    public let swiftBaseNames: [String]

    /// Every name a call to this API carries in the code model: Swift base names, selectors, C functions.
    public let callNames: Set<String>

    public init(_ name: String, classes: [String] = [], swift: [String] = [], selectors: [String] = [],
                cFunctions: [String] = []) {
        self.name = name
        self.classes = classes
        self.swift = swift
        self.selectors = selectors
        self.cFunctions = cFunctions
        var seen = Set<String>()
        swiftBaseNames = swift.compactMap { spelling in
            let base = spelling.firstIndex(of: "(").map { String(spelling[..<$0]) } ?? spelling
            return seen.insert(base).inserted ? base : nil
        }
        callNames = Set(swiftBaseNames + selectors + cFunctions)
    }

    /// A call name (`Expression.name`) matches the API when it is one of its `callNames`, so a rule can
    /// switch on a call's name: `case APIs.commonCryptoCipher:`.
    public static func ~= (api: API, name: String) -> Bool { api.callNames.contains(name) }

    /// The first part of each Objective-C selector (`writeToFile` of `writeToFile:atomically:`), as a
    /// file's names index (`SourceNames`) holds the identifiers of a message send.
    public var selectorHeads: [String] {
        var seen = Set<String>()
        return selectors.compactMap { selector in
            let head = selector.firstIndex(of: ":").map { String(selector[..<$0]) } ?? selector
            return seen.insert(head).inserted ? head : nil
        }
    }

    /// The first argument label of each Swift spelling (`forResource` of `url(forResource:withExtension:)`),
    /// `_` and spellings without arguments left out.
    public var swiftFirstLabels: [String] {
        var seen = Set<String>()
        return swift.compactMap { spelling in
            guard let open = spelling.firstIndex(of: "("), let colon = spelling[open...].firstIndex(of: ":") else { return nil }
            let label = String(spelling[spelling.index(after: open)..<colon])
            return label != "_" && !label.isEmpty && seen.insert(label).inserted ? label : nil
        }
    }

    /// Swift call names with labels and selectors (what `swiftCallName` or a message send's name gives).
    public var fullCallNames: Set<String> { Set(swift + selectors + cFunctions) }

    /// For a method the app implements, the selector of each Swift name: the vocabulary lists them in the
    /// same order, and Swift names past the last selector (async variants) share a listed one.
    public var selectorsBySwiftName: [String: String] {
        Dictionary(zip(swift, selectors).map { ($0, $1) }, uniquingKeysWith: { first, _ in first })
    }

    /// The full names of a method the app implements, each Swift name followed by its selector, then the
    /// Swift names that share a listed selector.
    public var implementedNames: [String] {
        zip(swift, selectors).flatMap { [$0, $1] } + swift.dropFirst(selectors.count) + selectors.dropFirst(swift.count)
    }

    /// The C symbols a binary that calls it imports (`_SecTrustEvaluate`).
    public var importedFunctionSymbols: [String] { cFunctions.map { "_" + $0 } }

    /// The Objective-C class symbols a binary that uses the declaring classes references.
    public var classSymbols: [String] { classes.map { API.classSymbolPrefix + $0 } }

    /// The prefix of an Objective-C class symbol in a Mach-O symbol table.
    public static let classSymbolPrefix = "_OBJC_CLASS_$_"
}

extension Array where Element == API {
    /// Every call name of every API of the list.
    public var callNames: Set<String> { reduce(into: Set<String>()) { $0.formUnion($1.callNames) } }
    /// Every full call name (Swift names with labels, selectors, C functions) of the list.
    public var fullCallNames: Set<String> { reduce(into: Set<String>()) { $0.formUnion($1.fullCallNames) } }
    /// Every selector of the list, in order.
    public var selectors: [String] { flatMap(\.selectors) }
    /// Every Swift base name of the list.
    public var swiftBaseNames: Set<String> { reduce(into: Set<String>()) { $0.formUnion($1.swiftBaseNames) } }
    /// Every C function of the list.
    public var cFunctions: Set<String> { reduce(into: Set<String>()) { $0.formUnion($1.cFunctions) } }
    /// Every first part of a selector of the list (see `API.selectorHeads`).
    public var selectorHeads: Set<String> { reduce(into: Set<String>()) { $0.formUnion($1.selectorHeads) } }
}
