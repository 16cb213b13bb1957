import Foundation
import MoatCore
import MoatFormats

/// Judges a purpose string. Precise on purpose: it only speaks up for strings that cannot explain
/// anything, and stays quiet on text it cannot read (other languages, unresolved variables).
public enum PurposeStringQuality {
    public enum Problem: Equatable, Sendable {
        case notAString
        case empty
        case placeholder(String)
        case appNameOnly
        case tooShort
        case restatesPermission
    }

    /// Words that mark unfinished text anywhere in the string.
    static let placeholderWords: Set<String> = ["todo", "fixme", "tbd", "xxx", "lorem", "ipsum", "placeholder", "changeme", "tbc"]
    /// Whole strings that are placeholders.
    static let placeholderStrings: Set<String> = [
        "test", "testing", "description", "usage description", "usage", "purpose", "reason", "string", "text", "n/a", "na",
        "none", "asdf", "foo", "bar", "abc", "change me", "your description here", "add description", "enter description",
        "privacy", "permission", "permission required", "required", "needed", "required for app", "needed for app",
    ]
    /// Words that carry no purpose: who asks, that it needs, generic benefits.
    static let fillerWords: Set<String> = [
        "this", "that", "the", "a", "an", "app", "application", "apps", "we", "our", "us", "i", "me", "my", "you", "your", "yours",
        "would", "like", "likes", "want", "wants", "wanted", "need", "needs", "needed", "require", "requires", "required",
        "requesting", "request", "requests", "access", "accesses", "accessing", "use", "uses", "using", "used", "to", "of", "in",
        "on", "for", "from", "with", "and", "or", "permission", "permissions", "allow", "allows", "allowed", "allowing", "please",
        "grant", "give", "enable", "enabled", "let", "lets", "device", "phone", "iphone", "ipad", "is", "are", "be", "will",
        "can", "could", "may", "must", "should", "it", "its", "s", "so", "order", "functionality", "function", "functions",
        "feature", "features", "work", "works", "working", "properly", "correctly", "correct", "proper", "full", "all", "some",
        "certain", "purposes", "purpose", "reason", "reasons", "basic", "core", "main", "better", "improve", "improved",
        "experience", "user", "users", "service", "services", "do", "does", "get", "have", "has", "only", "also", "just",
        "provide", "providing", "function", "operate", "run", "functional", "related", "based", "app's", "by", "as", "at",
    ]
    /// Build settings that hold the app's name.
    static let nameVariables: Set<String> = ["PRODUCT_NAME", "TARGET_NAME", "EXECUTABLE_NAME", "PRODUCT_DISPLAY_NAME",
                                             "INFOPLIST_KEY_CFBundleDisplayName", "PROJECT_NAME"]

    static func words(_ text: String) -> [String] {
        text.lowercased().split { !($0.isLetter || $0.isNumber) }.map(String.init)
    }

