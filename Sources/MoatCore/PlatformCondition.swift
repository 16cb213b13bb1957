/// The Apple platforms an app target builds for (`SDKROOT`, `SUPPORTED_PLATFORMS`, XcodeGen `platform`).
/// Mac Catalyst builds are iOS builds here: `os(iOS)` holds in them, and they deploy with the iOS version.
public enum ApplePlatform: String, CaseIterable, Sendable, Hashable, Comparable {
    case iOS, macOS, tvOS, watchOS, visionOS

    public static func < (lhs: ApplePlatform, rhs: ApplePlatform) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// The platform an SDK name stands for (`iphoneos`, `iphonesimulator`, `macosx`, `appletvos`, `watchos`,
    /// `xros`), nil for another text (an unexpanded `$(...)`).
    public init?(sdk: String) {
        let lower = sdk.lowercased()
        if lower.hasPrefix("iphone") { self = .iOS }
        else if lower.hasPrefix("macosx") || lower == "macos" { self = .macOS }
        else if lower.hasPrefix("appletv") || lower == "tvos" { self = .tvOS }
        else if lower.hasPrefix("watch") { self = .watchOS }
        else if lower.hasPrefix("xr") || lower == "visionos" { self = .visionOS }
        else { return nil }
    }

    /// The platform of an availability specification (`iOS`, `iOSApplicationExtension`, `macOS`, `OSX`,
    /// `tvOS`, `watchOS`, `visionOS`, `xrOS`; the C spellings `ios`, `macos`, `macosx`...), nil for another
    /// (`macCatalyst`, `swift`).
    public init?(availabilityName name: String) {
        var lower = name.lowercased()
        if lower.hasSuffix("applicationextension") { lower.removeLast("applicationextension".count) }
        switch lower {
        case "ios": self = .iOS
        case "macos", "osx", "macosx": self = .macOS
        case "tvos": self = .tvOS
        case "watchos": self = .watchOS
        case "visionos", "xros": self = .visionOS
        default: return nil
        }
    }

    /// The build setting holding this platform's deployment target.
    public var deploymentTargetSetting: String {
        switch self {
        case .iOS: return "IPHONEOS_DEPLOYMENT_TARGET"
        case .macOS: return "MACOSX_DEPLOYMENT_TARGET"
        case .tvOS: return "TVOS_DEPLOYMENT_TARGET"
        case .watchOS: return "WATCHOS_DEPLOYMENT_TARGET"
        case .visionOS: return "XROS_DEPLOYMENT_TARGET"
        }
    }
}

/// An OS version (`16`, `16.4`, `10.15.7`), compared component by component (missing ones are 0).
public struct OSVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var components: [Int]

    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: " \t\"'")
        let parts = trimmed.split(separator: ".", omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.count <= 4 else { return nil }
        var components: [Int] = []
        for part in parts {
            guard let value = Int(part), value >= 0 else { return nil }
            components.append(value)
        }
        self.components = components
    }

    public static func < (lhs: OSVersion, rhs: OSVersion) -> Bool {
        for index in 0..<max(lhs.components.count, rhs.components.count) {
            let left = index < lhs.components.count ? lhs.components[index] : 0
            let right = index < rhs.components.count ? rhs.components[index] : 0
            if left != right { return left < right }
        }
        return false
    }

    public static func == (lhs: OSVersion, rhs: OSVersion) -> Bool { !(lhs < rhs) && !(rhs < lhs) }

    public func hash(into hasher: inout Hasher) {
        var trimmed = components
        while trimmed.last == 0 { trimmed.removeLast() }
        hasher.combine(trimmed)
    }

    public var description: String { components.map(String.init).joined(separator: ".") }
}

extension String {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var slice = Substring(self)
        while let first = slice.first, set.contains(first) { slice.removeFirst() }
        while let last = slice.last, set.contains(last) { slice.removeLast() }
        return String(slice)
    }
}

/// What a file is built for: each platform some target compiling it builds for, with the lowest deployment
/// target among those targets (nil when one of them does not say).
public struct BuildPlatforms: Sendable, Equatable {
    public var deploymentTargets: [ApplePlatform: OSVersion?]

