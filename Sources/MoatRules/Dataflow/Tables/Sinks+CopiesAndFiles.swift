import MoatCore

extension TaintSinks {
    /// C calls that open, rename or remove a file by path, and copies by a length beyond `memcpy`: what
    /// `moat diff`'s file-path and memory-copy questions ask about, and what MOAT-CODE-301 and MOAT-CODE-304
    /// report when untrusted data reaches them. The C functions are matched only as free calls
    /// (`freeFunction`): a method of the same name (`store.rename(item, to: name)`) is not the C function.
    static let copiesAndFiles: [TaintSink] = [
        // MARK: File paths (MOAT-CODE-301)
        TaintSink(kind: .filePath, api: "fopen/open/creat", spelling: APISpelling(APIs.fileOpenC), roles: [(.path, .index(0))],
                  freeFunction: true),
        // `rename(old, new)`: like `moveItem`, the new path is the destination, the old one the file moved.
        TaintSink(kind: .filePath, api: APIs.fileRenameC.name, spelling: APISpelling(APIs.fileRenameC), roles: [(.path, .index(1)), (.source, .index(0))],
                  freeFunction: true),
        TaintSink(kind: .filePath, api: APIs.fileRemoveC.name, spelling: APISpelling(APIs.fileRemoveC), roles: [(.path, .index(0))], freeFunction: true),

        // MARK: Memory copies (MOAT-CODE-304)
        TaintSink(kind: .memoryCopy, api: APIs.boundedCopyC.name, spelling: APISpelling(APIs.boundedCopyC),
                  roles: [(.destination, .index(0)), (.source, .index(1)), (.length, .index(2))], freeFunction: true),
        // Bounded by the destination size (argument 1): the count is asked about (`count`), not a length the
        // copy trusts.
        TaintSink(kind: .memoryCopy, api: APIs.checkedMemoryCopyC.name, spelling: APISpelling(APIs.checkedMemoryCopyC),
                  roles: [(.destination, .index(0)), (.source, .index(2)), (.count, .index(3))], freeFunction: true),
        TaintSink(kind: .memoryCopy, api: APIs.byteCopyC.name, spelling: APISpelling(APIs.byteCopyC),
                  roles: [(.source, .index(0)), (.destination, .index(1)), (.length, .index(2))], freeFunction: true),
        TaintSink(kind: .memoryCopy, api: APIs.cfDataGetBytes.name, spelling: APISpelling(APIs.cfDataGetBytes),
                  roles: [(.source, .index(0)), (.length, .index(1)), (.destination, .index(2))], freeFunction: true),
        TaintSink(kind: .memoryCopy, api: APIs.pointerCopy.name, spelling: APISpelling(APIs.pointerCopy),
                  roles: [(.destination, .receiver), (.source, .label(["from"])), (.length, .label(["count"]))], requiredLabels: ["count"]),
        // Reads `count` bytes from the pointer: a count larger than what it points to reads past it. The
        // Objective-C selectors are also allocation sizes (`-[NSData initWithBytes:length:]`).
        TaintSink(kind: .memoryCopy, api: APIs.dataFromBytes.swift[1], spelling: APISpelling(APIs.dataFromBytes),
                  roles: [(.source, .label(["bytes"])), (.length, .label(["count", "length"]))], requiredLabels: ["bytes"],
                  objcForm: SinkForm(roles: [(.source, .index(0)), (.length, .index(1))])),
    ]

    /// Reads, listings and opens by path (MOAT-CODE-301): a name from outside joined to one of the app's
    /// folders chooses which file the app reads or which database or bundle it opens. Their flows also keep
    /// the `localFile` taint, which says the path starts in a folder of the app (`URL(fileURLWithPath:)`,
    /// `FileManager.urls(for:in:)`, `NSTemporaryDirectory()`): a URL the input is whole (`Data(contentsOf:
    /// URL(string: link))`) is a download, not a path.
    static let pathKinds: Set<FlowKind> = [.untrusted, .remote, .localFile]

    /// One entry for the Swift spellings, which must pass one of `labels` (an initializer's type name is
    /// its base name: `String(contentsOfFile:)` must not match `String(describing:)`), and one for the
    /// Objective-C selectors and C functions, whose receiver must mention one of `receivers` when given.
    static func pathRead(_ kind: SinkKind, _ api: API, labels: Set<String>, receivers: [String] = [], role: ArgumentSelector? = nil,
                         objcRole: ArgumentSelector = .index(0)) -> [TaintSink] {
        var entries: [TaintSink] = []
        if !api.swiftBaseNames.isEmpty {
            entries.append(TaintSink(kind: kind, api: api.name, spelling: APISpelling(swift: api.swiftBaseNames),
                                     roles: [(.path, role ?? .label(labels))], requiredLabels: labels, kinds: pathKinds))
        }
        if !api.selectors.isEmpty {
            entries.append(TaintSink(kind: kind, api: api.name, spelling: APISpelling(objc: api.selectors),
                                     roles: [(.path, objcRole)], receivers: receivers, kinds: pathKinds))
        }
        if !api.cFunctions.isEmpty {
            entries.append(TaintSink(kind: kind, api: api.name, spelling: APISpelling(c: api.cFunctions),
                                     roles: [(.path, .index(0))], freeFunction: true, kinds: pathKinds))
        }
        return entries
    }

    static let pathReads: [TaintSink] =
        pathRead(.fileRead, APIs.contentsOfURL, labels: ["contentsOf"])
        + pathRead(.fileRead, APIs.stringContentsOfFile, labels: ["contentsOfFile"])
        + pathRead(.fileRead, APIs.fileReadByPath, labels: ["atPath", "at", "forReadingAtPath", "forReadingFrom", "contentsOfFile"])
        + pathRead(.fileRead, APIs.bundleInit, labels: ["url", "path"], receivers: ["Bundle", "NSBundle"])
        + pathRead(.storeOpen, APIs.sqliteOpen, labels: [])
        + pathRead(.storeOpen, APIs.fmdbOpen, labels: ["path", "url"], receivers: ["FMDatabase", "FMDatabaseQueue"])
        + pathRead(.storeOpen, APIs.grdbOpen, labels: ["path"])
        + pathRead(.storeOpen, APIs.realmConfiguration, labels: ["fileURL"])
        + pathRead(.storeOpen, APIs.coreDataAddPersistentStore, labels: ["at"], receivers: ["coordinator", "Coordinator"],
                   role: .label(["at"]), objcRole: .index(2))
        + pathRead(.storeOpen, APIs.coreDataStoreDescription, labels: ["url"], receivers: ["NSPersistentStoreDescription"])
        + pathRead(.storeOpen, APIs.dynamicLibraryOpen, labels: [])
}
