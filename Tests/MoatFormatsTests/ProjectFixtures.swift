/// A realistic Xcode 15 project: an app and a share extension, Debug and Release at project and target
/// level, usage descriptions in build settings, entitlements per configuration, groups with paths, a
/// localized storyboard, a Swift package and a linked system framework.
enum ProjectFixtures {
    static let twoTargets = #"""
// !$*UTF8*$!
{
	archiveVersion = 1;
	classes = {
	};
	objectVersion = 60;
	objects = {

/* Begin PBXBuildFile section */
		B10000000000000000000001 /* AppDelegate.swift in Sources */ = {isa = PBXBuildFile; fileRef = F10000000000000000000001 /* AppDelegate.swift */; };
		B10000000000000000000002 /* ScannerViewController.swift in Sources */ = {isa = PBXBuildFile; fileRef = F10000000000000000000002 /* ScannerViewController.swift */; };
		B10000000000000000000003 /* Main.storyboard in Resources */ = {isa = PBXBuildFile; fileRef = V10000000000000000000001 /* Main.storyboard */; };
		B10000000000000000000004 /* PrivacyInfo.xcprivacy in Resources */ = {isa = PBXBuildFile; fileRef = F10000000000000000000004 /* PrivacyInfo.xcprivacy */; };
		B10000000000000000000005 /* ShareViewController.swift in Sources */ = {isa = PBXBuildFile; fileRef = F10000000000000000000005 /* ShareViewController.swift */; };
		B10000000000000000000006 /* AVFoundation.framework in Frameworks */ = {isa = PBXBuildFile; fileRef = F10000000000000000000006 /* AVFoundation.framework */; };
		B10000000000000000000007 /* Alamofire in Frameworks */ = {isa = PBXBuildFile; productRef = P10000000000000000000001 /* Alamofire */; };
		B10000000000000000000008 /* ShareExtension.appex in Embed Foundation Extensions */ = {isa = PBXBuildFile; fileRef = F10000000000000000000009 /* ShareExtension.appex */; settings = {ATTRIBUTES = (RemoveHeadersOnCopy, ); }; };
		B10000000000000000000009 /* Shared.swift in Sources */ = {isa = PBXBuildFile; fileRef = F1000000000000000000000A /* Shared.swift */; };
		B1000000000000000000000A /* Shared.swift in Sources */ = {isa = PBXBuildFile; fileRef = F1000000000000000000000A /* Shared.swift */; };
/* End PBXBuildFile section */

/* Begin PBXFileReference section */
		F10000000000000000000001 /* AppDelegate.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = AppDelegate.swift; sourceTree = "<group>"; };
		F10000000000000000000002 /* ScannerViewController.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; name = ScannerViewController.swift; path = Scanner/ScannerViewController.swift; sourceTree = "<group>"; };
		F10000000000000000000003 /* Base */ = {isa = PBXFileReference; lastKnownFileType = file.storyboard; name = Base; path = Base.lproj/Main.storyboard; sourceTree = "<group>"; };
		F10000000000000000000004 /* PrivacyInfo.xcprivacy */ = {isa = PBXFileReference; lastKnownFileType = text.xml; path = PrivacyInfo.xcprivacy; sourceTree = "<group>"; };
		F10000000000000000000005 /* ShareViewController.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = ShareViewController.swift; sourceTree = "<group>"; };
		F10000000000000000000006 /* AVFoundation.framework */ = {isa = PBXFileReference; lastKnownFileType = wrapper.framework; name = AVFoundation.framework; path = System/Library/Frameworks/AVFoundation.framework; sourceTree = SDKROOT; };
		F10000000000000000000007 /* Info.plist */ = {isa = PBXFileReference; lastKnownFileType = text.plist.xml; path = Info.plist; sourceTree = "<group>"; };
		F10000000000000000000008 /* MyApp.app */ = {isa = PBXFileReference; explicitFileType = wrapper.application; includeInIndex = 0; path = MyApp.app; sourceTree = BUILT_PRODUCTS_DIR; };
		F10000000000000000000009 /* ShareExtension.appex */ = {isa = PBXFileReference; explicitFileType = "wrapper.app-extension"; includeInIndex = 0; path = ShareExtension.appex; sourceTree = BUILT_PRODUCTS_DIR; };
		F1000000000000000000000A /* Shared.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = Shared/Shared.swift; sourceTree = SOURCE_ROOT; };
		F1000000000000000000000B /* MyApp.entitlements */ = {isa = PBXFileReference; lastKnownFileType = text.plist.entitlements; path = MyApp.entitlements; sourceTree = "<group>"; };
		F1000000000000000000000C /* MyAppRelease.entitlements */ = {isa = PBXFileReference; lastKnownFileType = text.plist.entitlements; path = MyAppRelease.entitlements; sourceTree = "<group>"; };
/* End PBXFileReference section */

/* Begin PBXFrameworksBuildPhase section */
		C10000000000000000000001 /* Frameworks */ = {
			isa = PBXFrameworksBuildPhase;
			buildActionMask = 2147483647;
			files = (
				B10000000000000000000006 /* AVFoundation.framework in Frameworks */,
				B10000000000000000000007 /* Alamofire in Frameworks */,
			);
			runOnlyForDeploymentPostprocessing = 0;
		};
/* End PBXFrameworksBuildPhase section */

/* Begin PBXGroup section */
		G10000000000000000000001 = {
			isa = PBXGroup;
			children = (
				G10000000000000000000002 /* MyApp */,
				G10000000000000000000003 /* ShareExtension */,
				G10000000000000000000004 /* Products */,
			);
			sourceTree = "<group>";
		};
		G10000000000000000000002 /* MyApp */ = {
			isa = PBXGroup;
			children = (
				F10000000000000000000001 /* AppDelegate.swift */,
				F10000000000000000000002 /* ScannerViewController.swift */,
				V10000000000000000000001 /* Main.storyboard */,
				F10000000000000000000004 /* PrivacyInfo.xcprivacy */,
				F10000000000000000000007 /* Info.plist */,
				F1000000000000000000000B /* MyApp.entitlements */,
				F1000000000000000000000C /* MyAppRelease.entitlements */,
			);
			path = MyApp;
			sourceTree = "<group>";
		};
		G10000000000000000000003 /* ShareExtension */ = {
			isa = PBXGroup;
			children = (
				F10000000000000000000005 /* ShareViewController.swift */,
			);
			path = ShareExtension;
			sourceTree = "<group>";
		};
		G10000000000000000000004 /* Products */ = {
			isa = PBXGroup;
			children = (
				F10000000000000000000008 /* MyApp.app */,
				F10000000000000000000009 /* ShareExtension.appex */,
			);
			name = Products;
			sourceTree = "<group>";
		};
/* End PBXGroup section */

/* Begin PBXNativeTarget section */
		T10000000000000000000001 /* MyApp */ = {
			isa = PBXNativeTarget;
			buildConfigurationList = L10000000000000000000002 /* Build configuration list for PBXNativeTarget "MyApp" */;
			buildPhases = (
				C10000000000000000000002 /* Sources */,
				C10000000000000000000001 /* Frameworks */,
				C10000000000000000000003 /* Resources */,
			);
			buildRules = (
			);
			dependencies = (
				D10000000000000000000001 /* PBXTargetDependency */,
			);
			name = MyApp;
			packageProductDependencies = (
				P10000000000000000000001 /* Alamofire */,
			);
			productName = MyApp;
			productReference = F10000000000000000000008 /* MyApp.app */;
			productType = "com.apple.product-type.application";
		};
		T10000000000000000000002 /* ShareExtension */ = {
			isa = PBXNativeTarget;
			buildConfigurationList = L10000000000000000000003 /* Build configuration list for PBXNativeTarget "ShareExtension" */;
			buildPhases = (
				C10000000000000000000004 /* Sources */,
			);
			buildRules = (
			);
			dependencies = (
			);
			name = ShareExtension;
			productName = ShareExtension;
			productReference = F10000000000000000000009 /* ShareExtension.appex */;
			productType = "com.apple.product-type.app-extension";
		};
/* End PBXNativeTarget section */

/* Begin PBXProject section */
		R10000000000000000000001 /* Project object */ = {
			isa = PBXProject;
			attributes = {
				BuildIndependentTargetsInParallel = 1;
				LastSwiftUpdateCheck = 1500;
			};
			buildConfigurationList = L10000000000000000000001 /* Build configuration list for PBXProject "MyApp" */;
			compatibilityVersion = "Xcode 14.0";
			developmentRegion = en;
			hasScannedForEncodings = 0;
			knownRegions = (
				en,
				Base,
			);
			mainGroup = G10000000000000000000001;
			packageReferences = (
				K10000000000000000000001 /* XCRemoteSwiftPackageReference "Alamofire" */,
			);
			productRefGroup = G10000000000000000000004 /* Products */;
			projectDirPath = "";
			projectRoot = "";
			targets = (
				T10000000000000000000001 /* MyApp */,
				T10000000000000000000002 /* ShareExtension */,
			);
		};
/* End PBXProject section */

/* Begin PBXResourcesBuildPhase section */
		C10000000000000000000003 /* Resources */ = {
			isa = PBXResourcesBuildPhase;
			buildActionMask = 2147483647;
			files = (
				B10000000000000000000003 /* Main.storyboard in Resources */,
				B10000000000000000000004 /* PrivacyInfo.xcprivacy in Resources */,
			);
			runOnlyForDeploymentPostprocessing = 0;
		};
/* End PBXResourcesBuildPhase section */

/* Begin PBXSourcesBuildPhase section */
		C10000000000000000000002 /* Sources */ = {
			isa = PBXSourcesBuildPhase;
			buildActionMask = 2147483647;
			files = (
				B10000000000000000000001 /* AppDelegate.swift in Sources */,
				B10000000000000000000002 /* ScannerViewController.swift in Sources */,
				B10000000000000000000009 /* Shared.swift in Sources */,
			);
			runOnlyForDeploymentPostprocessing = 0;
		};
		C10000000000000000000004 /* Sources */ = {
			isa = PBXSourcesBuildPhase;
			buildActionMask = 2147483647;
			files = (
				B10000000000000000000005 /* ShareViewController.swift in Sources */,
				B1000000000000000000000A /* Shared.swift in Sources */,
			);
			runOnlyForDeploymentPostprocessing = 0;
		};
/* End PBXSourcesBuildPhase section */

/* Begin PBXTargetDependency section */
		D10000000000000000000001 /* PBXTargetDependency */ = {
			isa = PBXTargetDependency;
			target = T10000000000000000000002 /* ShareExtension */;
			targetProxy = X10000000000000000000001 /* PBXContainerItemProxy */;
		};
/* End PBXTargetDependency section */

/* Begin PBXVariantGroup section */
		V10000000000000000000001 /* Main.storyboard */ = {
			isa = PBXVariantGroup;
			children = (
				F10000000000000000000003 /* Base */,
			);
			name = Main.storyboard;
			sourceTree = "<group>";
		};
/* End PBXVariantGroup section */

/* Begin XCBuildConfiguration section */
		E10000000000000000000001 /* Debug */ = {
			isa = XCBuildConfiguration;
			buildSettings = {
				ALWAYS_SEARCH_USER_PATHS = NO;
				GCC_PREPROCESSOR_DEFINITIONS = (
					"DEBUG=1",
					"$(inherited)",
				);
				IPHONEOS_DEPLOYMENT_TARGET = 16.0;
				SDKROOT = iphoneos;
				SWIFT_ACTIVE_COMPILATION_CONDITIONS = "DEBUG $(inherited)";
			};
			name = Debug;
		};
		E10000000000000000000002 /* Release */ = {
			isa = XCBuildConfiguration;
			buildSettings = {
				ALWAYS_SEARCH_USER_PATHS = NO;
				IPHONEOS_DEPLOYMENT_TARGET = 16.0;
				INFOPLIST_KEY_NSMicrophoneUsageDescription = "Record a voice memo to attach to the expense.";
				SDKROOT = iphoneos;
				VALIDATE_PRODUCT = YES;
			};
			name = Release;
		};
		E10000000000000000000003 /* Debug */ = {
			isa = XCBuildConfiguration;
			buildSettings = {
				CODE_SIGN_ENTITLEMENTS = MyApp/MyApp.entitlements;
				GENERATE_INFOPLIST_FILE = YES;
				INFOPLIST_FILE = MyApp/Info.plist;
				INFOPLIST_KEY_CFBundleDisplayName = "Receipts";
				INFOPLIST_KEY_NSCameraUsageDescription = "We need the camera";
				PRODUCT_BUNDLE_IDENTIFIER = com.example.myapp;
				PRODUCT_NAME = "$(TARGET_NAME)";
			};
			name = Debug;
		};
		E10000000000000000000004 /* Release */ = {
			isa = XCBuildConfiguration;
			buildSettings = {
				CODE_SIGN_ENTITLEMENTS = MyApp/MyAppRelease.entitlements;
				GENERATE_INFOPLIST_FILE = YES;
				INFOPLIST_FILE = MyApp/Info.plist;
				INFOPLIST_KEY_CFBundleDisplayName = "Receipts";
				INFOPLIST_KEY_NSCameraUsageDescription = "Scan a receipt so it can be attached to your expense report.";
				PRODUCT_BUNDLE_IDENTIFIER = com.example.myapp;
				PRODUCT_NAME = "$(TARGET_NAME)";
			};
			name = Release;
		};
		E10000000000000000000005 /* Debug */ = {
			isa = XCBuildConfiguration;
			buildSettings = {
				GENERATE_INFOPLIST_FILE = NO;
				INFOPLIST_FILE = ShareExtension/Info.plist;
				INFOPLIST_KEY_NSPhotoLibraryUsageDescription = "Ignored: this target does not generate its Info.plist";
				PRODUCT_BUNDLE_IDENTIFIER = "com.example.myapp.share";
				PRODUCT_NAME = "$(TARGET_NAME)";
			};
			name = Debug;
		};
		E10000000000000000000006 /* Release */ = {
			isa = XCBuildConfiguration;
			buildSettings = {
				GENERATE_INFOPLIST_FILE = NO;
				INFOPLIST_FILE = ShareExtension/Info.plist;
				PRODUCT_BUNDLE_IDENTIFIER = "com.example.myapp.share";
				PRODUCT_NAME = "$(TARGET_NAME)";
			};
			name = Release;
		};
/* End XCBuildConfiguration section */

/* Begin XCConfigurationList section */
		L10000000000000000000001 /* Build configuration list for PBXProject "MyApp" */ = {
			isa = XCConfigurationList;
			buildConfigurations = (
				E10000000000000000000001 /* Debug */,
				E10000000000000000000002 /* Release */,
			);
			defaultConfigurationIsVisible = 0;
			defaultConfigurationName = Release;
		};
		L10000000000000000000002 /* Build configuration list for PBXNativeTarget "MyApp" */ = {
			isa = XCConfigurationList;
			buildConfigurations = (
				E10000000000000000000003 /* Debug */,
				E10000000000000000000004 /* Release */,
			);
			defaultConfigurationIsVisible = 0;
			defaultConfigurationName = Release;
		};
		L10000000000000000000003 /* Build configuration list for PBXNativeTarget "ShareExtension" */ = {
			isa = XCConfigurationList;
			buildConfigurations = (
				E10000000000000000000005 /* Debug */,
				E10000000000000000000006 /* Release */,
			);
			defaultConfigurationIsVisible = 0;
			defaultConfigurationName = Release;
		};
/* End XCConfigurationList section */

/* Begin XCRemoteSwiftPackageReference section */
		K10000000000000000000001 /* XCRemoteSwiftPackageReference "Alamofire" */ = {
			isa = XCRemoteSwiftPackageReference;
			repositoryURL = "https://github.com/Alamofire/Alamofire.git";
			requirement = {
				kind = upToNextMajorVersion;
				minimumVersion = 5.8.0;
			};
		};
/* End XCRemoteSwiftPackageReference section */

/* Begin XCSwiftPackageProductDependency section */
		P10000000000000000000001 /* Alamofire */ = {
			isa = XCSwiftPackageProductDependency;
			package = K10000000000000000000001 /* XCRemoteSwiftPackageReference "Alamofire" */;
			productName = Alamofire;
		};
/* End XCSwiftPackageProductDependency section */
	};
	rootObject = R10000000000000000000001 /* Project object */;
}
"""#

    /// An Xcode 16 project with a synchronized folder and an exception set, and an `.xcconfig` base.
    static let synchronized = #"""
// !$*UTF8*$!
{
	archiveVersion = 1;
	classes = {
	};
	objectVersion = 77;
	objects = {
		A1 /* Exceptions for "Widget" folder in "Widget" target */ = {
			isa = PBXFileSystemSynchronizedBuildFileExceptionSet;
			membershipExceptions = (
				Info.plist,
				Legacy/Old.swift,
			);
			target = T2 /* Widget */;
		};
		A2 /* Exceptions for "Notes" folder in "Widget" target */ = {
			isa = PBXFileSystemSynchronizedBuildFileExceptionSet;
			membershipExceptions = (
				PrivacyInfo.xcprivacy,
				Shared,
			);
			target = T2 /* Widget */;
		};
		G1 = {
			isa = PBXGroup;
			children = (
				S1 /* Notes */,
				S2 /* Widget */,
				F9 /* Config.xcconfig */,
			);
			sourceTree = "<group>";
		};
		S1 /* Notes */ = {isa = PBXFileSystemSynchronizedRootGroup; exceptions = (A2 /* Exceptions for "Notes" folder in "Widget" target */, ); path = Notes; sourceTree = "<group>"; };
		S2 /* Widget */ = {isa = PBXFileSystemSynchronizedRootGroup; exceptions = (A1 /* Exceptions for "Widget" folder in "Widget" target */, ); path = Widget; sourceTree = "<group>"; };
		F9 /* Config.xcconfig */ = {isa = PBXFileReference; lastKnownFileType = text.xcconfig; path = Config.xcconfig; sourceTree = "<group>"; };
		T1 /* Notes */ = {
			isa = PBXNativeTarget;
			buildConfigurationList = L2;
			buildPhases = (
			);
			fileSystemSynchronizedGroups = (
				S1 /* Notes */,
			);
			name = Notes;
			productName = Notes;
			productType = "com.apple.product-type.application";
		};
		T2 /* Widget */ = {
			isa = PBXNativeTarget;
			buildConfigurationList = L3;
			buildPhases = (
			);
			fileSystemSynchronizedGroups = (
				S2 /* Widget */,
			);
			name = Widget;
			productType = "com.apple.product-type.app-extension";
		};
		T3 /* NotesTests */ = {
			isa = PBXNativeTarget;
			buildConfigurationList = L3;
			buildPhases = (
			);
			name = NotesTests;
			productType = "com.apple.product-type.bundle.unit-test";
		};
		R1 /* Project object */ = {
			isa = PBXProject;
			buildConfigurationList = L1;
			mainGroup = G1;
			projectDirPath = "";
			targets = (
				T1 /* Notes */,
				T2 /* Widget */,
				T3 /* NotesTests */,
			);
		};
		E1 /* Release */ = {
			isa = XCBuildConfiguration;
			baseConfigurationReference = F9 /* Config.xcconfig */;
			buildSettings = {
				OTHER_SWIFT_FLAGS = "$(inherited) -DPROJECT";
			};
			name = Release;
		};
		E2 /* Release */ = {
			isa = XCBuildConfiguration;
			buildSettings = {
				GENERATE_INFOPLIST_FILE = YES;
				INFOPLIST_KEY_NSLocationWhenInUseUsageDescription = "Show notes written near where you are.";
				PRODUCT_BUNDLE_IDENTIFIER = "com.example.$(PRODUCT_NAME:rfc1034identifier)";
				PRODUCT_NAME = "$(TARGET_NAME) Pro";
			};
			name = Release;
		};
		E3 /* Release */ = {
			isa = XCBuildConfiguration;
			buildSettings = {
				GENERATE_INFOPLIST_FILE = YES;
			};
			name = Release;
		};
		L1 = {isa = XCConfigurationList; buildConfigurations = (E1 /* Release */, ); defaultConfigurationName = Release; };
		L2 = {isa = XCConfigurationList; buildConfigurations = (E2 /* Release */, ); defaultConfigurationName = Release; };
		L3 = {isa = XCConfigurationList; buildConfigurations = (E3 /* Release */, ); defaultConfigurationName = Release; };
	};
	rootObject = R1 /* Project object */;
}
"""#
}
