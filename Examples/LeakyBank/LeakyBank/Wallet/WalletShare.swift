import UIKit

/// A named pasteboard shared with the team's other apps: listed in `moat surface` (Pasteboard).
final class WalletShare {
    let pasteboard = UIPasteboard(name: UIPasteboard.Name("com.example.leakybank.wallet"), create: true)

    func shareNickname(_ nickname: String) {
        pasteboard?.string = nickname
    }
}
