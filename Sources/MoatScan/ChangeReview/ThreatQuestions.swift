import MoatCore
import MoatRules
import MoatSyntax

/// The four questions a pull request that touches outside input should answer (from Apple's "threat
/// modeling and anti-patterns" session): does it write a file path from outside data, advance a state
/// machine on a remote message, decode objects, copy memory by a length?
///
/// A "yes" is not a finding: it names the place and what a reviewer should verify there, even when no bug
/// is proven. Answers come from the code model (never from text matching), so comments and strings never
/// count.
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
    /// Conditions the same function tests before the first site, on the values involved (`line 12:
    /// data.length != sizeof(_uuid)`): what the author already checks, for the reviewer to confirm.
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
        var detector = Detector(file: file, hunks: hunks)
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

private struct Detector {
    let file: CodeFile
    let hunks: [ChangeSet.Hunk]
    private var found: [(question: ThreatQuestion, hunk: ChangeSet.Hunk, site: ThreatSite, checks: [String])] = []
    private var taintCache: [ObjectIdentifier: [String: Taint]] = [:]
    private var conditionCache: [ObjectIdentifier: [Check]] = [:]

    /// Where a name's value comes from: the function inputs it derives from, and whether it was reduced
    /// to a last path component on the way.
    struct Taint {
        var origins: Set<String>
        var lastPathComponent: Bool
    }

    struct Check {
        var line: Int
        var text: String
        var names: Set<String>
    }

    init(file: CodeFile, hunks: [ChangeSet.Hunk]) {
        self.file = file
        self.hunks = hunks
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
        found.append((question, hunk, site, checks(before: range.start.line, in: context.function, mentioning: names)))
    }

    /// Names read by an expression, members included (`data` and `length` for `data.length`).
    static func names(in expression: Expression) -> Set<String> {
        var result = Set<String>()
        for node in expression.descendants() {
            switch node.kind {
            case .identifier(let name): result.insert(name)
            default: break
            }
        }
        return result
    }

    /// Calls that read outside data even without a parameter in sight.
    static let sourceCalls: Set<String> = [
        "objectForKey:", "valueForKey:", "queryItems", "userInfo", "readDataToEndOfFile", "availableData",
        "dataWithContentsOfURL:", "stringWithContentsOfURL:encoding:error:", "contentsOfURL",
    ]

    mutating func taint(of function: FunctionDeclaration?) -> [String: Taint] {
        guard let function else { return [:] }
        let key = ObjectIdentifier(function)
        if let cached = taintCache[key] { return cached }
        var taint: [String: Taint] = [:]
        for parameter in function.parameters where parameter.name != "_" && !parameter.name.isEmpty {
            taint[parameter.name] = Taint(origins: [parameter.name], lastPathComponent: false)
        }
        func derived(_ expression: Expression) -> Taint? {
            var origins = Set<String>()
            var reduced = false
            var tainted = false
            for node in expression.descendants() {
                switch node.kind {
                case .identifier(let name):
                    if let known = taint[name] {
                        tainted = true
                        origins.formUnion(known.origins)
                        reduced = reduced || known.lastPathComponent
                    }
                case .member(_, let name):
                    if name == "lastPathComponent" { reduced = true }
                    if Self.sourceCalls.contains(name) {
                        tainted = true
                        origins.insert(name)
                    }
                case .call(let callee, _, _):
                    if let name = callee.name, Self.sourceCalls.contains(name) {
                        tainted = true
                        origins.insert(name)
                    }
                default: break
                }
            }
            return tainted ? Taint(origins: origins, lastPathComponent: reduced) : nil
        }
        function.body?.walk { node, _ in
            guard case .statement(let statement) = node else { return }
            switch statement.kind {
            case .variable(let names, _, let initializer?, _):
                if let value = derived(initializer) { for name in names { taint[name] = value } }
            case .declaration(.variable(let variable)):
                if let initializer = variable.initializer, let value = derived(initializer) { taint[variable.name] = value }
            case .assignment(let target, _, let value):
                if case .identifier(let name) = target.unwrapped.kind, let value = derived(value) { taint[name] = value }
            case .ifStatement(let conditions, _, _), .guardStatement(let conditions, _):
                for condition in conditions {
                    switch condition {
                    case .binding(let names, let value, _):
                        if let value = derived(value) { for name in names { taint[name] = value } }
                    case .pattern(let pattern, let value, _):
                        if let value = derived(value) { for name in Self.boundNames(pattern) { taint[name] = value } }
                    default: break
                    }
                }
            case .loop(let header, let variables, _):
                for expression in header {
                    if let value = derived(expression) { for name in variables { taint[name] = value } }
                }
            default: break
            }
        }
        taintCache[key] = taint
        return taint
    }

