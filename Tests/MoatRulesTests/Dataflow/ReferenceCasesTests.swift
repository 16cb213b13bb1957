import Testing
import MoatCore
import MoatSyntax
@testable import MoatRules

private typealias Support = DataflowTestSupport

/// The reference documents' cases of issue 14 item 8 that slipped through.
struct ReferenceCasesTests {
    @Test func classNamesFromTheNetworkTurnedIntoClassesInAClosure() throws {
        let findings = Support.findings(DeserializationAllowlistRule.self, """
        func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
            guard let names = message.body as? [String] else { return }
            let classes = names.compactMap { NSClassFromString($0) }
            for cls in classes { _ = (cls as? NSObject.Type)?.init() }
            let views = names.map { name -> AnyClass? in
                return NSClassFromString(name)
            }
            show(NSSet(array: views))
        }
        """)
        #expect(findings.map(\.location.line) == [3, 6])
        #expect(findings.first?.message.hasPrefix("WKScriptMessage.body names the class that is looked up here") == true)
    }

    @Test func classesOnlyInspectedInAClosureStayQuiet() {
        let findings = Support.findings(DeserializationAllowlistRule.self, """
        func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
            guard let names = message.body as? [String] else { return }
            let known = names.filter { NSClassFromString($0) != nil }
            let allowed = names.compactMap { NSClassFromString($0) }.filter { $0.conforms(to: SafeModel.self) }
            print(known, allowed)
        }
        """)
        #expect(findings.isEmpty)
    }

    @Test func anEntryOfAStateTableSetByARemoteMessage() throws {
        let findings = Support.findings(RemoteMessageStateRule.self, """
        final class PeerLink: NSObject, MCSessionDelegate {
            var peerStates: [MCPeerID: LinkState] = [:]
            func session(_ session: MCSession, didReceive data: Data, fromPeer peerID: MCPeerID) {
                peerStates[peerID] = .connected
            }
            func handleInvite(_ message: Invite, from senderID: String) {
                guard sessionStates[message.sessionID] == .inviting, message.invited.contains(senderID) else { return }
                sessionStates[message.sessionID] = .active
            }
            func handleLeave(_ message: Leave, from senderID: String) {
                sessionStates[message.sessionID] = nil
                connectionStatus[senderID] = .closed
            }
        }
        """)
        #expect(findings.map(\.location.line) == [4])
        let finding = try #require(findings.first)
        #expect(finding.message == "session(_:didReceive:fromPeer:) handles a message from `peerID` and sets the entry `peerStates[peerID]` of a state table to `.connected` without comparing the current state of `peerStates[peerID]` with the state the message is valid in and without checking that the sender `peerID` is one of its peers: a stale, replayed or forged message can move `peerStates[peerID]` forward.")
    }
}

/// Class names read back from storage (issue 14 item 8): medium severity, low confidence.
struct StoredClassNameTests {
    @Test func aStoredClassNameIsMediumWithLowConfidence() throws {
        let findings = Support.findings(DeserializationAllowlistRule.self, """
        func restore() -> UIViewController? {
            guard let name = UserDefaults.standard.string(forKey: "lastScreen"),
                  let screen = NSClassFromString(name) as? UIViewController.Type else { return nil }
            return screen.init()
        }
        func reload(from path: String) -> AnyObject? {
            let name = try? String(contentsOfFile: path, encoding: .utf8)
            return (NSClassFromString(name ?? "") as? NSObject.Type)?.init()
        }
        """)
        #expect(findings.map(\.location.line) == [3, 8])
        let finding = try #require(findings.first)
        #expect(finding.severity == .medium && finding.confidence == .low)
        #expect(finding.message.hasPrefix("A value read back from UserDefaults names the class that is looked up here and then used by init()"))
    }

    @Test func storedValuesReachNoOtherSink() {
        let flows = Support.flows("""
        func save(_ data: Data, folder: URL) throws {
            let name = UserDefaults.standard.string(forKey: "name") ?? ""
            try data.write(to: folder.appendingPathComponent(name))
            webView.evaluateJavaScript(UserDefaults.standard.string(forKey: "script") ?? "")
        }
        """)
        #expect(flows.isEmpty)
    }

    @Test func anUntrustedNameStoredThenReadIsStillUntrusted() throws {
        let findings = Support.findings(DeserializationAllowlistRule.self, """
        func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
            let name = url.host ?? ""
            let screen = NSClassFromString(name) ?? NSClassFromString(UserDefaults.standard.string(forKey: "last") ?? "")
            _ = (screen as? NSObject.Type)?.init()
            return true
        }
        """)
        // Each lookup is judged by its own evidence: the URL's host is untrusted, the stored name is not.
        #expect(findings.map(\.severity) == [.high, .medium])
    }
}
