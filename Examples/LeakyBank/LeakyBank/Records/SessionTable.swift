import Foundation
import GRDB
import SQLite

/// SQLite.swift: the session table keeps the access token in clear (unsafe) beside the user name (safe).
struct SessionTable {
    let sessions = Table("sessions")
    let userColumn = Expression<String>("user")
    let tokenColumn = Expression<String>("token")

    func save(userName: String, accessToken: String, db: Connection) throws {
        try db.run(sessions.insert(userColumn <- userName,          // quiet: a user name
                                   tokenColumn <- accessToken))     // MOAT-STOR-301 (SQLite.swift setter)
    }
}

/// GRDB records: the card number is set on the record, then the record is inserted (unsafe); a record with
/// only the last four digits is not a secret (safe).
struct BankCardRecord: Codable, PersistableRecord {
    var holder = ""
    var cardNumber = ""
    var lastFour = ""
}

func storeCard(holder: String, cardNumber: String, dbQueue: DatabaseQueue) throws {
    var record = BankCardRecord()
    record.holder = holder
    record.cardNumber = cardNumber
    try dbQueue.write { db in
        try record.insert(db)                          // MOAT-STOR-301 (GRDB record)
    }
}

func storeCardSummary(holder: String, digits: String, dbQueue: DatabaseQueue) throws {
    var record = BankCardRecord()
    record.holder = holder
    record.lastFour = String(digits.suffix(4))
    try dbQueue.write { db in
        try record.insert(db)                          // quiet: no secret in the record
    }
}

/// In memory only: NSCache never reaches the disk (quiet).
let recentPins = NSCache<NSString, NSString>()
func rememberRecent(pin: String) {
    recentPins.setObject(pin as NSString, forKey: "last")
}
