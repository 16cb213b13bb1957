import Foundation

/// The URL test cases of a plan (url-cases.txt) and the script that opens them in a simulator
/// (openurl.sh). Every URL is percent-encoded so that it parses as a URL of its scheme; the payloads
/// decode to what the category says.
enum URLCases {
    /// The benign value of a parameter.
    static let benign = "moat"

    /// A payload for one value: its category and its text, either raw (encoded here) or already encoded.
    struct Payload {
        var category: String
        var text: String
        var isEncoded = false
        /// Characters kept as they are when encoding (besides the unreserved ones).
        var keep: String = ""
    }

    /// Values injected into each parameter, in order.
    static func valuePayloads(bundle: String?) -> [Payload] {
        let preferences = "../../../Library/Preferences/\(bundle ?? "moat").plist"
        return [
            Payload(category: "path traversal (../)", text: preferences, keep: "./"),
            Payload(category: "path traversal (%2e%2e%2f)", text: "%2e%2e%2f%2e%2e%2f%2e%2e%2fLibrary%2fPreferences", isEncoded: true),
            Payload(category: "path traversal (double-encoded)", text: "%252e%252e%252f%252e%252e%252fLibrary", isEncoded: true),
            Payload(category: "path traversal (%2F in a name)", text: "moat%2F..%2F..%2F..%2FLibrary%2FPreferences", isEncoded: true),
            Payload(category: "absolute path", text: "/etc/passwd", keep: "/"),
            Payload(category: "over-long value (4096 bytes)", text: String(repeating: "A", count: 4096)),
            Payload(category: "format string", text: "%n%n%n%s%s%s%x%x%@%@"),
            Payload(category: "script payload", text: "<script>alert(document.domain)</script>"),
            Payload(category: "script payload (attribute)", text: "\"><img src=x onerror=alert(1)>"),
            Payload(category: "script payload (javascript: URL)", text: "javascript:alert(document.domain)"),
            Payload(category: "other app's URL", text: "https://moat-test.invalid/callback"),
            Payload(category: "wrong type (negative number)", text: "-1"),
            Payload(category: "wrong type (huge number)", text: "99999999999999999999999999"),
            Payload(category: "wrong type (float)", text: "1e309"),
            Payload(category: "wrong type (boolean)", text: "true"),
            Payload(category: "wrong type (array)", text: "[1,2,3]"),
            Payload(category: "wrong type (JSON object)", text: "{\"a\":1}"),
            Payload(category: "empty value", text: ""),
            Payload(category: "NUL byte", text: "moat%00.txt", isEncoded: true),
            Payload(category: "CR LF", text: "moat\r\ninjected: 1"),
            Payload(category: "Unicode right-to-left override", text: "moat\u{202E}txt.exe"),
        ]
    }

    /// Payloads placed in the path.
    static let pathPayloads: [Payload] = [
        Payload(category: "path traversal (../) in the path", text: "../../../../Library/Preferences", keep: "./"),
        Payload(category: "path traversal (%2e%2e%2f) in the path", text: "%2e%2e%2f%2e%2e%2f%2e%2e%2fLibrary", isEncoded: true),
        Payload(category: "%2F in a path name", text: "moat%2F..%2F..%2FLibrary", isEncoded: true),
        Payload(category: "over-long path (4096 bytes)", text: String(repeating: "A", count: 4096)),
        Payload(category: "format string in the path", text: "%n%s%x%@"),
        Payload(category: "script payload in the path", text: "<script>alert(1)</script>"),
    ]

    static func isUnreserved(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
            || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
    }

    /// Percent-encodes every byte but the unreserved ones and `keep`.
    static func encode(_ text: String, keep: String = "") -> String {
        let kept = Set(keep.utf8)
        var result = ""
        for byte in text.utf8 {
            if isUnreserved(byte) || kept.contains(byte) {
                result.unicodeScalars.append(UnicodeScalar(byte))
            } else {
                result += String(format: "%%%02X", byte)
            }
        }
        return result
    }

    static func encoded(_ payload: Payload) -> String {
        payload.isEncoded ? payload.text : encode(payload.text, keep: payload.keep)
    }

