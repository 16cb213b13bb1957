/// What kind of input a rule reads. Used for the catalogue and for the example harness.
public enum RuleKind: String, Codable, Sendable, CaseIterable {
    /// Swift, Objective-C and C-family source, through the shared code model.
    case source
    /// One property list (Info.plist, .entitlements, PrivacyInfo.xcprivacy, ...).
    case propertyList
    /// Interface Builder documents (storyboards, xibs).
    case interfaceBuilder
    /// The whole loaded app: checks that span files (a usage key versus the API calls that need it).
    case app
    /// A Mach-O image or built bundle.
    case binary
}

/// What a rule's findings rest on. The severity policy (README, "Severity policy") ties the severity a
/// rule may claim to its evidence, and a test over the rule metadata enforces it.
public enum RuleEvidence: String, Codable, Sendable, CaseIterable {
    /// A dataflow path from an untrusted source to a sink, followed by the dataflow engine.
    case dataflow
    /// A definite value that weakens a protection: a configuration key (`NSAllowsArbitraryLoads`), an API
    /// argument or property set to a weakening value (`allowFileAccessFromFileURLs = true`), a call that
    /// turns a check off (`.useCredential` without evaluating the trust), a component that cannot be secured
    /// (UIWebView), a literal in a documented credential format, a build or signing fact of a binary.
    case configuration
    /// A pattern that is suspicious but not proof: names (`password`, `token`), shapes of code, deprecated
    /// APIs. At most medium, and a medium pattern rule has low confidence.
    case pattern
    /// A fact about the attack surface (entitlements, URL schemes, bridges...), not a defect. Info only.
    case inventory
    /// An App Store or privacy-manifest requirement (purpose strings, required-reason APIs, tracking domains),
    /// not a security weakness. At most low.
    case compliance
}

/// Everything a rule says about itself. The catalogue, `moat explain`, SARIF rule metadata and the example
/// tests are all generated from this one value.
public struct RuleDescription: Sendable, Codable {
    /// Stable id such as `MOAT-NET-001`. Never reused for another meaning.
    public var id: String
    /// Short kebab-case name such as `ats-arbitrary-loads`.
    public var slug: String
    public var title: String
    /// What the rule reads, derived from the protocols it adopts (`Rule.derivedKind`), never written by the
    /// rule: `RuleRegistry.descriptions` sets it. Nil in a rule's own `description` and in a description
    /// rebuilt from a finding whose rule this build does not know.
    public var kind: RuleKind?
    public var severity: Severity
    public var confidence: Confidence
    /// What the findings rest on (see `RuleEvidence`). Defaults to `.inventory` for inventory rules and to
    /// `.pattern` otherwise, so a rule claims more only by saying so.
    public var evidence: RuleEvidence
    public var cwe: [Int]
    /// MASVS v2 control ids, e.g. `MASVS-NETWORK-1`.
    public var masvs: [String]
    /// MASTG test ids, e.g. `MASTG-TEST-0065`.
    public var mastg: [String]
    /// Why it matters.
    public var rationale: String
    /// How to fix it.
    public var fix: String
    public var references: [String]
    /// Whether findings are inventory entries (facts about the attack surface, not defects).
    public var isInventory: Bool
    /// Ids of rules that report the same weakness less precisely (a pattern rule under a dataflow rule):
    /// where this rule and one of them report the same line, only this rule's finding is kept.
    public var supersedes: [String] = []
    /// Source findings of this rule with the same message are one decision (one database opened the same
    /// way from several files): reported once, at the first place, with the others as related locations.
    public var groupsRepeatedFindings: Bool = false
    /// What the corpus verdicts measured for this rule (nil when none of its findings was judged). Never
    /// written by the rule: `RuleRegistry.descriptions` sets it from the generated `RulePrecision.table`.
    public var measured: MeasuredPrecision?
    /// The suite the measurement (and any promotion) puts the rule in; set by `RuleRegistry.descriptions`.
    public var suite: RuleSuite = .default
    public var examples: [RuleExample]

