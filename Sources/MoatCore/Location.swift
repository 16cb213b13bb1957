/// Where a finding is: a file relative to the scanned root (always `/`-separated), a 1-based line and
/// column, and for property lists the key path (`NSAppTransportSecurity.NSAllowsArbitraryLoads`), for
/// binaries the symbol.
public struct Location: Codable, Sendable, Hashable, Comparable {
    public var path: String
    public var line: Int
    public var column: Int
    public var keyPath: String?
    public var symbol: String?

    public init(path: String, line: Int, column: Int = 1, keyPath: String? = nil, symbol: String? = nil) {
        self.path = path
        self.line = max(1, line)
        self.column = max(1, column)
        self.keyPath = keyPath
        self.symbol = symbol
    }

    public static func < (lhs: Location, rhs: Location) -> Bool {
        (lhs.path, lhs.line, lhs.column, lhs.keyPath ?? "", lhs.symbol ?? "")
            < (rhs.path, rhs.line, rhs.column, rhs.keyPath ?? "", rhs.symbol ?? "")
    }
}

/// One step of a path shown with a finding (a dataflow step, the place a value was declared...).
public struct RelatedLocation: Codable, Sendable, Hashable {
    public var location: Location
    public var message: String

    public init(location: Location, message: String) {
        self.location = location
        self.message = message
    }
}
