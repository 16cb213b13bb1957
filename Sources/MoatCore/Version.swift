public enum MoatVersion {
    public static let current = "0.1.0"
    public static let name = "moat"
    public static let informationURI = "https://github.com/moat-security/moat"
}
