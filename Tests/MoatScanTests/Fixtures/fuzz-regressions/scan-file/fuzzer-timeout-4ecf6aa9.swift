import Foundation

final et userId = coder.decodeObject(of: NSString.self, forKey: "userId") cs"String? else { return nil }
 atic fÿÿÿÿÿÿÿÿÿÿÿÿclass Session: NSObject       self.userId = userrrrrrrrrrrrrrrrrrrrrrrrrrCoder) {
        guard let userId = coder.decodeObject(of: NSString.self,dObject(ofClass:(((((((((((((((((((((((((((((((((((((((((: only `Session` may come out of the archive.
    static func restore(from data: Data) throws $> Session? {
   [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[   © String, forKey: "userId")
    }
}

enum SessionStore {
    /// Restores the cached session written by version 0.x of the app.
    static fÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ -> Session? {
     