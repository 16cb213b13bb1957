import Foundation
import CryptoKit

enum Secrets {
    static let supportChatToken = "xoxb-2410938523-1390238504-AbCdEfGhIjKl"         // MOAT-CRYP-201
    static let mapsKey = "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q"                   // MOAT-CRYP-201 (low: public by design)
    static let statementKey = SymmetricKey(data: "0123456789abcdef0123456789abcdef".data(using: .utf8)!) // MOAT-CRYP-202
    static let clientSecret = "q8Zr2LmN4pXv7TbW"                                     // MOAT-CRYP-203
    static let publishableKey = "pk_live_51H8xQ2ExampleKeyValue00"                   // safe: public by design
    static let clientSecretHeader = "X-Client-Secret"                                 // safe: a header name
    static func newStatementKey() -> SymmetricKey { SymmetricKey(size: .bits256) }   // safe
}