    /// The cases of one scheme or domain, without duplicates, in a fixed order.
    static func cases(for target: TestPlan.URLTarget, bundle: String?) -> [TestPlan.URLTarget.Case] {
        var result: [TestPlan.URLTarget.Case] = []
        var seen = Set<String>()
        func add(_ category: String, _ url: String) {
            if seen.insert(url).inserted { result.append(.init(category: category, url: url)) }
        }
        let prefix = target.domain.map { "https://\(encodeHost($0))" } ?? "\(target.scheme)://"
        let hosts = target.domain == nil ? (target.hosts.isEmpty ? [""] : target.hosts.map(encodeHost)) : [""]
        let paths = target.paths.isEmpty ? [""] : target.paths.map { encode($0, keep: "/") }
        let parameters = target.parameters.map { encode($0) }
        func query(_ values: [(String, String)]) -> String {
            values.isEmpty ? "" : "?" + values.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        }
        let benignQuery = parameters.map { ($0, benign) }
        if target.domain == nil { add("bare scheme", prefix) }
        for host in hosts {
            let base = prefix + host
            for path in paths {
                add("baseline", base + path + query(benignQuery))
            }
            let path = paths[0]
            if target.domain == nil && !target.hosts.isEmpty {
                add("unknown host", prefix + "moat-unknown-host" + path + query(benignQuery))
            }
            for payload in pathPayloads {
                let separator = path.hasSuffix("/") ? "" : "/"
                add(payload.category, base + path + separator + encoded(payload) + query(benignQuery))
            }
            for (index, name) in parameters.enumerated() {
                for payload in valuePayloads(bundle: bundle) {
                    var values = benignQuery
                    values[index] = (name, encoded(payload))
                    add("\(payload.category): \(target.parameters[index])", base + path + query(values))
                }
                var missing = benignQuery
                missing.remove(at: index)
                add("missing parameter: \(target.parameters[index])", base + path + query(missing))
                add("repeated parameter: \(target.parameters[index])",
                    base + path + query(benignQuery + [(name, encode("../../../Library", keep: "./"))]))
            }
            if parameters.isEmpty {
                add("unexpected parameter", base + path + query([("moat", encode("../../../Library", keep: "./"))]))
            }
        }
        return result
    }

    /// A host as given (lowercase letters, digits, `-` and `.` pass), anything else percent-encoded.
    static func encodeHost(_ host: String) -> String {
        encode(host)
    }

    // MARK: Files

    static func casesFile(_ plan: TestPlan) -> String {
        var lines = ["# url-cases.txt: URL test cases generated by \(PlanMarkdown.generator(plan)).",
                     "# One URL per line, percent-encoded; lines starting with # are comments. openurl.sh opens them in order.",
                     "# Hosts, paths and parameter names come from the strings the handlers compare URLs with."]
        if plan.targets.isEmpty && plan.skippedTargets.isEmpty { lines.append("# No custom URL scheme or universal-link domain was found.") }
        for skipped in plan.skippedTargets { lines.append("# skipped: \(HookScript.comment(skipped))") }
        for target in plan.targets {
            lines.append("")
            lines.append("# == \(target.label) declared at \(TestPlan.describe(target.declaredAt))")
            lines.append("#    handlers: \(target.handlers.isEmpty ? "none found" : target.handlers.joined(separator: ", "))")
            lines.append("#    hosts: \(list(target.hosts)); paths: \(list(target.paths)); parameters: \(list(target.parameters))")
            var category = ""
            for item in target.cases {
                if item.category != category {
                    category = item.category
                    lines.append("# -- \(PlanBuilder.oneLine(category))")
                }
                lines.append(item.url)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func list(_ values: [String]) -> String {
        values.isEmpty ? "none observed" : values.map(PlanBuilder.oneLine).joined(separator: ", ")
    }

    /// `'text'` for sh, with single quotes closed, escaped and reopened.
    static func shellQuote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    static func script(_ plan: TestPlan) -> String {
        let total = plan.targets.reduce(0) { $0 + $1.cases.count }
        var lines = [
            "#!/bin/sh",
            "# openurl.sh: opens each URL of url-cases.txt in a booted simulator, one at a time, with a pause.",
            "# Generated by \(PlanMarkdown.generator(plan)).",
            "# Usage: sh openurl.sh [SECONDS]   pause between URLs (default 3)",
            "#        MOAT_DEVICE=<udid> sh openurl.sh   another simulator than the booted one",
            "#        MOAT_STEP=1 sh openurl.sh          wait for Enter before each URL",
            "set -u",
            "pause=\"${1:-3}\"",
            "case \"$pause\" in ''|*[!0-9.]*) echo \"openurl.sh: the pause must be a number of seconds\" >&2; exit 2;; esac",
            "device=\"${MOAT_DEVICE:-booted}\"",
            "total=\(total)",
            "open_url() {",
            "    if [ -n \"${MOAT_STEP:-}\" ]; then printf 'Enter to open case %s/%s ' \"$1\" \"$total\"; read -r _ </dev/tty; fi",
            "    printf '[%s/%s] %s\\n' \"$1\" \"$total\" \"$2\"",
            "    xcrun simctl openurl \"$device\" \"$2\" || printf '    simctl failed (status %s)\\n' \"$?\"",
            "    sleep \"$pause\"",
            "}",
        ]
        var number = 0
        for target in plan.targets {
            lines.append("")
            lines.append("# \(target.label)")
            for item in target.cases {
                number += 1
                lines.append("open_url \(number) \(shellQuote(item.url))")
            }
        }
        lines.append("")
        lines.append("echo \"openurl.sh: opened \(total) URLs\"")
        return lines.joined(separator: "\n") + "\n"
    }
}
