import Testing
import MoatCore
@testable import MoatReport

/// The test plan reads the selectors it hooks from the vocabulary (`APIs`).
struct PlanVocabularyTests {
    /// Every Swift call of the keyed unarchiver hooks the selector it sends, a Swift refinement included;
    /// the Swift 2 spellings, which send no listed selector, fall back to the legacy default.
    @Test func unarchiverCallsHookTheSelectorTheySend() {
        let table = PlanBuilder.unarchiverSelectors
        for api in [APIs.keyedUnarchiverSecure, APIs.keyedUnarchiverSecureInit, APIs.keyedUnarchiverLegacyInit] {
            for name in api.swift { #expect(table[name] != nil, "\(name) has no hook") }
            for selector in api.selectors { #expect(table[selector]?.dropFirst() == Substring(selector)) }
        }
        #expect(table["unarchivedDictionary(ofKeyClass:objectClass:from:)"] == "+unarchivedDictionaryWithKeysOfClass:objectsOfClass:fromData:error:")
        #expect(table["unarchivedDictionary(keysOfClasses:objectsOfClasses:from:)"] == "+unarchivedDictionaryWithKeysOfClasses:objectsOfClasses:fromData:error:")
        #expect(table["NSKeyedUnarchiver(forReadingWith:)"] == "-initForReadingWithData:")
        #expect(table["unarchiveObject(withFile:)"] == "+unarchiveObjectWithFile:")
        #expect(table["unarchiveObjectWithData(_:)"] == nil && PlanBuilder.unarchiverDefault == "+unarchiveObjectWithData:")
        #expect(table.count == 23)
    }

    /// Every pasteboard write and read by type the surface records has its hook (setObjects: had none).
    @Test func pasteboardCallsHookTheirSelectors() {
        for api in [APIs.pasteboardWrite, APIs.pasteboardLocalWrite, APIs.pasteboardContentsByType] {
            for (name, selector) in api.selectorsBySwiftName { #expect(PlanBuilder.pasteboardSelectors[name] == [selector], "\(name)") }
        }
        #expect(PlanBuilder.pasteboardSelectors["setObjects(_:)"] == ["setObjects:"])
    }
}
