#import <Foundation/Foundation.h>
#import <Security/Security.h>
#import <AFNetworking/AFNetworking.h>

@implementation SSLTrustManager
// The trust manager of the Italian TLS reference, as written: MOAT-NET-202 and MOAT-NET-203.
+ (BOOL)shouldTrustServerTrust:(SecTrustRef)serverTrust forCert:(NSString*)certName {
// Load up the bundled certificate.
NSString *certPath = [[NSBundle mainBundle] pathForResource:certName ofType:@"der"];
NSData *certData = [[NSData alloc] initWithContentsOfFile:certPath];
CFDataRef certDataRef = (__bridge_retained CFDataRef)certData;
SecCertificateRef cert = SecCertificateCreateWithData(NULL, certDataRef);

// Establish a chain of trust anchored on our bundled certificate.
CFArrayRef certArrayRef = CFArrayCreate(NULL, (void *)&cert, 1, NULL);
SecTrustSetAnchorCertificates(serverTrust, certArrayRef);

// Verify that trust.
SecTrustResultType trustResult;
SecTrustEvaluate(serverTrust, &trustResult);

// Clean up.
CFRelease(certArrayRef);
CFRelease(cert);
CFRelease(certDataRef);

// Did our custom trust chain evaluate successfully?
return trustResult == kSecTrustResultUnspecified;
}

// Fixed: SecTrustEvaluateWithError decides (safe).
+ (BOOL)checkedTrust:(SecTrustRef)serverTrust anchors:(NSArray *)anchors {
    SecTrustSetAnchorCertificates(serverTrust, (__bridge CFArrayRef)anchors);
    CFErrorRef error = NULL;
    return SecTrustEvaluateWithError(serverTrust, &error);
}

+ (AFSecurityPolicy *)legacyPolicy {
    AFSecurityPolicy *policy = [AFSecurityPolicy defaultPolicy];
    policy.allowInvalidCertificates = YES;                          // MOAT-NET-207
    policy.validatesDomainName = NO;                                // MOAT-NET-207
    return policy;
}

@end
