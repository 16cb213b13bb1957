import MoatCore
import MoatSyntax

/// Archive extraction (zip-slip, issue 14), in `TaintSinks.all`. Hand-written extraction is a path sink fed
/// by entry names (`ArchiveEntries`); a library's one-call extraction is a sink for the archive itself when
/// the library joins entry names to the destination without checking that the result stays inside it.
///
/// What the common libraries do (MOAT-CODE-301's documentation says the same):
/// - ZIPFoundation `FileManager.unzipItem(at:to:)` checks every entry against the destination (since the fix
///   of weichsel/ZIPFoundation#74; bypassable with `/../` names and symlinks up to 0.9.17, CVE-2023-39138 /
///   GHSA-c2cc-3569-6jh2, fixed in 0.9.18): a sink only when a lock file says the version is older
///   (`ArchiveLibraries`). Its `Archive.extract(_:to:)` writes to whatever URL it is given: a path sink.
/// - SSZipArchive (ZipArchive) `unzipFileAtPath:toDestination:` and its variants joined entry names to the
///   destination unchecked (ZipArchive/ZipArchive#453, "ZipperDown", 2018) and sanitize them since 2.1.3: a
///   sink only when a lock file says the version is older.
/// - Zip (marmelroy) `Zip.unzipFile(_:destination:overwrite:password:)`, `Zip.quickUnzipFile(_:)`: append each
///   entry name to the destination and `fopen` it, with no containment check (CVE-2023-39135,
///   GHSA-g454-wj9r-jpg4; a fix on its main branch was never released, marmelroy/Zip#282): a sink for the
///   archive whatever the version.
/// - minizip and libarchive have no one-call extraction: their entry names are sources (`ArchiveEntries`)
///   and the app's own writes are the sinks (`fopen` is one, in `Sinks+CopiesAndFiles.swift`).
extension TaintSinks {
    static let archive: [TaintSink] = [
        TaintSink(kind: .archiveExtraction, api: "Zip.unzipFile", spelling: APISpelling(APIs.zipUnzipFile),
                  roles: [(.archive, .index(0)), (.folder, .label(["destination"]))], receivers: ["Zip"]),
        TaintSink(kind: .filePath, api: APIs.zipFoundationExtract.name, spelling: APISpelling(APIs.zipFoundationExtract),
                  roles: [(.path, .label(["to"]))], receivers: ["archive", "Archive"], requiredLabels: ["to"]),
        // Judged by the library version a lock file gives (`ArchiveLibraries`); quiet when none says.
        TaintSink(kind: .archiveExtraction, api: ArchiveLibraries.zipFoundation.api, spelling: APISpelling(APIs.zipFoundationUnzipItem),
                  roles: [(.archive, .label(["at"])), (.folder, .label(["to"]))], requiredLabels: ["at"]),
        TaintSink(kind: .archiveExtraction, api: ArchiveLibraries.ssZipArchive.api, spelling: APISpelling(APIs.ssZipArchiveUnzip),
                  roles: [(.archive, .label(["atPath"])), (.folder, .label(["toDestination"]))], receivers: ["SSZipArchive"],
                  objcForm: SinkForm(roles: [(.archive, .index(0)), (.folder, .index(1))])),
    ]
}

/// One-call extraction that is safe from some version of its library on. The rule reports it only when a
/// lock file of the project (`DependencyLock`: Podfile.lock, Package.resolved, Cartfile.resolved) locks a
/// version before the fix; without a lock file, or with a branch or revision, it stays quiet.
struct VersionedExtraction: Sendable {
    /// The sink's `api`.
    var api: String
    /// The library's names in lock files: pod, package, repository.
    var names: [String]
    /// How messages name the library.
    var library: String
    /// The first version that checks entries.
    var fixedIn: String
    /// The advisory, for messages.
    var advisory: String
}

enum ArchiveLibraries {
    /// weichsel/ZIPFoundation: `unzipItem` followed `/../` names and symlinks out of the destination up to
    /// 0.9.17 (CVE-2023-39138, GHSA-c2cc-3569-6jh2; fixed in 0.9.18).
    static let zipFoundation = VersionedExtraction(api: APIs.zipFoundationUnzipItem.name, names: ["ZIPFoundation"], library: "ZIPFoundation",
                                                   fixedIn: "0.9.18", advisory: "CVE-2023-39138")
    /// ZipArchive/ZipArchive (SSZipArchive): entry names joined to the destination unchecked before 2.1.3
    /// (ZipArchive/ZipArchive#453, the 2018 "ZipperDown" path traversal).
    static let ssZipArchive = VersionedExtraction(api: APIs.ssZipArchiveUnzip.name, names: ["SSZipArchive", "ZipArchive"],
                                                  library: "SSZipArchive", fixedIn: "2.1.3", advisory: "the ZipperDown path traversal")
    static let all = [zipFoundation, ssZipArchive]
    static let byAPI: [String: VersionedExtraction] = Dictionary(uniqueKeysWithValues: all.map { ($0.api, $0) })
}
