/// Memory copies, buffers read by a count, allocations and query strings: the C, Swift and Objective-C
/// APIs the dataflow sink table watches for untrusted lengths and statements (see `API`).
extension APIs {
    // MARK: Copies by a length

    /// C copies `(destination, source, length)`.
    public static let memoryCopyC = API("memcpy", cFunctions: ["memcpy", "memmove", "__builtin_memcpy", "__builtin_memmove"])

    /// C string copies to a terminator, with no length bound `(destination, source)`.
    public static let stringCopyC = API("strcpy", cFunctions: ["strcpy", "strcat"])

    /// Bounded C string and wide-character copies `(destination, source, length)`.
    public static let boundedCopyC = API("strncpy", cFunctions: ["strncpy", "strlcpy", "strncat", "strlcat", "wcsncpy", "wmemcpy"])

    /// C11 Annex K copies `(destination, destinationSize, source, count)`: bounded by the destination size.
    public static let checkedMemoryCopyC = API("memcpy_s", cFunctions: ["memcpy_s", "memmove_s"])

    /// The BSD copy `(source, destination, length)`.
    public static let byteCopyC = API("bcopy", cFunctions: ["bcopy"])

    /// Core Foundation's copy of a range of a `CFData` into a buffer `(data, range, buffer)`.
    public static let cfDataGetBytes = API("CFDataGetBytes", cFunctions: ["CFDataGetBytes"])

    /// Typed pointer copies of a count of elements.
    public static let pointerCopy = API(
        "UnsafeMutablePointer.initialize(from:count:)", classes: ["UnsafeMutablePointer"],
        swift: ["initialize(from:count:)", "moveInitialize(from:count:)", "update(from:count:)", "assign(from:count:)"])

    /// `NSData`'s copy of its bytes into a buffer.
    public static let dataGetBytes = API(
        "NSData.getBytes(_:length:)", classes: ["NSData", "Data"], swift: ["getBytes(_:length:)"], selectors: ["getBytes:length:"])

    /// `Data`'s copy of its bytes into a buffer.
    public static let dataCopyBytes = API("Data.copyBytes(to:count:)", classes: ["Data"], swift: ["copyBytes(to:count:)"])

    /// A raw pointer's copy of bytes from another.
    public static let rawMemoryCopy = API(
        "UnsafeMutableRawPointer.copyMemory(from:byteCount:)", classes: ["UnsafeMutableRawPointer"], swift: ["copyMemory(from:byteCount:)"])

    /// Strings read from a buffer of UTF-16 code units by a count.
    public static let stringFromCharacters = API(
        "String(utf16CodeUnits:count:)", classes: ["String", "NSString"],
        swift: ["String(utf16CodeUnits:count:)", "NSString(characters:length:)"],
        selectors: ["initWithCharacters:length:", "stringWithCharacters:length:"])

    // MARK: Allocations

    /// C allocations of one size `(size)`.
    public static let allocationC = API("malloc", cFunctions: ["malloc", "alloca", "valloc"])
    /// C reallocations `(pointer, size)`.
    public static let reallocationC = API("realloc", cFunctions: ["realloc", "reallocf"])
    /// C allocations of a count of elements `(count, size)`.
    public static let arrayAllocationC = API("calloc", cFunctions: ["calloc"])

    /// Swift pointer allocations.
    public static let pointerAllocation = API(
        "UnsafeMutableRawPointer.allocate(byteCount:alignment:)", classes: ["UnsafeMutableRawPointer", "UnsafeMutablePointer"],
        swift: ["allocate(byteCount:alignment:)", "allocate(capacity:)"])

    /// Data buffers created with a length or capacity.
    public static let dataWithLength = API(
        "Data(count:)", classes: ["Data", "NSMutableData"],
        swift: ["Data(count:)", "Data(capacity:)", "NSMutableData(length:)", "NSMutableData(capacity:)"],
        selectors: ["dataWithLength:", "initWithLength:", "dataWithCapacity:"])

    /// Data created by copying a count of bytes from a pointer.
    public static let dataFromBytes = API(
        "NSData(bytes:length:)", classes: ["NSData", "Data"], swift: ["NSData(bytes:length:)", "Data(bytes:count:)"],
        selectors: ["dataWithBytes:length:", "initWithBytes:length:"])

    // MARK: Queries

    /// Predicates parsed from a format string.
    public static let predicateFormat = API(
        "NSPredicate(format:)", classes: ["NSPredicate"],
        swift: ["NSPredicate(format:)", "NSPredicate(format:arguments:)", "NSPredicate(format:argumentArray:)"],
        selectors: ["predicateWithFormat:", "predicateWithFormat:arguments:", "predicateWithFormat:argumentArray:"])

    /// SQLite statements compiled or run from SQL text `(db, sql, ...)`.
    public static let sqliteStatement = API(
        "sqlite3_exec", cFunctions: ["sqlite3_exec", "sqlite3_prepare", "sqlite3_prepare_v2", "sqlite3_prepare_v3", "sqlite3_prepare16",
                                     "sqlite3_prepare16_v2", "sqlite3_prepare16_v3"])

    /// The APIs of this file, for `APIs.all`.
    static let memory: [API] = [
        memoryCopyC, stringCopyC, boundedCopyC, checkedMemoryCopyC, byteCopyC, cfDataGetBytes, pointerCopy, dataGetBytes, dataCopyBytes, rawMemoryCopy, stringFromCharacters, allocationC, reallocationC,
        arrayAllocationC, pointerAllocation, dataWithLength, dataFromBytes, predicateFormat, sqliteStatement,
    ]
}
