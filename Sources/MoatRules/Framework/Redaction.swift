import Foundation

/// Removes secrets from evidence before it reaches any output. Applied to every finding's evidence.
public enum Redaction {
    /// Quoted string literals that look like secrets (long, high-entropy, or in a well-known credential
    /// format) are replaced by their first four characters and `…[redacted]`. Text outside quotes
    /// (identifiers, keywords) is never masked.
    public static func redact(_ text: String) -> String {
        redact(text, masking: [])
    }

    /// Redacts the text as `redact(_:)` does, and also masks the given values (secrets a rule recognised by
    /// their context, such as a low-entropy password assigned to `password`): inside string literals
    /// wherever they occur, outside them only as a whole token. An identifier that merely starts with the
    /// same letters as a value (`refreshToken` for the value `refresh`) is left as it is.
    public static func redact(_ text: String, masking values: [String]) -> String {
        let values = values.filter { !$0.isEmpty }.sorted { $0.count > $1.count }
        var output = ""
        var outside = ""
        var index = text.startIndex
        func flushOutside() {
            output += maskWholeTokens(outside, values)
            outside = ""
        }
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
                    outside += text[index...]
                    break
                }
                flushOutside()
                let literal = String(text[text.index(after: index)..<end])
                output += "\"" + maskLiteral(literal, values) + "\""
                index = text.index(after: end)
                continue
            }
            outside.append(character)
            index = text.index(after: index)
        }
        flushOutside()
        if output.contains("-----BEGIN"), output.contains("PRIVATE KEY") { return "-----BEGIN … PRIVATE KEY-----[redacted]" }
        return output
    }

    /// A literal's text with the given values masked where they occur in it, or the whole literal masked
    /// when it looks like a secret by itself.
    static func maskLiteral(_ literal: String, _ values: [String]) -> String {
        var masked = literal
        for value in values where masked.contains(value) {
            masked = masked.replacingOccurrences(of: value, with: mask(value))
        }
        if masked != literal { return masked }
        return looksSecret(literal) ? mask(literal) : literal
    }

    /// Occurrences of the values that stand as whole tokens (not inside a longer identifier or number).
    static func maskWholeTokens(_ text: String, _ values: [String]) -> String {
        guard !values.isEmpty, !text.isEmpty else { return text }
        func isWordCharacter(_ character: Character) -> Bool { character.isLetter || character.isNumber || character == "_" }
        var result = text
        for value in values {
            var searchStart = result.startIndex
            while let range = result.range(of: value, range: searchStart..<result.endIndex) {
                let before = range.lowerBound > result.startIndex ? result[result.index(before: range.lowerBound)] : nil
                let after = range.upperBound < result.endIndex ? result[range.upperBound] : nil
                let startsWord = value.first.map(isWordCharacter) ?? false
                let endsWord = value.last.map(isWordCharacter) ?? false
                let standsAlone = !(startsWord && before.map(isWordCharacter) == true) && !(endsWord && after.map(isWordCharacter) == true)
                if standsAlone {
                    let replacement = mask(value)
                    result.replaceSubrange(range, with: replacement)
                    searchStart = result.index(range.lowerBound, offsetBy: replacement.count)
                } else {
                    searchStart = range.upperBound
                }
            }
        }
        return result
    }

    public static func mask(_ secret: String) -> String {
        String(secret.prefix(4)) + "…[redacted]"
    }

    /// A value in a known credential format, or a long random-looking token: at least 20 characters
    /// without spaces or slashes, letters and digits mixed, high entropy, and not an identifier
    /// (`com.example.app.notification.didUpdate`, `UITableViewAutomaticDimension2`) or a word.
    public static func looksSecret(_ value: String) -> Bool {
        if value.contains("PRIVATE KEY") { return true }
        let knownPrefixes = ["AKIA", "ASIA", "ghp_", "gho_", "ghs_", "ghu_", "ghr_", "github_pat_", "xoxb-", "xoxp-", "xoxa-",
                             "xoxr-", "xoxs-", "sk_live_", "rk_live_", "sk_test_", "AIza", "glpat-", "SG.", "sk-"]
        if knownPrefixes.contains(where: { value.hasPrefix($0) }) && value.count >= 16 { return true }
        guard value.count >= 20, !value.contains(" "), !value.contains("/"), !value.hasPrefix("http") else { return false }
        guard value.contains(where: \.isNumber), value.contains(where: \.isLetter) else { return false }
        guard SecretNaming.isPlausibleSecret(value) else { return false }
        // An identifier in camel case with a number in it: long words between the case changes.
        let words = SecretNaming.words(value).filter { $0.contains(where: \.isLetter) }
        if value.allSatisfy({ ($0.isLetter || $0.isNumber || $0 == "_") && $0.isASCII }),
           words.count >= 3, Double(value.filter(\.isLetter).count) / Double(words.count) >= 4 { return false }
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
