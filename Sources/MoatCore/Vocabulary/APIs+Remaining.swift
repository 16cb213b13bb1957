/// APIs one rule, dataflow table, the attack surface, the test plan or `moat diff` reads and no other
/// vocabulary file declares (see `API`): permission prompts and the protected resources they guard, file and
/// disk facts, values converted, built and enumerated, sensitive writes, XML parser callbacks, TLS, pinning
/// and database calls. `VocabularyLiteralsTests` fails when an API name undeclared here or elsewhere in the
/// vocabulary is written as a literal in a scanned file.
extension APIs {
    // MARK: Permission requests and protected resources (PermissionTable)

    /// The camera's or the microphone's permission prompt in Objective-C (the media type says which; the Swift
    /// form is `permissionPrompt`).
    public static let captureDeviceAccessRequest = API(
        "AVCaptureDevice.requestAccessForMediaType:completionHandler:", classes: ["AVCaptureDevice"],
        selectors: ["requestAccessForMediaType:completionHandler:"])

    /// The default capture device of a media type, in Objective-C.
    public static let captureDeviceDefault = API(
        "AVCaptureDevice.defaultDeviceWithMediaType:", classes: ["AVCaptureDevice"],
        selectors: ["defaultDeviceWithMediaType:"])

    /// The microphone's permission prompt in Objective-C (`AVAudioSession`, and `AVAudioApplication` from iOS 17).
    public static let recordPermissionRequest = API(
        "AVAudioSession.requestRecordPermission:", classes: ["AVAudioSession", "AVAudioApplication"],
        selectors: ["requestRecordPermission:", "requestRecordPermissionWithCompletionHandler:"])

    /// Photo library assets fetched, in Objective-C.
    public static let photoAssetFetch = API(
        "PHAsset.fetchAssetsWithMediaType:options:", classes: ["PHAsset"],
        selectors: ["fetchAssetsWithMediaType:options:", "fetchAssetsWithOptions:"])

    /// The class method that asks for the photo library, the media library, Apple Music or speech recognition, in Objective-C.
    public static let authorizationRequest = API(
        "PHPhotoLibrary.requestAuthorization:", classes: ["PHPhotoLibrary", "MPMediaLibrary", "SKCloudServiceController", "SFSpeechRecognizer"],
        selectors: ["requestAuthorization:"])

    /// The photo library asked for with an access level (read-write or add-only), in Objective-C.
    public static let photoLibraryAccessLevelRequest = API(
        "PHPhotoLibrary.requestAuthorizationForAccessLevel:handler:", classes: ["PHPhotoLibrary"],
        selectors: ["requestAuthorizationForAccessLevel:handler:"])

    /// An image added to the photo library, in Objective-C.
    public static let photoAssetCreation = API(
        "PHAssetChangeRequest.creationRequestForAssetFromImage:", classes: ["PHAssetChangeRequest"],
        selectors: ["creationRequestForAssetFromImage:"])

    /// Changes made to the photo library, in Objective-C.
    public static let photoLibraryChanges = API(
        "PHPhotoLibrary.performChanges:completionHandler:", classes: ["PHPhotoLibrary"],
        selectors: ["performChanges:completionHandler:"])

    /// The contact store's permission prompt, its reads and its saves, in Objective-C.
    public static let contactStoreAccess = API(
        "CNContactStore.requestAccessForEntityType:completionHandler:", classes: ["CNContactStore"],
        selectors: ["requestAccessForEntityType:completionHandler:", "enumerateContactsWithFetchRequest:error:usingBlock:",
                    "unifiedContactsMatchingPredicate:keysToFetch:error:", "unifiedContactWithIdentifier:keysToFetch:error:",
                    "executeSaveRequest:error:"])

    /// The event store's permission prompts (calendars in full or write-only, reminders, and the legacy prompt by entity type), in Objective-C.
    public static let eventStoreAccessRequest = API(
        "EKEventStore.requestFullAccessToEventsWithCompletion:", classes: ["EKEventStore"],
        selectors: ["requestFullAccessToEventsWithCompletion:", "requestWriteOnlyAccessToEventsWithCompletion:",
                    "requestFullAccessToRemindersWithCompletion:", "requestAccessToEntityType:completion:"])

