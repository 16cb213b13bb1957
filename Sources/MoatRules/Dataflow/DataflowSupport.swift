import MoatCore
import MoatSyntax

/// Splits identifiers into words: `didReceiveData` → did, Receive, Data; `MCPeerID` → MC, Peer, ID;
/// `URLSession` → URL, Session; `from_id` → from, id.
enum CamelCase {
    static func words(_ text: String) -> [String] {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return asciiWords(text) }
        var words: [String] = []
        var current: [Character] = []
        let characters = Array(text)
        func flush() {
            if !current.isEmpty { words.append(String(current)) }
            current = []
        }
        for (index, character) in characters.enumerated() {
            guard character.isLetter || character.isNumber else {
                flush()
                continue
            }
            if character.isUppercase, let previous = current.last {
                let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && nextIsLower) { flush() }
            }
            current.append(character)
        }
        flush()
        return words
    }

    /// The same split on bytes, for ASCII text (identifiers almost always are): for ASCII, the Unicode
    /// letter, number and case properties are exactly these ranges, and a CR LF pair (one `Character`)
    /// separates words just as its two bytes do.
    private static func asciiWords(_ text: String) -> [String] {
        @inline(__always) func isUpper(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }
        @inline(__always) func isLower(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") }
        @inline(__always) func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        var words: [String] = []
        var current: [UInt8] = []
        let bytes = Array(text.utf8)
        func flush() {
            if !current.isEmpty { words.append(String(decoding: current, as: UTF8.self)) }
            current.removeAll(keepingCapacity: true)
        }
        for (index, byte) in bytes.enumerated() {
            guard isUpper(byte) || isLower(byte) || isDigit(byte) else {
                flush()
                continue
            }
            if isUpper(byte), let previous = current.last {
                let nextIsLower = index + 1 < bytes.count && isLower(bytes[index + 1])
                if isLower(previous) || isDigit(previous) || (isUpper(previous) && nextIsLower) { flush() }
            }
            current.append(byte)
        }
        flush()
        return words
    }
}

extension Expression {
    /// The access path of a plain chain of names: `name`, `components.host`, `session.state`. `self.` is
    /// dropped (`self.state` and `state` are the same inside a method); zero-argument Objective-C messages
    /// count as property reads (`[data length]` → `data.length`). nil for anything else.
    var accessPath: String? {
        var current = unwrapped
        // The common case, a bare name, without building a list.
        if case .identifier(let name) = current.kind { return name }
        var components: [String] = []
        while components.count < 64 {
            switch current.kind {
            case .identifier(let name):
                if name == "self" && !components.isEmpty { return Self.dotted(components) }
                components.append(name)
                return Self.dotted(components)
            case .member(let base?, let name):
                components.append(name)
                current = base.unwrapped
            case .call(let callee, let arguments, true) where arguments.isEmpty:
                guard case .member(let base?, let name) = callee.kind, !name.contains(":") else { return nil }
                components.append(name)
                current = base.unwrapped
            case .cast(let operand, _, let op) where op != "is":
                current = operand.unwrapped
            default:
                return nil
            }
        }
        return nil
    }

    /// Components collected from the leaf up, joined from the root down.
    private static func dotted(_ components: [String]) -> String {
        var result = ""
        for (index, component) in components.reversed().enumerated() {
            if index > 0 { result += "." }
            result += component
        }
        return result
    }

    /// The variable at the root of an access path (`components` for `components.host`): the first
    /// component of `accessPath`, found without building it.
    var rootName: String? {
        var current = unwrapped
        var count = 0
        var nearestToRoot: String?
        while count < 64 {
            switch current.kind {
            case .identifier(let name):
                if name == "self", let nearestToRoot { return Self.firstComponent(nearestToRoot) }
                return Self.firstComponent(name)
            case .member(let base?, let name):
                nearestToRoot = name
                count += 1
                current = base.unwrapped
            case .call(let callee, let arguments, true) where arguments.isEmpty:
                guard case .member(let base?, let name) = callee.kind, !name.contains(":") else { return nil }
                nearestToRoot = name
                count += 1
                current = base.unwrapped
            case .cast(let operand, _, let op) where op != "is":
                current = operand.unwrapped
            default:
                return nil
            }
        }
        return nil
    }

    /// What `split(separator: ".").first` gives of a component (one with a dot in it is cut there).
    private static func firstComponent(_ name: String) -> String {
        guard name.utf8.contains(UInt8(ascii: ".")) else { return name }
        return String(name.split(separator: ".").first ?? Substring(name))
    }

