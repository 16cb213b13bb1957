import Foundation
import MoatCore
import MoatFormats
import MoatRules

/// Loads and analyzes a built app (`.ipa`, `.app`, `.xcarchive`) or a lone Mach-O file, without
/// extracting anything to disk.
///
/// For every bundle (the app, its extensions, App Clips, watch apps and frameworks):
/// - the Info.plist of apps and extensions, their privacy manifests and the entitlements their executable
///   is signed with go through the same property-list rules as source files, and on to the app rules;
///   a framework's Info.plist only gives its name and version (iOS reads usage descriptions and App
///   Transport Security settings from the app's and extensions' Info.plists alone);
/// - when an executable carries no entitlements, the provisioning profile's `Entitlements` stand in;
/// - each executable, framework binary and loose library (except the Swift runtime Apple embeds for old
///   systems) goes through the binary rules, with its bundle as context.
///
/// Property lists stored inside binaries (signed entitlements, a profile's CMS content) have no useful
/// lines: their findings are located by the binary's display path, line 1 and the key path. Entries a
/// hostile archive made unreadable, and bundles that could not be used, become `ScanError`s naming them.
struct BuiltAppAnalysis {
    let analyzer: Analyzer

    /// Largest lone Mach-O file read (it is memory-mapped).
    static let maximumBinarySize: UInt64 = 1 << 30

    func analyze(_ file: DiscoveredFile) -> FileOutcome {
        if file.kind == .machO { return analyzeLoneBinary(file) }
        let app: BuiltApp
        do {
            app = try BuiltApp(url: file.url, displayName: file.path)
        } catch {
            var outcome = FileOutcome()
            outcome.errors.append(ScanError(path: file.path, message: "cannot read built app: \(Self.describe(error))"))
            return outcome
        }
        return analyze(app)
    }

    /// Every bundle of a read app.
    func analyze(_ app: BuiltApp) -> FileOutcome {
        var outcome = FileOutcome(payload: .builtApp(plists: []))
        for item in app.skipped {
            outcome.errors.append(ScanError(path: item.displayPath, message: "skipped: \(item.reason)"))
        }
        for warning in app.warnings {
            outcome.errors.append(ScanError(path: app.displayName, message: warning))
        }
        visit(app.mainApp, in: app, host: nil, into: &outcome)
        return outcome
    }

    /// What a framework inherits from the app or extension that loads it.
    private struct Host {
        var infoPlist: PropertyListDocument?
        var profile: ProvisioningProfile?
    }

    private func visit(_ bundle: AppBundle, in app: BuiltApp, host: Host?, into outcome: inout FileOutcome) {
        let kind = Self.kind(of: bundle.kind)
        let isApplicationLike = kind != .framework
        for problem in bundle.problems where !(kind == .framework && problem == "no Info.plist" && bundle.executable == nil) {
            outcome.errors.append(ScanError(path: bundle.displayPath, message: problem))
        }

        // Info.plist: rules for apps and extensions; name and version only for frameworks.
        var infoPlist: PropertyListDocument?
        if let file = bundle.infoPlist {
            do {
                let document = try app.propertyList(file, kind: isApplicationLike ? .infoPlist : .other)
                infoPlist = document
                if isApplicationLike {
                    outcome.findings += analyzer.analyze(document)
                    outcome.addBundlePlist(document)
                }
            } catch {
                outcome.errors.append(ScanError(path: file.displayPath, message: "cannot read property list: \(Self.describe(error))"))
            }
        }
        for file in bundle.privacyManifests {
            do {
                let document = try app.propertyList(file, kind: .privacyManifest)
                outcome.findings += analyzer.analyze(document)
                outcome.addBundlePlist(document)
            } catch {
                outcome.errors.append(ScanError(path: file.displayPath, message: "cannot read property list: \(Self.describe(error))"))
            }
        }
        var profile: ProvisioningProfile?
        if let file = bundle.provisioningProfile {
            do {
                profile = try app.provisioningProfile(of: bundle)
            } catch {
                outcome.errors.append(ScanError(path: file.displayPath, message: "cannot read provisioning profile: \(Self.describe(error))"))
            }
        }
        let ownHost = isApplicationLike ? Host(infoPlist: infoPlist, profile: profile) : (host ?? Host())
        let context = BinaryBundle(
            kind: kind, path: bundle.displayPath, name: Self.lastComponent(bundle.displayPath), container: app.container.rawValue,
            infoPlist: infoPlist, hostInfoPlist: ownHost.infoPlist, profile: isApplicationLike ? profile : ownHost.profile,
            hasDebugDylib: bundle.files.contains { Self.isDebugDylib($0.path) })

        // The executable, then loose libraries.
        if let executable = bundle.executable {
            let role: BinaryImage.Role = isApplicationLike ? .bundleExecutable : .framework
            if let binary = load(executable, in: app, role: role, bundle: context, into: &outcome) {
                if let entitlements = binary.entitlements {
                    outcome.findings += analyzer.analyze(entitlements)
                    outcome.addBundlePlist(entitlements)
                } else if isApplicationLike, let profile, let granted = profile.entitlements, granted.entries != nil {
                    // No signed entitlements: the profile's say what the app may have.
                    let document = PropertyListDocument(path: profile.document.path, format: profile.document.format,
                                                        kind: .entitlements, root: granted.withoutLines())
                    outcome.findings += analyzer.analyze(document)
                    outcome.addBundlePlist(document)
                }
                outcome.findings += analyzer.analyze(binary)
            }
        }
        // Xcode 15+ debug builds hold the app's code in `X.debug.dylib`, next to a stub executable.
        let prefix = bundle.path.isEmpty ? "" : bundle.path + "/"
        let debugLibraries = bundle.files.filter {
            $0.path.hasPrefix(prefix) && !$0.path.dropFirst(prefix.count).contains("/") && $0.path.hasSuffix(".debug.dylib")
        }
        for library in bundle.dylibs.filter({ !Self.isSwiftRuntime($0.path) }) + debugLibraries {
            if let binary = load(library, in: app, role: .library, bundle: context, into: &outcome) {
                outcome.findings += analyzer.analyze(binary)
            }
        }
        for nested in bundle.nestedBundles {
            visit(nested, in: app, host: ownHost, into: &outcome)
        }
    }

