import MoatCore
import MoatSyntax

public struct WebViewInspectableRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-PLAT-206", slug: "webview-inspectable-in-release",
        title: "Web view or JSContext is inspectable in release builds",
        severity: .medium, confidence: .high, evidence: .configuration, cwe: [489],
        masvs: ["MASVS-PLATFORM-2", "MASVS-RESILIENCE-4"], mastg: ["MASTG-TEST-0076"],
        rationale: "`isInspectable = true` (iOS 16.4+) lets Safari's Web Inspector attach to the web view or JSContext of a release build: anyone holding the device and a Mac can read the page's storage and cookies, run script in it and call the native bridges it exposes.",
        fix: "Set `isInspectable` only inside `#if DEBUG` (or behind an internal-build flag), never unconditionally.",
        references: ["https://developer.apple.com/documentation/webkit/wkwebview/4111163-isinspectable",
                     "https://webkit.org/blog/13936/enabling-the-inspection-of-web-content-in-apps/"],
        examples: [
            .triggering("WebContainer.swift", """
            func setUp() {
                if #available(iOS 16.4, *) {
                    ↓webView.isInspectable = true
                    ↓context.isInspectable = true
                }
            }
            """),
            .triggering("WebContainer.m", """
            - (void)setUp {
                ↓self.webView.inspectable = YES;
                ↓[self.webView setInspectable:YES];
            }
            """),
            .nonTriggering("WebContainer.swift", """
            func setUp() {
                #if DEBUG
                if #available(iOS 16.4, *) {
                    webView.isInspectable = true
                }
                #endif
                webView.isInspectable = false
                webView.isInspectable = BuildFlags.internalBuild
            }
            """),
            .nonTriggering("WebContainer.m", """
            - (void)setUp {
            #if DEBUG
                self.webView.inspectable = YES;
            #endif
            }
            """),
        ])

    public init() {}

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        guard unit.names.mayWriteProperty(["isInspectable", "inspectable"]) else { return }
        for write in file.propertyWrites(named: ["isInspectable", "inspectable"])
        where write.value.boolValue == true && !write.context.isDebugOnly {
            let object = write.object.map { "`\(file.text($0.range))`" } ?? "this object"
            sink.report("\(object) is made inspectable outside `#if DEBUG`: Safari Web Inspector can attach to release builds and run script in the page. Enable it in debug builds only.",
                        in: file, at: write.range)
        }
    }
}
