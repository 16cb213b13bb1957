import MoatCore

// A compact binary form of `DataflowFacts` for the result cache. Every source file's facts are written on
// a cold scan and every file's index is read on a warm one, so the generic Codable encoders (which cost
// more than the rest of storing an entry) are not used. Reading is bounds-checked: a truncated or
// corrupt form gives nil, never a crash.
//
// Layout: "MDF7", the index (the names the linker needs for every file), then the rest of the facts.
// Integers are LEB128 (zigzag for signed values), strings are a length and UTF-8 bytes, lists a count and
// their elements, optionals a 0/1 byte then the value.

public enum FactsCoding {
    static let magic: [UInt8] = Array("MDF7".utf8)

    public static func encode(_ facts: DataflowFacts) -> [UInt8] {
        var writer = FactsWriter()
        writer.bytes = magic
        writer.index(DataflowFactsIndex(facts))
        writer.list(facts.functions) { $0.function($1) }
        writer.list(facts.outgoing) { $0.outgoing($1) }
        return writer.bytes
    }

    /// The index alone: what a warm scan reads for every file.
    public static func decodeIndex(_ bytes: [UInt8]) -> DataflowFactsIndex? {
        var reader = FactsReader(bytes: bytes)
        guard reader.expect(magic) else { return nil }
        return try? reader.index()
    }

    public static func decode(_ bytes: [UInt8]) -> DataflowFacts? {
        var reader = FactsReader(bytes: bytes)
        guard reader.expect(magic), let index = try? reader.index() else { return nil }
        var facts = DataflowFacts(light: index)
        guard let functions = try? reader.list({ try $0.function() }),
              let outgoing = try? reader.list({ try $0.outgoing() }), reader.atEnd else { return nil }
        facts.functions = functions
        facts.outgoing = outgoing
        return facts
    }
}

/// The primitives (integers, strings, lists, optionals) are `BinaryWriter`'s and `BinaryReader`'s (MoatCore).
typealias FactsWriter = BinaryWriter
typealias FactsReader = BinaryReader

extension BinaryWriter {
    mutating func location(_ value: ExternalLocation) {
        string(value.path)
        int(value.line)
        int(value.column)
    }

    mutating func signature(_ value: FunctionSignature) {
        string(value.style.rawValue)
        string(value.name)
        string(value.fullName)
        list(value.labels) { $0.optional($1) { $0.string($1) } }
        optional(value.owner) { $0.string($1) }
    }

    mutating func taint(_ value: PortableTaint) {
        optional(value.parameter) { $0.int($1) }
        optional(value.source) { writer, source in
            writer.string(source.kind)
            writer.string(source.description)
            writer.string(source.confidence.rawValue)
            writer.bool(source.isSystemFileURL)
            writer.location(source.location)
        }
        strings(value.checks)
        optional(value.latent) { $0.strings($1) }
        bool(value.resetsCallerChecks)
        strings(value.members)
        list(value.steps) { writer, step in
            writer.location(step.location)
            writer.string(step.message)
        }
        bool(value.viaUnknownCall ?? false)
    }

    mutating func function(_ value: ExportedFunction) {
        signature(value.signature)
        location(value.location)
        optional(value.returns) { $0.list($1) { $0.taint($1) } }
        list(value.validatesParameters) { $0.int($1) }
    }

    mutating func outgoing(_ value: OutgoingCall) {
        string(value.call.style.rawValue)
        string(value.call.name)
        optional(value.call.swiftName) { $0.string($1) }
        list(value.call.labels) { $0.optional($1) { $0.string($1) } }
        optional(value.call.receiverType) { $0.string($1) }
        bool(value.call.hasReceiver)
        optional(value.call.enclosingType) { $0.string($1) }
        location(value.location)
        list(value.arguments) { writer, argument in
            writer.int(argument.index)
            writer.list(argument.taints) { $0.taint($1) }
        }
        bool(value.confirmed)
    }

