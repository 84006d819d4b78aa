import PinGuardCore

/// A position in raw XML bytes with its line, for the scans that run before libxml2 sees a document.
struct XMLByteCursor {
    let bytes: [UInt8]
    /// Index of the next byte.
    var i: Int
    /// 1-based line of `i`.
    var line = 1

    /// A cursor at the start of `bytes`, past a UTF-8 byte order mark.
    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    }

    /// Whether the bytes at the cursor are `prefix`.
    func at(_ prefix: String) -> Bool { i < bytes.count && bytes[i...].starts(with: Array(prefix.utf8)) }

    /// Moves past the next occurrence of `end` (or to the end of the input), counting lines.
    mutating func skip(past end: String) {
        let marker = Array(end.utf8)
        while i < bytes.count, !bytes[i...].starts(with: marker) {
            if bytes[i] == 0x0A { line += 1 }
            i += 1
        }
        i += marker.count
    }
}
