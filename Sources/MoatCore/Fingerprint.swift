/// Stable, content-based fingerprints. FNV-1a (64-bit) is enough to tell findings apart; it is not used
/// for anything security-relevant.
public enum Fingerprint {
    public static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }

    public static func hex(_ text: String) -> String {
        let value = fnv1a(text)
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// A line of source normalized so that indentation and runs of whitespace do not matter.
    public static func normalize(_ line: String) -> String {
        line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).joined(separator: " ")
    }
}
