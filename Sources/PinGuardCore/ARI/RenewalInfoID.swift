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
        guard let keyID = Hex.bytes(keyIdentifierHex), !keyID.isEmpty, let serial = serialDER(hex: serialHex) else { return nil }
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
        guard var value = Hex.bytes(hex.count % 2 == 1 ? "0" + hex : hex) else { return nil }
        while value.count > 1 && value[0] == 0 && value[1] & 0x80 == 0 { value.removeFirst() }
        if value.isEmpty { return nil }
        if value[0] & 0x80 != 0 { value.insert(0, at: 0) }
        return value
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
