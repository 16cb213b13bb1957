import CloudKit
import Foundation

/// A payee shared with family members through a shared CloudKit database: whoever shares the record
/// chooses its fields.
/// UNSAFE: the uuid field is copied with its own length, and the name's byte count is a wrapping product.
final class SharedPayee {
    private(set) var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    private(set) var name = ""

    func unpackSharedPayeeRecord(_ record: CKRecord) -> Bool {
        guard let data = record["uuid"] as? Data else { return false }
        _ = data.withUnsafeBytes { bytes in
            memcpy(&uuid, bytes.baseAddress, data.count)
        }

        guard let nameData = record["name"] as? Data, let count = record["nameCount"] as? Int32 else { return false }
        let byteCount = count &* Int32(MemoryLayout<unichar>.size)
        guard nameData.count == Int(byteCount) else { return false }
        name = nameData.withUnsafeBytes { buffer in
            String(utf16CodeUnits: buffer.bindMemory(to: unichar.self).baseAddress!, count: Int(count))
        }
        return true
    }
}
