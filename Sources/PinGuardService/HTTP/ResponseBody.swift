import PinGuardCore
import PinGuardReaders

/// A `/metrics` response body: a gzip member, or plain bytes that are inflated a piece at a time while
/// they are sent.
public struct ResponseBody: Sendable {
    /// One part of the body, sent in order.
    public enum Part: Sendable {
        /// Bytes as they go on the wire.
        case bytes([UInt8])
        /// A piece whose uncompressed bytes go on the wire (inflated when its turn comes).
        case inflating(DeflatePiece)
    }

    /// The parts, in order.
    public let parts: [Part]
    /// Bytes on the wire.
    public let length: Int
    /// Bytes of the exposition itself (what `HEAD` announces: it never gets gzip).
    public let uncompressedLength: Int
    /// Whether the body is a gzip member (`Content-Encoding: gzip`).
    public let gzip: Bool

    /// The exposition made of `pieces`, spliced into one gzip member or sent plain.
    public init(pieces: [DeflatePiece], gzip: Bool) {
        let total = pieces.reduce(0) { $0 + $1.length }
        uncompressedLength = total
        self.gzip = gzip
        if gzip {
            var member = GzipAssembler()
            for p in pieces { member.append(p) }
            let parts = member.finish().parts
            self.parts = parts.map(Part.bytes)
            length = parts.reduce(0) { $0 + $1.count }
        } else {
            parts = pieces.map(Part.inflating)
            length = total
        }
    }

    /// An exposition rendered whole (`chunks` in order), compressed here when `gzip`.
    public init(chunks: [[UInt8]], gzip: Bool) {
        guard gzip else {
            let length = chunks.reduce(0) { $0 + $1.count }
            self.init(parts: chunks.map(Part.bytes), length: length, uncompressedLength: length, gzip: false)
            return
        }
        let deflater = Deflater(level: 1)
        self.init(pieces: chunks.map(deflater.piece), gzip: true)
    }

    private init(parts: [Part], length: Int, uncompressedLength: Int, gzip: Bool) {
        self.parts = parts
        self.length = length
        self.uncompressedLength = uncompressedLength
        self.gzip = gzip
    }
}
