import MoatCore
import MoatFormats
import MoatSyntax

extension AppUnit {
    /// The platforms this target builds for, with their deployment targets (`SUPPORTED_PLATFORMS`, else
    /// `SDKROOT`; `IPHONEOS_DEPLOYMENT_TARGET`, `MACOSX_DEPLOYMENT_TARGET`... over every configuration, the
    /// lowest). nil when not known: loose files, a target whose SDK is not written or not expanded.
    public var buildPlatforms: BuildPlatforms? {
        guard target != nil, !configurations.isEmpty else { return nil }
        var result = BuildPlatforms()
        for configuration in configurations {
            let names: [String]
            if let supported = configuration.settings["SUPPORTED_PLATFORMS"]?.value, !supported.isEmpty {
                names = supported.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            } else if let sdk = configuration.settings["SDKROOT"]?.value, !sdk.isEmpty {
                names = [sdk]
            } else {
                return nil
            }
            var platforms: [ApplePlatform] = []
            for name in names {
                guard let platform = ApplePlatform(sdk: name) else { return nil }
                if !platforms.contains(platform) { platforms.append(platform) }
            }
            guard !platforms.isEmpty else { return nil }
            for platform in platforms {
                let version = configuration.settings[platform.deploymentTargetSetting].flatMap { OSVersion($0.value) }
                result.add(platform, deploymentTarget: version)
            }
        }
        return result
    }
}

extension AppModel {
    /// What each source file is built for (`BuildPlatforms`): the union over the targets that compile it. A
    /// file no target compiles (a local package's, a folder Moat formed a unit from) takes the union over
    /// every target of the scan, which is what runs its code. Empty when some target's platforms are not
    /// known (then no platform-dependent region is decided).
    public var sourceBuildPlatforms: (byPath: [String: BuildPlatforms], others: BuildPlatforms) {
        var byPath: [String: BuildPlatforms] = [:]
        var unknownPaths = Set<String>()
        var all = BuildPlatforms()
        var allKnown = true
        var anyTarget = false
        for unit in units where unit.target != nil {
            anyTarget = true
            guard let platforms = unit.buildPlatforms else {
                allKnown = false
                for source in unit.sources { unknownPaths.insert(source.path) }
                continue
            }
            all.formUnion(platforms)
            for source in unit.sources { byPath[source.path, default: BuildPlatforms()].formUnion(platforms) }
        }
        for path in unknownPaths { byPath[path] = BuildPlatforms() }
        return (byPath, anyTarget && allKnown ? all : BuildPlatforms())
    }
}

extension AppUnit {
    /// The platforms the unit builds for (`ApplePlatform`, in MoatCore; iPadOS and Mac Catalyst builds are
    /// iOS), as the platform-aware rules ask it, empty when nothing says (rules then judge it as before, as an
    /// iOS app). From the build settings of its configurations: `SUPPORTED_PLATFORMS` (an XcodeGen
    /// `platform` becomes `SDKROOT`), else `SDKROOT`; a watch app product type or an Info.plist with a
    /// WatchKit key is watchOS. For loose files, an Info.plist with a WatchKit key is watchOS, and one with
    /// `LSMinimumSystemVersion` and none of the iOS keys (`LSRequiresIPhoneOS`, `UIDeviceFamily`) is macOS.
    public var platforms: Set<ApplePlatform> {
        if let type = target?.productType, type.contains("watchapp") || type.contains("watchkit") { return [.watchOS] }
        var result = Set<ApplePlatform>()
        for configuration in configurations {
            if let supported = configuration.settings["SUPPORTED_PLATFORMS"]?.value, !supported.contains("$(") {
                let named = Set(supported.split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { ApplePlatform(sdk: String($0)) })
                if !named.isEmpty {
                    result.formUnion(named)
                    continue
                }
            }
            if let sdk = configuration.settings["SDKROOT"]?.value, let platform = ApplePlatform(sdk: sdk) { result.insert(platform) }
        }
        if infoPlists.contains(where: AppPlaces.isWatchInfoPlist) { return [.watchOS] }
        if !result.isEmpty { return result }
        let infos = infoPlists
        if !infos.isEmpty, infos.allSatisfy({ plist in
            plist.root["LSMinimumSystemVersion"] != nil && plist.root["LSRequiresIPhoneOS"] == nil && plist.root["UIDeviceFamily"] == nil
        }) { return [.macOS] }
        return []
    }

    /// Whether a requirement that holds on `applicable` platforms concerns this unit: it builds for one of
    /// them, or its platform is unknown.
    public func builds(forAnyOf applicable: Set<ApplePlatform>) -> Bool {
        let own = platforms
        return own.isEmpty || !own.isDisjoint(with: applicable)
    }

    /// A unit that builds for macOS only, where App Store Connect does not require required-reason
    /// declarations (ITMS-91053 concerns iOS, iPadOS, tvOS, visionOS and watchOS apps).
    var isMacOnly: Bool { platforms == [.macOS] }
}
