#import <UIKit/UIKit.h>

/// iOS 8 era entry point kept "just in case": the deprecated handler gets no source application and no
/// options, so it cannot tell who sent the URL.
@interface LBLegacyURLHandler : UIResponder <UIApplicationDelegate>
@end

@implementation LBLegacyURLHandler

- (BOOL)application:(UIApplication *)application handleOpenURL:(NSURL *)url {
    return [url.host isEqualToString:@"transfer"];
}

@end
