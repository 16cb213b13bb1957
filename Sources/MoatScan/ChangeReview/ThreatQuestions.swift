import MoatCore
import MoatRules
import MoatSyntax

/// The four questions a pull request that touches outside input should answer (from Apple's "threat
/// modeling and anti-patterns" session): does it write a file path from outside data, advance a state
/// machine on a remote message, decode objects, copy memory by a length?
///
/// A "yes" is not a finding: it names the place and what a reviewer should verify there, even when no bug
/// is proven. Answers come from the code model (never from text matching), so comments and strings never
/// count: the places are the entries of the dataflow sink table (`SinkTable`) of the question's kinds, and
/// where their values come from is what the dataflow engine found (`SinkFlows`: untrusted sources, and the
/// function's own parameters reaching the sink).
public enum ThreatQuestion: String, Codable, Sendable, CaseIterable {
    case filePath = "file-path"
    case stateMachine = "state-machine"
    case objectDecoding = "object-decoding"
    case memoryCopy = "memory-copy"

    public var question: String {
        switch self {
        case .filePath: "Does it write a file path built from outside data?"
        case .stateMachine: "Does it advance a state machine on a remote message?"
        case .objectDecoding: "Does it decode objects?"
        case .memoryCopy: "Does it copy memory by a length?"
        }
    }

    /// What to verify wherever the answer is yes.
    public var verify: String {
        switch self {
        case .filePath:
            "Reduce the outside name to `lastPathComponent`, reject \"\", \".\" and \"..\", and write only inside the intended folder (a temporary directory or the app container); test with `../../x`, an absolute path and an empty name."
        case .stateMachine:
            "Advance the state only when the message names a session that exists, the current state allows this transition, and the sender is the peer this session expects; test replayed, out-of-order and unknown-sender messages."
        case .objectDecoding:
            "Decode with secure coding and an explicit, bounded list of classes (`unarchivedObject(ofClasses:from:)`, `decodeObject(of:forKey:)`), never class names taken from the data; check each decoded value's type and range before use."
        case .memoryCopy:
            "Check the source's type and exact length against the destination size before copying, compute byte counts with overflow checks (`os_mul_overflow`, `multipliedReportingOverflow(by:)`), and test truncated and oversized input."
        }
    }

    /// The kinds of the dataflow sink table whose entries answer this question (`SinkTable`,
    /// `StateTransitions` for state changes).
    public var sinkKinds: Set<SinkKind> {
        switch self {
        case .filePath: [.filePath]
        case .stateMachine: [.stateChange]
        case .objectDecoding: [.classLookup, .unarchive]
        case .memoryCopy: [.memoryCopy, .stringFromBuffer, .allocation]
        }
    }

    /// CWE ids whose findings on changed lines also answer this question.
    public var cwe: Set<Int> {
        switch self {
        case .filePath: [22, 23, 36, 73, 59]
        case .stateMachine: [372, 841, 362]
        case .objectDecoding: [502, 470]
        case .memoryCopy: [119, 120, 121, 122, 125, 131, 190, 680, 787, 805]
        }
    }
}

/// One construct in a changed hunk that makes the answer yes.
public struct ThreatSite: Codable, Sendable, Hashable {
    public var line: Int
    public var column: Int
    /// The source line, trimmed, with secrets redacted.
    public var code: String
    /// Why this construct answers yes.
    public var reason: String

    public init(line: Int, column: Int, code: String, reason: String) {
        self.line = line
        self.column = column
        self.code = code
        self.reason = reason
    }
}

/// The evidence for one question in one hunk.
public struct ThreatEvidence: Codable, Sendable, Hashable {
    public var question: ThreatQuestion
    public var path: String
    public var hunk: ChangeSet.Hunk
    public var sites: [ThreatSite]
    /// What the dataflow engine saw the values at these sites pass on their way (`` `name`: reduced to its
    /// last path component, rejects ".." ``): what the author already checks, for the reviewer to confirm.
    public var checks: [String]
    /// Rules that reported findings at these sites.
    public var ruleIds: [String]

