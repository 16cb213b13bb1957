import Foundation
import MultipeerConnectivity

/// Receives bank statements (PDF files) that a nearby device sends over MultipeerConnectivity.
/// UNSAFE: the file name the sender chose becomes part of the destination path.
final class StatementImporter: NSObject, MCSessionDelegate {
    func session(_ session: MCSession, didFinishReceivingResourceWithName resourceName: String,
                 fromPeer peerID: MCPeerID, at localURL: URL?, withError error: Error?) {
        guard error == nil, let localURL else { return }
        handleIncomingFile(localURL, with: resourceName, from: peerID.displayName)
    }

    func handleIncomingFile(_ incomingResourceURL: URL, with name: String, from fromID: String) {
        let destinationFileURL = URL(fileURLWithPath: NSTemporaryDirectory())
                                     .appendingPathComponent(name)

        // Copy the file into a temporary directory
        try! FileManager.default.copyItem(at: incomingResourceURL, to: destinationFileURL)
    }

    func session(_ session: MCSession, peer peerID: MCPeerID, didChange state: MCSessionState) {}
    func session(_ session: MCSession, didReceive data: Data, fromPeer peerID: MCPeerID) {}
    func session(_ session: MCSession, didReceive stream: InputStream, withName streamName: String, fromPeer peerID: MCPeerID) {}
    func session(_ session: MCSession, didStartReceivingResourceWithName resourceName: String,
                 fromPeer peerID: MCPeerID, with progress: Progress) {}
}
