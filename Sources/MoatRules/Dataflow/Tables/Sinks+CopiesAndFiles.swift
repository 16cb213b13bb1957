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
}
