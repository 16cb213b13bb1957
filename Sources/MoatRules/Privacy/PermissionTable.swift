import MoatCore

/// A privacy usage description key Apple documents for Info.plist.
public struct PrivacyUsageKey: Sendable, Hashable {
    public var key: String
    /// What the user is asked for: "the camera", "the photo library (add only)".
    public var resource: String
    /// Words a purpose string uses to name the resource; a string made only of these and filler words
    /// says what, not why.
    public var words: [String]
    /// Replaced by a newer key (the old one may still be required for older systems).
    public var isLegacy: Bool
    /// A dictionary of purpose strings (`NSLocationTemporaryUsageDescriptionDictionary`), not a string.
    public var isDictionary: Bool

    public init(_ key: String, _ resource: String, words: [String], isLegacy: Bool = false, isDictionary: Bool = false) {
        self.key = key
        self.resource = resource
        self.words = words
        self.isLegacy = isLegacy
        self.isDictionary = isDictionary
    }
}

/// A protected resource and the code that needs or shows its permission.
public struct Permission: Sendable {
    /// Short id: `camera`, `location-always`.
    public var id: String
    public var resource: String
    /// Keys any one of which lets the `requests` work (a newer key and its legacy form, for instance).
    public var satisfyingKeys: [String]
    /// Keys that are over-asked when none of `requests` and `uses` appears in the app's code.
    public var ownKeys: [String]
    /// Calls that make iOS ask the user (or access the data) and need a usage description: with none of
    /// `satisfyingKeys` the app is terminated or denied, and Apple requires the key (ITMS-90683).
    public var requests: [APIClause]
    /// Other signs the resource is used (types, delegate callbacks); together with `requests` they decide
    /// whether a declared key is used at all.
    public var uses: [APIClause]
    /// What happens when a request is made without the key.
    public var consequence: String
    public var missingSeverity: Severity
    /// False where the code that needs the key cannot be recognized by name reliably (local network
    /// traffic, say): such keys are never called unused.
    public var checksUnused: Bool
    /// The platforms whose apps need the key (Apple's documentation of the key); a unit building for none
    /// of them is not asked for it.
    public var platforms: Set<ApplePlatform>

    public init(id: String, resource: String, satisfyingKeys: [String], ownKeys: [String]? = nil, requests: [APIClause],
                uses: [APIClause] = [], consequence: String = crash, missingSeverity: Severity = .high, checksUnused: Bool = true,
                platforms: Set<ApplePlatform> = Set(ApplePlatform.allCases)) {
        self.id = id
        self.resource = resource
        self.satisfyingKeys = satisfyingKeys
        self.ownKeys = ownKeys ?? satisfyingKeys
        self.requests = requests
        self.uses = uses
        self.consequence = consequence
        self.missingSeverity = missingSeverity
        self.checksUnused = checksUnused
        self.platforms = platforms
    }

    public static let crash = "iOS terminates the app when it accesses the resource without a purpose string, and Apple requires the key of every app whose code uses the API (ITMS-90683)"
}

