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

/// Splices deflate pieces into one gzip member (RFC 1952): a header, the pieces' blocks in order, an
/// empty final block, and the CRC-32 and length of everything, combined from the pieces' own.
public struct GzipAssembler {
    /// The member's bytes so far, in parts of about `partSize` bytes.
    public private(set) var parts: [[UInt8]] = []
    private var current: [UInt8]
    private var crc: UInt32 = 0
    private var length = 0
    private let partSize: Int

    /// Starts a member; `partSize` bounds each part of `parts` (each is one write to the socket).
    public init(partSize: Int = 1 << 20) {
        self.partSize = partSize
        current = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255]
        current.reserveCapacity(partSize)
    }

    /// Appends a piece.
    public mutating func append(_ piece: DeflatePiece) {
        guard piece.length > 0 else { return }
        crc = UInt32(crc32_combine(uLong(crc), uLong(piece.crc), off_t(piece.length)))
        length += piece.length
        if current.count + piece.deflated.count > partSize, !current.isEmpty {
            parts.append(current)
            current = []
            current.reserveCapacity(max(partSize, piece.deflated.count))
        }
        current += piece.deflated
    }

    /// The whole member, and the length of the uncompressed bytes.
    public mutating func finish() -> (parts: [[UInt8]], uncompressedLength: Int) {
        current += [1, 0, 0, 0xff, 0xff]  // BFINAL 1, stored, empty
        for v in [crc, UInt32(truncatingIfNeeded: length)] {
            current += [UInt8(v & 0xff), UInt8((v >> 8) & 0xff), UInt8((v >> 16) & 0xff), UInt8(v >> 24)]
        }
        parts.append(current)
        current = []
        return (parts, length)
    }
}
