/// The two hashes a certificate's key is pinned by: SHA-256 of the SubjectPublicKeyInfo (what TrustKit, ATS,
/// OkHttp, Android and HPKP compare) and SHA-256 of the raw public key bytes inside it (what SDKs built on
/// `SecKeyCopyExternalRepresentation` compare). Computed by the caller: the core has no digest.
public struct CertificateKeyHashes: Sendable, Equatable {
    /// 0-based position of the certificate in the chain file (0 is the leaf of a served chain).
    public var position: Int
    /// Subject, RFC 2253.
    public var subject: String
    /// Base64 SHA-256 of the DER SubjectPublicKeyInfo.
    public var spkiSHA256: String
    /// Base64 SHA-256 of the raw public key bytes (`DER.subjectPublicKeyBits`).
    public var rawKeySHA256: String

    /// Creates the hashes of one certificate.
    public init(position: Int, subject: String, spkiSHA256: String, rawKeySHA256: String) {
        self.position = position
        self.subject = subject
        self.spkiSHA256 = spkiSHA256
        self.rawKeySHA256 = rawKeySHA256
    }
}