    public init(question: ThreatQuestion, path: String, hunk: ChangeSet.Hunk, sites: [ThreatSite],
                checks: [String] = [], ruleIds: [String] = []) {
        self.question = question
        self.path = path
        self.hunk = hunk
        self.sites = sites
        self.checks = checks
        self.ruleIds = ruleIds
    }

    /// `Sources/Import.swift:10-14`.
    public var hunkDescription: String { "\(path):\(hunk.lines)" }
}

public struct ThreatAnswer: Codable, Sendable {
    public var question: ThreatQuestion
    public var evidence: [ThreatEvidence]

    public init(question: ThreatQuestion, evidence: [ThreatEvidence]) {
        self.question = question
        self.evidence = evidence
    }

    public var isYes: Bool { !evidence.isEmpty }
}

/// Finds the constructs that answer the four questions in the changed hunks of one parsed file.
public enum ThreatModel {
    /// Evidence from the code model of `file`, limited to constructs that touch one of `hunks`.
    public static func evidence(in file: CodeFile, hunks: [ChangeSet.Hunk]) -> [ThreatEvidence] {
        guard !hunks.isEmpty else { return [] }
        var detector = Detector(file: file, hunks: hunks, dataflow: SinkFlows.analyze(file))
        detector.run()
        return detector.grouped()
    }

    /// Adds findings on changed lines whose CWE answers a question to the evidence (merged by hunk).
    public static func merge(findings: [Finding], into evidence: [ThreatEvidence], changes: ChangeSet) -> [ThreatEvidence] {
        var result = evidence
        for finding in findings where finding.suppression == nil {
            let location = finding.location
            guard let hunk = changes.hunk(containing: location.line, in: location.path) else { continue }
            for question in ThreatQuestion.allCases where !question.cwe.isDisjoint(with: finding.cwe) {
                let site = ThreatSite(line: location.line, column: location.column,
                                      code: clip(finding.evidence ?? ""), reason: "\(finding.ruleId): \(finding.message)")
                if let index = result.firstIndex(where: { $0.question == question && $0.path == location.path && $0.hunk == hunk }) {
                    if !result[index].sites.contains(where: { $0.line == site.line }) { result[index].sites.append(site) }
                    if !result[index].ruleIds.contains(finding.ruleId) { result[index].ruleIds.append(finding.ruleId) }
                } else {
                    result.append(ThreatEvidence(question: question, path: location.path, hunk: hunk, sites: [site],
                                                 ruleIds: [finding.ruleId]))
                }
            }
        }
        return result.sorted { ($0.question.order, $0.path, $0.hunk) < ($1.question.order, $1.path, $1.hunk) }
    }

    static func clip(_ text: String, limit: Int = 200) -> String {
        let collapsed = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).joined(separator: " ")
        let redacted = Redaction.redact(collapsed)
        return redacted.count > limit ? String(redacted.prefix(limit)) + "…" : redacted
    }
}

extension ThreatQuestion {
    var order: Int { Self.allCases.firstIndex(of: self) ?? 0 }
}

// MARK: - The detector

/// Walks the calls and assignments of the changed hunks. The places come from the sink table
/// (`SinkTable`, by kind), where their values come from from the dataflow engine (`SinkFlows`), and what
/// the function checks before them from the dominating conditions (`DominanceQuery`).
private struct Detector {
    let file: CodeFile
    let hunks: [ChangeSet.Hunk]
    let dataflow: SinkFlows
    private var found: [(question: ThreatQuestion, hunk: ChangeSet.Hunk, site: ThreatSite, checks: [String])] = []

    init(file: CodeFile, hunks: [ChangeSet.Hunk], dataflow: SinkFlows) {
        self.file = file
        self.hunks = hunks
        self.dataflow = dataflow
    }

