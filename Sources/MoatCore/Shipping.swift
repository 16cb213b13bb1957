/// Why a finding's place is not part of the app that ships. Findings there are reported and marked, and
/// never fail the scan (`--fail-on`); the text report counts them in one line unless `--show-non-shipping`.
///
/// The one definition of shipping code, used by discovery, the post-processor, the app model and the
/// attack surface:
/// - **by path** (`ShippingScope.reason(forPath:)`): test folders and files, mock and fixture folders and
///   files, `Preview Content/` (see there for the exact names);
/// - **by project**: files that only test targets of an Xcode project compile (`AppModel`), and template
///   or demo copies (`-demo`, `.example`, `-sample`, `-template` names) that no target of the project
///   around them compiles, and what only an application target Xcode never archives uses (`SKIP_INSTALL`);
/// - **by region of a source file** (`NonShippingRegion`, computed with the file's summary): `#if DEBUG`
///   and simulator-only `#if` clauses (Swift and C-family; the `#else` of `#if DEBUG` ships), SwiftUI
///   `PreviewProvider` types, and `if … == .debug { … }` branches of a build-configuration check; other
///   platforms' `#if` clauses and branches below the deployment target (some decided with the app model:
///   `NonShippingRegion.condition`).
public enum NonShippingReason: String, Codable, Sendable, Hashable, CaseIterable, Comparable {
    case test
    case mock
    case fixture
    case preview
    case debugOnly = "debug-only"
    case simulatorOnly = "simulator-only"
    /// A template or demo copy no target compiles (`SPCredentials-demo.swift` beside the `SPCredentials.swift`
    /// a setup script writes): decided with the Xcode projects (`AppModel.uncompiledTemplatePaths`).
    case notCompiled = "not-compiled"
    /// Code and configuration of an application target Xcode never archives (`SKIP_INSTALL = YES` in every
    /// release configuration, embedded by no other target): a showcase or UI-test host app
    /// (`AppModel.neverArchivedOnlyPaths`, and what app rules report about such a target).
    case notArchived = "not-archived"
    /// An Info.plist, entitlements file or privacy manifest inside an Xcode project's folder that no target
    /// uses (`INFOPLIST_FILE`, `CODE_SIGN_ENTITLEMENTS`, bundle resources), while every target's own file
    /// is known: a leftover nothing builds (`AppModel.unusedConfigurationPaths`).
    case noTarget = "no-target"
    /// An `#if` clause that no platform the file is built for compiles: `#if os(Linux)`, `#if canImport(Glibc)`,
    /// `#if defined(__linux__)` / `_WIN32` / `__ANDROID__` always; `#if os(macOS)` when no target that compiles
    /// the file builds for macOS (`NonShippingRegion.condition`, decided with the app model).
    case otherPlatform = "other-platform"
    /// A branch only an OS older than the deployment target runs: the `else` of `if #available(iOS 12, *)`
    /// and the body of `guard #available(iOS 12, *) else` or `if #unavailable(iOS 12)` when every target
    /// that compiles the file deploys to iOS 12 or later (`NonShippingRegion.condition`).
    case belowDeploymentTarget = "below-deployment-target"

    /// Plural label for the text report's count line ("tests 12, previews 3, debug-only 2").
    public var countLabel: String {
        switch self {
        case .test: return "tests"
        case .mock: return "mocks"
        case .fixture: return "fixtures"
        case .preview: return "previews"
        case .debugOnly: return "debug-only"
        case .simulatorOnly: return "simulator-only"
        case .notCompiled: return "not compiled"
        case .notArchived: return "never archived"
        case .noTarget: return "used by no target"
        case .otherPlatform: return "other platforms"
        case .belowDeploymentTarget: return "below deployment target"
        }
    }

    /// Short tag shown beside a listed finding ("test code", "debug-only code").
    public var tag: String {
        switch self {
        case .test: return "test code"
        case .mock: return "mock code"
        case .fixture: return "fixture"
        case .preview: return "preview code"
        case .debugOnly: return "debug-only code"
        case .simulatorOnly: return "simulator-only code"
        case .notCompiled: return "template no target compiles"
        case .notArchived: return "app target never archived"
        case .noTarget: return "file no target uses"
        case .otherPlatform: return "code for another platform"
        case .belowDeploymentTarget: return "runs only below the deployment target"
        }
    }

