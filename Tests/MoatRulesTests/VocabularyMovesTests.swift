import Testing
import MoatCore
@testable import MoatRules

/// The spellings the rules and tables read from the vocabulary are the ones they wrote before the move
/// (issue 13 item 4): a rule that reads a set from `APIs` sees the same names.
struct VocabularyMovesTests {
    @Test func openingAndRequests() {
        #expect(UntrustedURLOpenRule.openNames == ["open", "openURL", "openURL:", "openURL:options:completionHandler:"])
        #expect(RequestURLs.externalOpenNames == ["open", "openURL:", "openURL:options:completionHandler:", "openURL", "canOpenURL:", "canOpenURL"])
        #expect(RequestURLs.objcURLClasses == ["NSURL", "NSURLComponents"])
        #expect(Set(APIs.urlFromString.selectors)
                == ["URLWithString:", "URLWithString:relativeToURL:", "initWithString:", "initWithString:relativeToURL:", "componentsWithString:"])
        #expect(Set(APIs.urlFromString.swiftBaseNames) == ["URL", "NSURL", "URLComponents", "NSURLComponents"])
        #expect(Set(APIs.alamofireRequestFromString.swiftBaseNames) == ["request", "download", "streamRequest", "websocketRequest"])
        #expect(Set(APIs.urlRequestFromURL.swiftBaseNames) == ["URLRequest", "NSURLRequest", "NSMutableURLRequest"])
        #expect(Set(APIs.urlRequestFromURL.selectors)
                == ["requestWithURL:", "requestWithURL:cachePolicy:timeoutInterval:", "initWithURL:", "initWithURL:cachePolicy:timeoutInterval:"])
        #expect(APIs.webViewLoadRequest.selectors == ["loadRequest:"])
        #expect(APIs.webViewLoadRequest.swiftBaseNames == ["load"])
        #expect(APIs.swiftUILink.swiftBaseNames == ["Link"])
    }

    @Test func fileWrites() {
        #expect(FileWrite.names == ["writeToFile", "writeToURL", "createFileAtPath", "archiveRootObject", "write", "createFile"])
        #expect(APIs.fileWrite.callNames == ["write", "writeToFile:atomically:", "writeToURL:atomically:", "writeToFile:options:error:",
                                             "writeToURL:options:error:", "writeToFile:atomically:encoding:error:",
                                             "writeToURL:atomically:encoding:error:"])
        #expect(APIs.fileManagerCreateFile.callNames == ["createFile", "createFileAtPath:contents:attributes:"])
        #expect(APIs.fileManagerCreateFile.swift[0] == "createFile(atPath:contents:attributes:)")
        #expect(APIs.keyedArchiverArchiveToFile.callNames == ["archiveRootObject", "archiveRootObject:toFile:"])
        #expect(APIs.keyedArchiverArchiveToFile.swift[0] == "archiveRootObject(_:toFile:)")
        #expect(APIs.keyedArchiverArchiveToFile.classes == ["NSKeyedArchiver"])
    }

    @Test func webViewLocalContent() {
        // One name more than before: `forResourcesWithExtension` (Bundle.urls(forResourcesWithExtension:subdirectory:)).
        #expect(WebViewJavaScriptLocalContentRule.requiredNames
                == ["loadFileURL", "loadHTMLString", "fileURLWithPath", "URLForResource", "forResource", "forResourcesWithExtension"])
        #expect(APIs.userScriptCreation.swiftBaseNames == ["WKUserScript"])
        #expect(APIs.webViewLoadFileURL.swiftBaseNames == ["loadFileURL"])
        #expect(APIs.webViewLoadHTML.swiftBaseNames == ["loadHTMLString"])
    }

    @Test func storesInBackups() {
        #expect(SensitiveStoreBackupRule.requiredNames == [
            "addPersistentStoreWithType", "persistentStoreDescriptionWithURL", "NSPersistentStoreDescription", "addPersistentStore",
            "Configuration", "RLMRealmConfiguration", "sqlite3_open", "sqlite3_open_v2", "sqlite3_open16", "FMDatabase", "FMDatabaseQueue",
            "DatabaseQueue", "DatabasePool",
        ])
        #expect(APIs.coreDataAddPersistentStore.callNames == ["addPersistentStore", "addPersistentStoreWithType:configuration:URL:options:error:"])
        #expect(APIs.coreDataStoreDescription.callNames == ["NSPersistentStoreDescription", "persistentStoreDescriptionWithURL:", "initWithURL:"])
        #expect(APIs.realmConfiguration.callNames == ["Configuration", "RLMRealmConfiguration"])
        #expect(APIs.sqliteOpen.callNames == ["sqlite3_open", "sqlite3_open_v2", "sqlite3_open16"])
        #expect(APIs.fmdbOpen.callNames == ["FMDatabase", "FMDatabaseQueue", "databaseWithPath:", "initWithPath:", "databaseQueueWithPath:"])
        #expect(APIs.grdbOpen.callNames == ["DatabaseQueue", "DatabasePool"])
    }

    @Test func cryptoAndTLS() {
        #expect(CryptoConstantSites.requiredNames == [
            "encryptData", "decryptData", "SymmetricKey", "CCCrypt", "CCCryptorCreate", "CCCryptorCreateWithMode", "CCHmac", "CCHmacInit",
            "CCKeyDerivationPBKDF", "AES", "ChaCha20", "Blowfish", "HMAC", "CBCMAC", "CMAC", "Poly1305", "Rabbit", "PBKDF2", "PBKDF1",
            "Scrypt", "HKDF", "RNCryptor", "Encryptor", "Decryptor", "Nonce", "CBC", "GCM", "CTR", "CFB", "OFB", "PCBC", "CCM",
            "SecKeyCreateWithData", "encryptionKey", "setEncryptionKey",
        ])
        #expect(CryptoConstantSites.blockModes == ["CBC", "GCM", "CTR", "CFB", "OFB", "PCBC", "CCM"])
        #expect(APIs.cryptoSwiftKeyed.callNames == ["AES", "ChaCha20", "Blowfish", "HMAC", "CBCMAC", "CMAC", "Poly1305", "Rabbit"])
        #expect(APIs.cryptoSwiftKeyDerivation.callNames == ["PBKDF2", "PBKDF1", "Scrypt", "HKDF"])
        #expect(APIs.rnCryptorPassword.callNames
                == ["encrypt", "decrypt", "Encryptor", "Decryptor", "encryptData:password:error:", "decryptData:password:error:"])
        #expect(APIs.commonCryptoCipher.callNames == ["CCCrypt", "CCCryptorCreate"])
        #expect(APIs.cryptoKitSymmetricKey.callNames == ["SymmetricKey"])
        #expect(APIs.cryptoKitNonce.callNames == ["Nonce"])
        #expect(APIs.realmEncryptionKey.selectors == ["setEncryptionKey:"])
        #expect(WeakTLSVersionRule.properties == ["tlsMinimumSupportedProtocol", "tlsMinimumSupportedProtocolVersion",
                                                  "tlsMaximumSupportedProtocol", "tlsMaximumSupportedProtocolVersion",
                                                  "TLSMinimumSupportedProtocol", "TLSMinimumSupportedProtocolVersion",
                                                  "TLSMaximumSupportedProtocol", "TLSMaximumSupportedProtocolVersion"])
        #expect(WeakTLSVersionRule.functions == ["sec_protocol_options_set_tls_min_version", "sec_protocol_options_set_min_tls_protocol_version",
                                                 "sec_protocol_options_set_tls_max_version", "sec_protocol_options_set_max_tls_protocol_version",
                                                 "SSLSetProtocolVersionMin", "SSLSetProtocolVersionMax"])
    }

    @Test func dataflowTables() {
        // The copy transfer now names the builtins the memory-copy sink already matched.
        let copy = Transfers.calls.first { if case .copiesArgument = $0.effect { return true } else { return false } }
        #expect(copy?.spelling.c == ["memcpy", "memmove", "__builtin_memcpy", "__builtin_memmove"])
        let directory = Transfers.results.first { $0.name == "system-created directory" }
        #expect(directory?.match.names == APISpelling(swift: ["url"], objc: ["URLForDirectory:inDomain:appropriateForURL:create:error:"]))
        let builder = Transfers.results.first { $0.name == "path builder" }
        #expect(builder?.match.namesOrBaseNames.objc == [
            "URLByAppendingPathComponent:", "URLByAppendingPathComponent:isDirectory:", "stringByAppendingPathComponent:",
            "fileURLWithPath:", "fileURLWithPath:isDirectory:", "fileURLWithPath:relativeToURL:", "pathWithComponents:"])
        #expect(APISpelling(APIs.containerDirectoryLookup, APIs.systemDirectoryForVolume)
                == APISpelling(swift: ["urls", "url"], objc: ["URLsForDirectory:inDomains:", "URLForDirectory:inDomain:appropriateForURL:create:error:"]))
    }
}