    /// The hunk a construct belongs to: one its lines touch, or a deletion earlier in the same function
    /// (removing a check changes the meaning of everything after it).
    func hunk(for range: SourceRange, in function: FunctionDeclaration?) -> ChangeSet.Hunk? {
        if let touching = hunks.first(where: { $0.startLine <= range.end.line && range.start.line <= $0.endLine }) {
            return touching
        }
        guard let function, let body = function.body else { return nil }
        return hunks.last { hunk in
            hunk.isDeletion && body.range.start.line <= hunk.startLine && hunk.endLine <= body.range.end.line
                && hunk.endLine < range.start.line && range.end.line <= body.range.end.line
        }
    }

    mutating func run() {
        var calls: [(Expression, WalkContext, ChangeSet.Hunk)] = []
        var assignments: [(target: Expression, value: Expression, range: SourceRange, WalkContext, ChangeSet.Hunk)] = []
        file.walk { node, context in
            switch node {
            case .expression(let expression):
                switch expression.kind {
                case .call:
                    if let hunk = hunk(for: expression.range, in: context.function) { calls.append((expression, context, hunk)) }
                case .binary("=", let target, let value):
                    if let hunk = hunk(for: expression.range, in: context.function) { assignments.append((target, value, expression.range, context, hunk)) }
                default: break
                }
            case .statement(let statement):
                if case .assignment(let target, "=", let value) = statement.kind, let hunk = hunk(for: statement.range, in: context.function) {
                    assignments.append((target, value, statement.range, context, hunk))
                }
            case .declaration:
                break
            }
        }
        for (call, context, hunk) in calls {
            checkFilePath(call, context, hunk)
            checkDecoding(call, context, hunk)
            checkMemoryCopy(call, context, hunk)
            checkStateCall(call, context, hunk)
        }
        for assignment in assignments {
            checkStateAssignment(assignment.target, assignment.value, assignment.range, assignment.3, assignment.4)
        }
    }

    func grouped() -> [ThreatEvidence] {
        var result: [ThreatEvidence] = []
        for item in found {
            if let index = result.firstIndex(where: { $0.question == item.question && $0.hunk == item.hunk }) {
                if !result[index].sites.contains(where: { $0.line == item.site.line && $0.reason == item.site.reason }) {
                    result[index].sites.append(item.site)
                }
                for check in item.checks where !result[index].checks.contains(check) && result[index].checks.count < 8 {
                    result[index].checks.append(check)
                }
            } else {
                result.append(ThreatEvidence(question: item.question, path: file.path, hunk: item.hunk, sites: [item.site],
                                             checks: Array(item.checks.prefix(8))))
            }
        }
        for index in result.indices { result[index].sites.sort { ($0.line, $0.column) < ($1.line, $1.column) } }
        return result
    }

    // MARK: Helpers

    func code(at range: SourceRange) -> String { ThreatModel.clip(file.line(range.start.line).trimmingCharacters(in: .whitespaces)) }

    func text(_ expression: Expression, limit: Int = 80) -> String { ThreatModel.clip(file.text(expression.range), limit: limit) }

    mutating func record(_ question: ThreatQuestion, _ range: SourceRange, _ hunk: ChangeSet.Hunk, _ reason: String,
                         context: WalkContext, names: Set<String>) {
        var reason = reason
        if hunk.endLine < range.start.line {
            reason += " Lines were removed before it in the same function (at \(hunk.lines)): check that no validation was lost."
        }
        let site = ThreatSite(line: range.start.line, column: range.start.column, code: code(at: range), reason: reason)
        found.append((question, hunk, site, checks(before: range, in: context.function, mentioning: names)))
    }

    /// Names read by an expression: identifiers, and with `members` the member names too (`data` and
    /// `length` for `data.length`).
    static func names(in expression: Expression, members: Bool = false) -> Set<String> {
        var result = Set<String>()
        for node in expression.descendants() {
            switch node.kind {
            case .identifier(let name): result.insert(name)
            case .member(_, let name) where members: result.insert(name)
            default: break
            }
        }
        return result
    }

