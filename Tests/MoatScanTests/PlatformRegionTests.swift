import Foundation
import Testing
@testable import MoatCore
@testable import MoatScan
@testable import MoatRules

/// Code that cannot run in the app (issue 23.3): `#if` clauses no target's platform compiles, and branches
/// only an OS older than the deployment target runs.
struct PlatformRegionTests {
    static let unarchive = "let x = NSKeyedUnarchiver.unarchiveObject(with: data)"

    static func spec(deploymentTarget: String?, extraTargets: String = "") -> String {
        """
        name: Demo
        \(deploymentTarget.map { "options:\n  deploymentTarget:\n    iOS: \"\($0)\"" } ?? "")
        targets:
          Demo:
            type: application
            platform: iOS
            sources: [App]
        \(extraTargets)
        """
    }

    static func reasons(_ files: [String: String]) throws -> [Int: NonShippingReason?] {
        // The code is called: only the platform decides.
        var files = files
        files["App/Start.swift"] = "func start(data: Data) { load(data: data, flag: true) }"
        let tree = try TemporaryTree(files)
        defer { tree.remove() }
        let findings = try tree.scan().findings.filter { $0.ruleId == "MOAT-CODE-001" }
        return Dictionary(findings.map { ($0.location.line, $0.nonShippingReason) }, uniquingKeysWith: { first, _ in first })
    }

    @Test func otherOperatingSystemsClausesAreNeverCompiled() throws {
        let source = """
        func load(data: Data) {
        #if os(Linux)
            \(Self.unarchive)
        #elseif os(Windows) || os(Android)
            \(Self.unarchive)
        #else
            \(Self.unarchive)
        #endif
        #if canImport(Glibc)
            \(Self.unarchive)
        #elseif canImport(Darwin)
            \(Self.unarchive)
        #endif
        #if !os(Linux)
            \(Self.unarchive)
        #endif
        #if os(iOS) || os(Linux)
            \(Self.unarchive)
        #endif
        #if os(Linux) && DEBUG
            \(Self.unarchive)
        #endif
        #if os(macOS)
            \(Self.unarchive)
        #endif
        #if canImport(SomeKit)
            \(Self.unarchive)
        #endif
        }
        """
        let byLine = try Self.reasons(["App/Loader.swift": source])
        #expect(byLine.count == 10)
        #expect(byLine[3] == .otherPlatform)
        #expect(byLine[5] == .otherPlatform)
        #expect(byLine[7] == .some(nil), "the #else of #if os(Linux) is compiled for iOS")
        #expect(byLine[10] == .otherPlatform)
        #expect(byLine[12] == .some(nil))
        #expect(byLine[15] == .some(nil), "#if !os(Linux) is compiled")
        #expect(byLine[18] == .some(nil))
        #expect(byLine[21] == .debugOnly, "either reason: the debug one is found first")
        // Without a target that says which platforms it builds for, macOS code may ship.
        #expect(byLine[24] == .some(nil))
        #expect(byLine[27] == .some(nil), "a module that may exist")
    }

    @Test func cFamilyClausesForOtherOperatingSystemsAreNeverCompiled() throws {
        let source = """
        - (void)load:(NSData *)data {
        #if defined(__linux__) || defined(__ANDROID__)
            id a = [NSKeyedUnarchiver unarchiveObjectWithData:data];
        #elif defined(_WIN32)
            id b = [NSKeyedUnarchiver unarchiveObjectWithData:data];
        #elif defined(__APPLE__)
            id c = [NSKeyedUnarchiver unarchiveObjectWithData:data];
        #else
            id d = [NSKeyedUnarchiver unarchiveObjectWithData:data];
        #endif
        #ifdef __linux
            id e = [NSKeyedUnarchiver unarchiveObjectWithData:data];
        #endif
        #ifndef _WIN32
            id f = [NSKeyedUnarchiver unarchiveObjectWithData:data];
        #endif
        #if TARGET_OS_OSX
            id g = [NSKeyedUnarchiver unarchiveObjectWithData:data];
        #endif
        }
        """
        let byLine = try Self.reasons(["App/Loader.m": source])
        #expect(byLine[3] == .otherPlatform)
        #expect(byLine[5] == .otherPlatform)
        #expect(byLine[7] == .some(nil))
        #expect(byLine[9] == .otherPlatform, "the #else after a clause every Apple platform takes")
        #expect(byLine[12] == .otherPlatform)
        #expect(byLine[15] == .some(nil))
        #expect(byLine[18] == .some(nil), "TARGET_OS_* macros are left alone (defined as 0 or 1)")
    }

    static let availability = """
    func load(data: Data, flag: Bool) {
        if #available(iOS 12, *) {
            \(unarchive)
        } else {
            \(unarchive)
        }
        if #available(iOS 17.0, *) {
            print(data)
        } else {
            \(unarchive)
        }
        guard #available(iOS 13.0, *) else {
            \(unarchive)
            return
        }
        if #unavailable(iOS 14) {
            \(unarchive)
        }
        if #available(iOS 12, *), flag {
            print(data)
        } else {
            \(unarchive)
        }
        if #available(iOS 17, *) {
            print(data)
        } else if #available(iOS 11, *) {
            print(data)
        } else {
            \(unarchive)
        }
    #if os(macOS)
        \(unarchive)
    #elseif os(iOS)
        \(unarchive)
    #endif
    }
    """

