import MoatCore
import MoatFormats
import MoatSyntax

extension APIClause {
    /// `requestAccess (AVCaptureDevice, video)`.
    var readable: String {
        names.count <= 1 ? anchor : "\(anchor) (\(names.dropFirst().joined(separator: ", ")))"
    }
}

/// Text shared by the permission rules.
enum PermissionText {
    static func quoted(_ text: String, limit: Int = 80) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        return "\"" + (flat.count > limit ? String(flat.prefix(limit)) + "…" : flat) + "\""
    }

    static func describe(_ key: String) -> String {
        guard let known = PermissionTable.usageKey(key) else { return key }
        return "\(known.resource) (\(key)\(known.isLegacy ? ", legacy key" : ""))"
    }

    static func list(_ names: [String]) -> String {
        switch names.count {
        case 0: return ""
        case 1: return names[0]
        default: return names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
        }
    }
}

public struct PermissionInventoryRule: AppRule {
    public static let description = RuleDescription(
        id: "MOAT-PRIV-101", slug: "privacy-usage-inventory", title: "Privacy permission the app can ask for",
        severity: .info, confidence: .high, cwe: [359],
        masvs: ["MASVS-PRIVACY-1"], mastg: ["MASTG-TEST-0069"],
        rationale: "Every `NS…UsageDescription` key (and `NFCReaderUsageDescription`) is a permission the app may ask the user for. An auditor starts from this list: each entry must match a feature of the app, and its purpose string must say why the app needs the data. Keys are read from the Info.plist and from `INFOPLIST_KEY_…` build settings (modern Xcode projects keep them there), and reported where they are written. Keys Apple does not document are listed too, because a misspelled key is no key at all.",
        fix: "Nothing to fix by itself. Remove the permissions the app does not need, and make sure each purpose string explains the concrete benefit to the user.",
        references: ["https://developer.apple.com/documentation/bundleresources/information_property_list/protected_resources",
                     "https://developer.apple.com/documentation/uikit/protecting_the_user_s_privacy/requesting_access_to_protected_resources"],
        isInventory: true,
        examples: [
            .triggering("App/Info.plist", ExampleProject.plist("""
                ↓<key>NSCameraUsageDescription</key>
                <string>Scan a receipt so it can be attached to your expense report.</string>
                ↓<key>NSLocationWhenInUseUsageDescription</key>
                <string>Show the offices closest to you.</string>
                ↓<key>NSCarrierPigeonUsageDescription</key>
                <string>Deliver receipts by pigeon.</string>
                <key>CFBundleName</key>
                <string>Receipts</string>
            """)),
            RuleExample(files: [
                ExampleFile(name: ExampleProject.path, content: ExampleProject.pbxproj(
                    debug: ["GENERATE_INFOPLIST_FILE = YES;",
                            "INFOPLIST_KEY_NSMicrophoneUsageDescription = \"Record a voice memo for the expense.\";"],
                    release: ["GENERATE_INFOPLIST_FILE = YES;",
                              "↓INFOPLIST_KEY_NSMicrophoneUsageDescription = \"Record a voice memo for the expense.\";"])),
                ExampleFile(name: "App/Memo.swift", content: "import AVFoundation\nlet recorder = try AVAudioRecorder(url: url, settings: [:])\n"),
            ], triggers: true, note: "Generated Info.plist: reported at the Release build setting, once."),
            .nonTriggering("App/Info.plist", ExampleProject.plist("""
                <key>CFBundleName</key>
                <string>Receipts</string>
                <key>UIBackgroundModes</key>
                <array>
                    <string>fetch</string>
                </array>
            """)),
        ])

    public init() {}

    public func check(_ app: AppModel, _ sink: inout FindingSink) {
        for unit in app.units {
            for key in unit.infoKeys where PermissionTable.isUsageKey(key) {
                let values = unit.infoValues(forKey: key)
                guard let value = values.first else { continue }
                let purpose = value.string.map { ": " + PermissionText.quoted($0) } ?? ""
                let message: String
                if PermissionTable.usageKey(key) != nil {
                    message = "Can ask for \(PermissionText.describe(key))\(purpose)."
                } else {
                    message = "Declares \(key), a usage description key Apple does not document (check its spelling)\(purpose)."
                }
                let related = values.dropFirst().map { RelatedLocation.at($0, "Also set here (\($0.configurations.joined(separator: ", ")))") }
                sink.report(message, at: value, related: Array(related))
                sink.attach(InventoryItem(.permission, name: key, detail: value.string))
            }
        }
    }
}

