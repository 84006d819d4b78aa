import PinGuardCore

/// Base64 decoding as each pinning client does it, so a pin the app accepts is imported and one it rejects is not.
///
/// Every client here ignores the unused low bits of the last character: `…BBB=` and `…BBA=` decode to the same
/// digest. pinguard writes the canonical form and reports the written one as non-canonical (a note, not an error).
enum ClientBase64 {
    /// How a client reads base64.
    enum Dialect {
        /// Foundation `NSData(base64EncodedString:options: 0)` (TrustKit, ATS): standard alphabet, length a
        /// multiple of 4 with `=` padding, no whitespace.
        case foundation
        /// Okio `decodeBase64` (OkHttp) and Android's NSC parser: either alphabet, padding optional, whitespace ignored.
        case lenient
    }

    /// The decoded bytes, or nil when `dialect` refuses `text`.
    static func decode(_ text: String, _ dialect: Dialect) -> [UInt8]? {
        var sextets: [UInt8] = []
        sextets.reserveCapacity(text.utf8.count)
        var padding = 0
        for b in text.utf8 {
            if b == UInt8(ascii: "=") {
                padding += 1
                continue
            }
            if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D {
                guard dialect == .lenient else { return nil }
                continue
            }
            // Nothing but padding (and, when lenient, whitespace) may follow padding.
            guard padding == 0, let v = value(b, urlSafe: dialect == .lenient) else { return nil }
            sextets.append(v)
        }
        let rest = sextets.count % 4
        guard !sextets.isEmpty, rest != 1 else { return nil }
        // Okio drops any run of trailing `=`; Foundation wants exactly the padding the length calls for.
        if dialect == .foundation, padding != (rest == 0 ? 0 : 4 - rest) { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(sextets.count * 3 / 4)
        var k = 0
        while k + 4 <= sextets.count {
            let n = UInt32(sextets[k]) << 18 | UInt32(sextets[k + 1]) << 12 | UInt32(sextets[k + 2]) << 6 | UInt32(sextets[k + 3])
            out.append(UInt8(truncatingIfNeeded: n >> 16))
            out.append(UInt8(truncatingIfNeeded: n >> 8))
            out.append(UInt8(truncatingIfNeeded: n))
            k += 4
        }
        if rest >= 2 {
            let n = UInt32(sextets[k]) << 18 | UInt32(sextets[k + 1]) << 12 | (rest == 3 ? UInt32(sextets[k + 2]) << 6 : 0)
            out.append(UInt8(truncatingIfNeeded: n >> 16))
            if rest == 3 { out.append(UInt8(truncatingIfNeeded: n >> 8)) }
        }
        return out
    }

    /// A 32-byte SHA-256 digest read as `dialect` does: its canonical base64 and whether `text` was written that
    /// way; nil when the client refuses it or it is not 32 bytes.
    static func sha256(_ text: String, _ dialect: Dialect) -> (hash: String, canonical: Bool)? {
        guard let bytes = decode(text, dialect), bytes.count == 32 else { return nil }
        let hash = Base64.encode(bytes)
        return (hash, hash == text)
    }

    /// The sextet of a base64 character (with `-` and `_` when `urlSafe`).
    static func value(_ b: UInt8, urlSafe: Bool) -> UInt8? {
        switch b {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return b - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return b - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): return 62
        case UInt8(ascii: "/"): return 63
        case UInt8(ascii: "-") where urlSafe: return 62
        case UInt8(ascii: "_") where urlSafe: return 63
        default: return nil
        }
    }
}