    /// Events and calendars read from the event store, in Objective-C.
    public static let eventStoreRead = API(
        "EKEventStore.eventsMatchingPredicate:", classes: ["EKEventStore"],
        selectors: ["eventsMatchingPredicate:", "calendarsForEntityType:"])

    /// A region monitored by the location manager, in Objective-C.
    public static let regionMonitoring = API(
        "CLLocationManager.startMonitoringForRegion:", classes: ["CLLocationManager"],
        selectors: ["startMonitoringForRegion:"])

    /// Motion and fitness data read (activity, pedometer, altitude, recorded accelerometer), in Objective-C.
    public static let motionUpdates = API(
        "CMMotionActivityManager.startActivityUpdatesToQueue:withHandler:", classes: ["CMMotionActivityManager", "CMPedometer", "CMAltimeter", "CMSensorRecorder"],
        selectors: ["startActivityUpdatesToQueue:withHandler:", "queryActivityStartingFromDate:toDate:toQueue:withHandler:",
                    "startPedometerUpdatesFromDate:withHandler:", "queryPedometerDataFromDate:toDate:withHandler:",
                    "startRelativeAltitudeUpdatesToQueue:withHandler:", "recordAccelerometerForDuration:"])

    /// Health data asked for, in Objective-C.
    public static let healthAuthorizationRequest = API(
        "HKHealthStore.requestAuthorizationToShareTypes:readTypes:completion:", classes: ["HKHealthStore"],
        selectors: ["requestAuthorizationToShareTypes:readTypes:completion:"])

    /// A clinical health record type, in Objective-C.
    public static let healthClinicalType = API(
        "HKObjectType.clinicalTypeForIdentifier:", classes: ["HKObjectType"],
        selectors: ["clinicalTypeForIdentifier:"])

    /// Siri asked for, in Objective-C.
    public static let siriAuthorizationRequest = API(
        "INPreferences.requestSiriAuthorization:", classes: ["INPreferences"],
        selectors: ["requestSiriAuthorization:"])

    /// App tracking transparency's prompt, in Objective-C.
    public static let trackingAuthorizationRequest = API(
        "ATTrackingManager.requestTrackingAuthorizationWithCompletionHandler:", classes: ["ATTrackingManager"],
        selectors: ["requestTrackingAuthorizationWithCompletionHandler:"])

    /// Focus status asked for, in Objective-C.
    public static let focusStatusAuthorizationRequest = API(
        "INFocusStatusCenter.requestAuthorizationWithCompletionHandler:", classes: ["INFocusStatusCenter"],
        selectors: ["requestAuthorizationWithCompletionHandler:"])

    /// A nearby interaction session run, in Objective-C.
    public static let nearbyInteractionRun = API("NISession.runWithConfiguration:", classes: ["NISession"], selectors: ["runWithConfiguration:"])

    /// The Game Center friends list and its authorization status, in Objective-C.
    public static let gameCenterFriends = API(
        "GKLocalPlayer.loadFriends:", classes: ["GKLocalPlayer"],
        selectors: ["loadFriends:", "loadFriendsAuthorizationStatus:"])

    // MARK: File and disk facts (RequiredReasonAPITable, FileProtectionNoneRule)

    /// A file's attributes (timestamps among them) read, in Objective-C.
    public static let fileAttributesRead = API(
        "FileManager.attributesOfItemAtPath:error:", classes: ["FileManager", "NSFileManager"],
        selectors: ["attributesOfItemAtPath:error:"])

    /// A file's attributes (its protection among them) set, in Objective-C.
    public static let fileAttributesWrite = API(
        "FileManager.setAttributes:ofItemAtPath:error:", classes: ["FileManager", "NSFileManager"],
        selectors: ["setAttributes:ofItemAtPath:error:"])

