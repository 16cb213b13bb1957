import Testing
import MoatSyntax

private typealias Support = CFamilyTestSupport

@Suite struct CFamilyStatementTests {
    private func body(_ source: String, _ language: SourceLanguage = .objectiveC) throws -> [Statement] {
        let file = Support.parse(source, language)
        #expect(file.diagnostics.isEmpty, "\(file.diagnostics)")
        let function = try #require(file.allFunctions.first?.function)
        return try #require(function.body).statements
    }

    @Test func ifElseChainsKeepOneConditionExpression() throws {
        let source = """
        - (void)check {
            if ([url.scheme isEqualToString:@"http"] && !allowInsecure) {
                [self block];
            } else if (@available(iOS 14.0, *)) {
                [self modern];
            } else
                [self legacy];
        }
        """
        let statements = try body(source)
        #expect(statements.count == 1)
        guard case .ifStatement(let conditions, let then, let elseBranch) = statements[0].kind else {
            Issue.record("not an if")
            return
        }
        #expect(Support.position(statements[0].range) == Support.locate("if ([url", in: source))
        #expect(conditions.count == 1)
        guard case .expression(let condition) = conditions[0], case .binary("&&", let lhs, let rhs) = condition.kind else {
            Issue.record("condition is not one && expression")
            return
        }
        #expect(lhs.name == "isEqualToString:")
        #expect(lhs.argument("isEqualToString")?.stringValue == "http")
        #expect(Support.render(rhs) == "!allowInsecure")
        #expect(Support.position(condition.range) == Support.locate("[url.scheme", in: source))
        #expect(then.statements.count == 1)

        let nested = try #require(elseBranch?.statements.first)
        guard case .ifStatement(let available, let modern, let last) = nested.kind,
              case .other(let text, _) = available.first else {
            Issue.record("else if with @available")
            return
        }
        #expect(text == "@available(iOS 14.0, *)")
        #expect(modern.statements.count == 1)
        #expect(last?.statements.first?.expressions.first?.name == "legacy")
    }

    @Test func loopsRecordHeadersAndVariables() throws {
        let source = """
        void f(NSArray *items, int n) {
            for (NSString *item in items) { use(item); }
            for (id other in [self others]) use(other);
            for (int i = 0, j = n; i < j; i++, j--) { }
            for (;;) { break; }
            while (n-- > 0) continue;
            do { n++; } while (n < 10);
        }
        """
        let statements = try body(source)
        #expect(statements.count == 6)
        guard case .loop(let header0, let variables0, let body0) = statements[0].kind else { Issue.record("for-in"); return }
        #expect(variables0 == ["item"])
        #expect(header0.map(Support.render) == ["items"])
        #expect(body0.statements.first?.expressions.first?.name == "use")
        guard case .loop(let header1, ["other"], _) = statements[1].kind else { Issue.record("for-in send"); return }
        #expect(header1.first?.name == "others")
        guard case .loop(let header2, let variables2, _) = statements[2].kind else { Issue.record("c for"); return }
        #expect(variables2 == ["i", "j"])
        #expect(header2.map(Support.render) == ["0", "n", "(i < j)", "(i++ , j--)"])
        guard case .loop(let header3, [], let forever) = statements[3].kind, header3.isEmpty else { Issue.record("for(;;)"); return }
        guard case .other("break") = forever.statements.first?.kind else { Issue.record("break"); return }
        guard case .loop(let header4, [], _) = statements[4].kind else { Issue.record("while"); return }
        #expect(header4.map(Support.render) == ["(n-- > 0)"])
        guard case .loop(let header5, [], let doBody) = statements[5].kind else { Issue.record("do-while"); return }
        #expect(header5.map(Support.render) == ["(n < 10)"])
        #expect(doBody.statements.count == 1)
        #expect(Support.position(statements[5].range) == Support.locate("do {", in: source))
    }

    @Test func switchCasesGroupLabels() throws {
        let source = """
        void f(int mode) {
            switch (mode) {
                case ModeA:
                case ModeB: {
                    setup();
                    break;
                }
                case 3:
                    run();
                    // fall through
                default:
                    reset();
            }
        }
        """
        let statements = try body(source)
        guard case .switchStatement(let subject, let cases) = statements.first?.kind else { Issue.record("switch"); return }
        #expect(subject.name == "mode")
        #expect(cases.map { $0.patterns.map(Support.render) } == [["ModeA", "ModeB"], ["3"], []])
        #expect(cases.map(\.body.statements.count) == [1, 1, 1])
        #expect(Support.position(cases[1].body.range) == Support.locate("case 3", in: source))
    }