    /// `case let safe = x` → `safe`.
    static func boundNames(_ pattern: String) -> [String] {
        let keywords: Set<String> = ["case", "let", "var", "some", "none", "is", "as", "_"]
        var names: [String] = []
        var current = ""
        for character in pattern + " " {
            if character.isLetter || character.isNumber || character == "_" {
                current.append(character)
            } else {
                if !current.isEmpty, !keywords.contains(current), let first = current.first, !first.isNumber { names.append(current) }
                current = ""
            }
        }
        return names
    }

    mutating func conditions(of function: FunctionDeclaration) -> [Check] {
        let key = ObjectIdentifier(function)
        if let cached = conditionCache[key] { return cached }
        var checks: [Check] = []
        let file = self.file
        func add(_ range: SourceRange, _ expressions: [Expression], extra: [String] = []) {
            var names = Set(extra)
            for expression in expressions { names.formUnion(Self.names(in: expression)) }
            for expression in expressions {
                for node in expression.descendants() {
                    if case .member(_, let name) = node.kind { names.insert(name) }
                }
            }
            checks.append(Check(line: range.start.line, text: ThreatModel.clip(file.text(range), limit: 160), names: names))
        }
        function.body?.walk { node, _ in
            guard case .statement(let statement) = node else { return }
            let conditions: [Condition]
            switch statement.kind {
            case .ifStatement(let list, _, _), .guardStatement(let list, _): conditions = list
            case .loop(let header, _, _):
                if case .loop = statement.kind, let first = header.first, let last = header.last {
                    add(SourceRange(start: first.range.start, end: last.range.end), header)
                }
                return
            default: return
            }
            for condition in conditions {
                switch condition {
                case .expression(let expression): add(expression.range, [expression])
                case .binding(let names, let value, let range): add(range, [value], extra: names)
                case .pattern(let pattern, let value, let range): add(range, [value], extra: Self.boundNames(pattern))
                case .other: break
                }
            }
        }
        conditionCache[key] = checks
        return checks
    }

    mutating func checks(before line: Int, in function: FunctionDeclaration?, mentioning names: Set<String>) -> [String] {
        guard let function, !names.isEmpty else { return [] }
        return conditions(of: function).filter { $0.line <= line && !$0.names.isDisjoint(with: names) }
            .map { "line \($0.line): \($0.text)" }
    }

    static func callName(_ call: Expression) -> String {
        call.swiftCallName ?? call.name ?? ""
    }

    // MARK: 1. File paths

    static let pathBuilders: Set<String> = [
        "appendingPathComponent(_:)", "appendingPathComponent(_:isDirectory:)", "appending(path:)",
        "appending(component:)", "appending(components:)", "appending(path:directoryHint:)",
        "appending(component:directoryHint:)", "URL(fileURLWithPath:)", "URL(fileURLWithPath:isDirectory:)",
        "URL(fileURLWithPath:relativeTo:)", "URL(filePath:)", "URL(filePath:directoryHint:)",
        "appendingPathComponent:", "URLByAppendingPathComponent:", "URLByAppendingPathComponent:isDirectory:",
        "stringByAppendingPathComponent:", "fileURLWithPath:", "fileURLWithPath:isDirectory:",
    ]

    /// Writers, with the labels of the arguments that name the destination (nil: every argument).
    static let writers: [String: Set<String>?] = [
        "copyItem(at:to:)": ["to"], "copyItem(atPath:toPath:)": ["toPath"], "moveItem(at:to:)": ["to"],
        "moveItem(atPath:toPath:)": ["toPath"], "linkItem(at:to:)": ["to"], "linkItem(atPath:toPath:)": ["toPath"],
        "createFile(atPath:contents:attributes:)": ["atPath"], "createFile(atPath:contents:)": ["atPath"],
        "createDirectory(at:withIntermediateDirectories:attributes:)": ["at"],
        "createDirectory(atPath:withIntermediateDirectories:attributes:)": ["atPath"],
        "removeItem(at:)": ["at"], "removeItem(atPath:)": ["atPath"],
        "copyItemAtURL:toURL:error:": ["toURL"], "copyItemAtPath:toPath:error:": ["toPath"],
        "moveItemAtURL:toURL:error:": ["toURL"], "moveItemAtPath:toPath:error:": ["toPath"],
        "createFileAtPath:contents:attributes:": ["createFileAtPath"],
        "createDirectoryAtPath:withIntermediateDirectories:attributes:error:": ["createDirectoryAtPath"],
        "createDirectoryAtURL:withIntermediateDirectories:attributes:error:": ["createDirectoryAtURL"],
        "removeItemAtPath:error:": ["removeItemAtPath"], "removeItemAtURL:error:": ["removeItemAtURL"],
        "writeToFile:atomically:": ["writeToFile"], "writeToURL:atomically:": ["writeToURL"],
        "writeToFile:options:error:": ["writeToFile"], "writeToURL:options:error:": ["writeToURL"],
        "writeToFile:atomically:encoding:error:": ["writeToFile"], "writeToURL:atomically:encoding:error:": ["writeToURL"],
        "fopen": nil, "creat": nil, "rename": nil, "unlink": nil,
    ]

