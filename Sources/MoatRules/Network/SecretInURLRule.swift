import MoatCore
import MoatSyntax

/// Sensitive data put into a URL: the `sensitive` flow reaching `URL(string:)`, `NSURL URLWithString:` or
/// `URLComponents(string:)` where the string is an `http://` URL (the secret crosses the network in clear)
/// or the secret comes after the `?` (a query string), and `URLQueryItem(name:value:)` values, unless the
/// file sends its query as a request body (`httpBody`, form encoding) or the function around the item (or,
/// for a function that returns query items, every caller in the file) makes a body of them and no URL
/// (`QueryItemsUse`). The string's literal prefix decides:
/// an interpolated literal, or the format of `stringWithFormat:`.
public struct SecretInURLRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-NET-301", slug: "secret-in-url",
        title: "Secret sent in a URL",
        severity: .medium, confidence: .high, evidence: .dataflow, cwe: [598, 319],
        masvs: ["MASVS-NETWORK-1", "MASVS-STORAGE-2"], mastg: ["MASTG-TEST-0065"],
        rationale: "A URL is logged by servers, proxies and analytics, kept in caches and histories and sent in Referer headers; an http:// URL also crosses the network in clear. A token, password or key in the query string or path of such a URL leaks far beyond the request.",
        fix: "Send secrets over HTTPS in a header (`Authorization: Bearer …`) or in a POST body, never in the URL.",
        references: ["https://datatracker.ietf.org/doc/html/rfc6750#section-2.3", "https://cwe.mitre.org/data/definitions/598.html"],
        supersedes: ["MOAT-NET-209"],
        examples: [
            .triggering("Statement.swift", """
            func fetchStatement(token: String) {
                let url = ↓URL(string: "https://api.example.com/statement?access_token=\\(token)")!
                URLSession.shared.dataTask(with: url).resume()
            }
            func login(user: String, password: String) {
                let url = ↓URL(string: "http://bank.example.com/login/\\(user)/\\(password)")!
                URLSession.shared.dataTask(with: url).resume()
            }
            func rates(apiKey: String) -> URL? {
                var components = URLComponents(string: "https://api.example.com/v1/rates")!
                components.queryItems = [↓URLQueryItem(name: "key", value: apiKey)]
                return components.url
            }
            """),
            .triggering("Statement.m", """
            - (NSURL *)statementURL:(NSString *)token {
                return ↓[NSURL URLWithString:[NSString stringWithFormat:@"https://api.example.com/me?token=%@", token]];
            }
            """),
            .nonTriggering("Statement.swift", """
            func fetchStatement(token: String, tokenHelpPath: String) {
                var request = URLRequest(url: URL(string: "https://api.example.com/statement")!)
                request.setValue("Bearer \\(token)", forHTTPHeaderField: "Authorization")
                URLSession.shared.dataTask(with: request).resume()
                let help = URL(string: "https://help.example.com/\\(tokenHelpPath)?lang=en")
            }
            """, note: "The token in a header; a path that only mentions tokens."),
            .nonTriggering("FormClient.swift", """
            struct SignInForm {
                let user: String
                let password: String
                var encoded: Data? {
                    var components = URLComponents()
                    components.queryItems = [URLQueryItem(name: "user", value: user), URLQueryItem(name: "password", value: password)]
                    return components.query?.data(using: .utf8)
                }
            }
            func register(apiKey: String, builder: RequestFactory) -> URLRequest {
                let fields = [URLQueryItem(name: "api_key", value: apiKey)]
                return builder.post(path: "/register", body: FormEncoder.body(from: fields))
            }
            func credentialFields(secret: String) -> [URLQueryItem] {
                [URLQueryItem(name: "client_secret", value: secret)]
            }
            func exchange(secret: String, builder: RequestFactory) -> URLRequest {
                builder.post(path: "/token", formBody: credentialFields(secret: secret))
            }
            """, note: "Query items that become a request body: the components' query encoded as data, items handed to a body encoder."),
            .triggering("SearchClient.swift", """
            func search(term: String, sessionToken: String, builder: RequestFactory) -> URLRequest {
                let items = [URLQueryItem(name: "q", value: term), ↓URLQueryItem(name: "session", value: sessionToken)]
                return builder.get(path: "/search", parameters: items)
            }
            func signingFields(secret: String) -> [URLQueryItem] {
                [↓URLQueryItem(name: "client_secret", value: secret)]
            }
            func signedLink(secret: String, builder: RequestFactory) -> URL? {
                builder.link(path: "/share", parameters: signingFields(secret: secret))
            }
            func export(apiKey: String) -> Data? {
                var components = URLComponents(string: "https://api.example.com/export")!
                components.queryItems = [↓URLQueryItem(name: "key", value: apiKey)]
                _ = components.query?.data(using: .utf8)
                return try? Data(contentsOf: components.url!)
            }
            """),
            .nonTriggering("TokenRequest.swift", """
            func tokenRequest(password: String) -> URLRequest {
                var components = URLComponents()
                components.queryItems = [URLQueryItem(name: "grant_type", value: "password"), URLQueryItem(name: "password", value: password)]
                var request = URLRequest(url: URL(string: "https://auth.example.com/token")!)
                request.httpMethod = "POST"
                request.httpBody = components.percentEncodedQuery?.data(using: .utf8)
                return request
            }
            """, note: "Query items used as a form-encoded POST body."),
        ])

    public init() {}

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        let flows = SensitiveFlows.flows(unit, .urlString, roles: [.url, .value])
        guard !flows.isEmpty else { return }
        var formBody = false
        // Per function (by its start; -1 outside any): its range, declaration and how it uses query items;
        // and which functions call each name.
        var functions: [Int: (range: SourceRange?, function: FunctionDeclaration?, use: QueryItemsUse)] = [:]
        var callers: [String: Set<Int>] = [:]
        file.forEachExpression { expression, context in
            if !formBody, let name = expression.name, name == "httpBody" || name == "HTTPBody" { formBody = true }
            let key = context.function?.range.start.offset ?? -1
            var entry = functions[key] ?? (context.function?.range, context.function, QueryItemsUse())
            entry.use.note(expression)
            functions[key] = entry
            if case .call(let callee, _, _) = expression.kind, let name = callee.name { callers[name, default: []].insert(key) }
        }
        /// Whether the query items made at `range` become a request body: in the innermost function holding
        /// them or, when that function returns query items (`func wrapperParameters() -> [URLQueryItem]`), in
        /// every function of the file that calls it.
        func sentAsBody(_ range: SourceRange) -> Bool {
            func size(_ outer: SourceRange?) -> Int { outer.map { $0.end.offset - $0.start.offset } ?? Int.max }
            guard let inner = functions.values.filter({ $0.range?.contains(range) ?? true }).min(by: { size($0.range) < size($1.range) })
            else { return false }
            if inner.use.sendsQueryAsBody { return true }
            guard let function = inner.function, function.returnType?.contains(QueryItemsUse.itemType) == true,
                  let calling = callers[function.name], !calling.isEmpty else { return false }
            return calling.allSatisfy { functions[$0]?.use.sendsQueryAsBody == true }
        }
        for (flow, taint) in flows {
            let what = DataflowReporting.capitalized(SensitiveFlows.describe(taint))
            if let string = flow.arguments[.url] {
                guard let prefix = Self.literalPrefix(string) else { continue }
                let lowered = prefix.lowercased()
                if lowered.hasPrefix("http://") {
                    SensitiveFlows.report("\(what) is put into the plain-HTTP URL built by \(flow.calledName): it crosses the network in clear and is logged wherever the URL goes. Send it over HTTPS in a header or a POST body.",
                                          flow: flow, taint: taint, in: file,
                                          confidence: SensitiveFlows.confidence(taint, rule: Self.description.confidence), &sink)
                } else if prefix.contains("?") {
                    SensitiveFlows.report("\(what) is put into the query string of the URL built by \(flow.calledName): servers, proxies and analytics log URLs. Send it in a header (Authorization) or a POST body.",
                                          flow: flow, taint: taint, in: file,
                                          confidence: SensitiveFlows.confidence(taint, rule: Self.description.confidence), &sink)
                }
            } else if !formBody, !sentAsBody(flow.range) {
                SensitiveFlows.report("\(what) is put into a URL query item by \(flow.calledName): servers, proxies and analytics log URLs. Send it in a header (Authorization) or a POST body.",
                                      flow: flow, taint: taint, in: file,
                                      confidence: SensitiveFlows.confidence(taint, rule: Self.description.confidence), &sink)
            }
        }
    }

    /// The literal text of a URL string before its first interpolated or formatted value: an interpolated
    /// literal, or the format of a `stringWithFormat:`/`String(format:)` call.
    static func literalPrefix(_ expression: Expression) -> String? {
        let value = expression.strippedOfCasts.unwrapped
        if case .stringLiteral(let segments) = value.kind {
            var text = ""
            for segment in segments {
                guard case .text(let part) = segment else { return text }
                text += part
            }
            return nil
        }
        if case .call(_, let arguments, _) = value.kind, let first = arguments.first, let format = first.value.stringValue,
           let percent = format.firstIndex(of: "%") {
            return String(format[..<percent])
        }
        if case .binary("+", let lhs, _) = value.kind { return lhs.stringValue ?? literalPrefix(lhs) }
        return nil
    }

    /// What a function does with query items: turns them into a URL (`components.url`, `.string`,
    /// `url(relativeTo:)`), or into a request body — hands them to a call named for a body or a form
    /// (`RequestBuilder.body(from: items)`, `formBody(items)`, a `body:` argument) or encodes the
    /// components' query as data (`components.query?.data(using: .utf8)`).
    struct QueryItemsUse {
        var makesURL = false
        var makesBody = false
        static let itemType = "URLQueryItem"
        static let urlMembers: Set<String> = ["url", "URL", "string", "absoluteString", "urlRequest", "asURL"]
        static let queryMembers: Set<String> = ["query", "percentEncodedQuery"]
        static let bodyWords: Set<String> = ["body", "form", "formurlencoded", "urlencoded"]

        /// A query item in this function goes into a body, never into a URL.
        var sendsQueryAsBody: Bool { makesBody && !makesURL }

        mutating func note(_ expression: Expression) {
            switch expression.kind {
            case .member(let base?, let name):
                if Self.urlMembers.contains(name) { makesURL = true }
                if name == "data", Self.queryMembers.contains(base.unwrapped.name ?? "") { makesBody = true }
            case .call(let callee, let arguments, _):
                let names = [callee.name ?? ""] + arguments.compactMap(\.label)
                if names.contains(where: { SecretNaming.words($0).contains(where: Self.bodyWords.contains) }) { makesBody = true }
            default:
                break
            }
        }
    }
}
