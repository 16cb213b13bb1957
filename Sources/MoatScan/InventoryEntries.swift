import MoatCore
import MoatRules

/// Inventory is not a finding: entries of inventory rules describe the attack surface, they are nothing a
/// developer fixes. They leave the findings list (unless asked for) and go to `ScanResult.inventory`.
enum InventoryEntries {
    /// Ids of the rules that only list inventory.
    static let ruleIds = Set(RuleRegistry.all.map { $0.description }.filter(\.isInventory).map(\.id))

    /// An inventory rule's entry, or any info-level finding: a fact that asks nothing of the developer
    /// belongs to the surface, not to the findings list (issue 23).
    static func isInventory(_ finding: Finding) -> Bool {
        finding.inventory != nil || ruleIds.contains(finding.ruleId) || finding.severity == .info
    }

    /// Returns the inventory entries of `findings`, removing them from it unless `keep`.
    static func separate(_ findings: inout [Finding], keep: Bool) -> [Finding] {
        let inventory = findings.filter(isInventory)
        if !keep { findings.removeAll(where: isInventory) }
        return inventory
    }
}