    public static func < (lhs: NonShippingReason, rhs: NonShippingReason) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// A part of a source file that does not ship, from `start` to `end` inclusive (1-based lines, columns
/// in UTF-8 bytes as in `Location`).
public struct NonShippingRegion: Codable, Sendable, Hashable {
    public var startLine: Int
    public var startColumn: Int
    public var endLine: Int
    public var endColumn: Int
    public var reason: NonShippingReason
    /// When the region does not ship only for some apps: the platforms or deployment targets it depends
    /// on (`PlatformCondition`'s text), decided with the targets that compile the file. nil: never ships.
    public var condition: String?

    public init(startLine: Int, startColumn: Int, endLine: Int, endColumn: Int, reason: NonShippingReason,
                condition: String? = nil) {
        self.startLine = startLine
        self.startColumn = startColumn
        self.endLine = endLine
        self.endColumn = endColumn
        self.reason = reason
        self.condition = condition
    }

    public func contains(line: Int, column: Int) -> Bool {
        (line, column) >= (startLine, startColumn) && (line, column) <= (endLine, endColumn)
    }
}

/// Shipping versus non-shipping files, decided by the path alone (relative, `/`-separated).
///
/// - **test**: a folder named `Tests`, `Test`, `Specs` or `Spec` (any case), or whose name ends in `Tests`,
///   `Specs`, `TestSupport` or `TestHelpers`, or starts with `UITest` (`AppTests/`, `AppUITests/`,
///   `CoreSpecs/`, `UITestsFoundation/`); a file whose name before the first dot ends in
///   `Tests`, `Spec` or `Specs` (`LoginTests.swift`, `LoginSpec.m`).
/// - **mock**: a folder named `Mocks`, `Mock`, `Stubs` or `Fakes` (any case); a file whose name before the
///   first dot starts with `Mock` followed by an upper-case letter (`MockURLSession.swift`) or ends in
///   `Mock` or `Mocks` (`SessionMock.swift`). `Mockingbird.swift` or `Mocking.swift` are not mocks.
/// - **fixture**: a folder named `Fixtures` or `Fixture` (any case).
/// - **preview**: a folder named `Preview Content` (Xcode's development assets, any case).
/// The first matching reason from the outermost folder wins; the file name is looked at last.
public enum ShippingScope {
    public static func reason(forPath path: String) -> NonShippingReason? {
        // Asked of every discovered file, every summary and the attack surface: an ASCII path is read as
        // bytes (the same answers: in ASCII every byte but CR LF is a character of its own, and none of the
        // names compared holds CR or LF); any other path as characters.
        var path = path
        if let reason = path.withUTF8({ asciiReason(forPath: $0) }) { return reason }
        return characterReason(forPath: path)
    }

