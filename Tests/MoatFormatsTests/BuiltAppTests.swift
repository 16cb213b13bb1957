@testable import MoatTestSupport
import Foundation
import Testing
@testable import MoatFormats

@Suite("Built app reader")
struct BuiltAppTests {
    /// The facts every container must give for the fixture app, with display paths starting `prefix`.
    private func checkDemo(_ app: BuiltApp, prefix: String, pathPrefix: String) throws {
        let main = app.mainApp
        #expect(main.kind == .application)
        #expect(main.path == (pathPrefix.isEmpty ? "" : String(pathPrefix.dropLast())))
        #expect(main.problems.isEmpty)
        #expect(main.infoPlist?.displayPath == prefix + "Info.plist")
        #expect(main.executableName == "Demo")
        #expect(main.executable?.path == pathPrefix + "Demo")
        #expect(main.provisioningProfile?.displayPath == prefix + "embedded.mobileprovision")
        #expect(main.privacyManifests.map(\.displayPath) == [prefix + "PrivacyInfo.xcprivacy"])
        #expect(main.dylibs.map(\.displayPath) == [prefix + "Frameworks/libswiftCore.dylib"])
        #expect(main.nestedBundles.map(\.displayPath) == [
            prefix + "PlugIns/Share.appex", prefix + "Extensions/Widget.appex", prefix + "Frameworks/Kit.framework",
            prefix + "Watch/DemoWatch.app",
        ])
        #expect(main.nestedBundles.map(\.kind) == [.appExtension, .appExtension, .framework, .watchApplication])
        #expect(main.appExtensions.map(\.executableName) == ["Share", "Widget"])
        let kit = try #require(main.frameworks.first)
        #expect(kit.executable?.displayPath == prefix + "Frameworks/Kit.framework/Kit")
        #expect(kit.privacyManifests.map(\.displayPath) == [prefix + "Frameworks/Kit.framework/Resources.bundle/PrivacyInfo.xcprivacy"])
        let share = try #require(main.appExtensions.first)
        #expect(share.privacyManifests.map(\.displayPath) == [prefix + "PlugIns/Share.appex/PrivacyInfo.xcprivacy"])
        #expect(share.frameworks.map(\.executable?.displayPath) == [prefix + "PlugIns/Share.appex/Frameworks/Inner.framework/Inner"])
        #expect(app.allBundles.count == 6)
        // Files of nested bundles are not the app's own.
        #expect(!main.files.contains { $0.path.contains("Share.appex") })
        #expect(main.files.contains { $0.path == pathPrefix + "Frameworks/libswiftCore.dylib" })

        // Compiled interfaces and their class names.
        #expect(main.interfaceFiles.map(\.displayPath) == [
            prefix + "Base.lproj/Main.storyboardc", prefix + "LaunchScreen.nib",
        ])
        let storyboard = try #require(main.interfaceFiles.first)
        #expect(storyboard.files.map(\.displayPath) == [
            prefix + "Base.lproj/Main.storyboardc/Login.nib/objects-13.0+.nib",
            prefix + "Base.lproj/Main.storyboardc/UIViewController-abc.nib",
        ])
        #expect(try app.classNames(in: storyboard) == [
            "_TtC4Demo19LoginViewController", "UITextField", "UIViewController", "UIView", "UILabel",
        ])
        #expect(try app.classNames(in: main.interfaceFiles[1]) == ["UIView", "NSLayoutConstraint", "UIImageView"])

        // Reading and parsing through the listing.
        let info = try app.propertyList(try #require(main.infoPlist))
        #expect(info.root["CFBundleIdentifier"]?.string == "com.example.demo")
        #expect(info.path == prefix + "Info.plist")
        let kitInfo = try app.propertyList(try #require(kit.infoPlist))
        #expect(kitInfo.format == .binary)
        let machO = try #require(try app.machO(of: main))
        #expect(machO.images.first?.objcClassNames().strings == ["AppDelegate"])
        let signature = try #require(try machO.images.first?.codeSignature())
        #expect(try signature.entitlements(path: main.executable?.displayPath ?? "")?.root["get-task-allow"]?.bool == true)
        let profile = try #require(try app.provisioningProfile(of: main))
        #expect(profile.kind == .development)
        #expect(profile.document.path == prefix + "embedded.mobileprovision")
    }

    @Test func readsAnIPA() throws {
        let app = try BuiltApp(ipaData: AppFixture.ipa(), displayName: "Demo.ipa")
        #expect(app.container == .ipa)
        try checkDemo(app, prefix: "Demo.ipa!/Payload/Demo.app/", pathPrefix: "Payload/Demo.app/")
        #expect(app.archiveInfoPlist == nil)
        #expect(app.skipped == [
            BuiltApp.SkippedItem(displayPath: "Demo.ipa!/Payload/Demo.app/link", reason: "symbolic link not followed"),
            BuiltApp.SkippedItem(displayPath: "Demo.ipa!/../evil.txt", reason: "unsafe name ('..' component)"),
        ])
        #expect(throws: BinaryFormatError.self) { try app.read(path: "Payload/Demo.app/link") }
    }

    @Test func readsAnIPAFile() throws {
        let folder = try AppFixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Demo.ipa")
        try AppFixture.ipa().write(to: url)
        let app = try BuiltApp(url: url)
        try checkDemo(app, prefix: "Demo.ipa!/Payload/Demo.app/", pathPrefix: "Payload/Demo.app/")
    }

    @Test func readsAnAppFolder() throws {
        let folder = try AppFixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let appURL = folder.appendingPathComponent("Demo.app")
        try AppFixture.write(AppFixture.appFiles(), under: appURL)
        try Data("secret".utf8).write(to: folder.appendingPathComponent("outside.txt"))
        let manager = FileManager.default
        try manager.createSymbolicLink(atPath: appURL.appendingPathComponent("escape").path, withDestinationPath: "../outside.txt")
        try manager.createSymbolicLink(atPath: appURL.appendingPathComponent("passwd").path, withDestinationPath: "/etc/passwd")
        try manager.createSymbolicLink(atPath: appURL.appendingPathComponent("Alias.plist").path, withDestinationPath: "Info.plist")
        try manager.createSymbolicLink(atPath: appURL.appendingPathComponent("Loop").path, withDestinationPath: ".")
        try manager.createSymbolicLink(atPath: appURL.appendingPathComponent("Dangling").path, withDestinationPath: "nowhere")

        let app = try BuiltApp(url: appURL)
        #expect(app.container == .app)
        #expect(app.displayName == "Demo.app")
        try checkDemo(app, prefix: "Demo.app/", pathPrefix: "")
        #expect(Set(app.skipped) == [
            BuiltApp.SkippedItem(displayPath: "Demo.app/escape", reason: "symbolic link points outside the bundle"),
            BuiltApp.SkippedItem(displayPath: "Demo.app/passwd", reason: "symbolic link points outside the bundle"),
            BuiltApp.SkippedItem(displayPath: "Demo.app/Loop", reason: "symbolic link to a folder or special file not followed"),
            BuiltApp.SkippedItem(displayPath: "Demo.app/Dangling", reason: "dangling symbolic link"),
        ])
        // A link inside the bundle is a file; links out of it, and paths with `..`, are never read.
        #expect(app.mainApp.files.contains { $0.path == "Alias.plist" })
        #expect(try app.read(path: "Alias.plist") == AppFixture.infoPlist(executable: "Demo", identifier: "com.example.demo"))
        #expect(throws: BinaryFormatError(.bundle, "escape resolves outside the bundle")) { try app.read(path: "escape") }
        #expect(throws: BinaryFormatError(.bundle, "refused path ../outside.txt")) { try app.read(path: "../outside.txt") }
        #expect(throws: BinaryFormatError(.bundle, "refused path /etc/passwd")) { try app.read(path: "/etc/passwd") }
        #expect(throws: BinaryFormatError.self) { try app.read(path: "Base.lproj") }
    }

    @Test func readsAnXcarchive() throws {
        let folder = try AppFixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let archive = folder.appendingPathComponent("Demo.xcarchive")
        try AppFixture.write(AppFixture.appFiles().map { ("Products/Applications/Demo.app/" + $0.0, $0.1) }
                             + [("Info.plist", AppFixture.infoPlist(executable: nil, identifier: "archive")),
                                ("dSYMs/Demo.app.dSYM/Contents/Info.plist", Data("<plist/>".utf8))],
                             under: archive)
        let app = try BuiltApp(url: archive, displayName: "build/Demo.xcarchive")
        #expect(app.container == .xcarchive)
        try checkDemo(app, prefix: "build/Demo.xcarchive/Products/Applications/Demo.app/",
                      pathPrefix: "Products/Applications/Demo.app/")
        #expect(app.archiveInfoPlist?.displayPath == "build/Demo.xcarchive/Info.plist")
        #expect(app.skipped.isEmpty)
    }

    @Test func hostileExecutableNamesAreIgnored() throws {
        let app = try BuiltApp(ipaData: AppFixture.ipa(executableName: "../../../etc/passwd"), displayName: "Demo.ipa")
        #expect(app.mainApp.problems == ["CFBundleExecutable \"../../../etc/passwd\" is not a file name; ignored"])
        // Falls back to the bundle name.
        #expect(app.mainApp.executableName == "Demo")
        let missing = try BuiltApp(ipaData: AppFixture.ipa(executableName: "Missing"), displayName: "Demo.ipa")
        #expect(missing.mainApp.executable == nil)
        #expect(missing.mainApp.problems == ["executable Missing not found"])
    }

    @Test func refusesInputsWithoutAnApp() throws {
        var writer = ZipWriter()
        writer.add("Payload/readme.txt", "no app")
        #expect(throws: BinaryFormatError(.bundle, "x.ipa has no Payload/*.app")) {
            try BuiltApp(ipaData: writer.build(), displayName: "x.ipa")
        }
        let folder = try AppFixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: BinaryFormatError.self) { try BuiltApp(url: folder) }
        #expect(throws: BinaryFormatError.self) { try BuiltApp(url: folder.appendingPathComponent("missing.ipa")) }
    }

    @Test func boundsBundleNesting() throws {
        var writer = ZipWriter()
        var path = "Payload/Deep.app"
        for level in 0..<8 {
            path += "/PlugIns/E\(level).appex"
            writer.add(path + "/Info.plist", String(decoding: AppFixture.infoPlist(executable: nil, identifier: "e"), as: UTF8.self))
        }
        let app = try BuiltApp(ipaData: writer.build(), displayName: "Deep.ipa")
        #expect(app.allBundles.count == 5)
        #expect(app.warnings.count == 1)
    }

    @Test func interfaceClassNamesNeverCrashOnGarbage() {
        let nib = AppFixture.nibArchive(classNames: ["UIView", "UIButton"])
        for length in 0..<nib.count {
            _ = InterfaceBuilderClassNames.classNames(in: Data(nib.prefix(length)))
        }
        var corrupt = nib
        corrupt[42] = 0xff
        #expect(InterfaceBuilderClassNames.classNames(in: corrupt) == ["NIBArchive", "UIView", "UIButton"])
    }

    @Test func truncatedAndCorruptedIPAsNeverCrash() throws {
        let data = AppFixture.ipa()
        func exercise(_ data: Data) {
            guard let app = try? BuiltApp(ipaData: data, displayName: "t.ipa") else { return }
            for bundle in app.allBundles {
                if let image = (try? app.machO(of: bundle))??.images.first {
                    _ = image.imports()
                    _ = try? image.codeSignature()?.entitlements(path: "x")
                }
                _ = try? app.provisioningProfile(of: bundle)
                for interface in bundle.interfaceFiles { _ = try? app.classNames(in: interface) }
                for manifest in bundle.privacyManifests { _ = try? app.propertyList(manifest) }
            }
        }
        for length in stride(from: 0, to: data.count, by: 7) { exercise(Data(data.prefix(length))) }
        // Every 7th byte of the central directory and end record, every 31st elsewhere (the whole
        // app is parsed for each variant, so this keeps the test quick).
        let directoryStart = data.count - 2500
        for position in Array(stride(from: 0, to: directoryStart, by: 31)) + Array(stride(from: directoryStart, to: data.count, by: 7)) {
            var corrupt = data
            corrupt[position] ^= 0xff
            exercise(corrupt)
        }
    }
}
