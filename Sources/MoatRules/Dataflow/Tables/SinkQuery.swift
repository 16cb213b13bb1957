import MoatCore
import MoatSyntax

/// One call of the code that is an entry of the sink table, with its arguments by role, whether or not
/// anything untrusted reaches it (what reaches it is in the engine's flows, matched by `range`).
public struct SinkSite: Sendable {
    public var kind: SinkKind
    /// How messages name the API (`FileManager.copyItem/moveItem/linkItem`).
    public var api: String
    /// The name the code called, as the engine's flows spell it (`copyItem(at:to:)`, `memcpy`).
    public var calledName: String
    /// The call.
    public var range: SourceRange
    /// The argument expressions per role (`.path`, `.length`, `.source`...), the receiver included.
    public var arguments: [SinkRole: Expression]

    public func argument(_ role: SinkRole) -> Expression? { arguments[role] }
}

/// Questions about the sink table asked from outside the engine (`moat diff`'s threat questions): is this
/// call a sink of some kind, and which of its arguments plays which role. The engine asks the same table
/// through `TaintSinks.matches`, so both agree on what a sink is.
public enum SinkTable {
    /// The sinks of one of `kinds` that `call` is (usually none or one). Without the interpreter's state,
    /// a receiver is recognised by its chain of names only (not by a local variable's declared type).
    public static func sinks(of call: Expression, in file: CodeFile, kinds: Set<SinkKind>) -> [SinkSite] {
        guard case .call(let callee, let arguments, _) = call.kind, let name = callee.name,
              let candidates = TaintSinks.byName[name] else { return [] }
        var receiver: Expression?
        if case .member(let base, _) = callee.unwrapped.kind { receiver = base }
        var result: [SinkSite] = []
        for candidate in candidates where kinds.contains(candidate.sink.kind)
            && TaintSinks.matches(candidate, language: file.language, callee: callee, arguments: arguments, receiver: receiver, receiverType: nil) {
            var roles: [SinkRole: Expression] = [:]
            for (role, selector) in candidate.roles where roles[role] == nil {
                if let expression = TaintSinks.argument(selector, arguments: arguments, receiver: receiver) { roles[role] = expression }
            }
            let calledName: String
            if case .member = callee.unwrapped.kind, let swiftName = call.swiftCallName { calledName = swiftName } else { calledName = name }
            result.append(SinkSite(kind: candidate.sink.kind, api: candidate.sink.api, calledName: calledName, range: call.range,
                                   arguments: roles))
        }
        return result
    }
}

extension TaintSinks {
    /// Whether a call of one of `candidate`'s spellings is that sink: the language, the required labels,
    /// and the receiver (its chain of names, or `receiverType` when the caller knows it). A C function is
    /// called bare: `.open(url)` is an enum case or a static member of the type the context expects
    /// (`route(.open(url))`), not `open(2)`.
    static func matches(_ candidate: SinkMatch, language: SourceLanguage, callee: Expression, arguments: [Argument], receiver: Expression?,
                        receiverType: String?) -> Bool {
        let sink = candidate.sink
        if sink.cFamilyOnly && !language.isCFamily { return false }
        if sink.freeFunction && (receiver != nil || arguments.contains { $0.label != nil } || callee.isImplicitMember) { return false }
        if let required = candidate.requiredLabels, !arguments.contains(where: { required.contains($0.label ?? "") }) { return false }
        if let names = sink.argumentNames, !arguments.contains(where: { names.contains($0.value.unwrapped.name ?? "") }) { return false }
        if !sink.receivers.isEmpty {
            guard let receiver else { return false }
            if receiver.chainMentions(sink.receivers) { return true }
            if let receiverType, sink.receivers.contains(where: { receiverType.hasText($0) }) { return true }
            return false
        }
        return true
    }

    /// The expression a selector designates (nil for `.all`, or when the call has no such argument).
    static func argument(_ selector: ArgumentSelector, arguments: [Argument], receiver: Expression?) -> Expression? {
        switch selector {
        case .receiver: return receiver
        case .index(let index): return index < arguments.count ? arguments[index].value : nil
        case .label(let labels): return arguments.first { labels.contains($0.label ?? "") }?.value
        case .all: return nil
        }
    }
}

extension Expression {
    /// `.open(url)`, `.shared`: a member of the type the context expects, written without the type.
    var isImplicitMember: Bool {
        if case .member(nil, _) = unwrapped.kind { return true }
        return false
    }
}
