import MoatCore
import MoatSyntax

/// Entry names read from an archive (zip-slip, issue 14). An entry name is what whoever made the archive
/// chose, so it carries the archive's own taints with the `archiveEntry` mark: read from an archive that
/// came from outside (a download, remote content, a picked or received file, a URL handler's input), it
/// is a name from outside, even when the archive is a file the system created (`isSystemFileURL`); read from
/// an archive of the app's bundle (a `localFile` taint), it reaches no sink; read from an archive whose
/// origin the engine cannot see, it is nothing (a caller that passes an outside archive makes it a flow,
/// through the function's summary or across files). The checks made on the archive's URL do not apply to
/// the names inside it.
enum ArchiveEntries {
    /// Members that give an entry's name (ZIPFoundation `Entry.path`, ZipZap `ZZArchiveEntry.fileName`), read
    /// on a receiver whose chain of names ends with one of `entryReceivers` or whose declared type mentions
    /// one of `entryTypes`...
    static let nameMembers = APISpelling(swift: ["path", "fileName"], objc: ["fileName"])
    static let entryReceivers = ["entry", "Entry"]
    static let entryTypes = ["Entry"]
    /// ...in a file that imports one of these modules or names one of `archiveTypeNames`.
    static let archiveModules: Set<String> = ["ZIPFoundation", "ZipZap", "Zip", "SSZipArchive", "ZipArchive", "Objective_Zip",
                                              "minizip", "Minizip"]
    static let archiveTypeNames = ["Archive", "unzFile", "archive_entry"]

    /// C functions that return the entry's name; the entry is their first argument.
    static let nameResults = APISpelling(APIs.libarchiveEntryPathname)
    /// C functions that write the current entry's name into the buffer at `bufferIndex`; the archive is
    /// their first argument.
    static let nameBuffers = APISpelling(APIs.minizipCurrentFileInfo)
    static let bufferIndex = 2

    /// How a path step names the read.
    static let stepPhrase = "entry name read from the archive with"

    static let memberNames: Set<String> = Set(nameMembers.names)
    static let resultNames: Set<String> = Set(nameResults.names)
    static let bufferNames: Set<String> = Set(nameBuffers.names)

    /// An archive's taints as the taints of a name read from it: the checks made on the archive (its URL's
    /// last component, a prefix check, a number) do not apply to the name; a parameter's taint resets the
    /// caller's checks.
    static func entryName(of archive: [Taint], at range: SourceRange, api: String) -> [Taint] {
        archive.filter(\.isActive).mapTaints { taint in
            taint.checks = [.archiveEntry]
            taint.lineage = []
            taint.product = nil
            taint.classLookup = nil
            if case .parameter = taint.origin { taint.resetsCallerChecks = true }
            taint.addStep(range, "\(stepPhrase) \(api)")
        }
    }
}