    /// The reason of an ASCII path (`.some(nil)` when it ships), or nil when the path is not ASCII.
    static func asciiReason(forPath path: UnsafeBufferPointer<UInt8>) -> NonShippingReason?? {
        for byte in path where byte >= 0x80 { return nil }
        // Components as `split(separator: "/")` gives them: empty ones are left out.
        var start = 0
        var last: Range<Int>?
        var index = 0
        while index <= path.count {
            if index == path.count || path[index] == UInt8(ascii: "/") {
                if index > start {
                    if let folder = last, let reason = asciiReason(forFolder: UnsafeBufferPointer(rebasing: path[folder])) {
                        return .some(reason)
                    }
                    last = start..<index
                }
                start = index + 1
            }
            index += 1
        }
        guard let name = last.map({ UnsafeBufferPointer(rebasing: path[$0]) }) else { return .some(nil) }
        // The name before its first dot (`split(separator: ".").first`: the first non-empty part), or the name.
        var base = name
        var partStart = 0
        for position in 0...name.count where position == name.count || name[position] == UInt8(ascii: ".") {
            if position > partStart {
                base = UnsafeBufferPointer(rebasing: name[partStart..<position])
                break
            }
            partStart = position + 1
        }
        if hasSuffix(base, "Tests") || hasSuffix(base, "Spec") || hasSuffix(base, "Specs") { return .some(.test) }
        if hasSuffix(base, "Mock") || hasSuffix(base, "Mocks") { return .some(.mock) }
        if hasPrefix(base, "Mock"), base.count > 4, (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(base[4]) { return .some(.mock) }
        return .some(nil)
    }

    static func asciiReason(forFolder name: UnsafeBufferPointer<UInt8>) -> NonShippingReason? {
        if hasSuffix(name, "Tests") || hasSuffix(name, "Specs") || hasPrefix(name, "UITest") || hasSuffix(name, "TestSupport")
            || hasSuffix(name, "TestHelpers") {
            return .test
        }
        guard name.count <= longestFolderName else { return nil }
        var lowercased = [UInt8](name)
        for index in lowercased.indices where (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(lowercased[index]) {
            lowercased[index] += 0x20
        }
        return foldersByLowercasedName[String(decoding: lowercased, as: UTF8.self)]
    }

    private static func hasSuffix(_ bytes: UnsafeBufferPointer<UInt8>, _ suffix: StaticString) -> Bool {
        let count = suffix.utf8CodeUnitCount
        guard bytes.count >= count else { return false }
        let start = suffix.utf8Start
        for index in 0..<count where bytes[bytes.count - count + index] != start[index] { return false }
        return true
    }

    private static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard bytes.count >= count else { return false }
        let start = prefix.utf8Start
        for index in 0..<count where bytes[index] != start[index] { return false }
        return true
    }

    /// The reason read character by character: what `reason(forPath:)` answers for any path.
    static func characterReason(forPath path: String) -> NonShippingReason? {
        let components = path.split(separator: "/")
        for component in components.dropLast() {
            if let reason = reason(forFolder: component) { return reason }
        }
        guard let name = components.last else { return nil }
        let base = name.split(separator: ".").first ?? name
        if base.hasSuffix("Tests") || base.hasSuffix("Spec") || base.hasSuffix("Specs") { return .test }
        if isMockName(base) { return .mock }
        return nil
    }

    /// Whether a path is test code (the `test` reason only).
    public static func isTestPath(_ path: String) -> Bool {
        reason(forPath: path) == .test
    }

    static func reason(forFolder name: Substring) -> NonShippingReason? {
        if name.hasSuffix("Tests") || name.hasSuffix("Specs") || name.hasPrefix("UITest") || name.hasSuffix("TestSupport")
            || name.hasSuffix("TestHelpers") {
            return .test
        }
        // The names compared in any case are at most 15 bytes of ASCII; a longer ASCII name is none of them
        // (asked of every folder of every discovered path, so the common case builds no lowercased copy).
        // A non-ASCII name is lowercased as before (`K`, the Kelvin sign, lowercases to ASCII `k`).
        let utf8 = name.utf8
        if utf8.count > Self.longestFolderName, utf8.allSatisfy({ $0 < 0x80 }) { return nil }
        return foldersByLowercasedName[name.lowercased()]
    }

    /// Folder names compared in any case, with their reason.
    private static let foldersByLowercasedName: [String: NonShippingReason] = [
        "tests": .test, "test": .test, "specs": .test, "spec": .test,
        "mocks": .mock, "mock": .mock, "stubs": .mock, "fakes": .mock,
        "fixtures": .fixture, "fixture": .fixture,
        "preview content": .preview,
    ]
    private static let longestFolderName = foldersByLowercasedName.keys.map(\.utf8.count).max() ?? 0

    static func isMockName(_ base: Substring) -> Bool {
        if base.hasSuffix("Mock") || base.hasSuffix("Mocks") { return true }
        guard base.hasPrefix("Mock") else { return false }
        let rest = base.dropFirst(4)
        return rest.first.map { $0.isUppercase } ?? false
    }
}