    /// The member name read by a property access or a zero-argument message, with its receiver.
    var propertyRead: (base: Expression, name: String)? {
        switch unwrapped.kind {
        case .member(let base?, let name): return (base, name)
        case .call(let callee, let arguments, true) where arguments.isEmpty:
            if case .member(let base?, let name) = callee.kind, !name.contains(":") { return (base, name) }
            return nil
        default: return nil
        }
    }

    /// The Swift base name or the first Objective-C selector piece of a call (`getBytes` for `getBytes:length:`).
    var baseCallName: String? {
        guard let name = name else { return nil }
        if let colon = name.firstIndex(of: ":") { return String(name[..<colon]) }
        return name
    }

    /// This expression's chain of names (`UIPasteboard.general`, `[UIPasteboard generalPasteboard]`,
    /// `self.webView`) mentions one of these names (exactly, or as a suffix: `myWebView`).
    func chainMentions(_ names: [String]) -> Bool {
        nameChain.contains { link in names.contains { link == $0 || link.hasSuffix($0) } }
    }
}

extension Block {
    /// The block always leaves the enclosing scope: it ends with return, throw, break, continue, a call that
    /// never returns, or an if/else whose branches all leave.
    var exits: Bool {
        guard let last = statements.last else { return false }
        return last.exits(depth: 0)
    }
}

extension Statement {
    var exits: Bool { exits(depth: 0) }

    func exits(depth: Int) -> Bool {
        guard depth < 64 else { return false }
        switch kind {
        case .returnStatement, .throwStatement: return true
        case .other(let text):
            let word = text.split(whereSeparator: { !$0.isLetter }).first.map(String.init) ?? ""
            return word == "break" || word == "continue" || word == "goto"
        case .expression(let expression):
            guard case .call(let callee, _, _) = expression.unwrapped.kind, let name = callee.name else { return false }
            return Transfers.neverReturning.contains(name)
        case .ifStatement(_, let then, let elseBranch):
            guard let elseBranch, let thenLast = then.statements.last, let elseLast = elseBranch.statements.last else { return false }
            return thenLast.exits(depth: depth + 1) && elseLast.exits(depth: depth + 1)
        case .block(let block): return block.statements.last?.exits(depth: depth + 1) ?? false
        default: return false
        }
    }
}

extension CodeFile {
    /// Every property and global variable, in types at any depth and at file scope.
    var allVariables: [VariableDeclaration] {
        var result: [VariableDeclaration] = []
        func collect(_ declarations: [Declaration]) {
            for declaration in declarations {
                switch declaration {
                case .variable(let variable): result.append(variable)
                case .type(let type): collect(type.members)
                case .conditional(let block): for clause in block.clauses { collect(clause.elements) }
                case .function: break
                }
            }
        }
        collect(declarations)
        return result
    }
}

enum PatternNames {
    /// Names bound by a pattern's text: `let x` → x; `let (a, b)` → a, b; `.success(let message)` → message;
    /// `let .some(x)` → x.
    static func bound(in text: String) -> [String] {
        guard text.hasText("let") || text.hasText("var") else { return [] }
        var names: [String] = []
        var sawBinder = false
        for word in text.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") }) {
            if word == "let" || word == "var" { sawBinder = true; continue }
            guard sawBinder, !word.hasPrefix("."), word != "_", word != "case", word != "is", word != "as",
                  let first = word.first, first.isLetter || first == "_" else { continue }
            if first.isUppercase { continue }
            names.append(String(word))
        }
        return names
    }
}

/// A short rendering of code for messages: the source text of an expression, on one line, shortened.
enum CodeText {
    static func of(_ expression: Expression?, in file: CodeFile, limit: Int = 60) -> String {
        guard let expression else { return "the value" }
        var text = file.text(expression.range)
        text = text.split(whereSeparator: { $0.isNewline })
            .map { line in String(line.drop(while: { $0 == " " || $0 == "\t" })) }.joined(separator: " ")
        if text.count > limit { text = String(text.prefix(limit - 1)) + "…" }
        return text
    }
}

extension StringProtocol {
    /// Whether `needle` occurs in this text, compared as UTF-8 bytes. Foundation's `contains` goes through
    /// NSString on Linux, which made it one of the dataflow engine's larger costs.
    func hasText(_ needle: String) -> Bool {
        let haystack = utf8
        let pattern = needle.utf8
        guard let first = pattern.first else { return true }
        var index = haystack.startIndex
        while index != haystack.endIndex {
            if haystack[index] == first, haystack[index...].starts(with: pattern) { return true }
            haystack.formIndex(after: &index)
        }
        return false
    }
}
