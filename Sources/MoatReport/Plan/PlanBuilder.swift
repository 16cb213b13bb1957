import Foundation
import MoatCore
import MoatRules
import MoatScan

/// Turns a scan's attack surface and findings into a `TestPlan`.
struct PlanBuilder {
    let result: ScanResult
    let surface: AttackSurface
    let findings: [Finding]
    let sources: PlanSources
    let binaries: PlanBinaries
    var hooks: [String: TestPlan.Hook] = [:]
    var sections: [TestPlan.Section] = []
    var targets: [TestPlan.URLTarget] = []
    var skippedTargets: [String] = []
    var staticOnly: [(section: String, value: String, location: Location)] = []
    var entryLinks: [String: (hooks: [String], targets: [String])] = [:]

    init(result: ScanResult) {
        self.result = result
        surface = result.surface ?? AttackSurface()
        // Inventory entries (custom trust code, bridges...) point at code to hook too, listed or not.
        let listed = Set(result.findings)
        findings = (result.findings + result.inventory.filter { !listed.contains($0) }).sorted(by: Finding.reportOrder)
            .filter { $0.suppression == nil && !$0.isNonShipping }
        sources = PlanSources(roots: result.roots)
        var paths = Set(findings.map(\.location.path))
        for section in surface.sections { for entry in section.entries { paths.insert(entry.location.path) } }
        binaries = PlanBinaries(roots: result.roots, paths: paths)
    }

    // MARK: Origins

    static func origin(_ sectionTitle: String, _ entry: AttackSurface.Entry) -> String {
        "surface: \(sectionTitle) \(oneLine(entry.value)) at \(TestPlan.describe(entry.location))"
    }

    static func origin(_ finding: Finding) -> String {
        "finding: \(finding.ruleId) (\(finding.severity.rawValue)) \(finding.title) at \(TestPlan.describe(finding.location))"
    }

