import MoatCore

/// Every rule Moat knows, grouped by MASVS area. A rule type not listed here fails
/// `RuleRegistrationTests` (which reads every rule type declared under Sources/MoatRules); the catalogue
/// tests check that ids are unique and that every rule has triggering and non-triggering examples.
public enum RuleRegistry {
    public static let all: [any Rule.Type] = MetaRules.all + NetworkRules.all + PlatformRules.all
        + StorageRules.all + CodeQualityRules.all + PrivacyRules.all + ResilienceRules.all + CryptoRules.all
        + BinaryRules.all

    /// Every rule's description, in id order, with the kind its conformance says (`Rule.derivedKind`) and
    /// the precision and suite the corpus verdicts measured (`RulePrecision`): the descriptions the
    /// catalogue, the reports and the fingerprint read.
    public static var descriptions: [RuleDescription] {
        all.map { type in
            var description = type.description
            description.kind = type.derivedKind
            description.measured = RulePrecision.table[description.id]
            description.suite = RulePrecision.suite(of: description.id)
            return description
        }.sorted { $0.id < $1.id }
    }

    /// Looks a rule up by id (`MOAT-NET-001`) or slug (`ats-arbitrary-loads`), case-insensitively.
    public static func rule(named name: String) -> (any Rule.Type)? {
        let key = name.lowercased()
        return all.first { $0.description.id.lowercased() == key || $0.description.slug == key }
    }
}

extension Rule {
    /// What the rule reads, derived from the protocols it adopts: the first of source, property list,
    /// Interface Builder, app, binary (a source rule that also judges binaries is a source rule). Rules do
    /// not write their kind; `RuleRegistry.descriptions` sets it from this.
    public static var derivedKind: RuleKind {
        let rule = Self()
        if rule.asSourceRule != nil { return .source }
        if rule.asPropertyListRule != nil { return .propertyList }
        if rule.asInterfaceBuilderRule != nil { return .interfaceBuilder }
        if rule.asAppRule != nil { return .app }
        return .binary
    }
}
