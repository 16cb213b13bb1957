import MoatCore
import MoatFormats

/// An Apple platform a unit builds for. iPadOS and Mac Catalyst builds are `iOS` here: they run the iOS
/// SDK and follow its rules.
public enum ApplePlatform: String, Sendable, CaseIterable, Comparable {
    case iOS, macOS, tvOS, watchOS, visionOS

    /// The platform of an SDK or `SUPPORTED_PLATFORMS` name (`iphoneos`, `iphonesimulator`, `macosx`,
    /// `appletvos`, `watchos`, `watchsimulator`, `xros`); nil for `auto` and unknown names.
    public static func of(sdk name: String) -> ApplePlatform? {
        let lower = name.lowercased()
        if lower.hasPrefix("iphone") { return .iOS }
        if lower.hasPrefix("macosx") { return .macOS }
        if lower.hasPrefix("appletv") { return .tvOS }
        if lower.hasPrefix("watch") { return .watchOS }
        if lower.hasPrefix("xr") { return .visionOS }
        return nil
    }

    public static func < (lhs: ApplePlatform, rhs: ApplePlatform) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

extension AppUnit {
    /// The platforms the unit builds for, empty when nothing says (rules then judge it as before, as an
    /// iOS app). From the build settings of its configurations: `SUPPORTED_PLATFORMS` (an XcodeGen
    /// `platform` becomes `SDKROOT`), else `SDKROOT`; a watch app product type or an Info.plist with a
    /// WatchKit key is watchOS. For loose files, an Info.plist with a WatchKit key is watchOS, and one with
    /// `LSMinimumSystemVersion` and none of the iOS keys (`LSRequiresIPhoneOS`, `UIDeviceFamily`) is macOS.
    public var platforms: Set<ApplePlatform> {
        if let type = target?.productType, type.contains("watchapp") || type.contains("watchkit") { return [.watchOS] }
        var result = Set<ApplePlatform>()
        for configuration in configurations {
            if let supported = configuration.settings["SUPPORTED_PLATFORMS"]?.value, !supported.contains("$(") {
                let named = Set(supported.split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { ApplePlatform.of(sdk: String($0)) })
                if !named.isEmpty {
                    result.formUnion(named)
                    continue
                }
            }
            if let sdk = configuration.settings["SDKROOT"]?.value, let platform = ApplePlatform.of(sdk: sdk) { result.insert(platform) }
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