public struct UnusedPermissionRule: AppRule {
    public static let description = RuleDescription(
        id: "MOAT-PRIV-103", slug: "unused-permission", title: "Permission declared but never used by the app's code",
        severity: .low, confidence: .medium, evidence: .compliance, cwe: [250, 359],
        masvs: ["MASVS-PRIVACY-1"], mastg: ["MASTG-TEST-0069"],
        rationale: "A usage description for a resource no code touches is over-asking: the permission stays available to any code path (or SDK) that later asks for it, App Review questions it, and users see a broader privacy footprint than the app needs. The check looks for the protected API (class, request call, constant) in every file the target can run — its own, framework targets and local packages — and stays quiet when there is no code to judge (no sources, or Objective-C files the front end could not read). Permissions whose code cannot be recognized by name (local network) are never called unused. Confidence is low when third-party libraries are linked, because an SDK may be the real user.",
        fix: "Remove the usage description key (Info.plist or `INFOPLIST_KEY_…` build setting). If a linked SDK needs it, keep it and document which one.",
        references: ["https://developer.apple.com/app-store/review/guidelines/#data-collection-and-storage"],
        examples: [
            RuleExample(files: [
                ExampleFile(name: "App/Info.plist", content: ExampleProject.plist("""
                    ↓<key>NSContactsUsageDescription</key>
                    <string>Invite friends from your address book.</string>
                    <key>NSCameraUsageDescription</key>
                    <string>Scan a receipt so it can be attached to your expense report.</string>
                """)),
                ExampleFile(name: "App/Scanner.swift", content: """
                import AVFoundation
                func scan() {
                    AVCaptureDevice.requestAccess(for: .video) { granted in print(granted) }
                }
                """),
            ], triggers: true),
            RuleExample(files: [
                ExampleFile(name: "App/Info.plist", content: ExampleProject.plist("""
                    <key>NSContactsUsageDescription</key>
                    <string>Invite friends from your address book.</string>
                """)),
                ExampleFile(name: "App/Invite.swift", content: """
                import Contacts
                func invite() throws {
                    let store = CNContactStore()
                    let request = CNContactFetchRequest(keysToFetch: [CNContactGivenNameKey as CNKeyDescriptor])
                    try store.enumerateContacts(with: request) { contact, _ in print(contact) }
                }
                """),
            ], triggers: false),
            RuleExample(files: [
                ExampleFile(name: "App/Info.plist", content: ExampleProject.plist("""
                    <key>NSContactsUsageDescription</key>
                    <string>Invite friends from your address book.</string>
                """)),
                ExampleFile(name: "App/Invite.m", content: """
                #import <Contacts/Contacts.h>
                @implementation InviteController
                - (void)invite {
                    CNContactStore *store = [[CNContactStore alloc] init];
                    [store requestAccessForEntityType:CNEntityTypeContacts completionHandler:^(BOOL granted, NSError *error) {}];
                }
                @end
                """),
            ], triggers: false),
            .nonTriggering("App/Info.plist", ExampleProject.plist("""
                <key>NSContactsUsageDescription</key>
                <string>Invite friends from your address book.</string>
            """), note: "No code scanned: nothing can be called unused."),
        ])

    public init() {}

    public func check(_ app: AppModel, _ sink: inout FindingSink) {
        for unit in app.appUnits {
            let code = app.reachableSources(for: unit)
            guard code.isAnalyzable else { continue }
            for key in unit.infoKeys {
                let permissions = PermissionTable.permissions(owning: key)
                guard !permissions.isEmpty, permissions.allSatisfy(\.checksUnused),
                      !permissions.contains(where: { code.matchesAny(of: $0.requests + $0.uses) }),
                      let value = unit.infoValues(forKey: key).first else { continue }
                // Name the classes that would show a use: AVCaptureDevice, UIImagePickerController, ...
                let apis = permissions.flatMap { ($0.requests + $0.uses).compactMap { $0.names.first { $0.first?.isUppercase == true } } }
                var seen = Set<String>()
                let examples = apis.filter { seen.insert($0).inserted }.prefix(3)
                let thirdParty = !unit.thirdPartyDependencies.isEmpty
                let confidence: Confidence = unit.isLoose || thirdParty ? .low : .medium
                let sdkNote = thirdParty ? " (unless a linked library — \(unit.thirdPartyDependencies.prefix(3).joined(separator: ", ")) — needs it)" : ""
                sink.report("\(key) asks for \(PermissionTable.usageKey(key)?.resource ?? key), but no code of \(unit.displayName) uses it (\(examples.joined(separator: ", ")), …)\(sdkNote): remove the key if the feature is gone.",
                            at: value, confidence: confidence)
            }
        }
    }
}

