#import <Foundation/Foundation.h>
#import <MultipeerConnectivity/MultipeerConnectivity.h>
#import <CommonCrypto/CommonCrypto.h>

// Nearby payment packets: a header, then a body. The unsafe reader sizes the body buffer with one header
// field and copies a length from another; the safe one checks the length against the size first.
typedef struct { uint32_t size; uint32_t length; } LBPacketHeader;

static NSString *const kLBPacketKey = @"packet-key-0123456789abcdef";

@interface LBPacketReader : NSObject <MCSessionDelegate>
@end

@implementation LBPacketReader

- (void)session:(MCSession *)session didReceiveData:(NSData *)data fromPeer:(MCPeerID *)peerID {
    const LBPacketHeader *header = (const LBPacketHeader *)data.bytes;
    uint8_t *body = malloc(header->size);
    memcpy(body, (const uint8_t *)data.bytes + sizeof(LBPacketHeader), header->length);
    [self handleBody:body size:header->size];
}

- (void)handleBody:(uint8_t *)body size:(uint32_t)size {
    free(body);
}

- (NSData *)decryptPacket:(NSData *)packet {
    NSData *key = [kLBPacketKey dataUsingEncoding:NSUTF8StringEncoding];
    NSMutableData *output = [NSMutableData dataWithLength:packet.length + kCCBlockSizeAES128];
    size_t moved = 0;
    CCCrypt(kCCDecrypt, kCCAlgorithmAES, kCCOptionPKCS7Padding, key.bytes, kCCKeySizeAES128, NULL,
            packet.bytes, packet.length, output.mutableBytes, output.length, &moved);
    output.length = moved;
    return output;
}

@end

@interface LBSafePacketReader : NSObject <MCSessionDelegate>
@end

@implementation LBSafePacketReader

- (void)session:(MCSession *)session didReceiveData:(NSData *)data fromPeer:(MCPeerID *)peerID {
    const LBPacketHeader *header = (const LBPacketHeader *)data.bytes;
    if (header->length > header->size) {
        return;
    }
    uint8_t *body = malloc(header->size);
    memcpy(body, (const uint8_t *)data.bytes + sizeof(LBPacketHeader), header->length);
    [self handleBody:body size:header->size];
}

- (void)handleBody:(uint8_t *)body size:(uint32_t)size {
    free(body);
}

@end
