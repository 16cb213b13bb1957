import Foundation
import Testing
@testable import MoatFormats

struct InterfaceBuilderTests {
    static let storyboard = """
    <?xml version="1.0" encoding="UTF-8"?>
    <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="32700.99.1234" targetRuntime="iOS.CocoaTouch" propertyAccessControl="none" useAutolayout="YES" initialViewController="BYZ-38-t0r">
        <scenes>
            <scene sceneID="tne-QT-ifu">
                <objects>
                    <viewController storyboardIdentifier="Login" id="BYZ-38-t0r" customClass="LoginViewController" customModule="MyApp" sceneMemberID="viewController">
                        <view key="view" contentMode="scaleToFill" id="8bC-Xf-vdC">
                            <subviews>
                                <textField opaque="NO" contentMode="scaleToFill" borderStyle="roundedRect" placeholder="Email" minimumFontSize="17" id="em1-aa-001">
                                    <rect key="frame" x="20" y="100" width="335" height="34"/>
                                    <textInputTraits key="textInputTraits" keyboardType="emailAddress" textContentType="email"/>
                                </textField>
                                <textField opaque="NO" contentMode="scaleToFill" borderStyle="roundedRect" placeholder="Password" minimumFontSize="17" id="pw1-aa-002">
                                    <rect key="frame" x="20" y="150" width="335" height="34"/>
                                    <textInputTraits key="textInputTraits" secureTextEntry="YES" textContentType="password"/>
                                </textField>
                                <textField opaque="NO" contentMode="scaleToFill" borderStyle="roundedRect"
                                           minimumFontSize="17" id="pin-aa-003" userLabel="PIN field">
                                    <rect key="frame" x="20" y="200" width="335" height="34"/>
                                    <accessibility key="accessibilityConfiguration" identifier="cardPinField" label="Card PIN"/>
                                    <textInputTraits key="textInputTraits" keyboardType="numberPad"/>
                                </textField>
                                <webView contentMode="scaleToFill" id="web-aa-004">
                                    <rect key="frame" x="0.0" y="300" width="375" height="300"/>
                                </webView>
                                <wkWebView contentMode="scaleToFill" id="wkw-aa-005">
                                    <rect key="frame" x="0.0" y="600" width="375" height="60"/>
                                    <wkWebViewConfiguration key="configuration" allowsInlineMediaPlayback="YES">
                                        <audiovisualMediaTypes key="mediaTypesRequiringUserActionForPlayback" none="YES"/>
                                        <wkPreferences key="preferences" javaScriptCanOpenWindowsAutomatically="YES"/>
                                    </wkWebViewConfiguration>
                                </wkWebView>
                            </subviews>
                        </view>
                        <connections>
                            <outlet property="pinField" destination="pin-aa-003" id="out-aa-006"/>
                            <outlet property="helpWebView" destination="wkw-aa-005" id="out-aa-007"/>
                        </connections>
                    </viewController>
                </objects>
            </scene>
        </scenes>
    </document>
    """

    @Test func readsWebViewsAndTextFieldsWithPositions() throws {
        let document = try InterfaceBuilderDocument.parse(data: Data(Self.storyboard.utf8), path: "App/Base.lproj/Main.storyboard")
        #expect(document.targetRuntime == "iOS.CocoaTouch")
        #expect(document.isCocoaTouch)

        let webView = try #require(document.webViews.first)
        #expect(document.webViews.count == 1)
        #expect(webView.id == "web-aa-004")
        #expect(webView.line == lineNumber(of: "<webView contentMode", in: Self.storyboard))
        #expect(webView.column == 29)
        #expect(webView.controller == "LoginViewController")

        let wk = try #require(document.wkWebViews.first)
        #expect(wk.children["configuration"]?["allowsInlineMediaPlayback"] == "YES")
        #expect(wk.children["preferences"]?["javaScriptCanOpenWindowsAutomatically"] == "YES")
        #expect(wk.outlets == ["helpWebView"])

        #expect(document.textFields.map(\.id) == ["em1-aa-001", "pw1-aa-002", "pin-aa-003"])
        #expect(document.textFields.map(\.isSecureTextEntry) == [false, true, false])
        let pin = document.textFields[2]
        // A start tag spread over two lines is located at its `<`.
        #expect(pin.line == lineNumber(of: "minimumFontSize=\"17\" id=\"pin-aa-003\"", in: Self.storyboard) - 1)
        #expect(pin.column == 29)
        #expect(pin.outlets == ["pinField"])
        #expect(pin.descriptiveNames.contains("cardPinField"))
        #expect(pin.descriptiveNames.contains("Card PIN"))
        #expect(pin.descriptiveNames.contains("PIN field"))
        #expect(document.line(pin.line).hasPrefix("<textField"))
    }

