import Foundation
import MoatCore
import MoatScan
import Testing
@testable import MoatReport
@testable import MoatTestSupport

/// `moat plan`: golden files for the example app and for a built app assembled here, the generated script
/// parsed by Node, every URL case a valid URL of its scheme, only known MASTG ids.
///
/// Golden files live in Tests/Golden/plan-*/. After an intended change, regenerate them with
/// `MOAT_UPDATE_GOLDEN=1 swift test --skip-build --filter PlanTests` and review the diff.
@Suite("moat plan") struct PlanTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let golden = packageRoot.appendingPathComponent("Tests/Golden")
    static let leakyBank = packageRoot.appendingPathComponent("Examples/LeakyBank")

    static func scan(_ paths: [String]) throws -> ScanResult {
        var options = ScanOptions(paths: paths)
        options.jobs = 2
        return try Scanner.scan(options).result
    }

    /// The plan of the example app; golden files use a fixed tool version so a release does not change them.
    static func leakyBankPlan(goldenVersion: Bool = true) throws -> TestPlan {
        var plan = TestPlan.make(try scan([leakyBank.path]))
        if goldenVersion { plan.toolVersion = "GOLDEN" }
        return plan
    }

    // MARK: A built app

    static let vaultEntitlements = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
    \t<key>com.apple.developer.associated-domains</key>
    \t<array>
    \t\t<string>applinks:links.vault.example</string>
    \t</array>
    </dict>
    </plist>
    """

    /// `Vault.ipa`: a Swift app delegate and an Objective-C class, the URL-handler, universal-link, script
    /// message and trust-delegate selectors, the legacy unarchiver, Keychain and trust imports, a
    /// `vault://` URL string, the `vault` scheme and a universal-link domain.
    static func vaultIPA() throws -> Data {
        var writer = MachOWriter()
        writer.commands = [
            .segment("__TEXT", [
                MachOWriter.Section("__text", Data(count: 16), flags: 0x8000_0400),
                .strings("__cstring", ["vault://open/statement?doc=statement&mode=view", "https://api.vault.example/v1/accounts"]),
                .strings("__objc_classname", ["_TtC5Vault11AppDelegate", "VLTArchive"]),
                .strings("__objc_methname", ["application:openURL:options:", "application:continueUserActivity:restorationHandler:",
                                             "userContentController:didReceiveScriptMessage:", "unarchiveObjectWithData:",
                                             "URLSession:didReceiveChallenge:completionHandler:"]),
            ]),
            .dylib(MachOWriter.loadDylib, "/usr/lib/libSystem.B.dylib"),
            .chainedFixups(MachOWriter.chainedFixups(["_objc_msgSend", "_SecItemAdd", "_SecTrustEvaluateWithError",
                                                      "_OBJC_CLASS_$_NSKeyedUnarchiver"].map { MachOWriter.Import(ordinal: 1, name: $0) })),
            .buildVersion(platform: 2, minimumOS: MachOWriter.version(15, 0), sdk: MachOWriter.version(17, 0)),
            .main(0),
            .codeSignature(CodeSignatureWriter.sample(identifier: "com.example.vault", entitlements: vaultEntitlements)),
        ]
        let info: [String: Any] = [
            "CFBundleExecutable": "Vault", "CFBundleIdentifier": "com.example.vault", "CFBundleName": "Vault",
            "CFBundlePackageType": "APPL", "CFBundleURLTypes": [["CFBundleURLName": "com.example.vault", "CFBundleURLSchemes": ["vault"]]],
        ]
        var zip = ZipWriter()
        zip.add("Payload/Vault.app/Info.plist", try PropertyListSerialization.data(fromPropertyList: info, format: .binary, options: 0), method: .stored)
        zip.add("Payload/Vault.app/Vault", writer.build())
        return zip.build()
    }

    static func vaultPlan() throws -> TestPlan {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("moat-plan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Vault.ipa")
        try vaultIPA().write(to: url)
        var plan = TestPlan.make(try scan([url.path]))
        plan.toolVersion = "GOLDEN"
        return plan
    }

    @Test func builtAppInsideAScannedFolderIsReadToo() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("moat-plan-folder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("builds"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try vaultIPAData().write(to: folder.appendingPathComponent("builds/Vault.ipa"))
        let plan = TestPlan.make(try Self.scan([folder.path]))
        let hook = try #require(plan.hooks.first { $0.label == "any app class -application:openURL:options:" })
        #expect(hook.origins.contains("binary: builds/Vault.ipa!/Payload/Vault.app/Vault holds the selector"))
        #expect(PlanBinaries.container(of: "builds/Vault.ipa!/Payload/Vault.app/Info.plist") == "builds/Vault.ipa")
        #expect(PlanBinaries.container(of: "Src/App.swift") == nil)
        // Display paths never lead out of the root.
        #expect(PlanBinaries.builtApps(roots: [folder.path], paths: ["../x.ipa!/Payload/X.app/X"]).isEmpty)
    }

    func vaultIPAData() throws -> Data { try Self.vaultIPA() }

    // MARK: Golden files

    /// Compares the plan's files with the golden folder, or rewrites it when MOAT_UPDATE_GOLDEN is set.
    static func compare(_ plan: TestPlan, golden name: String) throws {
        let folder = golden.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["MOAT_UPDATE_GOLDEN"] != nil {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for file in plan.files { try Data(file.contents.utf8).write(to: folder.appendingPathComponent(file.name)) }
            return
        }
        for file in plan.files {
            let expected = try String(contentsOf: folder.appendingPathComponent(file.name), encoding: .utf8)
            guard file.contents != expected else { continue }
            let got = file.contents.components(separatedBy: "\n")
            let want = expected.components(separatedBy: "\n")
            let index = Array(zip(got, want)).firstIndex { $0.0 != $0.1 } ?? min(got.count, want.count)
            Issue.record("""
            \(name)/\(file.name) differs from the golden file at line \(index + 1) \
            (regenerate with MOAT_UPDATE_GOLDEN=1 swift test --skip-build --filter PlanTests):
            got:      \(index < got.count ? got[index] : "<end>")
            expected: \(index < want.count ? want[index] : "<end>")
            """)
        }
    }

    @Test func leakyBankMatchesTheGoldenFiles() throws {
        let plan = try Self.leakyBankPlan()
        try Self.compare(plan, golden: "plan-leakybank")
        let labels = Set(plan.hooks.map(\.label))
        // The handlers with their classes and selectors, Swift and Objective-C.
        #expect(labels.isSuperset(of: [
            "AppDelegate -application:openURL:options:", "LBLegacyURLHandler -application:handleOpenURL:",
            "OffersViewController -userContentController:didReceiveScriptMessage:", "adopters of RatesBridgeExports",
            "NSKeyedUnarchiver +unarchiveObjectWithData:", "NSXMLParser -setShouldResolveExternalEntities:",
            "StagingSessionDelegate -URLSession:didReceiveChallenge:completionHandler:", "SecTrustEvaluateWithError",
            "NSData -writeToFile:options:error:", "SecItemAdd", "SecItemUpdate", "CachedStatement -initWithCoder:",
        ]), "\(labels.sorted())")
        let appDelegate = try #require(plan.hooks.first { $0.label == "AppDelegate -application:openURL:options:" })
        #expect(appDelegate.origins.contains("code: application(_:open:options:) at LeakyBank/AppDelegate.swift:13"))
        #expect(appDelegate.origins.contains { $0.hasPrefix("finding: MOAT-CODE-301 (high)") })
        // What the handler compares: hosts and the query item name.
        let scheme = try #require(plan.targets.first { $0.label == "leakybank://" })
        #expect(scheme.hosts == ["receipt", "transfer"] && scheme.paths.isEmpty && scheme.parameters == ["file"])
        #expect(scheme.cases.contains { $0.url == "leakybank://receipt?file=../../../Library/Preferences/com.example.leakybank.plist" })
        #expect(plan.targets.map(\.label) == ["leakybank://", "myapp://", "https://leakybank.example.com"])
        // The JSONDecoder calls are pure Swift: manual steps with a mangled-name glob.
        let manual = plan.sections.flatMap(\.manual)
        #expect(manual.contains { $0.symbol == "*11JSONDecoderC*6decode*" && $0.location.path == "LeakyBank/Nearby/BillSplitSession.swift" })
        // Ordered by risk: the critical trust findings first, then the high ones.
        #expect(plan.sections.first?.title == "Server trust evaluation")
        let severities = plan.sections.map { $0.severity.map { Severity.allCases.firstIndex(of: $0)! } ?? -1 }
        #expect(severities == severities.sorted(by: >))
    }

    @Test func builtAppMatchesTheGoldenFiles() throws {
        let plan = try Self.vaultPlan()
        try Self.compare(plan, golden: "plan-builtapp")
        let labels = Set(plan.hooks.map(\.label))
        #expect(labels.isSuperset(of: [
            "any app class -application:openURL:options:", "any app class -application:continueUserActivity:restorationHandler:",
            "any app class -URLSession:didReceiveChallenge:completionHandler:", "SecItemAdd", "SecTrustEvaluateWithError",
            "NSKeyedUnarchiver +unarchiveObjectWithData:", "any app class -userContentController:didReceiveScriptMessage:",
        ]), "\(labels.sorted())")
        let keychain = try #require(plan.hooks.first { $0.label == "SecItemAdd" })
        #expect(keychain.origins.contains("binary: Vault.ipa!/Payload/Vault.app/Vault imports SecItemAdd"))
        let unarchiver = try #require(plan.hooks.first { $0.label == "NSKeyedUnarchiver +unarchiveObjectWithData:" })
        #expect(unarchiver.origins.contains { $0.hasPrefix("finding: MOAT-CODE-001 (medium)") })
        #expect(plan.modules == ["Vault"])
        // The scheme's vocabulary comes from the URL string in the binary.
        let scheme = try #require(plan.targets.first { $0.scheme == "vault" })
        #expect(scheme.hosts == ["open"] && scheme.paths == ["/statement"] && scheme.parameters == ["doc", "mode"])
        #expect(plan.targets.contains { $0.label == "https://links.vault.example" })
    }

    @Test func generationIsDeterministic() throws {
        let first = try Self.leakyBankPlan().files
        let second = try Self.leakyBankPlan().files
        #expect(first.map(\.contents) == second.map(\.contents))
        // Paths in the output are relative to the scanned folder.
        for file in first { #expect(!file.contents.contains(Self.packageRoot.path), "\(file.name) holds an absolute path") }
    }

    // MARK: hooks.js

    static var node: String? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            for name in ["node", "nodejs"] {
                let path = "\(folder)/\(name)"
                if FileManager.default.isExecutableFile(atPath: path) { return path }
            }
        }
        return nil
    }

    @Test(.enabled(if: PlanTests.node != nil, "node is not installed (apt-get install nodejs): hooks.js was not syntax-checked"))
    func hooksParseWithNode() throws {
        let node = try #require(Self.node)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("moat-plan-node-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, plan) in [("leakybank", try Self.leakyBankPlan()), ("builtapp", try Self.vaultPlan())] {
            let script = folder.appendingPathComponent("\(name)-hooks.js")
            try Data(HookScript.render(plan).utf8).write(to: script)
            let (status, output) = try JSONTools.run(node, ["--check", script.path])
            #expect(status == 0, "node --check \(name) hooks.js: \(output)")
        }
        // A script that does not parse is caught (the check can fail).
        let broken = folder.appendingPathComponent("broken.js")
        try Data("moatHookMethod({ label: \"x\" ;\n".utf8).write(to: broken)
        #expect(try JSONTools.run(node, ["--check", broken.path]).0 != 0)
    }

    /// A stand-in for Frida's runtime (pointers, the Objective-C bridge, Interceptor, Module), enough to load
    /// hooks.js in Node, see which hooks it installs or skips, and call two of them.
    static let fridaStandIn = #"""
    const fs = require('fs');
    const vm = require('vm');
    const logs = [];
    console.log = function (text) { logs.push(String(text)); };
    class NativePointer {
        constructor(value) { this.value = BigInt(value); }
        isNull() { return this.value === 0n; }
        toString(radix) { return radix === 10 ? this.value.toString(10) : '0x' + this.value.toString(16); }
        toInt32() { return Number(BigInt.asIntN(32, this.value)); }
        readPointer() { return new NativePointer(memory.get(this.value) || 0); }
    }
    const memory = new Map();
    globalThis.ptr = function (value) { return new NativePointer(value); };
    const objects = new Map();
    const attached = {};
    let methods = 0;
    function kinds(name) { return { NSURL: ['NSURL'], NSString: ['NSString'], NSData: ['NSData'] }[name] || [name]; }
    function object(address, className, extra) {
        const value = Object.assign({ handle: new NativePointer(address), $className: className, isKindOfClass_: function (cls) { return kinds(className).indexOf(cls.name) !== -1; },
                                      toString: function () { return '<' + className + '>'; } }, extra);
        objects.set(BigInt(address), value);
        return value;
    }
    function method(types) { methods += 1; return { types: types, implementation: new NativePointer(0x9000 + methods) }; }
    const classes = {};
    ['NSURL', 'NSString', 'NSData', 'NSUserActivity', 'NSSet', 'NSArray', 'NSDictionary'].forEach(function (name) { classes[name] = { name: name }; });
    classes['_TtC9LeakyBank11AppDelegate'] = { name: 'AppDelegate', '- application:openURL:options:': method('B40@0:8@16@24@32'), $ownMethods: [] };
    classes.NSData['- writeToFile:options:error:'] = method('B40@0:8@16Q24^@32');
    classes.NSBundle = { mainBundle: function () { return { bundlePath: function () { return '/app/LeakyBank.app'; } }; } };
    globalThis.ObjC = {
        available: true,
        classes: classes,
        Object: function (pointer) {
            const found = objects.get(pointer.value);
            if (found === undefined) { throw new Error('not an object'); }
            return found;
        },
        enumerateLoadedClassesSync: function () { return { '/app/LeakyBank.app/LeakyBank': ['_TtC9LeakyBank11AppDelegate'] }; },
        selectorAsString: function () { return 'selector'; }
    };
    globalThis.ModuleMap = function (filter) { this.filter = filter; };
    const exported = { SecItemAdd: 0x7000, kSecAttrAccessible: 0x7100, kSecAttrAccessibleAlways: 0x7200, kSecAttrAccessibleWhenUnlocked: 0x7300 };
    globalThis.Module = { findExportByName: function (module, name) { return exported[name] === undefined ? null : new NativePointer(exported[name]); } };
    globalThis.Interceptor = { attach: function (target, callbacks) { attached[target.toString()] = callbacks; } };
    globalThis.Thread = { backtrace: function () { return [new NativePointer(0x10)]; } };
    globalThis.Backtracer = { ACCURATE: 'accurate' };
    globalThis.DebugSymbol = { fromAddress: function (address) { return address + ' LeakyBank!frame'; } };
    vm.runInThisContext(fs.readFileSync(process.argv[2], 'utf8'));
    // Call the URL handler with a URL, then NSData's write with its options.
    object(0x2000, 'NSURL', { absoluteString: function () { return 'leakybank://receipt?file=..%2Fx'; } });
    object(0x1, '_TtC9LeakyBank11AppDelegate', {});
    object(0x3000, 'UIApplication', {});
    object(0x4000, 'NSData', { length: function () { return 3; }, bytes: function () { return { readByteArray: function () { return new Uint8Array([0x61, 0x62, 0x0a]).buffer; } }; } });
    object(0x5000, 'NSString', { toString: function () { return '/var/mobile/x.plist'; } });
    const handler = attached[classes['_TtC9LeakyBank11AppDelegate']['- application:openURL:options:'].implementation.toString()];
    const context = {};
    handler.onEnter.call(context, [ptr(0x1), ptr(0x2), ptr(0x3000), ptr(0x2000), ptr(0)]);
    handler.onLeave.call(context, ptr(1));
    const write = attached[classes.NSData['- writeToFile:options:error:'].implementation.toString()];
    write.onEnter.call({}, [ptr(0x4000), ptr(0x2), ptr(0x5000), ptr(0x20000001), ptr(0)]);
    // SecItemAdd with kSecAttrAccessibleAlways: the constants are read through their exported symbols.
    function string(address, text) {
        return object(address, 'NSString', { toString: function () { return text; }, isEqualToString_: function (other) { return other.toString() === text; } });
    }
    [[0x7100, 0x8100, 'pdmn'], [0x7200, 0x8200, 'dk'], [0x7300, 0x8300, 'ak']].forEach(function (entry) {
        memory.set(BigInt(entry[0]), BigInt(entry[1]));
        string(entry[1], entry[2]);
    });
    const keys = [string(0x8400, 'pdmn'), string(0x8500, 'acct')];
    const values = { pdmn: string(0x8600, 'dk'), acct: string(0x8700, 'alice') };
    object(0x6000, 'NSDictionary', {
        allKeys: function () { return { count: function () { return keys.length; }, objectAtIndex_: function (i) { return keys[i]; } }; },
        objectForKey_: function (key) { return values[key.toString()] || null; }
    });
    const add = attached['0x7000'];
    const state = {};
    add.onEnter.call(state, [ptr(0x6000), ptr(0)]);
    add.onLeave.call(state, ptr(0));
    process.stdout.write(logs.join('\n') + '\n');
    """#

    @Test(.enabled(if: PlanTests.node != nil, "node is not installed (apt-get install nodejs): hooks.js was not run"))
    func hooksRunAgainstAFridaStandIn() throws {
        let node = try #require(Self.node)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("moat-plan-frida-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("hooks.js")
        try Data(HookScript.render(try Self.leakyBankPlan()).utf8).write(to: script)
        let harness = folder.appendingPathComponent("frida.js")
        try Data(Self.fridaStandIn.utf8).write(to: harness)
        let (status, output) = try JSONTools.run(node, [harness.path, script.path])
        #expect(status == 0, "\(output.suffix(600))")
        // Installed where the class exists (a Swift class found by its mangled name), skipped with a line elsewhere.
        #expect(output.contains("[moat] hooked -[_TtC9LeakyBank11AppDelegate application:openURL:options:] (AppDelegate -application:openURL:options:)"))
        #expect(output.contains("[moat] skipped LBLegacyURLHandler -application:handleOpenURL:: class LBLegacyURLHandler not found"))
        #expect(output.contains("[moat] skipped SecTrustEvaluateWithError: symbol SecTrustEvaluateWithError not found"))
        #expect(output.contains("[moat] hooked SecItemAdd"))
        // A call: readable arguments, the return value, a backtrace.
        #expect(output.contains("""
        [moat] -[_TtC9LeakyBank11AppDelegate application:openURL:options:]
            self: <_TtC9LeakyBank11AppDelegate 0x1>
            application: UIApplication <UIApplication>
            openURL: NSURL leakybank://receipt?file=..%2Fx
            options: nil
            backtrace:
              0x10 LeakyBank!frame
        [moat] -[_TtC9LeakyBank11AppDelegate application:openURL:options:] returned YES
        """), "\(output)")
        #expect(output.contains("""
        [moat] -[NSData writeToFile:options:error:]
            self: NSData 3 bytes, hex 61620a, text "ab."
            writeToFile: "/var/mobile/x.plist"
            options: 536870913 (0x20000001)
            error: ^@ 0x0
            options: atomic, NSDataWritingFileProtectionComplete
            backtrace:
        """), "\(output)")
        #expect(output.contains("""
        [moat] SecItemAdd
            attributes: NSDictionary {pdmn = "dk"; acct = "alice"}
            kSecAttrAccessible kSecAttrAccessibleAlways
            backtrace:
              0x10 LeakyBank!frame
        [moat] SecItemAdd returned
            OSStatus 0
        """), "\(output)")
        #expect(output.contains("[moat] \(try Self.leakyBankPlan().hooks.count) hooks requested by hooks.js"))
    }

    @Test func valuesFromTheAppAreEscapedInTheScript() {
        #expect(HookScript.jsString("a\"b\\c\nd\u{2028}é") == "\"a\\\"b\\\\c\\u000ad\\u2028\\u00e9\"")
        #expect(HookScript.comment("line\nbreak\u{2029}*/") == "line break */")
    }

    // MARK: url-cases.txt and openurl.sh

    /// The URLs of url-cases.txt with the scheme of the block they are in.
    static func cases(_ text: String) -> [(scheme: String, url: String)] {
        var scheme = ""
        var result: [(String, String)] = []
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix("# == ") {
                let label = line.dropFirst(5).split(separator: " ").first.map(String.init) ?? ""
                scheme = String(label.split(separator: ":").first ?? "")
            } else if !line.isEmpty && !line.hasPrefix("#") {
                result.append((scheme, line))
            }
        }
        return result
    }

    @Test func everyCaseIsAValidURLOfItsScheme() throws {
        for plan in [try Self.leakyBankPlan(), try Self.vaultPlan()] {
            let cases = Self.cases(URLCases.casesFile(plan))
            #expect(cases.count == plan.targets.reduce(0) { $0 + $1.cases.count } && cases.count > 50)
            for (scheme, text) in cases {
                let url = URL(string: text)
                let components = URLComponents(string: text)
                #expect(url != nil && components != nil, "not a URL: \(text.prefix(120))")
                #expect(url?.scheme == scheme && components?.scheme == scheme, "\(text.prefix(120)) is not a \(scheme) URL")
                #expect(!text.contains(where: { $0.isWhitespace || $0 == "'" || $0 == "\"" }), "unencoded character in \(text.prefix(120))")
            }
            // The categories the plan promises, for every scheme.
            let categories = Set(plan.targets.flatMap { $0.cases.map { $0.category.split(separator: ":").first.map(String.init) ?? "" } })
            for expected in ["baseline", "path traversal (../)", "path traversal (%2e%2e%2f)", "%2F in a path name", "over-long path (4096 bytes)",
                             "format string in the path", "script payload in the path"] {
                #expect(categories.contains(expected), "\(expected)")
            }
        }
        // Decoded, the payloads are what their category says.
        let plan = try Self.leakyBankPlan()
        let file = try #require(plan.targets.first { $0.scheme == "leakybank" })
        func value(_ category: String) -> String? {
            file.cases.first { $0.category == category }.flatMap { URLComponents(string: $0.url)?.queryItems?.first { $0.name == "file" }?.value }
        }
        #expect(value("path traversal (%2e%2e%2f): file") == "../../../Library/Preferences")
        #expect(value("format string: file") == "%n%n%n%s%s%s%x%x%@%@")
        #expect(value("script payload: file") == "<script>alert(document.domain)</script>")
        #expect(value("over-long value (4096 bytes): file")?.count == 4096)
        let repeated = try #require(file.cases.first { $0.category == "repeated parameter: file" })
        #expect(URLComponents(string: repeated.url)?.queryItems?.filter { $0.name == "file" }.count == 2)
        let missing = try #require(file.cases.first { $0.category == "missing parameter: file" && $0.url.hasPrefix("leakybank://receipt") })
        #expect(URLComponents(string: missing.url)?.queryItems == nil)
    }

    @Test func openurlOpensEveryCaseInOrderSafelyQuoted() throws {
        let plan = try Self.leakyBankPlan()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("moat-plan-sh-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A stand-in for xcrun that records its arguments, one per line.
        let log = folder.appendingPathComponent("calls.txt")
        let xcrun = folder.appendingPathComponent("xcrun")
        try Data("#!/bin/sh\nfor argument in \"$@\"; do printf '%s\\n' \"$argument\" >> '\(log.path)'; done\n".utf8).write(to: xcrun)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: xcrun.path)
        let script = folder.appendingPathComponent("openurl.sh")
        try Data(URLCases.script(plan).utf8).write(to: script)
        let path = folder.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let (status, output) = try JSONTools.run("/usr/bin/env", ["PATH=\(path)", "sh", script.path, "0"])
        #expect(status == 0, "\(output.suffix(300))")
        let calls = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map(String.init)
        let urls = Self.cases(URLCases.casesFile(plan)).map(\.url)
        var expected: [String] = []
        for url in urls { expected += ["simctl", "openurl", "booted", url] }
        #expect(calls == expected)
        #expect(URLCases.shellQuote("a'b") == "'a'\\''b'")
        // A pause that is not a number is refused.
        #expect(try JSONTools.run("/usr/bin/env", ["PATH=\(path)", "sh", script.path, "1;touch x"]).0 == 2)
    }

    // MARK: plan.md

    @Test func planUsesOnlyKnownMASTGTests() throws {
        for plan in [try Self.leakyBankPlan(), try Self.vaultPlan()] {
            for section in plan.sections {
                for id in section.mastg { #expect(Taxonomy.mastg[id] != nil, "\(section.title): \(id)") }
            }
            let markdown = PlanMarkdown.render(plan)
            let ids = Set(markdown.matches(of: /MASTG-TEST-\d{4}/).map { String($0.output) })
            #expect(!ids.isEmpty)
            #expect(ids.subtracting(Taxonomy.mastg.keys).isEmpty, "\(ids.subtracting(Taxonomy.mastg.keys))")
        }
    }

    // MARK: What URL handlers compare

    @Test func urlVocabularyComesFromTheComparisonsOfTheHandler() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("moat-plan-vocabulary-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("""
        import UIKit
        final class Router {
            func route(_ url: URL) -> Bool {
                let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
                switch url.host {
                case "pay": break
                case "profile": break
                default: return false
                }
                if url.path == "/send" || url.pathComponents.contains("history") { return true }
                let amount = components?.queryItems?.first(where: { $0.name == "amount" })?.value
                let note = "not a host" == "neither"
                return amount != nil && !note
            }
        }
        """.utf8).write(to: folder.appendingPathComponent("Router.swift"))
        try Data("""
        #import <UIKit/UIKit.h>
        @implementation LBRouter
        - (BOOL)open:(NSURL *)url {
            NSURLComponents *components = [NSURLComponents componentsWithURL:url resolvingAgainstBaseURL:NO];
            for (NSURLQueryItem *item in components.queryItems) {
                if ([item.name isEqualToString:@"token"]) { return NO; }
            }
            return [url.host isEqualToString:@"vault"] && [url.path hasPrefix:@"/docs"];
        }
        @end
        """.utf8).write(to: folder.appendingPathComponent("LBRouter.m"))
        let sources = PlanSources(roots: [folder.path])
        let swift = sources.urlVocabulary("Router.swift")
        #expect(swift.hosts == ["pay", "profile"] && swift.paths == ["/send", "/history"] && swift.parameters == ["amount"])
        let objc = sources.urlVocabulary("LBRouter.m")
        #expect(objc.hosts == ["vault"] && objc.paths == ["/docs"] && objc.parameters == ["token"])
        // Nothing is read outside the root.
        #expect(sources.urlVocabulary("../Router.swift").isEmpty)
        // The methods and their Objective-C names.
        let method = try #require(sources.method(at: Location(path: "LBRouter.m", line: 3), named: nil))
        #expect(method.className == "LBRouter" && method.selector == "open:" && !method.isSwift)
        let swiftMethod = try #require(sources.method(at: Location(path: "Router.swift", line: 3), named: nil))
        #expect(swiftMethod.className == "Router" && swiftMethod.selector == "route:" && swiftMethod.isSwift)
    }

    @Test func swiftSelectorsAndRuntimeNames() {
        #expect(ObjCNames.derivedSelector(name: "latestRate", labels: [nil]) == "latestRate:")
        #expect(ObjCNames.derivedSelector(name: "transfer", labels: ["to", "amount"]) == "transferWithTo:amount:")
        #expect(ObjCNames.derivedSelector(name: "refresh", labels: []) == "refresh")
        #expect(ObjCNames.derivedSelector(name: "init", labels: ["coder"]) == "initWithCoder:")
        #expect(ObjCNames.swiftRuntimeNames("AppDelegate", module: "LeakyBank") == ["LeakyBank.AppDelegate", "_TtC9LeakyBank11AppDelegate"])
        #expect(ObjCNames.moduleName("My App-2") == "My_App_2")
        #expect(ObjCNames.explicitObjCName("@objc(sendAmount:to:) func send(") == "sendAmount:to:")
        #expect(ObjCNames.mangledGlob(type: "TransferRouter", kind: .class, function: "handle(_:)") == "*14TransferRouterC*6handle*")
    }

    @Test func htmlReportNamesTheHooksAndCasesOfEachEntry() throws {
        let result = try Self.scan([Self.leakyBank.path])
        let html = HTMLReporter().render(result, options: ReportOptions())
        #expect(html.contains("<span class=\"rule-id\">moat plan</span> hook: <code>AppDelegate -application:openURL:options:</code> · hook: <code>LBLegacyURLHandler -application:handleOpenURL:</code> · cases: <code>leakybank://</code> (62 in url-cases.txt)"))
        #expect(html.contains("hook: <code>adopters of RatesBridgeExports</code>"))
        #expect(html.contains("<tr id=\"entry-urlSchemes-1\">"))
    }

    @Test func hostileNamesGiveValidURLsAndAScriptThatParses() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("moat-plan-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("""
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
        <key>CFBundleIdentifier</key><string>com.example.o'hare</string>
        <key>CFBundleURLTypes</key><array><dict><key>CFBundleURLSchemes</key>
        <array><string>good-app</string><string>bad scheme'$(x)</string><string>*/</string></array></dict></array>
        </dict></plist>
        """.utf8).write(to: folder.appendingPathComponent("Info.plist"))
        try Data("""
        import UIKit
        final class Hostile\u{2028}Delegate: UIResponder, UIApplicationDelegate {
            func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
                let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
                if url.host == "<script>alert(1)</script>" || url.host == "ok.host" { return true }
                return items.contains { $0.name == "x y" || $0.name == "id" } && url.path == "/a b/'c"
            }
        }
        """.utf8).write(to: folder.appendingPathComponent("App.swift"))
        let plan = TestPlan.make(try Self.scan([folder.path]))
        let target = try #require(plan.targets.first)
        #expect(plan.targets.map(\.scheme) == ["good-app"])
        #expect(target.hosts == ["ok.host"] && target.parameters == ["id"])
        #expect(plan.skippedTargets.contains { $0.contains("not a valid URL scheme") })
        #expect(plan.skippedTargets.contains { $0.contains("hosts not valid in a URL, left out: <script>alert(1)</script>") })
        let casesFile = URLCases.casesFile(plan)
        for (scheme, text) in Self.cases(casesFile) {
            #expect(URL(string: text)?.scheme == scheme && URLComponents(string: text) != nil, "\(text.prefix(120))")
        }
        #expect(casesFile.contains("good-app://ok.host/a%20b/%27c?id=moat"))
        let script = URLCases.script(plan)
        #expect(!script.contains("$(x)") && !script.contains("bad scheme"))
        if let node = Self.node {
            let url = folder.appendingPathComponent("hooks.js")
            try Data(HookScript.render(plan).utf8).write(to: url)
            let (status, output) = try JSONTools.run(node, ["--check", url.path])
            #expect(status == 0, "\(output)")
        }
        let markdown = PlanMarkdown.render(plan)
        #expect(!markdown.contains("<script>"))
    }

    @Test func swiftUIHandlersAreManualSteps() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("moat-plan-swiftui-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("""
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
        <key>CFBundleIdentifier</key><string>com.example.notes</string>
        <key>CFBundleURLTypes</key><array><dict><key>CFBundleURLSchemes</key><array><string>notes</string></array></dict></array>
        </dict></plist>
        """.utf8).write(to: folder.appendingPathComponent("Info.plist"))
        try Data("""
        import SwiftUI
        struct NotesApp: App {
            func route(_ url: URL) { if url.host == "note" { } }
            var body: some Scene {
                WindowGroup { Text("Notes").onOpenURL { url in route(url) } }
            }
        }
        """.utf8).write(to: folder.appendingPathComponent("NotesApp.swift"))
        let plan = TestPlan.make(try Self.scan([folder.path]))
        #expect(!plan.hooks.contains { $0.group == .urlHandlers }, "\(plan.hooks.map(\.label))")
        let steps = plan.sections.flatMap(\.manual)
        #expect(steps.contains { $0.title == "onOpenURL has no Objective-C symbol Moat could find" && $0.symbol == "*9onOpenURL*" })
        #expect(plan.targets.first?.hosts == ["note"])
    }

    // MARK: The command

    @Test func planCommandWritesTheFourFiles() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("moat-plan-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let (status, _, stderr) = try MoatProcess.run(["plan", Self.leakyBank.path, "--no-cache", "--include", "experimental", "--output", output.path],
                                                      packageRoot: Self.packageRoot)
        #expect(status == 0, "\(stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
        #expect(names == ["hooks.js", "openurl.sh", "plan.md", "url-cases.txt"])
        let expected = try Self.leakyBankPlan(goldenVersion: false).files
        for file in expected {
            #expect(try String(contentsOf: output.appendingPathComponent(file.name), encoding: .utf8) == file.contents, "\(file.name)")
        }
        #expect(stderr.contains("wrote hooks.js"))
        // A file where the folder should be is a clear error.
        let blocker = output.appendingPathComponent("plan.md")
        let refused = try MoatProcess.run(["plan", Self.leakyBank.path, "--no-cache", "--output", blocker.path], packageRoot: Self.packageRoot)
        #expect(refused.status == 2 && refused.stderr.contains("not a folder"))
        let usage = try MoatProcess.run(["plan", "--bogus"], packageRoot: Self.packageRoot)
        #expect(usage.status == 2 && usage.stderr.contains("Usage: moat plan"))
    }
}
