import MoatCore

/// A category of Apple's "required reason" APIs: APIs that can be misused for fingerprinting, whose use
/// must be declared with an approved reason in the privacy manifest (`NSPrivacyAccessedAPITypes`).
public struct RequiredReasonCategory: Sendable {
    /// `NSPrivacyAccessedAPICategoryUserDefaults`.
    public var category: String
    /// "user defaults".
    public var name: String
    /// Clauses of names that show a use (Swift and Objective-C names, C functions). Only unambiguous
    /// names: a property called `creationDate` on the app's own model is not a file timestamp.
    public var uses: [APIClause]
    /// The approved reason codes Apple lists for the category.
    public var reasons: [String]

    public init(category: String, name: String, uses: [APIClause], reasons: [String]) {
        self.category = category
        self.name = name
        self.uses = uses
        self.reasons = reasons
    }
}

/// The one table of required-reason API categories, shared with binary analysis (which can match the
/// same names against imported symbols).
public enum RequiredReasonAPITable {
    public static let categories: [RequiredReasonCategory] = [
        RequiredReasonCategory(
            category: "NSPrivacyAccessedAPICategoryFileTimestamp", name: "file timestamp",
            uses: [
                APIClause("NSFileCreationDate"), APIClause("NSFileModificationDate"),
                APIClause("NSURLContentModificationDateKey"), APIClause("NSURLCreationDateKey"),
                APIClause("NSURLContentAccessDateKey"), APIClause("NSURLAttributeModificationDateKey"),
                APIClause("contentModificationDateKey"), APIClause("creationDateKey"),
                APIClause("contentAccessDateKey"), APIClause("attributeModificationDateKey"),
                APIClause("fileModificationDate"), APIClause("fileCreationDate"),
                APIClause("attributesOfItem", "creationDate"), APIClause("attributesOfItem", "modificationDate"),
                APIClause(APIs.fileAttributesRead.selectors[0], "NSFileModificationDate"),
                APIClause(APIs.fileAttributeListC.swift[0]), APIClause(APIs.fileAttributeListC.swift[1]), APIClause(APIs.fileAttributeListC.swift[2]),
                APIClause(APIs.fileAttributeListC.swift[3]),
                APIClause(APIs.fileStatusC.swift[0]), APIClause(APIs.fileStatusC.swift[1]), APIClause(APIs.fileStatusC.swift[2]), APIClause(APIs.fileStatusC.swift[3]),
            ],
            reasons: ["DDA9.1", "C617.1", "3B52.1", "0A2A.1"]),
        RequiredReasonCategory(
            category: "NSPrivacyAccessedAPICategorySystemBootTime", name: "system boot time",
            uses: [APIClause("systemUptime"), APIClause("mach_absolute_time"), APIClause("mach_absolute_time()")],
            reasons: ["35F9.1", "8FFB.1", "3D61.1"]),
        RequiredReasonCategory(
            category: "NSPrivacyAccessedAPICategoryDiskSpace", name: "disk space",
            uses: [
                APIClause("volumeAvailableCapacityKey"), APIClause("volumeAvailableCapacityForImportantUsageKey"),
                APIClause("volumeAvailableCapacityForOpportunisticUsageKey"), APIClause("volumeTotalCapacityKey"),
                APIClause("NSURLVolumeAvailableCapacityKey"), APIClause("NSURLVolumeAvailableCapacityForImportantUsageKey"),
                APIClause("NSURLVolumeAvailableCapacityForOpportunisticUsageKey"), APIClause("NSURLVolumeTotalCapacityKey"),
                APIClause("volumeAvailableCapacityForImportantUsage"), APIClause("volumeAvailableCapacityForOpportunisticUsage"),
                APIClause("systemFreeSize"), APIClause("NSFileSystemFreeSize"), APIClause("NSFileSystemSize"),
                APIClause("attributesOfFileSystem", "systemSize"),
                APIClause(APIs.fileSystemStatusC.swift[0]), APIClause(APIs.fileSystemStatusC.swift[1]), APIClause(APIs.fileSystemStatusC.swift[2]), APIClause(APIs.fileSystemStatusC.swift[3]),
            ],
            reasons: ["85F4.1", "E174.1", "7D9E.1", "B728.1"]),
        RequiredReasonCategory(
            category: "NSPrivacyAccessedAPICategoryActiveKeyboards", name: "active keyboards",
            uses: [APIClause("activeInputModes")],
            reasons: ["3EC4.1", "54BD.1"]),
        RequiredReasonCategory(
            category: "NSPrivacyAccessedAPICategoryUserDefaults", name: "user defaults",
            uses: [APIClause("UserDefaults"), APIClause("NSUserDefaults"), APIClause("AppStorage"),
                   APIClause("CFPreferencesCopyAppValue"), APIClause("CFPreferencesSetAppValue")],
            reasons: ["CA92.1", "1C8F.1", "C56D.1", "AC6B.1"]),
    ]

    public static func category(named name: String) -> RequiredReasonCategory? {
        categories.first { $0.category == name }
    }
}
