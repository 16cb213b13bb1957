import Foundation
import MultipeerConnectivity

/// SAFE: the session is looked up from the message, must still be inviting, and the sender must be one of
/// the invited peers before it is connected (WWDC 2022, "Secure your app: threat modeling and
/// anti-patterns"). Reuses RemoteMessage, BillSplitSession and ReceiptSharer from BillSplitSession.swift.
final class SafeBillSplitCoordinator: NSObject, MCSessionDelegate {
    var sessionsByIdentifier: [UUID: BillSplitSession] = [:]
    let receiptSharer = ReceiptSharer()

    func session(_ session: MCSession, didReceive data: Data, fromPeer peerID: MCPeerID) {
        guard let message = try? JSONDecoder().decode(RemoteMessage.self, from: data) else { return }
        if message.kind == .inviteAccepted {
            handleSessionInviteAccepted(with: message, from: peerID.displayName)
        }
    }

    func handleSessionInviteAccepted(with message: RemoteMessage, from fromID: String) {
        guard let session = sessionsByIdentifier[message.sessionIdentifier],
              session.state == .inviting,
              session.invitedFromIdentifiers.contains(fromID) else { return }

        session.state = .connected
        session.setupSocket(to: fromID) { socket in
            self.receiptSharer.send(to: socket)
        }
    }

    func session(_ session: MCSession, peer peerID: MCPeerID, didChange state: MCSessionState) {}
    func session(_ session: MCSession, didReceive stream: InputStream, withName streamName: String, fromPeer peerID: MCPeerID) {}
    func session(_ session: MCSession, didStartReceivingResourceWithName resourceName: String,
                 fromPeer peerID: MCPeerID, with progress: Progress) {}
    func session(_ session: MCSession, didFinishReceivingResourceWithName resourceName: String,
                 fromPeer peerID: MCPeerID, at localURL: URL?, withError error: Error?) {}
}
