import Testing
import MoatCore
@testable import MoatRules

struct PermissionTableTests {
    @Test func everyPermissionKeyIsADocumentedUsageKey() {
        for permission in PermissionTable.permissions {
            #expect(!permission.satisfyingKeys.isEmpty, "\(permission.id) has no key")
            for key in permission.satisfyingKeys + permission.ownKeys {
                #expect(PermissionTable.usageKey(key) != nil, "\(permission.id): \(key) is not in the usage key catalogue")
            }
            #expect(!permission.requests.isEmpty, "\(permission.id) has no request API")
            for clause in permission.requests + permission.uses {
                #expect(!clause.names.isEmpty && clause.names.allSatisfy { !$0.isEmpty }, "\(permission.id): empty clause")
            }
        }
        #expect(Set(PermissionTable.permissions.map(\.id)).count == PermissionTable.permissions.count, "duplicate permission ids")
        #expect(Set(PermissionTable.usageKeys.map(\.key)).count == PermissionTable.usageKeys.count, "duplicate usage keys")
    }

    @Test func everyCurrentStringKeyHasAPermission() {
        let owned = Set(PermissionTable.permissions.flatMap { $0.ownKeys + $0.satisfyingKeys })
        for key in PermissionTable.usageKeys where !key.isLegacy && !key.isDictionary {
            #expect(owned.contains(key.key), "\(key.key) has no permission entry, so its APIs are never checked")
        }
    }

    @Test func usageKeyShape() {
        #expect(PermissionTable.isUsageKey("NFCReaderUsageDescription"))
        #expect(PermissionTable.isUsageKey("NSCarrierPigeonUsageDescription"))
        #expect(!PermissionTable.isUsageKey("UsageDescription"))
        #expect(!PermissionTable.isUsageKey("CFBundleName"))
    }

    @Test func clausesMatchNameSets() {
        let clause = APIClause("requestAuthorization", "PHPhotoLibrary", unless: ["addOnly"])
        #expect(clause.matches(names: ["requestAuthorization", "PHPhotoLibrary"]))
        #expect(!clause.matches(names: ["requestAuthorization", "PHPhotoLibrary", "addOnly"]))
        #expect(!clause.matches(names: ["requestAuthorization"]))
        #expect(clause.readable == "requestAuthorization (PHPhotoLibrary)")
    }

    @Test func requiredReasonCategoriesAreComplete() {
        let categories = RequiredReasonAPITable.categories
        #expect(categories.map(\.category) == ["NSPrivacyAccessedAPICategoryFileTimestamp", "NSPrivacyAccessedAPICategorySystemBootTime",
                                               "NSPrivacyAccessedAPICategoryDiskSpace", "NSPrivacyAccessedAPICategoryActiveKeyboards",
                                               "NSPrivacyAccessedAPICategoryUserDefaults"])
        for category in categories {
            #expect(!category.uses.isEmpty && !category.reasons.isEmpty, "\(category.category)")
            // A bare property name used by ordinary models must never count as a use on its own.
            #expect(!category.uses.contains { $0.names == ["creationDate"] || $0.names == ["modificationDate"] })
        }
    }
}

struct PurposeStringQualityTests {
    static func assess(_ text: String, key: String = "NSCameraUsageDescription", names: Set<String> = ["Receipts"]) -> PurposeStringQuality.Problem? {
        PurposeStringQuality.assess(raw: text, expanded: text, key: key, appNames: names)
    }

    @Test(arguments: [
        ("", PurposeStringQuality.Problem.empty),
        ("   \n ", .empty),
        ("TODO", .placeholder("TODO")),
        ("Lorem ipsum dolor sit amet", .placeholder("LOREM")),
        ("...", .placeholder("...")),
        ("Usage description", .placeholder("Usage description")),
        ("$(PRODUCT_NAME)", .appNameOnly),
        ("Receipts", .appNameOnly),
        ("Camera", .tooShort),
        ("QR codes", .tooShort),
        ("Receipts camera", .restatesPermission),
        ("We want to access your camera", .restatesPermission),
        ("This app needs camera access.", .restatesPermission),
        ("Receipts would like to use the camera", .restatesPermission),
        ("Camera access is required for the app to work properly", .restatesPermission),
        ("We use the camera to improve your experience.", .restatesPermission),
    ])
    func weakStrings(text: String, expected: PurposeStringQuality.Problem) {
        #expect(Self.assess(text) == expected, "\(text)")
    }

    @Test(arguments: [
        "Scan a receipt so it can be attached to your expense report.",
        "Take photos of receipts.",
        "Your camera is used to scan QR codes on invoices.",
        "Die Kamera scannt Belege für deine Spesenabrechnung.",
        "カメラでレシートをスキャンします。",
        "$(CAMERA_PURPOSE)",
        "Scan receipts",
    ])
    func goodOrUnjudgedStrings(text: String) {
        #expect(Self.assess(text) == nil, "\(text)")
    }

    @Test func resourceWordsAreTheKeysOwn() {
        // "video" names the camera, not the microphone: a microphone string about video says why.
        #expect(Self.assess("Record video", key: "NSMicrophoneUsageDescription") == nil)
        #expect(Self.assess("We need to record audio", key: "NSMicrophoneUsageDescription") == .restatesPermission)
    }

    @Test func unresolvedVariablesAreNotJudgedButResolvedOnesAre() {
        #expect(PurposeStringQuality.assess(raw: "$(CAMERA_PURPOSE)", expanded: "$(CAMERA_PURPOSE)", key: "NSCameraUsageDescription", appNames: []) == nil)
        #expect(PurposeStringQuality.assess(raw: "$(CAMERA_PURPOSE)", expanded: "TODO", key: "NSCameraUsageDescription", appNames: []) == .placeholder("TODO"))
    }
}

struct SecretTextFieldWordTests {
    @Test(arguments: [
        ("cardPinField", ["card", "pin", "field"]),
        ("CVVTextField", ["cvv", "text", "field"]),
        ("password_confirm", ["password", "confirm"]),
        ("Spinner", ["spinner"]),
        ("PIN field", ["pin", "field"]),
        ("URLField2FA", ["url", "field2", "fa"]),
    ])
    func splitsNames(name: String, expected: [String]) {
        #expect(InsecureSecretTextFieldRule.words(name) == expected)
    }
}
