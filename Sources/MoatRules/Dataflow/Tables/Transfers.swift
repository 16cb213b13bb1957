import MoatCore
import MoatSyntax

// THE table of transfers: how a value moves through a call or a member read. Anything not listed here
// passes through: a call on a tainted receiver or with tainted arguments returns their taints (what a
// function of the scanned code does is read from its summary instead).

/// What a call returns, given the taints that went into it (its receiver and arguments).
enum ResultEffect: Sendable, Hashable {
    /// Returns nothing an attacker shaped (a Boolean answer).
    case dropsTaint
    /// Returns the inputs with these checks added (a number, an escaped or encoded string).
    case adds(Set<TaintCheck>)
    /// Builds a file path or URL from its receiver and arguments: each argument gets a path step, and
    /// appending to a receiver the app chose keeps the app's scheme and host.
    case buildsPath
    /// `min(x, limit)`: bounded above when one of the arguments carries no taint (a limit the app chose);
    /// otherwise the inputs pass through.
    case boundedByAnUntaintedArgument
    /// Returns its inputs as they are (a decoder: what the data says).
    case passesThrough
}

/// How a call-result entry recognizes a call. An entry matches when any of its ways matches.
struct CallMatch: Sendable, Hashable {
    /// The call's name (`Int`, `dataWithJSONObject:options:error:`) is one of these.
    var names = APISpelling()
    /// The call's name or its base name (`addingPercentEncoding` of `addingPercentEncoding(withAllowedCharacters:)`,
    /// `stringByAppendingPathComponent` of the selector) is one of these.
    var namesOrBaseNames = APISpelling()
    /// With the Swift spellings of `names`: the first argument carries this label (`data(withJSONObject:)`).
    var firstLabel: String?
    /// With the Swift spellings of `names`: the receiver's chain of names mentions one of these
    /// (`encoder.encode(value)`).
    var receivers: [String] = []
    /// The base name's words fit this rule (functions the app names itself).
    var words: WordRule?
    /// Some argument carries one of these labels (`URL(fileURLWithPath:)`, `appending(path:)`)...
    var argumentLabels: Set<String> = []
    /// ...unless the base name is one of these (`write(to:)` is a sink, not a builder).
    var exceptBaseNames: Set<String> = []
}

/// An entry that decides what a call returns: a transfer (this file) or a check (`Checks.results`).
struct CallResultRule: Sendable {
    /// A short name for the README and tests (`predicate-named callee`).
    var name: String
    var match: CallMatch
    var effect: ResultEffect
    /// The kinds of flow whose taints the effect applies to (others pass through unchanged).
    var kinds: Set<FlowKind> = FlowKind.every
    /// When several entries match a call, the lowest precedence wins.
    var precedence: Int
    /// Why the entry exists (the README lists it).
    var rationale: String
}

/// What reading a member does to a taint (`url.query`, `data.count`, `path.lastPathComponent`).
enum MemberEffect: Sendable, Hashable {
    /// The member is a Boolean or a hash: nothing an attacker shaped.
    case dropsTaint
    /// Adds a check (a size, a number, a part of a URL).
    case adds(TaintCheck)
    /// `lastPathComponent`: a name inside a path; path checks made before no longer apply.
    case takesLastPathComponent
    /// Standardizing a path (`standardizedFileURL`): a prefix check made before no longer applies.
    case standardizes
}

/// One member entry.
struct MemberTransfer: Sendable {
    var spelling: APISpelling
    var effect: MemberEffect
    var kinds: Set<FlowKind> = FlowKind.every
    /// Also recognized as a call without arguments (`url.resolvingSymlinksInPath()`, `[s intValue]`).
    var readsAsCall = false
}

