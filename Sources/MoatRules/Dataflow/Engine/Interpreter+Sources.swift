import MoatCore
import MoatSyntax

extension FunctionInterpreter {
    // MARK: Source matching

    func sourceTaint(_ hit: SourceHit, at range: SourceRange) -> Taint {
        Taint(origin: .source(hit))
    }

    func isJavaScriptContext(_ expression: Expression, _ state: InterpreterState) -> Bool {
        if let root = expression.rootName, let type = state.types[root], type.hasText(TaintSources.javaScriptContextType) { return true }
        return expression.chainMentions(TaintSources.javaScriptContextNames)
            && !expression.chainMentions(TaintSources.notJavaScriptContextNames)
    }

    func memberSource(_ expression: Expression, _ state: InterpreterState) -> SourceHit? {
        guard let (base, name) = expression.propertyRead ?? {
            if case .member(let base?, let name) = expression.unwrapped.kind { return (base, name) }
            return nil
        }() else { return nil }
        for source in TaintSources.memberSources[name] ?? [] {
            guard case .member(_, let receivers, let receiverType) = source.pattern else { continue }
            var matched = receivers.isEmpty && receiverType == nil
            if !receivers.isEmpty, base.chainMentions(receivers) { matched = true }
            if let receiverType, let root = base.rootName, let type = state.types[root], type.contains(receiverType) { matched = true }
            if matched {
                return SourceHit(kind: source.kind, description: source.description, range: expression.range, confidence: source.confidence)
            }
        }
        return nil
    }

    func callSource(_ call: Expression, callee: Expression, arguments: [Argument], isMessageSend: Bool,
                            _ state: InterpreterState) -> SourceHit? {
        guard let name = callee.name else { return nil }
        let receiver = callee.receiver
        if TaintSources.recordAccessors.contains(name) || TaintSources.recordAccessors.contains(callee.baseCallName ?? ""),
           let receiver, arguments.count == 1, arguments[0].label == nil || TaintSources.recordAccessorLabels.contains(arguments[0].label ?? "") || isMessageSend {
            if let hit = recordSource(base: receiver, key: arguments[0].value, range: call.range, state) { return hit }
        }
        for source in TaintSources.callSources[name] ?? [] {
            guard case .call(_, let receivers, let labels) = source.pattern else { continue }
            if let labels {
                if labels.isEmpty {
                    guard arguments.isEmpty, !isMessageSend, receiver != nil else { continue }
                } else {
                    guard let first = arguments.first?.label, labels.contains(first) else { continue }
                }
            }
            if !receivers.isEmpty {
                guard let receiver, receiver.chainMentions(receivers) else { continue }
            }
            return SourceHit(kind: source.kind, description: source.description, range: call.range, confidence: source.confidence)
        }
        if file.language.isCFamily, case .identifier = callee.unwrapped.kind {
            if let source = TaintSources.cResultSources[name]?.first {
                return SourceHit(kind: source.kind, description: source.description, range: call.range, confidence: source.confidence)
            }
        }
        return nil
    }

    /// A read from a CKRecord: `record["uuid"]`, `record.object(forKey:)`, `[record objectForKey:@"uuid"]`.
    func recordSource(base: Expression, key: Expression?, range: SourceRange, _ state: InterpreterState) -> SourceHit? {
        guard let source = TaintSources.recordSource else { return nil }
        var receiver = base.unwrapped
        if let (inner, name) = receiver.propertyRead, name == TaintSources.recordEncryptedValues { receiver = inner.unwrapped }
        guard let root = receiver.accessPath else { return nil }
        var isRecord = false
        let recordType = TaintSources.recordType
        if let type = state.types[root], type.hasText(recordType) {
            isRecord = !type.hasText(TaintSources.recordIDMarker) || type.hasText(recordType + " *") || type == recordType
        } else if state.types[root] == nil, engine.mentionsCloudKit {
            let last = root.split(separator: ".").last.map(String.init) ?? root
            isRecord = last.lowercased() == TaintSources.recordVariableName || last.hasSuffix(TaintSources.recordVariableSuffix)
        }
        guard isRecord else { return nil }
        let field = key?.stringValue.map { "the \(recordType) field \"\($0)\"" } ?? source.description
        return SourceHit(kind: source.kind, description: field, range: range, confidence: source.confidence)
    }
}