    /// The conditions every path to `range` passes (`DominanceQuery`) that test one of `names` or a value
    /// bound from them on the way: what the author already checks (`line 6: safeFileName.count > 0`).
    func checks(before range: SourceRange, in function: FunctionDeclaration?, mentioning names: Set<String>) -> [String] {
        guard let function, !names.isEmpty, let facts = DominanceQuery.facts(at: range, in: function) else { return [] }
        // Names the values were bound from (`destinationFileURL` ← `safeFileName` ← `name`), to a fixed point.
        var involved = names
        for _ in 0..<8 {
            var grew = false
            for binding in facts.bindings where !Set(binding.names.flatMap { $0.split(separator: ".").map(String.init) }).isDisjoint(with: involved) {
                let added = Self.names(in: binding.value).subtracting(involved)
                if !added.isEmpty {
                    involved.formUnion(added)
                    grew = true
                }
            }
            if !grew { break }
        }
        var result: [String] = []
        for (expression, _) in facts.conditions where !Self.names(in: expression, members: true).isDisjoint(with: involved) {
            let line = "line \(expression.range.start.line): \(ThreatModel.clip(file.text(expression.range), limit: 160))"
            if !result.contains(line) { result.append(line) }
        }
        return result
    }

    /// Where the values of `roles` at the sink `range` come from, as the engine saw them: the untrusted
    /// sources that reach them, or else the parameters of the enclosing function that do.
    func origins(at range: SourceRange, roles: [SinkRole]) -> (phrases: [String], taints: [Taint]) {
        var sources: [String] = []
        var parameters: [(function: String, names: [String])] = []
        var taints: [Taint] = []
        for flow in dataflow.flows(at: range) {
            for role in roles {
                for taint in flow.taints(role) where taint.isActive {
                    taints.append(taint)
                    switch taint.origin {
                    case .source(let hit):
                        if !sources.contains(hit.description) { sources.append(hit.description) }
                    case .parameter(_, let name):
                        let function = flow.function.map { "`\($0)`" } ?? "this code"
                        if let index = parameters.firstIndex(where: { $0.function == function }) {
                            if !parameters[index].names.contains(name) { parameters[index].names.append(name) }
                        } else {
                            parameters.append((function, [name]))
                        }
                    }
                }
            }
        }
        let inputs = parameters.map { entry in
            let names = entry.names.map { "`\($0)`" }
            return names.count == 1 ? "\(names[0]), an input of \(entry.function)"
                : names.dropLast().joined(separator: ", ") + " and \(names[names.count - 1]), inputs of \(entry.function)"
        }
        return (sources.isEmpty ? inputs : sources, taints)
    }

    static func list(_ phrases: [String]) -> String {
        phrases.count <= 1 ? phrases.joined() : phrases.dropLast().joined(separator: "; ") + "; and " + phrases[phrases.count - 1]
    }

    static func containsProduct(_ expression: Expression) -> Bool {
        expression.descendants().contains { if case .binary("*", _, _) = $0.kind { true } else { false } }
    }

    // MARK: 1. File paths

    /// A file-path sink of the table (write, copy, move, create, remove) whose path the engine sees coming
    /// from outside data or from the function's inputs.
    mutating func checkFilePath(_ call: Expression, _ context: WalkContext, _ hunk: ChangeSet.Hunk) {
        for site in SinkTable.sinks(of: call, in: file, kinds: ThreatQuestion.filePath.sinkKinds) {
            guard let path = site.argument(.path) else { continue }
            let (phrases, taints) = origins(at: site.range, roles: [.path])
            guard !phrases.isEmpty else { continue }
            var reason = "`\(site.calledName)` writes to `\(text(path))`, which comes from \(Self.list(phrases))"
            if taints.contains(where: { $0.checks.contains(.lastPathComponent) }) {
                reason += "; the name is reduced with `lastPathComponent`"
            }
            var names = Self.names(in: path)
            for taint in taints { names.formUnion(taint.lineage.flatMap { $0.split(separator: ".").map(String.init) }) }
            record(.filePath, call.range, hunk, reason + ".", context: context, names: names)
        }
    }

