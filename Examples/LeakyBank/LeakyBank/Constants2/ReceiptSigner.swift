import CryptoKit
import Foundation

/// Signs receipts shown to the user. The unsafe signer's key is a property set once, in `init`, to a
/// literal; the safe signer's key property is replaced by the one read from the Keychain before use.
final class ReceiptSigner {
    private var signingKey: Data

    init() {
        signingKey = Data("receipt-signing-key-0123456789ab".utf8)
    }

    func sign(_ receipt: Data) -> Data {
        Data(HMAC<SHA256>.authenticationCode(for: receipt, using: SymmetricKey(data: signingKey)))
    }
}

final class SafeReceiptSigner {
    private var signingKey = Data()

    func load(from keychain: ReceiptKeychain) {
        signingKey = keychain.signingKey()
    }

    func sign(_ receipt: Data) -> Data {
        Data(HMAC<SHA256>.authenticationCode(for: receipt, using: SymmetricKey(data: signingKey)))
    }
}

protocol ReceiptKeychain {
    func signingKey() -> Data
}
