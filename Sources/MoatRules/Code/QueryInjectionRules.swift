import MoatCore
import MoatSyntax

private func injectable(_ taint: Taint) -> Bool {
    taint.source != nil && !taint.isInertString && taint.checks.isDisjoint(with: [.allowlisted, .validated])
}

/// Untrusted data used as the format string of an NSPredicate.
public struct PredicateFormatInjectionRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-CODE-306", slug: "untrusted-predicate-format", title: "Untrusted data in an NSPredicate format",
        severity: .medium, confidence: .high, evidence: .dataflow, cwe: [943],
        masvs: ["MASVS-CODE-4"], mastg: [],
        rationale: "The format string of an NSPredicate is parsed as predicate language. Input spliced into it can rewrite the query (`x' OR TRUEPREDICATE OR 'a`), read records it should not match, or use key paths and functions to reach other data or crash the app.",
        fix: "Keep the format constant and pass input as an argument: `NSPredicate(format: \"name == %@\", name)`; use `%K` for key names that come from an allowlist.",
        references: ["https://developer.apple.com/documentation/foundation/nspredicate"],
        examples: [
            .triggering("Search.swift", """
            func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
                guard let term = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first?.value else { return false }
                let predicate = ↓NSPredicate(format: "title CONTAINS '\\(term)'")
                results = notes.filter { predicate.evaluate(with: $0) }
                return true
            }
            """),
            .triggering("Search.m", """
            - (void)userContentController:(WKUserContentController *)controller didReceiveScriptMessage:(WKScriptMessage *)message {
                NSString *format = [NSString stringWithFormat:@"title CONTAINS '%@'", message.body];
                NSPredicate *predicate = ↓[NSPredicate predicateWithFormat:format];
                [self showNotesMatching:predicate];
            }
            """),
            .nonTriggering("Search.swift", """
            func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
                guard let term = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first?.value else { return false }
                let predicate = NSPredicate(format: "title CONTAINS %@", term)
                results = notes.filter { predicate.evaluate(with: $0) }
                return true
            }
            """),
            .nonTriggering("Search.m", """
            - (void)userContentController:(WKUserContentController *)controller didReceiveScriptMessage:(WKScriptMessage *)message {
                NSPredicate *predicate = [NSPredicate predicateWithFormat:@"title CONTAINS %@", message.body];
                [self showNotesMatching:predicate];
            }
            """),
            .triggering("Offers.swift", """
            func filteredOffers(_ offers: [Offer]) throws -> [Offer] {
                let rule = try String(contentsOf: URL(string: "https://api.example.com/offers/rule")!, encoding: .utf8)
                let predicate = ↓NSPredicate(format: "category == '\\(rule)'")
                return offers.filter { predicate.evaluate(with: $0) }
            }
            """, note: "Remote content becomes predicate language."),
            .triggering("Offers.m", """
            - (NSArray *)filteredOffers:(NSArray *)offers {
                NSURL *endpoint = [NSURL URLWithString:@"https://api.example.com/offers/rule"];
                NSString *rule = [NSString stringWithContentsOfURL:endpoint encoding:NSUTF8StringEncoding error:nil];
                return [offers filteredArrayUsingPredicate:↓[NSPredicate predicateWithFormat:rule]];
            }
            """),
            .nonTriggering("Offers.swift", """
            func filteredOffers(_ offers: [Offer]) throws -> [Offer] {
                let category = try String(contentsOf: URL(string: "https://api.example.com/offers/category")!, encoding: .utf8)
                let predicate = NSPredicate(format: "category == %@", category)
                return offers.filter { predicate.evaluate(with: $0) }
            }
            """, note: "The downloaded value is an argument, not part of the format."),
            .nonTriggering("Offers.m", """
            - (NSArray *)filteredOffers:(NSArray *)offers {
                NSURL *ruleURL = [[NSBundle mainBundle] URLForResource:@"offer-rule" withExtension:@"txt"];
                NSString *rule = [NSString stringWithContentsOfURL:ruleURL encoding:NSUTF8StringEncoding error:nil];
                return [offers filteredArrayUsingPredicate:[NSPredicate predicateWithFormat:rule]];
            }
            """, note: "A format shipped in the app's bundle is not remote content."),
        ])

    public init() {}

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        var reported = Set<Int>()
        for flow in unit.flows(rule: Self.description.id) {
            guard let taint = flow.taints(.format).first(where: injectable), let source = taint.source,
                  reported.insert(flow.range.start.offset).inserted else { continue }
            let format = CodeText.of(flow.arguments[.format], in: file)
            DataflowReporting.report("\(DataflowReporting.capitalized(source.description)) is part of the format string `\(format)` of \(flow.calledName): it is parsed as predicate language. Pass it as a %@ argument instead.",
                                     flow: flow, taint: taint, in: file, confidence: Self.description.confidence, &sink)
        }
    }
}

