import Foundation
import MultipeerConnectivity

/// "Split the bill": friends nearby join a session to share a receipt.
struct RemoteMessage: Codable {
    enum Kind: String, Codable { case invite, inviteAccepted, receipt }
    var kind: Kind
    var sessionIdentifier: UUID
}

final class BillSplitSession {
    enum State { case inviting, connected, closed }
    let identifier = UUID()
    var state: State = .inviting
    var invitedFromIdentifiers: Set<String> = []

    func setupSocket(to peer: String, completion: @escaping (OutputStream) -> Void) {
        // Opens a stream to the peer (omitted).
    }
}

final class ReceiptSharer {
    func send(to socket: OutputStream) {}
}

/// UNSAFE: an invitation-accepted message connects the session it names, whatever its state and
/// whoever sent it.
final class BillSplitCoordinator: NSObject, MCSessionDelegate {
    var sessionsByIdentifier: [UUID: BillSplitSession] = [:]
    let receiptSharer = ReceiptSharer()

    func session(_ session: MCSession, didReceive data: Data, fromPeer peerID: MCPeerID) {
        guard let message = try? JSONDecoder().decode(RemoteMessage.self, from: data) else { return }
        if message.kind == .inviteAccepted {
            handleSessionInviteAccepted(with: message, from: peerID.displayName)
        }
    }

    func handleSessionInviteAccepted(with message: RemoteMessage, from fromID: String) {
        guard let session = sessionsByIdentifier[message.sessionIdentifier] else { return }

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