    mutating func checkFilePath(_ call: Expression, _ context: WalkContext, _ hunk: ChangeSet.Hunk) {
        let name = Self.callName(call)
        var arguments: [Expression]
        var action: String
        if Self.pathBuilders.contains(name) || (call.name.map(Self.pathBuilders.contains) ?? false) {
            arguments = call.arguments.map(\.value)
            action = "builds a file path"
        } else if name.hasPrefix("write(to:") || name.hasPrefix("write(toFile:") {
            arguments = call.arguments.filter { $0.label == "to" || $0.label == "toFile" }.map(\.value)
            action = "writes a file"
        } else if let labels = Self.writers[name] ?? (call.name.flatMap { Self.writers[$0] }) {
            if let labels {
                arguments = call.arguments.filter { $0.label.map(labels.contains) ?? false }.map(\.value)
            } else {
                arguments = Array(call.arguments.prefix(2).map(\.value))
            }
            action = name.contains("remove") || name == "unlink" ? "deletes a file" : "writes a file"
            if name == "open" || name == "fopen" || name == "creat" { action = "opens a file" }
        } else if case .identifier("open") = (call.unwrapped.kind.callee?.unwrapped.kind ?? .unknown("")), file.language.isCFamily {
            arguments = Array(call.arguments.prefix(1).map(\.value))
            action = "opens a file"
        } else {
            return
        }
        guard !arguments.isEmpty else { return }
        let taint = self.taint(of: context.function)
        var tainted: [String] = []
        var origins = Set<String>()
        var reduced = false
        for argument in arguments {
            for node in argument.descendants() {
                switch node.kind {
                case .identifier(let identifier):
                    if let info = taint[identifier] {
                        if !tainted.contains(identifier) { tainted.append(identifier) }
                        origins.formUnion(info.origins)
                        reduced = reduced || info.lastPathComponent
                    }
                case .member(_, "lastPathComponent"): reduced = true
                case .member(_, let member) where Self.sourceCalls.contains(member):
                    tainted.append(member)
                    origins.insert(member)
                default: break
                }
            }
        }
        guard !tainted.isEmpty else { return }
        let function = context.function.map { "`\($0.fullName)`" } ?? "this code"
        let inputs = origins.sorted().map { "`\($0)`" }.joined(separator: ", ")
        var reason = "\(action) from \(tainted.map { "`\($0)`" }.joined(separator: ", "))"
        reason += tainted.sorted() == origins.sorted() ? ", an input of \(function)" : ", derived from \(inputs) (input of \(function))"
        if reduced { reason += "; the name is reduced with `lastPathComponent`" }
        record(.filePath, call.range, hunk, reason + ".", context: context, names: Set(tainted).union(origins))
    }

    // MARK: 2. State machines

    static func isStateName(_ name: String) -> Bool {
        let lower = name.lowercased()
        return lower == "state" || lower == "status" || lower == "phase" || lower == "stage"
            || (lower.hasSuffix("state") && lower.count > 5) || (lower.hasSuffix("status") && lower.count > 6)
    }

    static let remoteWords = ["message", "packet", "payload", "remote", "peer", "didreceive", "received", "incoming",
                              "invite", "invitation", "datagram", "websocket"]

    /// The parameter (or name) that makes this function a handler of remote messages, if any.
    static func remoteInput(of function: FunctionDeclaration?) -> String? {
        guard let function else { return nil }
        for parameter in function.parameters {
            let text = [parameter.label ?? "", parameter.name, parameter.type ?? ""].joined(separator: " ").lowercased()
            if remoteWords.contains(where: text.contains) {
                return "`\(parameter.name)`" + (parameter.type.map { ": `\($0)`" } ?? "")
            }
        }
        let name = function.fullName.lowercased()
        if remoteWords.contains(where: name.contains) { return "`\(function.fullName)`" }
        return nil
    }