    /// The problem with `text` as a purpose string for `key`, or nil when it may well be fine.
    /// `raw` is the string as written (before `$(VAR)` expansion).
    public static func assess(raw: String, expanded: String?, key: String, appNames: Set<String>) -> Problem? {
        let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return .empty }
        // Only a build variable: the app name, or something unknown we cannot judge.
        if let variable = onlyVariable(trimmed) {
            if nameVariables.contains(variable) { return .appNameOnly }
            guard let expanded, !expanded.contains("$(") else { return nil }
            return assess(raw: expanded, expanded: expanded, key: key, appNames: appNames)
        }
        let text = (expanded.flatMap { $0.contains("$(") ? nil : $0 } ?? trimmed).trimmingCharacters(in: .whitespacesAndNewlines)
        let lower = text.lowercased()
        let tokens = words(text)
        let stripped = lower.trimmingCharacters(in: .punctuationCharacters.union(.whitespaces))
        if tokens.isEmpty {
            // Only punctuation ("...", "-", "?").
            return .placeholder(text)
        }
        if placeholderStrings.contains(stripped) { return .placeholder(text) }
        if let word = tokens.first(where: placeholderWords.contains) { return .placeholder(word.uppercased()) }
        let names = appNames.map { $0.lowercased() }.filter { !$0.isEmpty }
        if names.contains(stripped) { return .appNameOnly }
        // Judge the wording only for text written in Latin letters: other languages have other filler words.
        let letters = text.unicodeScalars.filter { CharacterSet.letters.contains($0) }
        let latin = letters.filter { $0.isASCII }
        guard !letters.isEmpty, latin.count * 10 >= letters.count * 9 else { return nil }
        let nameWords = Set(names.flatMap { words($0) })
        let meaningful = tokens.filter { !nameWords.contains($0) }
        if tokens.count < 2 || (tokens.count < 3 && text.count < 10) { return .tooShort }
        let resourceWords = Set(PermissionTable.usageKey(key)?.words ?? [])
        if meaningful.allSatisfy({ fillerWords.contains($0) || resourceWords.contains($0) || nameWords.contains($0) }) {
            return .restatesPermission
        }
        return nil
    }

    /// `$(NAME)` / `${NAME}` alone (operators allowed), or nil.
    static func onlyVariable(_ text: String) -> String? {
        guard text.hasPrefix("$(") && text.hasSuffix(")") || text.hasPrefix("${") && text.hasSuffix("}") else { return nil }
        let inner = text.dropFirst(2).dropLast()
        guard !inner.contains("$"), !inner.contains(")"), !inner.contains("}") else { return nil }
        return String(inner.split(separator: ":").first ?? inner)
    }
}

public struct WeakPurposeStringRule: AppRule {
    public static let description = RuleDescription(
        id: "MOAT-PRIV-102", slug: "weak-purpose-string", title: "Empty, placeholder or uninformative purpose string",
        severity: .low, confidence: .high, evidence: .compliance, cwe: [359],
        masvs: ["MASVS-PRIVACY-3"], mastg: ["MASTG-TEST-0069"],
        rationale: """
        The purpose string is all the user reads before granting access, and App Review requires a string that explains why the app needs the data (Guideline 5.1.1). Findings (all low: a compliance matter), from most to least certain: an empty or blank string, or a value that is not a string; a placeholder — a whole string such as "test", "description", "n/a", "…" or any string with TODO, FIXME, TBD, XXX, lorem, placeholder; only the app's name or `$(PRODUCT_NAME)`; a single word, or two words under ten characters; and a string made only of words that name the resource and say that the app wants it — "We want to access your camera", "This app needs camera access", "Location is required for the app to work properly" — with no word that tells what the app does with it. Only the key's own resource words count as restating (a microphone string may say "video"), text in non-Latin scripts is not judged, and a string that is only an unresolved `$(VARIABLE)` is not judged. A good string names the feature: "Scan a receipt so it can be attached to your expense report."
        """,
        fix: "Write one sentence that names the feature and the benefit: \"Scan a receipt so it can be attached to your expense report.\" Localize it in InfoPlist.strings.",
        references: ["https://developer.apple.com/design/human-interface-guidelines/privacy#Requesting-permission",
                     "https://developer.apple.com/app-store/review/guidelines/#data-collection-and-storage"],
        examples: [
            .triggering("App/Info.plist", ExampleProject.plist("""
                ↓<key>NSCameraUsageDescription</key>
                <string>We want to access your camera</string>
                ↓<key>NSHealthClinicalHealthRecordsShareUsageDescription</key>
                <string>Share your health data with us!</string>
                ↓<key>NSMicrophoneUsageDescription</key>
                <string></string>
                ↓<key>NSContactsUsageDescription</key>
                <string>TODO: explain</string>
                ↓<key>NSLocationWhenInUseUsageDescription</key>
                <string>$(PRODUCT_NAME)</string>
                ↓<key>NSMotionUsageDescription</key>
                <string>Motion</string>
                ↓<key>NSFaceIDUsageDescription</key>
                <string>This app needs Face ID access</string>
                ↓<key>NSPhotoLibraryUsageDescription</key>
                <string>Receipts</string>
                ↓<key>NSBluetoothAlwaysUsageDescription</key>
                <string>Bluetooth is required for the app to work properly.</string>
                <key>CFBundleDisplayName</key>
                <string>Receipts</string>
            """), note: "The second string is the MASTG's own example of a suspicious purpose."),
            RuleExample(files: [
                ExampleFile(name: ExampleProject.path, content: ExampleProject.pbxproj(
                    debug: ["GENERATE_INFOPLIST_FILE = YES;", "INFOPLIST_KEY_NSCameraUsageDescription = \"This app needs camera access\";"],
                    release: ["GENERATE_INFOPLIST_FILE = YES;", "↓INFOPLIST_KEY_NSCameraUsageDescription = \"This app needs camera access\";"])),
            ], triggers: true, note: "Generated Info.plist: reported at the build setting, once for identical values."),
            .nonTriggering("App/Info.plist", ExampleProject.plist("""
                <key>NSCameraUsageDescription</key>
                <string>Scan a receipt so it can be attached to your expense report.</string>
                <key>NSMicrophoneUsageDescription</key>
                <string>Record video with sound.</string>
                <key>NSLocationWhenInUseUsageDescription</key>
                <string>Your location is used to show the offices closest to you.</string>
                <key>NSPhotoLibraryAddUsageDescription</key>
                <string>Save edited receipts.</string>
                <key>NSContactsUsageDescription</key>
                <string>Die App nutzt deine Kontakte, um Freunde einzuladen.</string>
                <key>NSFaceIDUsageDescription</key>
                <string>Face ID を使ってサインインします。</string>
                <key>NSBluetoothAlwaysUsageDescription</key>
                <string>$(BLUETOOTH_PURPOSE)</string>
                <key>CFBundleDisplayName</key>
                <string>Receipts</string>
            """)),
        ])

