import MoatCore
import MoatSyntax

/// WWDC anti-pattern 3: the set of classes a decoder may create is built from input, from every class in
/// the process, or is so broad (`NSObject`) that it allows everything.
public struct DeserializationAllowlistRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-CODE-303", slug: "unbounded-class-allowlist", title: "Class allowlist built from input or from every class",
        severity: .high, confidence: .high, evidence: .dataflow, cwe: [502, 470],
        masvs: ["MASVS-CODE-4"], mastg: ["MASTG-TEST-0079"],
        rationale: "Secure coding only helps when the set of allowed classes is fixed by the app. A class looked up by a name the data provides (`NSClassFromString`), a set filled from `objc_copyClassList` without a protocol filter, or a set that contains `NSObject` lets a crafted archive or message create objects of any class the process has loaded, the first step of object-injection attacks.",
        fix: "Build the allowed classes from an explicit rule: a fixed list, or only the classes that conform to a marker protocol (`class_conformsToProtocol(cls, @protocol(MyDecodable))`). Check a looked-up class against that rule before using it, and never put `NSObject` in the set.",
        references: ["https://developer.apple.com/videos/play/wwdc2022/10060/",
                     "https://developer.apple.com/documentation/foundation/nskeyedunarchiver/2983380-unarchivedobject"],
        examples: [
            .triggering("ClassList.m", """
            NSSet *classesWhichConformToProtocol(Protocol *protocol) {
                NSMutableSet *conformingClasses = [NSMutableSet set];

                unsigned int classesCount = 0;
                Class *classes = objc_copyClassList(&classesCount);
                if (classes != NULL) {
                    for (unsigned int i = 0; i < classesCount; i++) {
                        ↓[conformingClasses addObject: classes[i]];
                    }
                    free(classes);
                }
                return conformingClasses;
            }
            """, note: "The WWDC snippet without its class_conformsToProtocol filter."),
            .triggering("ClassList.swift", """
            func decodableClasses() -> [AnyClass] {
                var count: UInt32 = 0
                guard let classList = objc_copyClassList(&count) else { return [] }
                var result: [AnyClass] = []
                for index in 0..<Int(count) {
                    ↓result.append(classList[index])
                }
                return result
            }
            """),
            .triggering("Bridge.swift", """
            import WebKit
            final class Bridge: NSObject, WKScriptMessageHandler {
                func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage) {
                    guard let body = message.body as? [String: String], let className = body["class"],
                          let encoded = body["data"], let archive = Data(base64Encoded: encoded),
                          let modelClass = ↓NSClassFromString(className) else { return }
                    let model = try? NSKeyedUnarchiver.unarchivedObject(ofClasses: [modelClass], from: archive)
                    show(model)
                }
            }
            """),
            .triggering("Download.swift", """
            func fetchProfile(from url: URL) {
                URLSession.shared.dataTask(with: url) { data, _, _ in
                    guard let data else { return }
                    let profile = try? ↓NSKeyedUnarchiver.unarchivedObject(ofClasses: [NSObject.self], from: data)
                    print(profile as Any)
                }.resume()
            }
            """),
            .triggering("Push.m", """
            - (void)application:(UIApplication *)application didReceiveRemoteNotification:(NSDictionary *)userInfo
                fetchCompletionHandler:(void (^)(UIBackgroundFetchResult))completionHandler {
                Class modelClass = ↓NSClassFromString(userInfo[@"type"]);
                NSSet *classes = [NSSet setWithObject:modelClass];
                id model = [NSKeyedUnarchiver unarchivedObjectOfClasses:classes fromData:userInfo[@"payload"] error:nil];
                [self show:model];
            }
            """),
            .nonTriggering("ClassList.m", """
            NSSet *classesWhichConformToProtocol(Protocol *protocol) {
                NSMutableSet *conformingClasses = [NSMutableSet set];

                unsigned int classesCount = 0;
                Class *classes = objc_copyClassList(&classesCount);
                if (classes != NULL) {
                    for (unsigned int i = 0; i < classesCount; i++) {
                        if (class_conformsToProtocol(classes[i], protocol)) {
                            [conformingClasses addObject: classes[i]];
                        }
                    }
                    free(classes);
                }
                return conformingClasses;
            }
            """, note: "The WWDC snippet as written."),
            .nonTriggering("ClassList.swift", """
            func decodableClasses(conformingTo proto: Protocol) -> [AnyClass] {
                var count: UInt32 = 0
                guard let classList = objc_copyClassList(&count) else { return [] }
                var result: [AnyClass] = []
                for index in 0..<Int(count) {
                    let cls: AnyClass = classList[index]
                    if class_conformsToProtocol(cls, proto) {
                        result.append(cls)
                    }
                }
                return result
            }
            """),
            .nonTriggering("Bridge.swift", """
            import WebKit
            final class Bridge: NSObject, WKScriptMessageHandler {
                func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage) {
                    guard let body = message.body as? [String: String], let className = body["class"],
                          let encoded = body["data"], let archive = Data(base64Encoded: encoded),
                          let modelClass = NSClassFromString(className), modelClass.conforms(to: SafeDecodable.self) else { return }
                    let model = try? NSKeyedUnarchiver.unarchivedObject(ofClasses: [modelClass], from: archive)
                    show(model)
                }
            }
            """, note: "The looked-up class is checked against a marker protocol before use."),
            .nonTriggering("Download.swift", """
            func fetchProfile(from url: URL) {
                URLSession.shared.dataTask(with: url) { data, _, _ in
                    guard let data else { return }
                    let profile = try? NSKeyedUnarchiver.unarchivedObject(ofClasses: [Profile.self, NSString.self, NSArray.self], from: data)
                    print(profile as Any)
                }.resume()
            }
            """),
            .nonTriggering("Push.m", """
            - (void)application:(UIApplication *)application didReceiveRemoteNotification:(NSDictionary *)userInfo
                fetchCompletionHandler:(void (^)(UIBackgroundFetchResult))completionHandler {
                NSString *type = userInfo[@"type"];
                if (![self.allowedModelNames containsObject:type]) {
                    return;
                }
                NSSet *classes = [NSSet setWithObject:NSClassFromString(type)];
                id model = [NSKeyedUnarchiver unarchivedObjectOfClasses:classes fromData:userInfo[@"payload"] error:nil];
                [self show:model];
            }
            """),
            .triggering("Widgets.swift", """
            func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
                guard let names = message.body as? [String] else { return }
                let widgets = names.compactMap { ↓NSClassFromString($0) as? UIView.Type }
                widgets.forEach { container.addSubview($0.init()) }
            }
            """, note: "Class names from page JavaScript turned into classes inside a closure."),
            .triggering("Restore.swift", """
            func restoreLastScreen() -> UIViewController? {
                guard let name = UserDefaults.standard.string(forKey: "lastScreen"),
                      let screen = ↓NSClassFromString(name) as? UIViewController.Type else { return nil }
                return screen.init()
            }
            """, note: "A class name read back from storage: medium severity, low confidence (the app usually stored it itself)."),
            .triggering("Restore.m", """
            - (UIViewController *)restoreLastScreen {
                NSString *name = [[NSUserDefaults standardUserDefaults] stringForKey:@"lastScreen"];
                Class screen = ↓NSClassFromString(name);
                return [[screen alloc] initWithNibName:nil bundle:nil];
            }
            """),
            .nonTriggering("Widgets.swift", """
            func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
                guard let names = message.body as? [String] else { return }
                let known = names.filter { NSClassFromString($0) != nil }
                print(known)
            }
            """, note: "Only checking that a class exists creates nothing."),
            .nonTriggering("Restore.swift", """
            func restoreLastScreen() -> UIViewController? {
                guard let name = UserDefaults.standard.string(forKey: "lastScreen"),
                      let screen = NSClassFromString(name) as? UIViewController.Type,
                      screen.conforms(to: RestorableScreen.self) else { return nil }
                return screen.init()
            }
            """, note: "The stored class is checked against a marker protocol first."),
        ])

    public init() {}

    static let broadClasses: Set<String> = ["NSObject", "NSProxy", "AnyObject", "NSObjectProtocol"]
    static let collectors: Set<String> = Set(["insert", "append", "add", "formUnion", "union",
                                              APIs.collectionFromCArray.selectors[0], APIs.collectionFromCArray.selectors[1], APIs.collectionFromCArray.selectors[2],
                                              APIs.setAddingObject.selectors[0], "Set", "NSSet", "Array", "NSMutableSet"] + APIs.collectionAdd.selectors)
    static let filters: Set<String> = Set(["class_conformsToProtocol", "conforms", "isSubclass", APIs.collectionContains.selectors[0], "contains",
                                           "class_getSuperclass"] + APIs.classRelationCheck.selectors)

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        var reported = Set<Int>()
        // Classes looked up by an untrusted name, then used.
        for flow in unit.flows(rule: Self.description.id) where flow.kind == .classLookup {
            // Evidence of untrusted input first: a stored name only when nothing else reaches the lookup.
            for taint in flow.taints(.className).sorted(by: { ($0.source?.kind.flow == .stored ? 1 : 0) < ($1.source?.kind.flow == .stored ? 1 : 0) }) {
                guard let lookup = taint.classLookup, let source = taint.source,
                      taint.checks.isDisjoint(with: [.protocolChecked, .allowlisted, .validated]),
                      reported.insert(lookup.start.offset).inserted else { continue }
                // A name the app stored itself is evidence only as strong as what could write the storage.
                let stored = source.kind.flow == .stored
                let message = stored
                    ? "\(DataflowReporting.capitalized(source.description)) names the class that is looked up here and then used by \(flow.calledName): whoever can write that storage (a restored backup, a shared app group, an earlier injection) picks any class the process has loaded. Check the class against a marker protocol or an allowlist first."
                    : "\(DataflowReporting.capitalized(source.description)) names the class that is looked up here and then used by \(flow.calledName): a crafted value picks any class the process has loaded. Check the class against a marker protocol or an allowlist first."
                DataflowReporting.report(message, flow: flow, taint: taint, at: lookup, in: file, severity: stored ? .medium : nil,
                                         confidence: Self.description.confidence, &sink)
            }
        }
        // Untrusted data unarchived with a set that allows everything.
        for flow in unit.flows(rule: Self.description.id) where flow.kind == .unarchive {
            guard let taint = flow.taints(.data).first(where: { !$0.isInertString }), let source = taint.source,
                  let classes = flow.arguments[.classes], let broad = broadClass(classes, function: flow.function, file),
                  reported.insert(flow.range.start.offset).inserted else { continue }
            let message = "\(DataflowReporting.capitalized(source.description)) is unarchived by \(flow.calledName) with \(broad) among the allowed classes: every class that adopts NSSecureCoding is allowed, so the allowlist does not limit what the data can create."
            DataflowReporting.report(message, flow: flow, taint: taint, in: file, confidence: Self.description.confidence, &sink)
        }
        // Sets filled from objc_copyClassList without a filter (only where the file names it).
        guard unit.names.contains("objc_copyClassList") else { return }
        for (function, _) in file.allFunctions {
            guard let body = function.body else { continue }
            DominanceWalk.walk(body.statements) { statement, dominance in
                for expression in statement.expressions {
                    for node in expression.descendants() {
                        guard let range = unfilteredCollection(node, dominance), reported.insert(range.start.offset).inserted else { continue }
                        let target = node.receiver.map { CodeText.of($0, in: file) } ?? CodeText.of(node, in: file)
                        sink.report("\(function.fullName) adds the classes returned by objc_copyClassList to `\(target)` without a class_conformsToProtocol filter: an allowed-class set built this way lets an archive create any class in the process.",
                                    in: file, at: range, confidence: .medium)
                    }
                }
            }
        }
    }

    /// A call that collects elements of an `objc_copyClassList` result with no protocol filter dominating it.
    private func unfilteredCollection(_ call: Expression, _ dominance: Dominance) -> SourceRange? {
        guard case .call(let callee, let arguments, _) = call.kind, let name = callee.name, Self.collectors.contains(name) else { return nil }
        var lists = Set<String>()
        for binding in dominance.bindings where binding.value.descendants().contains(where: { $0.name == "objc_copyClassList" }) {
            lists.formUnion(binding.names)
        }
        guard !lists.isEmpty else { return nil }
        var elements = lists
        for binding in dominance.bindings where !binding.value.referencedNames.isDisjoint(with: elements) {
            elements.formUnion(binding.names)
        }
        let collected = arguments.contains { argument in
            !argument.value.referencedNames.isDisjoint(with: elements) && !containsFilter(argument.value)
        }
        guard collected else { return nil }
        let filtered = dominance.checkedExpressions.contains(where: containsFilter)
        return filtered ? nil : call.range
    }

    private func containsFilter(_ expression: Expression) -> Bool {
        var stack = [expression]
        while let next = stack.popLast() {
            for node in next.descendants() {
                if let name = node.name, node.isCall, Self.filters.contains(name) { return true }
                if case .closure(_, let body) = node.kind {
                    for statement in body.statements { stack.append(contentsOf: statement.expressions) }
                }
            }
        }
        return false
    }

    /// `NSObject` (or every class of the process) in a class set: directly, or in the initializer or
    /// additions of the variable passed.
    private func broadClass(_ classes: Expression, function: String?, _ file: CodeFile) -> String? {
        var expressions = [classes]
        if let name = classes.accessPath, let function, let body = file.allFunctions.first(where: { $0.function.fullName == function })?.function.body {
            body.walk { node, _ in
                guard case .statement(let statement) = node else { return }
                switch statement.kind {
                case .variable(let names, _, let initializer?, _) where names.contains(name):
                    expressions.append(initializer)
                case .assignment(let target, _, let value) where target.accessPath == name:
                    expressions.append(value)
                case .expression(let expression):
                    if case .call(let callee, let arguments, _) = expression.unwrapped.kind, callee.receiver?.accessPath == name {
                        expressions.append(contentsOf: arguments.map(\.value))
                    }
                default: break
                }
            }
        }
        for expression in expressions {
            for node in expression.descendants() {
                switch node.kind {
                case .identifier(let name), .typeValue(let name):
                    if Self.broadClasses.contains(name) { return "`\(name)`" }
                    if name.hasPrefix("NSObject.") || name.hasPrefix("NSProxy.") { return "`NSObject`" }
                case .call(let callee, _, _):
                    if callee.name == "objc_copyClassList" { return "every class of objc_copyClassList" }
                default: break
                }
            }
        }
        return nil
    }
}
