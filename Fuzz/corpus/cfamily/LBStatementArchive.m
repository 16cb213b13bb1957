#import "LBStatementArchive.h"
#import <UIKit/UIKit.h>

@implementation LBStatementArchive

- (nullable id)loadStatementFromData:(NSData *)data {
    // Written for iOS 9; kept for statements cached by old versions.
    return [NSKeyedUnarchiver unarchiveObjectWithData:data];
}

- (nullable NSDictionary *)loadStatementSafelyFromData:(NSData *)data {
    NSError *error = nil;
    return [NSKeyedUnarchiver unarchivedObjectOfClass:[NSDictionary class] fromData:data error:&error];
}

- (void)parseStatementXML:(NSData *)xml {
    NSXMLParser *parser = [[NSXMLParser alloc] initWithData:xml];
    [parser setShouldResolveExternalEntities:YES];
    [parser parse];
}

- (UIView *)statementPreview {
    UIWebView *preview = [[UIWebView alloc] initWithFrame:CGRectZero];
    return preview;
}

@end
