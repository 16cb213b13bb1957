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
        unsigned(UInt64(value.declaredTypes.count))
        for (name, inherits) in value.declaredTypes {
            string(name)
            strings(inherits)
        }
        strings(value.imports)
        unsigned(UInt64(value.lineText.count))
        for (line, text) in value.lineText {
            int(line)
            string(text)
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
        unsigned(UInt64(value.count))
        for (name, position) in value {
            string(name)
            sourcePosition(position)
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
        let typeCount = try count()
        var declaredTypes: [String: [String]] = [:]
        declaredTypes.reserveCapacity(typeCount)
        for _ in 0..<typeCount {
            let name = try string()
            declaredTypes[name] = try strings()
        }
        let imports = try strings()
        let lineCount = try count()
        var lineText: [Int: String] = [:]
        lineText.reserveCapacity(lineCount)
        for _ in 0..<lineCount {
            let line = try int()
            lineText[line] = try string()
        }
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
        let count = try count()
        var result: [String: SourcePosition] = [:]
        result.reserveCapacity(count)
        for _ in 0..<count {
            let name = try string()
            result[name] = try sourcePosition()
        }
        return result
    }
}

extension SourceSummary {
    /// Every stored property as given (`ShippingScope` is not asked about the path).
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
