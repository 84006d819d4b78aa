import Foundation

/// Facts about one certificate, as produced by the probe: no parsing judgement, just what was seen.
public struct ChainCertificate: Sendable, Equatable {
    /// Position in the chain, 0 = leaf.
    public var depth: Int
    /// Subject distinguished name (RFC 2253).
    public var subject: String
    /// Issuer distinguished name (RFC 2253).
    public var issuer: String
    /// Serial number, uppercase hex.
    public var serial: String
    /// Start of validity.
    public var notBefore: Date
    /// End of validity.
    public var notAfter: Date
    /// Base64 SHA-256 of the DER SubjectPublicKeyInfo as served.
    public var spkiSHA256: String
    /// Base64 SHA-256 of the DER certificate.
    public var certSHA256: String
    /// Base64 SHA-256 of the raw public key bytes (the BIT STRING inside the SPKI), which some SDKs pin by
    /// mistake; nil when unknown.
    public var rawKeySHA256: String?
    /// Key algorithm and size as OpenSSL names them, e.g. `RSA-2048`, `RSA-PSS-2048`, `EC-256`, `ED25519-256`.
    public var keyType: String
    /// Whether the certificate's basic constraints mark it as a CA.
    public var isCA: Bool
    /// Whether subject and issuer are the same name (a self-issued certificate, e.g. a root).
    public var selfIssued: Bool
    /// Served by the peer or added from the trust store.
    public var source: CertificateSource

    /// Creates certificate facts.
    public init(depth: Int, subject: String, issuer: String, serial: String = "", notBefore: Date, notAfter: Date,
                spkiSHA256: String, certSHA256: String, keyType: String = "", isCA: Bool = false,
                selfIssued: Bool = false, source: CertificateSource = .served) {
        self.depth = depth
        self.subject = subject
        self.issuer = issuer
        self.serial = serial
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.spkiSHA256 = spkiSHA256
        self.certSHA256 = certSHA256
        self.keyType = keyType
        self.isCA = isCA
        self.selfIssued = selfIssued
        self.source = source
    }
}
