import MoatCore
import MoatSyntax

/// The sink table's `.stateChange` entries (MOAT-CODE-302, `moat diff`'s state question): what moves a
/// state machine forward. Matched by names, like `SensitiveActions`: a write of a property named for a
/// state (`session.state = .connected`, `[session setState:...]`) that does not move it to a closing state,
/// or a call that opens a connection (`connect(to:)`, `NWConnection(host:port:using:)`).
public enum StateTransitions {
    /// Words that name a state property (`state`, `connectionStatus`, `phase`, `mode`).
    static let stateWords: Set<String> = ["state", "status", "phase", "mode"]
    /// Values that move to a closing state: rejections and teardowns are not transitions to check.
    static let closingWords = ["fail", "error", "invalid", "reject", "close", "disconnect", "cancel", "idle", "none", "unknown",
                               "denied", "declin", "abort", "timeout", "timedout", "ended", "terminat", "expired"]

    /// One place that changes a state.
    public struct Transition {
        /// The assignment or call.
        public var range: SourceRange
        /// The object whose state changes (`session`), nil for `self`.
        public var object: String?
        /// What it does, for messages: ``sets `session.state` to `.connected` ``, `opens a connection (connect)`.
        public var text: String
    }

    /// Whether a property name names a state (by its words: `connectionState`, `status`).
    public static func isStateName(_ name: String) -> Bool {
        !Set(CamelCase.words(name).map { $0.lowercased() }).isDisjoint(with: stateWords)
    }

    /// The assignment `target = value` as a state change, or nil. A status text (`status = "Received \(name)"`)
    /// is not a state machine.
    public static func write(_ target: Expression, _ value: Expression, at range: SourceRange, in file: CodeFile) -> Transition? {
        guard let path = target.accessPath else { return nil }
        let components = path.split(separator: ".").map(String.init)
        guard let property = components.last, isStateName(property), !isClosing(value, file), !value.isStringLiteral else { return nil }
        let object = components.count > 1 ? components.dropLast().joined(separator: ".") : nil
        return Transition(range: range, object: object, text: "sets `\(path)` to `\(CodeText.of(value, in: file, limit: 40))`")
    }

    /// The call as a state change: an Objective-C setter of a state property, or a connection opener. With
    /// `namedTransitions`, also calls named for a transition (`transition(to:)`, `advanceState()`,
    /// `setState(_:)`), which `moat diff` asks about and MOAT-CODE-302 does not report (nothing shows what
    /// they change).
    public static func call(_ node: Expression, in file: CodeFile, namedTransitions: Bool = false) -> Transition? {
        guard case .call(let callee, let arguments, let isMessageSend) = node.kind else { return nil }
        if isMessageSend, arguments.count == 1, let name = callee.name, name.hasPrefix("set"), name.hasSuffix(":"),
           let property = setterProperty(name), isStateName(property), !isClosing(arguments[0].value, file) {
            let object = callee.receiver.flatMap(objectName)
            return Transition(range: node.range, object: object, text: "sets `\(object.map { $0 + "." } ?? "")\(property)`")
        }
        if let opener = connectionOpener(callee) {
            return Transition(range: node.range, object: callee.receiver.flatMap(objectName), text: "opens a connection (\(opener))")
        }
        if namedTransitions, let name = callee.baseCallName, isNamedTransition(name) {
            return Transition(range: node.range, object: callee.receiver.flatMap(objectName),
                              text: "calls `\(node.swiftCallName ?? name)`")
        }
        return nil
    }

    static func isNamedTransition(_ name: String) -> Bool {
        let words = CamelCase.words(name).map { $0.lowercased() }
        guard let first = words.first else { return false }
        if first == "transition" { return true }
        return (first == "advance" || first == "set") && words.count > 1 && isStateName(name)
    }

    static func isClosing(_ value: Expression, _ file: CodeFile) -> Bool {
        let text = file.text(value.range).lowercased()
        return closingWords.contains { text.contains($0) }
    }

    static func setterProperty(_ selector: String) -> String? {
        let stem = selector.dropFirst(3).dropLast()
        guard let first = stem.first else { return nil }
        return first.lowercased() + stem.dropFirst()
    }

    static func objectName(_ receiver: Expression) -> String? {
        guard let path = receiver.accessPath, path != "self" else { return nil }
        return path
    }

    /// `setupSocket(to:)`, `connect(to:)`, `openConnection`, `NWConnection(host:port:using:)`.
    static func connectionOpener(_ callee: Expression) -> String? {
        guard let name = callee.baseCallName else { return nil }
        let words = CamelCase.words(name).map { $0.lowercased() }
        guard let first = words.first else { return nil }
        if APIs.connectionCreation.callNames.contains(name) { return name }
        if words.contains("disconnect") || words.contains("close") { return nil }
        if words.contains("socket") && !["close", "remove", "cancel", "tear", "teardown"].contains(first) { return name }
        if first == "connect" { return name }
        if words.contains("connection") && ["open", "start", "setup", "set", "establish", "create", "make", "accept"].contains(first) {
            return name
        }
        return nil
    }
}
