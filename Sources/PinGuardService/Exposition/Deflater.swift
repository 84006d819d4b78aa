import CZlib

/// A raw-deflate compressor reused for many pieces (one per thread: zlib's state is a few hundred KiB).
public final class Deflater {
    private var stream = z_stream()
    private let ready: Bool

    /// A compressor at zlib `level` (1 fastest … 9 smallest).
    public init(level: Int32) {
        ready = deflateInit2_(&stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY,
                              zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK
    }

    deinit { if ready { deflateEnd(&stream) } }

    /// `bytes` as a piece; stored blocks if zlib could not be set up (never expected, never wrong).
    public func piece(_ bytes: [UInt8]) -> DeflatePiece {
        guard ready, !bytes.isEmpty, deflateReset(&stream) == Z_OK else { return .stored(bytes) }
        // deflateBound covers a finished stream; a sync flush adds at most a few bytes more.
        var out = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))) + 16)
        let status = bytes.withUnsafeBufferPointer { input -> Int32 in
            out.withUnsafeMutableBufferPointer { output -> Int32 in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = UInt32(input.count)
                stream.next_out = output.baseAddress
                stream.avail_out = UInt32(output.count)
                let status = deflate(&stream, Z_SYNC_FLUSH)
                return stream.avail_in == 0 ? status : Z_BUF_ERROR
            }
        }
        guard status == Z_OK else { return .stored(bytes) }
        // A copy of the exact size: the output buffer has room for the whole input, and a piece is kept
        // for as long as its targets' results do not change.
        let deflated = Array(out[..<(out.count - Int(stream.avail_out))])
        return DeflatePiece(deflated: deflated, crc: DeflatePiece.crc32(of: bytes), length: bytes.count)
    }
}