    // MARK: 2. State machines

    /// What makes this function a handler of remote messages: the engine's untrusted parameters (delegate
    /// methods of the source table, handlers of messages from a remote sender).
    func remoteInput(of function: FunctionDeclaration?) -> String? {
        guard let function else { return nil }
        return dataflow.untrustedParameters(of: function).first?.source.description
    }

    /// A state change of the sink table (`.stateChange`: `StateTransitions`) in a function that handles a
    /// remote message: an assignment of a state property to anything but a closing state.
    mutating func checkStateAssignment(_ target: Expression, _ value: Expression, _ range: SourceRange,
                                       _ context: WalkContext, _ hunk: ChangeSet.Hunk) {
        guard let function = context.function, let input = remoteInput(of: function),
              let transition = StateTransitions.write(target, value, at: range, in: file) else { return }
        let reason = "\(transition.text) in `\(function.fullName)`, which handles a remote message (\(input))."
        var names = Self.names(in: target).union(function.parameters.map(\.name))
        switch target.unwrapped.kind {
        case .member(_, let name), .identifier(let name): names.insert(name)
        default: break
        }
        record(.stateMachine, range, hunk, reason, context: context, names: names)
    }

    /// A state setter, a connection opener or a call named for a transition (`transition(to:)`,
    /// `advanceState()`) in a function that handles a remote message.
    mutating func checkStateCall(_ call: Expression, _ context: WalkContext, _ hunk: ChangeSet.Hunk) {
        guard let function = context.function, let input = remoteInput(of: function),
              let transition = StateTransitions.call(call, in: file, namedTransitions: true) else { return }
        let reason = "\(transition.text) in `\(function.fullName)`, which handles a remote message (\(input))."
        let names = (call.receiver.map { Self.names(in: $0) } ?? []).union(function.parameters.map(\.name)).union(["state", "status"])
        record(.stateMachine, call.range, hunk, reason, context: context, names: names)
    }

    // MARK: 3. Object decoding

    /// Decoders that accept any class named in the data.
    static let legacyDecoders = APIs.keyedUnarchiverLegacy.callNames
    /// Decoders given (or expected to be given) the classes they accept.
    static let classDecoders = [APIs.keyedUnarchiverSecure, APIs.coderDecodeObject, APIs.coderDecodeAnyObject, APIs.coderDecodeTopLevelObject].callNames
    /// Coder calls that name no class (`decodeObject(forKey:)`, `[coder decodeObjectForKey:]`, `decodeTopLevelObject()`,
    /// `[coder decodeTopLevelObjectForKey:error:]`).
    static let untypedDecoders = APIs.coderDecodeAnyObject.callNames.union(APIs.coderDecodeTopLevelObject.callNames)
    /// Keyed-unarchiver initializers (Swift base name `NSKeyedUnarchiver`, Objective-C selectors).
    static let unarchiverInitializers = APIs.keyedUnarchiverLegacyInit.callNames.union(APIs.keyedUnarchiverSecureInit.callNames)

