#import <Foundation/Foundation.h>
#import "GCDAsyncSocket.h"

@interface LBTellerSocket : NSObject <GCDAsyncSocketDelegate>
@end

@implementation LBTellerSocket

- (void)socket:(GCDAsyncSocket *)socket didConnectToHost:(NSString *)host port:(uint16_t)port {
    NSMutableDictionary *settings = [NSMutableDictionary dictionary];
    settings[GCDAsyncSocketSSLProtocolVersionMin] = @(kTLSProtocol1);
    settings[GCDAsyncSocketSSLProtocolVersionMax] = @(kTLSProtocol13);
    [socket startTLS:settings];
}

- (void)secureStream:(CFReadStreamRef)stream {
    NSDictionary *ssl = @{ (__bridge id)kCFStreamSSLLevel: (__bridge id)kCFStreamSocketSecurityLevelNegotiatedSSL };
    CFReadStreamSetProperty(stream, kCFStreamPropertySSLSettings, (__bridge CFDictionaryRef)ssl);
}

@end
