import Foundation
import MoatCore
import MoatFormats

/// An app extension whose `NSExtensionActivationRule` is the string `TRUEPREDICATE`: the placeholder
/// Apple's templates use during development, which makes the extension offered for, and handed, every kind
/// of item any app shares.
public struct ExtensionActivationAnythingRule: PropertyListRule {
    public static let plistKinds: Set<PlistKind> = [.infoPlist]

    public static let description = RuleDescription(
        id: "MOAT-PLAT-115", slug: "extension-activates-for-anything",
        title: "App extension activates for any content (TRUEPREDICATE)",
        severity: .low, confidence: .high, evidence: .compliance, cwe: [20],
        masvs: ["MASVS-PLATFORM-1"], mastg: ["MASTG-TEST-0072"],
        rationale: "`TRUEPREDICATE` is the development placeholder for an extension's activation rule: the extension is offered for every item any app shares, so its code receives types it was never written to parse (files, archives, web pages, data from other apps). App Review rejects extensions that ship with it.",
        fix: "Replace `TRUEPREDICATE` with the dictionary of the types the extension handles (`NSExtensionActivationSupportsImageWithMaxCount`, `NSExtensionActivationSupportsWebURLWithMaxCount`…) or a predicate over the UTIs it can parse.",
        references: ["https://developer.apple.com/documentation/bundleresources/information_property_list/nsextension/nsextensionattributes/nsextensionactivationrule",
                     "https://mas.owasp.org/MASTG/tests/ios/MASVS-PLATFORM/MASTG-TEST-0072/"],
        examples: [
            .triggering("ShareExtension/Info.plist", ExampleProject.plist("""
                <key>NSExtension</key>
                <dict>
                    <key>NSExtensionAttributes</key>
                    <dict>
                        ↓<key>NSExtensionActivationRule</key>
                        <string>TRUEPREDICATE</string>
                    </dict>
                    <key>NSExtensionPointIdentifier</key>
                    <string>com.apple.share-services</string>
                </dict>
            """)),
            .nonTriggering("ShareExtension/Info.plist", ExampleProject.plist("""
                <key>NSExtension</key>
                <dict>
                    <key>NSExtensionAttributes</key>
                    <dict>
                        <key>NSExtensionActivationRule</key>
                        <dict>
                            <key>NSExtensionActivationSupportsWebURLWithMaxCount</key>
                            <integer>1</integer>
                        </dict>
                    </dict>
                    <key>NSExtensionPointIdentifier</key>
                    <string>com.apple.share-services</string>
                </dict>
            """), note: "The types the extension handles."),
            .nonTriggering("ActionExtension/Info.plist", ExampleProject.plist("""
                <key>NSExtension</key>
                <dict>
                    <key>NSExtensionAttributes</key>
                    <dict>
                        <key>NSExtensionActivationRule</key>
                        <string>SUBQUERY (extensionItems, $extensionItem, SUBQUERY ($extensionItem.attachments, $attachment, ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.image").@count == 1).@count == 1</string>
                    </dict>
                    <key>NSExtensionPointIdentifier</key>
                    <string>com.apple.ui-services</string>
                </dict>
            """), note: "A predicate over the types it parses."),
        ])

    public init() {}

    static let placeholder = "TRUEPREDICATE"

    public func check(_ plist: PropertyListDocument, _ sink: inout FindingSink) {
        guard let rule = plist.root["NSExtension"]?["NSExtensionAttributes"]?["NSExtensionActivationRule"],
              let predicate = rule.string, predicate.trimmingCharacters(in: .whitespacesAndNewlines).uppercased() == Self.placeholder else { return }
        sink.report("The extension's NSExtensionActivationRule is `TRUEPREDICATE`: it is offered for, and receives, every kind of item other apps share, and App Review rejects it. List the types it handles.",
                    in: plist, at: rule)
    }
}
