/// A SHA-256 digest of a certificate or of its SubjectPublicKeyInfo, held inline as 32 bytes.
///
/// Chains are compared by these digests on every observation and a hundred thousand of them are loaded
/// at start-up, so the value is four words with no allocation, not a string. It reads and writes the
/// base64 form the probe reports and the hex form used in logs.
public struct ChainDigest: Hashable, Sendable, Comparable {
    /// The digest's bytes 0-7, 8-15, 16-23 and 24-31, each read big-endian.
    public let words: (UInt64, UInt64, UInt64, UInt64)

    /// Creates a digest from its four big-endian words.
    public init(words: (UInt64, UInt64, UInt64, UInt64)) {
        self.words = words
    }

    /// Creates a digest from exactly 32 bytes; nil for any other count.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 32 else { return nil }
        var w: [UInt64] = [0, 0, 0, 0]
        for (i, byte) in bytes.enumerated() { w[i / 8] = w[i / 8] << 8 | UInt64(byte) }
        self.words = (w[0], w[1], w[2], w[3])
    }

    /// Creates a digest from 64 hex digits (either case); nil if the text is anything else.
    public init?(hex: String) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        var high: UInt8?
        for unit in hex.utf8 {
            guard let nibble = Self.hexValue(unit) else { return nil }
            if let h = high { bytes.append(h << 4 | nibble); high = nil } else { high = nibble }
        }
        guard high == nil else { return nil }
        self.init(bytes: bytes)
    }

    /// Creates a digest from its standard base64 form (44 characters with padding, as the probe reports
    /// it); nil if the text is anything else.
    public init?(base64: String) {
        let units = Array(base64.utf8)
        guard units.count == 44, units[43] == UInt8(ascii: "="), units[42] != UInt8(ascii: "=") else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(33)
        var accumulator: UInt32 = 0
        var bits = 0
        for unit in units[..<43] {
            guard let sextet = Self.base64Value(unit) else { return nil }
            accumulator = accumulator << 6 | UInt32(sextet)
            bits += 6
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        guard accumulator & ((1 << UInt32(bits)) - 1) == 0 else { return nil }
        self.init(bytes: bytes)
    }

    /// The 32 bytes, first byte first.
    public var bytes: [UInt8] {
        [words.0, words.1, words.2, words.3].flatMap { word in
            (0..<8).map { UInt8(truncatingIfNeeded: word >> UInt64(56 - 8 * $0)) }
        }
    }

    /// Lowercase hex, 64 digits.
    public var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        let units = bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }
        return String(decoding: units, as: UTF8.self)
    }

    /// Standard base64 with padding, 44 characters: the form the probe reports.
    public var base64: String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        let input = bytes + [0]
        var units: [UInt8] = []
        units.reserveCapacity(44)
        for start in stride(from: 0, to: 33, by: 3) {
            let group = UInt32(input[start]) << 16 | UInt32(input[start + 1]) << 8 | UInt32(input[start + 2])
            for shift in [18, 12, 6, 0] { units.append(alphabet[Int(group >> UInt32(shift) & 63)]) }
        }
        units[43] = UInt8(ascii: "=")
        return String(decoding: units, as: UTF8.self)
    }

    /// Digests are equal when all 32 bytes are.
    public static func == (lhs: ChainDigest, rhs: ChainDigest) -> Bool {
        lhs.words == rhs.words
    }

    /// Orders digests by their bytes.
    public static func < (lhs: ChainDigest, rhs: ChainDigest) -> Bool {
        lhs.words < rhs.words
    }

    /// Hashes the four words.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
    }

    private static func hexValue(_ unit: UInt8) -> UInt8? {
        switch unit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): unit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): unit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): unit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func base64Value(_ unit: UInt8) -> UInt8? {
        switch unit {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): unit - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): unit - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): unit - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
