import MoatCore
import MoatSyntax

/// A parameter of a function that reaches a settings sink (a key, IV or salt given to a cipher, a TLS
/// version set): `CryptoHelper.encrypt(_:key:)` hands `key` to `SymmetricKey(data:)`. Exported in the
/// file's facts; the linker gives it to the files that name the function, where the settings rules judge
/// what each call passes (`ConstantResolver.linkedCalls`): a literal passed there makes the finding, at
/// the call, with the helper's sink as related location.
public struct ParameterSink: Sendable, Hashable, Codable {
    public var function: FunctionSignature
    /// The parameter's index.
    public var parameter: Int
    /// What the value becomes: a `CryptoConstantSites.Role` ("key", "IV", "salt"...) or `tlsRole`.
    public var role: String
    /// The API at the sink (`CCCrypt`, `tlsMinimumSupportedProtocolVersion`).
    public var api: String
    /// Where the sink is.
    public var location: ExternalLocation
    /// The way from the sink back to the parameter, nearest first.
    public var steps: [PortableStep]

    /// The role of a TLS version (MOAT-NET-208).
    public static let tlsRole = "TLS version"

    public init(function: FunctionSignature, parameter: Int, role: String, api: String, location: ExternalLocation, steps: [PortableStep]) {
        self.function = function
        self.parameter = parameter
        self.role = role
        self.api = api
        self.location = location
        self.steps = steps
    }

    func resolved(_ path: String) -> ParameterSink {
        var copy = self
        copy.location = location.resolved(path)
        copy.steps = steps.map { PortableStep(location: $0.location.resolved(path), message: $0.message) }
        return copy
    }

    /// The related locations of a finding made at a call: the sink, then the way back to the parameter.
    public var related: [RelatedLocation] {
        [RelatedLocation(location: location.asLocation, message: "used as the \(role) of `\(api)` here")]
            + steps.map { RelatedLocation(location: $0.location.asLocation, message: $0.message) }
    }

    /// `encrypt(_:key:) (CryptoHelper.swift:12)`, for messages.
    public var functionDescription: String {
        let owner = function.owner.map { $0 + "." } ?? ""
        return "`\(owner)\(function.fullName)` (\(location.shortDescription))"
    }
}

/// A call of this file to a function of another file whose parameter reaches a settings sink.
public struct LinkedCall {
    public var call: Expression
    /// The argument passed to the sink's parameter.
    public var argument: Expression
    public var sink: ParameterSink
    public var context: WalkContext
}

extension ConstantResolver {
    /// Notes that a value a settings sink uses is a parameter of a function of this file that other files
    /// may call (not `private`, `fileprivate`, a C `static` function or a Swift `init`): callers in other
    /// files are judged by what they pass (`ParameterSink`).
    public func noteParameterSink(_ origin: Origin, role: String, api: String, at use: SourceRange) {
        guard let parameter = origin.parameter else { return }
        let function = parameter.function
        let hidden: Set<String> = file.language.isCFamily ? (parameter.owner == nil ? ["static"] : []) : ["private", "fileprivate"]
        // A Swift initializer is called by its type's name: no call of another file resolves to it here.
        guard function.modifiers.allSatisfy({ !hidden.contains($0) }), function.body != nil,
              file.language.isCFamily || function.name != "init" else { return }
        let style: CallStyle = !file.language.isCFamily ? .swift : parameter.owner != nil ? .objc : .c
        let signature = FunctionSignature(style: style, name: function.name, fullName: function.fullName,
                                          labels: function.parameters.map(\.label), owner: parameter.owner?.name)
        let key = "\(signature.fullName)|\(signature.owner ?? "")|\(parameter.index)|\(role)"
        guard parameterSinks.count < Self.maximumParameterSinks, parameterSinkKeys.insert(key).inserted else { return }
        // The last step is the parameter itself (the call of another file stands in for it).
        parameterSinks.append(ParameterSink(
            function: signature, parameter: parameter.index, role: role, api: api, location: ExternalLocation(file, use),
            steps: origin.steps.map { PortableStep(location: ExternalLocation(path: "", line: $0.location.line, column: $0.location.column), message: $0.message) }))
    }

    /// Parameters one file exports, at most.
    static let maximumParameterSinks = 64

    /// Calls of this file that reach a parameter sink of another file (`DataflowContext.constantSinks`),
    /// with the argument given to that parameter. A call resolves when exactly one sink's function fits its
    /// name, labels and receiver (`CrossFileResolver`); a function of this file of that name wins.
    public func linkedCalls() -> [LinkedCall] {
        if let cachedLinkedCalls { return cachedLinkedCalls }
        var result: [LinkedCall] = []
        if !linkedSinks.isEmpty {
            file.forEachExpression { expression, context in
                guard case .call(let callee, let arguments, let isMessageSend) = expression.kind, let name = callee.name,
                      let sinks = linkedSinks[name], !sinks.isEmpty,
                      let shape = callShape(expression, callee: callee, arguments: arguments, isMessageSend: isMessageSend, context)
                else { return }
                // A function of this file of that name is the one called.
                if let local = functionsByName[name], local.contains(where: { $0.function.parameters.count == arguments.count }) { return }
                var signatures: [FunctionSignature] = []
                for sink in sinks where !signatures.contains(sink.function) { signatures.append(sink.function) }
                guard let (chosen, mapping) = CrossFileResolver.resolve(shape, among: signatures) else { return }
                for sink in sinks where sink.function == signatures[chosen] {
                    guard let index = mapping[sink.parameter], index < arguments.count else { continue }
                    result.append(LinkedCall(call: expression, argument: arguments[index].value, sink: sink, context: context))
                }
            }
        }
        cachedLinkedCalls = result
        return result
    }

    /// How another file's function sees a call of this file (`CallShape.of`, as the dataflow engine builds it).
    private func callShape(_ expression: Expression, callee: Expression, arguments: [Argument], isMessageSend: Bool,
                           _ context: WalkContext) -> CallShape? {
        CallShape.of(expression, callee: callee, arguments: arguments, isMessageSend: isMessageSend, receiver: callee.receiver,
                     language: file.language, enclosingType: context.type?.name) { receiver in
            guard let path = receiver.accessPath else { return nil }
            var components = path.split(separator: ".").map(String.init)
            if components.first == "self" || components.first == "super" || components.first == "Self" { components.removeFirst() }
            guard components.count == 1, let root = components.first else { return nil }
            if root.first?.isUppercase == true { return root }
            guard let declared = values.values(for: context).declaredType(of: root) else { return nil }
            let core = declared.filter { !"?!* ".contains($0) }
            return core.first?.isUppercase == true && core.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) ? core : nil
        }
    }
}