    public init(id: String, slug: String, title: String, severity: Severity,
                confidence: Confidence, evidence: RuleEvidence? = nil, cwe: [Int], masvs: [String], mastg: [String], rationale: String,
                fix: String, references: [String] = [], isInventory: Bool = false, supersedes: [String] = [],
                groupsRepeatedFindings: Bool = false, examples: [RuleExample]) {
        self.id = id
        self.slug = slug
        self.title = title
        self.severity = severity
        self.confidence = confidence
        self.evidence = evidence ?? (isInventory ? .inventory : .pattern)
        self.cwe = cwe
        self.masvs = masvs
        self.mastg = mastg
        self.rationale = rationale
        self.fix = fix
        self.references = references
        self.isInventory = isInventory
        self.supersedes = supersedes
        self.groupsRepeatedFindings = groupsRepeatedFindings
        self.examples = examples
    }

    public var triggering: [RuleExample] { examples.filter(\.triggers) }
    public var nonTriggering: [RuleExample] { examples.filter { !$0.triggers } }
}

/// A triggering or non-triggering example. Files are given by name and content; in a triggering example
/// every `↓` marks the exact position (line and column of the character after it) where a finding must be
/// reported, and the marker is removed before scanning. A non-triggering example must produce no finding
/// of this rule.
public struct RuleExample: Sendable, Codable {
    public static let marker: Character = "↓"

    public var files: [ExampleFile]
    public var triggers: Bool
    /// A short note shown in `moat explain` and the catalogue.
    public var note: String?

    public init(files: [ExampleFile], triggers: Bool, note: String? = nil) {
        self.files = files
        self.triggers = triggers
        self.note = note
    }

    /// A triggering example made of one file.
    public static func triggering(_ file: String, _ code: String, note: String? = nil) -> RuleExample {
        RuleExample(files: [ExampleFile(name: file, content: code)], triggers: true, note: note)
    }

    /// A non-triggering example made of one file.
    public static func nonTriggering(_ file: String, _ code: String, note: String? = nil) -> RuleExample {
        RuleExample(files: [ExampleFile(name: file, content: code)], triggers: false, note: note)
    }
}

public struct ExampleFile: Sendable, Codable {
    /// A relative path such as `App/Info.plist` or `Sources/Web.swift`.
    public var name: String
    /// Content with `↓` markers.
    public var content: String

    public init(name: String, content: String) {
        self.name = name
        self.content = content
    }

    /// The content with the markers removed, and the 1-based (line, column) of each marker in that
    /// cleaned content. Columns count UTF-8 bytes, as the scanners do.
    public var cleaned: (content: String, markers: [(line: Int, column: Int)]) {
        var output = ""
        var markers: [(Int, Int)] = []
        var line = 1
        var column = 1
        for character in content {
            if character == RuleExample.marker {
                markers.append((line, column))
                continue
            }
            output.append(character)
            if character == "\n" {
                line += 1
                column = 1
            } else {
                column += character.utf8.count
            }
        }
        return (output, markers)
    }
}

extension RuleEvidence {
    /// The severity policy (README, "Severity policy"): why a finding or a rule of this evidence may not
    /// claim this severity and confidence, or nil when it may. High and critical need a dataflow path or a
    /// definite weakening value; a pattern is at most medium, and at medium only with low confidence;
    /// compliance is at most medium; inventory is info.
    public func policyViolation(severity: Severity, confidence: Confidence) -> String? {
        switch self {
        case .dataflow, .configuration:
            return nil
        case .pattern:
            if severity > .medium { return "a pattern is at most medium, not \(severity.rawValue)" }
            if severity == .medium, confidence > .low { return "a medium pattern has low confidence, not \(confidence.rawValue)" }
            return nil
        case .compliance:
            return severity > .low ? "a compliance matter is at most low, not \(severity.rawValue)" : nil
        case .inventory:
            return severity == .info ? nil : "inventory is info, not \(severity.rawValue)"
        }
    }
}
