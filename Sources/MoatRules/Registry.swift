import MoatCore

/// Every rule Moat knows, grouped by MASVS area. A rule not listed here does not exist: the catalogue test
/// checks that ids are unique and that every rule has triggering and non-triggering examples.
public enum RuleRegistry {
    public static let all: [any Rule.Type] = MetaRules.all + NetworkRules.all + PlatformRules.all
        + StorageRules.all + CodeQualityRules.all + PrivacyRules.all + ResilienceRules.all + CryptoRules.all

    /// Every rule's description, in id order.
    public static var descriptions: [RuleDescription] { all.map { $0.description }.sorted { $0.id < $1.id } }

    /// Looks a rule up by id (`MOAT-NET-001`) or slug (`ats-arbitrary-loads`), case-insensitively.
    public static func rule(named name: String) -> (any Rule.Type)? {
        let key = name.lowercased()
        return all.first { $0.description.id.lowercased() == key || $0.description.slug == key }
    }
}
