#import <Foundation/Foundation.h>

NS_ASSUME_NONNULL_BEGIN

@interface LBStatementArchive : NSObject
- (nullable id)loadStatementFromData:(NSData *)data;
- (nullable NSDictionary *)loadStatementSafelyFromData:(NSData *)data;
- (void)parseStatementXML:(NSData *)xml;
@end

NS_ASSUME_NONNULL_END