    public init(_ deploymentTargets: [ApplePlatform: OSVersion?] = [:]) {
        self.deploymentTargets = deploymentTargets
    }

    public var isEmpty: Bool { deploymentTargets.isEmpty }

    /// Adds a target's platform and deployment target (the lower one stays; an unknown one wins).
    public mutating func add(_ platform: ApplePlatform, deploymentTarget: OSVersion?) {
        if let known = deploymentTargets[platform] {
            guard let known, let deploymentTarget else { deploymentTargets[platform] = .some(nil); return }
            deploymentTargets[platform] = min(known, deploymentTarget)
        } else {
            deploymentTargets[platform] = deploymentTarget
        }
    }

    public mutating func formUnion(_ other: BuildPlatforms) {
        for (platform, version) in other.deploymentTargets { add(platform, deploymentTarget: version) }
    }

    /// A short description for a finding's note ("iOS 16.0+, watchOS 9+").
    public var summary: String {
        deploymentTargets.keys.sorted().map { platform in
            (deploymentTargets[platform] ?? nil).map { "\(platform.rawValue) \($0)+" } ?? platform.rawValue
        }.joined(separator: ", ")
    }
}

/// When a region of code cannot run depending on what the file is built for, in the text form a
/// `NonShippingRegion.condition` keeps (the file's summary is computed without the app model):
/// - `compiled-for:macOS,watchOS`: an `#if` clause only builds for these platforms compile;
/// - `available:iOS=13.0,macOS=10.15,*`: a branch that runs only when this availability check fails
///   (the `else` of `if #available(iOS 13, macOS 10.15, *)`); `*` stands for the platforms not listed.
public enum PlatformCondition: Sendable, Equatable {
    case compiledFor(Set<ApplePlatform>)
    case unavailable(versions: [ApplePlatform: OSVersion], otherPlatforms: Bool)

    public var text: String {
        switch self {
        case .compiledFor(let platforms):
            return "compiled-for:" + platforms.sorted().map(\.rawValue).joined(separator: ",")
        case .unavailable(let versions, let otherPlatforms):
            let parts = versions.keys.sorted().map { "\($0.rawValue)=\(versions[$0]!)" } + (otherPlatforms ? ["*"] : [])
            return "available:" + parts.joined(separator: ",")
        }
    }

    public init?(text: String) {
        if text.hasPrefix("compiled-for:") {
            let list = text.dropFirst("compiled-for:".count).split(separator: ",")
            var platforms = Set<ApplePlatform>()
            for name in list {
                guard let platform = ApplePlatform(rawValue: String(name)) else { return nil }
                platforms.insert(platform)
            }
            self = .compiledFor(platforms)
        } else if text.hasPrefix("available:") {
            var versions: [ApplePlatform: OSVersion] = [:]
            var otherPlatforms = false
            for part in text.dropFirst("available:".count).split(separator: ",") {
                if part == "*" { otherPlatforms = true; continue }
                let pieces = part.split(separator: "=")
                guard pieces.count == 2, let platform = ApplePlatform(rawValue: String(pieces[0])),
                      let version = OSVersion(String(pieces[1])) else { return nil }
                versions[platform] = version
            }
            self = .unavailable(versions: versions, otherPlatforms: otherPlatforms)
        } else {
            return nil
        }
    }

    /// Whether the code under this condition cannot run in builds for these platforms. Nothing is known not
    /// to run when no platform is known, or (for availability) when a platform's deployment target is not.
    public func holds(for platforms: BuildPlatforms) -> Bool {
        guard !platforms.isEmpty else { return false }
        switch self {
        case .compiledFor(let compiled):
            return platforms.deploymentTargets.keys.allSatisfy { !compiled.contains($0) }
        case .unavailable(let versions, let otherPlatforms):
            return platforms.deploymentTargets.allSatisfy { platform, deploymentTarget in
                if let required = versions[platform] {
                    guard let deploymentTarget else { return false }
                    return deploymentTarget >= required
                }
                // visionOS answers an iOS check as iOS 17 would (its first release); another platform not
                // listed takes `*`: the check passes there.
                if platform == .visionOS, let iOS = versions[.iOS] { return iOS <= OSVersion("17.0")! }
                return otherPlatforms
            }
        }
    }
}
