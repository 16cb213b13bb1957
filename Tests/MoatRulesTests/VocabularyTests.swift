import Testing
import MoatCore
@testable import MoatRules

/// The API vocabulary: each API declared once, its spellings derived, and the places that read it see
/// the same names.
struct VocabularyTests {
    @Test func spellingsAreDerivedFromTheDeclaration() {
        #expect(APIs.keyedUnarchiverLegacy.swiftBaseNames
                == ["unarchiveObject", "unarchiveTopLevelObjectWithData", "unarchiveObjectWithData", "unarchiveObjectWithFile"])
        #expect(APIs.keyedUnarchiverLegacyInit.swiftBaseNames == ["NSKeyedUnarchiver"])
        #expect(APIs.secTrustEvaluateLegacy.importedFunctionSymbols == ["_SecTrustEvaluate"])
        #expect(APIs.uiWebView.classSymbols == ["_OBJC_CLASS_$_UIWebView"])
        #expect(APIs.classLookup.callNames == ["NSClassFromString", "objc_getClass", "objc_lookUpClass", "classNamed:"])
    }

    /// Objective-C selectors and Swift names are shared by unrelated classes (`initWithContentsOfURL:` of
    /// `NSXMLParser` and of `NSData`): a spelling belongs to two APIs when they share a declaring class, or
    /// when either declares none (C functions, and names matched without their class).
    @Test func noSpellingBelongsToTwoAPIs() {
        var owners: [String: [API]] = [:]
        for api in APIs.all {
            #expect(!api.fullCallNames.isEmpty || !api.classes.isEmpty, "\(api.name) has no spelling")
            for name in api.fullCallNames {
                for other in owners[name, default: []]
                where api.classes.isEmpty || other.classes.isEmpty || !Set(api.classes).isDisjoint(with: other.classes) {
                    Issue.record("\(name) is spelled by both \(other.name) and \(api.name)")
                }
                owners[name, default: []].append(api)
            }
        }
        #expect(Set(APIs.all.map(\.name)).count == APIs.all.count, "two APIs share a name")
    }

    @Test func theRulesAndTheBinaryChecksReadTheSameSelectors() {
        // The source rule and its binary check judge the same unarchiver API.
        #expect(InsecureUnarchivingRule.insecureMethods.isSuperset(of: APIs.keyedUnarchiverLegacy.selectors))
        #expect(Set(InsecureUnarchivingRule.insecureSelectors)
                == Set(APIs.keyedUnarchiverLegacy.selectors + APIs.keyedUnarchiverLegacyInit.selectors))
        #expect(InsecureUnarchivingRule.insecureMethods
                == ["unarchiveObject", "unarchiveTopLevelObjectWithData", "unarchiveObjectWithData", "unarchiveObjectWithFile",
                    "unarchiveObjectWithData:", "unarchiveObjectWithFile:", "unarchiveTopLevelObjectWithData:error:"])
        #expect(WebViewJavaScriptLocalContentRule.scriptNames == [
            "evaluateJavaScript", "callAsyncJavaScript", "addUserScript", "addScriptMessageHandler", "addUserScript:",
            "evaluateJavaScript:completionHandler:", "evaluateJavaScript:inFrame:inContentWorld:completionHandler:",
            "callAsyncJavaScript:arguments:inFrame:inContentWorld:completionHandler:", "addScriptMessageHandler:name:",
            "addScriptMessageHandler:contentWorld:name:", "addScriptMessageHandlerWithReply:contentWorld:name:",
        ])
    }

    /// A method the app implements lists its Swift names and selectors in the same order; the test plan's
    /// Swift-to-selector map and the surface read the pairs.
    @Test func delegateMethodsPairSwiftNamesWithSelectors() {
        for api in APIs.implementedDelegateMethods {
            #expect(api.swift.count >= api.selectors.count, "\(api.name): a selector without its Swift name")
        }
        #expect(APIs.notificationResponse.selectorsBySwiftName
                == ["userNotificationCenter(_:didReceive:withCompletionHandler:)": "userNotificationCenter:didReceiveNotificationResponse:withCompletionHandler:"])
        #expect(APIs.deprecatedOpenURLHandler.implementedNames
                == ["application(_:handleOpen:)", "application:handleOpenURL:", "application(_:open:sourceApplication:annotation:)",
                    "application:openURL:sourceApplication:annotation:"])
        #expect(APIs.notificationResponse.implementedNames
                == ["userNotificationCenter(_:didReceive:withCompletionHandler:)", "userNotificationCenter:didReceiveNotificationResponse:withCompletionHandler:",
                    "userNotificationCenter(_:didReceive:)"])
    }

    /// A rule switches on a call's name with the API (`case APIs.commonCryptoCipher:`), and reads names
    /// gates from it.
    @Test func callNamesMatchInASwitch() {
        func api(of name: String) -> String? {
            switch name {
            case APIs.commonCryptoCipher: return "cipher"
            case APIs.cryptoSwiftBlockModes: return "mode"
            default: return nil
            }
        }
        #expect(api(of: "CCCryptorCreate") == "cipher")
        #expect(api(of: "GCM") == "mode")
        #expect(api(of: "CCCryptorCreateWithMode") == nil)
        #expect(APIs.fileWrite.selectorHeads == ["writeToFile", "writeToURL"])
        #expect(APIs.bundleResourceURL.swiftFirstLabels == ["forResource", "forResourcesWithExtension"])
        #expect(FileWrite.names == ["writeToFile", "writeToURL", "createFileAtPath", "archiveRootObject", "write", "createFile"])
        #expect(UntrustedURLOpenRule.openNames == ["open", "openURL", "openURL:", "openURL:options:completionHandler:"])
    }
}
