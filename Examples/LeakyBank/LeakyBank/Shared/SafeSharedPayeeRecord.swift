import CloudKit
import Foundation

/// A payee shared with family members through a shared CloudKit database.
/// SAFE: the uuid must have exactly the size of uuid_t, and the name's byte count is computed with an
/// overflow check before it is compared with the data (WWDC 2022, "Secure your app: threat modeling and
/// anti-patterns").
final class SafeSharedPayee {
    private(set) var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    private(set) var name = ""

    func unpackSharedPayeeRecord(_ record: CKRecord) -> Bool {
        guard let data = record["uuid"] as? Data, data.count == MemoryLayout<uuid_t>.size else { return false }
        _ = data.withUnsafeBytes { bytes in
            memcpy(&uuid, bytes.baseAddress, data.count)
        }

        guard let nameData = record["name"] as? Data, let count = record["nameCount"] as? Int32 else { return false }
        let (byteCount, overflow) = count.multipliedReportingOverflow(by: Int32(MemoryLayout<unichar>.size))
        guard !overflow, nameData.count == Int(byteCount) else { return false }
        name = nameData.withUnsafeBytes { buffer in
            String(utf16CodeUnits: buffer.bindMemory(to: unichar.self).baseAddress!, count: Int(count))
        }
        return true
    }
}
