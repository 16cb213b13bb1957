/// Finds where an element's start tag begins in an XML text. Foundation's `XMLParser` (libxml2) reports the
/// line where a start tag *ends*; a finding belongs where it begins (`<attribute name="password"…`), so the
/// readers of storyboards and Core Data models look back from the reported line.
struct XMLStartTags {
    private let lines: [[UInt8]]
    /// How many lines before the reported one a start tag may begin (a tag split over many attribute lines).
    private let lookBack: Int

    init(text: String, lookBack: Int) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.utf8) }
        self.lookBack = lookBack
    }

    /// The line and column (1-based) of the last `<element` followed by a space, tab, `>` or `/` at or before
    /// `reportedLine`; the reported line, column 1, when there is none within `lookBack` lines.
    func position(of element: String, reportedLine: Int) -> (line: Int, column: Int) {
        let needle = Array(("<" + element).utf8)
        let ends: Set<UInt8> = [UInt8(ascii: " "), UInt8(ascii: ">"), UInt8(ascii: "/"), UInt8(ascii: "\t")]
        var line = min(max(reportedLine, 1), lines.count)
        while line >= 1 && line > reportedLine - lookBack {
            let bytes = lines[line - 1]
            if bytes.count >= needle.count {
                var start = bytes.count - needle.count
                while start >= 0 {
                    if bytes[start..<(start + needle.count)].elementsEqual(needle) {
                        let after = start + needle.count
                        if after == bytes.count || ends.contains(bytes[after]) { return (line, start + 1) }
                    }
                    start -= 1
                }
            }
            line -= 1
        }
        return (max(reportedLine, 1), 1)
    }
}