    private func load(_ file: BundleFile, in app: BuiltApp, role: BinaryImage.Role, bundle: BinaryBundle,
                      into outcome: inout FileOutcome) -> BinaryImage? {
        do {
            let machO = try MachOFile(data: app.read(file))
            guard let binary = BinaryImage.make(path: file.displayPath, role: role, bundle: bundle, file: machO) else { return nil }
            outcome.errors += Self.errors(of: binary)
            return binary
        } catch {
            outcome.errors.append(ScanError(path: file.displayPath, message: "cannot read Mach-O binary: \(Self.describe(error))"))
            return nil
        }
    }

    private func analyzeLoneBinary(_ file: DiscoveredFile) -> FileOutcome {
        var outcome = FileOutcome()
        let attributes = try? FileManager.default.attributesOfItem(atPath: file.url.path)
        if let size = (attributes?[.size] as? NSNumber)?.uint64Value, size > Self.maximumBinarySize {
            outcome.errors.append(ScanError(path: file.path, message: "skipped: \(size) bytes is larger than the \(Self.maximumBinarySize)-byte limit for binaries"))
            return outcome
        }
        guard let data = try? Data(contentsOf: file.url, options: .alwaysMapped) else {
            outcome.errors.append(ScanError(path: file.path, message: "cannot read file: permission denied or unreadable"))
            return outcome
        }
        // A `.so` or `.dylib` built for another system is not ours to judge.
        guard MachOFile.looksLikeMachO(data) else { return outcome }
        do {
            let machO = try MachOFile(data: data)
            guard let binary = BinaryImage.make(path: file.path, role: .standalone, bundle: nil, file: machO) else { return outcome }
            outcome.errors += Self.errors(of: binary)
            outcome.findings += analyzer.analyze(binary)
        } catch {
            outcome.errors.append(ScanError(path: file.path, message: "cannot read Mach-O binary: \(Self.describe(error))"))
        }
        return outcome
    }

    /// Warnings that mean part of a binary went unread. Encrypted sections are not errors: the binary
    /// inventory says the image is encrypted.
    static func errors(of binary: BinaryImage) -> [ScanError] {
        binary.warnings.filter { !$0.hasSuffix(" is encrypted") }
            .map { ScanError(path: binary.path, message: "partly read: \($0)") }
    }

    static func kind(of kind: BundleKind) -> BinaryBundle.Kind {
        switch kind {
        case .application: return .application
        case .appExtension: return .appExtension
        case .framework: return .framework
        case .watchApplication: return .watchApplication
        case .appClip: return .appClip
        }
    }

    /// `libswiftCore.dylib` and friends: the Swift runtime Xcode embedded for iOS before 12.2 (Apple's code).
    static func isSwiftRuntime(_ path: String) -> Bool {
        let name = lastComponent(path)
        return name.hasPrefix("libswift") && name.hasSuffix(".dylib")
    }

    /// Xcode 15+ debug builds move the app's code into `X.debug.dylib`; SwiftUI previews add `__preview.dylib`.
    static func isDebugDylib(_ path: String) -> Bool {
        let name = lastComponent(path)
        return name.hasSuffix(".debug.dylib") || name == "__preview.dylib"
    }

    static func lastComponent(_ path: String) -> String {
        String(path.split(separator: "/").last ?? Substring(path))
    }

    static func describe(_ error: Error) -> String {
        if let error = error as? BinaryFormatError { return error.message }
        if let error = error as? PropertyListError { return error.message }
        return "\(error)"
    }
}