/// The one table of privacy permissions: usage description keys, and the Swift and Objective-C APIs that
/// need them (type names, Swift base and full names, Objective-C selectors, C functions and constants).
/// Source rules read it through `SourceSummary.referencedNames`; binary analysis can match the same names
/// against imported symbols and selector references with `APIClause.matches(names:)`.
public enum PermissionTable {
    public static let usageKeys: [PrivacyUsageKey] = [
        PrivacyUsageKey("NSCameraUsageDescription", "the camera", words: ["camera", "cameras", "video"]),
        PrivacyUsageKey("NSMicrophoneUsageDescription", "the microphone", words: ["microphone", "mic", "audio", "record", "recording"]),
        PrivacyUsageKey("NSPhotoLibraryUsageDescription", "the photo library", words: ["photo", "photos", "library", "pictures", "images", "gallery", "camera", "roll"]),
        PrivacyUsageKey("NSPhotoLibraryAddUsageDescription", "the photo library (add only)", words: ["photo", "photos", "library", "pictures", "images", "gallery", "save", "add", "camera", "roll"]),
        PrivacyUsageKey("NSContactsUsageDescription", "contacts", words: ["contacts", "contact", "address", "book"]),
        PrivacyUsageKey("NSCalendarsFullAccessUsageDescription", "calendars (full access)", words: ["calendar", "calendars", "events", "event"]),
        PrivacyUsageKey("NSCalendarsWriteOnlyAccessUsageDescription", "calendars (write only)", words: ["calendar", "calendars", "events", "event", "add", "write"]),
        PrivacyUsageKey("NSCalendarsUsageDescription", "calendars", words: ["calendar", "calendars", "events", "event"], isLegacy: true),
        PrivacyUsageKey("NSRemindersFullAccessUsageDescription", "reminders (full access)", words: ["reminders", "reminder"]),
        PrivacyUsageKey("NSRemindersUsageDescription", "reminders", words: ["reminders", "reminder"], isLegacy: true),
        PrivacyUsageKey("NSLocationWhenInUseUsageDescription", "location while the app is in use", words: ["location", "position", "gps", "where"]),
        PrivacyUsageKey("NSLocationAlwaysAndWhenInUseUsageDescription", "location at all times", words: ["location", "position", "gps", "where", "always", "background"]),
        PrivacyUsageKey("NSLocationAlwaysUsageDescription", "location at all times", words: ["location", "position", "gps", "where", "always", "background"], isLegacy: true),
        PrivacyUsageKey("NSLocationUsageDescription", "location", words: ["location", "position", "gps", "where"], isLegacy: true),
        PrivacyUsageKey("NSLocationTemporaryUsageDescriptionDictionary", "temporary full-accuracy location", words: ["location", "precise", "accuracy"], isDictionary: true),
        PrivacyUsageKey("NSMotionUsageDescription", "motion and fitness activity", words: ["motion", "fitness", "activity", "steps", "sensors"]),
        PrivacyUsageKey("NSBluetoothAlwaysUsageDescription", "Bluetooth", words: ["bluetooth", "ble", "devices", "accessories"]),
        PrivacyUsageKey("NSBluetoothPeripheralUsageDescription", "Bluetooth peripherals", words: ["bluetooth", "ble", "devices", "peripherals", "accessories"], isLegacy: true),
        PrivacyUsageKey("NSLocalNetworkUsageDescription", "the local network", words: ["local", "network", "lan", "wifi", "wi-fi", "devices"]),
        PrivacyUsageKey("NSHealthShareUsageDescription", "reading Health data", words: ["health", "healthkit", "read", "share", "data"]),
        PrivacyUsageKey("NSHealthUpdateUsageDescription", "writing Health data", words: ["health", "healthkit", "write", "save", "data"]),
        PrivacyUsageKey("NSHealthClinicalHealthRecordsShareUsageDescription", "clinical health records", words: ["health", "clinical", "records", "medical", "share", "data"]),
        PrivacyUsageKey("NSHomeKitUsageDescription", "HomeKit home data", words: ["homekit", "home", "accessories"]),
        PrivacyUsageKey("NSAppleMusicUsageDescription", "the media library and Apple Music", words: ["music", "media", "library", "songs", "apple"]),
        PrivacyUsageKey("NSSpeechRecognitionUsageDescription", "speech recognition", words: ["speech", "recognition", "voice", "dictation"]),
        PrivacyUsageKey("NSFaceIDUsageDescription", "Face ID", words: ["face", "id", "faceid", "biometrics", "biometric"]),
        PrivacyUsageKey("NFCReaderUsageDescription", "the NFC reader", words: ["nfc", "tags", "tag", "reader", "read"]),
        PrivacyUsageKey("NSSiriUsageDescription", "Siri", words: ["siri"]),
        PrivacyUsageKey("NSUserTrackingUsageDescription", "tracking across other companies' apps and websites", words: ["track", "tracking", "advertising", "ads", "idfa"]),
        PrivacyUsageKey("NSFocusStatusUsageDescription", "Focus status", words: ["focus", "status"]),
        PrivacyUsageKey("NSNearbyInteractionUsageDescription", "nearby interaction", words: ["nearby", "interaction", "devices"]),
        PrivacyUsageKey("NSNearbyInteractionAllowOnceUsageDescription", "nearby interaction (once)", words: ["nearby", "interaction", "devices"], isLegacy: true),
        PrivacyUsageKey("NSIdentityUsageDescription", "identity documents in Wallet", words: ["identity", "id", "license", "wallet"]),
        PrivacyUsageKey("NSSensorKitUsageDescription", "SensorKit research data", words: ["sensor", "sensors", "research", "data"]),
        PrivacyUsageKey("NSGKFriendListUsageDescription", "the Game Center friends list", words: ["game", "center", "friends"]),
        PrivacyUsageKey("NSVideoSubscriberAccountUsageDescription", "the TV provider account", words: ["tv", "provider", "account", "subscription"]),
        PrivacyUsageKey("NSFallDetectionUsageDescription", "fall detection", words: ["fall", "detection"]),
    ]