extension VocabularyMovesTests {
    @Test func checksAndConfirmations() {
        #expect(Checks.overflowCheck.spelling == APISpelling(
            swift: ["multipliedReportingOverflow", "multipliedFullWidth"],
            c: ["os_mul_overflow", "__builtin_mul_overflow", "__builtin_umul_overflow", "__builtin_umull_overflow",
                "__builtin_umulll_overflow", "__builtin_smul_overflow", "__builtin_smull_overflow", "__builtin_smulll_overflow",
                "os_mul_and_add_overflow"]))
        #expect(Checks.confirmations[0].spelling == APISpelling(swift: ["UIAlertController"], objc: ["alertControllerWithTitle:message:preferredStyle:"]))
        #expect(Checks.confirmations[2].spelling == APISpelling(swift: ["UIAlertAction", "evaluatePolicy", "requestAccess", "present"],
                                                                objc: ["actionWithTitle:style:handler:", "evaluatePolicy:localizedReason:reply:",
                                                                       "presentViewController:animated:completion:"]))
        #expect(Checks.confirmations[2].baseNames == ["UIAlertAction"])
        let show = URLActions.all.first { $0.api == "pushViewController/present" }
        #expect(show?.spelling == APISpelling(swift: ["pushViewController", "present", "showDetailViewController", "setViewControllers"],
                                              objc: ["pushViewController:animated:", "presentViewController:animated:completion:",
                                                     "showViewController:sender:", "showDetailViewController:sender:",
                                                     "setViewControllers:animated:"]))
    }
}

