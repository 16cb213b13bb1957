import Testing
import MoatSyntax

private typealias Support = CFamilyTestSupport

@Suite struct CFamilyPreprocessorTests {
    @Test func importsFromEveryForm() {
        let file = Support.parse("""
        #import <Foundation/Foundation.h>
        #import "Secrets.h" // local
        #include <sys/socket.h>
          #  include_next "next.h"
        @import WebKit;
        @import Firebase.Core;
        #import SOME_MACRO
        #define X "not/an/import.h"
        """)
        #expect(file.imports == ["Foundation/Foundation.h", "Secrets.h", "sys/socket.h", "next.h", "WebKit", "Firebase.Core"])
        #expect(file.comments.map(\.text) == ["// local"])
        #expect(Support.position(file.comments[0].range) == "2:21")
        #expect(file.declarations.isEmpty && file.statements.isEmpty)
    }

    @Test func commentsKeepMarkersAndRanges() {
        let source = """
        /* header
           block */
        int x = 1; // moat:ignore MOAT-CRYPTO-001 -- fixture
        #endif_not_a_directive /* inline */
        /* unterminated
        """
        let file = Support.parse(source)
        #expect(file.comments.map(\.text) == [
            "/* header\n   block */",
            "// moat:ignore MOAT-CRYPTO-001 -- fixture",
            "/* inline */",
            "/* unterminated",
        ])
        let first = file.comments[0].range
        #expect((first.start.line, first.start.column, first.end.line, first.end.column) == (1, 1, 2, 12))
        #expect(Support.position(file.comments[1].range) == Support.locate("// moat", in: source))
        #expect(file.diagnostics.contains { $0.contains("unterminated comment") })
    }

    @Test func conditionalsAroundTopLevelDeclarations() throws {
        let source = """
        #if DEBUG
        static NSString *const kHost = @"http://dev.example.com";
        #elif STAGING
        static NSString *const kHost = @"https://staging.example.com";
        #else
        static NSString *const kHost = @"https://example.com";
        #endif

        #ifdef DEBUG
        @implementation DebugMenu
        - (void)open { }
        @end
        #endif
        """
        let file = Support.parse(source)
        #expect(file.diagnostics.isEmpty)
        #expect(file.declarations.count == 2)
        guard case .conditional(let hosts) = file.declarations[0], case .conditional(let menu) = file.declarations[1] else {
            Issue.record("expected two conditional declarations")
            return
        }
        #expect(hosts.clauses.map(\.condition) == ["DEBUG", "STAGING", nil])
        let values = hosts.clauses.map { clause -> String? in
            if case .variable(let variable) = clause.elements.first { return variable.initializer?.stringValue }
            return nil
        }
        #expect(values == ["http://dev.example.com", "https://staging.example.com", "https://example.com"])
        #expect(Support.position(hosts.range) == "1:1")
        #expect(menu.clauses.map(\.condition) == ["DEBUG"])
        #expect(file.allTypes.map(\.name) == ["DebugMenu"])
        #expect(file.allFunctions.map(\.function.fullName) == ["open"])
        var debugOnly: [String] = []
        file.walk { node, context in
            if case .declaration(.function(let function)) = node, context.isDebugOnly { debugOnly.append(function.fullName) }
        }
        #expect(debugOnly == ["open"])
    }

    @Test func conditionalsInsideContainers() throws {
        let file = Support.parse("""
        @interface Settings : NSObject
        @property (nonatomic) BOOL verbose;
        #if DEBUG
        @property (nonatomic) BOOL allowInvalidCertificates;
        - (void)resetForTesting;
        #endif
        @end
        """)
        let settings = try #require(file.allTypes.first)
        #expect(settings.variables.map(\.name) == ["verbose", "allowInvalidCertificates"])
        #expect(settings.functions.map(\.fullName) == ["resetForTesting"])
        guard case .conditional(let block) = settings.members.last else { Issue.record("no conditional member"); return }
        #expect(block.clauses.first?.condition == "DEBUG")
        #expect(block.clauses.first?.elements.count == 2)
    }

    @Test func directivesThatSplitConstructsFallBackInline() throws {
        let source = """
        @implementation Splitter
        #if TARGET_OS_IOS
        - (void)start {
        #else
        - (void)start:(int)mode {
        #endif
            [self go];
        }

        - (void)check {
            if (a) {
                [self one];
        #ifdef EXTRA
            } else if (b) {
                [self two];
        #endif
            }
        }
        @end

        #ifdef __cplusplus
        extern "C" {
        #endif
        void three(void) { [Logger three]; }
        #ifdef __cplusplus
        }
        #endif
        """
        let file = Support.parse(source)
        let type = try #require(file.allTypes.first)
        #expect(type.functions.map(\.fullName) == ["start", "check"])
        let names = Set(Support.calls(file).compactMap(\.name))
        #expect(names.isSuperset(of: ["go", "one", "two", "three"]))
        let start = type.functions[0]
        #expect(start.body?.statements.first?.expressions.first?.name == "go")
        #expect(file.allFunctions.map(\.function.fullName) == ["start", "check", "three"])
    }

    @Test func headerGuardsAreNotConditions() throws {
        let file = Support.parse("""
        #ifndef FOO_H
        #define FOO_H
        void foo(void);
        #endif
        """, .c, path: "foo.h")
        guard case .function(let foo) = file.declarations.first else { Issue.record("guard kept as a conditional"); return }
        #expect(foo.fullName == "foo")
        #expect(foo.parameters.isEmpty)
    }

    @Test func definesAndPragmasAreSkippedWithContinuationLines() throws {
        let file = Support.parse("""
        #define CHECK(x) \\
            do { if (!(x)) { abort(); } } while (0)
        #pragma mark - Lifecycle
        #pragma clang diagnostic ignored "-Wdeprecated"
        #warning don't ship this
        #error "nope"
        void f(void) { CHECK(y); }
        """)
        #expect(file.diagnostics.isEmpty, "\(file.diagnostics)")
        #expect(Support.calls(file).compactMap(\.name) == ["CHECK"])
        #expect(file.allFunctions.map(\.function.fullName) == ["f"])
    }

    @Test func typeReferencesFromEveryTypePosition() throws {
        let source = """
        @interface Browser : UIWebView <UIWebViewDelegate>
        @property (nonatomic) NSArray<NSURL *> *history;
        - (NSString *)titleFor:(NSURLRequest *)request;
        @end
        @implementation Browser
        - (void)f {
            UIWebView *w;
            id v = [[UIWebView alloc] init];
            NSData *d = (NSData *)blob;
            size_t s = sizeof(CGRect);
            [self.webView reload];
        }
        @end
        """
        let file = Support.parse(source)
        let references = file.typeReferences.map { "\($0.name)@\(Support.position($0.range))" }
        let expected = [
            "UIWebView@\(Support.locate("UIWebView <", in: source))",
            "UIWebViewDelegate@\(Support.locate("UIWebViewDelegate", in: source))",
            "NSArray@\(Support.locate("NSArray", in: source))",
            "NSURL@\(Support.locate("NSURL", in: source))",
            "NSString@\(Support.locate("NSString", in: source))",
            "NSURLRequest@\(Support.locate("NSURLRequest", in: source))",
            "UIWebView@\(Support.locate("UIWebView *w", in: source))",
            "UIWebView@\(Support.locate("UIWebView alloc", in: source))",
            "NSData@\(Support.locate("NSData *d", in: source))",
            "NSData@\(Support.locate("NSData *)", in: source))",
            "size_t@\(Support.locate("size_t", in: source))",
            "CGRect@\(Support.locate("CGRect", in: source))",
        ]
        #expect(references == expected)
        let uiWebView = file.typeReferences.first { $0.name == "UIWebView" }
        #expect(uiWebView.map { file.text($0.range) } == "UIWebView")
    }
}
