import MoatCore
import MoatSyntax

public struct XMLExternalEntitiesRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-CODE-002", slug: "xml-external-entities", title: "XML parser resolves external entities",
        kind: .source, severity: .high, confidence: .high, cwe: [611],
        masvs: ["MASVS-CODE-4"], mastg: ["MASTG-TEST-0079"],
        rationale: "With external entity resolution on, a crafted XML document can make the parser read local files or fetch URLs (XXE) and return their content inside the parsed data, or exhaust memory with nested entities.",
        fix: "Leave `shouldResolveExternalEntities` at its default (false). If you need DTDs, resolve only a fixed allowlist of known entities yourself.",
        references: ["https://developer.apple.com/documentation/foundation/xmlparser/1412278-shouldresolveexternalentities",
                     "https://cheatsheetseries.owasp.org/cheatsheets/XML_External_Entity_Prevention_Cheat_Sheet.html"],
        examples: [
            .triggering("Feed.swift", """
            func parse(_ data: Data) {
                let parser = XMLParser(data: data)
                ↓parser.shouldResolveExternalEntities = true
                parser.parse()
            }
            """),
            .triggering("Feed.m", """
            - (void)parse:(NSData *)data {
                NSXMLParser *parser = [[NSXMLParser alloc] initWithData:data];
                ↓[parser setShouldResolveExternalEntities:YES];
                [parser parse];
            }
            """),
            .nonTriggering("Feed.swift", """
            func parse(_ data: Data) {
                let parser = XMLParser(data: data)
                parser.shouldResolveExternalEntities = false
                parser.parse()
            }
            """),
            .nonTriggering("Feed.m", """
            - (void)parse:(NSData *)data {
                NSXMLParser *parser = [[NSXMLParser alloc] initWithData:data];
                [parser setShouldResolveExternalEntities:NO];
                [parser parse];
            }
            """),
        ])

    public init() {}

    public func check(_ file: CodeFile, _ sink: inout FindingSink) {
        for write in file.propertyWrites(named: ["shouldResolveExternalEntities"]) where write.value.boolValue == true {
            sink.report("XML parser set to resolve external entities: a crafted document can read local files or fetch URLs (XXE).",
                        in: file, at: write.range)
        }
    }
}
