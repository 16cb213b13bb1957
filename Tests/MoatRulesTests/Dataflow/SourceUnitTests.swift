import Foundation
import Testing
import MoatTestSupport
import MoatCore
import MoatSyntax
@testable import MoatRules

/// The per-file unit source rules receive: the dataflow analysis it runs once with its context, and the
/// index of the names its code mentions.
struct SourceUnitTests {
    static let handler = CrossFileFixtures.handler()
    static let importer = CrossFileFixtures.importer

    static func findings(_ rule: any SourceRule, _ unit: SourceUnit) -> [Finding] {
        var sink = FindingSink(rule: type(of: rule).description)
        rule.check(unit, &sink)
        return sink.findings
    }

    @Test func aRuleRunOutsideTheScannerWithAContextSeesFlowsFromOtherFiles() throws {
        let files = [DataflowTestSupport.parse(Self.handler, name: "SceneDelegate.swift"),
                     DataflowTestSupport.parse(Self.importer, name: "FileImporter.swift")]
        // What the scanner does: analyze each file, link the facts, analyze again with the contexts.
        let facts = files.map { file -> DataflowFacts? in
            let unit = SourceUnit(code: file)
            _ = unit.flows
            return unit.factsIfAnalyzed
        }
        let contexts = CrossFileLinker(facts: facts, paths: files.map(\.path)).contexts()
        let context = try #require(contexts[1])

        let alone = Self.findings(PathTraversalRule(), SourceUnit(code: files[1]))
        #expect(alone.isEmpty, "\(alone)")
        let withContext = Self.findings(PathTraversalRule(), SourceUnit(code: files[1], context: context))
        let finding = try #require(withContext.first)
        #expect(withContext.count == 1)
        #expect(finding.location.path == "FileImporter.swift" && finding.location.line == 5 && finding.location.column == 14)
        #expect(finding.message.contains("passed to importFile(named:contents:) from SceneDelegate.swift:7"), "\(finding.message)")
    }

    @Test func theAnalysisRunsOnceOnFirstUseAndItsFactsAreKept() {
        let unit = SourceUnit(code: DataflowTestSupport.parse(Self.handler, name: "SceneDelegate.swift"))
        #expect(unit.factsIfAnalyzed == nil)
        let first = unit.flows
        let facts = unit.factsIfAnalyzed
        #expect(facts != nil)
        #expect(facts?.outgoing.isEmpty == false)
        #expect(unit.flows.map(\.range) == first.map(\.range))
        #expect(unit.factsIfAnalyzed == facts)
    }

    @Test func flowsOfARuleAreItsSinksOnly() {
        let unit = SourceUnit(code: DataflowTestSupport.parse("""
        func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any]) -> Bool {
            webView.evaluateJavaScript(url.absoluteString)
            return true
        }
        """))
        #expect(unit.flows.count == 1)
        #expect(unit.flows(rule: JavaScriptInjectionDataflowRule.description.id).count == 1)
        #expect(unit.flows(rule: PathTraversalRule.description.id).isEmpty)
    }
}

struct SourceNamesTests {
    static func names(_ source: String, name: String = "Test.swift") -> SourceNames {
        SourceNames(DataflowTestSupport.parse(source, name: name))
    }

    @Test func codeNamesArePresentAndOthersAbsent() {
        let names = Self.names("""
        let query: [String: Any] = [kSecAttrAccessible as String: kSecAttrAccessibleAlways]
        webView.configuration.preferences.javaScriptCanOpenWindowsAutomatically = true
        """)
        for name in ["kSecAttrAccessible", "kSecAttrAccessibleAlways", "String", "webView", "javaScriptCanOpenWindowsAutomatically", "let", "true"] {
            #expect(names.contains(name), "\(name)")
        }
        #expect(!names.contains("kSecAttrAccessibleAfterFirstUnlock"))
        #expect(!names.contains("Always"), "names are whole, not fragments")
        #expect(names.containsAny(["nothing", "webView"]))
        #expect(!names.containsAny(["nothing", "else"]))
    }

