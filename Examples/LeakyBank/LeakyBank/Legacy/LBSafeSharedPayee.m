#import "LBSharedPayee.h"
#include <os/overflow.h>

/// SAFE: the WWDC 2022 unpacking code: type and exact length before memcpy, os_mul_overflow before the
/// byte count is compared with the data.
@implementation LBSafeSharedPayee {
    uuid_t _uuid;
    NSString *_name;
}

- (BOOL)unpackSharedPayeeRecord:(CKRecord *)record {
    NSData *data = [record objectForKey:@"uuid"];
    if (data == nil ||
        ![data isKindOfClass:[NSData class]] ||
        data.length != sizeof(_uuid)) {
        return NO;
    }
    memcpy(&_uuid, data.bytes, data.length);

    NSData *name = [record objectForKey:@"name"];
    int32_t count = [[record objectForKey:@"nameCount"] unsignedIntegerValue];
    int32_t byteCount = 0;
    if (name == nil ||
        ![name isKindOfClass:[NSData class]] ||
        os_mul_overflow(count, sizeof(unichar), &byteCount) ||
        name.length != byteCount) {
        return NO;
    }
    _name = [[NSString alloc] initWithCharacters:name.bytes
                                          length:count];
    return YES;
}

@end
