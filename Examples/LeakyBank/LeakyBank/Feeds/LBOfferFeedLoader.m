#import <Foundation/Foundation.h>
#import "LBOfferFeedDelegate.h"

/// Offers arrive as an XML document from the offers server; LBOfferFeedDelegate (another file) handles it.
@implementation LBOfferFeedLoader

- (void)connection:(NSURLConnection *)connection didReceiveData:(NSData *)data {
    NSXMLParser *parser = [[NSXMLParser alloc] initWithData:data];
    LBOfferFeedDelegate *handler = [[LBOfferFeedDelegate alloc] init];
    [parser setDelegate:handler];
    [parser parse];
}

@end
