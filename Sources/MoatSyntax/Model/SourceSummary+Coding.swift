import MoatCore

// The summary's part of a result-cache entry, in `BinaryWriter`'s form (see `ResultCache`): written for
// every analyzed source file on a cold scan, read for every unchanged one on a warm scan. Every stored
// property is written; `ResultCacheCodingTests` fails when one is left out.

extension BinaryWriter {
    public mutating func sourcePosition(_ value: SourcePosition) {
        int(value.line)
        int(value.column)
        int(value.offset)
    }

    public mutating func summary(_ value: SourceSummary) {
        string(value.path)
        string(value.language.rawValue)
        positions(value.referencedNames)
        positions(value.definedFunctions)
        dictionary(value.declaredTypes) { writer, name, inherits in
            writer.string(name)
            writer.strings(inherits)
        }
        strings(value.imports)
        dictionary(value.lineText) { writer, line, text in
            writer.int(line)
            writer.string(text)
        }
        list(value.surfaceFacts) { writer, fact in
            writer.string(fact.kind.rawValue)
            writer.string(fact.value)
            writer.sourcePosition(fact.position)
        }
        optional(value.nonShipping) { $0.string($1.rawValue) }
        list(value.nonShippingRegions) { $0.nonShippingRegion($1) }
    }

    mutating func positions(_ value: [String: SourcePosition]) {
        dictionary(value) { writer, name, position in
            writer.string(name)
            writer.sourcePosition(position)
        }
    }
}

extension BinaryReader {
    public mutating func sourcePosition() throws -> SourcePosition {
        SourcePosition(line: try int(), column: try int(), offset: try int())
    }

    /// A summary exactly as written (the path's non-shipping reason is not derived again).
    public mutating func summary() throws -> SourceSummary {
        let path = try string()
        let language = try rawValue(SourceLanguage.self)
        let referencedNames = try positions()
        let definedFunctions = try positions()
        let declaredTypes: [String: [String]] = try dictionary { (try $0.string(), try $0.strings()) }
        let imports = try strings()
        let lineText: [Int: String] = try dictionary { (try $0.int(), try $0.string()) }
        let surfaceFacts = try list { reader in
            SurfaceFact(kind: try reader.rawValue(SurfaceFact.Kind.self), value: try reader.string(), position: try reader.sourcePosition())
        }
        let nonShipping = try optional { try $0.rawValue(NonShippingReason.self) }
        let regions = try list { try $0.nonShippingRegion() }
        return SourceSummary(path: path, language: language, referencedNames: referencedNames, definedFunctions: definedFunctions,
                             declaredTypes: declaredTypes, imports: imports, lineText: lineText, surfaceFacts: surfaceFacts,
                             nonShipping: nonShipping, nonShippingRegions: regions)
    }

    mutating func positions() throws -> [String: SourcePosition] {
        try dictionary { (try $0.string(), try $0.sourcePosition()) }
    }
}

extension SourceSummary {
    /// Every stored property as given (`ShippingScope` is not asked about the path): what the cache read
    /// back, and what the public initializer fills in.
    init(path: String, language: SourceLanguage, referencedNames: [String: SourcePosition], definedFunctions: [String: SourcePosition],
         declaredTypes: [String: [String]], imports: [String], lineText: [Int: String], surfaceFacts: [SurfaceFact],
         nonShipping: NonShippingReason?, nonShippingRegions: [NonShippingRegion]) {
        self.path = path
        self.language = language
        self.referencedNames = referencedNames
        self.definedFunctions = definedFunctions
        self.declaredTypes = declaredTypes
        self.imports = imports
        self.lineText = lineText
        self.surfaceFacts = surfaceFacts
        self.nonShipping = nonShipping
        self.nonShippingRegions = nonShippingRegions
    }
}
