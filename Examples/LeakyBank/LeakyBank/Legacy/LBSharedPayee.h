#import <CloudKit/CloudKit.h>
#import <Foundation/Foundation.h>

NS_ASSUME_NONNULL_BEGIN

/// A payee shared with family members through a shared CloudKit database: whoever shares the record
/// chooses its fields.
@interface LBSharedPayee : NSObject
- (BOOL)unpackSharedPayeeRecord:(CKRecord *)record;
@end

@interface LBSafeSharedPayee : NSObject
- (BOOL)unpackSharedPayeeRecord:(CKRecord *)record;
@end

NS_ASSUME_NONNULL_END
