/// File-system APIs: what builds a local file URL, and what writes, copies, moves, opens or removes a file
/// (see `API`).
extension APIs {
    // MARK: Local file URLs

    /// A file URL built from a path.
    public static let fileURLFromPath = API(
        "URL(fileURLWithPath:)", classes: ["URL", "NSURL"],
        swift: ["URL(fileURLWithPath:)", "URL(fileURLWithPath:isDirectory:)", "URL(fileURLWithPath:relativeTo:)", "URL(filePath:)"],
        selectors: ["fileURLWithPath:", "fileURLWithPath:isDirectory:", "fileURLWithPath:relativeToURL:"])

    /// A resource URL of a bundle.
    public static let bundleResourceURL = API(
        "Bundle.url(forResource:withExtension:)", classes: ["Bundle", "NSBundle"],
        swift: ["url(forResource:withExtension:)", "url(forResource:withExtension:subdirectory:)", "urls(forResourcesWithExtension:subdirectory:)"],
        selectors: ["URLForResource:withExtension:", "URLForResource:withExtension:subdirectory:"])

    /// A directory of the app's container, asked of the file manager.
    public static let containerDirectoryLookup = API(
        "FileManager.urls(for:in:)", classes: ["FileManager", "NSFileManager"],
        swift: ["urls(for:in:)"], selectors: ["URLsForDirectory:inDomains:"])

    /// A directory the system names, asked of the file manager (a fresh `.itemReplacementDirectory`, or a
    /// container directory); the URL passed as `appropriateFor` only picks the volume.
    public static let systemDirectoryForVolume = API(
        "FileManager.url(for:in:appropriateFor:create:)", classes: ["FileManager", "NSFileManager"],
        swift: ["url(for:in:appropriateFor:create:)"], selectors: ["URLForDirectory:inDomain:appropriateForURL:create:error:"])

    /// Directories of the app's container and bundle, as properties.
    public static let containerDirectories = API(
        "URL.documentsDirectory", classes: ["URL", "FileManager", "Bundle"],
        swift: ["documentsDirectory", "temporaryDirectory", "cachesDirectory", "applicationSupportDirectory", "libraryDirectory",
                "homeDirectory", "bundleURL", "resourceURL"])

    /// The app's container folders as path strings (`NSTemporaryDirectory()`, `NSHomeDirectory()`,
    /// `NSSearchPathForDirectoriesInDomains(.documentDirectory, …)`): a path built on one is local.
    public static let temporaryDirectoryPath = API("NSTemporaryDirectory()", cFunctions: ["NSTemporaryDirectory"])
    public static let homeDirectoryPath = API("NSHomeDirectory()", cFunctions: ["NSHomeDirectory"])
    public static let searchPathDirectories = API("NSSearchPathForDirectoriesInDomains", cFunctions: ["NSSearchPathForDirectoriesInDomains"])
    public static var containerDirectoryPaths: [API] { [temporaryDirectoryPath, homeDirectoryPath, searchPathDirectories] }

    // MARK: Reads and listings by path

    /// A file read, or a folder listed, by path or file URL (besides `APIs.contentsOfURL` and
    /// `APIs.stringContentsOfFile`): what a name from outside must not choose.
    public static let fileReadByPath = API(
        "FileManager.contents(atPath:)", classes: ["FileManager", "NSFileManager", "FileHandle", "NSFileHandle", "NSData", "NSDictionary", "NSArray"],
        swift: ["contents(atPath:)", "contentsOfDirectory(atPath:)", "contentsOfDirectory(at:includingPropertiesForKeys:options:)",
                "enumerator(atPath:)", "FileHandle(forReadingAtPath:)", "FileHandle(forReadingFrom:)", "NSData(contentsOfFile:)",
                "NSDictionary(contentsOfFile:)", "NSArray(contentsOfFile:)"],
        selectors: ["contentsAtPath:", "contentsOfDirectoryAtPath:error:", "contentsOfDirectoryAtURL:includingPropertiesForKeys:options:error:",
                    "enumeratorAtPath:", "fileHandleForReadingAtPath:", "fileHandleForReadingFromURL:error:", "dataWithContentsOfFile:",
                    "dataWithContentsOfFile:options:error:", "dictionaryWithContentsOfFile:", "arrayWithContentsOfFile:"])

