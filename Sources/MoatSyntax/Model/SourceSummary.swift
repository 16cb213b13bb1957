import MoatCore

/// The per-file facts kept after a code file's tree is dropped, for app-level rules that span files
/// (a usage description versus the API calls that need it; a URL scheme versus its handler).
public struct SourceSummary: Sendable, Codable {
    public var path: String
    public var language: SourceLanguage
    /// Every name the code reads or calls (identifiers, members, Objective-C selectors, type names), with
    /// the first place it appears.
    public var referencedNames: [String: SourcePosition]
    /// Functions and methods defined here (Swift full names like `application(_:open:options:)`,
    /// Objective-C selectors), with their positions.
    public var definedFunctions: [String: SourcePosition]
    /// Types declared here and the protocols/superclasses they name.
    public var declaredTypes: [String: [String]]
    public var imports: [String]
    /// The text (trimmed) of each line where a recorded name first appears or a function is defined, so
    /// app-level findings can show the line they point at.
    public var lineText: [Int: String] = [:]
    /// Where outside data may enter (URL literals, decoding calls, pasteboard reads and writes, adopted
    /// protocols), for the attack-surface inventory; at most `SurfaceFact.limit`.
    public var surfaceFacts: [SurfaceFact] = []
    /// Why the whole file does not ship (a test, mock, fixture or preview path; `ShippingScope`), or nil.
    public var nonShipping: NonShippingReason?
    /// The parts of the file that do not ship (`#if DEBUG`, simulator-only clauses, preview providers,
    /// debug-configuration branches, other platforms' clauses), and those that may not, depending on the
    /// targets that compile the file (`condition`: `#if os(macOS)`, `#available` fallbacks).
    public var nonShippingRegions: [NonShippingRegion] = []

    public init(path: String, language: SourceLanguage, referencedNames: [String: SourcePosition],
                definedFunctions: [String: SourcePosition], declaredTypes: [String: [String]], imports: [String]) {
        self.init(path: path, language: language, referencedNames: referencedNames, definedFunctions: definedFunctions,
                  declaredTypes: declaredTypes, imports: imports, lineText: [:], surfaceFacts: [],
                  nonShipping: ShippingScope.reason(forPath: path), nonShippingRegions: [])
    }

    /// Why code at this place does not ship, or nil when it does.
    public func nonShippingReason(line: Int, column: Int) -> NonShippingReason? {
        if let nonShipping { return nonShipping }
        // A region whose reason depends on the targets compiling the file (`condition`) is left to the app
        // model (`NonShippingMap`): the summary alone does not know them.
        return nonShippingRegions.first { $0.condition == nil && $0.contains(line: line, column: column) }?.reason
    }

    /// Whether code at this position ships.
    public func ships(at position: SourcePosition) -> Bool {
        nonShippingReason(line: position.line, column: position.column) == nil
    }

    public init(file: CodeFile) {
        var names: [String: SourcePosition] = [:]
        func note(_ name: String, _ position: SourcePosition) {
            if let existing = names[name], existing.offset <= position.offset { return }
            names[name] = position
        }
        for reference in file.typeReferences { note(reference.name, reference.range.start) }
        var surface = SurfaceFactCollector()
        file.walk { node, _ in
            guard case .expression(let expression) = node else { return surface.visit(node, file: file, swiftCallName: nil) }
            // A call's Swift name, built once for the names and the surface.
            var swiftCallName: String?
            if case .call = expression.kind { swiftCallName = expression.swiftCallName }
            surface.visit(node, file: file, swiftCallName: swiftCallName)
            switch expression.kind {
            case .identifier(let name): note(name, expression.range.start)
            case .member(_, let name): note(name, expression.range.start)
            case .typeValue(let name): note(name, expression.range.start)
            case .call(let callee, _, let isMessageSend):
                if let swiftName = swiftCallName { note(swiftName, expression.range.start) }
                // An Objective-C selector is placed at its message send's `[`, where findings about a call go.
                if isMessageSend, let selector = callee.name { note(selector, expression.range.start) }
            default: break
            }
        }
        var functions: [String: SourcePosition] = [:]
        for (function, _) in file.allFunctions where functions[function.fullName] == nil {
            functions[function.fullName] = function.nameRange.start
        }
        var types: [String: [String]] = [:]
        for type in file.allTypes { types[type.name, default: []].append(contentsOf: type.inherits) }
        self.init(path: file.path, language: file.language, referencedNames: names, definedFunctions: functions,
                  declaredTypes: types, imports: file.imports)
        nonShippingRegions = NonShippingRegion.regions(
            in: file, mentionsDebug: names["debug"] != nil || names["_isDebugAssertConfiguration"] != nil)
        // The attack surface is what ships: entry points in debug-only branches or previews are left out.
        surfaceFacts = nonShippingRegions.isEmpty ? surface.sortedFacts : surface.sortedFacts.filter { fact in
            !nonShippingRegions.contains { $0.condition == nil && $0.contains(line: fact.position.line, column: fact.position.column) }
        }
        for position in Array(names.values) + Array(functions.values) where lineText[position.line] == nil {
            lineText[position.line] = Self.trimmingSpacesAndTabs(file.line(position.line))
        }
    }

    /// `text` without leading and trailing spaces and tabs (compared as characters, as before: a space that
    /// carries a combining mark stays). Trims a substring in place; rebuilding the string from reversed
    /// views cost more than the rest of the summary.
    static func trimmingSpacesAndTabs(_ text: String) -> String {
        // An ASCII line (the usual case) is trimmed as bytes: there every byte is a character of its own
        // (CR LF aside, and neither is a space or a tab).
        var text = text
        let bounds: (lower: Int, upper: Int, count: Int)? = text.withUTF8 { bytes in
            for byte in bytes where byte >= 0x80 { return nil }
            var lower = 0
            var upper = bytes.count
            while lower < upper, bytes[lower] == UInt8(ascii: " ") || bytes[lower] == UInt8(ascii: "\t") { lower += 1 }
            while upper > lower, bytes[upper - 1] == UInt8(ascii: " ") || bytes[upper - 1] == UInt8(ascii: "\t") { upper -= 1 }
            return (lower, upper, bytes.count)
        }
        if let bounds {
            if bounds.lower == 0 && bounds.upper == bounds.count { return text }
            return String(decoding: text.utf8.dropFirst(bounds.lower).prefix(bounds.upper - bounds.lower), as: UTF8.self)
        }
        var slice = Substring(text)
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return String(slice)
    }
}