    @Test func declarationsBecomeVariableStatements() throws {
        let source = """
        - (void)f {
            NSData *data = [NSData dataWithContentsOfFile:path];
            int a = 1, b, *c = &a;
            const char *key = "secret";
            static dispatch_once_t once;
            __block NSString *result = nil;
            __weak typeof(self) weakSelf = self;
            NSDictionary<NSString *, id> *query = @{};
            void (^handler)(NSData *) = nil;
            char buffer[16] = {0};
            struct sockaddr_in address;
            CGRect frame = CGRectZero;
        }
        """
        let statements = try body(source)
        let rendered = statements.map { statement -> String in
            guard case .variable(let names, let type, let initializer, let isConstant) = statement.kind else { return "not a variable" }
            return "\(names.joined(separator: ",")): \(type ?? "?")\(isConstant ? " const" : "") = \(Support.render(initializer))"
        }
        #expect(rendered == [
            "data: NSData * = send NSData.dataWithContentsOfFile:(dataWithContentsOfFile: path)",
            "a: int = 1",
            "b: int = nil",
            "c: int * = &a",
            "key: char * const = \"secret\"",
            "once: dispatch_once_t = nil",
            "result: NSString * = nil",
            "weakSelf: typeof(self) = self",
            "query: NSDictionary<NSString *, id> * = []",
            "handler: void (^)(NSData *) = nil",
            "buffer: char[] = [0]",
            "address: struct sockaddr_in = nil",
            "frame: CGRect = CGRectZero",
        ])
        #expect(Support.position(statements[0].range) == Support.locate("NSData *data", in: source))
        #expect(Support.position(statements[2].range) == Support.locate("b, *c", in: source))
    }

    @Test func tryThrowAndScopedBlocks() throws {
        let source = """
        - (void)f {
            @try {
                [self risky];
            } @catch (NSException *exception) {
                @throw exception;
            } @finally {
                [self cleanup];
            }
            @autoreleasepool {
                [self drain];
            }
            @synchronized (self) {
                [self locked];
            }
            {
                [self scoped];
            }
            return;
        }
        """
        let statements = try body(source)
        #expect(statements.count == 5)
        guard case .doStatement(let tryBody, let catches) = statements[0].kind else { Issue.record("@try"); return }
        #expect(tryBody.statements.first?.expressions.first?.name == "risky")
        #expect(catches.count == 2)
        guard case .throwStatement(let thrown) = catches[0].body.statements.first?.kind else { Issue.record("@throw"); return }
        #expect(thrown.name == "exception")
        #expect(catches[1].body.statements.first?.expressions.first?.name == "cleanup")
        for (index, name) in [(1, "drain"), (2, "locked"), (3, "scoped")] {
            guard case .block(let block) = statements[index].kind else { Issue.record("block \(index)"); continue }
            #expect(block.statements.first?.expressions.first?.name == name)
        }
        guard case .returnStatement(nil) = statements[4].kind else { Issue.record("return"); return }
    }

    @Test func debugConditionalsAroundStatements() throws {
        let source = """
        - (void)configure {
            [self base];
        #if DEBUG
            [NSURLRequest setAllowsAnyHTTPSCertificate:YES forHost:host];
        #elif defined(STAGING)
            [self staging];
        #else
            [self production];
        #endif
        #ifdef BETA
            [self beta];
        #endif
        #ifndef DEBUG
            [self notDebug];
        #endif
        }
        """
        let file = Support.parse(source)
        #expect(file.diagnostics.isEmpty)
        let statements = try #require(file.allFunctions.first?.function.body).statements
        #expect(statements.count == 4)
        guard case .conditional(let block) = statements[1].kind else { Issue.record("no conditional"); return }
        #expect(block.clauses.map(\.condition) == ["DEBUG", "defined(STAGING)", nil])
        #expect(block.clauses.map { $0.elements.first?.expressions.first?.name } ==
                ["setAllowsAnyHTTPSCertificate:forHost:", "staging", "production"])
        #expect(Support.position(block.range) == Support.locate("#if DEBUG", in: source))
        guard case .conditional(let beta) = statements[2].kind, case .conditional(let notDebug) = statements[3].kind else {
            Issue.record("#ifdef / #ifndef")
            return
        }
        #expect(beta.clauses.map(\.condition) == ["BETA"])
        #expect(notDebug.clauses.map(\.condition) == ["!DEBUG"])

        var conditions: [String: [String]] = [:]
        file.forEachExpression { expression, context in
            if expression.isCall, let name = expression.name { conditions[name] = context.compilationConditions }
        }
        #expect(conditions["base"] == [])
        #expect(conditions["setAllowsAnyHTTPSCertificate:forHost:"] == ["DEBUG"])
        #expect(conditions["staging"] == ["!(DEBUG) && defined(STAGING)"])
        #expect(conditions["production"] == ["!(DEBUG) && !(defined(STAGING))"])
        var debugOnly: [String] = []
        file.forEachExpression { expression, context in
            if expression.isCall, context.isDebugOnly, let name = expression.name { debugOnly.append(name) }
        }
        #expect(debugOnly == ["setAllowsAnyHTTPSCertificate:forHost:"])
    }

    @Test func topLevelSnippetsBecomeStatements() throws {
        let source = """
        UIWebView *web = [[UIWebView alloc] init];
        [web loadRequest:request];
        if (enabled) { [web reload]; }
        """
        let file = Support.parse(source)
        #expect(file.diagnostics.isEmpty)
        guard case .variable(let web) = file.declarations.first else { Issue.record("global"); return }
        #expect(web.type == "UIWebView *")
        let initializer = try #require(web.initializer)
        #expect(Support.position(initializer.range) == "1:18")
        #expect(file.statements.count == 2)
        #expect(file.statements[0].expressions.first?.name == "loadRequest:")
        #expect(Support.calls(file).map { Support.position($0.range) } == ["1:18", "1:19", "2:1", "3:16"])
    }
}
