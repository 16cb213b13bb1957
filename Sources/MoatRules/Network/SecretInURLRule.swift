import MoatCore
import MoatSyntax

/// Sensitive data put into a URL: the `sensitive` flow reaching `URL(string:)`, `NSURL URLWithString:` or
/// `URLComponents(string:)` where the string is an `http://` URL (the secret crosses the network in clear)
/// or the secret comes after the `?` (a query string), and `URLQueryItem(name:value:)` values, unless the
/// file sends its query as a request body (`httpBody`, form encoding). The string's literal prefix decides:
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
        let formBody = unit.names.contains("httpBody") || unit.names.contains("HTTPBody")
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
            } else if !formBody {
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
}