    /// A file's status (timestamps among it) read by the C functions (the Swift names as Swift calls them).
    public static let fileStatusC = API(
        "stat", swift: ["stat(_:_:)", "fstat(_:_:)", "fstatat(_:_:_:_:)", "lstat(_:_:)"], cFunctions: ["stat", "fstat", "fstatat", "lstat"])

    /// A file's attribute list read by the C functions (the Swift names as Swift calls them).
    public static let fileAttributeListC = API(
        "getattrlist", swift: ["getattrlist(_:_:_:_:_:)", "getattrlistbulk(_:_:_:_:_:)", "fgetattrlist(_:_:_:_:_:)", "getattrlistat(_:_:_:_:_:_:)"],
        cFunctions: ["getattrlist", "getattrlistbulk", "fgetattrlist", "getattrlistat"])

    /// A file system's status (its free space among it) read by the C functions (the Swift names as Swift calls them).
    public static let fileSystemStatusC = API(
        "statfs", swift: ["statfs(_:_:)", "statvfs(_:_:)", "fstatfs(_:_:)", "fstatvfs(_:_:)"], cFunctions: ["statfs", "statvfs", "fstatfs", "fstatvfs"])

    // MARK: Values converted, built and enumerated (dataflow transfers and constants)

    /// A UUID parsed from a string, in Objective-C.
    public static let uuidFromString = API("NSUUID.initWithUUIDString:", classes: ["NSUUID"], selectors: ["initWithUUIDString:"])

    /// A number made from an integer, in Objective-C.
    public static let numberFromInteger = API(
        "NSNumber.numberWithInteger:", classes: ["NSNumber"],
        selectors: ["numberWithInteger:", "numberWithInt:"])

    /// The deprecated percent-escaping of a string (the current one is `percentEncoding`).
    public static let percentEscapesLegacy = API(
        "NSString.stringByAddingPercentEscapesUsingEncoding:", classes: ["NSString"],
        selectors: ["stringByAddingPercentEscapesUsingEncoding:"])

    /// A string escaped for a regular expression's pattern or template.
    public static let regularExpressionEscape = API(
        "NSRegularExpression.escapedPattern(for:)", classes: ["NSRegularExpression"],
        swift: ["escapedPattern(for:)", "escapedTemplate(for:)"],
        selectors: ["escapedPatternForString:", "escapedTemplateForString:"])

    /// A path joined from components, in Objective-C.
    public static let pathFromComponents = API("NSString.pathWithComponents:", classes: ["NSString"], selectors: ["pathWithComponents:"])

    /// A mutable string appended to.
    public static let mutableStringAppend = API(
        "NSMutableString.appendString:", classes: ["NSMutableString"],
        selectors: ["appendString:", "appendFormat:"])

    /// Mutable data appended to.
    public static let mutableDataAppend = API(
        "NSMutableData.appendData:", classes: ["NSMutableData"],
        selectors: ["appendData:", "appendBytes:length:"])

    /// A mutable dictionary given another's entries.
    public static let dictionaryMerge = API(
        "NSMutableDictionary.addEntriesFromDictionary:", classes: ["NSMutableDictionary"],
        selectors: ["addEntriesFromDictionary:"])

    /// An object inserted into a mutable array.
    public static let arrayInsert = API("NSMutableArray.insertObject:atIndex:", classes: ["NSMutableArray"], selectors: ["insertObject:atIndex:"])

    /// An array's element read by index, in Objective-C.
    public static let arrayElementRead = API("NSArray.objectAtIndex:", classes: ["NSArray"], selectors: ["objectAtIndex:"])

    /// A collection's elements passed to a block, in Objective-C.
    public static let collectionEnumeration = API(
        "NSArray.enumerateObjectsUsingBlock:", classes: ["NSArray", "NSDictionary", "NSSet"],
        selectors: ["enumerateObjectsUsingBlock:", "enumerateKeysAndObjectsUsingBlock:", "indexOfObjectPassingTest:",
                    "objectsPassingTest:", "enumerateObjectsWithOptions:usingBlock:"])

