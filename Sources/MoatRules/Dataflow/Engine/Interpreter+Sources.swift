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

    /// `addingToResult`: only the sources whose taint is added to what the call returns (`addsToResult`);
    /// otherwise only those that replace it.
    func callSource(_ call: Expression, callee: Expression, arguments: [Argument], isMessageSend: Bool,
                            _ state: InterpreterState, addingToResult: Bool = false) -> SourceHit? {
        guard let name = callee.name else { return nil }
        let receiver = callee.receiver
        if !addingToResult, TaintSources.recordAccessors.contains(name) || TaintSources.recordAccessors.contains(callee.baseCallName ?? ""),
           let receiver, arguments.count == 1, arguments[0].label == nil || TaintSources.recordAccessorLabels.contains(arguments[0].label ?? "") || isMessageSend {
            if let hit = recordSource(base: receiver, key: arguments[0].value, range: call.range, state) { return hit }
        }
        for source in TaintSources.callSources[name] ?? [] {
            guard case .call(_, let receivers, let labels) = source.pattern, source.addsToResult == addingToResult else { continue }
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
            return SourceHit(kind: source.kind, description: source.description, range: call.range, confidence: source.confidence,
                             isSystemFileURL: source.isSystemFileURL)
        }
        if !addingToResult, file.language.isCFamily, case .identifier = callee.unwrapped.kind {
            if let source = TaintSources.cResultSources[name]?.first {
                return SourceHit(kind: source.kind, description: source.description, range: call.range, confidence: source.confidence)
            }
        }
        return nil
    }

    /// A content reader of the table (`.contentRead`) this call is: the entry and the index of the URL argument.
    func contentReader(_ call: CallSite) -> (source: TaintSource, urlIndex: Int)? {
        guard let sources = TaintSources.contentReadSources[call.name], !call.arguments.isEmpty else { return nil }
        for source in sources {
            guard case .contentRead(_, let labels, let receivers, _) = source.pattern else { continue }
            if call.isMessageSend {
                guard let receiver = call.receiver, receiver.chainMentions(receivers) else { continue }
                return (source, 0)
            }
            guard call.receiver == nil, let index = call.arguments.firstIndex(where: { labels.contains($0.label ?? "") }) else { continue }
            return (source, index)
        }
        return nil
    }

    /// Whether the taints of a URL prove it local for a content reader: a kind of `localKinds`, or a file
    /// the system created.
    func isLocalURL(_ taints: [Taint], for source: TaintSource) -> Bool {
        guard case .contentRead(_, _, _, let localKinds) = source.pattern else { return false }
        return taints.contains { taint in
            if let flow = taint.flow, localKinds.contains(flow) { return true }
            return taint.source?.isSystemFileURL ?? false
        }
    }

    // MARK: XML parsers (`XMLDocuments`)

    func isXMLParser(_ receiver: Expression, _ state: InterpreterState) -> Bool {
        if receiver.chainMentions(XMLDocuments.parserReceivers) { return true }
        if let root = receiver.rootName, let type = state.types[root] { return XMLDocuments.parserTypes.contains { type.hasText($0) } }
        return false
    }

    /// The types of the delegates this function gives the parser (`parser.delegate = FeedParserDelegate()`,
    /// `parser.delegate = self`, `[parser setDelegate:handler]` with `handler` declared with its type).
    func xmlDelegateTypes(of parser: Expression, _ state: InterpreterState) -> [String] {
        guard let path = parser.accessPath, let body = function?.body else { return [] }
        var values: [Expression] = []
        func assigned(_ target: Expression, _ value: Expression) {
            if case .member(let base?, XMLDocuments.delegateMember) = target.unwrapped.kind, base.accessPath == path { values.append(value) }
        }
        body.walk { node, _ in
            switch node {
            case .statement(let statement):
                if case .assignment(let target, "=", let value) = statement.kind { assigned(target, value) }
            case .expression(let expression):
                switch expression.kind {
                case .binary("=", let lhs, let rhs): assigned(lhs, rhs)
                case .call(let callee, let arguments, true):
                    if case .member(let base?, let name) = callee.unwrapped.kind, XMLDocuments.delegateSetters.contains(name),
                       base.accessPath == path, arguments.count == 1 { values.append(arguments[0].value) }
                default: break
                }
            case .declaration: break
            }
        }
        var types: [String] = []
        for value in values {
            guard let type = delegateType(value, state), !types.contains(type) else { continue }
            types.append(type)
        }
        return types
    }

    private func delegateType(_ value: Expression, _ state: InterpreterState) -> String? {
        var type: String?
        if case .identifier(let name) = value.unwrapped.kind, name == XMLDocuments.selfName {
            type = ownerName
        } else if let inferred = inferredType(value) {
            type = inferred
        } else {
            type = engine.receiverType(value, owner: ownerName, state)
        }
        guard let type else { return nil }
        let core = type.filter { !"?!* ".contains($0) }
        guard core.first?.isUppercase == true, core.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }),
              !XMLDocuments.parserTypes.contains(core) else { return nil }
        return core
    }

    // MARK: Archive entry names (`ArchiveEntries`)

    /// `entry.path`, `[entry fileName]`: an entry's name, on an entry of an archive, in a file that works
    /// with archives.
    func isArchiveEntryName(_ base: Expression, _ name: String, _ state: InterpreterState) -> Bool {
        guard ArchiveEntries.memberNames.contains(name), engine.mentionsArchives else { return false }
        if base.chainMentions(ArchiveEntries.entryReceivers) { return true }
        if let root = base.rootName, let type = state.types[root] { return ArchiveEntries.entryTypes.contains { type.hasText($0) } }
        return false
    }

    /// C readers of entry names: `archive_entry_pathname(entry)` returns the name of the entry it is given;
    /// `unzGetCurrentFileInfo(file, &info, name, size, ...)` writes the current entry's name into `name` (then
    /// nil: the later steps decide what the call returns, with its arguments already evaluated).
    mutating func readArchiveEntryName(_ call: inout CallSite, _ state: inout InterpreterState) -> [Taint]? {
        let returnsName = ArchiveEntries.resultNames.contains(call.name)
        guard returnsName || ArchiveEntries.bufferNames.contains(call.name), call.receiver == nil, !call.isMessageSend,
              !call.arguments.isEmpty else { return nil }
        for argument in call.arguments { call.argumentTaints.append(eval(argument.value, &state)) }
        call.evaluated = true
        let names = ArchiveEntries.entryName(of: call.argumentTaints[0], at: call.expression.range, api: call.name)
        if returnsName { return names }
        let index = ArchiveEntries.bufferIndex
        if index < call.arguments.count, let root = stripped(call.arguments[index].value).rootName {
            state.vars[root] = names.mapTaints { $0.lineage.insert(root) }
        }
        return nil
    }

    /// A subscript read that is a source (`keychain["token"]`).
    func subscriptSource(base: Expression, range: SourceRange) -> SourceHit? {
        for source in TaintSources.subscriptSources {
            guard case .subscriptRead(let receivers) = source.pattern, base.chainMentions(receivers) else { continue }
            return SourceHit(kind: source.kind, description: source.description, range: range, confidence: source.confidence)
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
