import Foundation
import MoatCore
import MoatFormats

// Source rules that also judge binaries: the same weakness keeps the same id wherever it is found. Only
// exact Objective-C class symbols (`_OBJC_CLASS_$_Name`), C symbols and selector strings are matched;
// Swift code that uses these APIs goes through the same Objective-C class symbols and selectors.

extension UIWebViewRule: BinaryRule {
    public func check(_ binary: BinaryImage, _ sink: inout FindingSink) {
        let symbol = BinaryImage.classSymbolPrefix + "UIWebView"
        guard binary.imports(symbol) else { return }
        sink.report("\(binary.name) references the UIWebView class (\(symbol)): App Store Connect rejects apps that contain it, and it cannot disable JavaScript or file access. Use WKWebView.",
                    in: binary, symbol: symbol)
    }
}

extension InsecureUnarchivingRule: BinaryRule {
    /// Class methods and the initializer that decode without secure coding.
    static let insecureSelectors = ["unarchiveObjectWithData:", "unarchiveObjectWithFile:", "unarchiveTopLevelObjectWithData:error:",
                                    "initForReadingWithData:"]

    public func check(_ binary: BinaryImage, _ sink: inout FindingSink) {
        let classes = ["NSKeyedUnarchiver", "NSUnarchiver"].filter { binary.imports(BinaryImage.classSymbolPrefix + $0) }
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
        let selector = "setShouldResolveExternalEntities:"
        guard binary.selectors.contains(selector) else { return }
        let verb = binary.selectorsAreReferences ? "sends" : "names the selector"
        sink.report("\(binary.name) \(verb) \(selector) — if it passes YES, a crafted XML document can make NSXMLParser read local files or fetch URLs (XXE). The binary does not show the value; check the call.",
                    in: binary, symbol: selector, confidence: .low)
    }
}

extension DeprecatedTrustEvaluateRule: BinaryRule {
    public func check(_ binary: BinaryImage, _ sink: inout FindingSink) {
        let symbol = "_SecTrustEvaluate"
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