    @Test func branchesBelowTheDeploymentTargetDoNotRun() throws {
        let byLine = try Self.reasons(["project.yml": Self.spec(deploymentTarget: "16.0"), "App/Loader.swift": Self.availability])
        #expect(byLine[3] == .some(nil))
        #expect(byLine[5] == .belowDeploymentTarget, "iOS 16 always has iOS 12")
        #expect(byLine[10] == .some(nil), "iOS 16 may run the fallback of an iOS 17 check")
        #expect(byLine[13] == .belowDeploymentTarget)
        #expect(byLine[17] == .belowDeploymentTarget, "#unavailable(iOS 14) never holds on iOS 16")
        #expect(byLine[22] == .some(nil), "the else also runs when the other condition fails")
        #expect(byLine[29] == .belowDeploymentTarget)
        #expect(byLine[32] == .otherPlatform, "no target builds for macOS")
        #expect(byLine[34] == .some(nil))
    }

    @Test func withoutADeploymentTargetNothingIsBelowIt() throws {
        let byLine = try Self.reasons(["project.yml": Self.spec(deploymentTarget: nil), "App/Loader.swift": Self.availability])
        #expect(byLine[5] == .some(nil))
        #expect(byLine[13] == .some(nil))
        #expect(byLine[17] == .some(nil))
        #expect(byLine[32] == .otherPlatform, "the platform is known without a deployment target")
    }

    @Test func everyTargetCompilingTheFileDecides() throws {
        // A macOS target and an iOS 11 extension compile the same file.
        let extra = """
          Mac:
            type: application
            platform: macOS
            deploymentTarget: "10.15"
            sources: [App]
          Widget:
            type: app-extension
            platform: iOS
            deploymentTarget: "11.0"
            sources: [App]
        """
        let byLine = try Self.reasons(["project.yml": Self.spec(deploymentTarget: "16.0", extraTargets: extra),
                                       "App/Loader.swift": Self.availability])
        #expect(byLine[5] == .some(nil), "the iOS 11 extension runs the fallback")
        #expect(byLine[13] == .some(nil))
        #expect(byLine[32] == .some(nil), "the macOS target compiles it")
        #expect(byLine[34] == .some(nil))
    }

    @Test func objectiveCAvailabilityChecks() throws {
        let source = """
        - (void)load:(NSData *)data {
            if (@available(iOS 11.0, *)) {
                id a = [NSKeyedUnarchiver unarchiveObjectWithData:data];
            } else {
                id b = [NSKeyedUnarchiver unarchiveObjectWithData:data];
            }
            if (__builtin_available(iOS 18.0, *)) {
                id c = [NSKeyedUnarchiver unarchiveObjectWithData:data];
            } else {
                id d = [NSKeyedUnarchiver unarchiveObjectWithData:data];
            }
        }
        """
        let byLine = try Self.reasons(["project.yml": Self.spec(deploymentTarget: "15.0"), "App/Loader.m": source])
        #expect(byLine[3] == .some(nil))
        #expect(byLine[5] == .belowDeploymentTarget)
        #expect(byLine[8] == .some(nil))
        #expect(byLine[10] == .some(nil))
    }

    @Test func conditionsAreDecidedPerPlatform() {
        let iOS16 = BuildPlatforms([.iOS: OSVersion("16.0")])
        let none: OSVersion? = nil
        let unknown = BuildPlatforms([.iOS: none])
        let check = PlatformCondition.unavailable(versions: [.iOS: OSVersion("12")!, .macOS: OSVersion("10.14")!], otherPlatforms: true)
        #expect(check.holds(for: iOS16))
        #expect(!check.holds(for: unknown))
        #expect(!check.holds(for: BuildPlatforms()))
        #expect(!check.holds(for: BuildPlatforms([.iOS: OSVersion("16.0"), .macOS: OSVersion("10.13")])))
        #expect(check.holds(for: BuildPlatforms([.iOS: OSVersion("16.0"), .watchOS: OSVersion("4")])), "* covers watchOS")
        #expect(PlatformCondition(text: check.text) == check)
        let compiled = PlatformCondition.compiledFor([.macOS])
        #expect(compiled.holds(for: iOS16))
        #expect(!compiled.holds(for: BuildPlatforms([.macOS: none])))
        #expect(PlatformCondition(text: compiled.text) == compiled)
        #expect(OSVersion("10.15")! > OSVersion("10.9.5")!)
        #expect(OSVersion("16")! == OSVersion("16.0")!)
        #expect(OSVersion("$(RECOMMENDED)") == nil)
        #expect(ApplePlatform(sdk: "iphoneos") == .iOS)
        #expect(ApplePlatform(availabilityName: "iOSApplicationExtension") == .iOS)
    }
}
