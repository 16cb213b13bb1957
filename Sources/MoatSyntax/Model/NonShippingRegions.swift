import MoatCore

// The parts of a source file that do not ship (see `NonShippingReason` for the one definition):
// - `#if` clauses (Swift `#if/#elseif/#else`, C-family `#if/#ifdef/#ifndef/#elif/#else`) whose condition
//   can only hold in a debug or a simulator build: `DEBUG`, `defined(DEBUG)`, `targetEnvironment(simulator)`,
//   `TARGET_OS_SIMULATOR`, `TARGET_IPHONE_SIMULATOR`, combined with `&&`, `||` and `!`. An `#else` clause
//   holds when every earlier condition is false, so the `#else` of `#if DEBUG` ships and the `#else` of
//   `#if !DEBUG` does not. Directives are read from the text, line by line (outside comments), so the
//   answer is the same however the front end lowered the group.
// - SwiftUI preview providers: a type or extension that adopts `PreviewProvider`. (`#Preview { }` bodies
//   are freestanding macro declarations the Swift front end does not lower: no rule can report in them.)
// - The `then` branch of `if <value> == .debug { … }` (or `.debug == <value>`) and of
//   `if _isDebugAssertConfiguration() { … }`: code for a debug build configuration. Its `else` ships.
// - `#if` clauses for other platforms (`CompilationCondition.value(on:)`): none of Apple's compiles them
//   (`os(Linux)`, `__linux__`), or only some do (`os(macOS)`: the region's `condition` names them, the app
//   model decides with the targets compiling the file).
// - Availability fallbacks (`#available` else-branches, `#unavailable` bodies): their `condition` holds the
//   versions checked, the app model compares them with the deployment targets.

extension NonShippingRegion {
    /// Non-shipping regions of a file, in source order (nested regions may overlap).
    /// `mentionsDebug`: whether the file names `debug` or `_isDebugAssertConfiguration` at all (from the
    /// summary's names), so that only those files are walked for debug-configuration checks.
    public static func regions(in file: CodeFile, mentionsDebug: Bool = true) -> [NonShippingRegion] {
        var regions = conditionalRegions(in: file)
        for type in file.allTypes where type.inherits.contains(where: { Self.lastComponent($0) == "PreviewProvider" }) {
            regions.append(NonShippingRegion(range: type.range, reason: .preview))
        }
        let mentionsAvailability = mentionsAvailabilityCheck(file.source)
        if mentionsDebug || mentionsAvailability {
            file.forEachStatement { statement, _ in
                if mentionsAvailability { regions.append(contentsOf: availabilityRegions(of: statement)) }
                guard mentionsDebug, case .ifStatement(let conditions, let then, _) = statement.kind, conditions.count == 1,
                      case .expression(let condition) = conditions[0], isDebugConfigurationCheck(condition) else { return }
                regions.append(NonShippingRegion(range: then.range, reason: .debugOnly))
            }
        }
        return regions.sorted { ($0.startLine, $0.startColumn, $0.endLine) < ($1.startLine, $1.startColumn, $1.endLine) }
    }

    init(range: SourceRange, reason: NonShippingReason, condition: String? = nil) {
        self.init(startLine: range.start.line, startColumn: range.start.column,
                  endLine: range.end.line, endColumn: range.end.column, reason: reason, condition: condition)
    }

    // MARK: Availability

    /// Whether the text holds `available(` (`#available`, `#unavailable`, `@available`, `__builtin_available`):
    /// only those files are walked for availability checks.
    static func mentionsAvailabilityCheck(_ source: String) -> Bool {
        func search(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            let needle = Array("vailable(".utf8)
            guard bytes.count >= needle.count else { return false }
            var index = 0
            while index + needle.count <= bytes.count {
                if bytes[index] == needle[0] {
                    var matches = true
                    for offset in 1..<needle.count where bytes[index + offset] != needle[offset] { matches = false; break }
                    if matches { return true }
                }
                index += 1
            }
            return false
        }
        return source.utf8.withContiguousStorageIfAvailable(search) ?? Array(source.utf8).withUnsafeBufferPointer(search)
    }