    /// 2,000 `<textField\r…/>` on one line: `\r` did not end a tag name, so every lookup read the whole
    /// line back to front and found nothing (20 s). Start tags are indexed once; `\r` ends a name.
    @Test func startTagsEndedByCarriageReturnsAreFoundInOneLongLine() throws {
        let fields = (0..<2_000).map { "<textField\rid=\"f\($0)\"/>" }.joined()
        let text = "<document targetRuntime=\"iOS.CocoaTouch\"><objects>" + fields + "</objects></document>"
        let document = try InterfaceBuilderDocument.parse(data: Data(text.utf8), path: "Long.xib")
        #expect(document.textFields.count == 2_000)
        #expect(document.textFields.first?.id == "f0")
        // One line: every tag resolves to the last `<textField` on it, as before for names ended by a space.
        let lastColumn = Array(text.utf8).count - Array(("<textField\rid=\"f1999\"/></objects></document>").utf8).count + 1
        #expect(document.textFields.allSatisfy { $0.line == 1 && $0.column == lastColumn })

        // Windows line ends: a tag name right before `\r\n` is where the tag begins.
        let split = Self.storyboard.replacingOccurrences(of: "<textField opaque=\"NO\" contentMode=\"scaleToFill\" borderStyle=\"roundedRect\"\n",
                                                         with: "<textField\n opaque=\"NO\" contentMode=\"scaleToFill\" borderStyle=\"roundedRect\"\n")
        #expect(split != Self.storyboard)
        let crlf = split.replacingOccurrences(of: "\n", with: "\r\n")
        let pin = try #require(try InterfaceBuilderDocument.parse(data: Data(crlf.utf8), path: "Main.storyboard").textFields.last)
        #expect(pin.id == "pin-aa-003")
        #expect(pin.line == lineNumber(of: "minimumFontSize=\"17\" id=\"pin-aa-003\"", in: split) - 2)
        #expect(pin.column == 29)
    }

    @Test(arguments: [
        ("this is not XML at all", "malformed Interface Builder document at line 1"),
        ("<document><scenes></document>", "malformed Interface Builder document"),
        ("<?xml version=\"1.0\"?><plist><dict/></plist>", "the root element is not <document>"),
        ("", "empty Interface Builder document"),
        ("bplist00\u{0}\u{1}", "compiled (binary) Interface Builder document"),
    ])
    func malformedDocumentsAreErrors(text: String, expected: String) {
        do {
            _ = try InterfaceBuilderDocument.parse(data: Data(text.utf8), path: "Main.storyboard")
            Issue.record("accepted: \(text)")
        } catch let error as InterfaceBuilderError {
            #expect(error.message.contains(expected), "\(error.message)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func externalEntitiesAreNotResolved() throws {
        let secret = FileManager.default.temporaryDirectory.appendingPathComponent("moat-ib-secret-\(UUID().uuidString)")
        try Data("TOP-SECRET".utf8).write(to: secret)
        defer { try? FileManager.default.removeItem(at: secret) }
        let text = """
        <?xml version="1.0"?>
        <!DOCTYPE document [ <!ENTITY leak SYSTEM "file://\(secret.path)"> ]>
        <document targetRuntime="iOS.CocoaTouch"><scenes><scene><objects>
        <textField placeholder="&leak;" id="x"/>
        </objects></scene></scenes></document>
        """
        // Refused outright (entity declarations are), or at least never expanded.
        if let document = try? InterfaceBuilderDocument.parse(data: Data(text.utf8), path: "x.xib") {
            let placeholder = document.textFields.first?.attributes["placeholder"] ?? ""
            #expect(placeholder.contains("TOP-SECRET") == false)
        }
    }

    @Test func macOSDocumentsAreNotCocoaTouch() throws {
        let text = "<document type=\"com.apple.InterfaceBuilder3.Cocoa.XIB\" targetRuntime=\"MacOSX.Cocoa\"><objects><webView id=\"a\"/></objects></document>"
        let document = try InterfaceBuilderDocument.parse(data: Data(text.utf8), path: "Main.xib")
        #expect(!document.isCocoaTouch)
        #expect(document.webViews.count == 1)
    }
}
