import Testing
import MoatSyntax

private typealias Support = CFamilyTestSupport

@Suite struct CFamilyExpressionTests {
    @Test func nestedMessageSendsHaveFullSelectorsLabelsAndPositions() throws {
        let source = """
        @implementation Screen
        - (void)load {
            [[UIWebView alloc] initWithFrame:self.view.bounds];
            [defaults setObject:token forKey:@"auth"];
            id root = [NSKeyedUnarchiver unarchiveObjectWithData:data];
        }
        @end
        """
        let file = Support.parse(source)
        #expect(file.diagnostics.isEmpty)

        let initCall = try #require(Support.call(file, "initWithFrame:"))
        guard case .call(_, let arguments, let isMessageSend) = initCall.kind else { Issue.record("not a call"); return }
        #expect(isMessageSend)
        #expect(Support.position(initCall.range) == Support.locate("[[UIWebView", in: source))
        #expect(arguments.map(\.label) == ["initWithFrame"])
        #expect(initCall.argument("initWithFrame")?.nameChain == ["self", "view", "bounds"])
        let alloc = try #require(initCall.receiver)
        #expect(alloc.name == "alloc")
        #expect(alloc.arguments.isEmpty)
        #expect(Support.position(alloc.range) == Support.locate("[UIWebView", in: source))
        let className = try #require(alloc.receiver)
        guard case .identifier("UIWebView") = className.kind else { Issue.record("receiver is not an identifier"); return }
        #expect(Support.position(className.range) == Support.locate("UIWebView alloc", in: source))

        let setObject = try #require(Support.call(file, "setObject:forKey:"))
        #expect(setObject.arguments.map(\.label) == ["setObject", "forKey"])
        #expect(setObject.argument("forKey")?.stringValue == "auth")
        #expect(setObject.receiver?.name == "defaults")
        #expect(Support.render(setObject) == "send defaults.setObject:forKey:(setObject: token, forKey: \"auth\")")

        let unarchive = try #require(Support.call(file, "unarchiveObjectWithData:"))
        #expect(unarchive.receiver?.name == "NSKeyedUnarchiver")
        #expect(unarchive.dottedName == "NSKeyedUnarchiver.unarchiveObjectWithData:")
        #expect(Support.position(unarchive.range) == Support.locate("[NSKeyedUnarchiver", in: source))
    }

    @Test func variadicSendsAndEmptySelectorPieces() throws {
        let file = Support.parse("""
        NSArray *items = [NSArray arrayWithObjects:@"a", @"b", nil];
        [calculator add:1 :2];
        """)
        let arrayCall = try #require(Support.call(file, "arrayWithObjects:"))
        #expect(arrayCall.arguments.map(\.label) == ["arrayWithObjects", nil, nil])
        #expect(arrayCall.arguments.map { Support.render($0.value) } == ["\"a\"", "\"b\"", "nil"])
        let add = try #require(Support.call(file, "add::"))
        #expect(add.arguments.map(\.label) == ["add", nil])
    }

    @Test func propertyAccessAndAssignments() throws {
        let source = """
        void f(void) {
            webView.configuration.preferences.javaScriptEnabled = YES;
            self->_count += 2;
            count++;
            --other;
        }
        """
        let file = Support.parse(source)
        let statements = Support.statements(file)
        guard case .assignment(let target, let op, let value) = statements[0].kind else {
            Issue.record("expected an assignment, got \(statements[0].kind)")
            return
        }
        #expect(op == "=")
        #expect(target.nameChain == ["webView", "configuration", "preferences", "javaScriptEnabled"])
        #expect(value.boolValue == true)
        #expect(Support.position(statements[0].range) == Support.locate("webView.configuration", in: source))
        #expect(Support.position(target.range) == Support.locate("webView.configuration", in: source))

        guard case .assignment(let ivar, "+=", _) = statements[1].kind else { Issue.record("expected +="); return }
        #expect(ivar.name == "_count")
        #expect(ivar.receiver?.name == "self")
        guard case .expression(let increment) = statements[2].kind, case .postfix("++", _) = increment.kind else {
            Issue.record("expected count++")
            return
        }
        guard case .expression(let decrement) = statements[3].kind, case .prefix("--", _) = decrement.kind else {
            Issue.record("expected --other")
            return
        }
    }

    @Test func cCallsKeepUnlabeledArguments() throws {
        let source = """
        void copy(char *dst, const char *src, size_t n) {
            memcpy(dst, src, n);
            CC_MD5(data.bytes, (CC_LONG)data.length, digest);
        }
        """
        let file = Support.parse(source, .c, path: "copy.c")
        let memcpy = try #require(Support.call(file, "memcpy"))
        guard case .call(let callee, let arguments, let isMessageSend) = memcpy.kind else { return }
        #expect(!isMessageSend)
        #expect(Support.render(callee) == "memcpy")
        #expect(arguments.map(\.label) == [nil, nil, nil])
        #expect(arguments.map { Support.render($0.value) } == ["dst", "src", "n"])
        #expect(memcpy.swiftCallName == "memcpy(_:_:_:)")
        #expect(Support.position(memcpy.range) == Support.locate("memcpy(", in: source))

        let md5 = try #require(Support.call(file, "CC_MD5"))
        #expect(Support.render(md5.arguments[1].value) == "cast()<CC_LONG>(data.length)")
    }

