import Foundation

/// Writes files into a fresh temporary folder and removes it when done.
final class ScanTree {
    let root: URL

    init(_ files: [String: String]) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("moat-scan-\(UUID().uuidString)")
        for (path, content) in files { try write(path, Data(content.utf8)) }
    }

    func write(_ path: String, _ data: Data) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }

    func url(_ path: String) -> URL { root.appendingPathComponent(path) }

    deinit { try? FileManager.default.removeItem(at: root) }
}

/// The 1-based line of the only line of `text` that contains `needle`.
func lineNumber(of needle: String, in text: String) -> Int {
    let lines = text.components(separatedBy: "\n")
    let matches = lines.indices.filter { lines[$0].contains(needle) }
    precondition(matches.count == 1, "fixture must contain '\(needle)' exactly once, found \(matches.count)")
    return matches[0] + 1
}

func plist(_ body: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
    \(body)
    </dict>
    </plist>

    """
}

/// An app "Receipts" (file references, Debug/Release with different entitlements, an Info.plist file plus
/// generated keys) and a widget extension (synchronized folder, generated Info.plist).
enum ScanFixtures {
    static let project = #"""
// !$*UTF8*$!
{
	archiveVersion = 1;
	classes = {
	};
	objectVersion = 77;
	objects = {

/* Begin PBXBuildFile section */
		BF01 /* AppDelegate.swift in Sources */ = {isa = PBXBuildFile; fileRef = FR01 /* AppDelegate.swift */; };
		BF02 /* Scanner.swift in Sources */ = {isa = PBXBuildFile; fileRef = FR02 /* Scanner.swift */; };
		BF03 /* Main.storyboard in Resources */ = {isa = PBXBuildFile; fileRef = VG01 /* Main.storyboard */; };
		BF04 /* PrivacyInfo.xcprivacy in Resources */ = {isa = PBXBuildFile; fileRef = FR04 /* PrivacyInfo.xcprivacy */; };
/* End PBXBuildFile section */

/* Begin PBXFileReference section */
		FR01 /* AppDelegate.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = AppDelegate.swift; sourceTree = "<group>"; };
		FR02 /* Scanner.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = Scanner.swift; sourceTree = "<group>"; };
		FR03 /* Base */ = {isa = PBXFileReference; lastKnownFileType = file.storyboard; name = Base; path = Base.lproj/Main.storyboard; sourceTree = "<group>"; };
		FR04 /* PrivacyInfo.xcprivacy */ = {isa = PBXFileReference; lastKnownFileType = text.xml; path = PrivacyInfo.xcprivacy; sourceTree = "<group>"; };
		FR05 /* Info.plist */ = {isa = PBXFileReference; lastKnownFileType = text.plist.xml; path = Info.plist; sourceTree = "<group>"; };
/* End PBXFileReference section */

/* Begin PBXFileSystemSynchronizedRootGroup section */
		SG01 /* Widget */ = {isa = PBXFileSystemSynchronizedRootGroup; path = Widget; sourceTree = "<group>"; };
/* End PBXFileSystemSynchronizedRootGroup section */

/* Begin PBXGroup section */
		GR00 = {
			isa = PBXGroup;
			children = (
				GR01 /* Receipts */,
				SG01 /* Widget */,
			);
			sourceTree = "<group>";
		};
		GR01 /* Receipts */ = {
			isa = PBXGroup;
			children = (
				FR01 /* AppDelegate.swift */,
				FR02 /* Scanner.swift */,
				VG01 /* Main.storyboard */,
				FR04 /* PrivacyInfo.xcprivacy */,
				FR05 /* Info.plist */,
			);
			path = Receipts;
			sourceTree = "<group>";
		};
/* End PBXGroup section */

/* Begin PBXNativeTarget section */
		TG01 /* Receipts */ = {
			isa = PBXNativeTarget;
			buildConfigurationList = CL02 /* Build configuration list for PBXNativeTarget "Receipts" */;
			buildPhases = (
				PH01 /* Sources */,
				PH02 /* Resources */,
			);
			name = Receipts;
			productName = Receipts;
			productType = "com.apple.product-type.application";
		};
		TG02 /* Widget */ = {
			isa = PBXNativeTarget;
			buildConfigurationList = CL03 /* Build configuration list for PBXNativeTarget "Widget" */;
			buildPhases = (
			);
			fileSystemSynchronizedGroups = (
				SG01 /* Widget */,
			);
			name = Widget;
			productName = Widget;
			productType = "com.apple.product-type.app-extension";
		};
/* End PBXNativeTarget section */

/* Begin PBXProject section */
		PR01 /* Project object */ = {
			isa = PBXProject;
			buildConfigurationList = CL01 /* Build configuration list for PBXProject "Receipts" */;
			mainGroup = GR00;
			projectDirPath = "";
			targets = (
				TG01 /* Receipts */,
				TG02 /* Widget */,
			);
		};
/* End PBXProject section */

/* Begin PBXResourcesBuildPhase section */
		PH02 /* Resources */ = {
			isa = PBXResourcesBuildPhase;
			files = (
				BF03 /* Main.storyboard in Resources */,
				BF04 /* PrivacyInfo.xcprivacy in Resources */,
			);
		};
/* End PBXResourcesBuildPhase section */

/* Begin PBXSourcesBuildPhase section */
		PH01 /* Sources */ = {
			isa = PBXSourcesBuildPhase;
			files = (
				BF01 /* AppDelegate.swift in Sources */,
				BF02 /* Scanner.swift in Sources */,
			);
		};
/* End PBXSourcesBuildPhase section */

/* Begin PBXVariantGroup section */
		VG01 /* Main.storyboard */ = {
			isa = PBXVariantGroup;
			children = (
				FR03 /* Base */,
			);
			name = Main.storyboard;
			sourceTree = "<group>";
		};
/* End PBXVariantGroup section */

/* Begin XCBuildConfiguration section */
		BC01 /* Debug */ = {
			isa = XCBuildConfiguration;
			buildSettings = {
				SWIFT_ACTIVE_COMPILATION_CONDITIONS = "DEBUG $(inherited)";
			};
			name = Debug;
		};
		BC02 /* Release */ = {
			isa = XCBuildConfiguration;
			buildSettings = {
				SWIFT_COMPILATION_MODE = wholemodule;
			};
			name = Release;
		};
		BC03 /* Debug */ = {
			isa = XCBuildConfiguration;
			buildSettings = {
				CODE_SIGN_ENTITLEMENTS = Receipts/Debug.entitlements;
				GENERATE_INFOPLIST_FILE = YES;
				INFOPLIST_FILE = Receipts/Info.plist;
				INFOPLIST_KEY_NSCameraUsageDescription = "Scan a receipt so it can be attached to your expense report.";
				PRODUCT_BUNDLE_IDENTIFIER = com.example.receipts;
				PRODUCT_NAME = "$(TARGET_NAME)";
			};
			name = Debug;
		};
		BC04 /* Release */ = {
			isa = XCBuildConfiguration;
			buildSettings = {
				CODE_SIGN_ENTITLEMENTS = Receipts/Receipts.entitlements;
				GENERATE_INFOPLIST_FILE = YES;
				INFOPLIST_FILE = Receipts/Info.plist;
				INFOPLIST_KEY_NSCameraUsageDescription = "Camera access";
				PRODUCT_BUNDLE_IDENTIFIER = com.example.receipts;
				PRODUCT_NAME = "$(TARGET_NAME)";
			};
			name = Release;
		};
		BC05 /* Debug */ = {
			isa = XCBuildConfiguration;
			buildSettings = {
				GENERATE_INFOPLIST_FILE = YES;
				PRODUCT_BUNDLE_IDENTIFIER = com.example.receipts.widget;
			};
			name = Debug;
		};
		BC06 /* Release */ = {
			isa = XCBuildConfiguration;
			buildSettings = {
				GENERATE_INFOPLIST_FILE = YES;
				PRODUCT_BUNDLE_IDENTIFIER = com.example.receipts.widget;
			};
			name = Release;
		};
/* End XCBuildConfiguration section */

/* Begin XCConfigurationList section */
		CL01 /* Build configuration list for PBXProject "Receipts" */ = {
			isa = XCConfigurationList;
			buildConfigurations = (
				BC01 /* Debug */,
				BC02 /* Release */,
			);
			defaultConfigurationName = Release;
		};
		CL02 /* Build configuration list for PBXNativeTarget "Receipts" */ = {
			isa = XCConfigurationList;
			buildConfigurations = (
				BC03 /* Debug */,
				BC04 /* Release */,
			);
			defaultConfigurationName = Release;
		};
		CL03 /* Build configuration list for PBXNativeTarget "Widget" */ = {
			isa = XCConfigurationList;
			buildConfigurations = (
				BC05 /* Debug */,
				BC06 /* Release */,
			);
			defaultConfigurationName = Release;
		};
/* End XCConfigurationList section */
	};
	rootObject = PR01 /* Project object */;
}
"""#

    static let infoPlist = plist("""
        <key>CFBundleDisplayName</key>
        <string>Receipts</string>
        <key>CFBundleURLTypes</key>
        <array>
            <dict>
                <key>CFBundleURLSchemes</key>
                <array>
                    <string>com.example.receipts</string>
                </array>
            </dict>
        </array>
        <key>NSAppTransportSecurity</key>
        <dict>
            <key>NSPinnedDomains</key>
            <dict>
                <key>api.example.com</key>
                <dict>
                    <key>NSPinnedCAIdentities</key>
                    <array>
                        <dict>
                            <key>SPKI-SHA256-BASE64</key>
                            <string>r/mIkG3eEpVdm+u/ko/cwxzOMo1bk4TyHIlByibiA5E=</string>
                        </dict>
                    </array>
                </dict>
            </dict>
        </dict>
    """)

    static let releaseEntitlements = plist("""
        <key>com.apple.developer.associated-domains</key>
        <array>
            <string>applinks:receipts.example.com</string>
        </array>
        <key>com.apple.security.application-groups</key>
        <array>
            <string>group.com.example.receipts</string>
        </array>
        <key>get-task-allow</key>
        <true/>
    """)

    static let debugEntitlements = plist("""
        <key>get-task-allow</key>
        <true/>
    """)

    static let manifest = plist("""
        <key>NSPrivacyAccessedAPITypes</key>
        <array>
            <dict>
                <key>NSPrivacyAccessedAPIType</key>
                <string>NSPrivacyAccessedAPICategoryUserDefaults</string>
                <key>NSPrivacyAccessedAPITypeReasons</key>
                <array>
                    <string>CA92.1</string>
                </array>
            </dict>
        </array>
    """)

    static let appDelegate = """
    import UIKit
    @main
    final class AppDelegate: UIResponder, UIApplicationDelegate {
        func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
            UserDefaults.standard.set(url.absoluteString, forKey: "lastURL")
            return true
        }
        func application(_ application: UIApplication, continue userActivity: NSUserActivity,
                         restorationHandler: @escaping ([UIUserActivityRestoring]?) -> Void) -> Bool {
            userActivity.webpageURL != nil
        }
    }
    """

    static let scanner = """
    import AVFoundation
    func scan() {
        AVCaptureDevice.requestAccess(for: .video) { granted in print(granted) }
    }
    """

    static let widget = """
    import CoreLocation
    let manager = CLLocationManager()
    func start() { manager.requestWhenInUseAuthorization() }
    """

    static let storyboard = """
    <?xml version="1.0" encoding="UTF-8"?>
    <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" targetRuntime="iOS.CocoaTouch">
        <scenes>
            <scene sceneID="s1">
                <objects>
                    <viewController id="vc1" customClass="HelpViewController" sceneMemberID="viewController">
                        <view key="view" id="v1">
                            <subviews>
                                <wkWebView contentMode="scaleToFill" id="wk-1"/>
                            </subviews>
                        </view>
                    </viewController>
                </objects>
            </scene>
        </scenes>
    </document>
    """

    static var files: [String: String] {
        [
            "Receipts.xcodeproj/project.pbxproj": project,
            "Receipts/Info.plist": infoPlist,
            "Receipts/Receipts.entitlements": releaseEntitlements,
            "Receipts/Debug.entitlements": debugEntitlements,
            "Receipts/PrivacyInfo.xcprivacy": manifest,
            "Receipts/AppDelegate.swift": appDelegate,
            "Receipts/Scanner.swift": scanner,
            "Receipts/Base.lproj/Main.storyboard": storyboard,
            "Widget/Provider.swift": widget,
        ]
    }
}
