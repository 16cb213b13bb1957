import MoatCore
import MoatSyntax

/// Archive extraction (zip-slip, issue 14), in `TaintSinks.all`. Hand-written extraction is a path sink fed
/// by entry names (`ArchiveEntries`); a library's one-call extraction is a sink for the archive itself when
/// the library joins entry names to the destination without checking that the result stays inside it.
///
/// What the common libraries do (MOAT-CODE-301's documentation says the same):
/// - ZIPFoundation `FileManager.unzipItem(at:to:)` checks every entry against the destination (since the fix
///   of weichsel/ZIPFoundation#74; bypassable with `/../` names up to 0.9.17, CVE-2023-39138, fixed in
///   0.9.18): not a sink. Its `Archive.extract(_:to:)` writes to whatever URL it is given: a path sink.
/// - SSZipArchive (ZipArchive) `unzipFileAtPath:toDestination:` and its variants sanitize entry names since
///   2.1.3 (2018): not a sink.
/// - Zip (marmelroy) `Zip.unzipFile(_:destination:overwrite:password:)`, `Zip.quickUnzipFile(_:)`: append each
///   entry name to the destination and `fopen` it, with no containment check: a sink for the archive.
/// - minizip and libarchive have no one-call extraction: their entry names are sources (`ArchiveEntries`)
///   and the app's own writes are the sinks (`fopen` is one, in `Sinks+CopiesAndFiles.swift`).
extension TaintSinks {
    static let archive: [TaintSink] = [
        TaintSink(kind: .archiveExtraction, api: "Zip.unzipFile", spelling: APISpelling(APIs.zipUnzipFile),
                  roles: [(.archive, .index(0)), (.folder, .label(["destination"]))], receivers: ["Zip"]),
        TaintSink(kind: .filePath, api: "Archive.extract(_:to:)", spelling: APISpelling(APIs.zipFoundationExtract),
                  roles: [(.path, .label(["to"]))], receivers: ["archive", "Archive"], requiredLabels: ["to"]),
    ]
}