extension VocabularyMovesTests {
    @Test func webViewsAndFiles() {
        #expect(ScriptMessageOriginRule.handlerNames == [
            "userContentController(_:didReceive:)", "userContentController(_:didReceive:replyHandler:)",
            "userContentController:didReceiveScriptMessage:", "userContentController:didReceiveScriptMessage:replyHandler:"])
        #expect(ScriptMessageOriginRule.htmlLoads == ["loadHTMLString", "loadHTMLString:baseURL:"])
        #expect(ScriptMessageOriginRule.otherLoads == ["load", "loadRequest:", "loadFileURL", "loadFileURL:allowingReadAccessToURL:", "loadData",
                                                       "loadData:MIMEType:characterEncodingName:baseURL:", "loadSimulatedRequest",
                                                       "loadFileRequest", "loadURL:", "loadUrl"])
        #expect(APIs.containerDirectoryLookup.callNames.union(APIs.systemDirectoryForVolume.callNames)
                == ["urls", "URLsForDirectory:inDomains:", "url", "URLForDirectory:inDomain:appropriateForURL:create:error:"])
        #expect(APIs.bundleResourceURL.callNames.subtracting(["url", "urls"])
                == ["URLForResource:withExtension:", "URLForResource:withExtension:subdirectory:"])
    }
}

