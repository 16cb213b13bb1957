import MoatCore
import MoatSyntax

/// Where `http://` literals become requests: URL constructors, request helpers and web view loads. Shared
/// by the web view cleartext rule (which reports the load) and the network cleartext rule (which reports
/// the literal of every other request) so one literal is reported by one of them only.
public enum RequestURLs {
    /// One URL construction (`URL(string:)`, `[NSURL URLWithString:]`, `AF.request("...")`) whose string is
    /// an `http://` literal.
    public struct CleartextURL {
        /// The string literal (where the URL is written).
        public var literal: Expression
        /// The call that turns it into a URL or a request.
        public var construction: Expression
        public var text: String
        public var host: String?
        public var context: WalkContext

        /// Loopback, `.local` and private-network hosts: development servers and devices on the LAN.
        public var isLocal: Bool {
            guard let host = host?.lowercased() else { return false }
            if ["localhost", "127.0.0.1", "::1", "[::1]", "0.0.0.0"].contains(host) || host.hasSuffix(".local")
                || host.hasSuffix(".localhost") || host.hasPrefix("127.") || host.hasPrefix("10.") || host.hasPrefix("192.168.") {
                return true
            }
            if host.hasPrefix("172."), let second = host.split(separator: ".").dropFirst().first, let number = Int(second) {
                return (16...31).contains(number)
            }
            return false
        }
    }

    /// A web view load of a request (`webView.load(request)`, `[webView loadRequest:request]`) and the URL
    /// constructions its request is built from.
    public struct WebLoad {
        public var call: Expression
        public var context: WalkContext
        public var urls: [CleartextURL]
    }

    /// The text after `http://` up to the first `/`, `:`, `?` or `#`; nil when interpolated there.
    static func host(of segments: [StringSegment]) -> String? {
        guard case .text(let first)? = segments.first else { return nil }
        let lower = first.lowercased()
        guard lower.hasPrefix("http://") else { return nil }
        let rest = first.dropFirst(7)
        var host = ""
        if rest.hasPrefix("[") {
            // IPv6 literal.
            if let close = rest.firstIndex(of: "]") { return String(rest[...close]) }
            return nil
        }
        for character in rest {
            if character == "/" || character == ":" || character == "?" || character == "#" { break }
            host.append(character)
        }
        let endsInsideText = rest.contains { "/:?#".contains($0) } || segments.count == 1
        return host.isEmpty || !endsInsideText ? nil : host
    }

    /// The `http://` literal a URL-typed or string-typed expression comes from, if any.
    static func cleartextLiteral(_ expression: Expression, _ values: LocalValues) -> (Expression, String, String?)? {
        let resolved = values.resolve(expression)
        guard case .stringLiteral(let segments) = resolved.kind, case .text(let first)? = segments.first,
              first.lowercased().hasPrefix("http://"), first.count > 7 || segments.count > 1 else { return nil }
        let text = segments.map { segment -> String in
            if case .text(let part) = segment { return part }
            return "\\(…)"
        }.joined()
        return (resolved, text, host(of: segments))
    }

    /// The Objective-C classes of `APIs.urlFromString` (a message send's receiver names one).
    static let objcURLClasses = Set(APIs.urlFromString.classes.filter { $0.hasPrefix("NS") })

    /// If this call builds a URL or request from a string, the string argument.
    static func urlStringArgument(of call: Expression) -> Expression? {
        guard case .call(let callee, let arguments, let isMessageSend) = call.kind, let name = callee.name else { return nil }
        if isMessageSend {
            // [NSURL URLWithString:s], [NSURL URLWithString:s relativeToURL:u], [[NSURL alloc] initWithString:s]
            if APIs.urlFromString.selectors.contains(name) {
                let base = callee.receiver?.nameChain ?? []
                if base.contains(where: objcURLClasses.contains) { return arguments.first?.value }
            }
            return nil
        }
        switch name {
        case _ where APIs.urlFromString.swiftBaseNames.contains(name):
            return arguments.first(where: { $0.label == "string" })?.value
        case _ where APIs.alamofireRequestFromString.swiftBaseNames.contains(name):
            // Alamofire: AF.request("http://..."), session.request("..."); the URL string comes first.
            guard let first = arguments.first, first.label == nil, first.value.isStringLiteral else { return nil }
            return first.value
        default:
            return nil
        }
    }

    /// The URL constructions a request expression is built from (`URLRequest(url: u)`, `[NSURLRequest requestWithURL:u]`).
    static func requestURL(of expression: Expression, _ values: LocalValues) -> Expression? {
        let resolved = values.resolve(expression)
        guard case .call(let callee, let arguments, _) = resolved.kind, let name = callee.name else { return nil }
        if APIs.urlRequestFromURL.swiftBaseNames.contains(name) { return arguments.first(where: { $0.label == "url" })?.value }
        if APIs.urlRequestFromURL.selectors.contains(name) { return arguments.first?.value }
        return nil
    }

