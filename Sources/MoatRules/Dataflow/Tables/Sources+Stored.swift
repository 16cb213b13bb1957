import MoatCore
import MoatSyntax

/// Values read back from the app's storage (issue 14 item 8: class names read back and instantiated). They
/// start the `stored` kind, which only class lookups report (MOAT-CODE-303, medium severity, low confidence):
/// the app usually wrote the value itself, so it is evidence of a weakness only as strong as what could
/// write the storage. The read keeps what the call would return otherwise (`addsToResult`): a value an
/// untrusted flow stored in the same function is still untrusted.
extension TaintSources {
    static let stored: [TaintSource] = [
        TaintSource(kind: .storedValue, description: "a value read back from UserDefaults",
                    pattern: .call(names: APISpelling(APIs.defaultsRead),
                                   receivers: ["UserDefaults", "NSUserDefaults", "standardUserDefaults", "defaults", "Defaults"],
                                   labels: ["forKey", "stringForKey", "objectForKey", "stringArrayForKey", "arrayForKey", "valueForKey"]),
                    confidence: .low, addsToResult: true),
        TaintSource(kind: .storedValue, description: "a string read back from a file",
                    pattern: .call(names: APISpelling(APIs.stringContentsOfFile),
                                   receivers: [], labels: ["contentsOfFile", "stringWithContentsOfFile", "initWithContentsOfFile"]),
                    confidence: .low, addsToResult: true),
    ]
}