    /// The branches of an availability check that run only on an OS older than the versions it names:
    /// the `else` of `if #available(...)` and the body of `guard #available(...) else` when the check is the
    /// only condition (another one failing runs them too), and the body of `if #unavailable(...)` whatever
    /// else it asks. Objective-C `if (@available(...))` and `__builtin_available` alike.
    static func availabilityRegions(of statement: Statement) -> [NonShippingRegion] {
        switch statement.kind {
        case .ifStatement(let conditions, let then, let elseBranch):
            var regions: [NonShippingRegion] = []
            for case .other(let text, _) in conditions {
                if let (condition, negated) = availabilityCheck(text), negated {
                    regions.append(NonShippingRegion(range: then.range, reason: .belowDeploymentTarget, condition: condition.text))
                    break
                }
            }
            if conditions.count == 1, case .other(let text, _) = conditions[0], let elseBranch,
               let (condition, negated) = availabilityCheck(text), !negated {
                regions.append(NonShippingRegion(range: elseBranch.range, reason: .belowDeploymentTarget, condition: condition.text))
            }
            return regions
        case .guardStatement(let conditions, let elseBody):
            guard conditions.count == 1, case .other(let text, _) = conditions[0],
                  let (condition, negated) = availabilityCheck(text), !negated else { return [] }
            return [NonShippingRegion(range: elseBody.range, reason: .belowDeploymentTarget, condition: condition.text)]
        default:
            return []
        }
    }

    /// `#available(iOS 13.0, macOS 10.15, *)` → (the versions, false); `#unavailable(iOS 15)` → (…, true).
    /// nil for another condition, or a specification not read (`iOS 13` only with a version).
    static func availabilityCheck(_ text: String) -> (PlatformCondition, negated: Bool)? {
        var body = text.trimmingSpaces()
        if body.hasSuffix(",") { body.removeLast() }
        let negated: Bool
        if body.hasPrefix("#available(") || body.hasPrefix("@available(") || body.hasPrefix("__builtin_available(") {
            negated = false
        } else if body.hasPrefix("#unavailable(") {
            negated = true
        } else {
            return nil
        }
        guard let open = body.firstIndex(of: "("), let close = body.lastIndex(of: ")"), open < close else { return nil }
        var versions: [ApplePlatform: OSVersion] = [:]
        var otherPlatforms = false
        for part in body[body.index(after: open)..<close].split(separator: ",") {
            let words = part.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
            if words.count == 1, words[0] == "*" { otherPlatforms = true; continue }
            guard words.count == 2, let version = OSVersion(String(words[1])) else { return nil }
            // Another platform name (`macCatalyst`): its check is left to the platforms named.
            guard let platform = ApplePlatform(availabilityName: String(words[0])) else { continue }
            versions[platform] = version
        }
        guard !versions.isEmpty else { return nil }
        return (.unavailable(versions: versions, otherPlatforms: otherPlatforms), negated)
    }

    static func lastComponent(_ name: String) -> Substring {
        let trimmed = name.split(separator: "<").first ?? Substring(name)
        return trimmed.split(separator: ".").last ?? trimmed
    }

    /// `x == .debug`, `.debug == x`, `_isDebugAssertConfiguration()`.
    static func isDebugConfigurationCheck(_ expression: Expression) -> Bool {
        switch expression.kind {
        case .binary(let op, let lhs, let rhs) where op == "==":
            return [lhs, rhs].contains { side in
                if case .member(nil, "debug") = side.kind { return true }
                return false
            }
        case .call(let callee, let arguments, _):
            return arguments.isEmpty && callee.name == "_isDebugAssertConfiguration"
        case .wrapped(_, let inner):
            return isDebugConfigurationCheck(inner)
        default:
            return false
        }
    }

    // MARK: Conditional compilation

    private struct OpenGroup {
        var previous: [CompilationCondition] = []
        var clauseStartLine: Int
        var clauseReason: NonShippingReason?
        /// For an `otherPlatform` clause: the platforms that may compile it (nil: none does).
        var clauseCondition: String?
    }

