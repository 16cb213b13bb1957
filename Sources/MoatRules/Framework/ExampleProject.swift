/// Small but valid `project.pbxproj` texts for rule examples: one app target `App` whose files are the
/// synchronized folder `App/`, with Debug and Release configurations. Setting lines are written as given
/// (with their `↓` markers), one per line, so examples stay readable.
enum ExampleProject {
    static let path = "App.xcodeproj/project.pbxproj"

    static func pbxproj(debug: [String] = [], release: [String] = [], project: [String] = [],
                        productType: String = "com.apple.product-type.application") -> String {
        func settings(_ lines: [String]) -> String {
            lines.map { "\t\t\t\t\($0)\n" }.joined()
        }
        return """
        // !$*UTF8*$!
        {
        \tarchiveVersion = 1;
        \tobjectVersion = 77;
        \tobjects = {
        \t\tS1 /* App */ = {isa = PBXFileSystemSynchronizedRootGroup; path = App; sourceTree = "<group>"; };
        \t\tG1 = {isa = PBXGroup; children = (S1 /* App */, ); sourceTree = "<group>"; };
        \t\tT1 /* App */ = {
        \t\t\tisa = PBXNativeTarget;
        \t\t\tbuildConfigurationList = L2;
        \t\t\tbuildPhases = (
        \t\t\t);
        \t\t\tfileSystemSynchronizedGroups = (S1 /* App */, );
        \t\t\tname = App;
        \t\t\tproductType = "\(productType)";
        \t\t};
        \t\tR1 /* Project object */ = {isa = PBXProject; buildConfigurationList = L1; mainGroup = G1; targets = (T1 /* App */, ); };
        \t\tP1 /* Debug */ = {
        \t\t\tisa = XCBuildConfiguration;
        \t\t\tbuildSettings = {
        \t\t\t\tSWIFT_ACTIVE_COMPILATION_CONDITIONS = "DEBUG $(inherited)";
        \(settings(project))\t\t\t};
        \t\t\tname = Debug;
        \t\t};
        \t\tP2 /* Release */ = {
        \t\t\tisa = XCBuildConfiguration;
        \t\t\tbuildSettings = {
        \(settings(project))\t\t\t};
        \t\t\tname = Release;
        \t\t};
        \t\tC1 /* Debug */ = {
        \t\t\tisa = XCBuildConfiguration;
        \t\t\tbuildSettings = {
        \t\t\t\tPRODUCT_BUNDLE_IDENTIFIER = com.example.app;
        \(settings(debug))\t\t\t};
        \t\t\tname = Debug;
        \t\t};
        \t\tC2 /* Release */ = {
        \t\t\tisa = XCBuildConfiguration;
        \t\t\tbuildSettings = {
        \t\t\t\tPRODUCT_BUNDLE_IDENTIFIER = com.example.app;
        \(settings(release))\t\t\t};
        \t\t\tname = Release;
        \t\t};
        \t\tL1 = {isa = XCConfigurationList; buildConfigurations = (P1 /* Debug */, P2 /* Release */, ); defaultConfigurationName = Release; };
        \t\tL2 = {isa = XCConfigurationList; buildConfigurations = (C1 /* Debug */, C2 /* Release */, ); defaultConfigurationName = Release; };
        \t};
        \trootObject = R1 /* Project object */;
        }

        """
    }

    /// An XML property list with the given body (already indented for `<dict>`).
    static func plist(_ body: String) -> String {
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
}