enum PermissionExamples {
    /// An XcodeGen app target on `platform` whose code browses the local network with Bonjour, in a helper
    /// type of its own file, and whose Info.plist has no local network usage description.
    static func bonjourBrowser(platform: String, marker: String) -> [ExampleFile] {
        [
            ExampleFile(name: "project.yml", content: """
            name: Remote
            targets:
              Remote:
                type: application
                platform: \(platform)
                info:
                  path: Remote/Info.plist
                sources:
                - path: Remote
            """),
            ExampleFile(name: "Remote/Info.plist", content: ExampleProject.plist("""
                <key>CFBundlePackageType</key>
                <string>APPL</string>
            """)),
            ExampleFile(name: "Remote/Discovery.swift", content: """
            import Network
            final class Discovery {
                private let browser = \(marker)NWBrowser(for: .bonjour(type: "_remote._tcp", domain: nil), using: .tcp)
                func start() { browser.start(queue: .main) }
            }
            """),
        ]
    }
}

public struct MissingPurposeStringRule: AppRule {
    public static let description = RuleDescription(
        id: "MOAT-PRIV-104", slug: "missing-usage-description", title: "Protected API used without its usage description",
        severity: .low, confidence: .high, evidence: .compliance, cwe: [359],
        masvs: ["MASVS-PRIVACY-3"], mastg: ["MASTG-TEST-0069"],
        rationale: "iOS only lets an app reach a protected resource after showing the user the app's purpose string. Calling the API without the usage description in the Info.plist makes iOS terminate the app (camera, contacts, Bluetooth, photos...) or silently deny access (location), and Apple requires the key of every app whose code uses such an API (ITMS-90683). A compliance and crash matter, not a security weakness: low. The check compares the calls each target compiles with the Info.plist of each of its build configurations, including `INFOPLIST_KEY_…` build settings when the Info.plist is generated; a setting Xcode ignores (no `GENERATE_INFOPLIST_FILE`) does not count. It stays quiet when a configuration's Info.plist cannot be read completely.",
        fix: "Add the usage description key with a specific purpose string to the target's Info.plist (or an `INFOPLIST_KEY_…` build setting with `GENERATE_INFOPLIST_FILE = YES`) for every configuration.",
        references: ["https://developer.apple.com/documentation/bundleresources/information_property_list/protected_resources"],
        examples: [
            RuleExample(files: [
                ExampleFile(name: "App/Info.plist", content: ExampleProject.plist("""
                    <key>CFBundleName</key>
                    <string>Receipts</string>
                """)),
                ExampleFile(name: "App/Scanner.swift", content: """
                import AVFoundation
                func scan() {
                    ↓AVCaptureDevice.requestAccess(for: .video) { granted in print(granted) }
                }
                """),
            ], triggers: true),
            RuleExample(files: [
                ExampleFile(name: ExampleProject.path, content: ExampleProject.pbxproj(
                    debug: ["GENERATE_INFOPLIST_FILE = YES;", "INFOPLIST_KEY_NSContactsUsageDescription = \"Invite friends from your address book.\";"],
                    release: ["GENERATE_INFOPLIST_FILE = YES;"])),
                ExampleFile(name: "App/Invite.swift", content: """
                import Contacts
                func invite() {
                    let store = CNContactStore()
                    ↓store.requestAccess(for: .contacts) { granted, _ in print(granted) }
                }
                """),
            ], triggers: true, note: "Only the Debug configuration sets the key: the Release build crashes."),
            RuleExample(files: [
                ExampleFile(name: "App/Info.plist", content: ExampleProject.plist("""
                    <key>CFBundleName</key>
                    <string>Receipts</string>
                """)),
                ExampleFile(name: "App/Scanner.m", content: """
                #import <AVFoundation/AVFoundation.h>
                @implementation Scanner
                - (void)scan {
                    ↓[AVCaptureDevice requestAccessForMediaType:AVMediaTypeVideo completionHandler:^(BOOL granted) {
                        NSLog(@"%d", granted);
                    }];
                }
                @end
                """),
            ], triggers: true),
            RuleExample(files: [
                ExampleFile(name: "App/Info.plist", content: ExampleProject.plist("""
                    <key>NSCameraUsageDescription</key>
                    <string>Scan a receipt so it can be attached to your expense report.</string>
                """)),
                ExampleFile(name: "App/Scanner.swift", content: """
                import AVFoundation
                func scan() {
                    AVCaptureDevice.requestAccess(for: .video) { granted in print(granted) }
                }
                """),
            ], triggers: false),
            RuleExample(files: [
                ExampleFile(name: "App/Status.swift", content: """
                import Contacts
                // Reading the authorization status needs no purpose string.
                let canInvite = CNContactStore.authorizationStatus(for: .contacts) == .authorized
                """),
                ExampleFile(name: "App/Info.plist", content: ExampleProject.plist("""
                    <key>CFBundleName</key>
                    <string>Receipts</string>
                """)),
            ], triggers: false),
            RuleExample(files: [
                ExampleFile(name: "project.yml", content: """
                name: Chat
                include:
                  - path: App/target.yml
                  - path: Showcase/target.yml
                """),
                ExampleFile(name: "App/target.yml", content: """
                targets:
                  Chat:
                    type: application
                    platform: iOS
                    info:
                      path: Info.plist
                    sources:
                    - path: ../Showcase/Modules
                    - path: .
                """),
                ExampleFile(name: "Showcase/target.yml", content: """
                targets:
                  Showcase:
                    type: application
                    platform: iOS
                    info:
                      path: Info.plist
                    sources:
                    - path: .
                      excludes:
                      - "**/Service/**"
                """),
                ExampleFile(name: "App/Info.plist", content: ExampleProject.plist("""
                    <key>CFBundlePackageType</key>
                    <string>APPL</string>
                    <key>NSMicrophoneUsageDescription</key>
                    <string>Record voice messages for your chats.</string>
                """)),
                ExampleFile(name: "Showcase/Info.plist", content: ExampleProject.plist("""
                    <key>CFBundlePackageType</key>
                    <string>APPL</string>
                """)),
                ExampleFile(name: "Showcase/Modules/Voice/Service/Recorder.swift", content: """
                import AVFoundation
                func record(to url: URL) throws -> AVAudioRecorder {
                    try AVAudioRecorder(url: url, settings: [:])
                }
                """),
            ], triggers: false, note: "An XcodeGen project (no .xcodeproj committed): the recorder sits in the showcase app's folder, but only the Chat target compiles it (the showcase excludes **/Service/**), and Chat's Info.plist has the key."),
            RuleExample(files: PermissionExamples.bonjourBrowser(platform: "iOS", marker: "↓"), triggers: true,
                        note: "An iOS target browsing with Bonjour without NSLocalNetworkUsageDescription: iOS shows a generic prompt (low)."),
            RuleExample(files: PermissionExamples.bonjourBrowser(platform: "watchOS", marker: ""), triggers: false,
                        note: "The same code in a watchOS target: NSLocalNetworkUsageDescription is a key of iOS, iPadOS, macOS, tvOS and visionOS apps, and watchOS has no local network prompt."),
            RuleExample(files: [
                ExampleFile(name: "App/Picker.swift", content: """
                import PhotosUI
                // PHPickerViewController runs out of process and needs no permission.
                let picker = PHPickerViewController(configuration: PHPickerConfiguration())
                """),
                ExampleFile(name: "App/Info.plist", content: ExampleProject.plist("""
                    <key>CFBundleName</key>
                    <string>Receipts</string>
                """)),
            ], triggers: false),
            .triggering("Demo.app/Demo", """
            Mach-O executable arm64
            imports: _OBJC_CLASS_$_AVCaptureDevice _AVMediaTypeVideo _objc_msgSend
            selectors: ↓requestAccessForMediaType:completionHandler:
            """, note: "A built app whose Info.plist has no NSCameraUsageDescription (App Store Connect refuses it, ITMS-90683)."),
            RuleExample(files: [
                ExampleFile(name: "Demo.app/Demo", content: """
                Mach-O executable arm64
                imports: _OBJC_CLASS_$_AVCaptureDevice _AVMediaTypeVideo _objc_msgSend
                selectors: requestAccessForMediaType:completionHandler:
                """),
                ExampleFile(name: "Demo.app/Info.plist", content: ExampleProject.plist("""
                    <key>CFBundleExecutable</key>
                    <string>Demo</string>
                    <key>NSCameraUsageDescription</key>
                    <string>Scan cheques to deposit them.</string>
                """)),
            ], triggers: false),
        ])