    static let keysByName: [String: PrivacyUsageKey] = Dictionary(usageKeys.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })

    public static func usageKey(_ key: String) -> PrivacyUsageKey? { keysByName[key] }

    /// Whether an Info.plist key is a privacy usage description (documented, or shaped like one).
    public static func isUsageKey(_ key: String) -> Bool {
        keysByName[key] != nil || (key.hasSuffix("UsageDescription") && key.count > "UsageDescription".count)
    }

    public static let permissions: [Permission] = [
        Permission(
            id: "camera", resource: "the camera", satisfyingKeys: ["NSCameraUsageDescription"],
            requests: [
                APIClause("requestAccess", "AVCaptureDevice", "video"),
                APIClause(APIs.captureDeviceAccessRequest.selectors[0], "AVCaptureDevice", "AVMediaTypeVideo"),
                APIClause("default", "AVCaptureDevice", "video"),
                APIClause(APIs.captureDeviceDefault.selectors[0], "AVCaptureDevice", "AVMediaTypeVideo"),
                APIClause("builtInWideAngleCamera", "AVCaptureDevice"),
                APIClause("AVCaptureDeviceTypeBuiltInWideAngleCamera", "AVCaptureDevice"),
                APIClause("camera", "UIImagePickerController", "sourceType"),
                APIClause("UIImagePickerControllerSourceTypeCamera", "UIImagePickerController"),
                APIClause("VNDocumentCameraViewController"),
                APIClause("DataScannerViewController"),
                APIClause("AVCapturePhotoOutput"),
                APIClause("ARSession"), APIClause("ARSCNView"), APIClause("ARView"),
            ],
            uses: [APIClause("AVCaptureDevice"), APIClause("AVCaptureSession"), APIClause("AVCaptureVideoPreviewLayer"),
                   APIClause("AVCaptureMetadataOutput"), APIClause("UIImagePickerController"), APIClause("CameraPicker")]),
        Permission(
            id: "microphone", resource: "the microphone", satisfyingKeys: ["NSMicrophoneUsageDescription"],
            requests: [
                APIClause("requestRecordPermission"),
                APIClause(APIs.recordPermissionRequest.selectors[0]),
                APIClause(APIs.recordPermissionRequest.selectors[1]),
                APIClause("AVAudioRecorder"),
                APIClause("requestAccess", "AVCaptureDevice", "audio"),
                APIClause(APIs.captureDeviceAccessRequest.selectors[0], "AVCaptureDevice", "AVMediaTypeAudio"),
                APIClause("inputNode", "AVAudioEngine"),
            ],
            uses: [APIClause("AVAudioSession", "playAndRecord"), APIClause("AVAudioSession", "record"),
                   APIClause("AVAudioSessionCategoryPlayAndRecord"), APIClause("AVAudioSessionCategoryRecord"),
                   APIClause("recordPermission"), APIClause("AVAudioEngine"), APIClause("AVCaptureDevice"),
                   APIClause("AVCaptureSession"), APIClause("SFSpeechAudioBufferRecognitionRequest"),
                   APIClause("UIImagePickerController", "camera"), APIClause("UIImagePickerControllerSourceTypeCamera")]),
        Permission(
            id: "photos", resource: "the photo library", satisfyingKeys: ["NSPhotoLibraryUsageDescription"],
            requests: [
                APIClause("fetchAssets", "PHAsset"),
                APIClause(APIs.photoAssetFetch.selectors[0], "PHAsset"),
                APIClause(APIs.photoAssetFetch.selectors[1], "PHAsset"),
                APIClause("fetchAssetCollections", "PHAssetCollection"),
                APIClause("requestAuthorization", "PHPhotoLibrary", unless: ["addOnly"]),
                APIClause(APIs.authorizationRequest.selectors[0], "PHPhotoLibrary"),
                APIClause(APIs.photoLibraryAccessLevelRequest.selectors[0], "PHPhotoLibrary", "PHAccessLevelReadWrite"),
                APIClause("ALAssetsLibrary"),
            ],
            uses: [APIClause("PHAsset"), APIClause("PHFetchResult"), APIClause("PHImageManager"), APIClause("PHCachingImageManager"),
                   APIClause("PHPhotoLibrary", unless: ["addOnly"]), APIClause("PHPhotoLibrary", "readWrite"),
                   APIClause("PHAssetCollection")]),
        Permission(
            id: "photos-add", resource: "the photo library (add only)",
            satisfyingKeys: ["NSPhotoLibraryAddUsageDescription", "NSPhotoLibraryUsageDescription"],
            ownKeys: ["NSPhotoLibraryAddUsageDescription"],
            requests: [
                APIClause("UIImageWriteToSavedPhotosAlbum"),
                APIClause("UISaveVideoAtPathToSavedPhotosAlbum"),
                APIClause("creationRequestForAsset", "PHAssetChangeRequest"),
                APIClause("creationRequestForAssetFromImage", "PHAssetChangeRequest"),
                APIClause(APIs.photoAssetCreation.selectors[0], "PHAssetChangeRequest"),
                APIClause("forAsset", "PHAssetCreationRequest"),
                APIClause("creationRequestForAsset", "PHAssetCreationRequest"),
                APIClause("requestAuthorization", "PHPhotoLibrary", "addOnly"),
                APIClause(APIs.photoLibraryAccessLevelRequest.selectors[0], "PHPhotoLibrary", "PHAccessLevelAddOnly"),
            ],
            uses: [APIClause("PHAssetChangeRequest"), APIClause("PHAssetCreationRequest"), APIClause("performChanges"),
                   APIClause(APIs.photoLibraryChanges.selectors[0])]),
        Permission(
            id: "contacts", resource: "contacts", satisfyingKeys: ["NSContactsUsageDescription"],
            requests: [APIClause("requestAccess", "CNContactStore"), APIClause(APIs.contactStoreAccess.selectors[0], "CNContactStore"),
                       APIClause("enumerateContacts", "CNContactStore"), APIClause(APIs.contactStoreAccess.selectors[1]),
                       APIClause("unifiedContacts", "CNContactStore"), APIClause(APIs.contactStoreAccess.selectors[2]),
                       APIClause("unifiedContact", "CNContactStore"), APIClause(APIs.contactStoreAccess.selectors[3]),
                       APIClause("execute", "CNContactStore", "CNSaveRequest"), APIClause(APIs.contactStoreAccess.selectors[4]),
                       APIClause("ABAddressBookCreateWithOptions"), APIClause("ABAddressBookRequestAccessWithCompletion")],
            uses: [APIClause("CNContactStore"), APIClause("CNContactFetchRequest"), APIClause("CNSaveRequest"), APIClause("ABAddressBookRef")]),
        Permission(
            id: "calendars", resource: "calendars",
            satisfyingKeys: ["NSCalendarsFullAccessUsageDescription", "NSCalendarsUsageDescription", "NSCalendarsWriteOnlyAccessUsageDescription"],
            ownKeys: ["NSCalendarsFullAccessUsageDescription", "NSCalendarsUsageDescription"],
            requests: [
                APIClause("requestFullAccessToEvents", "EKEventStore"),
                APIClause(APIs.eventStoreAccessRequest.selectors[0], "EKEventStore"),
                APIClause("requestAccess", "EKEventStore", "event"),
                APIClause(APIs.eventStoreAccessRequest.selectors[3], "EKEventStore", "EKEntityTypeEvent"),
            ],
            uses: [APIClause("events", "EKEventStore"), APIClause(APIs.eventStoreRead.selectors[0], "EKEventStore"),
                   APIClause("calendars", "EKEventStore"), APIClause(APIs.eventStoreRead.selectors[1], "EKEventStore"),
                   APIClause("predicateForEvents", "EKEventStore"), APIClause("EKEventStore", "event"),
                   APIClause("EKEventStore", "EKEntityTypeEvent")]),
        Permission(
            id: "calendars-write", resource: "calendars (write only)",
            satisfyingKeys: ["NSCalendarsWriteOnlyAccessUsageDescription", "NSCalendarsFullAccessUsageDescription", "NSCalendarsUsageDescription"],
            ownKeys: ["NSCalendarsWriteOnlyAccessUsageDescription"],
            requests: [APIClause("requestWriteOnlyAccessToEvents", "EKEventStore"),
                       APIClause(APIs.eventStoreAccessRequest.selectors[1], "EKEventStore")],
            uses: [APIClause("EKEventStore"), APIClause("EKEvent")]),
        Permission(
            id: "reminders", resource: "reminders",
            satisfyingKeys: ["NSRemindersFullAccessUsageDescription", "NSRemindersUsageDescription"],
            requests: [
                APIClause("requestFullAccessToReminders", "EKEventStore"),
                APIClause(APIs.eventStoreAccessRequest.selectors[2], "EKEventStore"),
                APIClause("requestAccess", "EKEventStore", "reminder"),
                APIClause(APIs.eventStoreAccessRequest.selectors[3], "EKEventStore", "EKEntityTypeReminder"),
            ],
            uses: [APIClause("EKReminder"), APIClause("EKEventStore", "reminder"), APIClause("EKEventStore", "EKEntityTypeReminder")]),
        Permission(
            id: "location", resource: "location while in use",
            satisfyingKeys: ["NSLocationWhenInUseUsageDescription"],
            ownKeys: ["NSLocationWhenInUseUsageDescription", "NSLocationUsageDescription"],
            requests: [APIClause("requestWhenInUseAuthorization", "CLLocationManager"),
                       APIClause("requestAlwaysAuthorization", "CLLocationManager")],
            uses: [APIClause("CLLocationManager"), APIClause("CLLocationButton"), APIClause("LocationButton"), APIClause("CLMonitor"),
                   APIClause("CLServiceSession"), APIClause("CLLocationUpdate"), APIClause("MKUserTrackingButton"),
                   APIClause("showsUserLocation"), APIClause("UserAnnotation"), APIClause("userTrackingMode")],
            consequence: "without it iOS ignores the authorization request, so the app never gets location; Apple requires the key of every app that asks for location"),
        Permission(
            id: "location-always", resource: "location at all times",
            satisfyingKeys: ["NSLocationAlwaysAndWhenInUseUsageDescription", "NSLocationAlwaysUsageDescription"],
            requests: [APIClause("requestAlwaysAuthorization", "CLLocationManager")],
            uses: [APIClause("startMonitoringSignificantLocationChanges"), APIClause("startMonitoringVisits"),
                   APIClause("startMonitoring", "CLCircularRegion"), APIClause(APIs.regionMonitoring.selectors[0]),
                   APIClause("allowsBackgroundLocationUpdates"), APIClause("CLMonitor"), APIClause("CLBackgroundActivitySession"),
                   APIClause("CLServiceSession", "always")],
            consequence: "without it iOS ignores the request for Always authorization; Apple requires the key of every app that asks for it"),
        Permission(
            id: "motion", resource: "motion and fitness activity", satisfyingKeys: ["NSMotionUsageDescription"],
            requests: [APIClause("startActivityUpdates", "CMMotionActivityManager"), APIClause("queryActivityStarting", "CMMotionActivityManager"),
                       APIClause(APIs.motionUpdates.selectors[0]), APIClause(APIs.motionUpdates.selectors[1]),
                       APIClause("startUpdates", "CMPedometer"), APIClause("queryPedometerData", "CMPedometer"),
                       APIClause(APIs.motionUpdates.selectors[2]), APIClause(APIs.motionUpdates.selectors[3]),
                       APIClause("startRelativeAltitudeUpdates", "CMAltimeter"), APIClause(APIs.motionUpdates.selectors[4]),
                       APIClause("recordAccelerometer", "CMSensorRecorder"), APIClause(APIs.motionUpdates.selectors[5])],
            uses: [APIClause("CMMotionActivityManager"), APIClause("CMPedometer"), APIClause("CMAltimeter"), APIClause("CMSensorRecorder"),
                   APIClause("CMMotionActivity"), APIClause("CMPedometerData")]),
        Permission(
            id: "bluetooth", resource: "Bluetooth",
            satisfyingKeys: ["NSBluetoothAlwaysUsageDescription"],
            ownKeys: ["NSBluetoothAlwaysUsageDescription", "NSBluetoothPeripheralUsageDescription"],
            requests: [APIClause("CBCentralManager"), APIClause("CBPeripheralManager")],
            uses: [APIClause("CBPeripheral"), APIClause("CBManager"), APIClause("ASAccessorySession")]),
        Permission(
            id: "local-network", resource: "the local network", satisfyingKeys: ["NSLocalNetworkUsageDescription"],
            requests: [APIClause("NWBrowser"), APIClause("NetServiceBrowser"), APIClause("NSNetServiceBrowser"),
                       APIClause("MCNearbyServiceBrowser"), APIClause("MCNearbyServiceAdvertiser"), APIClause("MCAdvertiserAssistant"),
                       APIClause("MCBrowserViewController")],
            consequence: "iOS then shows a generic local network prompt that does not say why the app needs it",
            // NSLocalNetworkUsageDescription: iOS, iPadOS, macOS, tvOS and visionOS; watchOS has no such prompt.
            missingSeverity: .low, checksUnused: false, platforms: [.iOS, .macOS, .tvOS, .visionOS]),
        Permission(
            id: "health", resource: "Health data",
            satisfyingKeys: ["NSHealthShareUsageDescription", "NSHealthUpdateUsageDescription"],
            requests: [APIClause("requestAuthorization", "HKHealthStore"),
                       APIClause(APIs.healthAuthorizationRequest.selectors[0], "HKHealthStore")],
            uses: [APIClause("HKHealthStore"), APIClause("HKQuantityType"), APIClause("HKSampleQuery"), APIClause("healthDataAccessRequest")]),
        Permission(
            id: "health-records", resource: "clinical health records",
            satisfyingKeys: ["NSHealthClinicalHealthRecordsShareUsageDescription"],
            requests: [APIClause("clinicalType", "HKObjectType"), APIClause("HKClinicalType"),
                       APIClause(APIs.healthClinicalType.selectors[0], "HKObjectType")],
            uses: [APIClause("HKClinicalRecord"), APIClause("HKFHIRResource")]),
        Permission(
            id: "homekit", resource: "HomeKit home data", satisfyingKeys: ["NSHomeKitUsageDescription"],
            requests: [APIClause("HMHomeManager")], uses: [APIClause("HMHome"), APIClause("HMAccessory")]),
        Permission(
            id: "media-library", resource: "the media library and Apple Music", satisfyingKeys: ["NSAppleMusicUsageDescription"],
            requests: [APIClause("requestAuthorization", "MPMediaLibrary"), APIClause(APIs.authorizationRequest.selectors[0], "MPMediaLibrary"),
                       APIClause("MPMediaQuery"), APIClause("MPMediaPickerController"),
                       APIClause("requestAuthorization", "SKCloudServiceController"),
                       APIClause(APIs.authorizationRequest.selectors[0], "SKCloudServiceController"),
                       APIClause("request", "MusicAuthorization")],
            uses: [APIClause("MPMediaLibrary"), APIClause("MPMediaItem"), APIClause("SKCloudServiceController"),
                   APIClause("MusicAuthorization"), APIClause("MusicCatalogSearchRequest"), APIClause("MusicLibraryRequest"),
                   APIClause("systemMusicPlayer", "MPMusicPlayerController")]),
        Permission(
            id: "speech", resource: "speech recognition", satisfyingKeys: ["NSSpeechRecognitionUsageDescription"],
            requests: [APIClause("requestAuthorization", "SFSpeechRecognizer"), APIClause(APIs.authorizationRequest.selectors[0], "SFSpeechRecognizer")],
            uses: [APIClause("SFSpeechRecognizer"), APIClause("SFSpeechURLRecognitionRequest"), APIClause("SFSpeechAudioBufferRecognitionRequest")]),
        Permission(
            id: "face-id", resource: "Face ID", satisfyingKeys: ["NSFaceIDUsageDescription"],
            requests: [APIClause(APIs.localAuthenticationPrompt.swiftBaseNames[0], "LAContext", "deviceOwnerAuthenticationWithBiometrics"),
                       APIClause(APIs.localAuthenticationPrompt.selectors[0], "LAContext", "LAPolicyDeviceOwnerAuthenticationWithBiometrics"),
                       APIClause(APIs.localAuthenticationPrompt.swiftBaseNames[0], "LAContext", "deviceOwnerAuthentication"),
                       APIClause(APIs.localAuthenticationPrompt.selectors[0], "LAContext", "LAPolicyDeviceOwnerAuthentication")],
            uses: [APIClause("LAContext"), APIClause("biometryCurrentSet"), APIClause("kSecAccessControlBiometryCurrentSet"),
                   APIClause("biometryAny"), APIClause("kSecAccessControlBiometryAny"), APIClause("LocalAuthenticationView"),
                   APIClause("userPresence"), APIClause("kSecAccessControlUserPresence")],
            consequence: "on Face ID devices iOS then refuses biometric authentication (LAError.biometryNotAvailable)",
            missingSeverity: .medium),
        Permission(
            id: "nfc", resource: "the NFC reader", satisfyingKeys: ["NFCReaderUsageDescription"],
            requests: [APIClause("NFCNDEFReaderSession"), APIClause("NFCTagReaderSession"), APIClause("NFCVASReaderSession")],
            uses: [APIClause("NFCReaderSession")]),
        Permission(
            id: "siri", resource: "Siri", satisfyingKeys: ["NSSiriUsageDescription"],
            requests: [APIClause("requestSiriAuthorization", "INPreferences"), APIClause(APIs.siriAuthorizationRequest.selectors[0], "INPreferences")],
            uses: [APIClause("INPreferences"), APIClause("INExtension"), APIClause("INInteraction")]),
        Permission(
            id: "tracking", resource: "tracking", satisfyingKeys: ["NSUserTrackingUsageDescription"],
            requests: [APIClause("requestTrackingAuthorization", "ATTrackingManager"),
                       APIClause(APIs.trackingAuthorizationRequest.selectors[0], "ATTrackingManager")],
            uses: [APIClause("ATTrackingManager"), APIClause("trackingAuthorizationStatus")]),
        Permission(
            id: "focus", resource: "Focus status", satisfyingKeys: ["NSFocusStatusUsageDescription"],
            requests: [APIClause("requestAuthorization", "INFocusStatusCenter"),
                       APIClause(APIs.focusStatusAuthorizationRequest.selectors[0], "INFocusStatusCenter")],
            uses: [APIClause("INFocusStatusCenter")]),
        Permission(
            id: "nearby-interaction", resource: "nearby interaction",
            satisfyingKeys: ["NSNearbyInteractionUsageDescription", "NSNearbyInteractionAllowOnceUsageDescription"],
            requests: [APIClause("run", "NISession"), APIClause(APIs.nearbyInteractionRun.selectors[0], "NISession")],
            uses: [APIClause("NISession"), APIClause("NIConfiguration"), APIClause("NINearbyPeerConfiguration")]),
        Permission(
            id: "identity", resource: "identity documents in Wallet", satisfyingKeys: ["NSIdentityUsageDescription"],
            requests: [APIClause("PKIdentityAuthorizationController")],
            uses: [APIClause("PKIdentityRequest"), APIClause("PKIdentityButton"), APIClause("VerifyIdentityWithWalletButton")]),
        Permission(
            id: "sensorkit", resource: "SensorKit research data", satisfyingKeys: ["NSSensorKitUsageDescription"],
            requests: [APIClause("SRSensorReader")]),
        Permission(
            id: "game-center-friends", resource: "the Game Center friends list", satisfyingKeys: ["NSGKFriendListUsageDescription"],
            requests: [APIClause("loadFriends", "GKLocalPlayer"), APIClause(APIs.gameCenterFriends.selectors[0], "GKLocalPlayer"),
                       APIClause("loadFriendsAuthorizationStatus", "GKLocalPlayer"),
                       APIClause(APIs.gameCenterFriends.selectors[1], "GKLocalPlayer")],
            uses: [APIClause("GKLocalPlayer")]),
        Permission(
            id: "fall-detection", resource: "fall detection", satisfyingKeys: ["NSFallDetectionUsageDescription"],
            requests: [APIClause("CMFallDetectionManager")]),
        Permission(
            id: "tv-provider", resource: "the TV provider account", satisfyingKeys: ["NSVideoSubscriberAccountUsageDescription"],
            requests: [APIClause("VSAccountManager")]),
    ]

    /// The permissions a key belongs to (as its own key).
    public static func permissions(owning key: String) -> [Permission] {
        permissions.filter { $0.ownKeys.contains(key) }
    }
}
