/// How a signed policy bundle is signed (the readers' `SignedBlob.Scheme`).
public enum SignatureScheme: Sendable, Equatable {
    /// HMAC-SHA256 with the shared secret of this ID.
    case hmacSHA256(secretID: String)
    /// ECDSA P-256 over SHA-256 with the public key of this ID.
    case ecdsaP256(keyID: String)

    /// The key ID.
    public var keyID: String {
        switch self {
        case .hmacSHA256(let id), .ecdsaP256(let id): return id
        }
    }

    /// `hmac_sha256` or `ecdsa_p256`.
    public var name: String {
        switch self {
        case .hmacSHA256: return "hmac_sha256"
        case .ecdsaP256: return "ecdsa_p256"
        }
    }
}
