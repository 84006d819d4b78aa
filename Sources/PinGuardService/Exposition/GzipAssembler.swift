import CZlib

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
