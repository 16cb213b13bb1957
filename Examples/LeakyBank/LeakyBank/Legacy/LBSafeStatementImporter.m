#import <Foundation/Foundation.h>
#import <MultipeerConnectivity/MultipeerConnectivity.h>

/// Receives bank statements that a nearby device sends over MultipeerConnectivity.
/// SAFE: the name is reduced to one path component and "", "." and ".." are rejected.
@interface LBSafeStatementImporter : NSObject <MCSessionDelegate>
@end

@implementation LBSafeStatementImporter

- (void)session:(MCSession *)session didFinishReceivingResourceWithName:(NSString *)resourceName
       fromPeer:(MCPeerID *)peerID atURL:(NSURL *)localURL withError:(NSError *)error {
    if (error != nil || localURL == nil) {
        return;
    }
    [self handleIncomingFile:localURL withName:resourceName fromID:peerID.displayName];
}

- (void)handleIncomingFile:(NSURL *)incomingResourceURL withName:(NSString *)name fromID:(NSString *)fromID {
    NSString *safeFileName = name.lastPathComponent;
    if (safeFileName.length == 0 ||
        [safeFileName isEqualToString:@".."] ||
        [safeFileName isEqualToString:@"."]) {
        return;
    }
    NSURL *destinationFileURL = [[NSURL fileURLWithPath:NSTemporaryDirectory()] URLByAppendingPathComponent:safeFileName];

    // Copy the file into a temporary directory
    [[NSFileManager defaultManager] copyItemAtURL:incomingResourceURL toURL:destinationFileURL error:nil];
}

- (void)session:(MCSession *)session peer:(MCPeerID *)peerID didChangeState:(MCSessionState)state {}
- (void)session:(MCSession *)session didReceiveData:(NSData *)data fromPeer:(MCPeerID *)peerID {}
- (void)session:(MCSession *)session didReceiveStream:(NSInputStream *)stream withName:(NSString *)streamName
       fromPeer:(MCPeerID *)peerID {}
- (void)session:(MCSession *)session didStartReceivingResourceWithName:(NSString *)resourceName
       fromPeer:(MCPeerID *)peerID withProgress:(NSProgress *)progress {}

@end
