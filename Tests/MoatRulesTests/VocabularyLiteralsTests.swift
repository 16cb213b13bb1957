import Foundation
import Testing
import MoatCore
@testable import MoatRules

/// Each API is written once, in `Sources/MoatCore/Vocabulary`: a rule, a dataflow table, the attack surface,
/// the test plan or `moat diff` that writes a vocabulary spelling as a string literal — an Objective-C
/// selector (`unarchiveObjectWithData:`) or a Swift name with its labels (`write(to:)`) — instead of reading
/// it from `APIs` fails here. So does a C function the vocabulary declares (`CCCrypt`, `memcpy`), or the
/// symbol a binary imports for it (`_strcpy`), when its name is distinctive (see `isDistinctiveCSymbol`).
/// Other single words (`open`, `read`, `URL`) are not checked: as literals they are also message words,
/// display names, Swift method names and receivers' names. The spellings still written outside the
/// vocabulary are listed per file below (`leftovers`, and `cSymbolLeftovers` for C names); the lists may
/// only shrink: a leftover moved into the vocabulary must leave its list, and nothing may join it.
struct VocabularyLiteralsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Where API names are read: the rules and their tables, the code facts of the surface, the plan, `moat diff`.
    static let scanned = ["Sources/MoatRules", "Sources/MoatSyntax/Model/SurfaceFacts.swift", "Sources/MoatScan/ChangeReview",
                          "Sources/MoatReport/Plan"]

    /// The spellings checked: every selector and every Swift name with labels the vocabulary declares (and
    /// API names written that way).
    static let spellings: Set<String> = {
        var result = Set<String>()
        for api in APIs.all {
            for name in api.selectors + api.swift + [api.name] where isDistinctive(name) { result.insert(name) }
        }
        return result
    }()

    /// The C symbols checked: every C function the vocabulary declares, and the symbol a binary imports for
    /// it (`_strcpy`), when distinctive.
    static let cSymbols: Set<String> = {
        var result = Set<String>()
        for api in APIs.all {
            for name in api.cFunctions + api.importedFunctionSymbols where isDistinctiveCSymbol(name) { result.insert(name) }
        }
        return result
    }()

    /// A C name is checked when it cannot be an ordinary word: it has an uppercase letter, an underscore or a
    /// digit (`CCCrypt`, `sqlite3_exec`, `_rand`, `unzGetCurrentFileInfo64`), or it is at least six
    /// characters long (`memcpy`, `strlcpy`, `getenv`). Shorter lowercase names (`open`, `read`, `recv`,
    /// `fopen`, `fgets`, `bcopy`) are also Swift method names (`UIApplication.open(_:)`), permission and
    /// verb words of the tables, and are left out: as literals they would be false alarms.
    static func isDistinctiveCSymbol(_ name: String) -> Bool {
        name.count >= 6 || name.contains { $0.isUppercase || $0 == "_" || $0.isNumber }
    }

    static func isDistinctive(_ name: String) -> Bool {
        guard !name.contains(" ") else { return false }
        if name.hasSuffix(":"), !name.contains("(") { return true }
        return name.hasSuffix(":)") && name.contains("(")
    }

    /// The single-line string literals of a Swift source: comments and multi-line literals (rule
    /// examples, which are Swift or Objective-C code) left out.
    static func literals(in source: String) -> [String] {
        var result: [String] = []
        var inMultiLine = false
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let delimiters = line.components(separatedBy: "\"\"\"").count - 1
            if inMultiLine {
                if delimiters % 2 == 1 { inMultiLine = false }
                continue
            }
            if delimiters % 2 == 1 {
                inMultiLine = true
                continue
            }
            var inString = false, escaped = false
            var current = ""
            var previous: Character = " "
            for character in line {
                if inString {
                    if escaped {
                        escaped = false
                    } else if character == "\\" {
                        escaped = true
                    } else if character == "\"" {
                        inString = false
                        result.append(current)
                        current = ""
                        continue
                    }
                    current.append(character)
                } else {
                    if character == "/" && previous == "/" { break }
                    if character == "\"" { inString = true }
                    previous = character
                }
            }
        }
        return result
    }

    static func scannedFiles() throws -> [String] {
        var files: [String] = []
        for path in scanned {
            let url = root.appendingPathComponent(path)
            if path.hasSuffix(".swift") {
                files.append(path)
                continue
            }
            let enumerator = try #require(FileManager.default.enumerator(atPath: url.path))
            for case let relative as String in enumerator where relative.hasSuffix(".swift") { files.append(path + "/" + relative) }
        }
        return files.sorted()
    }

    @Test func apiNamesAreReadFromTheVocabulary() throws {
        let files = try Self.scannedFiles()
        #expect(files.count > 150, "the scanned folders moved: \(files.count) files")
        var seen: Set<String> = []
        for path in files {
            let source = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
            let found = Set(Self.literals(in: source).filter { Self.spellings.contains($0) || Self.cSymbols.contains($0) })
            let known = (Self.leftovers[path] ?? []).union(Self.cSymbolLeftovers[path] ?? [])
            seen.insert(path)
            for name in found.subtracting(known).sorted() {
                Issue.record("\(path) writes `\(name)`: read it from the vocabulary (APIs in Sources/MoatCore/Vocabulary), adding the API there if it is new")
            }
            for name in known.subtracting(found).sorted() {
                Issue.record("\(path) no longer writes `\(name)`: remove it from VocabularyLiteralsTests.leftovers")
            }
        }
        for path in Set(Self.leftovers.keys).union(Self.cSymbolLeftovers.keys).subtracting(seen).sorted() {
            Issue.record("\(path) is listed in VocabularyLiteralsTests.leftovers but was not scanned")
        }
    }

    @Test func theScanFindsSpellingsWhereThereAreSome() {
        // The scan itself can fail: these must be found, and examples and comments must not.
        let source = #"""
        static let names: Set<String> = ["unarchiveObjectWithData:", "write(to:)", "memcpy"] // "loadRequest:"
        .triggering("A.m", """
            [NSKeyedUnarchiver unarchiveObjectWithFile:@"x"];
            let s = "initForReadingWithData:"
            """),
        """#
        let found = Self.literals(in: source).filter(Self.spellings.contains)
        #expect(found == ["unarchiveObjectWithData:", "write(to:)"])
        #expect(Self.spellings.contains("initForReadingWithData:") && Self.spellings.contains("loadRequest:"))
        #expect(!Self.spellings.contains("memcpy"))
    }

    /// Spellings still written outside the vocabulary (issue 13 item 4 leftovers), by file: none left.
    static let leftovers: [String: Set<String>] = [:]

    /// C names (`cSymbols`) still written outside the vocabulary, by file: none left.
    static let cSymbolLeftovers: [String: Set<String>] = [:]
}
