import Foundation

/// Receipts opened through leakybank://receipt?file=NAME (see AppDelegate.swift).
final class ReceiptStore {
    static let shared = ReceiptStore()
    private let folder = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]

    /// Called with the raw name from the URL.
    func saveReceipt(named name: String, data: Data) {
        let destination = folder.appendingPathComponent(name)
        try? data.write(to: destination, options: .completeFileProtection)    // MOAT-CODE-301: "../" leaves Documents
    }

    /// Called only with names that went through ReceiptNames.singleComponent.
    func archiveReceipt(named name: String, data: Data) {
        let destination = folder.appendingPathComponent(name)
        try? data.write(to: destination, options: .completeFileProtection)    // safe
    }
}