    mutating func checkStateAssignment(_ target: Expression, _ value: Expression, _ range: SourceRange,
                                       _ context: WalkContext, _ hunk: ChangeSet.Hunk) {
        let targetName: String
        switch target.unwrapped.kind {
        case .member(_, let name), .identifier(let name): targetName = name
        default: return
        }
        guard Self.isStateName(targetName), let input = Self.remoteInput(of: context.function),
              let function = context.function else { return }
        let reason = "sets `\(text(target))` to `\(text(value))` in `\(function.fullName)`, which handles a remote message (\(input))."
        let names = Self.names(in: target).union(function.parameters.map(\.name)).union([targetName])
        record(.stateMachine, range, hunk, reason, context: context, names: names)
    }

    mutating func checkStateCall(_ call: Expression, _ context: WalkContext, _ hunk: ChangeSet.Hunk) {
        guard let base = call.name else { return }
        let isTransition = base == "setState:" || base == "setStatus:" || base == "setState" || base == "transition"
            || base.hasPrefix("transition(") || base.hasPrefix("transitionTo") || base == "advanceState"
        guard isTransition, let input = Self.remoteInput(of: context.function), let function = context.function else { return }
        let reason = "calls `\(Self.callName(call))` in `\(function.fullName)`, which handles a remote message (\(input))."
        let names = (call.receiver.map(Self.names(in:)) ?? []).union(function.parameters.map(\.name)).union(["state", "status"])
        record(.stateMachine, call.range, hunk, reason, context: context, names: names)
    }

    // MARK: 3. Object decoding

    /// Decoders that accept any class named in the data.
    static let legacyDecoders = APIs.keyedUnarchiverLegacy.callNames
    /// Decoders given (or expected to be given) the classes they accept.
    static let classDecoders = APIs.keyedUnarchiverSecure.callNames.union(APIs.coderDecodeObject.callNames)
    /// Class lookups by a run-time name.
    static let classLookups = APIs.classLookup.callNames
    /// Keyed-unarchiver initializers (Swift base name `NSKeyedUnarchiver`, Objective-C selectors).
    static let unarchiverInitializers = APIs.keyedUnarchiverLegacyInit.callNames.union(APIs.keyedUnarchiverSecureInit.callNames)

    mutating func checkDecoding(_ call: Expression, _ context: WalkContext, _ hunk: ChangeSet.Hunk) {
        guard let base = call.name else { return }
        let name = Self.callName(call)
        let reason: String
        if Self.legacyDecoders.contains(base) {
            reason = "`\(name)` decodes whatever classes the archive names."
        } else if Self.classDecoders.contains(base) {
            let classes = call.arguments.first { ["ofClasses", "of", "unarchivedObjectOfClasses", "decodeObjectOfClasses", "ofClass",
                                                   "unarchivedObjectOfClass", "decodeObjectOfClass"].contains($0.label ?? "") }?.value
            if let classes {
                if case .arrayLiteral = classes.unwrapped.kind {
                    reason = "`\(name)` decodes objects of the listed classes `\(text(classes))`."
                } else if classes.isCall || classes.referencedNames.contains(where: { $0.first?.isUppercase == false }) {
                    reason = "`\(name)` decodes objects whose allowed classes are computed at run time (`\(text(classes))`): verify the set is bounded, e.g. by conformance to a marker protocol."
                } else {
                    reason = "`\(name)` decodes objects of class `\(text(classes))`."
                }
            } else if base == "decodeObject" || base == "decodeObjectForKey:" || base == "decodeTopLevelObject" {
                reason = "`\(name)` decodes an object without naming the class it expects."
            } else {
                reason = "`\(name)` decodes objects."
            }
        } else if Self.classLookups.contains(base) {
            guard let argument = call.arguments.first?.value, argument.stringValue == nil else { return }
            reason = "`\(base)` turns the run-time string `\(text(argument))` into a class."
        } else if Self.unarchiverInitializers.contains(base) {
            guard base != "NSKeyedUnarchiver" || !call.arguments.isEmpty else { return }
            reason = "creates a keyed unarchiver (`\(name)`): check `requiresSecureCoding` stays on and every decode names its classes."
        } else {
            return
        }
        let names = call.arguments.reduce(into: Set<String>()) { $0.formUnion(Self.names(in: $1.value)) }
        record(.objectDecoding, call.range, hunk, reason, context: context, names: names)
    }