    mutating func index(_ value: DataflowFactsIndex) {
        strings(value.functionNames)
        strings(value.summarizedNames)
        strings(value.calledNames)
        strings(value.outgoingNames)
        strings(value.taintedCalls)
        list(value.javaScriptProtocols) { writer, fact in
            writer.string(fact.name)
            writer.strings(fact.methods)
        }
        list(value.adoptions) { writer, adoption in
            writer.string(adoption.name)
            writer.strings(adoption.inherits)
        }
        strings(value.implementedTypes)
        list(value.constants) { writer, constant in
            writer.optional(constant.owner) { $0.string($1) }
            writer.string(constant.name)
            switch constant.value {
            case .symbol(let name):
                writer.int(0)
                writer.string(name)
            case .text(let text):
                writer.int(1)
                writer.string(text)
            case .bytes(let count):
                writer.int(2)
                writer.int(count)
            }
            writer.location(constant.location)
        }
        strings(value.constantQueries)
        list(value.constantSinks) { writer, sink in
            writer.signature(sink.function)
            writer.int(sink.parameter)
            writer.string(sink.role)
            writer.string(sink.api)
            writer.location(sink.location)
            writer.list(sink.steps) { writer, step in
                writer.location(step.location)
                writer.string(step.message)
            }
        }
        strings(value.managedProperties)
        strings(value.sensitiveMemberWrites)
        list(value.xmlDelegates) { writer, use in
            writer.string(use.type)
            writer.taint(use.document)
            writer.location(use.location)
        }
        strings(value.valueTypes)
    }
}

extension BinaryReader {
    mutating func location() throws -> ExternalLocation {
        ExternalLocation(path: try string(), line: try int(), column: try int())
    }

    mutating func style() throws -> CallStyle {
        guard let style = CallStyle(rawValue: try string()) else { throw Malformed() }
        return style
    }

    mutating func signature() throws -> FunctionSignature {
        FunctionSignature(style: try style(), name: try string(), fullName: try string(),
                          labels: try list { try $0.optional { try $0.string() } }, owner: try optional { try $0.string() })
    }

    mutating func taint() throws -> PortableTaint {
        let parameter = try optional { try $0.int() }
        let source: PortableSource? = try optional { reader in
            let kind = try reader.string()
            let description = try reader.string()
            guard let confidence = Confidence(rawValue: try reader.string()) else { throw Malformed() }
            return PortableSource(kind: kind, description: description, confidence: confidence,
                                  isSystemFileURL: try reader.bool(), location: try reader.location())
        }
        return PortableTaint(parameter: parameter, source: source, checks: try strings(), latent: try optional { try $0.strings() },
                             resetsCallerChecks: try bool(), members: try strings(),
                             steps: try list { PortableStep(location: try $0.location(), message: try $0.string()) },
                             viaUnknownCall: try bool() ? true : nil)
    }

    mutating func function() throws -> ExportedFunction {
        ExportedFunction(signature: try signature(), location: try location(),
                         returns: try optional { try $0.list { try $0.taint() } },
                         validatesParameters: try list { try $0.int() })
    }

    mutating func outgoing() throws -> OutgoingCall {
        let call = CallShape(style: try style(), name: try string(), swiftName: try optional { try $0.string() },
                             labels: try list { try $0.optional { try $0.string() } },
                             receiverType: try optional { try $0.string() }, hasReceiver: try bool(),
                             enclosingType: try optional { try $0.string() })
        let location = try location()
        let arguments = try list { OutgoingCall.Argument(index: try $0.int(), taints: try $0.list { try $0.taint() }) }
        return OutgoingCall(call: call, location: location, arguments: arguments, confirmed: try bool())
    }

    mutating func index() throws -> DataflowFactsIndex {
        var index = DataflowFactsIndex(functionNames: try strings(), summarizedNames: try strings(), calledNames: try strings(),
                                       outgoingNames: try strings(), taintedCalls: try strings(),
                                       javaScriptProtocols: try list { JavaScriptProtocolFact(name: try $0.string(), methods: try $0.strings()) },
                                       adoptions: try list { TypeAdoption(name: try $0.string(), inherits: try $0.strings()) },
                                       implementedTypes: try strings())
        index.constants = try list { reader in
            let owner = try reader.optional { try $0.string() }
            let name = try reader.string()
            let value: ConstantValue
            switch try reader.int() {
            case 0: value = .symbol(try reader.string())
            case 1: value = .text(try reader.string())
            case 2: value = .bytes(try reader.int())
            default: throw Malformed()
            }
            return ExportedConstant(owner: owner, name: name, value: value, location: try reader.location())
        }
        index.constantQueries = try strings()
        index.constantSinks = try list { reader in
            ParameterSink(function: try reader.signature(), parameter: try reader.int(), role: try reader.string(), api: try reader.string(),
                          location: try reader.location(),
                          steps: try reader.list { PortableStep(location: try $0.location(), message: try $0.string()) })
        }
        index.managedProperties = try strings()
        index.sensitiveMemberWrites = try strings()
        index.xmlDelegates = try list { XMLDelegateUse(type: try $0.string(), document: try $0.taint(), location: try $0.location()) }
        index.valueTypes = try strings()
        return index
    }
}
