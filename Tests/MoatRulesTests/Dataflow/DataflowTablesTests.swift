import Foundation
import Testing
import MoatCore
import MoatSyntax
@testable import MoatRules

/// The four dataflow tables (sources, sinks, transfers, checks): each entry names its API once per
/// language and the kinds of flow it applies to; the name-based entries trigger and stay quiet as
/// documented; the interpreter names no API itself.
struct DataflowTableTests {
    /// No spelling is empty, none is listed twice in an entry, and each sits in its language's list:
    /// Objective-C selectors have colons (unless they are property or piece names), Swift full names
    /// parentheses, C symbols neither.
    private func checkSpelling(_ spelling: APISpelling, _ entry: String) {
        let names = spelling.names
        #expect(!names.isEmpty, "\(entry) names no API")
        #expect(Set(names).count == names.count, "\(entry) lists a spelling twice: \(names)")
        for name in names { #expect(!name.isEmpty && !name.contains(" "), "\(entry): bad spelling `\(name)`") }
        for name in spelling.c { #expect(!name.contains(":") && !name.contains("("), "\(entry): C symbol `\(name)`") }
        for name in spelling.swift { #expect(!name.contains(":") || name.contains("("), "\(entry): Swift name `\(name)` looks like a selector") }
    }

    @Test func sourcesNameTheirAPIAndStartAKindOfFlow() {
        for source in TaintSources.all {
            let entry = "source “\(source.description)”"
            #expect(!source.description.isEmpty)
            #expect(FlowKind.allCases.contains(source.kind.flow))
            switch source.pattern {
            case .parameter(let functions, _, _):
                checkSpelling(functions, entry)
                for name in functions.swift { #expect(name.hasSuffix(")"), "\(entry): Swift method `\(name)` is not a full name") }
                for name in functions.objc { #expect(name.hasSuffix(":"), "\(entry): `\(name)` is not a selector") }
            case .closureParameter(let names, _, _), .member(let names, _, _), .call(let names, _, _), .cResult(let names),
                 .cOutArgument(let names, _), .decoder(let names), .outArgument(let names, _), .encodedSecretType(let names, _):
                checkSpelling(names, entry)
            case .secureText(let flags, let members, let bindings):
                checkSpelling(flags, entry)
                checkSpelling(members, entry)
                checkSpelling(bindings, entry)
            case .subscriptRead(let receivers):
                #expect(!receivers.isEmpty, "\(entry) names no receiver")
            case .sensitiveName:
                break
            case .contentRead(let names, let labels, let receivers, let localKinds):
                checkSpelling(names, entry)
                #expect(!labels.isEmpty && !receivers.isEmpty && !localKinds.isEmpty, "\(entry): a content reader names its URL label, receivers and local kinds")
                #expect(!localKinds.contains(source.kind.flow), "\(entry): a content reader's local kinds cannot be its own")
            case .recordField, .remoteHandlerParameters, .javaScriptExportParameters, .javaScriptContextBlockParameters:
                break
            }
        }
        // Every source kind is started by some entry, and the indexes hold every spelling.
        #expect(Set(TaintSources.all.map(\.kind)) == Set(SourceKind.allCases))
        #expect(TaintSources.cResultSources["getenv"]?.count == 1)
        #expect(TaintSources.callSources["receive"]?.first?.kind == .network)
    }

    @Test func sinksNameTheirAPIOncePerSpellingAndTheKindsTheyReport() throws {
        var seen: [String: Int] = [:]
        for sink in TaintSinks.all {
            let entry = "sink \(sink.api)"
            #expect(!sink.kinds.isEmpty, "\(entry) reports no kind of flow")
            #expect(!sink.roles.isEmpty, "\(entry) has no role")
            if ![.sensitiveAction, .stateChange].contains(sink.kind) && sink.api != "a length check" { checkSpelling(sink.spelling, entry) }
            for name in sink.spelling.objc where !name.contains(":") {
                // Objective-C spellings without a colon are first selector pieces matched by a label (`getBytes`).
                #expect(sink.spelling.objc.contains { $0.hasPrefix(name + ":") }, "\(entry): `\(name)`")
            }
            // Entries told apart by a required label (`load(_:)` and `load(_:mimeType:...)`), by their receivers
            // (`setObject:forKey:` of UserDefaults and of PINCache; `UIApplication.open(_:)` and the C `open`, a free call) or by the kinds of flow they report (`write(to:)`
            // as a path for untrusted input, as a file written for sensitive data) may share a spelling.
            let required = (sink.requiredLabels ?? []).sorted().joined(separator: ",")
            let kinds = sink.kinds.map(\.rawValue).sorted().joined(separator: ",")
            let receivers = sink.receivers.sorted().joined(separator: ",")
            for name in sink.spelling.names where !sink.isSetter && !sink.isOperator { seen[name + "|" + required + "|" + kinds + "|" + receivers, default: 0] += 1 }
        }
        #expect(Set(TaintSinks.all.map(\.kind)) == Set(SinkKind.allCases))
        var perName: [String: Int] = [:]
        for (key, count) in seen {
            let name = String(key.prefix { $0 != "|" })
            #expect(count == 1, "`\(name)` is spelled by \(count) sink entries with the same required labels")
            perName[name, default: 0] += count
        }
        for (name, count) in perName { #expect(TaintSinks.byName[name]?.count == count) }
        // A selector passes its values as the entry's Objective-C form says; the Swift spelling as `roles`.
        let selector = try #require(TaintSinks.byName["copyItemAtURL:toURL:error:"]?.first)
        #expect(selector.sink.api == "FileManager.copyItem/moveItem/linkItem" && selector.requiredLabels == nil)
        #expect(selector.roles.contains { $0.role == .source && $0.argument == .index(0) })
        let swift = try #require(TaintSinks.byName["copyItem"]?.first)
        #expect(swift.requiredLabels == ["to", "toPath"] && swift.roles.contains { $0.role == .source && $0.argument == .label(["at", "atPath"]) })
        // The vocabulary's class lookup: the C functions and NSBundle's `classNamed:`; sinks the vocabulary
        // declares take its spellings.
        #expect(TaintSinks.classLookupNames == ["NSClassFromString", "objc_getClass", "objc_lookUpClass", "classNamed:"])
        #expect(TaintSinks.byName["unarchivedObjectOfClasses:fromData:error:"]?.first?.sink.kind == .unarchive)
        #expect(APIs.webViewJavaScriptEvaluation.callNames.allSatisfy { TaintSinks.byName[$0]?.first?.sink.kind == .javaScript })
    }

    @Test func transfersAreUniqueAndEachNamesHowItMatches() {
        let results = Transfers.results + Transfers.decoders + Checks.results
        #expect(Set(results.map(\.name)).count == results.count, "result entries share a name")
        for rule in results {
            let match = rule.match
            let matchesSomething = !match.names.isEmpty || !match.namesOrBaseNames.isEmpty || match.words != nil || !match.argumentLabels.isEmpty
            #expect(matchesSomething, "\(rule.name) matches nothing")
            if !match.names.isEmpty { checkSpelling(match.names, rule.name) }
            if !match.namesOrBaseNames.isEmpty { checkSpelling(match.namesOrBaseNames, rule.name) }
            #expect(!rule.kinds.isEmpty && !rule.rationale.isEmpty, "\(rule.name)")
        }
        // Precedence decides between entries: the index keeps them sorted.
        #expect(Transfers.resultIndex.rules.map(\.precedence) == Transfers.resultIndex.rules.map(\.precedence).sorted())
        // A member name belongs to one entry (the index is a dictionary).
        let memberNames = Transfers.members.flatMap(\.spelling.names)
        #expect(Set(memberNames).count == memberNames.count, "a member is listed twice")
        for entry in Transfers.members {
            checkSpelling(entry.spelling, "member \(entry.effect)")
            #expect(!entry.kinds.isEmpty)
        }
        for entry in Transfers.calls {
            checkSpelling(entry.spelling, "call transfer \(entry.effect)")
            #expect(!entry.kinds.isEmpty)
        }
        #expect(Transfers.callTransfer(name: "reduce", baseName: "reduce") { if case .elementsToClosure(true) = $0 { true } else { false } } != nil)
        #expect(Transfers.mutators["addObject:"] != nil && Transfers.mutators["append"] != nil)
        #expect(Transfers.copies["memmove"]?.effect == .copiesArgument(from: 1, into: 0, arity: 3))
    }

    @Test func checksAreUniqueAndEachNamesHowItMatches() {
        let conditionNames = Checks.conditionCalls.flatMap(\.spelling.names)
        #expect(Set(conditionNames).count == conditionNames.count, "a condition call is listed twice")
        for entry in Checks.conditionCalls {
            checkSpelling(entry.spelling, "condition call \(entry.effect)")
            #expect(!entry.kinds.isEmpty)
        }
        for entry in Checks.confirmations {
            #expect(!entry.spelling.isEmpty || entry.words != nil || !entry.baseNames.isEmpty, "\(entry.name) matches nothing")
            if !entry.spelling.isEmpty { checkSpelling(entry.spelling, entry.name) }
            #expect(!entry.rationale.isEmpty)
        }
        for check in [Checks.overflowCheck, Checks.classInspection, Checks.validation] {
            checkSpelling(check.spelling, check.name)
            #expect(!check.kinds.isEmpty && !check.rationale.isEmpty, "\(check.name)")
        }
        checkSpelling(Checks.lengthFunctions, "length functions")
        #expect(Checks.validationWords.contains("verify"))
        #expect(Checks.overflowCheckersReturningOperands == ["multipliedReportingOverflow", "multipliedFullWidth"])
    }

    @Test func everyKindOfFlowHasSourcesAndSinks() {
        for kind in FlowKind.allCases {
            #expect(TaintSources.all.contains { $0.kind.flow == kind }, "no source starts \(kind)")
            if kind.isProof {
                // A kind that proves something about a value (a local file URL) is reported by no sink alone; a
                // content reader uses it, and a read by path keeps it beside the kinds it reports (the path starts
                // in a folder of the app).
                #expect(!TaintSinks.all.contains { $0.kinds.contains(kind) && !$0.kinds.contains(where: { !$0.isProof }) },
                        "a sink reports only the proof kind \(kind)")
                #expect(TaintSinks.all.filter { $0.kinds.contains(kind) }.allSatisfy { $0.kind == .fileRead || $0.kind == .storeOpen },
                        "only reads and opens by path keep the proof kind \(kind)")
                #expect(TaintSources.all.contains { if case .contentRead(_, _, _, let local) = $0.pattern { local.contains(kind) } else { false } })
            } else {
                #expect(TaintSinks.all.contains { $0.kinds.contains(kind) }, "no sink reports \(kind)")
            }
        }
    }
}

/// The entries that match functions by the words of their names: each triggers on the documented words
/// and stays quiet on a name without them.
struct DataflowNameRuleTests {
    private func scriptTaints(_ expression: String) -> [Taint] {
        let flows = DataflowTestSupport.flows("""
        func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any]) -> Bool {
            let value = \(expression)
            webView.evaluateJavaScript(value)
            return true
        }
        """, kind: .javaScript)
        return flows.flatMap { $0.taints(.script) }
    }

    @Test func predicateNamedCalleesReturnNoTaint() {
        // is…, has…, contains…, can…, should…, starts…, ends…, validate…, matches…: a Boolean answer.
        #expect(scriptTaints("isTrustedLink(url.absoluteString)").isEmpty)
        #expect(scriptTaints("hasPayload(url.query!)").isEmpty)
        #expect(scriptTaints("canHandle(url.absoluteString)").isEmpty)
        // Quiet twin: another verb passes its input on.
        #expect(scriptTaints("describeLink(url.absoluteString)").count == 1)
        // The word must be the first: `thisIsIt` is not a predicate.
        #expect(scriptTaints("thisIsIt(url.absoluteString)").count == 1)
    }

    @Test func escapingNamedCalleesEscape() throws {
        let escaped = try #require(scriptTaints("jsEscape(url.absoluteString)").first)
        #expect(escaped.checks.contains(.escaped))
        let encoded = try #require(scriptTaints("htmlEncoded(url.absoluteString)").first)
        #expect(encoded.checks.contains(.escaped))
        let plain = try #require(scriptTaints("jsFormat(url.absoluteString)").first)
        #expect(!plain.checks.contains(.escaped))
    }

    @Test func sanitizerNamedCalleesValidateAndEscape() throws {
        let sanitized = try #require(scriptTaints("sanitizedScript(url.absoluteString)").first)
        #expect(sanitized.checks.isSuperset(of: [.escaped, .validated]))
        let sanitizer = try #require(scriptTaints("sanitizer(url.absoluteString)").first)
        #expect(sanitizer.checks.contains(.validated))
        let plain = try #require(scriptTaints("normalizedScript(url.absoluteString)").first)
        #expect(plain.checks.isDisjoint(with: [.escaped, .validated]))
    }

    @Test func confirmNamedCalleesConfirm() {
        func confirmed(_ before: String) -> [Bool] {
            DataflowTestSupport.flows("""
            func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any]) -> Bool {
                \(before)
                deleteAccount(url)
                return true
            }
            """, kind: .sensitiveAction).map(\.confirmed)
        }
        #expect(confirmed("askToConfirm()") == [true])
        #expect(confirmed("showCONFIRMDialog()") == [true])
        #expect(confirmed("showDialog()") == [false])
    }
}

extension DataflowNameRuleTests {
    @Test func recordNamedLocalsAreCloudKitRecordsInFilesThatMentionCloudKit() {
        func sources(_ local: String, imports: String = "import CloudKit") -> [SourceKind?] {
            DataflowTestSupport.flows("""
            \(imports)
            func apply(_ records: [Any]) {
                let \(local) = records[0]
                let name = \(local)["fileName"] as! String
                try? FileManager.default.removeItem(atPath: name)
            }
            """, kind: .filePath).flatMap { $0.allTaints.map(\.source?.kind) }
        }
        #expect(sources("serverRecord") == [.cloudRecord])
        #expect(sources("record") == [.cloudRecord])
        #expect(sources("serverEntry").isEmpty)
        #expect(sources("serverRecord", imports: "import Foundation").isEmpty)
    }

    @Test func contextNamedReceiversTakeBlocksCallableFromJavaScript() {
        func sources(_ local: String) -> [SourceKind?] {
            DataflowTestSupport.flows("""
            func install() {
                let \(local) = makeBridge()
                \(local)["save"] = { (name: String) in
                    try? FileManager.default.removeItem(atPath: name)
                }
            }
            """, kind: .filePath).flatMap { $0.allTaints.map(\.source?.kind) }
        }
        #expect(sources("jsContext") == [.javaScriptBridge])
        #expect(sources("bridgeStore").isEmpty)
        #expect(sources("managedObjectContext").isEmpty)
    }
}

/// The interpreter asks the tables: its source files contain no API names.
struct InterpreterNamesNoAPITests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Identifier-like string literals allowed in the interpreter: Swift keywords and operators it reads
    /// from the code model, and one-word step messages.
    static let allowed: Set<String> = ["self", "super", "Self", "Void", "is", "as", "let", "var", "case", "_", "returned"]

    /// The string literals of a Swift source, comments left out (the scan of `VocabularyLiteralsTests`).
    static func literals(in source: String) -> [String] { VocabularyLiteralsTests.literals(in: source) }

    @Test func interpreterFilesContainNoAPINames() throws {
        let dataflow = Self.root.appendingPathComponent("Sources/MoatRules/Dataflow")
        let engine = dataflow.appendingPathComponent("Engine")
        var files = try FileManager.default.contentsOfDirectory(atPath: engine.path).filter { $0.hasSuffix(".swift") }
            .map { engine.appendingPathComponent($0) }
        files.append(dataflow.appendingPathComponent("ConditionFacts.swift"))
        #expect(files.count >= 10, "the interpreter files moved: \(files.map(\.lastPathComponent))")
        let identifier = try Regex("^[A-Za-z_][A-Za-z0-9_]*(:[A-Za-z0-9_:]*)?$")
        for file in files {
            let source = try String(contentsOf: file, encoding: .utf8)
            for literal in Self.literals(in: source) where literal.wholeMatch(of: identifier) != nil && !Self.allowed.contains(literal) {
                Issue.record("\(file.lastPathComponent) names `\(literal)`: put it in a table (Sources/MoatRules/Dataflow/Tables/)")
            }
        }
    }

    @Test func theScanFindsNamesWhereThereAreSome() {
        // The scan itself can fail: a table file is full of names, a comment is not scanned.
        let literals = Self.literals(in: #"let x = ["append", "addObject:"] // "comment""#)
        #expect(literals == ["append", "addObject:"])
        #expect(Self.literals(in: #"let m = "passed to \(name) as `\(x)`", y = "\"quoted\"""#).count == 2)
    }

    @Test func callStepsRunInTheDocumentedOrder() throws {
        let names = FunctionInterpreter.callSteps.map(\.rawValue)
        #expect(names == CallStepName.allCases.map(\.rawValue))
        #expect(names == ["readSource", "evaluateReceiver", "readPropertyCall", "evaluateArguments", "analyzeClosures",
                          "readIntoCOutArguments", "checkOverflow", "reachSinks", "reachSensitiveAction", "useLookedUpClass",
                          "confirm", "applySummary", "applyOtherFileSummary", "mutateReceiver", "writeOutArguments",
                          "transferResult"])
        // The README lists them in this order.
        let readme = try String(contentsOf: Self.root.appendingPathComponent("Sources/MoatRules/Dataflow/README.md"), encoding: .utf8)
        var position = readme.startIndex
        for name in names {
            let range = try #require(readme.range(of: "`\(name)`", range: position..<readme.endIndex), "README: \(name) missing or out of order")
            position = range.upperBound
        }
    }
}