    /// A dictionary or an array made from the objects given, in Objective-C.
    public static let collectionFromObjects = API(
        "NSDictionary.dictionaryWithObject:forKey:", classes: ["NSDictionary", "NSArray"],
        selectors: ["dictionaryWithObject:forKey:", "dictionaryWithObjectsAndKeys:", "arrayWithObjects:", "arrayWithObject:"])

    /// A set or an array made from a C array of objects.
    public static let collectionFromCArray = API(
        "NSSet.setWithObjects:count:", classes: ["NSSet", "NSArray"],
        selectors: ["setWithObjects:count:", "initWithObjects:count:", "arrayWithObjects:count:"])

    /// A set made from another and one more object.
    public static let setAddingObject = API("NSSet.setByAddingObject:", classes: ["NSSet"], selectors: ["setByAddingObject:"])

    /// A collection asked whether it holds an object.
    public static let collectionContains = API("NSArray.containsObject:", classes: ["NSArray", "NSSet"], selectors: ["containsObject:"])

    /// An array's strings joined into one.
    public static let componentsJoined = API("NSArray.componentsJoinedByString:", classes: ["NSArray"], selectors: ["componentsJoinedByString:"])

    /// A string decoded from data.
    public static let stringFromData = API("NSString.initWithData:encoding:", classes: ["NSString"], selectors: ["initWithData:encoding:"])

    /// A string copied.
    public static let stringCopy = API("NSString.stringWithString:", classes: ["NSString"], selectors: ["stringWithString:"])

    /// A string formatted in the user's locale (the plain form is `stringFormat`).
    public static let localizedStringFormat = API(
        "NSString.localizedStringWithFormat:", classes: ["NSString"],
        selectors: ["localizedStringWithFormat:"])

    /// A string made from a C string (which it only reads).
    public static let stringFromCString = API(
        "NSString.stringWithUTF8String:", classes: ["NSString"],
        selectors: ["stringWithUTF8String:", "initWithUTF8String:", "stringWithCString:encoding:"])

    /// Data wrapped around bytes without copying them (which it only reads).
    public static let dataWithoutCopy = API(
        "NSData.dataWithBytesNoCopy:length:", classes: ["NSData"],
        selectors: ["dataWithBytesNoCopy:length:", "dataWithBytesNoCopy:length:freeWhenDone:", "initWithBytesNoCopy:length:freeWhenDone:"])

    /// Data decoded from Base64, in Objective-C.
    public static let dataFromBase64 = API(
        "NSData.initWithBase64EncodedString:options:", classes: ["NSData"],
        selectors: ["initWithBase64EncodedString:options:"])

    /// An object graph archived into data, in Objective-C.
    public static let keyedArchiverArchive = API(
        "NSKeyedArchiver.archivedDataWithRootObject:", classes: ["NSKeyedArchiver"],
        selectors: ["archivedDataWithRootObject:", "archivedDataWithRootObject:requiringSecureCoding:error:"])

    /// A property list serialized into data, in Objective-C.
    public static let propertyListWrite = API(
        "NSPropertyListSerialization.dataWithPropertyList:format:options:error:", classes: ["PropertyListSerialization", "NSPropertyListSerialization"],
        selectors: ["dataFromPropertyList:format:options:error:", "dataWithPropertyList:format:options:error:"])

    /// A string compared with another, in Objective-C.
    public static let stringComparison = API(
        "NSString.isEqualToString:", classes: ["NSString"],
        selectors: ["isEqualToString:", "hasPrefix:", "hasSuffix:", "containsString:", "caseInsensitiveCompare:", "compare:"])

    /// An object asked whether it is of a class.
    public static let classMembershipCheck = API("NSObject.isKindOfClass:", classes: ["NSObject"], selectors: ["isKindOfClass:", "isMemberOfClass:"])

    /// An object or a class asked whether it responds to a selector.
    public static let selectorResponseCheck = API(
        "NSObject.respondsToSelector:", classes: ["NSObject"],
        selectors: ["respondsToSelector:", "instancesRespondToSelector:"])

