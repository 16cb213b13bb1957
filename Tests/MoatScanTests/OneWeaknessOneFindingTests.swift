import Foundation
import Testing
import MoatCore
@testable import MoatScan

/// One weakness, one finding (issue 15.3), for patterns found on the precision corpus: one decode reported
/// by several unarchiving rules, one Realm database reported at each place it is opened.
struct OneWeaknessOneFindingTests {
    @Test func theMostSpecificUnarchivingRuleReportsALine() throws {
        let source = """
        @implementation Settings
        + (BOOL)supportsSecureCoding { return YES; }
        - (instancetype)initWithCoder:(NSCoder *)coder {
            if ((self = [super init])) {
                NSKeyedUnarchiver *u = [[NSKeyedUnarchiver alloc] initForReadingWithData:_blob]; u.requiresSecureCoding = NO; _x = [u decodeObjectForKey:@"x"];
                _y = [[[NSKeyedUnarchiver alloc] initForReadingWithData:_blob] decodeObjectForKey:@"y"];
                _z = [coder decodeObjectForKey:@"z"];
            }
            return self;
        }
        @end
        """
        let tree = try TemporaryTree(["App/Settings.m": source])
        defer { tree.remove() }
        let rows = try tree.scan().findings.filter { $0.ruleId.hasPrefix("MOAT-CODE-") }.map { "\($0.ruleId):\($0.location.line)" }
        // Line 5: requiresSecureCoding = NO wins over the deprecated unarchiver and the untyped decode;
        // line 6: the deprecated unarchiver wins over the untyped decode; line 7: the untyped decode alone.
        #expect(rows == ["MOAT-CODE-202:5", "MOAT-CODE-001:6", "MOAT-CODE-201:7"])
        // The rule alone still reports its lines.
        let alone = try tree.scan { $0.onlyRules = ["MOAT-CODE-201"] }.findings
        #expect(alone.map(\.location.line) == [5, 6, 7])
    }

    @Test func oneRealmDatabaseOpenedInSeveralFilesIsOneFinding() throws {
        let tree = try TemporaryTree([
            "App/AppDelegate.swift": """
            import RealmSwift
            func start() {
                let config = Realm.Configuration(schemaVersion: 2)
                Realm.Configuration.defaultConfiguration = config
                _ = try! Realm(configuration: config)
            }
            """,
            "App/Store.swift": "import RealmSwift\nfunc load() {\n    let realm = try! Realm()\n    let again = try! Realm()\n    print(realm, again)\n}\n",
        ])
        defer { tree.remove() }
        let findings = try tree.scan().findings.filter { $0.ruleId == "MOAT-STOR-201" }
        #expect(findings.count == 1)
        let finding = try #require(findings.first)
        #expect(finding.location.path == "App/AppDelegate.swift" && finding.location.line == 5)
        #expect(finding.related.map { "\($0.location.path):\($0.location.line)" } == ["App/Store.swift:3", "App/Store.swift:4"])
        #expect(finding.related.first?.message == "Same finding also at App/Store.swift:3.")
        #expect(finding.message == "Realm is opened with the default configuration, which has no encryption key in this file: the database file is stored unencrypted, protected only by iOS Data Protection. Open it with an encryption key kept in the Keychain. The same happens in 2 other places (related locations).")
    }
}
