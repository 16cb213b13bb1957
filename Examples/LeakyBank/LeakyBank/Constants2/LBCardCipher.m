#import "LBCardKeys.h"
#import <CommonCrypto/CommonCrypto.h>
#import <Security/Security.h>

// Card numbers kept on the device. The unsafe cipher uses the header's key, a zero IV in a C array and a
// salt in a C string; the safe one a key passed in and an IV and salt filled by the system's generator.
#define LB_CARD_IV_LENGTH 16

@implementation LBCardCipher

- (NSData *)encryptUnsafe:(NSData *)card {
    uint8_t iv[LB_CARD_IV_LENGTH] = {0};
    NSMutableData *output = [NSMutableData dataWithLength:card.length + kCCBlockSizeAES128];
    size_t moved = 0;
    CCCrypt(kCCEncrypt, kCCAlgorithmAES, kCCOptionPKCS7Padding, [LB_CARD_KEY UTF8String], kCCKeySizeAES256, iv,
            card.bytes, card.length, output.mutableBytes, output.length, &moved);
    output.length = moved;
    return output;
}

- (NSData *)deriveUnsafe:(NSString *)pin {
    char salt[] = "card-pin-salt-01";
    NSMutableData *derived = [NSMutableData dataWithLength:32];
    CCKeyDerivationPBKDF(kCCPBKDF2, pin.UTF8String, strlen(pin.UTF8String), (const uint8_t *)salt, strlen(salt),
                         kCCPRFHmacAlgSHA256, 100000, derived.mutableBytes, derived.length);
    return derived;
}

- (NSData *)encryptSafe:(NSData *)card key:(NSData *)key {
    uint8_t iv[LB_CARD_IV_LENGTH] = {0};
    if (SecRandomCopyBytes(kSecRandomDefault, sizeof(iv), iv) != errSecSuccess) {
        return nil;
    }
    NSMutableData *output = [NSMutableData dataWithLength:card.length + kCCBlockSizeAES128];
    size_t moved = 0;
    CCCrypt(kCCEncrypt, kCCAlgorithmAES, kCCOptionPKCS7Padding, key.bytes, key.length, iv,
            card.bytes, card.length, output.mutableBytes, output.length, &moved);
    output.length = moved;
    NSMutableData *sealed = [NSMutableData dataWithBytes:iv length:sizeof(iv)];
    [sealed appendData:output];
    return sealed;
}

- (NSData *)deriveSafe:(NSString *)pin {
    uint8_t salt[16] = {0};
    CCRandomGenerateBytes(salt, sizeof(salt));
    NSMutableData *derived = [NSMutableData dataWithLength:32];
    CCKeyDerivationPBKDF(kCCPBKDF2, pin.UTF8String, strlen(pin.UTF8String), salt, sizeof(salt),
                         kCCPRFHmacAlgSHA256, 100000, derived.mutableBytes, derived.length);
    return derived;
}

@end
