import MoatCore
import MoatSyntax

extension TaintEngine {
    // MARK: Other files

    /// A call this file does not define: resolved against other files' functions when the context knows
    /// them; recorded for the facts otherwise.
    func externalFunction(for shape: CallShape) -> (ExportedFunction, [Int: Int])? {
        guard let candidates = externalFunctions[shape.name], !candidates.isEmpty,
              let (index, mapping) = CrossFileResolver.resolve(shape, among: candidates.map(\.signature)) else { return nil }
        return (candidates[index], mapping)
    }

    /// A document parsed by an XML parser (`XMLDocuments`): where it came from, once per origin; and for
    /// other files, once per delegate type the parser was given.
    func noteXMLDocument(_ taints: [Taint], delegates: [String], at range: SourceRange) {
        for taint in taints where taint.isActive {
            guard let source = taint.source, !(taint.flow?.isProof ?? true) else { continue }
            if !xmlDocuments.contains(where: { $0.range == source.range && $0.description == source.description }) {
                xmlDocuments.append(source)
            }
            for type in delegates {
                let use = XMLDelegateUse(type: type, document: taint.portable(in: file), location: ExternalLocation(file, range))
                guard !xmlDelegateUses.contains(where: {
                    $0.type == type && $0.document.source?.location == use.document.source?.location
                        && $0.document.source?.description == use.document.source?.description
                }), xmlDelegateUses.filter({ $0.type == type }).count < XMLDocuments.maximumUsesPerType else { continue }
                xmlDelegateUses.append(use)
            }
        }
    }

    func noteUnresolved(_ shape: CallShape, location: SourceRange, argumentTaints: [[Taint]], confirmed: Bool) {
        calledNames.insert(shape.name)
        var arguments: [OutgoingCall.Argument] = []
        for (index, taints) in argumentTaints.enumerated() {
            let real = taints.filter { $0.source != nil && $0.classLookup == nil && $0.product == nil }
            if !real.isEmpty { arguments.append(OutgoingCall.Argument(index: index, taints: real.prefix(4).map { $0.portable(in: file) })) }
        }
        guard !arguments.isEmpty else { return }
        taintedCalls.insert(shape.name)
        guard outgoing.count < Self.maximumOutgoing else { return }
        let call = OutgoingCall(call: shape, location: ExternalLocation(file, location), arguments: arguments, confirmed: confirmed)
        if outgoingKeys.insert(call).inserted { outgoing.append(call) }
    }

    // MARK: Summaries

    func summary(of function: FunctionDeclaration) -> FunctionSummary? {
        summaries[ObjectIdentifier(function)]
    }

    /// The function of this file a call resolves to, with the call argument index for each parameter.
    func resolve(_ call: Expression) -> (FunctionDeclaration, [Int: Int])? {
        guard case .call(let callee, let arguments, let isMessageSend) = call.unwrapped.kind, let name = callee.name else { return nil }
        if isMessageSend {
            guard let function = functionsByFullName[name]?.first, function.parameters.count == arguments.count else { return nil }
            return (function, Dictionary(uniqueKeysWithValues: (0..<arguments.count).map { ($0, $0) }))
        }
        if file.language.isCFamily {
            guard case .identifier = callee.kind, let function = functionsByName[name]?.first(where: { $0.fullName == name }),
                  function.parameters.count == arguments.count else { return nil }
            return (function, Dictionary(uniqueKeysWithValues: (0..<arguments.count).map { ($0, $0) }))
        }
        if let swiftName = call.swiftCallName, let function = functionsByFullName[swiftName]?.first {
            return (function, Dictionary(uniqueKeysWithValues: (0..<arguments.count).map { ($0, $0) }))
        }
        // Defaulted parameters, trailing closures: match labels in order.
        for function in functionsByName[name] ?? [] where function.parameters.count >= arguments.count {
            var mapping: [Int: Int] = [:]
            var argumentIndex = 0
            for (parameterIndex, parameter) in function.parameters.enumerated() where argumentIndex < arguments.count {
                if arguments[argumentIndex].label == parameter.label {
                    mapping[parameterIndex] = argumentIndex
                    argumentIndex += 1
                }
            }
            if argumentIndex == arguments.count { return (function, mapping) }
        }
        return nil
    }
}
