import Foundation
import MoatCore
import MoatFormats

// Source rules that also judge binaries: the same weakness keeps the same id wherever it is found. Only
// exact Objective-C class symbols (`_OBJC_CLASS_$_Name`), C symbols and selector strings are matched;
// Swift code that uses these APIs goes through the same Objective-C class symbols and selectors.

extension UIWebViewRule: BinaryRule {
    public func check(_ binary: BinaryImage, _ sink: inout FindingSink) {
        let symbol = APIs.uiWebView.classSymbols[0]
        guard binary.imports(symbol) else { return }
        sink.report("\(binary.name) references the UIWebView class (\(symbol)): App Store Connect rejects apps that contain it, and it cannot disable JavaScript or file access. Use WKWebView.",
                    in: binary, symbol: symbol)
    }
}

extension InsecureUnarchivingRule: BinaryRule {
    /// Class methods and the initializer that decode without secure coding.
    static let insecureSelectors = APIs.keyedUnarchiverLegacy.selectors + APIs.keyedUnarchiverLegacyInit.selectors

    public func check(_ binary: BinaryImage, _ sink: inout FindingSink) {
        let classes = APIs.keyedUnarchiverLegacy.classes.filter { binary.imports(API.classSymbolPrefix + $0) }
        for selector in Self.insecureSelectors where binary.selectors.contains(selector) {
            // A selector sent next to a reference to the unarchiver class is all but certain to be this API;
            // a name read from __objc_methname may be a method the binary merely defines.
            let confidence: Confidence = !binary.selectorsAreReferences ? .low : classes.isEmpty ? .medium : .high
            let receiver = classes.first ?? "NSKeyedUnarchiver"
            let verb = binary.selectorsAreReferences ? "sends" : "names the selector"
            sink.report("\(binary.name) \(verb) \(selector)\(classes.isEmpty ? "" : " and references \(classes.joined(separator: ", "))") — \(receiver) then decodes any class named in the data. Use unarchivedObjectOfClass:fromData:error: with the classes you expect.",
                        in: binary, symbol: selector, confidence: confidence)
        }
    }
}

extension XMLExternalEntitiesRule: BinaryRule {
    public func check(_ binary: BinaryImage, _ sink: inout FindingSink) {
        let selector = APIs.xmlResolveExternalEntities.selectors[0]
        guard binary.selectors.contains(selector) else { return }
        let verb = binary.selectorsAreReferences ? "sends" : "names the selector"
        sink.report("\(binary.name) \(verb) \(selector) — if it passes YES, a crafted XML document can make NSXMLParser read local files or fetch URLs (XXE). The binary does not show the value; check the call.",
                    in: binary, symbol: selector, confidence: .low)
    }
}

extension DeprecatedTrustEvaluateRule: BinaryRule {
    public func check(_ binary: BinaryImage, _ sink: inout FindingSink) {
        let symbol = APIs.secTrustEvaluateLegacy.importedFunctionSymbols[0]
        guard binary.imports(symbol) else { return }
        sink.report("\(binary.name) imports SecTrustEvaluate (deprecated since iOS 13): callers often check only one of its two results; use SecTrustEvaluateWithError.",
                    in: binary, symbol: symbol)
    }
}

extension HardcodedCredentialFormatRule: BinaryRule {
    /// Strings in a known credential format (PEM private keys, AWS, GitHub, Slack, Stripe, Google keys).
    /// The secret never reaches the output: symbol, evidence and message carry its first characters only.
    public func check(_ binary: BinaryImage, _ sink: inout FindingSink) {
        var reported = Set<String>()
        for string in binary.cStrings {
            guard let match = KnownCredential.match(string), !Self.isDocumentedExample(string),
                  reported.insert(string).inserted else { continue }
            let masked = KnownCredential.isPEMPrivateKey(string) ? "-----BEGIN … PRIVATE KEY-----[redacted]"
                : Redaction.mask(string.trimmingCharacters(in: .whitespaces))
            sink.report("\(binary.name) holds \(match.description) (\(masked)) among its strings: anything in the binary is public. Revoke it and keep it off the device.",
                        in: binary, symbol: masked, severity: match.severity, confidence: match.confidence, evidence: masked)
        }
    }
}

extension DebuggableReleaseRule: BinaryRule {
    /// A built app signed with `get-task-allow`. A development profile grants it to every build it signs,
    /// so development-signed builds are left to `DevelopmentProfileInReleaseRule` (MOAT-PLAT-404), which
    /// judges whether they look like a release; Xcode debug builds (a debug dylib, a simulator build) are
    /// not reported.
    public func check(_ binary: BinaryImage, _ sink: inout FindingSink) {
        guard binary.role == .bundleExecutable, let bundle = binary.bundle, let entitlements = binary.entitlements,
              let node = entitlements.root["get-task-allow"], node.bool == true, !bundle.hasDebugDylib,
              bundle.profile?.kind != .development else { return }
        let simulators: Set<MachOPlatform> = [.iOSSimulator, .tvOSSimulator, .watchOSSimulator, .visionOSSimulator]
        if let platform = binary.image.buildVersion?.platform, simulators.contains(platform) { return }
        let profile = bundle.profile.map { "its \(ProfileText.kind($0.kind)) provisioning profile \(ProfileText.name($0))" }
        sink.report("\(binary.name) is signed with get-task-allow = true\(profile.map { " although \($0) is for distribution" } ?? ", and carries no provisioning profile"): any debugger can attach to this build and read or change its memory.",
                    inEmbedded: entitlements, at: node, confidence: bundle.profile == nil ? .medium : .high)
    }
}

extension MissingPurposeStringRule: BinaryRule {
    /// Protected APIs a binary calls (classes it references, selectors it sends, C functions and constants
    /// it imports, matched against the same permission table as source) versus the usage descriptions of
    /// the Info.plist of the app or extension that runs the code. Apple performs the same
    /// static check on upload (ITMS-90683).
    public func check(_ binary: BinaryImage, _ sink: inout FindingSink) {
        guard let bundle = binary.bundle, let info = bundle.hostInfoPlist else { return }
        let names = binary.referencedAPINames
        for permission in PermissionTable.permissions {
            guard !permission.satisfyingKeys.contains(where: { info.root[$0] != nil }),
                  let clause = permission.requests.first(where: { Self.isBinaryMatchable($0) && $0.matches(names: names) }) else { continue }
            let others = clause.names.dropFirst()
            let what = clause.anchor + (others.isEmpty ? "" : " (with \(others.joined(separator: ", ")))")
            let framework = binary.role == .framework || binary.role == .library
            sink.report("\(binary.name) uses \(what), which needs \(permission.satisfyingKeys[0]) for \(permission.resource), but \(info.path) does not have it: \(permission.consequence).",
                        in: binary, symbol: clause.anchor, severity: min(permission.missingSeverity, .low),
                        confidence: framework ? .medium : .high)
        }
    }

    /// Clauses whose names can all appear in a binary: classes, C functions and constants (capitalized),
    /// selectors with arguments, and long argument-less selectors. Short lowercase names (`video`,
    /// `camera`, `default`) are Swift spellings that never reach the binary as such, and could match an
    /// unrelated selector.
    static func isBinaryMatchable(_ clause: APIClause) -> Bool {
        clause.names.allSatisfy { name in
            guard let first = name.first else { return false }
            return first.isUppercase || name.contains(":") || name.count >= 12
        }
    }
}