/// What a call does to values other than its result.
enum CallTransferEffect: Sendable, Hashable {
    /// The arguments flow into the receiver's root variable (`names.append(name)`); the call returns nothing.
    case mutatesReceiver
    /// The argument at `from` flows into the root variable of the argument at `into` (`memcpy(dst, src, n)`),
    /// when the call has `arity` arguments.
    case copiesArgument(from: Int, into: Int, arity: Int)
    /// The closures passed to the call receive the receiver's elements (`items.map { ... }`); with
    /// `skipsFirstParameter`, the first closure parameter is the accumulator (`reduce`).
    case elementsToClosure(skipsFirstParameter: Bool)
    /// With `&value` as first argument, the closure's parameters point into that fixed-size value
    /// (`withUnsafeMutableBytes(of: &header) { ... }`).
    case fixedBufferToClosure
}

struct CallTransfer: Sendable {
    var spelling: APISpelling
    var effect: CallTransferEffect
    var kinds: Set<FlowKind> = FlowKind.every
    /// Matched on the base name as well as the full name.
    var byBaseName = false
}

enum Transfers {
    // MARK: What a call returns

    static let results: [CallResultRule] = [
        CallResultRule(
            name: "predicate-named callee",
            match: CallMatch(namesOrBaseNames: APISpelling(swift: ["fileExists"], objc: ["fileExistsAtPath"]),
                             words: .firstWord(["is", "has", "contains", "can", "should", "starts", "ends", "validate", "matches"])),
            effect: .dropsTaint, precedence: 10,
            rationale: "A function whose name's first word is is, has, contains, can, should, starts, ends, validate or matches "
                + "(isValid(_:), hasPrefix(_:), containsObject:, canOpenURL:, startsWith) answers a question about its input: "
                + "its Boolean result carries nothing an attacker shaped. FileManager.fileExists(atPath:) likewise."),
        CallResultRule(
            name: "system-created directory",
            match: CallMatch(names: APISpelling(APIs.systemDirectoryForVolume), firstLabel: "for"),
            effect: .dropsTaint, precedence: 15,
            rationale: "FileManager.url(for:in:appropriateFor:create:) returns a folder the system names (a fresh "
                + ".itemReplacementDirectory, Documents, Caches): the URL passed as appropriateFor only picks the volume, "
                + "so nothing of it is in the returned path."),
        CallResultRule(
            name: "numeric conversion",
            match: CallMatch(namesOrBaseNames: APISpelling(
                swift: ["Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Double", "Float",
                        "CGFloat", "Bool", "NSNumber", "UUID", "NSUUID", "Decimal"],
                objc: APIs.uuidFromString.selectors + APIs.numberFromInteger.selectors,
                c: ["atoi", "atol", "atoll", "atof", "strtol", "strtoul", "strtoll", "strtoull", "strtod"])),
            effect: .adds([.numeric]), precedence: 20,
            rationale: "A number, a Boolean or a UUID parsed from a string can no longer shape a path, a script or a query."),
        CallResultRule(
            name: "escaper",
            match: CallMatch(namesOrBaseNames: APISpelling(
                swift: ["addingPercentEncoding"] + APIs.regularExpressionEscape.swiftBaseNames,
                objc: APIs.percentEncoding.selectors + APIs.percentEscapesLegacy.selectors + APIs.regularExpressionEscape.selectors)),
            effect: .adds([.escaped]), precedence: 30,
            rationale: "Percent-encoding and regular-expression escaping make a string inert in a URL or a pattern."),
        CallResultRule(
            name: "escaping-named callee",
            match: CallMatch(words: .anyWord(["escape", "escaped", "escaping", "quote", "quoted", "encode", "encoded", "encoding"])),
            effect: .adds([.escaped]), precedence: 31,
            rationale: "A function the app wrote (or a library's) whose name has the word escape, escaped, escaping, quote, quoted, "
                + "encode, encoded or encoding (jsEscape(_:), htmlEncoded(_:), quoteForSQL) is taken to encode its input for "
                + "the language it is headed to. A function of the scanned file is judged by its summary instead."),
        // `sanitiz…` functions are checks: see `Checks.results` (precedence 40).
        CallResultRule(
            name: "JSON serialization",
            match: CallMatch(names: APISpelling(swift: ["data"], objc: APIs.jsonSerializationWrite.selectors), firstLabel: "withJSONObject"),
            effect: .adds([.jsonEncoded]), precedence: 50,
            rationale: "JSONSerialization.data(withJSONObject:) quotes every string it writes."),
        CallResultRule(
            name: "JSON encoder",
            match: CallMatch(names: APISpelling(swift: ["encode"]), receivers: ["JSONEncoder", "encoder", "Encoder"]),
            effect: .adds([.jsonEncoded]), precedence: 50,
            rationale: "JSONEncoder.encode(_:) quotes every string it writes (the receiver must be named as an encoder)."),
        CallResultRule(
            name: "path builder",
            match: CallMatch(namesOrBaseNames: APISpelling(
                swift: APIs.pathAppending.swiftBaseNames + ["appendingPathExtension"],
                objc: APIs.pathAppending.selectors + APIs.fileURLFromPath.selectors + APIs.pathFromComponents.selectors),
                             argumentLabels: ["fileURLWithPath", "filePath", "path", "component"], exceptBaseNames: ["write"]),
            effect: .buildsPath, precedence: 60,
            rationale: "Appending to a path or building a file URL puts the input into a file path (a step of the reported path)."),
        CallResultRule(
            name: "minimum",
            match: CallMatch(names: APISpelling(swift: ["min"], c: ["MIN", "fmin"])),
            effect: .boundedByAnUntaintedArgument, precedence: 70,
            rationale: "min(n, limit) with a limit the app chose bounds a count from above."),
    ]

