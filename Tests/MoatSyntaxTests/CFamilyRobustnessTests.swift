import Foundation
import Testing
import MoatSyntax

/// The front end must return on any input: malformed, truncated, random, huge or deeply nested.
@Suite struct CFamilyRobustnessTests {
    /// A small deterministic generator (SplitMix64), so failures reproduce.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let realistic = """
    #import <UIKit/UIKit.h>
    #import "Secrets.h"
    @import WebKit;

    NS_ASSUME_NONNULL_BEGIN
    static NSString *const kAPIKey = @"sk_live_1234"; // moat:ignore MOAT-SEC-001 -- test key
    typedef NS_ENUM(NSInteger, Mode) { ModeA = 0, ModeB API_AVAILABLE(ios(13.0)) };

    @interface LoginViewController : UIViewController <UIWebViewDelegate, WKNavigationDelegate>
    @property (nonatomic, strong) UIWebView *webView;
    @property (nonatomic, copy) void (^completion)(BOOL ok, NSError * _Nullable error);
    - (BOOL)application:(UIApplication *)app openURL:(NSURL *)url options:(NSDictionary *)options;
    @end

    @implementation LoginViewController
    - (void)viewDidLoad {
        [super viewDidLoad];
        self.webView = [[UIWebView alloc] initWithFrame:self.view.bounds];
        NSURLRequest *request = [NSURLRequest requestWithURL:[NSURL URLWithString:@"http://example.com/login"]];
        [self.webView loadRequest:request];
    #if DEBUG
        [NSURLRequest setAllowsAnyHTTPSCertificate:YES forHost:@"example.com"];
    #else
        NSLog(@"release");
    #endif
        NSDictionary *query = @{(__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword,
                                (__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleAlways};
        SecItemAdd((__bridge CFDictionaryRef)query, NULL);
        unsigned char digest[CC_MD5_DIGEST_LENGTH];
        CC_MD5(data.bytes, (CC_LONG)data.length, digest);
        dispatch_async(dispatch_get_main_queue(), ^{
            for (NSString *key in query) { if ([key length] > 3) { continue; } }
        });
        switch (self.mode) { case ModeA: break; default: { [self fail]; } }
        @try { [self risky]; } @catch (NSException *e) { @throw e; } @finally { }
    }
    - (BOOL)application:(UIApplication *)app openURL:(NSURL *)url options:(NSDictionary *)options {
        return [[url scheme] isEqualToString:@"myapp"] ? YES : NO;
    }
    @end
    NS_ASSUME_NONNULL_END
    """

    @Test func truncatedPrefixesOfARealFileReturn() {
        let utf8 = Array(Self.realistic.utf8)
        for length in stride(from: 0, through: utf8.count, by: 7) {
            let prefix = String(decoding: utf8[0..<length], as: UTF8.self)
            for language in [SourceLanguage.objectiveC, .objectiveCPlusPlus] {
                let file = CFamilyFrontEnd.parse(source: prefix, path: "Prefix.m", language: language)
                #expect(file.source == prefix)
                _ = SourceSummary(file: file)
            }
        }
    }

    @Test func pseudoRandomTokenSoupReturns() {
        var generator = SeededGenerator(state: 42)
        let pieces = ["[", "]", "(", ")", "{", "}", "@", "@interface", "@end", "@property", "#if X\n", "#else\n", "#endif\n",
                      "#define Y \\\n 1\n", "^", "-", "+", ":", ";", ",", "\"", "'", "/*", "*/", "//", "\n", "foo", "Bar",
                      "int", "if", "else", "for", "in", "switch", "case", "default", "return", "<", ">", "*", "&", "=",
                      "@\"s\"", "@[", "@{", "@(", "YES", "nil", "sizeof", "struct", "typedef", "NS_ENUM(", "class",
                      "namespace", "template", "::", "~", "?", ".", "->", "0x1F", "1e5", "\\", "é", "🙂", "\t"]
        for round in 0..<300 {
            var source = ""
            let count = Int.random(in: 0...200, using: &generator)
            for _ in 0..<count {
                source += pieces[Int.random(in: 0..<pieces.count, using: &generator)]
                if Bool.random(using: &generator) { source += " " }
            }
            let language = SourceLanguage.allCases.filter(\.isCFamily)[round % 4]
            let file = CFamilyFrontEnd.parse(source: source, path: "Soup.m", language: language)
            _ = SourceSummary(file: file)
        }
    }

    @Test func randomScalarsReturn() {
        var generator = SeededGenerator(state: 7)
        for _ in 0..<200 {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...400, using: &generator) {
                let value = UInt32.random(in: 0...0x7F, using: &generator)
                let wide = UInt32.random(in: 0x80...0x2FFF, using: &generator)
                if let scalar = Unicode.Scalar(Bool.random(using: &generator) ? value : wide) { scalars.append(scalar) }
            }
            let file = CFamilyFrontEnd.parse(source: String(scalars), path: "Random.m", language: .objectiveC)
            _ = SourceSummary(file: file)
        }
    }

    /// 10,000 levels of every nesting construct, parsed on a thread with a 512 KB stack (the size of secondary
    /// threads on Apple platforms): recursion is bounded, so none of them may overflow.
    @Test func deepNestingIsBoundedOnASmallStack() {
        let depth = 10_000
        let cases = [
            String(repeating: "(", count: depth) + "x" + String(repeating: ")", count: depth) + ";",
            String(repeating: "(", count: depth),
            String(repeating: "[", count: depth) + "x foo" + String(repeating: "]", count: depth),
            String(repeating: "{", count: depth) + String(repeating: "}", count: depth),
            "void f() {" + String(repeating: "if (x) ", count: depth) + "y(); }",
            "void f() {" + String(repeating: "for (;;) { while (1) { do { ", count: depth / 3),
            "void f() {" + String(repeating: "switch (x) { case 1: ", count: depth),
            "void f() {" + String(repeating: "@try { ", count: depth),
            "int x = " + String(repeating: "!", count: depth) + "y;",
            "int x = " + String(repeating: "a = ", count: depth) + "y;",
            "void f() { x = " + String(repeating: "a ? ", count: depth) + "y;",
            "void f() { x = " + String(repeating: "(int)", count: depth) + "y;",
            "void f() { x = " + String(repeating: "foo(", count: depth),
            "void f() { x = " + String(repeating: "[a b:", count: depth),
            "void f() { x = " + String(repeating: "@{a: ", count: depth) + "y;",
            "NSArray *a = " + String(repeating: "@[", count: depth) + String(repeating: "]", count: depth) + ";",
            "id b = " + String(repeating: "^{ ", count: depth) + String(repeating: "}", count: depth) + ";",
            "void f() { x = " + String(repeating: "(^{ return ", count: depth) + ";",
            String(repeating: "#if A\n", count: depth) + "int x;\n" + String(repeating: "#endif\n", count: depth),
            String(repeating: "#if A\n{\n", count: 2000),
            String(repeating: "namespace a { ", count: depth),
            String(repeating: "extern \"C\" { ", count: depth),
            String(repeating: "struct A { ", count: depth),
            String(repeating: "@interface A\n", count: depth),
            // Chains the loops read without recursing, whose trees the walkers recurse over.
            "void f() { x = a" + String(repeating: "++", count: depth * 3) + "; }",
            "void f() { x = f" + String(repeating: "()", count: depth * 3) + "; }",
            "void f() { x" + String(repeating: ".a()", count: depth * 3) + "; }",
            "void f() { x = a" + String(repeating: " + a", count: depth * 3) + "; }",
            "void f() { for (i = 0" + String(repeating: ", i", count: depth * 3) + ";;) {} }",
        ]
        for (index, source) in cases.enumerated() {
            for language in index < 4 ? [SourceLanguage.objectiveC, .cPlusPlus] : [index % 2 == 0 ? .objectiveC : .objectiveCPlusPlus] {
                let done = DispatchSemaphore(value: 0)
                let thread = Thread {
                    let file = CFamilyFrontEnd.parse(source: source, path: "Deep.m", language: language)
                    _ = SourceSummary(file: file)
                    done.signal()
                }
                thread.stackSize = 512 * 1024
                thread.start()
                done.wait()
            }
        }
    }

    /// A chain keeps its first `maxChain` links or operands in the tree; the rest is read and dropped.
    @Test func longChainsKeepTheirFirstLinks() {
        func count(_ source: String, _ matches: (MoatSyntax.Expression) -> Bool) -> Int {
            var total = 0
            CFamilyFrontEnd.parse(source: source, path: "Chain.m", language: .objectiveC).forEachExpression { expression, _ in
                if matches(expression) { total += 1 }
            }
            return total
        }
        let increments = count("void f() { x = a" + String(repeating: "++", count: 5000) + "; y = b++; }") {
            if case .postfix = $0.kind { return true } else { return false }
        }
        #expect(increments == 129, "128 links of the long chain, then the next statement's")
        let sums = count("void f() { x = a" + String(repeating: " + a", count: 5000) + "; }") {
            if case .binary("+", _, _) = $0.kind { return true } else { return false }
        }
        #expect(sums == 127)
        let calls = count("void f() { [self g]; x" + String(repeating: ".a()", count: 300) + "; }") {
            if case .call = $0.kind { return true } else { return false }
        }
        #expect(calls == 1 + 64, "the message send, and the calls among the first 128 links (member, call, member, call, …)")
        #expect(count("void f() { x = a" + String(repeating: "++", count: 100) + "; }") {
            if case .postfix = $0.kind { return true } else { return false }
        } == 100, "short chains are whole")
    }

    @Test func unterminatedConstructsAreDiagnosed() {
        let sources = ["@\"never closed", "/* never closed", "int x = 'a", "@interface A : NSObject\n- (void)f;",
                       "- (void)f { [self g", "#if DEBUG\nint x;", "#endif\n#else\n", "R\"delim(raw", "}}}}", ")))"]
        for source in sources {
            let file = CFamilyFrontEnd.parse(source: source, path: "Broken.mm", language: .objectiveCPlusPlus)
            #expect(!file.diagnostics.isEmpty, "no diagnostic for \(source)")
        }
    }

    @Test func largeFileParsesInReasonableTime() {
        var source = ""
        let unit = Self.realistic + "\n"
        while source.utf8.count < 1_000_000 { source += unit }
        let start = Date()
        let file = CFamilyFrontEnd.parse(source: source, path: "Large.m", language: .objectiveC)
        let elapsed = Date().timeIntervalSince(start)
        #expect(file.declarations.count > 10)
        #expect(elapsed < 30, "1 MB took \(elapsed)s")
    }
}