    /// A dynamic library loaded by path: the code in it runs in the app.
    public static let dynamicLibraryOpen = API("dlopen", cFunctions: ["dlopen"])

    // MARK: Writes, copies, moves, removals

    /// `FileManager` copies, moves, links and replacements.
    public static let fileManagerCopy = API(
        "FileManager.copyItem(at:to:)", classes: ["FileManager", "NSFileManager"],
        swift: ["copyItem(at:to:)", "copyItem(atPath:toPath:)", "moveItem(at:to:)", "moveItem(atPath:toPath:)", "linkItem(at:to:)",
                "linkItem(atPath:toPath:)", "replaceItemAt(_:withItemAt:backupItemName:options:)"],
        selectors: ["copyItemAtURL:toURL:error:", "moveItemAtURL:toURL:error:", "linkItemAtURL:toURL:error:",
                    "copyItemAtPath:toPath:error:", "moveItemAtPath:toPath:error:", "linkItemAtPath:toPath:error:"])

    /// `FileManager` removals.
    public static let fileManagerRemove = API(
        "FileManager.removeItem(at:)", classes: ["FileManager", "NSFileManager"],
        swift: ["removeItem(at:)", "removeItem(atPath:)", "trashItem(at:resultingItemURL:)"],
        selectors: ["removeItemAtURL:error:", "removeItemAtPath:error:", "trashItemAtURL:resultingItemURL:error:"])

    /// `FileManager` file creation.
    public static let fileManagerCreateFile = API(
        "FileManager.createFile(atPath:contents:attributes:)", classes: ["FileManager", "NSFileManager"],
        swift: ["createFile(atPath:contents:attributes:)", "createFile(atPath:contents:)"], selectors: ["createFileAtPath:contents:attributes:"])

    /// `FileManager` directory creation.
    public static let fileManagerCreateDirectory = API(
        "FileManager.createDirectory(at:withIntermediateDirectories:attributes:)", classes: ["FileManager", "NSFileManager"],
        swift: ["createDirectory(at:withIntermediateDirectories:attributes:)", "createDirectory(atPath:withIntermediateDirectories:attributes:)"],
        selectors: ["createDirectoryAtURL:withIntermediateDirectories:attributes:error:",
                    "createDirectoryAtPath:withIntermediateDirectories:attributes:error:"])

    /// Writes of data, strings and property lists to a file.
    public static let fileWrite = API(
        "Data.write(to:)", classes: ["Data", "String", "NSData", "NSString", "NSDictionary", "NSArray"],
        swift: ["write(to:)", "write(to:options:)", "write(to:atomically:encoding:)", "write(toFile:atomically:)",
                "write(toFile:atomically:encoding:)"],
        selectors: ["writeToFile:atomically:", "writeToURL:atomically:", "writeToURL:options:error:", "writeToFile:options:error:",
                    "writeToFile:atomically:encoding:error:", "writeToURL:atomically:encoding:error:"])

    /// File handles opened for writing or updating.
    public static let fileHandleForWriting = API(
        "FileHandle(forWritingTo:)", classes: ["FileHandle", "NSFileHandle"],
        swift: ["FileHandle(forWritingTo:)", "FileHandle(forWritingAtPath:)", "FileHandle(forUpdating:)", "FileHandle(forUpdatingAtPath:)"],
        selectors: ["fileHandleForWritingAtPath:", "fileHandleForWritingToURL:error:", "fileHandleForUpdatingAtPath:"])

    /// C calls that open (and may create) a file by path.
    public static let fileOpenC = API("fopen", cFunctions: ["fopen", "open", "creat"])

    /// C calls that rename a file: both paths name files the call changes.
    public static let fileRenameC = API("rename", cFunctions: ["rename"])

    /// C calls that remove a file by path.
    public static let fileRemoveC = API("unlink", cFunctions: ["unlink"])

    /// The APIs of this file, for `APIs.all`.
    static let files: [API] = [
        fileURLFromPath, bundleResourceURL, containerDirectoryLookup, systemDirectoryForVolume, containerDirectories, fileManagerCopy, fileManagerRemove,
        fileManagerCreateFile, fileManagerCreateDirectory, fileWrite, fileHandleForWriting, fileOpenC, fileRenameC, fileRemoveC,
        temporaryDirectoryPath, homeDirectoryPath, searchPathDirectories, fileReadByPath, dynamicLibraryOpen,
    ]
}