    // MARK: What a call does besides its result

    static let calls: [CallTransfer] = [
        CallTransfer(spelling: APISpelling(
            swift: ["append", "insert", "add", "push", "formUnion", "merge", "updateValue", "addObjectsFromArray", "appendContentsOf"],
            objc: APIs.collectionAdd.selectors + APIs.dictionaryWrite.selectors
                + APIs.mutableStringAppend.selectors + APIs.mutableDataAppend.selectors + APIs.dictionaryMerge.selectors + APIs.arrayInsert.selectors
                + APIs.keyedSubscriptStore.selectors),
                     effect: .mutatesReceiver),
        CallTransfer(spelling: APISpelling(APIs.memoryCopyC), effect: .copiesArgument(from: 1, into: 0, arity: 3)),
        CallTransfer(spelling: APISpelling(
            swift: ["map", "flatMap", "compactMap", "forEach", "filter", "first", "last", "contains", "allSatisfy", "sorted", "sort",
                    "min", "max", "withUnsafeBytes", "firstIndex", "lastIndex", "drop", "prefix"],
            objc: APIs.collectionEnumeration.selectors),
                     effect: .elementsToClosure(skipsFirstParameter: false), byBaseName: true),
        CallTransfer(spelling: APISpelling(swift: ["reduce"]), effect: .elementsToClosure(skipsFirstParameter: true), byBaseName: true),
        CallTransfer(spelling: APISpelling(swift: ["withUnsafeMutableBytes", "withUnsafeMutablePointer"]), effect: .fixedBufferToClosure,
                     byBaseName: true),
    ] + archiveCalls

    // MARK: Members

    static let members: [MemberTransfer] = [
        MemberTransfer(spelling: APISpelling(swift: ["isEmpty", "isFileURL", "hashValue", "isNaN", "isZero", "isDirectory"], objc: ["hash"]),
                       effect: .dropsTaint),
        MemberTransfer(spelling: APISpelling(swift: ["count", "utf16Count", "byteCount", "capacity"], objc: ["length"]),
                       effect: .adds(.measuredSize)),
        MemberTransfer(spelling: APISpelling(swift: ["lastPathComponent"]), effect: .takesLastPathComponent),
        // The public half of a private key (`privateKey.publicKey`) is made to be shared.
        MemberTransfer(spelling: APISpelling(swift: APIs.cryptoKitPublicKey.swift), effect: .dropsTaint, kinds: [.sensitive]),
        MemberTransfer(spelling: APISpelling(
            swift: ["standardized", "standardizedFileURL", "resolvingSymlinksInPath", "standardizingPath", "canonicalPath"],
            objc: ["stringByStandardizingPath", "stringByResolvingSymlinksInPath", "URLByStandardizingPath", "URLByResolvingSymlinksInPath"],
            c: ["realpath"]),
                       effect: .standardizes, readsAsCall: true),
        MemberTransfer(spelling: APISpelling(
            swift: ["uuidString"],
            objc: ["intValue", "integerValue", "unsignedIntegerValue", "unsignedIntValue", "int32Value", "int64Value", "uint32Value",
                   "uint64Value", "longValue", "longLongValue", "unsignedLongLongValue", "unsignedLongValue", "doubleValue", "floatValue",
                   "boolValue", "shortValue", "unsignedShortValue", "charValue", "unsignedCharValue", "UUIDString"]),
                       effect: .adds(.numeric), readsAsCall: true),
        MemberTransfer(spelling: APISpelling(
            swift: ["query", "queryItems", "fragment", "percentEncodedQuery", "pathComponents", "queryParameters", "userInfo"],
            objc: ["parameterString"]),
                       effect: .adds(.urlPart)),
    ]