    static func conditionalRegions(in file: CodeFile) -> [NonShippingRegion] {
        let directives = directiveLines(in: file)
        guard !directives.isEmpty else { return [] }
        var regions: [NonShippingRegion] = []
        var stack: [OpenGroup] = []
        func close(_ group: OpenGroup, before line: Int) {
            if let reason = group.clauseReason, group.clauseStartLine + 1 <= line - 1 {
                regions.append(NonShippingRegion(startLine: group.clauseStartLine + 1, startColumn: 1,
                                                 endLine: line - 1, endColumn: Int.max, reason: reason,
                                                 condition: group.clauseCondition))
            }
        }
        func open(_ condition: CompilationCondition?, at line: Int, after previous: [CompilationCondition]) -> OpenGroup {
            // The clause holds when every earlier condition is false and its own is true.
            var reason: NonShippingReason?
            for earlier in previous { reason = reason ?? earlier.reasonWhenFalse }
            if let condition { reason = reason ?? condition.reasonWhenTrue }
            var platformCondition: String?
            if reason == nil {
                // The platforms on which the clause may be compiled: no earlier condition is surely true there
                // and its own is not surely false.
                let compiled = ApplePlatform.allCases.filter { platform in
                    !previous.contains { $0.value(on: platform) == true } && condition?.value(on: platform) != false
                }
                if compiled.isEmpty {
                    reason = .otherPlatform
                } else if compiled.count < ApplePlatform.allCases.count {
                    reason = .otherPlatform
                    platformCondition = PlatformCondition.compiledFor(Set(compiled)).text
                }
            }
            return OpenGroup(previous: previous + (condition.map { [$0] } ?? []), clauseStartLine: line, clauseReason: reason,
                             clauseCondition: platformCondition)
        }
        for (line, text) in directives {
            let (keyword, rest) = splitDirective(text)
            switch keyword {
            case "if":
                stack.append(open(CompilationCondition.parse(rest), at: line, after: []))
            case "ifdef":
                stack.append(open(.atom(rest.trimmingSpaces()), at: line, after: []))
            case "ifndef":
                stack.append(open(.not(.atom(rest.trimmingSpaces())), at: line, after: []))
            case "elseif", "elif":
                guard let group = stack.popLast() else { continue }
                close(group, before: line)
                stack.append(open(CompilationCondition.parse(rest), at: line, after: group.previous))
            case "else":
                guard let group = stack.popLast() else { continue }
                close(group, before: line)
                stack.append(open(nil, at: line, after: group.previous))
            case "endif":
                guard let group = stack.popLast() else { continue }
                close(group, before: line)
            default:
                continue
            }
        }
        return regions
    }

    /// `#if COND` → ("if", "COND"); `# ifdef X` → ("ifdef", "X"). Trailing comments removed.
    static func splitDirective(_ text: String) -> (String, String) {
        var body = Substring(text.drop { $0 == " " || $0 == "\t" }.dropFirst())
        body = body.drop { $0 == " " || $0 == "\t" }
        let keyword = body.prefix { $0.isLetter }
        var rest = Array(body.dropFirst(keyword.count))
        // A comment ends the condition.
        if let slash = rest.indices.first(where: { rest[$0] == "/" && $0 + 1 < rest.count && (rest[$0 + 1] == "/" || rest[$0 + 1] == "*") }) {
            rest = Array(rest[..<slash])
        }
        return (String(keyword), String(rest))
    }

    /// Lines whose first non-blank character is `#` and that start outside a comment, with their text.
    static func directiveLines(in file: CodeFile) -> [(line: Int, text: String)] {
        var result: [(Int, String)] = []
        // Every byte of every file goes through here: on the contiguous bytes when the string has them.
        func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> [(line: Int, offset: Int)] {
            var candidates: [(line: Int, offset: Int)] = []
            var line = 1
            var atLineStart = true
            for offset in 0..<bytes.count {
                let byte = bytes[offset]
                if byte == UInt8(ascii: "\n") {
                    line += 1
                    atLineStart = true
                } else if atLineStart {
                    if byte == UInt8(ascii: "#") { candidates.append((line, offset)) }
                    if byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") { atLineStart = false }
                }
            }
            return candidates
        }
        let candidates = file.source.utf8.withContiguousStorageIfAvailable(scan) ?? Array(file.source.utf8).withUnsafeBufferPointer(scan)
        guard !candidates.isEmpty else { return [] }
        for candidate in candidates {
            if file.comments.contains(where: { $0.range.start.offset < candidate.offset && candidate.offset < $0.range.end.offset }) {
                continue
            }
            result.append((candidate.line, file.line(candidate.line)))
        }
        return result
    }
}

