import Foundation
import MultipeerConnectivity

/// Links with nearby devices for shared budgets, one state per peer.
enum LinkState { case inviting, connected, disconnected }

struct LinkMessage: Decodable {
    enum Kind: String, Decodable { case accept, leave }
    let kind: Kind
}

final class PeerLinks: NSObject {
    var peerStates: [MCPeerID: LinkState] = [:]

    func session(_ session: MCSession, didReceive data: Data, fromPeer peerID: MCPeerID) {
        guard let message = try? JSONDecoder().decode(LinkMessage.self, from: data), message.kind == .accept else { return }
        peerStates[peerID] = .connected    // MOAT-CODE-302: any peer can mark itself connected
    }
}

final class SafePeerLinks: NSObject {
    var peerStates: [MCPeerID: LinkState] = [:]

    func session(_ session: MCSession, didReceive data: Data, fromPeer peerID: MCPeerID) {
        guard let message = try? JSONDecoder().decode(LinkMessage.self, from: data), message.kind == .accept,
              peerStates[peerID] == .inviting else { return }
        peerStates[peerID] = .connected    // safe: only a peer this device invited moves on
    }
}