    /// Key-value coding: a property set by key path.
    public static let keyPathValueWrite = API("NSObject.setValue:forKeyPath:", classes: ["NSObject"], selectors: ["setValue:forKeyPath:"])

    // MARK: Sensitive writes (dataflow sinks)

    /// Data written through a file handle.
    public static let fileHandleWriteData = API(
        "FileHandle.write(_:)", classes: ["FileHandle", "NSFileHandle"],
        selectors: ["writeData:", "writeData:error:"])

    /// A Core Data object's attribute set by name, in Swift (the Objective-C selector is `keyValueCodingWrite`'s).
    public static let managedObjectValueWrite = API(
        "NSManagedObject.setValue(_:forKey:)", classes: ["NSManagedObject"],
        swift: ["setValue(_:forKey:)"])

    /// FMDB: an SQL update executed, with its arguments.
    public static let fmdbUpdate = API(
        "FMDatabase.executeUpdate", classes: ["FMDatabase"],
        selectors: ["executeUpdate:", "executeUpdate:withArgumentsInArray:", "executeUpdate:values:error:",
                    "executeUpdate:withParameterDictionary:", "executeUpdateWithFormat:"])

    /// YapDatabase: an object stored by key in a collection.
    public static let yapDatabaseWrite = API(
        "YapDatabaseReadWriteTransaction.setObject:forKey:inCollection:", classes: ["YapDatabaseReadWriteTransaction"],
        selectors: ["setObject:forKey:inCollection:", "setObject:forKey:inCollection:withMetadata:"])

    /// The Disk library: a value saved to a file.
    public static let diskSave = API("Disk.save(_:to:as:)", classes: ["Disk"], swift: ["save(_:to:as:)"])

    /// A string put on a macOS pasteboard by type.
    public static let macPasteboardWriteByType = API(
        "NSPasteboard.setString(_:forType:)", classes: ["NSPasteboard"],
        swift: ["setString(_:forType:)"],
        selectors: ["setString:forType:"])

    /// A URL query item made from a name and a value.
    public static let queryItemCreation = API(
        "URLQueryItem(name:value:)", classes: ["URLQueryItem", "NSURLQueryItem"],
        swift: ["URLQueryItem(name:value:)"],
        selectors: ["queryItemWithName:value:", "initWithName:value:"])

    /// A view controller shown by navigation (pushed, shown, shown as detail, set as the stack), in Objective-C;
    /// presentation is `viewControllerPresentation`.
    public static let viewControllerNavigation = API(
        "UINavigationController.pushViewController:animated:", classes: ["UINavigationController", "UIViewController", "UISplitViewController"],
        selectors: ["pushViewController:animated:", "showViewController:sender:", "showDetailViewController:sender:",
                    "setViewControllers:animated:"])

    /// The general pasteboard's item providers set as a property, by setter.
    public static let pasteboardItemProvidersSetter = API(
        "UIPasteboard.itemProviders (set)", classes: ["UIPasteboard"],
        selectors: ["setItemProviders:"])

    // MARK: XML parsing (dataflow sources)

    /// The XML parser delegate's callbacks that hand over the document's content (the Swift names in the order of their selectors).
    public static let xmlParserDelegateCallbacks = API(
        "XMLParserDelegate.parser(_:foundCharacters:)", classes: ["XMLParserDelegate", "NSXMLParserDelegate"],
        swift: ["parser(_:foundCharacters:)", "parser(_:didStartElement:namespaceURI:qualifiedName:attributes:)",
                    "parser(_:didEndElement:namespaceURI:qualifiedName:)", "parser(_:foundCDATA:)"],
        selectors: ["parser:foundCharacters:", "parser:didStartElement:namespaceURI:qualifiedName:attributes:",
                    "parser:didEndElement:namespaceURI:qualifiedName:", "parser:foundCDATA:"])

    /// An XML parser's delegate set, by setter.
    public static let xmlParserDelegateSetter = API("XMLParser.delegate (set)", classes: ["XMLParser", "NSXMLParser"], selectors: ["setDelegate:"])