extension String {
    func trimmingSpaces() -> String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" || first == "\r" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" || last == "\r" { slice.removeLast() }
        return String(slice)
    }
}

/// A compilation condition, parsed just enough to know whether it can only hold in a debug or a
/// simulator build.
indirect enum CompilationCondition: Equatable {
    case atom(String)
    case not(CompilationCondition)
    case and(CompilationCondition, CompilationCondition)
    case or(CompilationCondition, CompilationCondition)
    case unknown

    /// Why code under this condition does not ship, when the condition can only be true in such builds.
    var reasonWhenTrue: NonShippingReason? {
        switch self {
        case .atom(let name):
            switch name {
            case "DEBUG": return .debugOnly
            case "targetEnvironment(simulator)", "TARGET_OS_SIMULATOR", "TARGET_IPHONE_SIMULATOR": return .simulatorOnly
            default: return nil
            }
        case .not(let inner): return inner.reasonWhenFalse
        case .and(let lhs, let rhs): return lhs.reasonWhenTrue ?? rhs.reasonWhenTrue
        case .or(let lhs, let rhs):
            guard let left = lhs.reasonWhenTrue, rhs.reasonWhenTrue != nil else { return nil }
            return left
        case .unknown: return nil
        }
    }

    /// Why code does not ship when this condition is false, if it can only be false in such builds.
    var reasonWhenFalse: NonShippingReason? {
        switch self {
        case .atom, .unknown: return nil
        case .not(let inner): return inner.reasonWhenTrue
        case .and(let lhs, let rhs):
            guard let left = lhs.reasonWhenFalse, rhs.reasonWhenFalse != nil else { return nil }
            return left
        case .or(let lhs, let rhs): return lhs.reasonWhenFalse ?? rhs.reasonWhenFalse
        }
    }

    /// Whether the condition holds in a build for an Apple platform: true or false when it surely does or
    /// does not, nil when it depends on more than the platform (`DEBUG`, `canImport(SomeKit)`, `arch(arm64)`).
    /// `os(...)` of an Apple platform; other operating systems (`os(Linux)`, `os(Windows)`, `os(Android)`...),
    /// their C libraries (`canImport(Glibc)`, `canImport(WinSDK)`...) and their C predefined macros
    /// (`__linux__`, `_WIN32`, `__ANDROID__`...) never hold; `__APPLE__` always does.
    func value(on platform: ApplePlatform) -> Bool? {
        switch self {
        case .atom(let name):
            if name.hasPrefix("os("), name.hasSuffix(")") {
                let system = name.dropFirst(3).dropLast()
                switch system {
                case "iOS": return platform == .iOS
                case "macOS", "OSX": return platform == .macOS
                case "tvOS": return platform == .tvOS
                case "watchOS": return platform == .watchOS
                case "visionOS", "xrOS": return platform == .visionOS
                default: return Self.otherOperatingSystems.contains(String(system)) ? false : nil
                }
            }
            if name.hasPrefix("canImport("), name.hasSuffix(")") {
                return Self.otherPlatformModules.contains(String(name.dropFirst("canImport(".count).dropLast())) ? false : nil
            }
            if name == "__APPLE__" { return true }
            return Self.otherPlatformMacros.contains(name) ? false : nil
        case .not(let inner):
            return inner.value(on: platform).map { !$0 }
        case .and(let lhs, let rhs):
            let left = lhs.value(on: platform), right = rhs.value(on: platform)
            if left == false || right == false { return false }
            if left == true && right == true { return true }
            return nil
        case .or(let lhs, let rhs):
            let left = lhs.value(on: platform), right = rhs.value(on: platform)
            if left == true || right == true { return true }
            if left == false && right == false { return false }
            return nil
        case .unknown:
            return nil
        }
    }

    /// `os(...)` names of operating systems no Apple platform is.
    static let otherOperatingSystems: Set<String> = [
        "Linux", "Windows", "Android", "FreeBSD", "OpenBSD", "WASI", "Cygwin", "Haiku", "PS4", "none",
    ]
    /// Modules only other operating systems have: their C libraries.
    static let otherPlatformModules: Set<String> = [
        "Glibc", "Musl", "Bionic", "Android", "WinSDK", "ucrt", "CRT", "WASILibc",
    ]
    /// C predefined macros only compilers for other operating systems define.
    static let otherPlatformMacros: Set<String> = [
        "__linux__", "__linux", "linux", "__gnu_linux__", "__ANDROID__", "ANDROID", "_WIN32", "_WIN64", "WIN32",
        "__CYGWIN__", "__MINGW32__", "__MINGW64__", "_MSC_VER", "__FreeBSD__", "__OpenBSD__", "__NetBSD__",
        "__EMSCRIPTEN__", "__wasm__", "__HAIKU__",
    ]

    static func parse(_ text: String) -> CompilationCondition {
        var parser = Parser(tokens: tokenize(text))
        let result = parser.parseOr()
        return parser.index == parser.tokens.count ? result : .unknown
    }

    static func tokenize(_ text: String) -> [String] {
        var tokens: [String] = []
        var current = ""
        func flush() { if !current.isEmpty { tokens.append(current); current = "" } }
        var characters = Array(text)[...]
        while let character = characters.first {
            characters = characters.dropFirst()
            if character.isLetter || character.isNumber || character == "_" || character == "." {
                current.append(character)
            } else {
                flush()
                if character == " " || character == "\t" || character == "\r" || character == "\\" { continue }
                if (character == "&" || character == "|" || character == "=") && characters.first == character {
                    characters = characters.dropFirst()
                    tokens.append(String([character, character]))
                } else if character == "!" && characters.first == "=" {
                    characters = characters.dropFirst()
                    tokens.append("!=")
                } else {
                    tokens.append(String(character))
                }
            }
        }
        flush()
        return tokens
    }

    struct Parser {
        let tokens: [String]
        var index = 0

        var peek: String? { index < tokens.count ? tokens[index] : nil }

        mutating func parseOr() -> CompilationCondition {
            var result = parseAnd()
            while peek == "||" {
                index += 1
                result = .or(result, parseAnd())
            }
            return result
        }

        mutating func parseAnd() -> CompilationCondition {
            var result = parseUnary()
            while peek == "&&" {
                index += 1
                result = .and(result, parseUnary())
            }
            return result
        }

        mutating func parseUnary() -> CompilationCondition {
            if peek == "!" {
                index += 1
                return .not(parseUnary())
            }
            return parsePrimary()
        }

        mutating func parsePrimary() -> CompilationCondition {
            guard let token = peek else { return .unknown }
            if token == "(" {
                index += 1
                let inner = parseOr()
                if peek == ")" { index += 1 } else { return .unknown }
                return inner
            }
            guard token.first.map({ $0.isLetter || $0 == "_" || $0.isNumber }) == true else { return .unknown }
            index += 1
            var result: CompilationCondition = .atom(token)
            if peek == "(" {
                // `defined(X)`, `targetEnvironment(simulator)`, `os(iOS)`, `canImport(UIKit)`.
                index += 1
                var argument = ""
                while let next = peek, next != ")" { argument += next; index += 1 }
                guard peek == ")" else { return .unknown }
                index += 1
                result = token == "defined" ? .atom(argument) : .atom("\(token)(\(argument))")
            }
            // `DEBUG == 1`, `TARGET_OS_SIMULATOR != 0`: compared with a number.
            if let comparison = peek, comparison == "==" || comparison == "!=" {
                index += 1
                guard let number = peek, let value = Int(number) else { return .unknown }
                index += 1
                let isTrue = (comparison == "==") == (value != 0)
                return isTrue ? result : .not(result)
            }
            if token == "0" { return .atom("0") }
            return result
        }
    }
}
