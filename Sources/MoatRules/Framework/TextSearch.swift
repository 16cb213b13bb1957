import MoatCore
import MoatSyntax

extension String {
    /// `contains(needle)`, answered on UTF-8 bytes when this text is ASCII: the same answer without the
    /// generic string search (Foundation's NSString path on Linux, thousands of instructions a call), for
    /// tests asked of every name of a file. Other text is asked as before.
    func containsASCIIAware(_ needle: String) -> Bool {
        if utf8.allSatisfy({ $0 < 0x80 }) { return hasText(needle) }
        return contains(needle)
    }
}
