#import <Foundation/Foundation.h>
#import "LBOfferFeedDelegate.h"

/// Filters the stored offers by the text of the feed's <filter> element.
@implementation LBOfferFeedDelegate

- (void)parser:(NSXMLParser *)parser foundCharacters:(NSString *)string {
    NSPredicate *filter = [NSPredicate predicateWithFormat:string];    // MOAT-CODE-306: a format from the offers server
    self.visibleOffers = [self.offers filteredArrayUsingPredicate:filter];
}

@end
