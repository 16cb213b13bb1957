// swift-tools-version:6.1
import PackageDescription
import Foundation

/// The folder with the toolchain's own SwiftSyntax modules (`<toolchain>/usr/lib/swift/host`), found from
/// the `swift` that runs this manifest (first on PATH, symlinks resolved). `MOAT_SWIFT_HOST_LIB` overrides it.
func swiftSyntaxHostDirectory() -> String {
    let environment = ProcessInfo.processInfo.environment
    if let override = environment["MOAT_SWIFT_HOST_LIB"], !override.isEmpty { return override }
    var candidates: [URL] = []
    for entry in (environment["PATH"] ?? "").split(separator: ":") {
        candidates.append(URL(fileURLWithPath: String(entry)).appendingPathComponent("swift"))
    }
    if let toolchain = environment["SWIFT_EXEC"] { candidates.insert(URL(fileURLWithPath: toolchain), at: 0) }
    for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate.path) {
        let usr = candidate.resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
        let host = usr.appendingPathComponent("lib/swift/host")
        if FileManager.default.fileExists(atPath: host.appendingPathComponent("SwiftSyntax.swiftmodule").path) {
            return host.path
        }
    }
    return "/usr/lib/swift/host"
}

let host = swiftSyntaxHostDirectory()
let syntaxSwiftSettings: [SwiftSetting] = [.unsafeFlags(["-enable-library-evolution", "-I", host])]
let syntaxLinkerSettings: [LinkerSetting] = [
    .unsafeFlags(["-L", host, "-Xlinker", "-rpath", "-Xlinker", host]),
    .linkedLibrary("SwiftSyntax"), .linkedLibrary("SwiftParser"), .linkedLibrary("SwiftOperators"),
]

var fuzzTargets: [Target] = []
var fuzzProducts: [Product] = []
if ProcessInfo.processInfo.environment["MOAT_FUZZ"] != nil {
    // Only for Scripts/fuzz.sh (`swift build --sanitize fuzzer`): libFuzzer provides `main`.
    fuzzTargets.append(.executableTarget(name: "moat-fuzz", dependencies: ["MoatScan"], path: "Fuzz/moat-fuzz",
                                         swiftSettings: [.unsafeFlags(["-parse-as-library"])]))
    fuzzProducts.append(.executable(name: "moat-fuzz", targets: ["moat-fuzz"]))
}

let package = Package(
    name: "Moat",
    products: [
        .executable(name: "moat", targets: ["moat"]),
        .executable(name: "moat-bench", targets: ["moat-bench"]),
        // `swift package moat` in any package that depends on this one (see the README).
        .plugin(name: "MoatPlugin", targets: ["MoatPlugin"]),
    ] + fuzzProducts,
    targets: [
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        .target(name: "MoatCore"),
        .target(name: "MoatFormats", dependencies: ["MoatCore", "CZlib"]),
        .target(name: "MoatSyntax", dependencies: ["MoatCore"],
                swiftSettings: syntaxSwiftSettings, linkerSettings: syntaxLinkerSettings),
        .target(name: "MoatRules", dependencies: ["MoatCore", "MoatFormats", "MoatSyntax"], exclude: ["Dataflow/README.md"]),
        .target(name: "MoatScan", dependencies: ["MoatCore", "MoatFormats", "MoatSyntax", "MoatRules"]),
        .target(name: "MoatReport", dependencies: ["MoatCore", "MoatScan", "MoatRules"]),
        .executableTarget(name: "moat", dependencies: ["MoatCore", "MoatScan", "MoatReport", "MoatRules"]),
        .executableTarget(name: "moat-bench", dependencies: ["MoatCore", "MoatScan", "MoatSyntax"]),
        // A command plugin that runs the `moat` built here on the package it is invoked in. No permission:
        // it reads the package, caches in its own work folder and reports on standard output.
        .plugin(name: "MoatPlugin",
                capability: .command(intent: .custom(verb: "moat", description: "Scan this package's sources with Moat (iOS security analysis)"),
                                     permissions: []),
                dependencies: ["moat"]),
        // Test-only fixture writers (Mach-O, ZIP, DER/CMS, code signatures) and the runner of the built `moat`,
        // shared by the test targets
        // (imported with `@testable`).
        .target(name: "MoatTestSupport", dependencies: ["CZlib"], path: "Tests/MoatTestSupport"),
        .testTarget(name: "MoatCoreTests", dependencies: ["MoatCore"]),
        .testTarget(name: "MoatFormatsTests", dependencies: ["MoatTestSupport", "MoatFormats"]),
        .testTarget(name: "MoatSyntaxTests", dependencies: ["MoatSyntax"]),
        .testTarget(name: "MoatRulesTests", dependencies: ["MoatTestSupport", "MoatRules", "MoatScan"]),
        .testTarget(name: "MoatScanTests", dependencies: ["MoatTestSupport", "MoatScan", "MoatRules", "MoatFormats", "MoatSyntax", "MoatCore"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "MoatReportTests", dependencies: ["MoatTestSupport", "MoatReport", "MoatScan"]),
        .testTarget(name: "EndToEndTests", dependencies: ["MoatTestSupport", "MoatScan"]),
    ] + fuzzTargets,
    swiftLanguageModes: [.v6]
)
