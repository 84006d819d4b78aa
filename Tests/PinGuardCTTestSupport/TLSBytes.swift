/// The byte layouts RFC 6962 uses: TLS presentation-language integers and length-prefixed vectors, and the
/// DER OCTET STRING that wraps an SCT list in an X.509 or OCSP extension.
///
/// Written out by hand on purpose: the SCTs the tests make must not share code with OpenSSL's CT module,
/// which is what checks them.
public enum TLSBytes {
    /// `value` big-endian in `width` bytes.
    public static func integer(_ value: UInt64, width: Int) -> [UInt8] {
        (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }

    /// `bytes` preceded by its length in `width` bytes (`opaque x<0..2^(8*width)-1>`).
    public static func vector(_ bytes: [UInt8], lengthWidth width: Int) -> [UInt8] {
        integer(UInt64(bytes.count), width: width) + bytes
    }

    /// `bytes` as a DER OCTET STRING.
    public static func derOctetString(_ bytes: [UInt8]) -> [UInt8] {
        [0x04] + derLength(bytes.count) + bytes
    }

    /// A DER length: short form below 128, else the long form.
    static func derLength(_ count: Int) -> [UInt8] {
        guard count >= 0x80 else { return [UInt8(count)] }
        let digits = integer(UInt64(count), width: 8).drop { $0 == 0 }
        return [0x80 | UInt8(digits.count)] + digits
    }
}