    public init() {}

    public func check(_ app: AppModel, _ sink: inout FindingSink) {
        struct Occurrence {
            var match: CodeMatch
            var permission: Permission
            var messages: [String]
            /// Every unit lacking the key is an extension that compiles this file from an app target whose
            /// Info.plist has it (the app target's name): the app's code linked into the extension.
            var sharedFrom: String?
            var onlyShared = true
        }
        var occurrences: [String: Occurrence] = [:]
        var order: [String] = []
        // Application targets (not extensions) with the files they compile, for code shared with extensions.
        let apps = app.appUnits.filter { !$0.isLoose && !$0.isExtension && $0.target != nil }
        var appFiles: [Int: Set<String>] = [:]
        func compiles(_ index: Int, _ path: String) -> Bool {
            if appFiles[index] == nil { appFiles[index] = Set(apps[index].sources.map(\.path)) }
            return appFiles[index]?.contains(path) ?? false
        }
        for unit in app.appUnits {
            let code = app.ownSources(for: unit)
            for permission in PermissionTable.permissions where unit.builds(forAnyOf: permission.platforms) {
                guard let match = code.firstMatch(of: permission.requests) else { continue }
                let complete = unit.configurations.filter(\.infoIsComplete)
                let lacking = complete.filter { configuration in
                    !permission.satisfyingKeys.contains { configuration.infoValue(forKey: $0) != nil }
                }
                guard !lacking.isEmpty else { continue }
                var where_ = unit.isLoose ? "the app's Info.plist" : "the Info.plist of \(unit.displayName)"
                if !unit.isLoose && lacking.count < complete.count {
                    where_ += " in configuration \(PermissionText.list(lacking.map(\.displayName)))"
                }
                var text = "\(where_) has no \(permission.satisfyingKeys[0])"
                if let ignored = lacking.lazy.compactMap({ configuration in
                    permission.satisfyingKeys.lazy.compactMap { configuration.ignoredInfoSettings[$0] }.first
                }).first {
                    text += " (\(ignored.location.keyPath ?? ignored.key) is ignored because GENERATE_INFOPLIST_FILE is not YES)"
                }
                let key = "\(match.path):\(match.position.offset):\(permission.id)"
                if occurrences[key] == nil {
                    occurrences[key] = Occurrence(match: match, permission: permission, messages: [])
                    order.append(key)
                }
                occurrences[key]?.messages.append(text)
                // An extension compiling the app's own code (a shared module): the app declares the key, and
                // whether the extension ever runs this path is not visible.
                let declaringApp = unit.isExtension ? apps.indices.first { index in
                    compiles(index, match.path) && apps[index].configurations.filter(\.infoIsComplete).allSatisfy { configuration in
                        permission.satisfyingKeys.contains { configuration.infoValue(forKey: $0) != nil }
                    }
                } : nil
                if let declaringApp {
                    if occurrences[key]?.sharedFrom == nil { occurrences[key]?.sharedFrom = apps[declaringApp].displayName }
                } else {
                    occurrences[key]?.onlyShared = false
                }
            }
        }
        for key in order {
            guard let occurrence = occurrences[key] else { continue }
            let permission = occurrence.permission
            if occurrence.onlyShared, let app = occurrence.sharedFrom {
                // Linked, maybe never run: a suspicion about the extension, not a definite missing key.
                sink.report("\(occurrence.match.clause.readable) reaches \(permission.resource) in code \(app) shares with an extension, and \(PermissionText.list(occurrence.messages)): if the extension runs this path, \(permission.consequence). The app's Info.plist has the key; nothing shows whether the extension calls it.",
                            at: occurrence.match, severity: .low, confidence: .low)
                continue
            }
            sink.report("\(occurrence.match.clause.readable) reaches \(permission.resource), but \(PermissionText.list(occurrence.messages)): \(permission.consequence).",
                        at: occurrence.match, severity: min(permission.missingSeverity, .low))
        }
    }
}
