import Testing
import MoatCore
@testable import MoatRules

/// The test plan hooks the Objective-C selector a Swift call sends: the vocabulary lists the
/// unarchivers' Swift names in the order of their selectors (`API.selectorsBySwiftName`).
struct VocabularySelectorPairingTests {
    @Test func unarchiverSwiftNamesAreListedInTheOrderOfTheirSelectors() {
        for api in [APIs.keyedUnarchiverSecure, APIs.keyedUnarchiverLegacy, APIs.keyedUnarchiverSecureInit, APIs.keyedUnarchiverLegacyInit] {
            #expect(api.swift.count >= api.selectors.count, "\(api.name): a selector without its Swift name")
        }
        #expect(APIs.keyedUnarchiverSecure.selectorsBySwiftName == [
            "unarchivedObject(ofClass:from:)": "unarchivedObjectOfClass:fromData:error:",
            "unarchivedObject(ofClasses:from:)": "unarchivedObjectOfClasses:fromData:error:",
            "unarchivedArrayOfObjects(ofClass:from:)": "unarchivedArrayOfObjectsOfClass:fromData:error:",
            "unarchivedArrayOfObjects(ofClasses:from:)": "unarchivedArrayOfObjectsOfClasses:fromData:error:",
            "unarchivedDictionary(keysOfClass:objectsOfClass:from:)": "unarchivedDictionaryWithKeysOfClass:objectsOfClass:fromData:error:",
            "unarchivedDictionary(keysOfClasses:objectsOfClasses:from:)": "unarchivedDictionaryWithKeysOfClasses:objectsOfClasses:fromData:error:",
        ])
        // The Swift 2 spellings of the legacy unarchiver are listed past the last selector.
        #expect(APIs.keyedUnarchiverLegacy.selectorsBySwiftName
                == ["unarchiveObject(with:)": "unarchiveObjectWithData:", "unarchiveObject(withFile:)": "unarchiveObjectWithFile:",
                    "unarchiveTopLevelObjectWithData(_:)": "unarchiveTopLevelObjectWithData:error:"])
        #expect(APIs.pasteboardContentsByType.selectorsBySwiftName
                == ["data(forPasteboardType:)": "dataForPasteboardType:", "value(forPasteboardType:)": "valueForPasteboardType:"])
    }

    /// The surface names an item provider's item and data loads by Swift base name and selector, read by
    /// position from the vocabulary.
    @Test func theSurfaceReadsTheItemProviderLoadsItNames() {
        #expect(SurfaceTables.itemLoad == ("loadItem", "loadItemForTypeIdentifier:options:completionHandler:"))
        #expect(SurfaceTables.dataLoad == ("loadDataRepresentation", "loadDataRepresentationForTypeIdentifier:completionHandler:"))
    }
}