    /// Calls that convert or format their arguments into their result, for the kinds that do not pass
    /// through unknown calls (`FlowKind.passesThroughUnknownCalls`): formatting, encoding, serializing,
    /// building collections and requests' bodies.
    static let argumentConversions: Set<String> = Set(APISpelling(
        swift: ["format", "encode", "data", "archivedData", "jsonObject", "base64EncodedString", "base64EncodedData", "joined",
                "appending", "appendingFormat", "replacingOccurrences", "trimmingCharacters", "lowercased", "uppercased", "localizedStringWithFormat",
                "dictionaryWithValues"],
        objc: APIs.stringFormat.selectors + APIs.stringAppend.selectors + APIs.stringData.selectors + APIs.jsonSerializationWrite.selectors
            + APIs.keyedArchiverArchive.selectors + APIs.propertyListWrite.selectors + APIs.collectionFromObjects.selectors
            + APIs.stringFromData.selectors + APIs.stringCopy.selectors + APIs.componentsJoined.selectors + APIs.base64Encoding.selectors,
        c: ["strdup", "CFStringCreateWithFormat", "CFBridgingRelease", "CFBridgingRetain"]).names)

    /// HTTP client calls whose result is a request object that keeps its parameters and prints them
    /// (`debugDescription`, `cURLDescription()`): Alamofire's `AF.request(_:method:parameters:…)`,
    /// `Alamofire.request(…)`, `Session.default.request(…)`, `SessionManager.default.request(…)` and their
    /// `upload`. Every kind passes through them, sensitive data too (a password in the parameters is in the
    /// request's description); the same names on other receivers are unknown calls.
    static let requestBuilderReceivers: Set<String> = ["AF", "Alamofire", "Session", "SessionManager"]
    static let requestBuilderNames: Set<String> = ["request", "upload"]

    /// Whether a call named `name` on a receiver whose chain starts with `receiverRoot` builds such a request.
    static func buildsRequest(name: String, receiverRoot: String?) -> Bool {
        guard let receiverRoot else { return false }
        return requestBuilderNames.contains(name) && requestBuilderReceivers.contains(receiverRoot)
    }

    // MARK: Types and buffers

