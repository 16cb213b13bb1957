import Foundation
import CoreData

/// Safe: the backup-exclusion snippet of the Italian reference, with its bug fixed (it created the
/// directory at an undefined `path`), and a protected store inside the excluded folder.
final class ExcludedVaultStack {
    func addStore(to coordinator: NSPersistentStoreCoordinator) throws {
        let urls = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)
        let baseURL = urls[urls.count-1];

        let bundleIdentifier = Bundle.main.object(forInfoDictionaryKey: "CFBundleIdentifier") as! String
        let pathURL = baseURL.appendingPathComponent(bundleIdentifier)
        let persistentStoreDirectoryPath = pathURL.path
        if !FileManager.default.fileExists(atPath: persistentStoreDirectoryPath) {
            do {
                try FileManager.default.createDirectory(atPath: persistentStoreDirectoryPath, withIntermediateDirectories: true, attributes: nil)
            }catch {
                //handle error
            }
        }
        let dirURL = URL.init(fileURLWithPath: persistentStoreDirectoryPath, isDirectory: true)
        do {
            try (dirURL as NSURL).setResourceValue((true), forKey: .isExcludedFromBackupKey)
        } catch {
            //handle error
        }
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil,
                                           at: dirURL.appendingPathComponent("Vault.sqlite"),
                                           options: [NSPersistentStoreFileProtectionKey: FileProtectionType.complete])
    }
}
