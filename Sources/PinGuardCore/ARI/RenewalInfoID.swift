/// The certificate identifier of ACME Renewal Information (RFC 9773 §4.1): the base64url (unpadded) of
/// the leaf's Authority Key Identifier keyIdentifier, a dot, and the base64url of its serial number's DER
/// content bytes (a leading zero byte kept when the high bit would be set).
///
/// ARI is in four places: this folder (identifier, window, schedule: pure), PinGuardReaders/ARI (the JSON
/// of directories and windows), PinGuardARI (fetching on its own schedule, through the guarded fetcher),
/// PinGuardService (wiring the windows into the forecast, metrics and events), and `pinguard probe`, which asks once.
public enum RenewalInfoID {
    /// The identifier of a certificate with Authority Key Identifier `keyIdentifierHex` and serial
    /// `serialHex` (hex, any case, as `ChainCertificate` holds them); nil when either is missing or not hex.
    public static func make(keyIdentifierHex: String, serialHex: String) -> String? {
        guard let keyID = bytes(hex: keyIdentifierHex), !keyID.isEmpty, let serial = serialDER(hex: serialHex) else { return nil }
        return base64url(keyID) + "." + base64url(serial)
    }

    /// The identifier of `certificate`; nil without an Authority Key Identifier.
    public static func of(_ certificate: ChainCertificate) -> String? {
        guard let keyID = certificate.authorityKeyID else { return nil }
        return make(keyIdentifierHex: keyID, serialHex: certificate.serial)
    }

    /// The DER content bytes of a positive INTEGER with magnitude `hex`: no redundant leading zero, one
    /// zero byte added when the first byte's high bit is set.
    static func serialDER(hex: String) -> [UInt8]? {
        guard var value = bytes(hex: hex.count % 2 == 1 ? "0" + hex : hex) else { return nil }
        while value.count > 1 && value[0] == 0 && value[1] & 0x80 == 0 { value.removeFirst() }
        if value.isEmpty { return nil }
        if value[0] & 0x80 != 0 { value.insert(0, at: 0) }
        return value
    }

    /// Bytes of a hex string (even length, any case); nil for anything else.
    static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count / 2)
        var i = 0
        while i < digits.count {
            guard let high = nibble(digits[i]), let low = nibble(digits[i + 1]) else { return nil }
            out.append(high << 4 | low)
            i += 2
        }
        return out
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x41...0x46: return c - 0x41 + 10
        case 0x61...0x66: return c - 0x61 + 10
        default: return nil
        }
    }

    /// Unpadded base64url (RFC 4648 §5).
    public static func base64url(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            let n = min(3, bytes.count - i)
            let chunk = (UInt32(bytes[i]) << 16) | (n > 1 ? UInt32(bytes[i + 1]) << 8 : 0) | (n > 2 ? UInt32(bytes[i + 2]) : 0)
            for k in 0...n { out.append(alphabet[Int((chunk >> (18 - 6 * UInt32(k))) & 63)]) }
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