extension VocabularyMovesTests {
    @Test func surfaceDelegates() {
        let old: [Set<String>] = [
            ["documentPicker(_:didPickDocumentsAt:)", "documentPicker(_:didPickDocumentAt:)", "documentPicker:didPickDocumentsAtURLs:", "documentPicker:didPickDocumentAtURL:"],
            ["documentBrowser(_:didPickDocumentsAt:)", "documentBrowser(_:didImportDocumentAt:toDestinationURL:)", "documentBrowser:didPickDocumentsAtURLs:", "documentBrowser:didImportDocumentAtURL:toDestinationURL:"],
            ["session(_:didFinishReceivingResourceWithName:fromPeer:at:withError:)", "session:didFinishReceivingResourceWithName:fromPeer:atURL:withError:"],
            ["dropInteraction(_:performDrop:)", "dropInteraction:performDrop:", "tableView(_:performDropWith:)", "collectionView(_:performDropWith:)", "tableView:performDropWithCoordinator:", "collectionView:performDropWithCoordinator:"],
            ["picker(_:didFinishPicking:)", "picker:didFinishPicking:"],
            ["application(_:didReceiveRemoteNotification:fetchCompletionHandler:)", "application(_:didReceiveRemoteNotification:)", "application:didReceiveRemoteNotification:fetchCompletionHandler:", "application:didReceiveRemoteNotification:"],
            ["userNotificationCenter(_:didReceive:withCompletionHandler:)", "userNotificationCenter(_:didReceive:)", "userNotificationCenter:didReceiveNotificationResponse:withCompletionHandler:"],
            ["userNotificationCenter(_:willPresent:withCompletionHandler:)", "userNotificationCenter(_:willPresent:)", "userNotificationCenter:willPresentNotification:withCompletionHandler:"],
            ["pushRegistry(_:didReceiveIncomingPushWith:for:completion:)", "pushRegistry(_:didReceiveIncomingPushWith:for:)", "pushRegistry:didReceiveIncomingPushWithPayload:forType:withCompletionHandler:", "pushRegistry:didReceiveIncomingPushWithPayload:forType:"],
            ["didReceive(_:withContentHandler:)", "didReceiveNotificationRequest:withContentHandler:"],
            ["application(_:didRegisterForRemoteNotificationsWithDeviceToken:)", "application:didRegisterForRemoteNotificationsWithDeviceToken:"],
            ["session(_:didReceive:fromPeer:)", "session:didReceiveData:fromPeer:"],
            ["session(_:didReceive:withName:fromPeer:)", "session:didReceiveStream:withName:fromPeer:"],
            ["application(_:handlerFor:)", "application:handlerForIntent:"],
        ]
        #expect(SurfaceTables.functions.map { Set($0.names) } == old)
        #expect(APISpelling(implementing: APIs.notificationResponse, APIs.notificationPresentation) == APISpelling(
            swift: ["userNotificationCenter(_:didReceive:withCompletionHandler:)", "userNotificationCenter(_:didReceive:)",
                    "userNotificationCenter(_:willPresent:withCompletionHandler:)", "userNotificationCenter(_:willPresent:)"],
            objc: ["userNotificationCenter:didReceiveNotificationResponse:withCompletionHandler:",
                   "userNotificationCenter:willPresentNotification:withCompletionHandler:"]))
    }
}

extension VocabularyMovesTests {
    @Test func urlHandlerTable() {
        #expect(URLHandlerTable.schemeHandlers == ["application(_:open:options:)", "application:openURL:options:",
                                                   "scene(_:openURLContexts:)", "scene:openURLContexts:"])
        #expect(URLHandlerTable.deprecatedSchemeHandlers == ["application(_:handleOpen:)", "application:handleOpenURL:",
                                                             "application(_:open:sourceApplication:annotation:)",
                                                             "application:openURL:sourceApplication:annotation:"])
        #expect(URLHandlerTable.sceneConnection == ["scene(_:willConnectTo:options:)", "scene:willConnectToSession:options:"])
        #expect(URLHandlerTable.swiftUIOpenURL == "onOpenURL")
        #expect(URLHandlerTable.universalLinkHandlers == ["application(_:continue:restorationHandler:)",
                                                          "application:continueUserActivity:restorationHandler:",
                                                          "scene(_:continue:)", "scene:continueUserActivity:"])
        #expect(URLHandlerTable.swiftUIContinueActivity == "onContinueUserActivity")
        #expect(Set(APISpelling(implementing: APIs.openURLHandler, APIs.deprecatedOpenURLHandler).swift)
                == ["application(_:open:options:)", "application(_:open:sourceApplication:annotation:)", "application(_:handleOpen:)"])
        #expect(Set(APISpelling(implementing: APIs.openURLHandler, APIs.deprecatedOpenURLHandler).objc)
                == ["application:openURL:options:", "application:openURL:sourceApplication:annotation:", "application:handleOpenURL:"])
    }
}

extension VocabularyMovesTests {
    @Test func binaryChecks() {
        #expect(CommonCryptoCipherInventoryRule.functions == ["_CCCrypt", "_CCCryptorCreate", "_CCCryptorCreateWithMode", "_CCCryptorCreateFromData"])
    }
}
