/// Finds where an element's start tag begins in an XML text. Foundation's `XMLParser` (libxml2) reports the
/// line where a start tag *ends*; a finding belongs where it begins (`<attribute name="password"…`), so the
/// readers of storyboards and Core Data models look back from the reported line.
///
/// Every `<name` is indexed once (by name, in text order), so a lookup is a binary search. Scanning back
/// up to `lookBack` lines byte by byte for each element was quadratic: on a file that is one long line
/// (`\r` line ends), or for a tag name followed by `\r`, which did not end a name, each lookup read the
/// whole line (2,000 `<textField\r/>`: 20 s), and a file with `\r\n` line ends was all one line.
struct XMLStartTags {
    private struct Position {
        var line: Int
        var column: Int
    }

    private let lineCount: Int
    /// Positions of `<name` followed by a name end (or a line end), per name, in text order.
    private let positions: [[UInt8]: [Position]]
    /// How many lines before the reported one a start tag may begin (a tag split over many attribute lines).
    private let lookBack: Int

    /// The bytes that end an element name: XML white space, `>` and `/`.
    private static let ends: Set<UInt8> = [UInt8(ascii: " "), UInt8(ascii: ">"), UInt8(ascii: "/"), UInt8(ascii: "\t"),
                                           UInt8(ascii: "\r"), UInt8(ascii: "\n")]

    init(text: String, lookBack: Int) {
        var positions: [[UInt8]: [Position]] = [:]
        var lineCount = 0
        // Lines split on the byte, as libxml2 counts them: `"\r\n"` is one `Character`, so splitting the
        // `String` on "\n" made a Windows-style file one line.
        for line in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineCount += 1
            let bytes = Array(line)
            var index = 0
            while index < bytes.count {
                guard bytes[index] == UInt8(ascii: "<") else { index += 1; continue }
                var end = index + 1
                while end < bytes.count, bytes[end] != UInt8(ascii: "<"), !Self.ends.contains(bytes[end]) { end += 1 }
                // A name ends at a name end or the line's end; `<a<b` names only `b`.
                if end > index + 1, end == bytes.count || bytes[end] != UInt8(ascii: "<") {
                    positions[Array(bytes[(index + 1)..<end]), default: []].append(Position(line: lineCount, column: index + 1))
                }
                index = end
            }
        }
        self.lineCount = lineCount
        self.positions = positions
        self.lookBack = lookBack
    }

    /// The line and column (1-based) of the last `<element` followed by white space, `>` or `/` (or the
    /// line's end) at or before `reportedLine`; the reported line, column 1, when there is none within
    /// `lookBack` lines.
    func position(of element: String, reportedLine: Int) -> (line: Int, column: Int) {
        let fallback = (max(reportedLine, 1), 1)
        guard let found = positions[Array(element.utf8)] else { return fallback }
        let line = min(max(reportedLine, 1), lineCount)
        // The first position on a line after `line`; the one before it is the last at or before `line`.
        var low = 0, high = found.count
        while low < high {
            let middle = (low + high) / 2
            if found[middle].line <= line { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return fallback }
        let last = found[low - 1]
        guard last.line >= 1, last.line > reportedLine - lookBack else { return fallback }
        return (last.line, last.column)
    }
}
