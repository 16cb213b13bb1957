import Foundation

/// Removes secrets from evidence before it reaches any output. Applied to every finding's evidence.
public enum Redaction {
    /// Quoted string literals that look like secrets (long, high-entropy, or in a well-known credential
    /// format) are replaced by their first four characters and `…[redacted]`.
    public static func redact(_ text: String) -> String {
        var output = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "\"" {
                // Find the closing quote (no escapes crossing).
                var end = text.index(after: index)
                var escaped = false
                while end < text.endIndex {
                    if escaped { escaped = false } else if text[end] == "\\" { escaped = true } else if text[end] == "\"" { break }
                    end = text.index(after: end)
                }
                guard end < text.endIndex else {
                    output += text[index...]
                    break
                }
                let literal = String(text[text.index(after: index)..<end])
                output += "\"" + (looksSecret(literal) ? mask(literal) : literal) + "\""
                index = text.index(after: end)
                continue
            }
            output.append(character)
            index = text.index(after: index)
        }
        if output.contains("-----BEGIN"), output.contains("PRIVATE KEY") { return "-----BEGIN … PRIVATE KEY-----[redacted]" }
        return output
    }

    /// Redacts the text as `redact(_:)` does, and also masks every occurrence of the given values (secrets
    /// a rule recognised by their context, such as a low-entropy password assigned to `password`).
    public static func redact(_ text: String, masking values: [String]) -> String {
        var output = text
        for value in values.sorted(by: { $0.count > $1.count }) where !value.isEmpty {
            output = output.replacingOccurrences(of: value, with: mask(value))
        }
        return redact(output)
    }

    public static func mask(_ secret: String) -> String {
        String(secret.prefix(4)) + "…[redacted]"
    }

    /// A value in a known credential format, or a long random-looking token.
    public static func looksSecret(_ value: String) -> Bool {
        if value.contains("PRIVATE KEY") { return true }
        let knownPrefixes = ["AKIA", "ASIA", "ghp_", "gho_", "ghs_", "ghu_", "ghr_", "github_pat_", "xoxb-", "xoxp-", "xoxa-",
                             "xoxr-", "xoxs-", "sk_live_", "rk_live_", "sk_test_", "AIza", "glpat-", "SG.", "sk-"]
        if knownPrefixes.contains(where: { value.hasPrefix($0) }) && value.count >= 16 { return true }
        guard value.count >= 20, !value.contains(" "), !value.contains("/"), !value.hasPrefix("http") else { return false }
        return shannonEntropy(value) >= 3.5
    }

    public static func shannonEntropy(_ value: String) -> Double {
        var counts: [Character: Int] = [:]
        for character in value { counts[character, default: 0] += 1 }
        let total = Double(value.count)
        var entropy = 0.0
        for count in counts.values {
            let probability = Double(count) / total
            entropy -= probability * log2(probability)
        }
        return entropy
    }
}
