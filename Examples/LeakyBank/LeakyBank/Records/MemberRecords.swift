import CoreData

/// Unsafe: member logins and cards go into Records.xcdatamodeld, a store loaded with the container's default
/// description (no file protection). The writes below carry the secrets there.
final class MemberRecords {
    let container = NSPersistentContainer(name: "Records")

    func load() {
        container.loadPersistentStores { _, error in
            if let error { print("records store failed: \(error)") }
        }
    }

    /// Every secret attribute of MemberLogin is written here with a flow: MOAT-STOR-301 reports the write
    /// (with the model's attribute as related) and MOAT-STOR-209 drops its finding for MemberLogin.
    func remember(username: String, password: String) throws {
        let login = MemberLogin(context: container.viewContext)
        login.username = username
        login.password = password                      // MOAT-STOR-301 (Core Data attribute set)
        try container.viewContext.save()
    }

    /// Only the card number is written from code: MOAT-STOR-209 keeps its MemberCard finding for the CVV,
    /// with this write as a related location.
    func addCard(holder: String, cardNumber: String) {
        let card = MemberCard(context: container.viewContext)
        card.holder = holder
        card.cardNumber = cardNumber                   // MOAT-STOR-301
    }
}
