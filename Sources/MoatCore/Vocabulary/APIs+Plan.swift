/// APIs the test plan, the attack surface and `moat diff` name beside the rules and the dataflow tables
/// (see `API`).
extension APIs {
    // MARK: Decoding

    /// `NSCoder` decoding of an object without naming its class (`decodeObject(forKey:)`): the archive
    /// chooses the class. The class-checked forms are `coderDecodeObject`.
    public static let coderDecodeAnyObject = API(
        "NSCoder.decodeObject(forKey:)", classes: ["NSCoder", "NSKeyedUnarchiver"],
        swift: ["decodeObject(forKey:)"], selectors: ["decodeObjectForKey:"])

    /// `NSCoder` decoding of an archive's top-level object, which throws on failure but names no class either.
    public static let coderDecodeTopLevelObject = API(
        "NSCoder.decodeTopLevelObject(forKey:)", classes: ["NSCoder", "NSKeyedUnarchiver"],
        swift: ["decodeTopLevelObject(forKey:)", "decodeTopLevelObject()"], selectors: ["decodeTopLevelObjectForKey:error:"])

    /// The keyed unarchiver's secure-coding switch, as a property (the test plan hooks its setter to see
    /// whether the app turns it off).
    public static let keyedUnarchiverRequiresSecureCoding = API(
        "NSKeyedUnarchiver.requiresSecureCoding", classes: ["NSKeyedUnarchiver", "NSCoder"],
        swift: ["requiresSecureCoding"], selectors: ["setRequiresSecureCoding:"])

    // MARK: Items from other apps

    /// Files loaded from an `NSItemProvider` (a copy, or the file in place): their names and contents come
    /// from the app that shared them. `itemProviderLoad` loads items and data.
    public static let itemProviderFileLoad = API(
        "NSItemProvider.loadFileRepresentation(forTypeIdentifier:completionHandler:)", classes: ["NSItemProvider"],
        swift: ["loadFileRepresentation(forTypeIdentifier:completionHandler:)", "loadInPlaceFileRepresentation(forTypeIdentifier:completionHandler:)"],
        selectors: ["loadFileRepresentationForTypeIdentifier:completionHandler:",
                    "loadInPlaceFileRepresentationForTypeIdentifier:completionHandler:"])

    // MARK: Pasteboards

    /// A named pasteboard created or opened: the apps of the same team share it by its name.
    public static let namedPasteboard = API(
        "UIPasteboard(name:create:)", classes: ["UIPasteboard"], swift: ["UIPasteboard(name:create:)"], selectors: ["pasteboardWithName:create:"])

    /// A pasteboard with a name the system makes up.
    public static let uniquePasteboard = API(
        "UIPasteboard.withUniqueName()", classes: ["UIPasteboard"], swift: ["withUniqueName()"], selectors: ["pasteboardWithUniqueName"])

    /// Items written to a pasteboard by method (the properties written, `string` and the others, are
    /// `pasteboardContents`). Swift names in the order of their selectors.
    public static let pasteboardWrite = API(
        "UIPasteboard.setItems(_:options:)", classes: ["UIPasteboard"],
        swift: ["setValue(_:forPasteboardType:)", "setData(_:forPasteboardType:)", "setItems(_:options:)", "addItems(_:)", "setObjects(_:)"],
        selectors: ["setValue:forPasteboardType:", "setData:forPasteboardType:", "setItems:options:", "addItems:", "setObjects:"])

    /// Items written to a pasteboard with whether they stay on the device and when they expire.
    public static let pasteboardLocalWrite = API(
        "UIPasteboard.setItemProviders(_:localOnly:expirationDate:)", classes: ["UIPasteboard"],
        swift: ["setItemProviders(_:localOnly:expirationDate:)", "setObjects(_:localOnly:expirationDate:)"],
        selectors: ["setItemProviders:localOnly:expirationDate:", "setObjects:localOnly:expirationDate:"])

    /// The APIs of this file, for `APIs.all`.
    static let plan: [API] = [
        coderDecodeAnyObject, coderDecodeTopLevelObject, keyedUnarchiverRequiresSecureCoding, itemProviderFileLoad, namedPasteboard,
        uniquePasteboard, pasteboardWrite, pasteboardLocalWrite,
    ]
}
