// Archive extraction (zip-slip, issue 14): the unzip APIs iOS apps call, by library. What each library
// documents about entry names that leave the destination folder decides whether a call is a sink (see
// `Sinks+Archive.swift` in MoatRules and MOAT-CODE-301's documentation).
extension APIs {
    // MARK: One-call extraction

    /// ZIPFoundation's `FileManager.unzipItem(at:to:)`: checks that every entry stays inside the destination
    /// (added after weichsel/ZIPFoundation#74, 2018; the check could be bypassed with `/../` names up to 0.9.17,
    /// CVE-2023-39138, fixed in 0.9.18). Not a sink.
    public static let zipFoundationUnzipItem = API(
        "FileManager.unzipItem(at:to:)", classes: ["FileManager"],
        swift: ["unzipItem(at:to:)", "unzipItem(at:to:skipCRC32:progress:preferredEncoding:)",
                "unzipItem(at:to:skipCRC32:allowUncontainedSymlinks:progress:pathEncoding:)"])

    /// SSZipArchive (ZipArchive) class methods: since 2.1.3 (the 2018 "ZipperDown" fix) entry names are
    /// sanitized so that nothing is written outside the destination. Not a sink.
    public static let ssZipArchiveUnzip = API(
        "SSZipArchive.unzipFile(atPath:toDestination:)", classes: ["SSZipArchive"],
        swift: ["unzipFile(atPath:toDestination:)", "unzipFile(atPath:toDestination:delegate:)",
                "unzipFile(atPath:toDestination:overwrite:password:)",
                "unzipFile(atPath:toDestination:progressHandler:completionHandler:)"],
        selectors: ["unzipFileAtPath:toDestination:", "unzipFileAtPath:toDestination:delegate:",
                    "unzipFileAtPath:toDestination:overwrite:password:error:",
                    "unzipFileAtPath:toDestination:overwrite:password:error:delegate:",
                    "unzipFileAtPath:toDestination:progressHandler:completionHandler:",
                    "unzipFileAtPath:toDestination:overwrite:password:progressHandler:completionHandler:",
                    "unzipFileAtPath:toDestination:preserveAttributes:overwrite:password:error:delegate:"])

    /// The Zip library's (marmelroy/Zip) `Zip.unzipFile(_:destination:overwrite:password:)` and
    /// `Zip.quickUnzipFile(_:)`: each entry name is appended to the destination and opened with `fopen`, with
    /// no containment check. A sink for the archive.
    public static let zipUnzipFile = API(
        "Zip.unzipFile(_:destination:overwrite:password:)", classes: ["Zip"],
        swift: ["unzipFile(_:destination:overwrite:password:)", "unzipFile(_:destination:overwrite:password:progress:)",
                "unzipFile(_:destination:overwrite:password:progress:fileOutputHandler:)",
                "quickUnzipFile(_:)", "quickUnzipFile(_:progress:)"])

    // MARK: Hand-written extraction

    /// ZIPFoundation's `Archive.extract(_:to:)`: writes one entry to the URL it is given, whatever it is.
    public static let zipFoundationExtract = API(
        "Archive.extract(_:to:)", classes: ["Archive"],
        swift: ["extract(_:to:)", "extract(_:to:bufferSize:skipCRC32:progress:)",
                "extract(_:to:bufferSize:skipCRC32:allowUncontainedSymlinks:progress:)"])

    /// minizip: fills the buffer passed third with the current entry's file name.
    public static let minizipCurrentFileInfo = API(
        "unzGetCurrentFileInfo", cFunctions: ["unzGetCurrentFileInfo", "unzGetCurrentFileInfo64"])

    /// libarchive: the current entry's path name.
    public static let libarchiveEntryPathname = API(
        "archive_entry_pathname", cFunctions: ["archive_entry_pathname", "archive_entry_pathname_utf8", "archive_entry_pathname_w"])

    /// libarchive: opens an archive object on a file name or a buffer (what the archive reads).
    public static let libarchiveReadOpen = API(
        "archive_read_open_filename", cFunctions: ["archive_read_open_filename", "archive_read_open_memory", "archive_read_open_fd"])

    /// The APIs of this file, for `APIs.all`.
    static let archive: [API] = [
        zipFoundationUnzipItem, ssZipArchiveUnzip, zipUnzipFile, zipFoundationExtract, minizipCurrentFileInfo, libarchiveEntryPathname,
        libarchiveReadOpen,
    ]
}

