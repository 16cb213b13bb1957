#import "LBBillSplitSession.h"

/// SAFE: the session is looked up from the message, must still be inviting, and the sender must be one of
/// the invited peers before it is connected.
@implementation LBSafeBillSplitCoordinator

- (void)session:(MCSession *)session didReceiveData:(NSData *)data fromPeer:(MCPeerID *)peerID {
    LBRemoteMessage *message = [LBRemoteMessage messageWithData:data];
    if ([message.kind isEqualToString:@"inviteAccepted"]) {
        [self handleSessionInviteAccepted:message fromID:peerID.displayName];
    }
}

- (void)handleSessionInviteAccepted:(LBRemoteMessage *)message fromID:(NSString *)fromID {
    LBBillSplitSession *session = self.sessionsByIdentifier[message.sessionIdentifier];
    if (session == nil ||
        session.state != LBBillSplitStateInviting ||
        ![session.invitedFromIdentifiers containsObject:fromID]) {
        return;
    }
    session.state = LBBillSplitStateConnected;
    [session setupSocketTo:fromID];
}

- (void)session:(MCSession *)session peer:(MCPeerID *)peerID didChangeState:(MCSessionState)state {}
- (void)session:(MCSession *)session didReceiveStream:(NSInputStream *)stream withName:(NSString *)streamName
       fromPeer:(MCPeerID *)peerID {}
- (void)session:(MCSession *)session didStartReceivingResourceWithName:(NSString *)resourceName
       fromPeer:(MCPeerID *)peerID withProgress:(NSProgress *)progress {}
- (void)session:(MCSession *)session didFinishReceivingResourceWithName:(NSString *)resourceName
       fromPeer:(MCPeerID *)peerID atURL:(NSURL *)localURL withError:(NSError *)error {}

@end