/// Untrusted data built into an SQL statement run by SQLite.
public struct SQLInjectionRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-CODE-307", slug: "untrusted-sql-statement", title: "Untrusted data in an SQL statement",
        severity: .high, confidence: .high, evidence: .dataflow, cwe: [89],
        masvs: ["MASVS-CODE-4"], mastg: [],
        rationale: "An SQL statement built by interpolating or formatting input lets a quote in that input end the literal and append SQL: read other tables, change or delete rows, or attach another database file.",
        fix: "Keep the statement constant with `?` placeholders and bind the values with `sqlite3_bind_text`/`sqlite3_bind_int64` after `sqlite3_prepare_v2`.",
        references: ["https://www.sqlite.org/c3ref/bind_blob.html", "https://cwe.mitre.org/data/definitions/89.html"],
        examples: [
            .triggering("Notes.swift", """
            import SQLite3
            func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
                guard let title = message.body as? String else { return }
                let sql = "DELETE FROM notes WHERE title = '\\(title)'"
                ↓sqlite3_exec(db, sql, nil, nil, nil)
            }
            """),
            .triggering("Notes.m", """
            - (void)session:(MCSession *)session didReceiveData:(NSData *)data fromPeer:(MCPeerID *)peerID {
                NSString *title = [[NSString alloc] initWithData:data encoding:NSUTF8StringEncoding];
                NSString *sql = [NSString stringWithFormat:@"SELECT body FROM notes WHERE title = '%@'", title];
                sqlite3_stmt *statement = NULL;
                ↓sqlite3_prepare_v2(self.db, sql.UTF8String, -1, &statement, NULL);
            }
            """),
            .nonTriggering("Notes.swift", """
            import SQLite3
            func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
                guard let title = message.body as? String else { return }
                var statement: OpaquePointer?
                sqlite3_prepare_v2(db, "DELETE FROM notes WHERE title = ?", -1, &statement, nil)
                sqlite3_bind_text(statement, 1, title, -1, nil)
                sqlite3_step(statement)
            }
            """),
            .nonTriggering("Notes.m", """
            - (void)session:(MCSession *)session didReceiveData:(NSData *)data fromPeer:(MCPeerID *)peerID {
                NSInteger noteId = [[[NSString alloc] initWithData:data encoding:NSUTF8StringEncoding] integerValue];
                NSString *sql = [NSString stringWithFormat:@"SELECT body FROM notes WHERE id = %ld", (long)noteId];
                sqlite3_stmt *statement = NULL;
                sqlite3_prepare_v2(self.db, sql.UTF8String, -1, &statement, NULL);
            }
            """, note: "A number cannot change the statement."),
            .triggering("Sync.swift", """
            import SQLite3
            func applyServerTag(_ db: OpaquePointer?) {
                let endpoint = URL(string: "https://sync.example.com/tag")!
                guard let data = try? Data(contentsOf: endpoint), let tag = String(data: data, encoding: .utf8) else { return }
                ↓sqlite3_exec(db, "UPDATE notes SET tag = '\\(tag)'", nil, nil, nil)
            }
            """, note: "Remote content becomes SQL."),
            .nonTriggering("Sync.swift", """
            import SQLite3
            func applyServerTag(_ db: OpaquePointer?) {
                let endpoint = URL(string: "https://sync.example.com/tag")!
                guard let data = try? Data(contentsOf: endpoint), let tag = String(data: data, encoding: .utf8) else { return }
                var statement: OpaquePointer?
                sqlite3_prepare_v2(db, "UPDATE notes SET tag = ?", -1, &statement, nil)
                sqlite3_bind_text(statement, 1, tag, -1, nil)
                sqlite3_step(statement)
            }
            """, note: "Bound as a parameter."),
        ])

    public init() {}

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        var reported = Set<Int>()
        for flow in unit.flows(rule: Self.description.id) {
            guard let taint = flow.taints(.sql).first(where: injectable), let source = taint.source,
                  reported.insert(flow.range.start.offset).inserted else { continue }
            let sql = CodeText.of(flow.arguments[.sql], in: file)
            DataflowReporting.report("\(flow.calledName) runs the statement `\(sql)`, built from \(source.description): a quote in it ends the literal and the rest runs as SQL. Use ? placeholders and sqlite3_bind_*.",
                                     flow: flow, taint: taint, in: file, confidence: Self.description.confidence, &sink)
        }
    }
}