    /// A parameter of one of these types cannot carry a string: its taints count as numeric.
    static let inertTypes: Set<String> = [
        "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Double", "Float", "CGFloat", "Decimal",
        "Bool", "UUID", "Date", "TimeInterval", "NSInteger", "NSUInteger", "BOOL", "int", "long", "float", "double", "bool", "int32_t",
        "uint32_t", "int64_t", "uint64_t", "size_t", "NSTimeInterval",
    ]
    /// The types of Swift's literals, for locals declared without a type (`var enabled = false`).
    static let literalTypes = (boolean: "Bool", integer: "Int", float: "Double")
    /// Calls that never return: a path that makes one ends there (`guard ok else { fatalError() }`).
    static let neverReturning: Set<String> = Set(APISpelling(swift: ["fatalError", "preconditionFailure"],
                                                             c: ["abort", "exit", "_exit", "NSAssertFailure"]).names)
    /// A function returning one of these returns no value (its return summary is not exported).
    static let noValueTypes: Set<String> = ["void", "Void", "()", "IBAction"]
    /// Names in a call chain that make it create an instance of its first name (`[[Parser alloc] init]`,
    /// `[Parser new]`): the local's type.
    static let constructorNames: Set<String> = ["alloc", "new", "init"]
    /// Initializers of buffers sized at run time (`Data(count: n)`, `[UInt8](repeating: 0, count: n)` with a
    /// non-literal count).
    static let runtimeSizedBuffers: Set<String> = ["Array", "Data", "ContiguousArray", "NSMutableData"]
    /// The label of the element count of an array initializer: with a literal, the array is fixed-size.
    static let arrayCountLabel = "count"
    /// Declared types of a local whose address is not a fixed-size destination: names starting with one
    /// of `growablePrefixes`, or equal to one of `growableTypes` (pointers and `[T]` are recognized by syntax).
    static let growableTypePrefixes: [String] = ["Array"]
    static let growableTypes: Set<String> = ["Data"]
    /// The member that gives a buffer's address (`buffer.baseAddress`).
    static let bufferAddressMember = "baseAddress"

    // MARK: Indexes (built once)

    /// The result entries indexed by every way they match. A set of entries is a bit mask over `rules`
    /// (sorted by precedence), so the matching entries of a call are found without allocating and tried
    /// lowest precedence first.
    struct ResultIndex {
        var byName: [String: UInt64] = [:]
        /// Swift spellings that need a label or a receiver as well.
        var conditionalByName: [String: UInt64] = [:]
        var byBaseName: [String: UInt64] = [:]
        var byFirstWord: [String: UInt64] = [:]
        var byAnyWord: [String: UInt64] = [:]
        var byLabel: [String: UInt64] = [:]
        /// Entries a base name excludes from matching by label (`write`).
        var labelExceptions: [String: UInt64] = [:]
        /// Word-prefix and substring rules, few enough to try in turn.
        var otherWordRules: [(WordRule, UInt64)] = []
        var rules: [CallResultRule] = []

        init(_ rules: [CallResultRule]) {
            precondition(rules.count <= 64, "the result index holds at most 64 entries")
            self.rules = rules.sorted { $0.precedence < $1.precedence }
            for (index, rule) in self.rules.enumerated() {
                let bit = UInt64(1) << UInt64(index)
                let conditional = rule.match.firstLabel != nil || !rule.match.receivers.isEmpty
                for name in rule.match.names.swift {
                    if conditional { conditionalByName[name, default: 0] |= bit } else { byName[name, default: 0] |= bit }
                }
                for name in rule.match.names.objc + rule.match.names.c { byName[name, default: 0] |= bit }
                for name in rule.match.namesOrBaseNames.names { byBaseName[name, default: 0] |= bit }
                for label in rule.match.argumentLabels { byLabel[label, default: 0] |= bit }
                for name in rule.match.exceptBaseNames { labelExceptions[name, default: 0] |= bit }
                switch rule.match.words {
                case .firstWord(let words)?: for word in words { byFirstWord[word, default: 0] |= bit }
                case .anyWord(let words)?: for word in words { byAnyWord[word, default: 0] |= bit }
                case let other?: otherWordRules.append((other, bit))
                case nil: break
                }
            }
        }

        /// The entries that match, as a mask (bit i: `rules[i]`). `words` is the base name's words, lowercased.
        func candidates(name: String, baseName: String, labels: [String?], words: [String],
                        receiverMentions: ([String]) -> Bool) -> UInt64 {
            var found = byName[name] ?? 0
            if var conditional = conditionalByName[name] {
                while conditional != 0 {
                    let index = conditional.trailingZeroBitCount
                    conditional &= conditional - 1
                    let match = rules[index].match
                    if let label = match.firstLabel, labels.first != label { continue }
                    if !match.receivers.isEmpty, !receiverMentions(match.receivers) { continue }
                    found |= UInt64(1) << UInt64(index)
                }
            }
            found |= byBaseName[name] ?? 0
            if baseName != name { found |= byBaseName[baseName] ?? 0 }
            if let first = words.first { found |= byFirstWord[first] ?? 0 }
            for word in words { found |= byAnyWord[word] ?? 0 }
            for (rule, bit) in otherWordRules where found & bit == 0 && rule.matches(name: baseName, words: words) { found |= bit }
            var byLabels: UInt64 = 0
            for label in labels {
                if let label { byLabels |= byLabel[label] ?? 0 }
            }
            if byLabels != 0 { found |= byLabels & ~(labelExceptions[baseName] ?? 0) }
            return found
        }
    }

