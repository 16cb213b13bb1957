import CZlib
import Foundation

/// Bounded zlib inflation. Output never grows past `limit`; a stream that would produce more is
/// reported as `.exceedsLimit` without decoding the rest.
enum Inflater {
    enum Wrapper {
        /// Raw deflate (ZIP entries).
        case raw
        /// A zlib stream with its two-byte header and Adler-32 trailer.
        case zlib

        var windowBits: Int32 { self == .raw ? -15 : 15 }
    }

    enum Outcome {
        /// The stream ended; the output and how many input bytes it used.
        case complete(Data, consumed: Int)
        /// The output reached `limit` and the stream still had more to give.
        case exceedsLimit
    }

    static let chunkSize = 64 * 1024

    static func inflate(_ input: RawBytes, wrapper: Wrapper, limit requestedLimit: Int) throws -> Outcome {
        let limit = max(0, requestedLimit)
        var stream = z_stream()
        let status = inflateInit2_(&stream, wrapper.windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw BinaryFormatError(.zlib, "inflateInit2 failed (\(status))") }
        defer { inflateEnd(&stream) }

        var output = Data()
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        var remaining = input.count
        var inputOffset = 0
        while true {
            // zlib counts in UInt32; feed very large inputs piecewise.
            if stream.avail_in == 0 && remaining > 0, let base = input.buffer.baseAddress {
                let piece = min(remaining, Int(UInt32.max / 2))
                stream.next_in = UnsafeMutablePointer(mutating: (base + inputOffset).assumingMemoryBound(to: Bytef.self))
                stream.avail_in = UInt32(piece)
                inputOffset += piece
                remaining -= piece
            }
            // One byte more than the limit allows, to tell "exactly the limit" from "more".
            let left = limit - output.count
            let room = left >= chunkSize ? chunkSize : left + 1
            let (result, produced) = chunk.withUnsafeMutableBytes { buffer -> (Int32, Int) in
                stream.next_out = buffer.baseAddress?.assumingMemoryBound(to: Bytef.self)
                stream.avail_out = UInt32(room)
                let result = CZlib.inflate(&stream, Z_NO_FLUSH)
                return (result, room - Int(stream.avail_out))
            }
            if produced > 0 {
                if output.count + produced > limit { return .exceedsLimit }
                chunk.withUnsafeBytes { output.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[0..<produced])) }
            }
            switch result {
            case Z_STREAM_END:
                let consumed = inputOffset - Int(stream.avail_in)
                return .complete(output, consumed: consumed)
            case Z_OK:
                continue
            case Z_BUF_ERROR:
                if produced == 0 && stream.avail_in == 0 && remaining == 0 {
                    throw BinaryFormatError(.zlib, "compressed stream is truncated")
                }
                if produced == 0 { throw BinaryFormatError(.zlib, "compressed stream made no progress") }
            case Z_NEED_DICT:
                throw BinaryFormatError(.zlib, "compressed stream needs a preset dictionary")
            default:
                let message = stream.msg.map { String(cString: $0) } ?? "error \(result)"
                throw BinaryFormatError(.zlib, "corrupt compressed stream: \(message)")
            }
        }
    }
}

/// CRC-32 (the ZIP checksum) through zlib.
enum Checksum {
    static func crc32(_ bytes: RawBytes) -> UInt32 {
        var crc = CZlib.crc32(0, nil, 0)
        var offset = 0
        while offset < bytes.count, let base = bytes.buffer.baseAddress {
            let piece = min(bytes.count - offset, Int(UInt32.max / 2))
            crc = CZlib.crc32(crc, (base + offset).assumingMemoryBound(to: Bytef.self), UInt32(piece))
            offset += piece
        }
        return UInt32(truncatingIfNeeded: crc)
    }

    static func crc32(_ data: Data) -> UInt32 { data.withRawBytes { crc32($0) } }
}