    // MARK: 4. Memory copies

    /// C functions and the index of their length argument (nil: no length, copies to a terminator).
    static let cCopies: [String: Int?] = [
        "memcpy": 2, "memmove": 2, "memcpy_s": 3, "memmove_s": 3, "bcopy": 2, "strncpy": 2, "strlcpy": 2, "strncat": 2,
        "strlcat": 2, "wcsncpy": 2, "wmemcpy": 2, "CFDataGetBytes": 1, "strcpy": nil, "strcat": nil, "sprintf": nil,
        "wcscpy": nil, "gets": nil,
    ]

    /// Swift and Objective-C copies by a length: name → label of the length argument.
    static let lengthCopies: [String: String] = [
        "copyBytes(to:count:)": "count", "copyMemory(from:byteCount:)": "byteCount", "getBytes(_:length:)": "length",
        "getBytes(_:range:)": "range", "initialize(from:count:)": "count", "moveInitialize(from:count:)": "count",
        "update(from:count:)": "count", "assign(from:count:)": "count", "Data(bytes:count:)": "count",
        "NSData(bytes:length:)": "length", "Data(bytesNoCopy:count:deallocator:)": "count",
        "String(utf16CodeUnits:count:)": "count",
        "getBytes:length:": "length", "getBytes:range:": "range", "initWithBytes:length:": "length",
        "dataWithBytes:length:": "length", "initWithBytesNoCopy:length:": "length",
        "initWithBytesNoCopy:length:freeWhenDone:": "length", "dataWithBytesNoCopy:length:": "length",
        "dataWithBytesNoCopy:length:freeWhenDone:": "length", "initWithCharacters:length:": "length",
        "stringWithCharacters:length:": "length", "replaceBytesInRange:withBytes:length:": "length",
        "appendBytes:length:": "length", "initWithBytes:length:encoding:": "length",
    ]

    mutating func checkMemoryCopy(_ call: Expression, _ context: WalkContext, _ hunk: ChangeSet.Hunk) {
        guard let base = call.name else { return }
        let name = Self.callName(call)
        var length: Expression?
        var reason: String
        if case .identifier(let function) = (call.unwrapped.kind.callee?.unwrapped.kind ?? .unknown("")),
           let entry = Self.cCopies[function] {
            if let index = entry {
                guard index < call.arguments.count else { return }
                length = call.arguments[index].value
                reason = "`\(function)` copies `\(text(call.arguments[index].value))` bytes"
            } else {
                reason = "`\(function)` copies until a terminator, with no length bound"
            }
        } else if let label = Self.lengthCopies[name] ?? Self.lengthCopies[base] {
            length = call.argument(label)
            reason = "`\(name)` copies " + (length.map { "a length of `\(text($0))`" } ?? "by a length")
        } else if ["malloc", "calloc", "realloc", "alloca"].contains(base), case .identifier = (call.unwrapped.kind.callee?.unwrapped.kind ?? .unknown("")),
                  let size = call.arguments.last?.value, size.descendants().contains(where: { if case .binary("*", _, _) = $0.kind { true } else { false } }) {
            length = size
            reason = "`\(base)` allocates a computed size `\(text(size))`"
        } else {
            return
        }
        var names = Set<String>()
        for argument in call.arguments { names.formUnion(Self.names(in: argument.value)) }
        if let length {
            let taint = self.taint(of: context.function)
            let lengthNames = Self.names(in: length)
            let inputs = lengthNames.filter { taint[$0] != nil }.sorted()
            if length.isConstantLiteral {
                reason += " (a constant: verify the source holds at least that many bytes)"
            } else if !inputs.isEmpty {
                let origins = Set(inputs.flatMap { taint[$0]?.origins ?? [] }).subtracting(inputs).sorted()
                reason += " (the length comes from \(inputs.map { "`\($0)`" }.joined(separator: ", "))"
                reason += origins.isEmpty ? ", an input of this function)" : ", derived from \(origins.map { "`\($0)`" }.joined(separator: ", ")))"
            }
            let multiplies = length.descendants().contains { if case .binary("*", _, _) = $0.kind { true } else { false } }
            if multiplies { reason += "; the size is a product: check it for overflow" }
        }
        record(.memoryCopy, call.range, hunk, reason + ".", context: context, names: names)
    }
}

private extension Expression.Kind {
    var callee: Expression? {
        if case .call(let callee, _, _) = self { return callee }
        return nil
    }
}