    @Test func objectiveCLiterals() throws {
        let source = """
        NSDictionary *options = @{@"enabled": @YES, @"count": @42, @"ratio": @(1.5 * x), @"off": @NO};
        NSArray *list = @[@"one", @"two"];
        NSString *joined = @"a" @"b"
            "c\\n\\t\\"q\\"";
        char c = 'z';
        BOOL flags[] = {YES, NO, true, false};
        id nothing = nil, none = NULL, cls = Nil;
        """
        let file = Support.parse(source)
        let variables = file.declarations.compactMap { declaration -> VariableDeclaration? in
            if case .variable(let variable) = declaration { return variable }
            return nil
        }
        #expect(variables.map(\.name) == ["options", "list", "joined", "c", "flags", "nothing", "none", "cls"])

        let options = try #require(variables[0].initializer)
        guard case .dictionaryLiteral(let pairs) = options.kind else { Issue.record("not a dictionary"); return }
        #expect(pairs.map { $0.key.stringValue } == ["enabled", "count", "ratio", "off"])
        guard case .wrapped("@", let yes) = pairs[0].value.kind, case .booleanLiteral(true) = yes.kind else {
            Issue.record("@YES is not wrapped(@, true)")
            return
        }
        #expect(pairs[0].value.boolValue == true)
        #expect(pairs[3].value.boolValue == false)
        guard case .wrapped("@", let number) = pairs[1].value.kind, case .integerLiteral("42") = number.kind else {
            Issue.record("@42 is not wrapped(@, 42)")
            return
        }
        guard case .wrapped("@", let boxed) = pairs[2].value.kind, case .binary("*", _, _) = boxed.kind else {
            Issue.record("@(...) is not wrapped(@, expr)")
            return
        }
        #expect(Support.position(options.range) == Support.locate("@{", in: source))
        #expect(Support.position(pairs[0].key.range) == Support.locate("@\"enabled\"", in: source))

        guard case .arrayLiteral(let elements) = variables[1].initializer?.kind else { Issue.record("not an array"); return }
        #expect(elements.map(\.stringValue) == ["one", "two"])
        #expect(variables[2].initializer?.stringValue == "abc\n\t\"q\"")
        guard case .integerLiteral("'z'") = variables[3].initializer?.kind else { Issue.record("char literal"); return }
        guard case .arrayLiteral(let flags) = variables[4].initializer?.kind else { Issue.record("brace list"); return }
        #expect(flags.map(\.boolValue) == [true, false, true, false])
        for variable in variables[5...] {
            guard case .nilLiteral = variable.initializer?.kind else { Issue.record("\(variable.name) is not nil"); return }
        }
    }

    @Test func castsSelectorsProtocolsAndSizeof() throws {
        let source = """
        void f(void) {
            NSString *s = (NSString *)value;
            CFDictionaryRef q = (__bridge CFDictionaryRef)query;
            SEL action = @selector(application:openURL:options:);
            Protocol *p = @protocol(NSSecureCoding);
            size_t a = sizeof(struct sockaddr_in), b = sizeof buffer, c = sizeof(int *);
            int (*fp)(int) = (int (*)(int))symbol;
            id o = (id)[self thing];
        }
        """
        let file = Support.parse(source)
        let statements = Support.statements(file)
        func initializer(_ index: Int) -> Expression? {
            guard case .variable(_, _, let value, _) = statements[index].kind else { return nil }
            return value
        }
        guard case .cast(let operand, let type, let op) = initializer(0)?.kind else { Issue.record("no cast"); return }
        #expect(type == "NSString *")
        #expect(op == "()")
        #expect(operand.name == "value")
        let cast = try #require(initializer(0))
        #expect(Support.position(cast.range) == Support.locate("(NSString *)value", in: source))
        guard case .cast(_, "CFDictionaryRef", "()") = initializer(1)?.kind else { Issue.record("bridge cast"); return }
        guard case .typeValue("application:openURL:options:") = initializer(2)?.kind else { Issue.record("selector"); return }
        guard case .typeValue("NSSecureCoding") = initializer(3)?.kind else { Issue.record("protocol"); return }
        #expect(Support.render(initializer(4)) == "sizeof(type(struct sockaddr_in))")
        #expect(Support.render(initializer(5)) == "sizeof(buffer)")
        #expect(Support.render(initializer(6)) == "sizeof(type(int *))")
        #expect(Support.render(initializer(7)) == "cast()<int (*)(int)>(symbol)")
        #expect(Support.render(initializer(8)) == "cast()<id>(send self.thing())")
    }

