#import <Foundation/Foundation.h>

// The card cipher's key, shared by every file that includes this header.
#define LB_CARD_KEY @"card-key-0123456789abcdef012345"

@interface LBCardCipher : NSObject
- (NSData *)encryptUnsafe:(NSData *)card;
- (NSData *)encryptSafe:(NSData *)card key:(NSData *)key;
@end
