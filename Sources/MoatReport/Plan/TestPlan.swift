import Foundation
import MoatCore
import MoatRules
import MoatScan

/// `moat plan`: the app's dynamic test plan, built from a scan's attack surface and findings — Frida
/// hooks for every entry with a hookable symbol, URL test cases for every custom scheme and universal-link
/// domain, and one plan section per surface entry with its MASTG test, how to trigger it, what to watch
/// for and what safe behaviour looks like. Everything is sorted, so the same scan gives the same files.
public struct TestPlan: Sendable {
    /// What a group of hooks is about, in the order hooks.js lists them.
    public enum Group: Int, Sendable, CaseIterable, Comparable {
        case urlHandlers, webBridges, webViews, deserialization, trust, storage, pasteboard, notifications, fileImports, otherIPC

        public static func < (lhs: Group, rhs: Group) -> Bool { lhs.rawValue < rhs.rawValue }

        var title: String {
            switch self {
            case .urlHandlers: return "URL-scheme and universal-link handlers"
            case .webBridges: return "JavaScript bridges (script message handlers, JSExport, JSContext)"
            case .webViews: return "Web view loads"
            case .deserialization: return "Unarchivers and parsers"
            case .trust: return "Server trust evaluation"
            case .storage: return "File writes and Keychain"
            case .pasteboard: return "Pasteboard"
            case .notifications: return "Push and notification handlers"
            case .fileImports: return "File imports"
            case .otherIPC: return "Other IPC"
            }
        }
    }

    public struct Hook: Sendable, Hashable {
        public enum Target: Sendable, Hashable {
            /// A method of a class known statically. `isSwift`: the runtime name of the class is guessed
            /// from the module names (see hooks.js).
            case method(className: String, isSwift: Bool, selector: String, isClassMethod: Bool)
            /// A method of every class of the app bundle that implements it (the class is not known statically).
            case implementations(selector: String)
            /// Every method of a protocol (JSExport) in the app's classes adopting it.
            case adopters(protocolName: String, isSwift: Bool, selectors: [String])
            /// An exported C function.
            case function(name: String)
        }

        public var target: Target
        public var group: Group
        /// The argument decoder hooks.js applies (`keychain`, `dataWriting`...), nil for the generic one.
        public var decoder: String?
        /// The surface entries and findings it comes from (`file:line`), sorted.
        public var origins: [String]
        public var notes: [String]

        /// `AppDelegate -application:openURL:options:`, `SecItemAdd`.
        public var label: String {
            switch target {
            case .method(let className, _, let selector, let isClassMethod): return "\(className) \(isClassMethod ? "+" : "-")\(selector)"
            case .implementations(let selector): return "any app class -\(selector)"
            case .adopters(let name, _, _): return "adopters of \(name)"
            case .function(let name): return name
            }
        }
    }

    /// A step for an entry without a hookable symbol (pure Swift, closures, configuration).
    public struct ManualStep: Sendable, Hashable {
        public var title: String
        /// The best symbol Moat can offer (a selector, a mangled-name glob), if any.
        public var symbol: String?
        public var location: Location
        public var detail: String
    }

    /// A custom scheme or universal-link domain with the cases to open.
    public struct URLTarget: Sendable, Hashable {
        public struct Case: Sendable, Hashable {
            public var category: String
            public var url: String
        }
        /// `leakybank` for a scheme, `https` for universal links.
        public var scheme: String
        /// The universal-link domain, nil for a custom scheme.
        public var domain: String?
        public var declaredAt: Location
        public var handlers: [String]
        public var hosts: [String]
        public var paths: [String]
        public var parameters: [String]
        public var cases: [Case]

        /// `leakybank://` or `https://leakybank.example.com`.
        public var label: String { domain.map { "https://\($0)" } ?? "\(scheme)://" }
    }

    /// One entry of the plan.
    public struct Section: Sendable {
        public var title: String
        /// The surface section it comes from (`urlSchemes`...), nil for the plan's own sections.
        public var surfaceSection: String?
        public var location: Location?
        public var mastg: [String]
        public var masvs: [String]
        public var risk: String?
        public var trigger: [String]
        public var watch: [String]
        public var safe: String
        public var findings: [Finding]
        public var hooks: [String]
        public var targets: [String]
        public var manual: [ManualStep]
        /// Highest severity of its findings (nil when none).
        public var severity: Severity? { findings.map(\.severity).max() }
        var weight: Int
    }

    public var appName: String?
    public var bundleIdentifier: String?
    public var toolVersion: String
    public var roots: [String]
    /// Module names the Swift classes' runtime names are guessed from.
    public var modules: [String]
    public var hooks: [Hook]
    public var targets: [URLTarget]
    /// Schemes and domains no valid URL can be built for, with why.
    public var skippedTargets: [String]
    /// Ordered by risk.
    public var sections: [Section]
    /// Surface entries with no dynamic step (permissions, capabilities, groups, queried schemes).
    public var staticOnly: [(section: String, value: String, location: Location)]
    /// Hooks and URL targets of each surface entry, by `entryKey`.
    public var entryLinks: [String: (hooks: [String], targets: [String])]

    /// The key `entryLinks` uses for an entry of a surface section.
    public static func entryKey(_ section: String, _ entry: AttackSurface.Entry) -> String {
        let location = entry.location
        return [section, entry.unit, entry.value, location.path, String(location.line), location.keyPath ?? "", location.symbol ?? ""]
            .joined(separator: "\u{1F}")
    }

    /// The plan of a scan. Source files are read again (from the scan's roots) to find the classes and
    /// selectors of handlers and what URL handlers compare; built apps given as roots are read again for
    /// their classes, method names and imports.
    public static func make(_ result: ScanResult) -> TestPlan {
        var builder = PlanBuilder(result: result)
        return builder.build()
    }

    /// The files `moat plan` writes, by name.
    public var files: [(name: String, contents: String)] {
        [("hooks.js", HookScript.render(self)), ("url-cases.txt", URLCases.casesFile(self)),
         ("openurl.sh", URLCases.script(self)), ("plan.md", PlanMarkdown.render(self))]
    }

    /// `path:line`, with the key path or symbol when there is one.
    static func describe(_ location: Location) -> String {
        var text = location.line > 0 ? "\(location.path):\(location.line)" : location.path
        if let keyPath = location.keyPath { text += " (\(keyPath))" }
        if let symbol = location.symbol { text += " (\(symbol))" }
        return text
    }
}