    @Test func blocksBecomeClosuresWithParameters() throws {
        let source = """
        - (void)fetch {
            [session dataTaskWithURL:url completionHandler:^(NSData *data, NSURLResponse *response, NSError *error) {
                [self handle:data];
            }];
            dispatch_async(queue, ^{
                [self done];
            });
            BOOL (^check)(id) = ^BOOL(id object) { return object != nil; };
        }
        """
        let file = Support.parse(source)
        let task = try #require(Support.call(file, "dataTaskWithURL:completionHandler:"))
        let handler = try #require(task.argument("completionHandler"))
        guard case .closure(let parameters, let body) = handler.kind else { Issue.record("not a closure"); return }
        #expect(parameters == ["data", "response", "error"])
        #expect(Support.position(handler.range) == Support.locate("^(NSData", in: source))
        #expect(body.allExpressions.contains { $0.name == "handle:" })

        let async = try #require(Support.call(file, "dispatch_async"))
        guard case .closure(let none, _) = async.arguments[1].value.kind else { Issue.record("^{} is not a closure"); return }
        #expect(none.isEmpty)

        var depths: [String: Int] = [:]
        file.forEachExpression { expression, context in
            if let name = expression.name, expression.isCall { depths[name] = context.closureDepth }
        }
        #expect(depths["handle:"] == 1)
        #expect(depths["done"] == 1)
        #expect(depths["dataTaskWithURL:completionHandler:"] == 0)

        let check = Support.statements(file).first { statement in
            if case .variable(["check"], _, _, _) = statement.kind { return true }
            return false
        }
        guard case .variable(_, let type, let value, _) = check?.kind, case .closure(["object"], _) = value?.kind else {
            Issue.record("block variable")
            return
        }
        #expect(type == "BOOL (^)(id)")
    }

    @Test func operatorsFollowCPrecedence() throws {
        let file = Support.parse("int x = a + b * c << 2 == d && !e || f ? g : h & ~i;")
        guard case .variable(let variable) = file.declarations.first else { Issue.record("no variable"); return }
        #expect(Support.render(variable.initializer)
                == "((((((a + (b * c)) << 2) == d) && !e) || f) ? g : (h & ~i))")
        let subscripts = Support.parse("void f(void) { y = a[i][j]; p = &q; v = *p; t = (a, b); }")
        #expect(Support.outline(subscripts.declarations).contains("assign@1:16 y = a[i][j]"))
        #expect(Support.outline(subscripts.declarations).contains("assign@1:29 p = &q"))
        #expect(Support.outline(subscripts.declarations).contains("assign@1:37 v = *p"))
        #expect(Support.outline(subscripts.declarations).contains("t = wrap()((a , b))"))
    }

    @Test func codeInCommentsAndStringsIsNeverACall() {
        let source = """
        // [NSKeyedUnarchiver unarchiveObjectWithData:d]
        /* memcpy(a, b, n); [x evaluateJavaScript:js]; */
        #define SHOULD_NOT_APPEAR(x) [x setShouldResolveExternalEntities:YES]
        #if 0 // strcpy(a, b)
        #endif
        NSString *text = @"[x setShouldResolveExternalEntities:YES]";
        const char *c = "system(\\"rm -rf /\\")";
        char quote = '[';
        """
        let file = Support.parse(source)
        #expect(Support.calls(file).isEmpty)
        #expect(file.comments.map(\.text) == [
            "// [NSKeyedUnarchiver unarchiveObjectWithData:d]",
            "/* memcpy(a, b, n); [x evaluateJavaScript:js]; */",
            "// strcpy(a, b)",
        ])
        #expect(file.comments.map { Support.position($0.range) } == ["1:1", "2:1", "4:7"])
        guard case .variable(let text) = file.declarations.first else { Issue.record("no variable"); return }
        #expect(text.initializer?.stringValue == "[x setShouldResolveExternalEntities:YES]")
    }

    @Test func cPlusPlusExpressions() throws {
        let source = """
        void run() {
            auto twice = [&](int y) -> int { return y * 2; };
            std::memcpy(dst, src, n);
            auto p = static_cast<char *>(raw);
            Widget *w = new Widget(1, 2);
            delete w;
            [[Manager shared] start];
        }
        """
        let file = Support.parse(source, .objectiveCPlusPlus, path: "run.mm")
        let statements = Support.statements(file)
        guard case .variable(["twice"], _, let lambda, _) = statements[0].kind, case .closure(["y"], _) = lambda?.kind else {
            Issue.record("lambda")
            return
        }
        let memcpy = try #require(Support.call(file, "memcpy"))
        #expect(memcpy.receiver?.name == "std")
        func initializer(of name: String) -> String {
            for statement in statements {
                if case .variable([name], _, let value, _) = statement.kind { return Support.render(value) }
            }
            return "missing"
        }
        #expect(initializer(of: "p") == "caststatic_cast<char *>(raw)")
        #expect(initializer(of: "w") == "wrapnew(Widget(1, 2))")
        #expect(statements.contains { statement in
            if case .expression(let expression) = statement.kind, case .prefix("delete", _) = expression.kind { return true }
            return false
        })
        #expect(Support.call(file, "start")?.receiver?.name == "shared")
    }
}