    static func oneLine(_ text: String) -> String {
        let flat = String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 })
        return flat.count > 160 ? String(flat.prefix(160)) + "…" : flat
    }

    /// The full findings behind an entry's notes.
    func findings(of entry: AttackSurface.Entry) -> [Finding] {
        var result: [Finding] = []
        for note in entry.notes {
            if let finding = findings.first(where: { $0.ruleId == note.ruleId && $0.location == note.location && $0.message == note.message }) {
                result.append(finding)
            }
        }
        return result
    }

    // MARK: Hooks

    /// Adds (or merges into) a hook; returns its label.
    @discardableResult
    mutating func hook(_ target: TestPlan.Hook.Target, _ group: TestPlan.Group, decoder: String? = nil,
                       origins: [String], notes: [String] = []) -> String {
        var hook = TestPlan.Hook(target: target, group: group, decoder: decoder, origins: [], notes: [])
        let label = hook.label
        if let existing = hooks[label] { hook = existing }
        hook.origins = Array(Set(hook.origins + origins)).sorted()
        hook.notes = Array(Set(hook.notes + notes)).sorted()
        hooks[label] = hook
        return label
    }

    /// A hook on the method at a location, or a manual step when it has no Objective-C symbol.
    mutating func hookMethod(at location: Location, named name: String?, group: TestPlan.Group, origins: [String],
                             hooks labels: inout [String], manual: inout [TestPlan.ManualStep]) {
        let cleaned = name.map { String($0.split(separator: " ").first ?? Substring($0)) }
        // A name that is not a function (SwiftUI's `onOpenURL`) must not fall back to the function around it.
        guard let method = cleaned.flatMap({ sources.method(at: location, named: $0) }) ?? (cleaned == nil ? sources.method(at: location) : nil) else {
            let glob = cleaned.map { ObjCNames.mangledGlob(type: nil, kind: nil, function: $0) }
            manual.append(.init(title: "\(cleaned ?? "code") has no Objective-C symbol Moat could find", symbol: glob, location: location,
                                detail: "Pure Swift or a closure (SwiftUI `onOpenURL`, blocks): set a breakpoint there in a debug build, or look the symbol up at run time with `DebugSymbol.findFunctionsMatching('\(glob ?? "*")')` (unstripped builds only)."))
            return
        }
        guard method.isObjCVisible, let selector = method.selector else {
            let glob = ObjCNames.mangledGlob(type: method.className, kind: method.typeKind, function: method.name)
            manual.append(.init(title: "`\(method.className).\(method.name)` is pure Swift", symbol: glob, location: method.location,
                                detail: "No Objective-C selector (a struct, an enum or a non-@objc method): set a breakpoint there in a debug build, or find it with `DebugSymbol.findFunctionsMatching('\(glob)')` (Swift-mangled name; unstripped builds only)."))
            return
        }
        var notes: [String] = []
        if method.isSwift {
            notes.append("Swift class: its runtime name is module-qualified (`Module.\(method.className)`, `_TtC…`) and the module is not known statically; hooks.js tries \(moduleGuesses.map { "`\($0)`" }.joined(separator: ", ")) and then searches the app's classes.")
        }
        let label = hook(.method(className: method.className, isSwift: method.isSwift, selector: selector, isClassMethod: method.isClassMethod),
                         group, origins: origins + ["code: \(method.name) at \(TestPlan.describe(method.location))"], notes: notes)
        labels.append(label)
    }

    /// Module names to try for Swift classes: the targets of the surface entries, the executables of built
    /// apps, the app's name.
    var moduleGuesses: [String] {
        var names = Set<String>()
        for section in surface.sections {
            for entry in section.entries {
                for unit in entry.unit.split(separator: ",") {
                    if let module = ObjCNames.moduleName(unit.trimmingCharacters(in: .whitespaces)) { names.insert(module) }
                }
            }
        }
        for executable in binaries.executables { if let module = ObjCNames.moduleName(executable.name) { names.insert(module) } }
        if names.isEmpty, let app = result.appName, let module = ObjCNames.moduleName(app) { names.insert(module) }
        return names.sorted()
    }

    // MARK: Build

    mutating func build() -> TestPlan {
        let schemeHandlerPaths = Set(surface.urlSchemes.flatMap { $0.handlers.map(\.location.path) })
        let linkHandlerPaths = Set(surface.associatedDomains.flatMap { $0.handlers.map(\.location.path) })
        for section in surface.sections {
            for entry in section.entries {
                plan(entry, key: section.key, title: section.title, schemeHandlerPaths: schemeHandlerPaths, linkHandlerPaths: linkHandlerPaths)
            }
        }
        binarySections()
        trustSection()
        storageSection()
        let ordered = sections.enumerated().sorted { lhs, rhs in
            let left = lhs.element.severity, right = rhs.element.severity
            if left != right {
                guard let left else { return false }
                guard let right else { return true }
                return left > right
            }
            if lhs.element.weight != rhs.element.weight { return lhs.element.weight < rhs.element.weight }
            return lhs.offset < rhs.offset
        }.map(\.element)
        return TestPlan(appName: result.appName, bundleIdentifier: result.bundleIdentifier, toolVersion: result.toolVersion,
                        roots: result.roots, modules: moduleGuesses,
                        hooks: hooks.values.sorted { ($0.group, $0.label) < ($1.group, $1.label) },
                        targets: targets, skippedTargets: skippedTargets, sections: ordered, staticOnly: staticOnly, entryLinks: entryLinks)
    }

    static let staticSections: Set<String> = ["queriedSchemes", "appGroups", "keychainAccessGroups", "capabilities", "usageDescriptions"]

    mutating func plan(_ entry: AttackSurface.Entry, key: String, title: String, schemeHandlerPaths: Set<String>, linkHandlerPaths: Set<String>) {
        if Self.staticSections.contains(key) {
            staticOnly.append((title, entry.value, entry.location))
            return
        }
        let origin = Self.origin(title, entry)
        let entryFindings = findings(of: entry)
        let findingOrigins = entryFindings.map(Self.origin)
        var labels: [String] = []
        var manual: [TestPlan.ManualStep] = []
        var targetLabels: [String] = []
        var text = PlanTexts.texts(for: key, entry: entry, bundle: result.bundleIdentifier)

        switch key {
        case "urlSchemes":
            for handler in entry.handlers {
                hookMethod(at: handler.location, named: handler.name, group: .urlHandlers, origins: [origin] + findingOrigins,
                           hooks: &labels, manual: &manual)
            }
            if entry.handlers.isEmpty { runtimeHandlers(ObjCNames.schemeHandlerSelectors, origin: origin, labels: &labels, manual: &manual, entry: entry) }
            if let target = urlTarget(scheme: entry.value, domain: nil, entry: entry) { targetLabels.append(target.label) }
        case "associatedDomains":
            let service = entry.attributes["service"] ?? entry.kind ?? ""
            guard ["applinks", "activitycontinuation", "appclips"].contains(service) else {
                staticOnly.append((title, entry.value, entry.location))
                return
            }
            for handler in entry.handlers {
                hookMethod(at: handler.location, named: handler.name, group: .urlHandlers, origins: [origin] + findingOrigins,
                           hooks: &labels, manual: &manual)
            }
            if entry.handlers.isEmpty { runtimeHandlers(ObjCNames.linkHandlerSelectors, origin: origin, labels: &labels, manual: &manual, entry: entry) }
            if service == "applinks", let domain = entry.attributes["domain"] ?? entry.value.split(separator: ":", maxSplits: 1).last.map(String.init) {
                if let target = urlTarget(scheme: "https", domain: domain, entry: entry) { targetLabels.append(target.label) }
            }
        case "urlHandlers":
            hookMethod(at: entry.location, named: entry.value, group: .urlHandlers, origins: [origin] + findingOrigins,
                       hooks: &labels, manual: &manual)
            let isLink = linkHandlerPaths.contains(entry.location.path) && !schemeHandlerPaths.contains(entry.location.path)
                || ObjCNames.linkHandlerSelectors.contains(ObjCNames.protocolSelectors[entry.value.split(separator: " ").first.map(String.init) ?? ""] ?? entry.value)
            text = PlanTexts.texts(for: isLink ? "associatedDomains" : "urlSchemes", entry: entry, bundle: result.bundleIdentifier)
            targetLabels = targets.filter { $0.handlers.contains(TestPlan.describe(entry.location)) }.map(\.label)
        case "javaScriptBridges":
            bridge(entry, origins: [origin] + findingOrigins, labels: &labels, manual: &manual)
        case "webViews":
            webView(entry, origins: [origin] + findingOrigins, labels: &labels)
        case "deserialization":
            deserialization(entry, origins: [origin] + findingOrigins, labels: &labels, manual: &manual)
        case "pasteboard":
            pasteboard(entry, origins: [origin] + findingOrigins, labels: &labels)
        case "fileImports", "pushNotifications", "otherIPC", "extensions", "documentTypes":
            let group: TestPlan.Group = key == "fileImports" ? .fileImports : key == "pushNotifications" ? .notifications : .otherIPC
            var places = entry.handlers.map { ($0.location, Optional($0.name)) }
            if places.isEmpty, sources.method(at: entry.location, named: entry.value) != nil { places.append((entry.location, entry.value)) }
            for (location, name) in places {
                hookMethod(at: location, named: name, group: group, origins: [origin] + findingOrigins, hooks: &labels, manual: &manual)
            }
            if places.isEmpty {
                manual.append(.init(title: "No handler method for `\(Self.oneLine(entry.value))`", symbol: nil, location: entry.location,
                                    detail: "Exercise it by hand and watch the file, Keychain and parser hooks."))
            }
        default:
            break
        }
        sections.append(TestPlan.Section(
            title: "\(title): \(Self.oneLine(entry.value))", surfaceSection: key, location: entry.location,
            mastg: Self.mastg(text.mastg, entryFindings), masvs: text.masvs, risk: entry.risk, trigger: text.trigger,
            watch: text.watch, safe: text.safe, findings: entryFindings, hooks: Array(Set(labels)).sorted(),
            targets: targetLabels, manual: manual, weight: text.weight))
        entryLinks[TestPlan.entryKey(key, entry)] = (Array(Set(labels)).sorted(), targetLabels)
    }

    /// The section's MASTG tests, then the known ones of its findings.
    static func mastg(_ own: [String], _ findings: [Finding]) -> [String] {
        var result = own
        for id in findings.flatMap(\.mastg).sorted() where Taxonomy.mastg[id] != nil && !result.contains(id) { result.append(id) }
        return result
    }

    /// Built apps: hook the handler selectors the binary holds, in whatever class implements them.
    mutating func runtimeHandlers(_ selectors: [String], origin: String, labels: inout [String], manual: inout [TestPlan.ManualStep],
                                  entry: AttackSurface.Entry) {
        let names = binaries.allMethodNames
        let present = selectors.filter { names.contains($0) }
        guard !binaries.isEmpty else {
            manual.append(.init(title: "No handler found for `\(Self.oneLine(entry.value))`", symbol: selectors.first, location: entry.location,
                                detail: "The scan found no code receiving these URLs: open the cases anyway and watch for the app's reaction (MOAT-PLAT-107 when it ignores them)."))
            return
        }
        for selector in present.isEmpty ? selectors : present {
            let binary = binaries.executables.first { $0.methodNames.contains(selector) }
            let note = binary.map { "binary: \($0.path) holds the selector" } ?? "binary: selector not in __objc_methname; hooked in case"
            labels.append(hook(.implementations(selector: selector), .urlHandlers, origins: [origin, note]))
        }
    }

    // MARK: Bridges, web views

    mutating func bridge(_ entry: AttackSurface.Entry, origins: [String], labels: inout [String], manual: inout [TestPlan.ManualStep]) {
        for handler in entry.handlers {
            hookMethod(at: handler.location, named: handler.name, group: .webBridges, origins: origins, hooks: &labels, manual: &manual)
        }
        guard entry.handlers.isEmpty else { return }
        if let declared = sources.protocolMembers(at: entry.location, named: entry.value), !declared.selectors.isEmpty {
            var notes: [String] = []
            if declared.isSwift {
                notes.append("Swift protocol: the runtime name of `\(declared.name)` is module-qualified (`_TtP…`); hooks.js matches the protocol by its Swift name.")
            }
            labels.append(hook(.adopters(protocolName: declared.name, isSwift: declared.isSwift, selectors: declared.selectors), .webBridges,
                               origins: origins, notes: notes))
            return
        }
        let handlers = sources.methods(in: entry.location.path, named: APIs.scriptMessageReceipt.fullCallNames)
        if !handlers.isEmpty {
            for method in handlers {
                hookMethod(at: method.location, named: method.name, group: .webBridges, origins: origins, hooks: &labels, manual: &manual)
            }
            return
        }
        // A block or object placed in a JSContext: what the page is given shows in the subscript setter.
        labels.append(hook(.method(className: APIs.javaScriptContextStore.classes[0], isSwift: false, selector: APIs.javaScriptContextStore.selectors[0],
                                   isClassMethod: false),
                           .webBridges, origins: origins))
        manual.append(.init(title: "Blocks given to JSContext have no symbol of their own",
                            symbol: "-[\(APIs.javaScriptContextStore.classes[0]) \(APIs.javaScriptContextStore.selectors[0])]", location: entry.location,
                            detail: "The JSContext hook shows the name and the block; to trace the block, hook its `invoke` pointer (`new ObjC.Block(ptr).implementation`)."))
    }

    /// The loads and script evaluations hooked per web view class (the vocabulary's first selector of each).
    static let webViewSelectors: [String: [String]] = [
        "WKWebView": [APIs.webViewLoadRequest, APIs.webViewLoadFileURL, APIs.webViewLoadHTML, APIs.webViewJavaScriptEvaluation].map { $0.selectors[0] },
        APIs.uiWebView.classes[0]: [APIs.webViewLoadRequest, APIs.webViewLoadHTML, APIs.uiWebViewJavaScriptEvaluation].map { $0.selectors[0] },
    ]

    mutating func webView(_ entry: AttackSurface.Entry, origins: [String], labels: inout [String]) {
        guard let selectors = Self.webViewSelectors[entry.value] else { return }
        for selector in selectors {
            labels.append(hook(.method(className: entry.value, isSwift: false, selector: selector, isClassMethod: false), .webViews, origins: origins))
        }
    }

    // MARK: Deserialization

    /// Swift call names and selectors of the keyed unarchiver → its Objective-C selectors, signed (`+`
    /// class methods, `-` initializers).
    static let unarchiverSelectors: [String: String] = {
        var table: [String: String] = [:]
        for (api, sign) in [(APIs.keyedUnarchiverLegacy, "+"), (APIs.keyedUnarchiverSecure, "+"),
                            (APIs.keyedUnarchiverSecureInit, "-"), (APIs.keyedUnarchiverLegacyInit, "-")] {
            for (name, selector) in sentSelectors(api) { table[name] = sign + selector }
            for selector in api.selectors { table[selector] = sign + selector }
        }
        return table
    }()

    /// The selector each Swift name of a call sends. The vocabulary lists the Swift names in the order of
    /// their selectors; a Swift name past the last selector is a Swift refinement that sends the selector
    /// of the first Swift name with its base name (`unarchivedDictionary(ofKeyClass:objectClass:from:)`), or
    /// a Swift-only spelling with none (the Swift 2 `unarchiveObjectWithData(_:)`).
    static func sentSelectors(_ api: API) -> [String: String] {
        var result = api.selectorsBySwiftName
        let paired = api.swift.prefix(api.selectors.count)
        func base(_ name: String) -> Substring { name.prefix { $0 != "(" } }
        for name in api.swift.dropFirst(api.selectors.count) where result[name] == nil {
            if let index = paired.firstIndex(where: { base($0) == base(name) }) { result[name] = api.selectors[index] }
        }
        return result
    }

    /// The keyed unarchiver's hook when the call is not known, and the setter of its secure-coding switch.
    static let unarchiverDefault = "+" + APIs.keyedUnarchiverLegacy.selectors[0]
    static let secureCodingSetter = "-" + APIs.keyedUnarchiverRequiresSecureCoding.selectors[0]

    /// The JSON and property-list reads hooked (`+` class methods).
    static let jsonRead = APIs.jsonSerializationRead.selectors[0], propertyListRead = APIs.propertyListSerializationRead.selectors[0]
    /// `NSXMLParser`'s initializers and its external-entity switch.
    static let xmlParserSelectors = APIs.xmlParserInit.selectors + APIs.xmlResolveExternalEntities.selectors

    /// Parsers by the words of the API name → (class, selectors).
    static let parserSelectors: [(words: [String], className: String, selectors: [String])] = [
        (["JSONSerialization", "JSONObjectWith"], "NSJSONSerialization", ["+" + jsonRead]),
        (["PropertyListSerialization", "propertyList"], "NSPropertyListSerialization", ["+" + propertyListRead]),
    ] + zip(APIs.xmlParserInit.swift, APIs.xmlParserInit.selectors).map { swift, selector -> (words: [String], className: String, selectors: [String]) in
        ([swift, selector], "NSXMLParser", ["-" + selector, "-parse", "-" + APIs.xmlResolveExternalEntities.selectors[0]])
    }

    mutating func systemHook(_ className: String, _ signed: String, _ group: TestPlan.Group, origins: [String], decoder: String? = nil) -> String {
        let isClass = signed.hasPrefix("+")
        let selector = String(signed.drop { $0 == "+" || $0 == "-" })
        return hook(.method(className: className, isSwift: false, selector: selector, isClassMethod: isClass), group, decoder: decoder, origins: origins)
    }

    mutating func deserialization(_ entry: AttackSurface.Entry, origins: [String], labels: inout [String], manual: inout [TestPlan.ManualStep]) {
        let value = entry.value
        let words = value.split(whereSeparator: { $0 == " " || $0 == "." }).map(String.init)
        if value.contains("NSKeyedUnarchiver") {
            let call = words.last ?? ""
            let signed = Self.unarchiverSelectors[call] ?? Self.unarchiverSelectors[value] ?? Self.unarchiverDefault
            labels.append(systemHook("NSKeyedUnarchiver", signed, .deserialization, origins: origins))
            labels.append(systemHook("NSKeyedUnarchiver", Self.secureCodingSetter, .deserialization, origins: origins))
            return
        }
        if let colon = value.range(of: ": "), value.hasSuffix("Coding") {
            // `Type: NSCoding`: the class decodes itself in initWithCoder:.
            let className = String(value[..<colon.lowerBound])
            let isSwift = SourceLanguageGuess.isSwift(entry.location.path)
            var notes: [String] = []
            if isSwift { notes.append("Swift class: runtime name guessed from the module names (see the header of hooks.js).") }
            labels.append(hook(.method(className: PlanSources.typeName(className), isSwift: isSwift, selector: APIs.coderInit.selectors[0],
                                       isClassMethod: false),
                               .deserialization, origins: origins, notes: notes))
            return
        }
        for parser in Self.parserSelectors where parser.words.contains(where: { value.contains($0) }) {
            for selector in parser.selectors { labels.append(systemHook(parser.className, selector, .deserialization, origins: origins)) }
            return
        }
        // Swift-only decoders (JSONDecoder, PropertyListDecoder, Decoder): no Objective-C symbol.
        let type = words.first ?? value
        let glob = ObjCNames.mangledGlob(type: type == "Decoder" ? nil : type, kind: .class, function: "decode")
        manual.append(.init(title: "`\(Self.oneLine(value))` is a Swift API", symbol: glob, location: entry.location,
                            detail: "No Objective-C symbol: break on the call in a debug build, or trace `DebugSymbol.findFunctionsMatching('\(glob)')` in Foundation; feed the feature crafted input (wrong types, huge numbers, deep nesting) and watch for crashes."))
    }

    // MARK: Pasteboard

    static let pasteboardSelectors: [String: [String]] = [
        "string": ["string", "setString:"], "strings": ["strings", "setStrings:"], "url": ["URL", "setURL:"], "URL": ["URL", "setURL:"],
        "urls": ["URLs", "setURLs:"], "URLs": ["URLs", "setURLs:"], "image": ["image", "setImage:"], "images": ["images", "setImages:"],
        "color": ["color", "setColor:"], "colors": ["colors", "setColors:"], "items": ["items", "setItems:"],
        "itemProviders": ["itemProviders", "setItemProviders:"],
    ].merging([APIs.pasteboardContentsByType, APIs.pasteboardWrite, APIs.pasteboardLocalWrite].flatMap(\.selectorsBySwiftName)
                .map { ($0.key, [$0.value]) }) { first, _ in first }

    mutating func pasteboard(_ entry: AttackSurface.Entry, origins: [String], labels: inout [String]) {
        if entry.kind == "named pasteboard" {
            // Which named pasteboards the app opens, and with what names, at run time.
            labels.append(hook(.method(className: "UIPasteboard", isSwift: false, selector: APIs.namedPasteboard.selectors[0], isClassMethod: true),
                               .pasteboard, origins: origins))
            return
        }
        let last = entry.value.split(whereSeparator: { $0 == " " || $0 == "." }).last.map(String.init) ?? entry.value
        let selectors = Self.pasteboardSelectors[last] ?? (last.contains(":") && !last.contains("(") ? [last] : [])
        for selector in selectors {
            labels.append(hook(.method(className: "UIPasteboard", isSwift: false, selector: selector, isClassMethod: false), .pasteboard,
                               origins: origins))
        }
    }

    // MARK: Trust and storage

    static func isCode(_ path: String) -> Bool { SourceLanguageGuess.isSource(path) }

    mutating func trustSection() {
        // Network findings in code; web view ones have their own sections.
        let network = findings.filter { finding in
            finding.masvs.contains { $0.hasPrefix("MASVS-NETWORK") } && !finding.masvs.contains { $0.hasPrefix("MASVS-PLATFORM") }
                && Self.isCode(finding.location.path)
        }
        var labels: [String] = []
        var manual: [TestPlan.ManualStep] = []
        let origins = network.map(Self.origin)
        let baseline = origins.isEmpty ? ["baseline: every app evaluating server trust (MASTG-TEST-0067)"] : origins
        let evaluateWithError = APIs.secTrustEvaluateWithError.cFunctions[0], evaluate = APIs.secTrustEvaluateLegacy.cFunctions[0]
        labels.append(hook(.function(name: evaluateWithError), .trust, decoder: "trustWithError", origins: baseline + importEvidence(evaluateWithError)))
        labels.append(hook(.function(name: evaluate), .trust, decoder: "trustResult", origins: baseline + importEvidence(evaluate)))
        // Delegate methods in the files of the network findings (source), or in any class (built apps).
        let names = Set(ObjCNames.trustDelegateSelectors + ObjCNames.protocolSelectors.filter { ObjCNames.trustDelegateSelectors.contains($0.value) }.map(\.key))
        for path in Set(network.map(\.location.path)).sorted() {
            for method in sources.methods(in: path, named: names) {
                let related = network.filter { $0.location.path == path }.map(Self.origin)
                hookMethod(at: method.location, named: method.name, group: .trust, origins: related, hooks: &labels, manual: &manual)
            }
        }
        if !binaries.isEmpty {
            for selector in ObjCNames.trustDelegateSelectors where binaries.allMethodNames.contains(selector) {
                labels.append(hook(.implementations(selector: selector), .trust, origins: ["binary: the app holds the selector \(selector)"]))
            }
        }
        let text = PlanTexts.trust
        sections.append(TestPlan.Section(title: "Server trust evaluation", surfaceSection: nil, location: nil,
                                         mastg: Self.mastg(text.mastg, network), masvs: text.masvs, risk: nil, trigger: text.trigger,
                                         watch: text.watch, safe: text.safe, findings: network, hooks: Array(Set(labels)).sorted(),
                                         targets: [], manual: manual, weight: text.weight))
    }

    /// Built apps: the executables that import a C function.
    func importEvidence(_ name: String) -> [String] {
        binaries.executables.filter { $0.imports.contains(name) }.map { "binary: \($0.path) imports \(name)" }
    }

    /// Built apps: unarchivers, parsers and script message handlers the executables name, with the
    /// findings located at those selectors.
    mutating func binarySections() {
        guard !binaries.isEmpty else { return }
        var decoding: [String] = []
        var decodingFindings: [Finding] = []
        var bridges: [String] = []
        for executable in binaries.executables {
            let xml = executable.imports.contains("OBJC_CLASS_$_NSXMLParser")
            for name in executable.methodNames.sorted() {
                let matching = findings.filter { $0.location.symbol == name && $0.location.path == executable.path }
                let origins = ["binary: \(executable.path) holds the selector \(name)"] + matching.map(Self.origin)
                if let signed = Self.unarchiverSelectors[name] {
                    decodingFindings += matching
                    decoding.append(systemHook("NSKeyedUnarchiver", signed, .deserialization, origins: origins))
                    decoding.append(systemHook("NSKeyedUnarchiver", Self.secureCodingSetter, .deserialization, origins: origins))
                } else if name == Self.jsonRead || name == Self.propertyListRead || (xml && Self.xmlParserSelectors.contains(name)) {
                    let parser = name == Self.jsonRead ? "NSJSONSerialization" : name == Self.propertyListRead ? "NSPropertyListSerialization" : "NSXMLParser"
                    decodingFindings += matching
                    decoding.append(systemHook(parser, (parser == "NSXMLParser" ? "-" : "+") + name, .deserialization, origins: origins))
                    if parser == "NSXMLParser" { decoding.append(systemHook(parser, "-parse", .deserialization, origins: origins)) }
                } else if ObjCNames.messageHandlerSelectors.contains(name) {
                    bridges.append(hook(.implementations(selector: name), .webBridges, origins: origins))
                }
            }
        }
        if !decoding.isEmpty {
            let text = PlanTexts.texts(for: "deserialization", entry: AttackSurface.Entry(unit: "", value: "", location: Location(path: "", line: 0)),
                                       bundle: result.bundleIdentifier)
            sections.append(TestPlan.Section(title: "Unarchivers and parsers the binary uses", surfaceSection: nil, location: nil,
                                             mastg: Self.mastg(text.mastg, decodingFindings), masvs: text.masvs, risk: nil, trigger: text.trigger,
                                             watch: text.watch, safe: text.safe, findings: decodingFindings, hooks: Array(Set(decoding)).sorted(),
                                             targets: [], manual: [], weight: text.weight))
        }
        if !bridges.isEmpty {
            let text = PlanTexts.texts(for: "javaScriptBridges", entry: AttackSurface.Entry(unit: "", value: "", location: Location(path: "", line: 0)),
                                       bundle: result.bundleIdentifier)
            sections.append(TestPlan.Section(title: "Script message handlers the binary defines", surfaceSection: nil, location: nil,
                                             mastg: text.mastg, masvs: text.masvs, risk: nil, trigger: text.trigger, watch: text.watch,
                                             safe: text.safe, findings: [], hooks: Array(Set(bridges)).sorted(), targets: [], manual: [],
                                             weight: text.weight))
        }
    }

    mutating func storageSection() {
        // Storage findings in code; secrets in the code itself (also MASVS-CRYPTO) are not data at rest.
        let storage = findings.filter { finding in
            finding.masvs.contains { $0.hasPrefix("MASVS-STORAGE") } && !finding.masvs.contains { $0.hasPrefix("MASVS-CRYPTO") }
                && Self.isCode(finding.location.path)
        }
        let origins = storage.map(Self.origin)
        let baseline = origins.isEmpty ? ["baseline: every app storing data (MASTG-TEST-0052)"] : origins
        var labels: [String] = []
        // NSData's writes: those given options (their decoder prints the writing options), and the atomic write to a path.
        for selector in APIs.fileWrite.selectors where selector.hasSuffix(":options:error:") {
            labels.append(systemHook("NSData", "-" + selector, .storage, origins: baseline, decoder: "dataWriting"))
        }
        labels.append(systemHook("NSData", "-" + APIs.fileWrite.selectors[0], .storage, origins: baseline))
        labels.append(systemHook("NSFileManager", "-" + APIs.fileManagerCreateFile.selectors[0], .storage, origins: baseline))
        for function in APIs.keychainItemWrite.cFunctions { // SecItemAdd, SecItemUpdate
            labels.append(hook(.function(name: function), .storage, decoder: "keychain", origins: baseline + importEvidence(function)))
        }
        let text = PlanTexts.storage
        sections.append(TestPlan.Section(title: "Data at rest: file writes and Keychain items", surfaceSection: nil, location: nil,
                                         mastg: Self.mastg(text.mastg, storage), masvs: text.masvs, risk: nil, trigger: text.trigger,
                                         watch: text.watch, safe: text.safe, findings: storage, hooks: Array(Set(labels)).sorted(),
                                         targets: [], manual: [], weight: text.weight))
    }

    // MARK: URL targets

    /// The URL target of a scheme or domain (created once), with the vocabulary of its handlers.
    /// A URL scheme as RFC 3986 allows it: a letter, then letters, digits, `+`, `-` and `.`.
    static func isValidScheme(_ scheme: String) -> Bool {
        guard let first = scheme.unicodeScalars.first, first.isASCII, CharacterSet.letters.contains(first) else { return false }
        return scheme.count <= 64 && scheme.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "+-.".unicodeScalars.contains($0)) }
    }

    /// A domain of letters, digits, `-` and `.` (after `*.` is replaced).
    static func isValidDomain(_ domain: String) -> Bool {
        !domain.isEmpty && domain.count <= 253 && !domain.hasPrefix(".") && !domain.hasPrefix("-")
            && domain.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == ".") }
    }

    mutating func urlTarget(scheme: String, domain: String?, entry: AttackSurface.Entry) -> TestPlan.URLTarget? {
        let label = domain.map { "https://\($0)" } ?? "\(scheme)://"
        if let existing = targets.first(where: { $0.label == label }) { return existing }
        let host = domain.map { $0.hasPrefix("*.") ? "www." + $0.dropFirst(2) : $0 }
        guard Self.isValidScheme(scheme), host.map(Self.isValidDomain) ?? true else {
            skippedTargets.append("\(Self.oneLine(label)) declared at \(TestPlan.describe(entry.location)): not a valid URL \(domain == nil ? "scheme" : "domain"), no case generated")
            return nil
        }
        var vocabulary = PlanSources.URLVocabulary()
        for path in Set(entry.handlers.map(\.location.path)).sorted() { vocabulary.formUnion(sources.urlVocabulary(path)) }
        // Built apps: URLs of this scheme or domain embedded in the binary.
        for executable in binaries.executables {
            for string in executable.urlStrings {
                guard let components = URLComponents(string: string), components.scheme?.lowercased() == scheme.lowercased() else { continue }
                if let domain, components.host?.lowercased() != domain.lowercased() { continue }
                if domain == nil, let host = components.host, !host.isEmpty { vocabulary.hosts.insert(host) }
                if !components.path.isEmpty, components.path != "/" { vocabulary.paths.insert(components.path) }
                for item in components.queryItems ?? [] where PlanSources.isParameterName(item.name) { vocabulary.parameters.insert(item.name) }
            }
        }
        let badHosts = vocabulary.hosts.filter { !Self.isValidDomain($0.replacingOccurrences(of: "_", with: "-")) }
        vocabulary.hosts.subtract(badHosts)
        if !badHosts.isEmpty {
            skippedTargets.append("\(label) hosts not valid in a URL, left out: " + badHosts.sorted().map(Self.oneLine).joined(separator: ", "))
        }
        var target = TestPlan.URLTarget(scheme: scheme, domain: host, declaredAt: entry.location,
                                        handlers: entry.handlers.map { TestPlan.describe($0.location) }.sorted(),
                                        hosts: domain == nil ? vocabulary.hosts.sorted() : [], paths: vocabulary.paths.sorted(),
                                        parameters: vocabulary.parameters.sorted(), cases: [])
        target.cases = URLCases.cases(for: target, bundle: result.bundleIdentifier)
        targets.append(target)
        return target
    }
}

/// Languages by file name, for paths of findings and entries.
enum SourceLanguageGuess {
    static func isSwift(_ path: String) -> Bool { path.lowercased().hasSuffix(".swift") }
    static func isSource(_ path: String) -> Bool {
        let name = path.lowercased()
        return [".swift", ".m", ".mm", ".c", ".cc", ".cpp", ".h"].contains { name.hasSuffix($0) }
    }
}
