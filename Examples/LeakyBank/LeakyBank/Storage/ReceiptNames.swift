import Foundation

enum ReceiptNames {
    /// The WWDC 2022 file-name idiom: one path component, never "", "." or "..".
    static func singleComponent(_ name: String) -> String? {
        let safeFileName = (name as NSString).lastPathComponent
        guard !safeFileName.isEmpty, safeFileName != ".", safeFileName != ".." else { return nil }
        return safeFileName
    }
}
