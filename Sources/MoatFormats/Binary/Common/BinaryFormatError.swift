import Foundation

/// Why a binary reader refused its input. Readers of untrusted formats throw this instead of trapping;
/// the message says what was wrong and where (an offset, an entry name), never echoing large input.
public struct BinaryFormatError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Format: String, Sendable {
        case zip, machO, codeSignature, der, provisioningProfile, bundle, zlib
    }

    public var format: Format
    public var message: String

    public init(_ format: Format, _ message: String) {
        self.format = format
        self.message = message
    }

    public var description: String { "\(format.rawValue): \(message)" }
}