    // MARK: TLS, pinning and databases (rules)

    /// A credential made from a server trust, in Objective-C.
    public static let serverTrustCredential = API(
        "URLCredential(trust:)", classes: ["URLCredential", "NSURLCredential"],
        selectors: ["credentialForTrust:", "initWithTrust:"])

    /// The private API that turns certificate validation off for a host.
    public static let allowAnyHTTPSCertificate = API(
        "NSURLRequest.setAllowsAnyHTTPSCertificate:forHost:", classes: ["NSURLRequest"],
        selectors: ["setAllowsAnyHTTPSCertificate:forHost:"])

    /// TrustKit's shared instance set up with a pinning configuration.
    public static let trustKitInit = API(
        "TrustKit.initSharedInstanceWithConfiguration:", classes: ["TrustKit"],
        selectors: ["initSharedInstanceWithConfiguration:"])

    /// AFNetworking's security policy made with a pinning mode.
    public static let afSecurityPolicyPinning = API(
        "AFSecurityPolicy.policyWithPinningMode:", classes: ["AFSecurityPolicy"],
        selectors: ["policyWithPinningMode:", "policyWithPinningMode:withPinnedCertificates:"])

    /// A Realm opened, in Objective-C, with a configuration or at a file URL.
    public static let realmOpenObjC = API(
        "RLMRealm.realmWithConfiguration:error:", classes: ["RLMRealm"],
        selectors: ["realmWithConfiguration:error:", "realmWithURL:"])

    /// Realm's default configuration replaced, in Objective-C.
    public static let realmDefaultConfigurationSet = API(
        "RLMRealmConfiguration.setDefaultConfiguration:", classes: ["RLMRealmConfiguration"],
        selectors: ["setDefaultConfiguration:"])

    /// A Core Data container made from a model name, in Objective-C.
    public static let persistentContainerCreation = API(
        "NSPersistentContainer.persistentContainerWithName:", classes: ["NSPersistentContainer"],
        selectors: ["persistentContainerWithName:", "initWithName:", "initWithName:managedObjectModel:"])

    /// The APIs of this file, for `APIs.all`.
    static let remaining: [API] = [
        captureDeviceAccessRequest, captureDeviceDefault, recordPermissionRequest, photoAssetFetch, authorizationRequest,
        photoLibraryAccessLevelRequest, photoAssetCreation, photoLibraryChanges, contactStoreAccess, eventStoreAccessRequest,
        eventStoreRead, regionMonitoring, motionUpdates, healthAuthorizationRequest, healthClinicalType,
        siriAuthorizationRequest, trackingAuthorizationRequest, focusStatusAuthorizationRequest, nearbyInteractionRun,
        gameCenterFriends, fileAttributesRead, fileAttributesWrite, fileStatusC, fileAttributeListC, fileSystemStatusC,
        uuidFromString, numberFromInteger, percentEscapesLegacy, regularExpressionEscape, pathFromComponents,
        mutableStringAppend, mutableDataAppend, dictionaryMerge, arrayInsert, arrayElementRead, collectionEnumeration,
        collectionFromObjects, collectionFromCArray, setAddingObject, collectionContains, componentsJoined, stringFromData,
        stringCopy, localizedStringFormat, stringFromCString, dataWithoutCopy, dataFromBase64, keyedArchiverArchive,
        propertyListWrite, stringComparison, classMembershipCheck, selectorResponseCheck, keyPathValueWrite, fileHandleWriteData,
        managedObjectValueWrite, fmdbUpdate, yapDatabaseWrite, diskSave, macPasteboardWriteByType, queryItemCreation,
        viewControllerNavigation, pasteboardItemProvidersSetter, xmlParserDelegateCallbacks, xmlParserDelegateSetter,
        serverTrustCredential, allowAnyHTTPSCertificate, trustKitInit, afSecurityPolicyPinning, realmOpenObjC,
        realmDefaultConfigurationSet, persistentContainerCreation,
    ]
}
