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
