import MoatCore
import MoatFormats

public struct EmbeddedFrameworkInventoryRule: BinaryRule {
    public static let description = RuleDescription(
        id: "MOAT-CODE-405", slug: "embedded-framework-inventory", title: "Framework or library embedded in the app",
        severity: .info, confidence: .high, cwe: [1104],
        masvs: ["MASVS-CODE-3"], mastg: ["MASTG-TEST-0085"],
        rationale: "Every framework and dynamic library shipped in the app runs with the app's privileges and data. Listing them with their versions (`CFBundleShortVersionString`, else `CFBundleVersion`) lets a reviewer check them against known vulnerabilities and licences, and spot libraries nobody meant to ship. The Swift runtime libraries Xcode embeds for old iOS versions are Apple's and are not listed.",
        fix: "Nothing to fix: this is an inventory entry. Keep third-party frameworks up to date, and remove the ones the app no longer uses.",
        references: ["https://developer.apple.com/documentation/xcode/embedding-frameworks-in-an-app"],
        isInventory: true,
        examples: [
            RuleExample(files: [
                ExampleFile(name: "Demo.app/Demo", content: "Mach-O executable arm64"),
                ExampleFile(name: "Demo.app/Frameworks/Kit.framework/Kit", content: "Mach-O dylib arm64"),
                ExampleFile(name: "Demo.app/Frameworks/Kit.framework/Info.plist", content: """
                <?xml version="1.0" encoding="UTF-8"?>
                <plist version="1.0">
                <dict>
                    <key>CFBundleExecutable</key>
                    <string>Kit</string>
                    <key>CFBundleIdentifier</key>
                    <string>com.example.kit</string>
                    ↓<key>CFBundleShortVersionString</key>
                    <string>4.2.1</string>
                </dict>
                </plist>
                """),
                ExampleFile(name: "Demo.app/Frameworks/libcrypto.dylib", content: "↓Mach-O dylib arm64"),
            ], triggers: true),
            .nonTriggering("Demo.app/Demo", "Mach-O executable arm64", note: "The app's own executable is not listed."),
        ])

    public init() {}

    public func check(_ binary: BinaryImage, _ sink: inout FindingSink) {
        switch binary.role {
        case .framework:
            guard let bundle = binary.bundle else { return }
            let info = bundle.infoPlist
            let versionNode = info?.root["CFBundleShortVersionString"] ?? info?.root["CFBundleVersion"]
            let version = versionNode?.string.map { " \($0)" } ?? " (no version in its Info.plist)"
            let identifier = info?.root["CFBundleIdentifier"]?.string.map { " (\($0))" } ?? ""
            let message = "Embedded framework \(bundle.name)\(version)\(identifier) at \(bundle.path)."
            if let info, let versionNode {
                sink.report(message, inEmbedded: info, at: versionNode, evidence: versionNode.string)
                sink.attach(InventoryItem(.embeddedFramework, name: bundle.name))
            } else {
                sink.report(message, in: binary)
                sink.attach(InventoryItem(.embeddedFramework, name: bundle.name))
            }
        case .library:
            let installName = binary.image.installName.map { " (install name \($0))" } ?? ""
            sink.report("Embedded dynamic library \(binary.name)\(installName) at \(binary.path).", in: binary)
            sink.attach(InventoryItem(.embeddedFramework, name: binary.name))
        case .bundleExecutable, .standalone:
            return
        }
    }
}