    /// Decoding APIs of the vocabulary; the class lookups are the sink table's `.classLookup` entries. When
    /// the engine sees outside data reach the archive or the class name, the reason says where from.
    mutating func checkDecoding(_ call: Expression, _ context: WalkContext, _ hunk: ChangeSet.Hunk) {
        guard let base = call.name else { return }
        let name = call.swiftCallName ?? base
        var reason: String
        if Self.legacyDecoders.contains(base) {
            reason = "`\(name)` decodes whatever classes the archive names"
        } else if Self.classDecoders.contains(base) {
            let classes = call.arguments.first { ["ofClasses", "of", "unarchivedObjectOfClasses", "decodeObjectOfClasses", "ofClass",
                                                   "unarchivedObjectOfClass", "decodeObjectOfClass"].contains($0.label ?? "") }?.value
            if let classes {
                if case .arrayLiteral = classes.unwrapped.kind {
                    reason = "`\(name)` decodes objects of the listed classes `\(text(classes))`"
                } else if classes.isCall || classes.referencedNames.contains(where: { $0.first?.isUppercase == false }) {
                    reason = "`\(name)` decodes objects whose allowed classes are computed at run time (`\(text(classes))`): verify the set is bounded, e.g. by conformance to a marker protocol"
                } else {
                    reason = "`\(name)` decodes objects of class `\(text(classes))`"
                }
            } else if Self.untypedDecoders.contains(base) {
                reason = "`\(name)` decodes an object without naming the class it expects"
            } else {
                reason = "`\(name)` decodes objects"
            }
        } else if let lookup = SinkTable.sinks(of: call, in: file, kinds: ThreatQuestion.objectDecoding.sinkKinds.intersection([.classLookup])).first {
            guard let argument = lookup.argument(.className), argument.stringValue == nil else { return }
            reason = "`\(base)` turns the run-time string `\(text(argument))` into a class"
        } else if Self.unarchiverInitializers.contains(base) {
            guard base != "NSKeyedUnarchiver" || !call.arguments.isEmpty else { return }
            reason = "creates a keyed unarchiver (`\(name)`): check `requiresSecureCoding` stays on and every decode names its classes"
        } else {
            return
        }
        let (phrases, _) = origins(at: call.range, roles: [.data, .className])
        if !phrases.isEmpty { reason += " (the data comes from \(Self.list(phrases)))" }
        let names = call.arguments.reduce(into: Set<String>()) { $0.formUnion(Self.names(in: $1.value)) }
        record(.objectDecoding, call.range, hunk, reason + ".", context: context, names: names)
    }

    // MARK: 4. Memory copies

    /// The sink table's memory copies and strings read from a buffer by a count (always asked: a copy by
    /// a length is worth a look), and its allocations when their size is a product or comes from outside.
    mutating func checkMemoryCopy(_ call: Expression, _ context: WalkContext, _ hunk: ChangeSet.Hunk) {
        var sites = SinkTable.sinks(of: call, in: file, kinds: ThreatQuestion.memoryCopy.sinkKinds)
        // A call that copies and allocates (`Data(bytes:count:)`) is asked about as the copy.
        if sites.contains(where: { $0.kind != .allocation }) { sites.removeAll { $0.kind == .allocation } }
        for site in sites {
            let lengthRoles: [SinkRole] = [.length, .count, .size]
            let length = lengthRoles.lazy.compactMap { site.argument($0) }.first
            let (phrases, _) = origins(at: site.range, roles: lengthRoles)
            let name = site.calledName
            var reason: String
            switch site.kind {
            case .allocation:
                guard let size = length, Self.containsProduct(size) || !phrases.isEmpty else { continue }
                reason = "`\(name)` allocates a computed size `\(text(size))`"
            case .stringFromBuffer:
                reason = "`\(name)` reads " + (length.map { "`\(text($0))` characters" } ?? "characters by a count")
            default:
                reason = "`\(name)` copies " + (length.map { "`\(text($0))` bytes" } ?? "until a terminator, with no length bound")
            }
            if let length {
                if length.isConstantLiteral {
                    reason += " (a constant: verify the source holds at least that many bytes)"
                } else if !phrases.isEmpty {
                    reason += " (the length comes from \(Self.list(phrases)))"
                }
                if site.kind != .allocation, Self.containsProduct(length) { reason += "; the size is a product: check it for overflow" }
            }
            var names = Set<String>()
            for argument in site.arguments.values { names.formUnion(Self.names(in: argument)) }
            record(.memoryCopy, call.range, hunk, reason + ".", context: context, names: names)
        }
    }
}
