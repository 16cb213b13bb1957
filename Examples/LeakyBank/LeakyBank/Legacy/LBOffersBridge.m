#import <WebKit/WebKit.h>
#import <JavaScriptCore/JavaScriptCore.h>

@interface LBOffersBridge : NSObject
@property (nonatomic, strong) WKWebView *webView;
@end

@implementation LBOffersBridge

- (void)configure:(JSContext *)context {
    [self.webView.configuration.preferences setValue:@YES forKey:@"allowUniversalAccessFromFileURLs"]; // MOAT-PLAT-201
    context[@"log"] = ^(NSString *message) { NSLog(@"%@", message); };                              // MOAT-PLAT-209 (inventory)
    NSURL *url = [NSURL URLWithString:@"http://partners.leakybank.example/"];
    [self.webView loadRequest:[NSURLRequest requestWithURL:url]];                                  // MOAT-PLAT-208
}

- (void)greet:(NSString *)name {
    NSString *script = [NSString stringWithFormat:@"greet('%@')", name];
    [self.webView evaluateJavaScript:script completionHandler:nil];                                // MOAT-PLAT-211
    [self.webView evaluateJavaScript:@"document.title" completionHandler:nil];                     // safe
}

@end