    /// Transfers and checks that decide a call's result, by precedence.
    static let resultIndex = ResultIndex(results + decoders + Checks.results + Checks.sensitiveResults)

    static let callTransfersByName: [String: [CallTransfer]] = {
        var table: [String: [CallTransfer]] = [:]
        for entry in calls { for name in entry.spelling.names { table[name, default: []].append(entry) } }
        return table
    }()

    /// Transfers by effect, for the interpreter's steps: mutators and copies by name, closure transfers by
    /// name or base name.
    static let mutators: [String: CallTransfer] = byName { $0 == .mutatesReceiver }
    static let copies: [String: CallTransfer] = byName { if case .copiesArgument = $0 { true } else { false } }

    private static func byName(_ effect: (CallTransferEffect) -> Bool) -> [String: CallTransfer] {
        var table: [String: CallTransfer] = [:]
        for entry in calls where effect(entry.effect) {
            for name in entry.spelling.names where table[name] == nil { table[name] = entry }
        }
        return table
    }

    /// The transfer a call with this name (or base name, for entries matched on it) makes with this effect.
    static func callTransfer(name: String, baseName: String, _ matches: (CallTransferEffect) -> Bool) -> CallTransfer? {
        if let entry = callTransfersByName[name]?.first(where: { matches($0.effect) }) { return entry }
        return callTransfersByName[baseName]?.first { $0.byBaseName && matches($0.effect) }
    }

    static let membersByName: [String: MemberTransfer] = {
        var table: [String: MemberTransfer] = [:]
        for entry in members { for name in entry.spelling.names { table[name] = entry } }
        return table
    }()

    /// Members also read as calls without arguments.
    static let readsAsCall: Set<String> = Set(members.filter(\.readsAsCall).flatMap(\.spelling.names))

    /// Standardizers of paths (`standardizedFileURL`, `realpath`): also read by the condition reader.
    static let standardizers: Set<String> = Set(members.filter { $0.effect == .standardizes }.flatMap(\.spelling.names))

    /// Class prefixes of Apple's frameworks (`NSMutableDictionary`, `UIPasteboard`, `WKWebView`...) and Swift's
    /// standard value types: a method of the scanned file is not a method of a receiver of such a type (unless the
    /// file extends the type), so `[_secIdentities setObject:x forKey:k]` on an `NSMutableDictionary` property is
    /// not the file's own `setObject:forKey:`.
    static let frameworkClassPrefixes: [String] = ["NS", "UI", "CF", "WK", "CK", "AV", "MK", "SK", "LA", "CL", "PH", "CN", "SF", "JS"]
    static let standardValueTypes: Set<String> = ["String", "Array", "Dictionary", "Set", "Data", "URL", "Substring"]

    /// Whether `type` (a declared type, `NSMutableDictionary *`, `[String: Any]?`) names a framework class or a
    /// standard value type.
    static func isFrameworkType(_ type: String) -> Bool {
        let core = type.filter { !"?!* ".contains($0) }
        if core.hasPrefix("[") { return true }
        let name = String(core.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
        if standardValueTypes.contains(name) { return true }
        return frameworkClassPrefixes.contains { prefix in
            name.hasPrefix(prefix) && name.count > prefix.count && name[name.index(name.startIndex, offsetBy: prefix.count)].isUppercase
        }
    }

    static func isInertType(_ type: String) -> Bool {
        var core = Substring(type)
        while let first = core.first, first == " " { core.removeFirst() }
        while let last = core.last, last == "?" || last == "!" || last == " " { core.removeLast() }
        return inertTypes.contains(String(core))
    }
}
