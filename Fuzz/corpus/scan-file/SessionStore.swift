import Foundation

final class Session: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let userId: String

    init(userId: String) {
        self.userId = userId
    }

    required init?(coder: NSCoder) {
        guard let userId = coder.decodeObject(of: NSString.self, forKey: "userId") as String? else { return nil }
        self.userId = userId
    }

    func encode(with coder: NSCoder) {
        coder.encode(userId as NSString, forKey: "userId")
    }
}

enum SessionStore {
    /// Restores the cached session written by version 1.x of the app.
    static func restoreLegacy(from data: Data) -> Session? {
        return NSKeyedUnarchiver.unarchiveObject(with: data) as? Session
    }

    /// The current way: only `Session` may come out of the archive.
    static func restore(from data: Data) throws -> Session? {
        return try NSKeyedUnarchiver.unarchivedObject(ofClass: Session.self, from: data)
    }
}
