#import <Foundation/Foundation.h>
#import <MultipeerConnectivity/MultipeerConnectivity.h>

NS_ASSUME_NONNULL_BEGIN

typedef NS_ENUM(NSInteger, LBBillSplitState) {
    LBBillSplitStateInviting,
    LBBillSplitStateConnected,
    LBBillSplitStateClosed,
};

/// "Split the bill": friends nearby join a session to share a receipt.
@interface LBBillSplitSession : NSObject
@property (nonatomic) LBBillSplitState state;
@property (nonatomic, copy) NSSet<NSString *> *invitedFromIdentifiers;
- (void)setupSocketTo:(NSString *)peer;
@end

@interface LBRemoteMessage : NSObject
@property (nonatomic, copy) NSString *kind;
@property (nonatomic, copy) NSString *sessionIdentifier;
+ (nullable instancetype)messageWithData:(NSData *)data;
@end

@interface LBBillSplitCoordinator : NSObject <MCSessionDelegate>
@property (nonatomic, strong) NSMutableDictionary<NSString *, LBBillSplitSession *> *sessionsByIdentifier;
@end

@interface LBSafeBillSplitCoordinator : NSObject <MCSessionDelegate>
@property (nonatomic, strong) NSMutableDictionary<NSString *, LBBillSplitSession *> *sessionsByIdentifier;
@end

NS_ASSUME_NONNULL_END
