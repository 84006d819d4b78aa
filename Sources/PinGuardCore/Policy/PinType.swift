/// What a pin hashes: the SPKI of a certificate, the whole certificate, or the SPKI of a CA.
public enum PinType: String, Sendable, Codable, CaseIterable {
    /// SHA-256 of the DER SubjectPublicKeyInfo of any certificate in scope.
    case spki
    /// SHA-256 of the whole DER certificate.
    case certificate
    /// SHA-256 of the SPKI of a CA certificate (never the leaf).
    case ca
}