    /// Every cleartext URL construction in the file.
    public static func cleartextURLs(in file: CodeFile, cache: LocalValuesCache) -> [CleartextURL] {
        var result: [CleartextURL] = []
        file.forEachExpression { expression, context in
            guard let argument = urlStringArgument(of: expression) else { return }
            let values = cache.values(for: context)
            guard let (literal, text, host) = cleartextLiteral(argument, values) else { return }
            result.append(CleartextURL(literal: literal, construction: expression, text: text, host: host, context: context))
        }
        return result
    }

    /// Web view loads (`load(_:)`, `loadRequest:`) whose request is built from a cleartext URL.
    public static func cleartextWebLoads(in file: CodeFile, cache: LocalValuesCache) -> [WebLoad] {
        var result: [WebLoad] = []
        file.forEachExpression { expression, context in
            guard case .call(let callee, let arguments, let isMessageSend) = expression.kind, let name = callee.name,
                  arguments.count == 1, let request = arguments.first?.value else { return }
            let isLoad = isMessageSend ? APIs.webViewLoadRequest.selectors.contains(name)
                : (APIs.webViewLoadRequest.swiftBaseNames.contains(name) && arguments[0].label == nil)
            guard isLoad else { return }
            let values = cache.values(for: context)
            guard let url = requestURL(of: request, values) else { return }
            let construction = values.resolve(url)
            guard let argument = urlStringArgument(of: construction),
                  let (literal, text, host) = cleartextLiteral(argument, values) else { return }
            result.append(WebLoad(call: expression, context: context,
                                  urls: [CleartextURL(literal: literal, construction: construction, text: text, host: host, context: context)]))
        }
        return result
    }

    /// URL components read right where the URL is built (`URL(string: "http://\\(x)")?.user`): the URL is
    /// only parsed, never requested.
    static let parsedComponents: Set<String> = [
        "user", "password", "host", "scheme", "port", "path", "query", "fragment", "lastPathComponent",
        "pathComponents", "pathExtension", "baseURL", "isFileURL", "hasDirectoryPath",
    ]

    /// URL constructions whose only use is reading one of their components in the same expression.
    public static func parsedOnly(in file: CodeFile) -> Set<ObjectIdentifier> {
        var result = Set<ObjectIdentifier>()
        file.forEachExpression { expression, _ in
            guard case .member(let base?, let name) = expression.kind, parsedComponents.contains(name) else { return }
            var inner = base
            while true {
                switch inner.kind {
                case .postfix(_, let operand), .wrapped(_, let operand): inner = operand; continue
                default: break
                }
                break
            }
            if case .call = inner.kind { result.insert(ObjectIdentifier(inner)) }
        }
        return result
    }

    /// Hosts that name no server: the reserved documentation domains themselves (RFC 2606: `example.com`,
    /// `*.invalid`) and placeholders a build step replaces (`not.required`, `your.server`). Subdomains of
    /// example.com and the `.example` / `.test` names stay reported: sample code uses them to stand for a
    /// real API host.
    public static func isPlaceholderHost(_ host: String?) -> Bool {
        guard let host = host?.lowercased() else { return false }
        if ["example.com", "example.org", "example.net", "www.example.com", "www.example.org", "www.example.net"].contains(host) {
            return true
        }
        if host.hasSuffix(".invalid") || host == "invalid" { return true }
        let labels = host.split(whereSeparator: { $0 == "." || $0 == "-" || $0 == "_" })
        let placeholderWords: Set<Substring> = ["required", "placeholder", "changeme", "your", "yourserver", "yourdomain", "replaceme"]
        return labels.contains { placeholderWords.contains($0) }
    }

    /// The calls that open a URL through the system or ask whether it can be opened.
    static let externalOpenNames = (APIs.systemURLOpens + [APIs.applicationCanOpenURL]).callNames

    /// URL constructions that only open another app or the browser (`UIApplication.shared.open(url)`,
    /// `openURL:`, SwiftUI `Link(destination:)`): not the app's own traffic.
    public static func externallyOpened(in file: CodeFile, cache: LocalValuesCache) -> Set<ObjectIdentifier> {
        var result = Set<ObjectIdentifier>()
        file.forEachExpression { expression, context in
            guard case .call(let callee, let arguments, _) = expression.kind, let name = callee.name else { return }
            let target: Expression?
            if Self.externalOpenNames.contains(name) {
                target = arguments.first?.value
            } else if APIs.swiftUILink.swiftBaseNames.contains(name) {
                target = arguments.first(where: { $0.label == "destination" })?.value
            } else {
                target = nil
            }
            guard let target else { return }
            let values = cache.values(for: context)
            result.insert(ObjectIdentifier(values.resolve(target)))
        }
        return result
    }
}
