import MoatCore
import MoatSyntax

/// WWDC anti-pattern 2: a message from another device moves a session's state machine without checking
/// that the session exists, that it is in the state the message is valid in, and that the sender belongs
/// to it.
public struct RemoteMessageStateRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-CODE-302", slug: "remote-message-state-transition", title: "Remote message changes state without checks",
        severity: .medium, confidence: .medium, evidence: .dataflow, cwe: [841, 346],
        masvs: ["MASVS-CODE-4", "MASVS-PLATFORM-1"], mastg: [],
        rationale: "A message from a peer, a socket or a game match is input, not an event of the app's own state machine. A handler that moves a session forward (sets its state, opens a connection) on the message alone lets a stale, replayed or forged message connect a session that is not being set up, or an uninvited device join it. Apple's session example looks the session up from the message's identifier, checks its current state and checks the sender against the invited peers before changing anything.",
        fix: "Before the transition, in one guard: look the session up by the message's identifier, compare its current state with the state this message is valid in, and check that the sender is one of its peers: `guard let session = sessionsByIdentifier[message.sessionIdentifier], session.state == .inviting, session.invitedFromIdentifiers.contains(fromID) else { return }`.",
        references: ["https://developer.apple.com/videos/play/wwdc2022/10060/", "https://cwe.mitre.org/data/definitions/841.html"],
        examples: [
            .triggering("Sessions.swift", """
            func handleSessionInviteAccepted(with message: RemoteMessage, from fromID: String) {
                guard session = sessionsByIdentifier[message.sessionIdentifier] else { return }

                ↓session.state = .connected
                session.setupSocket(to: fromID) { socket in
                    cameraController.send(to: socket)
                }
            }
            """, note: "The WWDC snippet without the state and sender checks."),
            .triggering("Sessions.swift", """
            func handleSessionInviteAccepted(with message: RemoteMessage, from fromID: String) {
                guard let session = sessionsByIdentifier[message.sessionIdentifier],
                      session.state == .inviting else { return }

                ↓session.state = .connected
                session.setupSocket(to: fromID) { socket in
                    cameraController.send(to: socket)
                }
            }
            """, note: "Any device can accept an invitation it did not receive."),
            .triggering("Sessions.swift", """
            func handleSessionInviteAccepted(with message: RemoteMessage, from fromID: String) {
                guard let session = activeSession,
                      session.invitedFromIdentifiers.contains(fromID) else { return }

                ↓session.setupSocket(to: fromID) { socket in
                    cameraController.send(to: socket)
                }
            }
            """, note: "Opening a connection is a transition too; this one ignores which session the message names."),
            .triggering("Sessions.m", """
            - (void)handleSessionInviteAccepted:(RemoteMessage *)message fromID:(NSString *)fromID {
                Session *session = self.sessionsByIdentifier[message.sessionIdentifier];
                if (session == nil) {
                    return;
                }
                ↓session.state = SessionStateConnected;
                [session setupSocketTo:fromID];
            }
            """),
            .nonTriggering("Sessions.swift", """
            func handleSessionInviteAccepted(with message: RemoteMessage, from fromID: String) {
                guard session = sessionsByIdentifier[message.sessionIdentifier],
                      session.state == .inviting,
                      session.invitedFromIdentifiers.contains(fromID) else { return }

                session.state = .connected
                session.setupSocket(to: fromID) { socket in
                    cameraController.send(to: socket)
                }
            }
            """, note: "The WWDC snippet as written."),
            .nonTriggering("Sessions.swift", """
            func handleSessionInviteAccepted(with message: RemoteMessage, from fromID: String) {
                guard let session = sessionsByIdentifier[message.sessionIdentifier],
                      session.invitedFromIdentifiers.contains(fromID) else { return }
                switch session.state {
                case .inviting:
                    session.state = .connected
                default:
                    session.state = .failed
                }
            }
            """),
            .nonTriggering("Sessions.swift", """
            func handleSessionInviteDeclined(with message: RemoteMessage, from fromID: String) {
                guard let session = sessionsByIdentifier[message.sessionIdentifier] else {
                    self.status = .unknownSession
                    return
                }
                session.state = .closed
            }
            """, note: "Rejections and moves to a closed or failed state are not flagged."),
            .nonTriggering("Sessions.m", """
            - (void)handleSessionInviteAccepted:(RemoteMessage *)message fromID:(NSString *)fromID {
                Session *session = self.sessionsByIdentifier[message.sessionIdentifier];
                if (session == nil || session.state != SessionStateInviting ||
                    ![session.invitedFromIdentifiers containsObject:fromID]) {
                    return;
                }
                session.state = SessionStateConnected;
                [session setupSocketTo:fromID];
            }
            """),
            .triggering("PeerLink.swift", """
            import MultipeerConnectivity
            final class PeerLink: NSObject, MCSessionDelegate {
                var peerStates: [MCPeerID: LinkState] = [:]
                func session(_ session: MCSession, didReceive data: Data, fromPeer peerID: MCPeerID) {
                    guard let message = try? JSONDecoder().decode(LinkMessage.self, from: data), message.kind == .accept else { return }
                    ↓peerStates[peerID] = .connected
                }
            }
            """, note: "An entry of a state table, keyed by the sender: any peer can mark itself connected."),
            .triggering("PeerLink.m", """
            - (void)session:(MCSession *)session didReceiveData:(NSData *)data fromPeer:(MCPeerID *)peerID {
                ↓self.peerStates[peerID] = @(LinkStateConnected);
            }
            """),
            .nonTriggering("PeerLink.swift", """
            import MultipeerConnectivity
            final class PeerLink: NSObject, MCSessionDelegate {
                var peerStates: [MCPeerID: LinkState] = [:]
                func session(_ session: MCSession, didReceive data: Data, fromPeer peerID: MCPeerID) {
                    guard let message = try? JSONDecoder().decode(LinkMessage.self, from: data), message.kind == .accept,
                          peerStates[peerID] == .inviting else { return }
                    peerStates[peerID] = .connected
                }
            }
            """, note: "The entry's current state is checked first: only an invited peer moves on."),
            .nonTriggering("PeerLink.m", """
            - (void)session:(MCSession *)session didReceiveData:(NSData *)data fromPeer:(MCPeerID *)peerID {
                self.peerStates[peerID] = @(LinkStateDisconnected);
            }
            """, note: "Moving to a closed state is not flagged."),
        ])

    public init() {}

    static let localObjects = ["MCSession", "GKMatch", "NWConnection", "URLSessionWebSocketTask", "MCNearbyService", "WCSession"]

    /// A state table's names (`peerStates`, `stateByPeer`): an entry written by subscript is a state.
    static let stateTableWords: Set<String> = StateTransitions.stateWords.union(["states", "statuses", "phases", "modes"])

    struct Transition {
        var range: SourceRange
        var object: String?
        var text: String
        var dominance: Dominance
        /// For an entry of a state table (`states[peerID] = .connected`): the table and the names its key uses.
        var table: (path: String, keyNames: Set<String>)? = nil
    }

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        for (function, _) in file.allFunctions {
            guard let body = function.body, let senderIndex = RemoteHandlers.senderIndex(of: function) else { continue }
            let sender = function.parameters[senderIndex].name
            var messages = Set<String>()
            for (index, parameter) in function.parameters.enumerated() where index != senderIndex {
                if let type = parameter.type, Self.localObjects.contains(where: type.contains) { continue }
                messages.insert(parameter.name)
            }
            guard let transition = firstTransition(in: body, file) else { continue }
            let missing = missingChecks(transition, messages: messages, sender: sender)
            guard !missing.isEmpty else { continue }
            let object = transition.object ?? "self"
            let list = missing.count == 1 ? missing[0] : missing.dropLast().joined(separator: ", without ") + " and without " + (missing.last ?? "")
            let message = "\(function.fullName) handles a message from `\(sender)` and \(transition.text) without \(list): a stale, replayed or forged message can move `\(object)` forward."
            sink.report(message, in: file, at: transition.range,
                        related: [FindingSink.related("the remote message arrives here, sent by `\(sender)`", in: file, at: function.nameRange)])
        }
    }

    /// The first state change of the body (`StateTransitions`, the sink table's `.stateChange` entries)
    /// not under a rejection.
    private func firstTransition(in body: Block, _ file: CodeFile) -> Transition? {
        var found: Transition?
        DominanceWalk.walk(body.statements) { statement, dominance in
            guard found == nil, !dominance.isRejection else { return }
            if case .assignment(let target, "=", let value) = statement.kind,
               let transition = StateTransitions.write(target, value, at: statement.range, in: file) {
                found = Transition(range: transition.range, object: transition.object, text: transition.text, dominance: dominance)
                return
            }
            if case .assignment(let target, "=", let value) = statement.kind, let entry = stateTableWrite(target, value, file) {
                found = Transition(range: statement.range, object: entry.object, text: entry.text, dominance: dominance,
                                   table: (entry.table, entry.keyNames))
                return
            }
            for expression in statement.expressions {
                for node in expression.descendants() {
                    guard found == nil, let transition = StateTransitions.call(node, in: file) else { continue }
                    found = Transition(range: transition.range, object: transition.object, text: transition.text, dominance: dominance)
                }
            }
        }
        return found
    }

    /// `states[peerID] = .connected`, `self.sessionStates[message.sessionID] = .active`: an entry of a table
    /// whose name says it holds states.
    private func stateTableWrite(_ target: Expression, _ value: Expression, _ file: CodeFile)
        -> (object: String, text: String, table: String, keyNames: Set<String>)? {
        guard case .subscriptAccess(let base, let arguments) = target.unwrapped.kind, let table = base.accessPath,
              let name = table.split(separator: ".").last.map(String.init),
              !Set(CamelCase.words(name).map { $0.lowercased() }).isDisjoint(with: Self.stateTableWords),
              !StateTransitions.isClosing(value, file), !value.isStringLiteral, !isRemoval(value) else { return nil }
        let key = arguments.map { CodeText.of($0.value, in: file, limit: 30) }.joined(separator: ", ")
        let object = "\(table)[\(key)]"
        var keyNames = Set<String>()
        for argument in arguments { keyNames.formUnion(argument.value.referencedNames) }
        return (object, "sets the entry `\(object)` of a state table to `\(CodeText.of(value, in: file, limit: 40))`", table, keyNames)
    }

    /// `states[peerID] = nil` removes the entry: not a move forward.
    private func isRemoval(_ value: Expression) -> Bool {
        if case .nilLiteral = value.unwrapped.kind { return true }
        return false
    }

    private func missingChecks(_ transition: Transition, messages: Set<String>, sender: String) -> [String] {
        let dominance = transition.dominance
        var derived = messages
        for binding in dominance.bindings where !binding.value.referencedNames.isDisjoint(with: derived) {
            derived.formUnion(binding.names)
        }
        var missing: [String] = []
        var senderNames: Set<String> = [sender]
        for binding in dominance.bindings where binding.value.referencedNames.contains(sender) { senderNames.formUnion(binding.names) }
        if let table = transition.table {
            // The entry is looked up by its key; its current state is read from the same table.
            if table.keyNames.isDisjoint(with: messages.union(derived).union(senderNames)) {
                missing.append("looking the entry up from the message's identifier")
            }
            let readsEntry: (Expression) -> Bool = { expression in
                expression.descendants().contains { node in
                    if case .subscriptAccess(let base, _) = node.kind { return base.accessPath == table.path }
                    return false
                }
            }
            var entryNames = Set<String>()
            for binding in dominance.bindings where readsEntry(binding.value) { entryNames.formUnion(binding.names) }
            let compared = dominance.checkedExpressions.contains { readsEntry($0) || !$0.referencedNames.isDisjoint(with: entryNames) }
            if !compared { missing.append("comparing the current state of `\(transition.object ?? table.path)` with the state the message is valid in") }
            let senderChecked = dominance.checkedExpressions.contains { !$0.referencedNames.isDisjoint(with: senderNames) }
            if !senderChecked { missing.append("checking that the sender `\(sender)` is one of its peers") }
            return missing
        }
        if let object = transition.object {
            let root = String(object.split(separator: ".").first ?? Substring(object))
            let lookedUp = dominance.bindings.contains { binding in
                binding.names.contains(root) && !binding.value.referencedNames.isDisjoint(with: messages.union(derived.subtracting([root])))
            } || dominance.checkedExpressions.contains { expression in
                let names = expression.referencedNames
                return names.contains(root) && !names.isDisjoint(with: messages)
            }
            if !lookedUp { missing.append("looking `\(object)` up from the message's identifier") }
        }
        let stateCompared = dominance.checkedExpressions.contains { expression in
            expression.descendants().contains { node in
                guard let path = node.accessPath else { return false }
                let components = path.split(separator: ".").map(String.init)
                guard let last = components.last, StateTransitions.isStateName(last) else { return false }
                let owner = components.count > 1 ? components.dropLast().joined(separator: ".") : nil
                return owner == transition.object || (transition.object == nil && owner == nil)
            }
        }
        if !stateCompared {
            missing.append("comparing the current state of `\(transition.object ?? "self")` with the state the message is valid in")
        }
        let senderChecked = dominance.checkedExpressions.contains { !$0.referencedNames.isDisjoint(with: senderNames) }
            || dominance.bindings.contains { binding in
                binding.value.descendants().contains { node in
                    switch node.kind {
                    case .subscriptAccess(_, let arguments): return arguments.contains { $0.value.referencedNames.contains(sender) }
                    default: return false
                    }
                }
            }
        if !senderChecked { missing.append("checking that the sender `\(sender)` is one of its peers") }
        return missing
    }
}
