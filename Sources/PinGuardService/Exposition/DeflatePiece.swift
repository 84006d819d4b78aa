import CZlib

/// Bytes compressed as raw deflate blocks that end on a byte boundary (a sync flush) and refer back to
/// nothing before them: pieces compressed separately, at different times, splice into one gzip stream
/// (`GzipAssembler`), which is how `/metrics` sends 100,000 targets' series without compressing them again
/// on every scrape. The CRC-32 and length of the uncompressed bytes go with the piece for the gzip trailer.
public struct DeflatePiece: Sendable, Equatable {
    /// The raw deflate blocks (no zlib or gzip framing), ending byte-aligned and not final.
    public let deflated: [UInt8]
    /// CRC-32 of the uncompressed bytes.
    public let crc: UInt32
    /// Length of the uncompressed bytes.
    public let length: Int

    /// `bytes` as stored (uncompressed) deflate blocks: for the few bytes written per scrape, which are
    /// not worth a compressor's setup.
    public static func stored(_ bytes: [UInt8]) -> DeflatePiece {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + (bytes.count / 65_535 + 1) * 5)
        var start = 0
        repeat {
            let n = min(65_535, bytes.count - start)
            // BFINAL 0, BTYPE 00 (stored), then LEN and its one's complement, little-endian.
            out += [0, UInt8(n & 0xff), UInt8(n >> 8), UInt8(~n & 0xff), UInt8((~n >> 8) & 0xff)]
            out += bytes[start..<start + n]
            start += n
        } while start < bytes.count
        return DeflatePiece(deflated: out, crc: crc32(of: bytes), length: bytes.count)
    }

    /// CRC-32 (the gzip one) of `bytes`.
    public static func crc32(of bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { b in
            UInt32(CZlib.crc32(0, b.baseAddress, UInt32(b.count)))
        }
    }

    /// The uncompressed bytes (for a client that did not ask for gzip).
    public func inflated() -> [UInt8] {
        var stream = z_stream()
        guard inflateInit2_(&stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return [] }
        defer { inflateEnd(&stream) }
        var out = [UInt8](repeating: 0, count: length)
        let produced = deflated.withUnsafeBufferPointer { input -> Int in
            out.withUnsafeMutableBufferPointer { output -> Int in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = UInt32(input.count)
                stream.next_out = output.baseAddress
                stream.avail_out = UInt32(output.count)
                _ = inflate(&stream, Z_SYNC_FLUSH)
                return output.count - Int(stream.avail_out)
            }
        }
        // A piece is made here and never read from outside, so a short inflate is a bug: never send garbage.
        precondition(produced == length, "deflate piece inflated to \(produced) of \(length) bytes")
        return out
    }
}