    public init() {}

    public func check(_ app: AppModel, _ sink: inout FindingSink) {
        for unit in app.units {
            let names = unit.appNames
            for key in unit.infoKeys where PermissionTable.isUsageKey(key) && PermissionTable.usageKey(key)?.isDictionary != true {
                var judged: [String: Bool] = [:]
                for value in unit.infoValues(forKey: key) {
                    // The same text in Debug and Release is reported once, where release builds read it.
                    let signature = value.string ?? "<not a string>"
                    guard judged[signature] == nil else { continue }
                    judged[signature] = true
                    let problem: PurposeStringQuality.Problem?
                    if let text = value.string {
                        problem = PurposeStringQuality.assess(raw: text, expanded: value.expandedString, key: key, appNames: names)
                    } else {
                        problem = .notAString
                    }
                    guard let problem else { continue }
                    report(problem, key: key, value: value, sink: &sink)
                }
            }
        }
    }

    private func report(_ problem: PurposeStringQuality.Problem, key: String, value: ConfiguredValue, sink: inout FindingSink) {
        let resource = PermissionTable.usageKey(key)?.resource ?? "this resource"
        let shown = PermissionText.quoted(value.string ?? "")
        switch problem {
        case .notAString:
            sink.report("\(key) is not a string: iOS has no purpose to show when asking for \(resource).", at: value)
        case .empty:
            sink.report("\(key) is empty: iOS asks for \(resource) without any explanation, and App Review requires a purpose string that explains the use (Guideline 5.1.1).", at: value)
        case .placeholder(let word):
            sink.report("\(key) is a placeholder (\(PermissionText.quoted(word, limit: 30))): users asked for \(resource) read unfinished text; App Review requires a purpose string that explains the use (Guideline 5.1.1).",
                        at: value)
        case .appNameOnly:
            sink.report("\(key) (\(shown)) only names the app: it does not tell users why the app needs \(resource).", at: value)
        case .tooShort:
            sink.report("\(key) (\(shown)) is too short to tell users why the app needs \(resource).", at: value,
                        severity: .low, confidence: .medium)
        case .restatesPermission:
            sink.report("\(key) (\(shown)) only says that the app wants \(resource), not what it does with it.", at: value,
                        severity: .low, confidence: .medium)
        }
    }
}
