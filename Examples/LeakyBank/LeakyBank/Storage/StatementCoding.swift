import Foundation

final class CachedStatement: NSObject, NSCoding {                                   // MOAT-CODE-201
    let iban: String
    init(iban: String) { self.iban = iban }
    func encode(with coder: NSCoder) { coder.encode(iban, forKey: "iban") }
    required init?(coder: NSCoder) {
        guard let iban = coder.decodeObject(forKey: "iban") as? String else { return nil }
        self.iban = iban
    }
}

final class SecureStatement: NSObject, NSSecureCoding {                              // safe
    static var supportsSecureCoding: Bool { true }
    let iban: String
    init(iban: String) { self.iban = iban }
    func encode(with coder: NSCoder) { coder.encode(iban, forKey: "iban") }
    required init?(coder: NSCoder) {
        guard let iban = coder.decodeObject(of: NSString.self, forKey: "iban") as String? else { return nil }
        self.iban = iban
    }
}

enum StatementArchive {
    static func restoreAnything(_ data: Data) throws -> Any? {
        try NSKeyedUnarchiver.unarchivedObject(ofClasses: [NSObject.self], from: data)   // MOAT-CODE-202
    }
    static func restore(_ data: Data) throws -> SecureStatement? {
        try NSKeyedUnarchiver.unarchivedObject(ofClass: SecureStatement.self, from: data) // safe
    }
}
