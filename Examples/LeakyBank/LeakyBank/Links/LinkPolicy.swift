/// The values leakybank:// links may carry.
enum LinkPolicy {
    static let servers: Set<String> = ["eu.api.leakybank.example", "us.api.leakybank.example"]

    static func isAllowedServer(_ server: String) -> Bool {
        servers.contains(server)
    }
}
