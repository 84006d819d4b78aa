/// The digest a pin holds. Every client pins SHA-256 except OkHttp 3 and 4, which also accept `sha1/` pins
/// (`CertificatePinner.Pin`: the SHA-1 of the certificate's SubjectPublicKeyInfo); HPKP's `pin-sha256` and the
/// other formats stay SHA-256.
public enum PinHashAlgorithm: String, Sendable, Codable, CaseIterable {
    /// SHA-256: 32 bytes, 44 characters of base64.
    case sha256
    /// SHA-1: 20 bytes, 28 characters of base64; SubjectPublicKeyInfo pins only.
    case sha1

    /// The length of the digest in bytes.
    public var digestBytes: Int {
        switch self {
        case .sha256: return 32
        case .sha1: return 20
        }
    }

    /// The prefix OkHttp writes before the base64 (`sha256/`, `sha1/`).
    public var prefix: String { rawValue + "/" }
}
