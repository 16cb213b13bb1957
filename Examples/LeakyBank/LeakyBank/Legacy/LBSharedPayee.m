#import "LBSharedPayee.h"

/// UNSAFE: the uuid field is copied with its own length, and the name's byte count is a plain
/// multiplication that wraps around.
@implementation LBSharedPayee {
    uuid_t _uuid;
    NSString *_name;
}

- (BOOL)unpackSharedPayeeRecord:(CKRecord *)record {
    NSData *data = [record objectForKey:@"uuid"];
    if (data == nil) {
        return NO;
    }
    memcpy(&_uuid, data.bytes, data.length);

    NSData *name = [record objectForKey:@"name"];
    int32_t count = [[record objectForKey:@"nameCount"] unsignedIntegerValue];
    if (name == nil ||
        ![name isKindOfClass:[NSData class]] ||
        name.length != count * sizeof(unichar)) {
        return NO;
    }
    _name = [[NSString alloc] initWithCharacters:name.bytes
                                          length:count];
    return YES;
}

@end
