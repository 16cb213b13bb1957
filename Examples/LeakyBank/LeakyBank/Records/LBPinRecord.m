#import <CoreData/CoreData.h>

// Unsafe: a managed object subclass in Objective-C; the PIN is assigned to a Core Data attribute.
@interface LBPinRecord : NSManagedObject
@property (nonatomic, copy) NSString *owner;
@property (nonatomic, copy) NSString *pinCode;
@end

@implementation LBPinRecord
@dynamic owner, pinCode;
@end

@interface LBPinRecorder : NSObject
@end

@implementation LBPinRecorder
- (void)recordPinCode:(NSString *)pinCode owner:(NSString *)owner context:(NSManagedObjectContext *)context {
    LBPinRecord *record = [NSEntityDescription insertNewObjectForEntityForName:@"LBPinRecord" inManagedObjectContext:context];
    record.owner = owner;                              // quiet: not a secret
    record.pinCode = pinCode;                          // MOAT-STOR-301
}
@end
