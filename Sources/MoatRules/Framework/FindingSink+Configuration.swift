import MoatCore
import MoatFormats
import MoatSyntax

extension FindingSink {
    /// Reports at the place a configuration value lives: its Info.plist key, or its build setting line in
    /// `project.pbxproj` / `.xcconfig` (key path `targets.App.buildSettings[Release].NAME`).
    public mutating func report(_ message: String, at value: ConfiguredValue, severity: Severity? = nil,
                                confidence: Confidence? = nil, related: [RelatedLocation] = []) {
        report(message, at: value.location, severity: severity, confidence: confidence, related: related, evidence: value.evidence)
    }

    /// Reports at a property list node with related locations (the build setting that selects the file...).
    public mutating func report(_ message: String, in plist: PropertyListDocument, at node: PlistNode, severity: Severity? = nil,
                                confidence: Confidence? = nil, related: [RelatedLocation]) {
        let location = Location(path: plist.path, line: plist.line(of: node), column: 1, keyPath: node.keyPath)
        report(message, at: location, severity: severity, confidence: confidence, related: related, evidence: node.keyPath)
    }

    /// Reports at an object of a storyboard or xib (the `<` of its element).
    public mutating func report(_ message: String, in document: InterfaceBuilderDocument, at object: InterfaceBuilderObject,
                                severity: Severity? = nil, confidence: Confidence? = nil, related: [RelatedLocation] = []) {
        report(message, at: Location(path: document.path, line: object.line, column: object.column), severity: severity,
               confidence: confidence, related: related, evidence: document.line(object.line))
    }

    /// Reports at a place in code found through the app model (a `CodeMatch`).
    public mutating func report(_ message: String, at match: CodeMatch, severity: Severity? = nil, confidence: Confidence? = nil,
                                related: [RelatedLocation] = []) {
        report(message, at: match.location, severity: severity, confidence: confidence, related: related,
               evidence: match.lineText ?? match.clause.description)
    }
}

extension RelatedLocation {
    /// A related location pointing at a configuration value.
    public static func at(_ value: ConfiguredValue, _ message: String) -> RelatedLocation {
        RelatedLocation(location: value.location, message: message)
    }
}
