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
/// only shrink: a leftover moved into the vocabulary must leave its list, and nothing may join it. A selector
/// or labelled Swift name the vocabulary does not declare fails when any scanned file writes it
/// (`apiNamesWrittenInScannedFilesAreDeclared`), unless it is not an API name (`notAPINames`) or is one of
/// the file's `singleFileLeftovers`.
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

    /// An API name the vocabulary does not declare at all escapes `apiNamesAreReadFromTheVocabulary`: it is
    /// the drift the vocabulary is there to end (one file learns a new spelling, the other does not). Every
    /// selector-shaped (`setString:`) or labelled (`addItems(_:)`) single-line literal of a scanned file must
    /// be a vocabulary spelling, be listed in `notAPINames` with its reason, or be one of that file's
    /// `singleFileLeftovers` (a list that may only shrink). One file writing it is enough to fail.
    @Test func apiNamesWrittenInScannedFilesAreDeclared() throws {
        var sources: [String: String] = [:]
        for path in try Self.scannedFiles() {
            sources[path] = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
        }
        let found = Self.undeclaredNames(in: sources)
        var byFile: [String: Set<String>] = [:]
        for (name, paths) in found {
            for path in paths { byFile[path, default: []].insert(name) }
        }
        for (name, paths) in found.sorted(by: { $0.key < $1.key }) {
            for path in paths.sorted() where !(Self.singleFileLeftovers[path] ?? []).contains(name) {
                Issue.record("`\(name)` is written in \(path): declare the API in Sources/MoatCore/Vocabulary (APIs+Remaining.swift when no other file fits) and read it from there")
            }
        }
        for (path, names) in Self.singleFileLeftovers.sorted(by: { $0.key < $1.key }) {
            for name in names.subtracting(byFile[path] ?? []).sorted() {
                Issue.record("\(path) no longer writes `\(name)` undeclared: remove it from VocabularyLiteralsTests.singleFileLeftovers")
            }
        }
        for name in Self.notAPINames.keys.sorted() where Self.spellings.contains(name) {
            Issue.record("`\(name)` is declared in the vocabulary: remove it from VocabularyLiteralsTests.notAPINames")
        }
        for name in Self.notAPINames.keys.sorted() where !sources.values.contains(where: { Self.literals(in: $0).contains(name) }) {
            Issue.record("`\(name)` is no longer written: remove it from VocabularyLiteralsTests.notAPINames")
        }
    }

    @Test func theNameScanFindsUndeclaredNamesEvenInOneFile() {
        // The check itself can fail: an undeclared selector and an undeclared Swift name are found, in two
        // files or in one; a declared spelling, an allowed shape, a comment and an example are not.
        let sources = [
            "A.swift": #"static let names = ["madeUpSelector:withArgument:", "madeUp(_:with:)", "onlyHere:", "unarchiveObjectWithData:"]"#,
            "B.swift": #"""
            if name == "madeUpSelector:withArgument:" || name == "madeUp(_:with:)" { return } // "inAComment:"
            let example = """
                [x inAnExample:y];
                """
            """#,
            "C.swift": #"let a = "unarchiveObjectWithData:", b = "notAnAPI(key:)", c = ":""#,
            "D.swift": #"let b = "notAnAPI(key:)", c = ":", d = "a sentence: with a colon:""#,
        ]
        let found = Self.undeclaredNames(in: sources, allowing: ["notAnAPI(key:)": "a key shaped like a Swift name"])
        #expect(found == ["madeUpSelector:withArgument:": ["A.swift", "B.swift"], "madeUp(_:with:)": ["A.swift", "B.swift"],
                          "onlyHere:": ["A.swift"]])
        #expect(Self.isAPIShaped("setData:forPasteboardType:") && Self.isAPIShaped("UserDefaults.set(_:forKey:)"))
        #expect(!Self.isAPIShaped(":") && !Self.isAPIShaped("key: value:") && !Self.isAPIShaped("-[NSData initWithBase64EncodedString:]"))
    }

    /// Undeclared API-shaped literals (`isAPIShaped`, not in `spellings` nor `notAPINames`) written in the
    /// sources, with the files that write them.
    static func undeclaredNames(in sources: [String: String], allowing allowed: [String: String] = notAPINames) -> [String: Set<String>] {
        var files: [String: Set<String>] = [:]
        for (path, source) in sources {
            for name in literals(in: source) where isAPIShaped(name) && !spellings.contains(name) && allowed[name] == nil {
                files[name, default: []].insert(path)
            }
        }
        return files
    }

    /// A selector (`setString:`, `setData:forPasteboardType:`) or a Swift name with its labels
    /// (`addItems(_:)`, `UserDefaults.set(_:forKey:)`): `isDistinctive`, starting with a letter or `_` and
    /// made of identifier characters, colons, dots and parentheses only (not `:` or a message fragment).
    static func isAPIShaped(_ name: String) -> Bool {
        guard isDistinctive(name), let first = name.first, first.isLetter || first == "_" else { return false }
        return name.allSatisfy { $0.isLetter || $0.isNumber || "_:().".contains($0) }
    }

    /// Literals shaped like API names that are not API names, with the reason.
    static let notAPINames: [String: String] = [
        "Length:": "a selector suffix BufferLengthRule matches (`dataWithLength:`, `initWithLength:`), not a selector",
        "Name:": "an argument label searched in source text for a Core Data model name (`modelWithName:`), not a selector",
        "name:": "an argument label searched in source text for a Core Data model name (`NSPersistentContainer(name:)`)",
        "forResource:": "an argument label searched in source text for a model resource name (`url(forResource:withExtension:)`)",
        "URLForResource:": "a selector's first part searched in source text for a model resource name, not the whole selector",
        "project:": "the prefix of an app's place identifier (`project:path`), not an API",
        "file:": "a URL scheme prefix (`file:`), not an API",
        "appendingPathComponent:": "no class declares it: the Swift name `appendingPathComponent(_:)` with a colon (`pathAppending` has the selectors)",
        "appendingPathComponent:isDirectory:": "no class declares this selector (see `appendingPathComponent:`)",
        "userContentController:": "the first part every `WKScriptMessageHandler` selector starts with, matched as a prefix",
        "loadURL:": "the name apps give their own web-view loading wrappers (beside `loadUrl`), which PLAT-210 counts as a load: no SDK class declares it",
    ]

    /// Undeclared API names (`isAPIShaped`) still written as literals in a single scanned file, by file
    /// (issue 13 item 4 leftovers): the list may only shrink. The sinks' and the crypto sites' short names
    /// in messages differ from their vocabulary API's name (changing them changes findings); what they
    /// match is read from the vocabulary already (`APISpelling(APIs.…)`).
    static let singleFileLeftovers: [String: Set<String>] = [
        "Sources/MoatRules/Crypto/CryptoConstantSites.swift": ["Realm.Configuration(encryptionKey:)"],
        "Sources/MoatRules/Dataflow/Tables/Sinks.swift": ["UIApplication.open(_:)", "WKUserScript(source:)", "allocate(byteCount:)"],
    ]

    /// Spellings still written outside the vocabulary (issue 13 item 4 leftovers), by file: none left.
    static let leftovers: [String: Set<String>] = [:]

    /// C names (`cSymbols`) still written outside the vocabulary, by file: none left.
    static let cSymbolLeftovers: [String: Set<String>] = [:]
}
