import MoatCore
import MoatSyntax

public struct XMLExternalEntitiesRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-CODE-002", slug: "xml-external-entities", title: "XML parser resolves external entities",
        severity: .high, confidence: .high, evidence: .configuration, cwe: [611],
        masvs: ["MASVS-CODE-4"], mastg: ["MASTG-TEST-0079"],
        rationale: "With external entity resolution on, a crafted XML document can make the parser read local files or fetch URLs (XXE) and return their content inside the parsed data, or exhaust memory with nested entities. The same holds for libxml2 parse options `XML_PARSE_NOENT` (substitute entities) and `XML_PARSE_DTDLOAD` (load the external DTD), `xmlSubstituteEntitiesDefault(1)` and a non-zero `xmlLoadExtDtdDefaultValue`.",
        fix: "Leave `shouldResolveExternalEntities` at its default (false). With libxml2, drop `XML_PARSE_NOENT` and `XML_PARSE_DTDLOAD` and add `XML_PARSE_NONET`. If you need DTDs, resolve only a fixed allowlist of known entities yourself.",
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
            .triggering("Feed+libxml2.m", """
            xmlDocPtr ParseFeed(NSData *data) {
                int options = XML_PARSE_NOENT | XML_PARSE_NONET;
                return ↓xmlReadMemory(data.bytes, (int)data.length, NULL, NULL, options);
            }
            """),
            .triggering("Parser.c", """
            void configure(xmlParserCtxtPtr ctxt) {
                ↓xmlCtxtUseOptions(ctxt, XML_PARSE_DTDLOAD | XML_PARSE_NOENT);
                ↓xmlSubstituteEntitiesDefault(1);
                ↓xmlLoadExtDtdDefaultValue = 1;
            }
            """),
            .triggering("Feed+libxml2.swift", """
            import libxml2
            func parse(_ data: Data) -> xmlDocPtr? {
                data.withUnsafeBytes { buffer in
                    ↓xmlReadMemory(buffer.baseAddress, Int32(buffer.count), nil, nil, Int32(XML_PARSE_NOENT.rawValue))
                }
            }
            func parseHTML(_ path: String) -> htmlDocPtr? {
                ↓htmlReadFile(path, nil, Int32(HTML_PARSE_NOERROR.rawValue | XML_PARSE_DTDLOAD.rawValue))
            }
            """),
            .nonTriggering("Feed+libxml2.swift", """
            import libxml2
            func parse(_ data: Data) -> xmlDocPtr? {
                data.withUnsafeBytes { buffer in
                    xmlReadMemory(buffer.baseAddress, Int32(buffer.count), nil, nil, Int32(XML_PARSE_NONET.rawValue))
                }
            }
            """),
            .nonTriggering("Parser.c", """
            xmlDocPtr parse(const char *buffer, int length) {
                xmlSubstituteEntitiesDefault(0);
                return xmlReadMemory(buffer, length, NULL, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR);
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
            .triggering("Demo.app/Demo", """
            Mach-O executable arm64
            imports: _objc_msgSend _OBJC_CLASS_$_NSXMLParser
            selectors: initWithData: ↓setShouldResolveExternalEntities: parse
            """, note: "A built app sends the setter; the value is not visible, hence low confidence."),
            .nonTriggering("Demo.app/Demo", """
            Mach-O executable arm64
            imports: _objc_msgSend _OBJC_CLASS_$_NSXMLParser
            selectors: initWithData: parse
            """),
        ])

    public init() {}

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        // The property (Swift, setter, KVC key) and the libxml2 functions are named in the source.
        if unit.names.mayWriteProperty(APIs.xmlResolveExternalEntities.swift) {
            for write in file.propertyWrites(named: Set(APIs.xmlResolveExternalEntities.swift)) where write.value.boolValue == true {
                sink.report("XML parser set to resolve external entities: a crafted document can read local files or fetch URLs (XXE).",
                            in: file, at: write.range)
            }
        }
        if unit.names.containsAny(Self.libxml2Functions) || unit.names.contains("xmlSubstituteEntitiesDefault") { checkLibXML2(file, &sink) }
    }

    /// libxml2 readers and option setters whose options (followed through locals) include the flags.
    static let libxml2Functions: Set<String> = [
        "xmlReadMemory", "xmlReadFile", "xmlReadDoc", "xmlReadFd", "xmlReadIO", "xmlCtxtReadMemory", "xmlCtxtReadFile",
        "xmlCtxtReadDoc", "xmlCtxtReadFd", "xmlCtxtReadIO", "xmlCtxtUseOptions", "xmlParseInNodeContext",
        "htmlReadMemory", "htmlReadFile", "htmlReadDoc", "htmlReadFd", "htmlReadIO", "htmlCtxtReadMemory",
        "htmlCtxtReadFile", "htmlCtxtReadDoc", "htmlCtxtUseOptions",
    ]
    static let dangerousOptions: [String: String] = [
        "XML_PARSE_NOENT": "substitutes entities (XML_PARSE_NOENT)",
        "XML_PARSE_DTDLOAD": "loads the external DTD (XML_PARSE_DTDLOAD)",
    ]

    private func checkLibXML2(_ file: CodeFile, _ sink: inout FindingSink) {
        let cache = LocalValuesCache(file: file)
        for (call, context) in file.calls(where: { call in
            guard case .call(let callee, _, false) = call.kind, case .identifier(let name) = callee.unwrapped.kind else { return false }
            return Self.libxml2Functions.contains(name) || name == "xmlSubstituteEntitiesDefault"
        }) {
            guard case .call(let callee, let arguments, _) = call.kind, let name = callee.name else { continue }
            if name == "xmlSubstituteEntitiesDefault" {
                if let flag = arguments.first?.value, flag.boolValue != false, flag.stringValue == nil {
                    sink.report("`xmlSubstituteEntitiesDefault` turns on entity substitution for every libxml2 parse: a crafted document can read local files (XXE).",
                                in: file, at: call.range)
                }
                continue
            }
            let values = cache.values(for: context)
            var found: [String] = []
            for argument in arguments {
                for node in values.reachable(from: argument.value) {
                    if case .identifier(let option) = node.kind, let description = Self.dangerousOptions[option], !found.contains(description) {
                        found.append(description)
                    }
                }
            }
            guard !found.isEmpty else { continue }
            sink.report("`\(name)` is called with options that \(found.joined(separator: " and ")): a crafted document can read local files or fetch URLs (XXE). Drop these options and add XML_PARSE_NONET.",
                        in: file, at: call.range)
        }
        // xmlLoadExtDtdDefaultValue = <non-zero>: every parse loads external DTDs.
        file.forEachStatement { statement, _ in
            guard case .assignment(let target, "=", let value) = statement.kind,
                  case .identifier("xmlLoadExtDtdDefaultValue") = target.unwrapped.kind, value.boolValue != false else { return }
            sink.report("`xmlLoadExtDtdDefaultValue` is set: every libxml2 parse loads external DTDs, which can read local files or fetch URLs.",
                        in: file, at: statement.range)
        }
    }
}