    @Test func namesOnlyInCommentsOrStringsAreNotCode() {
        let names = Self.names(#"""
        // kSecAttrAccessibleAlways in a line comment
        /* outer /* nested UIWebView */ still comment: NSFileProtectionNone */
        let a = "SecTrustEvaluate in a string"
        let b = #"raw "evaluateJavaScript" string"#
        let c = """
            multi-line loadHTMLString
            """
        let d = "escaped \"quote\" then allowsArbitraryLoads"
        let e = "interpolated \(webView.url) code"
        """#)
        for name in ["kSecAttrAccessibleAlways", "UIWebView", "NSFileProtectionNone", "SecTrustEvaluate", "evaluateJavaScript",
                     "loadHTMLString", "allowsArbitraryLoads", "still", "quote", "in"] {
            #expect(!names.contains(name), "\(name) is not code")
        }
        #expect(names.contains("webView") && names.contains("url") && names.contains("e"), "interpolations are code")
        for word in ["SecTrustEvaluate", "evaluateJavaScript", "loadHTMLString", "allowsArbitraryLoads", "interpolated", "quote"] {
            #expect(names.literalWords.contains(word), "\(word) is in a literal")
        }
        #expect(!names.literalWords.contains("kSecAttrAccessibleAlways"), "comments are neither code nor literals")
        #expect(!names.literalWords.contains("webView"), "interpolated code is not literal text")
    }

    @Test func objectiveCNamesSelectorsAndLiterals() {
        let names = Self.names("""
        #import <WebKit/WebKit.h>
        // [webView loadHTMLString:html baseURL:nil];
        - (void)load {
            NSString *s = @"http://example.com/a'b";
            char c = '"';
            [self.webView loadRequest:[NSURLRequest requestWithURL:[NSURL URLWithString:s]]];
        }
        """, name: "Loader.m")
        for name in ["WebKit", "loadRequest", "requestWithURL", "URLWithString", "NSURLRequest", "self", "c"] {
            #expect(names.contains(name), "\(name)")
        }
        #expect(!names.contains("loadHTMLString") && !names.contains("http") && !names.contains("example"))
        #expect(names.literalsContainAny(["http"]))
        #expect(names.literalsContainAny(prefixes: ["exam"]))
        #expect(!names.literalsContainAny(prefixes: ["AKIA"]))
    }
}

/// A rule's gate on the names index only skips files where the rule finds nothing: every source rule, on
/// every source file of every rule example and of the example app, reports the same with its gate open.
struct NameGateTests {
    static func sourceFiles() -> [CodeFile] {
        var files: [CodeFile] = []
        for rule in RuleRegistry.all {
            for example in rule.description.triggering + rule.description.nonTriggering {
                for file in RuleExampleHarness.prepare(example).files where RuleExampleHarness.isSource(file.name) {
                    files.append(DataflowTestSupport.parse(file.content, name: file.name))
                }
            }
        }
        let root = BuiltAppFixture.packageRoot.appendingPathComponent("Examples")
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard RuleExampleHarness.isSource(url.lastPathComponent), let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
            files.append(DataflowTestSupport.parse(text, name: url.lastPathComponent))
        }
        return files
    }

    /// The engine's own gates (`SourceGates`: names that may denote secrets, secure-field flags) only spare
    /// it work: with every gate open it finds the same flows and tells other files the same facts.
    @Test func engineGatesChangeNeitherFlowsNorFacts() {
        let files = Self.sourceFiles()
        var closed = 0
        for file in files {
            let gated = SourceUnit(code: file)
            let open = SourceUnit(code: file, names: .unrestricted)
            #expect(Self.describe(gated.flows) == Self.describe(open.flows), "\(file.path)")
            #expect(gated.factsIfAnalyzed == open.factsIfAnalyzed, "\(file.path)")
            if !SourceGates(gated.names).namesMaySecrets { closed += 1 }
        }
        // The comparison means something only when some files have the gate closed and some open.
        #expect(closed > 20 && closed < files.count - 20, "\(closed) of \(files.count)")
    }

    @Test func theSecretNameGateOpensOnANameTheTableCallsSensitive() {
        func gates(_ source: String, _ name: String = "Test.swift") -> SourceGates {
            SourceGates(SourceNames(DataflowTestSupport.parse(source, name: name)))
        }
        #expect(!gates("func load(url: URL) { let data = try? Data(contentsOf: url); print(data as Any) }").namesMaySecrets)
        // Words that only contain a secret-looking sequence, or name something about a secret, stay closed.
        #expect(!gates("let spinner = UIActivityIndicatorView(); let tokenizer = Tokenizer(); let passwordHint = hint").namesMaySecrets)
        #expect(gates("func save(password: String) { defaults.set(password, forKey: key) }").namesMaySecrets)
        #expect(gates("- (void)store { NSLog(@\"%@\", self.apiKey); }", "Store.m").namesMaySecrets)
        // A cursor-named token is a credential when a sign-in returned it: the gate cannot know, so it opens.
        #expect(gates("func confirm() { let confirmation = api.requestLoginConfirmation(); NSLog(\"%@\", confirmation.syncToken) }").namesMaySecrets)
        // The text of a field named for a secret (`isSecretInputField`), though `passwordField` is no secret.
        #expect(gates("func submit() { send(passwordField.text) }").namesMaySecrets)
        #expect(!gates("func submit() { send(nameField.text) }").mayHaveSecureFields)
        #expect(gates("func setUp() { pinEntry.isSecureTextEntry = true }").mayHaveSecureFields)
        #expect(gates("- (void)setUp { [field setSecureTextEntry:YES]; }", "Form.m").mayHaveSecureFields)
        #expect(gates("var body: some View { SecureField(\"PIN\", text: $code) }").mayHaveSecureFields)
        // Names in comments or only inside string literals are not code.
        #expect(!gates("// password\nlet label = \"password\"").namesMaySecrets)
        #expect(SourceGates(.unrestricted).namesMaySecrets && SourceGates(.unrestricted).mayHaveSecureFields)
    }

    static func describe(_ flows: [TaintFlow]) -> [String] {
        flows.map { flow in
            let roles = flow.roles.map { role, taints in
                "\(role): " + taints.map { taint in
                    "\(taint.origin) checks \(taint.checks.map { "\($0)" }.sorted()) steps \(taint.steps.map { "\($0.range) \($0.message)" })"
                        + " latent \(taint.latent.map { $0.sorted() } ?? [])"
                }.joined(separator: "; ")
            }.sorted()
            return "\(flow.kind) \(flow.api) \(flow.calledName) \(flow.range) confirmed \(flow.confirmed) \(roles)"
        }
    }

    @Test func gatesNeverDecideAFinding() {
        let files = Self.sourceFiles()
        #expect(files.count > 100)
        let rules = RuleRegistry.all.compactMap { $0.init().asSourceRule }
        for file in files {
            let gated = SourceUnit(code: file)
            let open = SourceUnit(code: file, names: .unrestricted)
            for rule in rules where type(of: rule).languages.contains(file.language) {
                let expected = SourceUnitTests.findings(rule, open).map { "\($0.location.line):\($0.location.column) \($0.message)" }
                let actual = SourceUnitTests.findings(rule, gated).map { "\($0.location.line):\($0.location.column) \($0.message)" }
                #expect(actual == expected, "\(type(of: rule).description.id) on \(file.path): the gate skipped \(expected)")
            }
        }
    }
}
